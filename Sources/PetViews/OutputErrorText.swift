import Foundation
import Localization
import PetFiles

extension OutputError.Cause {
    /// Why a file could not be written, in words: the CLI's refusal ("cannot write PATH: CAUSE") and the web
    /// pages' (`petlog serve`, a photo on a full disk) say the same.
    public func text(_ l: L10n) -> String {
        switch self {
        case .noSpace: return l.text(.errOutputNoSpace)
        case .ioError: return l.text(.errOutputIO)
        case .permissionDenied: return l.text(.errOutputPermission)
        case .readOnly: return l.text(.errOutputReadOnly)
        case .noFolder(let folder): return l.text(.errOutputNoFolder(folder: folder))
        case .notAFolder(let folder): return l.text(.errOutputNotFolder(folder: folder))
        case .isDirectory: return l.text(.errOutputIsDirectory)
        case .isFile: return l.text(.errOutputIsFile)
        case .isDevice: return l.text(.errOutputIsDevice)
        case .isFIFO: return l.text(.errOutputIsFIFO)
        case .linkLoop: return l.text(.errOutputLinkLoop)
        case .nameTooLong: return l.text(.errOutputNameTooLong)
        case .exists: return l.text(.errFileExists)
        case .other(_, let text): return text
        }
    }
}

extension OutputError {
    /// "cannot write PATH: CAUSE", for every file petlog writes (standard output named as such).
    public func message(_ l: L10n) -> String {
        let path = OutputFile.isStandardOutput(self.path) ? l.text(.outputStandard) : self.path
        return l.text(.errCannotWrite(path: path, reason: cause.text(l)))
    }
}
