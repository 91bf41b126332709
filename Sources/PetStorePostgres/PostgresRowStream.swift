import Dispatch
import Logging
import NIOCore
import PetStoreCore
import PostgresNIO
import Synchronization

/// The rows of one statement on their way from the task that reads them to the thread that asked for
/// them (`PostgresLink.forEachRow`), in batches: the task converts each row to values and hands a batch
/// over; it waits (suspended, not blocking a thread) while `limit` rows are waiting to be taken, and
/// postgres-nio's own row buffer then holds the server back. The caller's thread waits on a semaphore
/// for the next batch. `unbound()` lets every row in without a limit (the caller wants the connection
/// for a nested statement); `stop()` lets them go unread (the caller's code threw).
///
/// Shared between the task and the caller's thread: its state is behind a `Mutex`.
final class RowStream: Sendable {
    /// A batch of rows; the column names come with the first batch when they were asked for.
    struct Batch: Sendable {
        var columns: [String]?
        var rows: [[SQLValue]]
    }

    /// The server's or the connection's error, as the reading task met it.
    struct ReadError: Error {
        let underlying: any Error
    }

    private struct State: ~Copyable {
        var batches: [Batch] = []
        var head = 0
        var waitingRows = 0
        /// Set when the reading task has ended: `.success` after the last row, or its error.
        var end: Result<Void, any Error>?
        var unbounded = false
        var stopped = false
        /// The reading task, suspended while the batches wait to be taken.
        var producer: CheckedContinuation<Void, Never>?
        /// The caller's thread waits on `wake` (signalled once for each time this is set).
        var consumerWaiting = false
    }

    static let batchSize = 512
    /// Rows that may wait to be taken before the reading task waits.
    let limit: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(limit: Int = 16 * RowStream.batchSize) {
        self.limit = limit
    }

    // MARK: The reading task

    /// Starts the task that sends `query` and reads its rows (on the global executor, not the event loop).
    func start(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger, wantsColumns: Bool) {
        Task.detached { [self] in
            do {
                let rows = try await connection.query(query, logger: logger)
                var batch = Batch(columns: nil, rows: [])
                batch.rows.reserveCapacity(Self.batchSize)
                var first = wantsColumns
                for try await row in rows {
                    if first {
                        batch.columns = row.map(\.columnName)
                        first = false
                    }
                    var values: [SQLValue] = []
                    values.reserveCapacity(row.count)
                    for cell in row { values.append(try PostgresLink.value(cell)) }
                    batch.rows.append(values)
                    if batch.rows.count == Self.batchSize {
                        guard await send(batch) else { break }
                        batch = Batch(columns: nil, rows: [])
                        batch.rows.reserveCapacity(Self.batchSize)
                    }
                }
                if !batch.rows.isEmpty { _ = await send(batch) }
                finish(.success(()))
            } catch {
                finish(.failure(error))
            }
        }
    }

    /// Hands `batch` over; waits while `limit` rows wait to be taken. False: the caller stopped reading.
    private func send(_ batch: Batch) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resume, signal) = state.withLock { s -> (Bool, Bool) in
                if s.stopped { return (true, false) }
                s.batches.append(batch)
                s.waitingRows += batch.rows.count
                let signal = s.consumerWaiting
                s.consumerWaiting = false
                if s.waitingRows >= limit && !s.unbounded {
                    s.producer = continuation
                    return (false, signal)
                }
                return (true, signal)
            }
            if signal { wake.signal() }
            if resume { continuation.resume() }
        }
        return !state.withLock { $0.stopped }
    }

    private func finish(_ end: Result<Void, any Error>) {
        let signal = state.withLock { s -> Bool in
            s.end = end
            let signal = s.consumerWaiting
            s.consumerWaiting = false
            return signal
        }
        if signal { wake.signal() }
    }

    // MARK: The caller's thread

    private enum Step {
        case batch(Batch, resume: CheckedContinuation<Void, Never>?)
        case end(Result<Void, any Error>)
        case wait
    }

    /// The next batch; nil after the last. Throws the reading task's error as a `ReadError`, or
    /// `connectionLost` when the connection closed under a statement that will never finish.
    func next(connection: PostgresConnection, target: PostgresTarget) throws -> Batch? {
        while true {
            let step = state.withLock { s -> Step in
                if s.head < s.batches.count {
                    let batch = s.batches[s.head]
                    s.head += 1
                    if s.head == s.batches.count || s.head >= 64 {
                        s.batches.removeFirst(s.head)
                        s.head = 0
                    }
                    s.waitingRows -= batch.rows.count
                    var resume: CheckedContinuation<Void, Never>?
                    if s.waitingRows < limit, let p = s.producer {
                        resume = p
                        s.producer = nil
                    }
                    return .batch(batch, resume: resume)
                }
                if let end = s.end { return .end(end) }
                s.consumerWaiting = true
                return .wait
            }
            switch step {
            case .batch(let batch, let resume):
                resume?.resume()
                return batch
            case .end(let end):
                if case .failure(let error) = end { throw ReadError(underlying: error) }
                return nil
            case .wait:
                try pause(connection: connection, target: target)
            }
        }
    }

    /// Lets every remaining row in without a limit (they wait here, taken later by `next`).
    func unbound() {
        let resume = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.unbounded = true
            defer { s.producer = nil }
            return s.producer
        }
        resume?.resume()
    }

    /// Lets the remaining rows go unread: the reading task stops at its next batch.
    func stop() {
        let resume = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.stopped = true
            s.batches.removeAll()
            s.head = 0
            s.waitingRows = 0
            defer { s.producer = nil }
            return s.producer
        }
        resume?.resume()
    }

    /// Waits until the reading task has ended (its error, if any, is `next`'s to throw).
    func waitForEnd(connection: PostgresConnection, target: PostgresTarget) throws {
        while true {
            let ended = state.withLock { s -> Bool in
                if s.end != nil { return true }
                s.consumerWaiting = true
                return false
            }
            if ended { return }
            try pause(connection: connection, target: target)
        }
    }

    /// One wait for the task, a second at a time: a connection the server dropped while the statement
    /// was queued can leave it pending for ever, so a closed connection ends the wait as what it is.
    private func pause(connection: PostgresConnection, target: PostgresTarget) throws {
        if wake.wait(timeout: .now() + 1) == .success { return }
        guard connection.isClosed else { return }
        // Give a failure that is on its way a moment to arrive; then call it what it is.
        if wake.wait(timeout: .now() + 1) == .success { return }
        if state.withLock({ $0.end != nil }) { return }
        throw PostgresFault.connectionLost(target: target.redacted)
    }
}
