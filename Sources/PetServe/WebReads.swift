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
    func cached<T>(_ key: String, _ marker: String?, cost: (T) -> Int, _ make: () throws -> T) rethrows -> T {
        if let kept: T = cache.value(key, marker: marker) { return kept }
        let value = try make()
        cache.keep(value, key, cost: cost(value), marker: marker)
        return value
    }

    var cache: StoreCache { store.cache }
}
