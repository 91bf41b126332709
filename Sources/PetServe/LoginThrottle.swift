import Foundation

/// Failed logins slow down, per account name and per address: after `free` failures, each further try
/// waits twice as long as the one before (1 s, 2 s, 4 s … up to `maximum`), said on the page. A success
/// clears the name's count (not the address's). The counts are kept in the store (`web_login_failure`, under
/// the SHA-256 of each key), so two servers on one database behind a proxy count them together; this value is
/// the rule, the store the memory.
public struct LoginThrottle: Sendable {
    let free: Int
    let maximum: Int

    public init(free: Int = 5, maximum: Int = 300) { self.free = free; self.maximum = maximum }

    /// The seconds to wait after `count` failures before the next try.
    func delay(after count: Int) -> Int {
        count < free ? 0 : min(maximum, 1 << min(count - free, 20))
    }

    /// The store's key of a name or address key: its SHA-256 (no name typed is kept as typed).
    static func stored(_ key: String) -> String { Secrets.digest(key) }

    /// The seconds a try for these keys must wait from `now` (0: it may go ahead, and takes the turn of a key
    /// past its free tries).
    public func wait(_ store: SharedStore.Served, keys: [String], now: Date) throws -> Int {
        try store.loginWait(keys: keys.map(Self.stored), now: now, delay: { delay(after: $0) })
    }

    public func failed(_ store: SharedStore.Served, keys: [String], now: Date) throws {
        try store.loginFailed(keys: keys.map(Self.stored), now: now)
    }

    public func succeeded(_ store: SharedStore.Served, key: String) throws {
        try store.loginSucceeded(key: Self.stored(key))
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
