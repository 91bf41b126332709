import ArgumentParser
import Foundation
import Localization
import PetModel
import PetFiles
import PetViews

/// `petlog rates update|import|list`: the ECB's euro reference rates. Only `rates update` touches the
/// network, and only when asked.
struct RatesGroup: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "rates", abstract: Help.s(.helpRatesGroupAbstract),
        subcommands: [Update.self, Import.self, List.self]
    ) }

    /// sysexits EX_UNAVAILABLE: the rates server (or the `unzip` a zip needs) could not be used.
    static let unavailable: Int32 = 69
    /// Decimals of the cross rates `rates list` shows (exact, rounded once half away from zero).
    static let crossDecimals = 4

    struct Update: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpRatesGroupUpdateAbstract),
            discussion: Help.s(.helpRatesGroupUpdateDiscussion)) }
        @Option(help: ArgumentHelp(Help.s(.helpRatesGroupUpdateSource))) var source: String?
        @Flag(help: ArgumentHelp(Help.s(.helpRatesGroupUpdateHistory))) var history = false
        @Flag(help: ArgumentHelp(Help.s(.helpRatesGroupUpdateForce))) var force = false

        func run() throws {
            try Session.run(global) { s in
                let mirror = s.settings.environment["PETLOG_RATES_URL"]
                guard let url = RatesUpdate.source(option: source, mirror: mirror, history: history), let address = URL(string: url) else {
                    throw UsageError(message: s.t(.errRatesBadSource(url: Terminal.sanitize(source ?? mirror ?? ""))))
                }
                // The fetch log is in the database; a first update creates the database only once it has rates to store.
                if s.settings.storeLocation.filePath.map({ FileManager.default.fileExists(atPath: $0) }) ?? true {
                    let last = try s.repository().lastRatesFetch()
                    if case .useStored(let fetch) = RatesUpdate.decide(last: last, source: url, today: s.time.today, force: force) {
                        if s.json {
                            try s.terminal.json(RatesJSON.AlreadyFetched(source: url, lastDay: fetch.lastRateDay,
                                                                         fetchedAt: JSONView.instant(fetch.fetchedAt, offset: s.time.utcOffset(at: fetch.fetchedAt))))
                        } else {
                            s.terminal.line(s.t(.ratesAlreadyFetched(day: fetch.lastRateDay.map(s.format.longDate) ?? "—")))
                        }
                        return
                    }
                }
                let data: Data
                do {
                    data = try RatesDownload.fetch(address)
                } catch let e as RatesDownloadError {
                    throw s.ratesFailure(e, source: url)
                }
                let rates = try s.readRates(data, source: url)
                try s.storeRates(rates, source: url)
            }
        }
    }

    struct Import: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpRatesGroupImportAbstract)) }
        @Argument(help: ArgumentHelp(Help.s(.helpRatesGroupImportFile))) var file: String

        func run() throws {
            try Session.run(global) { s in
                let shown = Terminal.sanitize(file)
                let data: Data
                do {
                    data = try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    throw UsageError(message: s.t(.errRatesUnreadable(path: shown)), code: Failure.noInput)
                }
                let rates = try s.readRates(data, source: file)
                try s.storeRates(rates, source: URL(fileURLWithPath: file).standardizedFileURL.absoluteString)
            }
        }
    }

    struct List: ParsableCommand {
        @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
        static var configuration: CommandConfiguration { CommandConfiguration(
            abstract: Help.s(.helpRatesGroupListAbstract)) }
        @Option(help: ArgumentHelp(Help.s(.helpRatesGroupListDate))) var date: String?
        @OptionGroup var money: CurrencyOption

        func run() throws {
            try Session.run(global) { s in
                let requested = try date.map { try TimeParser.day($0, context: s.time) }
                let home = try s.homeCurrency(money.currency)
                let repo = try s.repository()
                let last = try repo.lastRatesFetch()
                let lastJSON = last.map {
                    RatesJSON.LastFetch(at: JSONView.instant($0.fetchedAt, offset: s.time.utcOffset(at: $0.fetchedAt)), source: $0.source, localDay: $0.localDay,
                                        file: RatesPresenter.importedFile($0.source))
                }
                guard let found = try repo.rates(on: requested) else {
                    if s.json {
                        try s.terminal.json(RatesJSON.List(requested: requested, day: nil, home: home, crossDecimals: crossDecimals, rates: [], lastFetch: lastJSON))
                    } else if let requested, let newest = try repo.rates(on: nil) {
                        s.terminal.line(s.t(.ratesNoneOnOrBefore(date: s.format.longDate(requested), newest: s.format.longDate(newest.day))))
                    } else {
                        s.terminal.line(s.t(.ratesNone))
                    }
                    return
                }
                let present = RatesPresenter(s.presentation, crossDecimals: crossDecimals)
                let (rows, json, haveHome) = present.rates(found.rates, on: found.day, home: home)
                if s.json {
                    try s.terminal.json(RatesJSON.List(requested: requested, day: found.day, home: home, crossDecimals: crossDecimals, rates: json, lastFetch: lastJSON))
                    return
                }
                s.terminal.lines(present.lines(rows: rows, haveHome: haveHome, day: found.day, requested: requested, home: home, last: last))
            }
        }
    }
}

extension Session {
    /// A fetched or read file's rates (a zip unpacked first), or one line saying why it was refused.
    func readRates(_ data: Data, source: String) throws -> [EuroRate] {
        let shown = Terminal.sanitize(source)
        var body = data
        if RatesDownload.isZip(data) {
            do {
                body = try RatesDownload.unzipRatesFile(data)
            } catch let e as RatesDownloadError {
                throw ratesFailure(e, source: source)
            }
        }
        do {
            return try ECBRates.parse(body)
        } catch let e as RatesFileError {
            switch e {
            case .notARatesFile: throw UsageError(message: t(.errRatesNotAFile(source: shown)), code: Failure.dataError)
            case .badValue(let v): throw UsageError(message: t(.errRatesBadValue(source: shown, value: Terminal.sanitize(v))), code: Failure.dataError)
            }
        }
    }

    /// Stores the rates in one transaction (creating the database if need be) and says what changed.
    mutating func storeRates(_ rates: [EuroRate], source: String) throws {
        let stored = try repository(creating: true).storeRates(rates, source: source, at: time.now, localDay: time.today)
        let file = RatesUpdate.FileSummary(rates)
        if json {
            try terminal.json(RatesJSON.Stored(source: source, file: file, added: stored.added, changed: stored.changed))
            return
        }
        func n(_ x: Int) -> String { ValueFormatter.grouped(Int64(x)) }
        terminal.line(t(.ratesStored(rates: n(file.rates), currencies: n(file.currencies), days: n(file.days),
                                     day: file.lastDay.map(format.longDate) ?? "—", added: n(stored.added), changed: n(stored.changed))))
        terminal.line(t(.ratesFrom(source: Terminal.sanitize(source))))
    }

    /// A fetch that failed, as one line: the server or `unzip` unavailable (69), a broken zip (65).
    func ratesFailure(_ e: RatesDownloadError, source: String) -> UsageError {
        let shown = Terminal.sanitize(source)
        switch e {
        case .unreachable(let reason):
            return UsageError(message: t(.errRatesUnreachable(url: shown, reason: Terminal.sanitize(reason))), code: RatesGroup.unavailable)
        case .timedOut(let seconds):
            return UsageError(message: t(.errRatesTimeout(url: shown, seconds: String(seconds))), code: RatesGroup.unavailable)
        case .httpStatus(let status):
            return UsageError(message: t(.errRatesHTTP(url: shown, status: String(status))), code: RatesGroup.unavailable)
        case .noUnzip:
            return UsageError(message: t(.errRatesNoUnzip(source: shown)), code: RatesGroup.unavailable)
        case .helperMissing:
            return UsageError(message: t(.errHelperMissing(program: "petlog-fetch", variable: "PETLOG_FETCH")), code: RatesGroup.unavailable)
        case .badArchive(let detail):
            return UsageError(message: t(.errRatesBadArchive(source: shown, detail: Terminal.sanitize(detail))), code: Failure.dataError)
        }
    }
}
