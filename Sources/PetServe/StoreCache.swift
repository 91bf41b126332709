import Foundation
import PetStoreCore

/// Values the pages derive from the household's data (issue 44), kept while the store's change marker
/// (`WebRepository.changeMarker`) stays the same and all dropped when it moves: a pet's chart as drawn, the records a
/// page reads. Never a page, never anything of one account (a session, an undo step, a CSRF token): every account
/// sees the same household, and what differs per request (the language, the period, the theme, the day) is in the key.
/// Bounded by the bytes its entries are said to cost; the least recently used go first. A store without a marker
/// caches nothing.
public final class StoreCache: @unchecked Sendable {
    private struct Entry {
        var value: Any
        var cost: Int
        var used: UInt64
    }

    private let lock = NSCondition()
    private var marker: String?
    /// The keys (with their marker) a caller of `value(_:marker:cost:make:)` is making now.
    private var making: Set<String> = []
    private var entries: [String: Entry] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    /// The most the entries may cost together, in bytes.
    public let limit: Int

    public init(limit: Int = 24 << 20) { self.limit = limit }

    /// The value kept under `key` for `marker`, or nil (no marker, another marker, nothing kept, another type).
    func value<T>(_ key: String, marker: String?) -> T? {
        guard let marker else { return nil }
        lock.lock(); defer { lock.unlock() }
        return kept(key, marker)
    }

    /// Under the lock: the value kept under `key` for `marker`, marked as just used, or nil.
    private func kept<T>(_ key: String, _ marker: String) -> T? {
        guard self.marker == marker, var entry = entries[key], let value = entry.value as? T else { return nil }
        clock += 1
        entry.used = clock
        entries[key] = entry
        return value
    }

    /// The value kept under `key` for `marker`, else `make`'s, kept with its `cost` in bytes. One caller makes it: a
    /// caller that finds another making the same key for the same marker waits for that value instead of making it
    /// again (sixteen connections asking for home in the minute its due list is made once make it once). No marker:
    /// `make`'s, kept for nobody.
    func value<T>(_ key: String, marker: String?, cost: (T) -> Int, make: () throws -> T) rethrows -> T {
        guard let marker else { return try make() }
        let turn = marker + "|" + key
        lock.lock()
        while making.contains(turn) { lock.wait() }
        if let value: T = kept(key, marker) {
            lock.unlock()
            return value
        }
        making.insert(turn)
        lock.unlock()
        defer {
            lock.lock()
            making.remove(turn)
            lock.broadcast()
            lock.unlock()
        }
        let value = try make()
        keep(value, key, cost: cost(value), marker: marker)
        return value
    }

    /// Keeps `value` under `key` for `marker` (read before the reads `value` was made from); a new marker drops
    /// everything kept for the old one. A value dearer than a quarter of the limit is not kept.
    func keep(_ value: Any, _ key: String, cost: Int, marker: String?) {
        guard let marker, cost <= limit / 4 else { return }
        lock.lock(); defer { lock.unlock() }
        if self.marker != marker {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
            self.marker = marker
        }
        if let old = entries[key] { bytes -= old.cost }
        clock += 1
        entries[key] = Entry(value: value, cost: cost, used: clock)
        bytes += cost
        while bytes > limit, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            bytes -= oldest.value.cost
            entries[oldest.key] = nil
        }
    }

    /// How many values are kept (tests).
    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }
}
