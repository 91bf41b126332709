#if os(Linux)
// Linux only: posix_spawn file actions, inotify, /proc.
import Foundation
import Glibc
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite

/// One `petlog` process started with `posix_spawn`, no shell in between: the test holds its pid, so
/// SIGKILL reaches petlog itself, and polling never blocks. Output goes to files, which keep every
/// byte the process wrote before it died.
final class PetlogChild {
    let pid: pid_t
    let arguments: [String]
    let started: UInt64
    private let outPath: String
    private let errPath: String
    /// The raw wait status, once reaped.
    private(set) var waitStatus: Int32?
    private(set) var ended: UInt64?

    /// The environment `CLITestCase.run` gives petlog, for a given HOME.
    static func environment(home: String) -> [String: String] {
        ["HOME": home, "PATH": "/usr/bin:/bin", "TZ": "Asia/Seoul", "LANG": "C.UTF-8", "PETLOG_NOW": "2026-11-23T10:00:00+09:00"]
    }

    /// Starts `binary arguments…`; stdout and stderr go to `outputPrefix.out` / `.err`, stdin is /dev/null.
    init(binary: String, arguments: [String], home: String, outputPrefix: String) throws {
        self.arguments = arguments
        outPath = outputPrefix + ".out"
        errPath = outputPrefix + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of the test process leaks in (a pipe end kept open would stall its reader).
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap({ Int32($0) }) ?? [] where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = Self.environment(home: home).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, binary, &actions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(rc), userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(binary): \(rc)"]) }
        pid = child
        started = Self.nanoseconds()
    }

    static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    var elapsedMilliseconds: Double { Double((ended ?? Self.nanoseconds()) - started) / 1e6 }

    /// Reaps the process if it has ended; true once it has.
    @discardableResult
    func poll() -> Bool {
        if waitStatus != nil { return true }
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return false }
        waitStatus = status
        ended = Self.nanoseconds()
        return true
    }

    /// Blocks until the process ends.
    func wait() {
        while waitStatus == nil {
            var status: Int32 = 0
            let r = waitpid(pid, &status, 0)
            if r == pid {
                waitStatus = status
                ended = Self.nanoseconds()
            } else if r == -1 && errno != EINTR {
                fatalError("waitpid \(pid): errno \(errno)")
            }
        }
    }

    /// SIGKILL to petlog itself, then reaps it. A process that already ended (a zombie until reaped)
    /// is untouched, and `wasKilled` stays false.
    func killNow() {
        if waitStatus == nil { kill(pid, SIGKILL) }
        wait()
    }

    /// The exit code, or nil if a signal ended the process.
    var exitCode: Int32? {
        guard let s = waitStatus, s & 0x7f == 0 else { return nil }
        return (s >> 8) & 0xff
    }

    var wasKilled: Bool {
        guard let s = waitStatus else { return false }
        return s & 0x7f == SIGKILL
    }

    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// The record ids in `#12 weight for Coco: 4.2 kg` lines.
    var printedRecordIds: [Int64] {
        stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("#") else { return nil }
            return Int64(line.dropFirst().prefix { $0.isNumber })
        }
    }

    var commandLine: String { "petlog " + arguments.joined(separator: " ") }
}

/// The tests' seeded generator is the demo's SplitMix64, so a printed seed replays the same kill schedule.
typealias SplitMix64 = SeededGenerator

/// Tells when something opens a file in one directory (inotify IN_OPEN): the moment petlog opens its
/// database, so a kill can be aimed at the part of its life that touches the file, not at start-up.
final class OpenWatch {
    private let fd: Int32

    init(directory: String) throws {
        fd = inotify_init1(O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0, inotify_add_watch(fd, directory, UInt32(IN_OPEN)) >= 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "inotify on \(directory)"])
        }
    }

    deinit { close(fd) }

    /// Forgets what happened so far.
    func drain() { _ = sawOpen() }

    /// True if anything was opened since the last call.
    func sawOpen() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while read(fd, &buffer, buffer.count) > 0 { any = true }
        return any
    }
}
#endif
