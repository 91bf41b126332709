import Cairo
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetFiles
import PetStoreCore
import PetViews
import ReceiptScan

/// An error petlog shows the user: its sysexits code and its one localized line. Every error a command
/// lets through conforms (the model's, the store's and its engines' once they are `StoreError`s, the
/// files', the renderers', the OCR helper's, the CLI's own), as argument-parser's examples give their
/// errors an exit code and a description; `Failure` keeps only the fallback for an error nothing expected.
protocol UserFacingError: Error {
    /// 64 usage, 65 bad data, 66 missing input, 69 unavailable, 70 software, 73 cannot create, 74 I/O,
    /// 75 busy, 77 no permission, 78 config (`Failure.usage` …).
    var exitCode: Int32 { get }
    /// The line, in the user's language; `database` is the store the command used, for the errors about it.
    func message(_ l: L10n, database: String) -> String
}

/// The one place an error becomes a localized line and a sysexits code
/// (64 usage, 65 bad data, 66 missing input, 73 cannot create, 74 I/O, 75 busy).
struct Failure {
    let error: Error


    static let usage: Int32 = 64, dataError: Int32 = 65, noInput: Int32 = 66, cannotCreate: Int32 = 73, ioError: Int32 = 74, busy: Int32 = 75, config: Int32 = 78, unavailable: Int32 = 69, software: Int32 = 70, noPermission: Int32 = 77

    /// The database the command used, named in messages about it.
    let databasePath: String

    /// An engine's own error (SQLite's) is first said as the `StoreError` it means for this database.
    init(_ error: Error, databasePath: String = "") {
        self.databasePath = databasePath
        self.error = (error as? EngineError)?.storeError(path: databasePath) ?? error
    }

    /// 74 for an error nothing expected.
    var exitCode: Int32 { (error as? UserFacingError)?.exitCode ?? Self.ioError }

    func message(_ l: L10n) -> String {
        guard let e = error as? UserFacingError else { return l.text(.errUnexpected(detail: "\(error)")) }
        return e.message(l, database: databasePath)
    }

    /// What a file petlog cannot import looks like, in words.
    static func found(_ what: FileContent, _ l: L10n) -> String {
        switch what {
        case .empty: return l.text(.importFoundEmpty)
        case .binary: return l.text(.importFoundBinary)
        case .png: return l.text(.importFoundImage(format: "PNG"))
        case .jpeg: return l.text(.importFoundImage(format: "JPEG"))
        case .gif: return l.text(.importFoundImage(format: "GIF"))
        case .webp: return l.text(.importFoundImage(format: "WebP"))
        case .heic: return l.text(.importFoundImage(format: "HEIC/AVIF"))
        case .pdf: return l.text(.importFoundPDF)
        case .zip: return l.text(.importFoundZip)
        case .gzip: return l.text(.importFoundGzip)
        case .sqlite: return l.text(.importFoundSQLite)
        case .utf16: return l.text(.importFoundUTF16)
        case .plainText: return l.text(.importFoundPlainText)
        }
    }
}

extension ParseError: UserFacingError {
    var exitCode: Int32 { Failure.dataError }

    /// The line is PetViews' `ParseError.message(_:)`, which `petlog serve`'s forms say too.
    func message(_ l: L10n, database: String) -> String { message(l) }
}

extension OutputError: UserFacingError {
    var exitCode: Int32 { cause.isIOFailure ? Failure.ioError : Failure.cannotCreate }

    /// "cannot write PATH: CAUSE" (`OutputError.message`, PetViews: the web pages say the same).
    func message(_ l: L10n, database: String) -> String { message(l) }
}

extension ImportError: UserFacingError {
    var exitCode: Int32 { problem == .unreadable ? Failure.noInput : Failure.dataError }

    func message(_ l: L10n, database: String) -> String {
        let reason: String
        switch problem {
        case .unreadable: reason = l.text(.errImportUnreadable)
        case .unknownFormat: reason = l.text(.errImportUnknownFormat)
        case .notImportable(let what): reason = l.text(.errImportNotImportable(what: Failure.found(what, l)))
        case .jsonEndsEarly: reason = l.text(.errImportJSONEndsEarly)
        case .unterminatedQuote: reason = l.text(.errImportQuote)
        case .malformedRow: reason = l.text(.errImportMalformedRow)
        case .invalidUTF8: reason = l.text(.errImportInvalidUTF8)
        case .badJSON: reason = l.text(.errImportBadJSON)
        case .missingColumn(let name): reason = l.text(.errImportMissingColumn(name: name))
        case .missingColumnWithSeparator(let name, let separator, let found):
            reason = l.text(.errImportMissingColumnSeparator(name: name, separator: separator, found: found.joined(separator: " | ")))
        case .ambiguousDate(let raw): reason = l.text(.errImportAmbiguousDate(value: raw))
        case .wrongFieldCount(let expected, let found): reason = l.text(.errImportFieldCount(found: String(found), expected: String(expected)))
        case .value(let p): reason = p.message(l, database: database)
        case .unknownPet(let id): reason = l.text(.errImportUnknownPet(id: id))
        case .unknownMedication(let id): reason = l.text(.errImportUnknownMedication(id: String(id)))
        case .unknownSplit(let id): reason = l.text(.errImportUnknownSplit(id: String(id)))
        case .duplicateId(let id): reason = l.text(.errImportDuplicateId(id: String(id)))
        case .missingAttachment(let sha): reason = l.text(.errImportMissingAttachment(sha: sha))
        case .attachmentHashMismatch(let sha): reason = l.text(.errImportAttachmentHash(sha: sha))
        case .noRows: reason = l.text(.errImportNoRows)
        case .badTime(let raw): reason = l.text(.errImportBadTime(value: raw))
        case .needsPet: reason = l.text(.errImportNeedsPet)
        case .needsUnit: reason = l.text(.errImportNeedsUnit)
        }
        return l.text(.errImportAt(where: location.description, reason: reason))
    }
}

extension StoreError: UserFacingError {
    var exitCode: Int32 {
        switch self {
        case .petNotFound, .recordNotFound, .budgetNotFound, .medicationNotFound, .attachmentUnreadable, .databaseMissing, .databaseEmpty: return Failure.noInput
        case .duplicatePetName, .ambiguousPetName, .ambiguousMedication, .attachmentNotOnRecord, .petArchived, .petNotArchived, .constraint: return Failure.dataError
        case .newerSchema, .notAPetlogDatabase, .damaged: return Failure.dataError
        case .cannotOpen, .readOnly: return Failure.cannotCreate
        case .file(_, let cause): return cause.isIOFailure ? Failure.ioError : Failure.cannotCreate
        case .busy: return Failure.busy
        case .io: return Failure.ioError
        case .serverUnreachable, .serverDatabaseMissing, .serverTLS, .server, .notOnServer: return Failure.unavailable
        case .serverLogin, .notPermitted, .schemaNeedsOwner: return Failure.noPermission
        case .serverConnectionLost: return Failure.busy
        }
    }

    /// The store's line (`StoreError.message`, PetViews: the web pages say the same).
    func message(_ l: L10n, database: String) -> String { message(l, defaultDatabase: GlobalSettings.defaultDatabasePath) }
}

extension AttachmentHashMismatch: UserFacingError {
    var exitCode: Int32 { Failure.dataError }
    func message(_ l: L10n, database: String) -> String { l.text(.errAttachmentHash(path: path, sha: expected)) }
}

extension InvalidStoredValue: UserFacingError {
    var exitCode: Int32 { Failure.dataError }
    func message(_ l: L10n, database: String) -> String {
        l.text(.errInvalidStoredValue(path: database, table: table, id: String(id), column: column, value: value))
    }
}

/// The OCR helper's refusal (`ScanFailure.exitCode`, `message(_:)` in OCRClient.swift).
extension ScanFailure: UserFacingError {
    func message(_ l: L10n, database: String) -> String { message(l) }
}

/// A chart or report renderer stopped before its file was whole (nothing is left at `path`).
struct RenderFailure: UserFacingError {
    enum Cause {
        case cairo(CairoError)
        case chart(ChartError)
        case report(ReportError)
    }
    let path: String
    let cause: Cause

    var exitCode: Int32 { Failure.cannotCreate }

    /// "cannot write PATH: why the renderer stopped", in words rather than the renderer's debug text.
    func message(_ l: L10n, database: String) -> String {
        let reason: String
        switch cause {
        case .cairo(.noMemory): reason = l.text(.errRenderNoMemory)
        case .cairo(.invalidSize): reason = l.text(.errRenderSurfaceSize)
        case .cairo(.readError(let path)), .cairo(.fileNotFound(let path)): reason = l.text(.errRenderRead(path: path ?? "?"))
        case .cairo(.surfaceTypeMismatch): reason = l.text(.errRenderSurfaceType)
        case .cairo(.other(let code, _)): reason = l.text(.errRenderStatus(code: String(code)))
        case .cairo(.writeError): reason = l.text(.errOutputIO)
        case .chart(.invalidSize(let width, let height)): reason = l.text(.errRenderChartSize(width: String(width), height: String(height)))
        case .chart(.mismatchedSeries(let label)), .chart(.unorderedTimes(let label)), .chart(.mismatchedStack(let label)):
            reason = l.text(.errRenderChartData(label: label))
        case .report(.tooManyCells(let row, let cells, let columns)):
            reason = l.text(.errRenderReportCells(row: String(row), cells: String(cells), columns: String(columns)))
        case .report(.invalidColumns(let header, let weights)):
            reason = l.text(.errRenderReportColumns(columns: String(header), weights: String(weights)))
        case .report(.cardLayout(let why)):
            // Never reached from `card`, which refuses a sheet as PNG and fits the QR text first.
            reason = l.text(.errUnexpected(detail: why))
        }
        let path = OutputFile.isStandardOutput(path) ? l.text(.outputStandard) : path
        return l.text(.errCannotWrite(path: path, reason: reason))
    }
}

/// A command-line mistake that argument-parser cannot see (a flag combination, a missing confirmation).
struct UsageError: UserFacingError {
    let message: String
    var code: Int32 = Failure.usage

    var exitCode: Int32 { code }
    func message(_ l: L10n, database: String) -> String { message }
}
