import Foundation
import Localization
import PetFiles
import PetStoreCore

extension StoreError {
    /// The one line for a store's failure, in the user's language: the CLI's refusal and the web pages' (`petlog serve`).
    /// `defaultDatabase` is the file petlog opens without `--db`, named when a database is missing.
    public func message(_ l: L10n, defaultDatabase: String) -> String {
        // The refusals about the household's records: `StoreError.recordText` (PetViews), as petlog serve says them.
        if let text = recordText(l) { return text }
        switch self {
        case .petNotFound, .duplicatePetName, .ambiguousPetName, .recordNotFound, .budgetNotFound, .medicationNotFound, .ambiguousMedication,
             .petArchived, .petNotArchived: return l.text(.errUnexpected(detail: "\(self)"))
        case .newerSchema(let path, _): return l.text(.errNewerSchema(path: path))
        case .notAPetlogDatabase(let path): return l.text(.errNotPetlogDatabase(path: path))
        case .cannotOpen(let path, let reason): return l.text(.errCannotOpen(path: path, reason: reason))
        case .attachmentUnreadable(let path): return l.text(.errAttachmentUnreadable(path: path))
        case .attachmentNotOnRecord(let id, let ref, let have) where have.isEmpty: return l.text(.errRecordNoAttachments(id: String(id), ref: ref))
        case .attachmentNotOnRecord(let id, let ref, let have):
            return l.text(.errAttachmentNotOnRecord(id: String(id), ref: ref, have: have.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: ", ")))
        case .damaged(let path, let detail): return l.text(.errDamaged(path: path, detail: detail))
        case .databaseMissing(let path): return l.text(.errDatabaseMissing(path: path, default: defaultDatabase))
        case .databaseEmpty(let path): return l.text(.errDatabaseEmpty(path: path))
        case .readOnly(let path): return l.text(.errReadOnly(path: path))
        case .file(let path, .isFIFO): return l.text(.errFile(path: path, problem: l.text(.errOpenNotRegular(what: l.text(.wordsFileFIFO)))))
        case .file(let path, .isDevice): return l.text(.errFile(path: path, problem: l.text(.errOpenNotRegular(what: l.text(.wordsFileDevice)))))
        case .file(let path, let cause): return l.text(.errFile(path: path, problem: cause.text(l)))
        case .busy: return l.text(.errBusy)
        case .constraint(let detail): return l.text(.errConstraint(detail: detail))
        case .io(let detail): return l.text(.errIO(detail: detail))
        case .serverUnreachable(let target): return l.text(.errServerUnreachable(target: target))
        case .serverLogin(let target): return l.text(.errServerLogin(target: target))
        case .serverDatabaseMissing(let target, let database): return l.text(.errServerDatabaseMissing(target: target, database: database))
        case .serverConnectionLost(let target): return l.text(.errServerConnectionLost(target: target))
        case .serverTLS(let target, let problem): return l.text(.errServerTLS(target: target, detail: l.text(Self.tlsProblem(problem))))
        case .notPermitted(let role): return l.text(.errNotPermitted(role: role))
        case .schemaNeedsOwner(let role): return l.text(.errSchemaNeedsOwner(role: role))
        case .server(let state, let message): return l.text(.errServer(state: state, message: message))
        case .notOnServer(let command, let instead): return l.text(.errNotOnServer(command: command, instead: instead))
        }
    }

    /// Why TLS with the server failed, in words.
    private static func tlsProblem(_ problem: ServerTLSProblem) -> L10n.Message {
        switch problem {
        case .notOffered: return .errServerTLSNotOffered
        case .certificateRejected: return .errServerTLSCertificateRejected
        case .handshakeFailed: return .errServerTLSHandshakeFailed
        case .setUpFailed: return .errServerTLSSetUpFailed
        }
    }
}
