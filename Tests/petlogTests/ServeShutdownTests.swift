import Foundation
import XCTest
import PetlogTestSupport
#if os(Linux)
import Glibc
#endif

/// `petlog serve` stopped by SIGTERM while a request is in flight (issue 41: "in-flight requests finish, nothing
/// half-written"), end to end on both stores: a real server on a loopback port, a raw socket as the browser.
final class ServeShutdownTests: CLITestCase {
    #if os(Linux)
    /// A request whose head the server has read and whose body is still coming when SIGTERM arrives gets its whole
    /// answer (a login without the login cookie: 403, its page complete), then the server exits 0, its line logged.
    func testSIGTERMLetsARequestInFlightFinish() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        var child: PetlogChild?
        var port = 0
        for attempt in 0..<5 where child == nil {
            port = 21_000 + Int(getpid() % 19_000) + attempt * 733
            let c = try PetlogChild(binary: Self.binary.path, arguments: ["--db", dbPath, "serve", "--listen", "127.0.0.1:\(port)"],
                                    home: home.path, outputPrefix: home.appendingPathComponent("serve-\(port)").path)
            let changes = try DirectoryWatch([home.path])
            var listening = false
            _ = changes.wait { listening = c.stderr.contains("http://127.0.0.1:\(port)/"); return listening || c.poll() }
            if listening { child = c } else { c.killNow() }
        }
        let serve = try XCTUnwrap(child, "serve did not start")
        let socket = try RawHTTP(port: port)
        defer { socket.close() }
        // One whole request first on the connection, so the server holds it as a connection of its own.
        let first = try socket.exchange("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 200") && first.hasSuffix("ok\n"), first)
        let body = "name=mina&password=wrong+password&csrf=" + String(repeating: "0", count: 64)
        let cut = body.index(body.startIndex, offsetBy: 12)
        try socket.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body[..<cut])
        XCTAssertTrue(try socket.serverHasReadEverything(), "the server read the head and the body's first part")
        kill(serve.pid, SIGTERM)
        try socket.send(String(body[cut...]))
        let answer = try socket.receive()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 403"), answer)
        XCTAssertTrue(answer.contains("</html>"), "the whole page: \(answer.suffix(200))")
        serve.wait()
        XCTAssertEqual(serve.exitCode, 0, serve.stderr)
        XCTAssertTrue(serve.stderr.contains("POST /login 403 "), serve.stderr)
    }
    #endif
}

#if os(Linux)
/// An HTTP/1.1 client on a plain socket: what it sends and when is the test's to choose (a body sent in two parts).
final class RawHTTP {
    let fd: Int32
    let port: Int
    private var pending: [UInt8] = []

    init(port: Int) throws {
        self.port = port
        fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 60, tv_usec: 0)   // only keeps a broken server from hanging the test
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    func close() { _ = Glibc.close(fd) }

    func send<S: StringProtocol>(_ text: S) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            sent += n
        }
    }

    /// One whole response: its head, then as many body bytes as its `Content-Length` says.
    func receive() throws -> String {
        func more() throws {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNRESET) }
            pending += buffer[..<n]
        }
        let end = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = pending.count >= 4 ? (0...(pending.count - 4)).first { Array(pending[$0..<($0 + 4)]) == end } : nil
            if headEnd == nil { try more() }
        }
        let head = String(decoding: pending[..<headEnd!], as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while pending.count < headEnd! + 4 + length { try more() }
        let whole = String(decoding: pending[..<(headEnd! + 4 + length)], as: UTF8.self)
        pending.removeFirst(headEnd! + 4 + length)
        return whole
    }

    func exchange(_ request: String) throws -> String {
        try send(request)
        return try receive()
    }

    /// Whether the server's end of this connection has read all that was sent to it (its receive queue in
    /// `/proc/net/tcp` is empty), looked at again until it has or a minute passed (a broken server).
    func serverHasReadEverything() throws -> Bool {
        var local = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) } }
        let clientPort = Int(UInt16(bigEndian: local.sin_port))
        let server = String(format: "0100007F:%04X", port), client = String(format: "0100007F:%04X", clientPort)
        for _ in 0..<6_000 {
            let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
            let row = table.split(separator: "\n").map { $0.split(separator: " ") }.first { $0.count > 4 && $0[1] == server && $0[2] == client }
            if let queues = row?[4].split(separator: ":"), queues.count == 2, Int(queues[1], radix: 16) == 0 { return true }
            usleep(10_000)
        }
        return false
    }
}
#endif
