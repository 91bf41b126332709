import Foundation

/// A value shared by threads, behind a lock.
public final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    public init(_ value: T) { stored = value }
    public var value: T { lock.lock(); defer { lock.unlock() }; return stored }
    public func update(_ change: (inout T) -> Void) { lock.lock(); change(&stored); lock.unlock() }
}

/// Values gathered from several threads, in the order they came.
public final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Element] = []
    public init() {}
    public func append(_ e: Element) { lock.lock(); list.append(e); lock.unlock() }
    public var items: [Element] { lock.lock(); defer { lock.unlock() }; return list }
}

/// Bytes handed from a reading thread to the test.
public final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    public init() {}
    public func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    public func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
