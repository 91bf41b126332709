import Foundation
import Hummingbird
import Localization
import PetCharts
import PetModel
import PetStoreCore
import PetViews

/// The reads behind home, a pet's page and its chart, made cheap for a household's phones under load (issue 44).
/// Values derived from the store are kept in `StoreCache` while its change marker stays the same (read before them,
/// in the same turn of the store); every request still asks the store for its session and the marker, and works
/// out at its own instant what depends on the instant (what is overdue, a running medication course).
extension PetServer {
    /// Home's parts: the pets' cards (kept per marker, language and units), the due list as of the start of this
    /// minute (kept per marker, minute, language and units: what is due is worked out at an instant) and this month's
    /// money. The page around them (the account's name, its CSRF token, its feed form) is made for each request.
    func homeParts(_ p: PresentationContext) throws -> (list: HTML, due: HTML, money: Pages.HomeMoney) {
        let language = p.l10n.language.rawValue, units = "\(settings.unitSystem)"
        let minute = (p.time.now.timeIntervalSince1970 / 60).rounded(.down)
        let listKey = "home.list|\(language)|\(units)", dueKey = "home.due|\(minute)|\(language)|\(units)"
        let moneyKey = "home.money|\(p.time.today)|\(homeCurrency(p).code)"
        return try store.run { s -> (HTML, HTML, Pages.HomeMoney) in
            let marker = try s.changeMarker()
            func pets() throws -> [Pages.HomePet] {
                try cached("home.pets", marker, cost: { $0.count * 512 }) {
                    let pets = try s.pets(includeArchived: false)
                    let weights = try s.latestWeights(pets: pets.map(\.id), count: 2)
                    return pets.map { Pages.HomePet(pet: $0, latest: weights[$0.id]?.first, before: weights[$0.id]?.dropFirst().first) }
                }
            }
            let list: HTML = try cached(listKey, marker, cost: { $0.raw.utf8.count }) { Pages(p).homeList(try pets()) }
            let due: HTML = try cached(dueKey, marker, cost: { $0.raw.utf8.count }) {
                let shown = try pets().map(\.pet)
                let care: [PetRecord] = try cached("home.care", marker, cost: { $0.count * 256 }) { try s.careRecords(pets: shown.map(\.id)) }
                let then = presentation(p.l10n.language, at: Date(timeIntervalSince1970: minute * 60))
                return Pages(then).dueList(Self.due(shown, care: care, then.time), showPet: true)
            }
            let money: Pages.HomeMoney = try cached(moneyKey, marker, cost: { _ in 64 << 10 }) { try homeMoney(s, p) }
            return (list, due, money)
        }
    }

    /// A pet's page's reads (`PetPageData`), kept per pet, calendar month and timeline page while the marker stays
    /// the same, and the household's last `undo` step, kept per marker. What depends on the request's instant (which
    /// courses still run; what is due, worked out by the caller from `care`) and on its account (whether that last step
    /// is the account's own web change) is made for each request; the page's HTML is made after the store is left.
    func petPageParts(pet id: Int64, month: LocalDate, page: Int, account: Account) throws
        -> (data: PetPageData, running: [MedicationCourse], undo: UndoEntry?) {
        try store.run { s in
            let marker = try s.changeMarker()
            let data: PetPageData = try cached("pet|\(id)|\(month)|\(page)", marker, cost: \.cost) {
                let pet = try s.pet(.id(id))
                let weights = try s.records(RecordQuery(pets: [.id(id)], kinds: [.weight], limit: 5, newestFirst: true))
                // Every course not stopped; which of them still run is the request's instant's question.
                let courses = try s.medications(pets: [.id(id)], includeStopped: false, activeAt: .distantPast)
                let inMonth = try s.records(RecordQuery(pets: [.id(id)], days: DayWindow(first: month, end: month.adding(months: 1))))
                let (days, marks) = CalendarPresenter.marks(inMonth, first: month)
                let size = Self.timelinePage
                let records = try s.records(RecordQuery(pets: [.id(id)], limit: size * (page + 1) + 1, newestFirst: true))
                return PetPageData(pet: pet, weights: weights, courses: courses, care: try s.careRecords(pets: [id]), days: days, marks: marks,
                                   timeline: Array(records.dropFirst(size * page).prefix(size)), hasOlder: records.count > size * (page + 1))
            }
            let last: [UndoEntry] = try cached("undo.last", marker, cost: { _ in 256 }) { try s.undoHistory(limit: 1) }
            // As `medications(includeStopped: false)` at the store's clock.
            let now = s.now()
            let context = TimeContext(now: now, timeZone: .current)
            return (data, data.courses.filter { CareAgenda.isActive($0.medication, at: now, context: context) },
                    last.first.flatMap { $0.command.hasPrefix(Self.undoPrefix(account)) ? $0 : nil })
        }
    }

    /// What is overdue or due within 30 days among `care` (the pets' `careRecords`), as `due` finds it at this instant.
    static func due(_ pets: [Pet], care: [PetRecord], _ time: TimeContext) -> [DueItem] {
        let horizon = time.today.adding(days: 30)
        return CareAgenda.items(pets: pets, records: care, schedule: .shipped, context: time).filter { $0.dueDay <= horizon }
    }

    /// The chart's window on the pages: `3m` and `1y` from the start of the local day that long ago (so a day's
    /// charts are the same drawing and may be kept), `all` everything.
    static func chartWindow(_ since: String, _ time: TimeContext) throws -> TimeWindow {
        guard since != "all" else { return TimeWindow() }
        return TimeWindow(since: time.startOfDay(time.localDate(of: try TimeParser.since(since, context: time))))
    }

    /// `weight.svg`/`weight.png`'s bytes: kept per pet, period, theme, format, language, units and day while the
    /// store's marker stays the same (the drawing is a function of those and the store's data only).
    func weightChartBytes(pet id: Int64, since: String, theme: ChartTheme, format: ChartFormat, _ p: PresentationContext) throws -> Data {
        let key = "chart|\(id)|\(since)|\(theme)|\(format)|\(p.l10n.language.rawValue)|\(settings.unitSystem)|\(p.time.today)"
        let window = try Self.chartWindow(since, p.time)
        let (marker, kept, chart) = try store.run { s -> (String?, Data?, ComposedChart?) in
            let marker = try s.changeMarker()
            if let kept: Data = cache.value(key, marker: marker) { return (marker, kept, nil) }
            return (marker, nil, try ChartComposer(store: s, context: p, size: Self.chartSize, theme: theme).weight(pets: [.id(id)], window: window, smoothing: nil))
        }
        if let kept { return kept }
        let bytes = try Self.rendered(format == .svg ? "weight.svg" : "weight.png") { path in
            switch chart?.drawing() {
            case .line(let spec): try ChartRenderer.render(spec, to: path, format: format)
            case .bars(let spec): try ChartRenderer.render(spec, to: path, format: format)
            case nil: break
            }
        }
        cache.keep(bytes, key, cost: bytes.count, marker: marker)
        return bytes
    }

    /// The value kept under `key` for `marker`, else `make`'s, kept with its `cost` in bytes.
    /// Made by one request at a time (`StoreCache.value(_:marker:cost:make:)`): the others wait for it.
    func cached<T>(_ key: String, _ marker: String?, cost: (T) -> Int, _ make: () throws -> T) rethrows -> T {
        try cache.value(key, marker: marker, cost: cost, make: make)
    }

    var cache: StoreCache { store.cache }
}

/// What a pet's page reads from the store (`PetServer.petPageParts`): the household's data only, nothing of an account
/// or of the request's instant.
struct PetPageData {
    let pet: Pet
    /// The five latest weights, newest first.
    let weights: [PetRecord]
    /// The courses not stopped, also those past their last day.
    let courses: [MedicationCourse]
    /// `careRecords` of the pet: what `due` works its agenda out from.
    let care: [PetRecord]
    /// The calendar month's days and each day's kinds.
    let days: [LocalDate]
    let marks: [LocalDate: [RecordKind: Int]]
    /// The timeline's page of records and whether older ones follow.
    let timeline: [PetRecord]
    let hasOlder: Bool

    /// What the cache counts it as (bytes, roughly).
    var cost: Int { 1024 + (weights.count + courses.count + care.count + timeline.count) * 512 + marks.count * 64 }
}
