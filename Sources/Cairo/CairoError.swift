import CCairo

/// A failure reported by cairo, as a Swift error.
public enum CairoError: Error, Equatable, CustomStringConvertible {
    case noMemory
    /// The output could not be written (missing directory, no permission, disk full).
    case writeError(path: String?)
    /// The input could not be read or is not a PNG.
    case readError(path: String?)
    case fileNotFound(path: String?)
    /// Width or height out of the range cairo accepts.
    case invalidSize
    /// The surface is not an image surface, or the operation does not suit this surface.
    case surfaceTypeMismatch
    /// Any other cairo status, with cairo's own description.
    case other(code: Int, message: String)

    public var description: String {
        switch self {
        case .noMemory: return "cairo: out of memory"
        case .writeError(let path): return "cairo: cannot write \(path ?? "output")"
        case .readError(let path): return "cairo: cannot read \(path ?? "input")"
        case .fileNotFound(let path): return "cairo: file not found: \(path ?? "?")"
        case .invalidSize: return "cairo: invalid surface size"
        case .surfaceTypeMismatch: return "cairo: operation does not suit this surface type"
        case .other(let code, let message): return "cairo: \(message) (status \(code))"
        }
    }
}

/// The one place where a cairo_status_t becomes a Swift error.
func check(_ status: cairo_status_t, path: String? = nil) throws {
    switch status {
    case CAIRO_STATUS_SUCCESS: return
    case CAIRO_STATUS_NO_MEMORY: throw CairoError.noMemory
    case CAIRO_STATUS_WRITE_ERROR: throw CairoError.writeError(path: path)
    case CAIRO_STATUS_READ_ERROR: throw CairoError.readError(path: path)
    case CAIRO_STATUS_FILE_NOT_FOUND: throw CairoError.fileNotFound(path: path)
    case CAIRO_STATUS_INVALID_SIZE: throw CairoError.invalidSize
    case CAIRO_STATUS_SURFACE_TYPE_MISMATCH: throw CairoError.surfaceTypeMismatch
    default:
        let message = cairo_status_to_string(status).map { String(cString: $0) } ?? "unknown"
        throw CairoError.other(code: Int(status.rawValue), message: message)
    }
}
