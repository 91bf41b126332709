import Foundation
import Localization
import PetModel

/// What every presenter lays out with, built once per command: the screen (width, colours), the language,
/// masses/money/dates in that language and units, records and codes worded, the clock and zone, and the
/// week's first day. Presenters hold this one value instead of each repeating the same five fields.
public struct PresentationContext {
    public let screen: TextScreen
    public let l10n: L10n
    public let format: ValueFormatter
    public let wording: RecordWording
    public let time: TimeContext
    /// The config's `week_start`, else the locale's (calendar grids, weekly symptom bars).
    public let weekStartsOnSunday: Bool

    public init(screen: TextScreen, l10n: L10n, format: ValueFormatter, wording: RecordWording, time: TimeContext,
                weekStartsOnSunday: Bool = false) {
        self.screen = screen; self.l10n = l10n; self.format = format; self.wording = wording; self.time = time
        self.weekStartsOnSunday = weekStartsOnSunday
    }

    public func t(_ message: L10n.Message) -> String { l10n.text(message) }

    /// A category code's name in the language (`vet` → 동물병원).
    public func categoryName(_ code: String) -> String { l10n.code(.category, code) }

    /// `SpendingAhead` as the one wrapped line every money view ends with (nothing when none is ahead).
    public func aheadLines(_ ahead: SpendingAhead) -> [String] {
        guard ahead.purchases > 0 else { return [] }
        return screen.wrapped(t(.spendingAheadNote(amount: format.money(ahead.converted), n: ValueFormatter.count(ahead.purchases))))
    }
}

/// A presenter over one `PresentationContext`: its parts by name, and the initializer from the parts that the
/// presenters made before the context existed still offer.
public protocol ContextPresenter {
    var context: PresentationContext { get }
    init(_ context: PresentationContext)
}

extension ContextPresenter {
    var screen: TextScreen { context.screen }
    var l10n: L10n { context.l10n }
    var format: ValueFormatter { context.format }
    var wording: RecordWording { context.wording }
    var time: TimeContext { context.time }

    public init(screen: TextScreen, l10n: L10n, format: ValueFormatter, wording: RecordWording, time: TimeContext) {
        self.init(PresentationContext(screen: screen, l10n: l10n, format: format, wording: wording, time: time))
    }
}
