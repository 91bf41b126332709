import Foundation
import PetFiles
import PetStoreCore

/// The wait for other processes' locks: one budget per process (30 s by default), shared by SQLite's busy
/// handler, petlog's retries and the migration lock, with a notice once the wait passes two seconds.
final class BusyBudget: @unchecked Sendable {
    let limit: TimeInterval
    let onWaiting: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var waited: TimeInterval = 0
    private var noticed = false

    init(limit: TimeInterval, onWaiting: (@Sendable () -> Void)?) {
        self.limit = limit
        self.onWaiting = onWaiting
    }

    /// Sleeps a little and says whether to try again (SQLite's busy handler: false gives up with SQLITE_BUSY).
    func waitOnce(tries: Int) -> Bool {
        let step: TimeInterval = tries < 10 ? 0.002 : (tries < 50 ? 0.01 : 0.05)
        lock.lock()
        let allowed = waited + step <= limit
        if allowed { waited += step }
        let notice = allowed && waited >= 2 && !noticed
        if notice { noticed = true }
        lock.unlock()
        guard allowed else { return false }
        if notice { onWaiting?() }
        usleep(useconds_t(step * 1_000_000))
        return true
    }
}

/// An exclusive `flock` on the database's folder, held while one process migrates the file. (Not on the
/// file itself: closing another descriptor of it would drop SQLite's own POSIX locks.)
struct DirectoryLock {
    let fd: Int32

    init(directory: String, busy: BusyBudget) throws {
        fd = Foundation.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.file(path: directory, OutputError.Cause(errno: errno)) }
        var tries = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, busy.waitOnce(tries: tries) else {
                close(fd)
                throw StoreError.busy
            }
            tries += 1
        }
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
