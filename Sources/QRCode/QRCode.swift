import CQRencode
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR code symbol: a square of dark and light modules, without the quiet zone around it.
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged and still read (ISO/IEC 18004: L 7 %, M 15 %, Q 25 %, H 30 %).
    public enum Correction: Sendable { case low, medium, quartile, high }

    public enum Failure: Error, Sendable, Equatable {
        /// The bytes do not fit in the largest symbol (version 40) at this correction level.
        case tooLong(bytes: Int)
        /// Nothing to encode.
        case empty
        /// libqrencode failed otherwise (out of memory).
        case encoderFailed
    }

    /// 1…40: the symbol has 17 + 4 × version modules a side.
    public let version: Int
    /// Modules a side.
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// The quiet zone the standard asks around the symbol, in modules.
    public static let quietZone = 4

    public func isDark(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// The smallest symbol that holds `text` as UTF-8 in byte mode behind an ECI 26 (UTF-8) header (what a
    /// phone's camera shows as plain text), at `correction`. Same text, same modules.
    public init(_ text: String, correction: Correction = .medium) throws {
        let bytes = Array(text.utf8)
        let level: QRecLevel
        switch correction {
        case .low: level = QR_ECLEVEL_L
        case .medium: level = QR_ECLEVEL_M
        case .quartile: level = QR_ECLEVEL_Q
        case .high: level = QR_ECLEVEL_H
        }
        guard !bytes.isEmpty else { throw Failure.empty }
        // An ECI header 26 says the bytes are UTF-8 (without it a reader guesses, and zbar reads "·" as
        // Shift JIS), then the whole text in 8-bit mode; version 0 = the smallest symbol that fits.
        guard let input = QRinput_new2(0, level) else { throw Failure.encoderFailed }
        defer { QRinput_free(input) }
        guard QRinput_appendECIheader(input, 26) == 0,
              bytes.withUnsafeBufferPointer({ QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress) }) == 0 else {
            throw Failure.encoderFailed
        }
        guard let code = QRcode_encodeInput(input) else {
            throw errno == ERANGE ? Failure.tooLong(bytes: bytes.count) : Failure.encoderFailed
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        version = Int(code.pointee.version)
        size = width
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits say what the module is for.
        modules = (0..<(width * width)).map { code.pointee.data[$0] & 1 == 1 }
    }
}
