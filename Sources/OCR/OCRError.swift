/// Why an image could not be read or the engine could not start; never a crash.
public enum OCRError: Error, Equatable, CustomStringConvertible {
    case fileNotFound(path: String)
    /// A directory, no permission, or an I/O error.
    case unreadable(path: String)
    case emptyFile(path: String)
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// No known image signature.
    case notAnImage(path: String)
    /// A real image format this build cannot decode (HEIC/AVIF).
    case unsupportedFormat(path: String, format: String)
    /// A HEIC/HEIF/AVIF file libheif could not decode (damaged, or no decoder for its codec here), with libheif's reason.
    case undecodableHeif(path: String, detail: String)
    /// Width × height above the limit, refused from the header before decoding.
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    /// The decoder failed: truncated or corrupt data.
    case corruptImage(path: String)
    /// A language without a `.traineddata` file in the tessdata folder, or a malformed language string.
    case languageUnavailable(language: String, tessdata: String)
    /// Tesseract or leptonica failed where they should not (out of memory, internal error).
    case engineFailure(String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "\(path): no such file"
        case .unreadable(let path): return "\(path): cannot be read"
        case .emptyFile(let path): return "\(path): empty file"
        case .fileTooLarge(let path, let bytes, let limit): return "\(path): \(bytes) bytes is more than the \(limit) an image may have"
        case .notAnImage(let path): return "\(path): not an image (JPEG, PNG, TIFF, WebP, BMP, GIF, PNM or JPEG 2000)"
        case .unsupportedFormat(let path, let format): return "\(path): \(format) images cannot be decoded here; convert to JPEG or PNG"
        case .tooManyPixels(let path, let w, let h, let limit):
            return "\(path): \(w)×\(h) is more than \(limit / 1_000_000) megapixels"
        case .corruptImage(let path): return "\(path): truncated or corrupt image"
        case .undecodableHeif(let path, let detail): return "\(path): HEIC/HEIF image libheif cannot decode (\(detail))"
        case .languageUnavailable(let language, let tessdata): return "OCR language \(language) is not installed in \(tessdata)"
        case .engineFailure(let message): return "OCR engine: \(message)"
        }
    }
}
