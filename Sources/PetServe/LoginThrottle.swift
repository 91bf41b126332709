import Foundation

/// Failed logins slow down, per account name and per address: after `free` failures, each further try
/// waits twice as long as the one before (1 s, 2 s, 4 s … up to `maximum`), said on the page. A success
/// clears the name's count (not the address's). Kept in this process's memory: a restart forgives.
public final class LoginThrottle: Sendable {
    let free: Int
    let maximum: Int
    private let failures = Guarded<[String: (count: Int, last: Date)]>([:])

    public init(free: Int = 5, maximum: Int = 300) { self.free = free; self.maximum = maximum }

    /// The seconds a try for these keys must wait from `now` (0: it may go ahead).
    public func wait(keys: [String], now: Date) -> Int {
        failures.withLockedValue { table in
            keys.compactMap { table[$0] }.map { f in
                let delay = delay(after: f.count)
                return max(0, Int((f.last.addingTimeInterval(Double(delay)).timeIntervalSince(now)).rounded(.up)))
            }.max() ?? 0
        }
    }

    func delay(after count: Int) -> Int {
        count < free ? 0 : min(maximum, 1 << min(count - free, 20))
    }

    public func failed(keys: [String], now: Date) {
        failures.withLockedValue { table in
            for k in keys { table[k] = ((table[k]?.count ?? 0) + 1, now) }
            if table.count > 10_000 { table = table.filter { now.timeIntervalSince($0.value.last) < Double(maximum) } }
        }
    }

    public func succeeded(key: String) {
        _ = failures.withLockedValue { $0.removeValue(forKey: key) }
    }
}

/// A value behind a lock, for state the request handlers share.
public final class Guarded<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    public init(_ value: Value) { self.value = value }
    public func withLockedValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
