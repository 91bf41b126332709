import Foundation

/// The shared half of every fuzz target. A target is one file:
///
///     import FuzzSupport
///     @_cdecl("LLVMFuzzerTestOneInput")
///     public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
///         fuzzText(data, size) { text in … check(property, "what went wrong") … }
///     }
///
/// `fuzzText` hands over the input as a String decoded the way Swift decodes argv (invalid UTF-8
/// becomes U+FFFD), so what the target sees is what a user could type; `fuzzBytes` hands over the raw
/// bytes (for file formats such as an importer's). A violated `check` prints the property and the
/// input, then aborts, so libFuzzer saves the input as a crash artifact.
public func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int, _ body: (String) -> Void) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    current = text
    body(text)
    return 0
}

public func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int, _ body: (Data) -> Void) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    current = String(decoding: bytes, as: UTF8.self)
    body(bytes)
    return 0
}

nonisolated(unsafe) private var current = ""

/// Fails the run (abort, so libFuzzer keeps the input) when a property does not hold.
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                  file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("\nPROPERTY FAILED at \(file):\(line): \(message())\ninput: \(current.debugDescription)\n".utf8))
    abort()
}

/// A small number taken from the input, for properties that need one (months to add, a day offset).
public func number(from text: String, in range: ClosedRange<Int>) -> Int {
    var h: UInt64 = 1469598103934665603
    for b in text.utf8 { h = (h ^ UInt64(b)) &* 1099511628211 }
    return range.lowerBound + Int(h % UInt64(range.count))
}
