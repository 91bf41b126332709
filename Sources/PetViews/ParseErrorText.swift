import Foundation
import Localization
import PetModel

extension ParseError {
    /// The one localized line for a value the user typed that could not be read: the CLI's refusal and the
    /// web forms' (`petlog serve`) are the same words.
    public func message(_ l: L10n) -> String {
        switch self {
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
        case .spanTooLong(let v, let max): return l.text(.errSpanTooLong(value: v, max: ValueFormatter.count(max)))
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
}
