import Foundation
import GRDB
import PetStoreCore

/// Read-only connections to a file beside its one writing connection, for `petlog serve` (issue 44): every file is
/// in WAL mode (`AppDatabase.prepareFile`), where readers never wait for a writer nor for each other, so a page's
/// reads need not queue behind another page's on the one connection. Each read transaction still sees every write
/// committed before it began, this process's and another's. Made on first use, at most `limit`; a read waits for a
/// free one only when all are busy. Off (limit 0) for the CLI, whose commands read one thing at a time.
final class ReadConnections: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [DatabaseQueue] = []
    private var made = 0
    private var limit = 0
    private var path: String?
    private var busy: BusyBudget?

    /// Reads go to up to `count` read-only connections to `path` from now on.
    func open(count: Int, path: String, busy: BusyBudget) {
        condition.lock(); defer { condition.unlock() }
        self.path = path
        self.busy = busy
        limit = max(limit, count)
    }

    var isOn: Bool { condition.lock(); defer { condition.unlock() }; return limit > 0 }

    /// How many connections have been made (tests).
    var count: Int { condition.lock(); defer { condition.unlock() }; return made }

    /// `body` on a free connection (one made if none is free and fewer than the limit exist); nil when off.
    func with<T>(_ body: (DatabaseQueue) throws -> T) throws -> T? {
        condition.lock()
        guard limit > 0, let path, let busy else { condition.unlock(); return nil }
        while idle.isEmpty && made >= limit { condition.wait() }
        var queue = idle.popLast()
        if queue == nil { made += 1 }
        condition.unlock()
        if queue == nil {
            do {
                var config = AppDatabase.configuration(busy: busy)
                config.readonly = true
                queue = try DatabaseQueue(path: path, configuration: config)
            } catch {
                condition.lock(); made -= 1; condition.signal(); condition.unlock()
                throw error
            }
        }
        guard let queue else { return nil }
        defer {
            condition.lock(); idle.append(queue); condition.signal(); condition.unlock()
        }
        return try body(queue)
    }
}
