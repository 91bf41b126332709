#if os(Linux)
import Foundation
import Glibc

/// Changes in a few directories, from inotify: a test that waits for a file to appear, grow or be
/// written waits on them instead of sleeping in a loop. A process that exits closes the files it
/// wrote, so watching the folder of a child's output files also wakes the test when the child ends.
public final class DirectoryWatch {
    private let fd: Int32

    /// What wakes a waiter: a file created, opened, written, closed, moved in or out, or removed.
    public static let anyChange = UInt32(IN_CREATE | IN_OPEN | IN_MODIFY | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)

    public init(_ directories: [String], events: UInt32 = DirectoryWatch.anyChange) throws {
        fd = inotify_init1(O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "inotify_init1"]) }
        for d in directories where inotify_add_watch(fd, d, events) < 0 {
            close(fd)
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "inotify on \(d)"])
        }
    }

    deinit { close(fd) }

    /// Watches one more directory (one that has only now been made); false where it is not there.
    @discardableResult
    public func add(_ directory: String, events: UInt32 = DirectoryWatch.anyChange) -> Bool {
        inotify_add_watch(fd, directory, events) >= 0
    }

    /// Blocks until something changes (true), or `milliseconds` pass without a change (false); then
    /// forgets what happened.
    @discardableResult
    public func next(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var r: Int32
        repeat { r = poll(&p, 1, milliseconds) } while r == -1 && errno == EINTR
        drain()
        return r > 0
    }

    /// Forgets what happened so far.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    /// Checks `condition` now and again after each change, until it holds (true) or `guardSeconds` pass
    /// (false). The limit only keeps a broken test from hanging: it is generous and never a measure.
    public func wait(guardSeconds: Double = 120, until condition: () -> Bool) -> Bool {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(guardSeconds * 1e9)
        while !condition() {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < end else { return condition() }
            next(milliseconds: Int32(min(UInt64(Int32.max), (end - now) / 1_000_000 + 1)))
        }
        return true
    }
}
#endif
