import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `--currency`, for every command that shows money in one currency.
struct CurrencyOption: ParsableArguments {
    @Option(help: ArgumentHelp(Help.s(.helpCurrencyOptionCurrency)))
    var currency: String?
}

extension Session {
    /// The currency to show totals in: `--currency`, else `PETLOG_CURRENCY`, else the config's `currency`, else the language's (ko KRW,
    /// ja JPY, en the monetary locale's region, else USD). An unknown code is refused.
    func homeCurrency(_ option: String?) throws -> Currency {
        let env = settings.environment["PETLOG_CURRENCY"].flatMap { $0.isEmpty ? nil : $0 }
        if let code = option ?? env ?? settings.config.values[.currency] {
            guard let c = Currency.named(code.trimmingCharacters(in: .whitespaces)) else { throw ParseError.unknownCurrency(code) }
            return c
        }
        return HomeCurrency.fallback(languageCode: l10n.language.rawValue, region: POSIXLocale().region(.monetary))
    }

    /// An amount as the user typed it: its own currency, else the one its numeral words carry (`1.5만`
    /// is won; a bare `万` is yen in Japanese), else `defaultCurrency`.
    func amount(_ raw: String, defaultCurrency: Currency?) throws -> Money {
        try MoneyText.parse(raw, defaultCurrency: defaultCurrency, language: l10n.language.rawValue)
    }

    /// The rates needed to convert `entries` into `target` (only their currencies and their own local days).
    mutating func rates(for entries: [SpendingEntry], to target: Currency) throws -> RateTable {
        try MoneyViews.rates(repository(), for: entries, to: target)
    }

    /// A note on stderr when money was saved in a currency the ECB publishes no rate for (`TWD`,
    /// `VND`): it is kept and totalled on its own, never converted to `home`.
    func noteUnconvertible(_ currency: Currency, home: Currency) {
        guard !currency.hasECBRate, currency != home else { return }
        terminal.error(t(.noteNoECBRate(currency: currency.code)))
    }
}
