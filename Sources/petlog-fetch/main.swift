// petlog-fetch: one HTTP(S) GET with a time limit; the body on standard output (exit 0), or one line on
// standard error and exit 1 (no answer), 2 (timed out) or 3 (another status than 200, the status on the
// line). `petlog rates update` runs it: petlog itself does not link FoundationNetworking and libcurl,
// whose forty libraries would add 10 ms to the start of every other command.
// usage: petlog-fetch [--timeout SECONDS] URL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Data?, URLResponse?, Error?) = (nil, nil, nil)
    func set(_ d: Data?, _ r: URLResponse?, _ e: Error?) { lock.lock(); value = (d, r, e); lock.unlock() }
    func get() -> (Data?, URLResponse?, Error?) { lock.lock(); defer { lock.unlock() }; return value }
}

func fail(_ code: Int32, _ line: String) -> Never {
    FileHandle.standardError.write(Data((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var timeout = 20
if let i = arguments.firstIndex(of: "--timeout"), i + 1 < arguments.count, let t = Int(arguments[i + 1]), t > 0 {
    timeout = t
    arguments.removeSubrange(i...(i + 1))
}
guard arguments.count == 1, let url = URL(string: arguments[0]) else { fail(64, "usage: petlog-fetch [--timeout SECONDS] URL") }

let config = URLSessionConfiguration.ephemeral
config.timeoutIntervalForRequest = TimeInterval(timeout)
config.timeoutIntervalForResource = TimeInterval(timeout)
config.requestCachePolicy = .reloadIgnoringLocalCacheData
config.urlCache = nil
let session = URLSession(configuration: config)
let box = Outcome()
let done = DispatchSemaphore(value: 0)
var request = URLRequest(url: url)
request.setValue("petlog", forHTTPHeaderField: "User-Agent")
let task = session.dataTask(with: request) { data, response, error in
    box.set(data, response, error)
    done.signal()
}
task.resume()
// The session's own limit ends the task; this one is a backstop.
if done.wait(timeout: .now() + .seconds(timeout + 5)) == .timedOut {
    task.cancel()
    fail(2, "timed out")
}
let (data, response, error) = box.get()
if let error {
    if (error as? URLError)?.code == .timedOut { fail(2, "timed out") }
    fail(1, error.localizedDescription)
}
let status = (response as? HTTPURLResponse)?.statusCode ?? 0
guard status == 200 else { fail(3, String(status)) }
FileHandle.standardOutput.write(data ?? Data())
exit(0)
