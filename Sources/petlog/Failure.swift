import Cairo
import Foundation
import Localization
import PetCharts
import PetModel
import PetReport
import PetFiles
import PetStoreCore
import StoreOpening

/// The one place an error becomes a localized line and a sysexits code
/// (64 usage, 65 bad data, 66 missing input, 73 cannot create, 74 I/O, 75 busy).
struct Failure {
    let error: Error


    static let usage: Int32 = 64, dataError: Int32 = 65, noInput: Int32 = 66, cannotCreate: Int32 = 73, ioError: Int32 = 74, busy: Int32 = 75, config: Int32 = 78, unavailable: Int32 = 69, software: Int32 = 70, noPermission: Int32 = 77

    /// The database the command used, named in messages about it.
    let databasePath: String

    init(_ error: Error, databasePath: String = "") {
        self.databasePath = databasePath
        self.error = StoreOpening.storeError(from: error, path: databasePath) ?? error
    }

    var exitCode: Int32 {
        switch error {
        case is ParseError: return Self.dataError
        case let e as UsageError: return e.code
        case let e as ImportError: return e.problem == .unreadable ? Self.noInput : Self.dataError
        case let e as OutputError: return e.cause.isIOFailure ? Self.ioError : Self.cannotCreate
        case is AttachmentHashMismatch: return Self.dataError
        case is InvalidStoredValue: return Self.dataError
        case is RenderFailure: return Self.cannotCreate
        case let e as ScanFailure: return e.exitCode
        case let e as StoreError:
            switch e {
            case .petNotFound, .recordNotFound, .budgetNotFound, .medicationNotFound, .attachmentUnreadable, .databaseMissing, .databaseEmpty: return Self.noInput
            case .duplicatePetName, .ambiguousPetName, .ambiguousMedication, .attachmentNotOnRecord, .petArchived, .petNotArchived, .constraint: return Self.dataError
            case .newerSchema, .notAPetlogDatabase, .damaged: return Self.dataError
            case .cannotOpen, .readOnly: return Self.cannotCreate
            case .file(_, let cause): return cause.isIOFailure ? Self.ioError : Self.cannotCreate
            case .busy: return Self.busy
            case .io: return Self.ioError
            case .serverUnreachable, .serverDatabaseMissing, .serverTLS, .server, .notOnServer: return Self.unavailable
            case .serverLogin, .notPermitted, .schemaNeedsOwner: return Self.noPermission
            case .serverConnectionLost: return Self.busy
            }
        default: return Self.ioError
        }
    }

    func message(_ l: L10n) -> String {
        switch error {
        case let e as ParseError: return Self.message(e, l)
        case let e as UsageError: return e.message
        case let e as StoreError: return Self.message(e, l)
        case let e as ImportError: return Self.message(e, l)
        case let e as OutputError: return Self.message(e, l)
        case let e as AttachmentHashMismatch: return l.text(.errAttachmentHash(path: e.path, sha: e.expected))
        case let e as InvalidStoredValue:
            return l.text(.errInvalidStoredValue(path: databasePath, table: e.table, id: String(e.id), column: e.column, value: e.value))
        case let e as RenderFailure: return Self.message(e, l)
        case let e as ScanFailure: return e.message(l)
        default: return l.text(.errUnexpected(detail: "\(error)"))
        }
    }

    static func message(_ e: ParseError, _ l: L10n) -> String {
        switch e {
        case .notANumber(let v): return l.text(.errNotANumber(value: v))
        case .badMass(let v): return l.text(.errBadMass(value: v))
        case .negative(let v): return l.text(.errNegativeValue(value: v))
        case .massOutOfRange(let v): return l.text(.errMassRange(value: v))
        case .massTooFine(let v, let grams): return l.text(.errMassTooFine(value: v, grams: String(grams)))
        case .badDate(let v): return l.text(.errBadDate(value: v))
        case .badMonth(let v): return l.text(.errBadMonth(value: v))
        case .dateOutOfRange(let v): return l.text(.errDateRange(value: v))
        case .badTime(let v): return l.text(.errBadTime(value: v))
        case .badDuration(let v): return l.text(.errBadDuration(value: v))
        case .spanTooLong(let v, let max): return l.text(.errSpanTooLong(value: v, max: Display.count(max)))
        case .badMoney(let v): return l.text(.errBadMoney(value: v))
        case .unknownCurrency(let v): return l.text(.errUnknownCurrency(value: v))
        case .twoCurrencies(let v): return l.text(.errTwoCurrencies(value: v))
        case .negativeAmount(let v): return l.text(.errNegativeAmount(value: v))
        case .amountNotPositive(let v): return l.text(.errAmountNotPositive(value: v))
        case .tooManyFractionDigits(let v, let c, let n): return l.text(.errFractionDigits(value: v, currency: c, digits: String(n)))
        case .moneyOutOfRange(let v): return l.text(.errMoneyRange(value: v))
        case .numeralsWithoutCurrency(let v, let home): return l.text(.errNumeralsWithoutCurrency(value: v, currency: home))
        case .outOfRange(let f, let v, let lo, let hi): return l.text(.errOutOfRange(field: l.fieldName(f), value: v, min: String(lo), max: String(hi)))
        case .unknownChoice(let f, let v, let accepted):
            return l.text(.errUnknownChoice(field: l.fieldName(f), value: v, accepted: l.acceptedWords(f, accepted).joined(separator: ", ")))
        case .badAmount(let v): return l.text(.errBadAmount(value: v))
        case .emptyText(let f): return l.text(.errEmptyText(field: l.fieldName(f)))
        case .textTooLong(let f, let n): return l.text(.errTextTooLong(field: l.fieldName(f), max: String(n)))
        case .controlCharacters(let f): return l.text(.errControlCharacters(field: l.fieldName(f)))
        case .numericName(let v): return l.text(.errNumericName(value: v))
        case .badMicrochip(let v): return l.text(.errBadMicrochip(value: v))
        case .badSize(let v): return l.text(.errBadSize(value: v))
        case .notAnImage(let path, false): return l.text(.errNotAnImage(path: path))
        case .notAnImage(let path, true): return l.text(.errNotAnImageOrPDF(path: path))
        case .nearlyListed(let f, let v, let suggestion):
            return l.text(.errNearlyListed(value: v, field: l.code(.kind, f == "vaccine" ? "vaccination" : f), suggestion: suggestion))
        case .inFuture(let v, let limit):
            // The time in the language's own pattern, beside the ISO day the user can type back.
            let time = limit.hour.map { ValueFormatter(l, unitSystem: .metric).clock(hour: $0, minute: limit.minute ?? 0) }
            return l.text(.errInFuture(value: v, limit: [limit.day.description, time].compactMap { $0 }.joined(separator: " ")))
        case .beforeStart(let f, let v, let start): return l.text(.errBeforeStart(field: l.fieldName(f), value: v, start: start))
        case .badContact(let f, let v): return l.text(.errBadContact(field: l.fieldName(f), value: v))
        case .notListed(let f, let v): return l.text(.errNotListed(field: l.fieldName(f), value: v))
        case .tooManyItems(let f, let n): return l.text(.errTooManyItems(field: l.fieldName(f), max: String(n)))
        }
    }

    /// "cannot write PATH: CAUSE", for every file petlog writes (the errno → cause mapping is
    /// `OutputError.Cause(errno:)`).
    static func message(_ e: OutputError, _ l: L10n) -> String {
        let path = OutputFile.isStandardOutput(e.path) ? l.text(.outputStandard) : e.path
        return l.text(.errCannotWrite(path: path, reason: reason(e.cause, l)))
    }

    /// Why TLS with the server failed, in words.
    static func tlsProblem(_ problem: ServerTLSProblem) -> L10n.Message {
        switch problem {
        case .notOffered: return .errServerTLSNotOffered
        case .certificateRejected: return .errServerTLSCertificateRejected
        case .handshakeFailed: return .errServerTLSHandshakeFailed
        case .setUpFailed: return .errServerTLSSetUpFailed
        }
    }

    /// What the system said about a file, in words (for writes and opens alike).
    static func reason(_ cause: OutputError.Cause, _ l: L10n) -> String {
        let reason: String
        switch cause {
        case .noSpace: reason = l.text(.errOutputNoSpace)
        case .ioError: reason = l.text(.errOutputIO)
        case .permissionDenied: reason = l.text(.errOutputPermission)
        case .readOnly: reason = l.text(.errOutputReadOnly)
        case .noFolder(let folder): reason = l.text(.errOutputNoFolder(folder: folder))
        case .notAFolder(let folder): reason = l.text(.errOutputNotFolder(folder: folder))
        case .isDirectory: reason = l.text(.errOutputIsDirectory)
        case .isFile: reason = l.text(.errOutputIsFile)
        case .isDevice: reason = l.text(.errOutputIsDevice)
        case .isFIFO: reason = l.text(.errOutputIsFIFO)
        case .linkLoop: reason = l.text(.errOutputLinkLoop)
        case .nameTooLong: reason = l.text(.errOutputNameTooLong)
        case .exists: reason = l.text(.errFileExists)
        case .other(_, let text): reason = text
        }
        return reason
    }

    /// "cannot write PATH: why the renderer stopped", in words rather than the renderer's debug text.
    static func message(_ e: RenderFailure, _ l: L10n) -> String {
        let reason: String
        switch e.cause {
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
        let path = OutputFile.isStandardOutput(e.path) ? l.text(.outputStandard) : e.path
        return l.text(.errCannotWrite(path: path, reason: reason))
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

    static func message(_ e: ImportError, _ l: L10n) -> String {
        let reason: String
        switch e.problem {
        case .unreadable: reason = l.text(.errImportUnreadable)
        case .unknownFormat: reason = l.text(.errImportUnknownFormat)
        case .notImportable(let what): reason = l.text(.errImportNotImportable(what: Self.found(what, l)))
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
        case .value(let p): reason = Self.message(p, l)
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
        return l.text(.errImportAt(where: e.location.description, reason: reason))
    }

    static func message(_ e: StoreError, _ l: L10n) -> String {
        switch e {
        case .petNotFound(let name, let suggestion?): return l.text(.errPetNotFoundSuggest(name: name, suggestion: suggestion))
        case .petNotFound(let name, nil): return l.text(.errPetNotFound(name: name))
        case .duplicatePetName(let name): return l.text(.errDuplicatePet(name: name))
        case .ambiguousPetName(let name, let candidates): return l.text(.errAmbiguousPet(name: name, candidates: candidates.joined(separator: ", ")))
        case .recordNotFound(let id): return l.text(.errRecordNotFound(id: String(id)))
        case .budgetNotFound(let id): return l.text(.errBudgetNotFound(id: String(id)))
        case .medicationNotFound(let pet, let name): return l.text(.errMedicationNotFound(pet: pet, name: name))
        case .newerSchema(let path, _): return l.text(.errNewerSchema(path: path))
        case .notAPetlogDatabase(let path): return l.text(.errNotPetlogDatabase(path: path))
        case .cannotOpen(let path, let reason): return l.text(.errCannotOpen(path: path, reason: reason))
        case .attachmentUnreadable(let path): return l.text(.errAttachmentUnreadable(path: path))
        case .attachmentNotOnRecord(let id, let ref, let have) where have.isEmpty: return l.text(.errRecordNoAttachments(id: String(id), ref: ref))
        case .attachmentNotOnRecord(let id, let ref, let have):
            return l.text(.errAttachmentNotOnRecord(id: String(id), ref: ref, have: have.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: ", ")))
        case .damaged(let path, let detail): return l.text(.errDamaged(path: path, detail: detail))
        case .databaseMissing(let path): return l.text(.errDatabaseMissing(path: path, default: GlobalSettings.defaultDatabasePath))
        case .databaseEmpty(let path): return l.text(.errDatabaseEmpty(path: path))
        case .readOnly(let path): return l.text(.errReadOnly(path: path))
        case .file(let path, .isFIFO): return l.text(.errFile(path: path, problem: l.text(.errOpenNotRegular(what: l.text(.wordsFileFIFO)))))
        case .file(let path, .isDevice): return l.text(.errFile(path: path, problem: l.text(.errOpenNotRegular(what: l.text(.wordsFileDevice)))))
        case .file(let path, let cause): return l.text(.errFile(path: path, problem: Self.reason(cause, l)))
        case .busy: return l.text(.errBusy)
        case .petArchived(let name): return l.text(.errPetArchived(name: name, quoted: ShellWord.quoted(name)))
        case .petNotArchived(let name): return l.text(.errPetNotArchived(name: name))
        case .constraint(let detail): return l.text(.errConstraint(detail: detail))
        case .io(let detail): return l.text(.errIO(detail: detail))
        case .ambiguousMedication(let pet, let name, let candidates):
            return l.text(.errAmbiguousMedication(name: name, pet: pet, candidates: candidates.joined(separator: ", ")))
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
}

/// A chart or report renderer stopped before its file was whole (nothing is left at `path`).
struct RenderFailure: Error {
    enum Cause {
        case cairo(CairoError)
        case chart(ChartError)
        case report(ReportError)
    }
    let path: String
    let cause: Cause
}

/// A command-line mistake that argument-parser cannot see (a flag combination, a missing confirmation).
struct UsageError: Error {
    let message: String
    var code: Int32 = Failure.usage
}
