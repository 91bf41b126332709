import Foundation

/// Where one reading's time went, stage by stage (`petlog-ocr --trace`, bench/ocr.sh's profile):
/// decode, EXIF turn, text-height measure and scale, orientation and script detection, engine loads,
/// deskew, recognition passes. Not thread-safe: one per reading.
public final class OCRTrace {
    public struct Stage: Sendable, Equatable {
        public var name: String
        public var milliseconds: Double
    }
    public private(set) var stages: [Stage] = []
    /// Free notes beside the times (the measured text height, the scale chosen, each pass's confidence).
    public private(set) var notes: [String] = []
    private let clock = ContinuousClock()

    public init() {}

    /// Runs `body` and records its time under `name`.
    public func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer {
            let d = clock.now - start
            stages.append(Stage(name: name, milliseconds: Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15))
        }
        return try body()
    }

    public func note(_ text: String) { notes.append(text) }

    /// One line per stage (`name  ms`), then the notes.
    public var report: String {
        let total = stages.map(\.milliseconds).reduce(0, +)
        let rows = stages.map { String(format: "%-28@ %8.1f ms", $0.name as NSString, $0.milliseconds) }
        return (rows + [String(format: "%-28@ %8.1f ms", "total" as NSString, total)] + notes.map { "  " + $0 }).joined(separator: "\n")
    }
}

extension Optional where Wrapped == OCRTrace {
    /// `body`, timed when there is a trace.
    func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        switch self {
        case .some(let trace): return try trace.measure(name, body)
        case .none: return try body()
        }
    }
    func note(_ text: @autoclosure () -> String) { self?.note(text()) }
}
