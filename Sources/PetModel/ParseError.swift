/// Why a piece of user text could not become a value; the CLI turns each case into one localized line.
public enum ParseError: Error, Equatable, Sendable {
    /// A number was expected (no NaN, infinity, exponent or hex).
    case notANumber(String)
    /// A quantity had no or an unknown unit.
    case badMass(String)
    /// A weight or an amount below zero (`-3kg`, `－５ｇ`).
    case negative(String)
    /// A mass was zero, negative or beyond any pet (over 1,000 kg).
    case massOutOfRange(String)
    /// A mass typed more finely than the whole grams petlog keeps (`0.5g`, `1.002lb`): it would be stored as
    /// `grams`, which does not read back as what was typed.
    case massTooFine(String, grams: Int)
    case badDate(String)
    /// A month (`--month`) that is not YYYY-MM with a month 01–12.
    case badMonth(String)
    /// A well-formed day or time that lands outside the days petlog keeps (1800-01-01 to 9999-12-31).
    case dateOutOfRange(String)
    case badTime(String)
    case badDuration(String)
    /// A span whose number is more than petlog counts in one (`-1000000h`): `max` of its unit at most.
    case spanTooLong(String, max: Int)
    case badMoney(String)
    case unknownCurrency(String)
    /// An amount with two currencies (`45000 KRW USD`, `$45 KRW`): which one was meant is not guessed.
    case twoCurrencies(String)
    /// An amount of money below zero (`-5 USD`), said as money, not as a weight.
    case negativeAmount(String)
    /// An expense of zero: a purchase costs something.
    case amountNotPositive(String)
    /// More fraction digits than the currency has (JPY and KRW have none).
    case tooManyFractionDigits(String, currency: String, allowed: Int)
    case moneyOutOfRange(String)
    /// Kanji numerals (`1.5万`) with no currency, where neither the language nor the home currency
    /// (`home`, its code) says which one they count.
    case numeralsWithoutCurrency(String, home: String)
    case outOfRange(field: String, value: String, min: Int, max: Int)
    case unknownChoice(field: String, value: String, accepted: [String])
    case badAmount(String)
    case emptyText(field: String)
    case textTooLong(field: String, max: Int)
    case controlCharacters(field: String)
    /// A microchip number that is not 9–15 digits.
    case badMicrochip(String)
    /// A chart size that is not WIDTHxHEIGHT within 64–16000.
    case badSize(String)
    /// A pet name made only of digits would be read as an id.
    case numericName(String)
    /// A symptom or vaccine name one typo away from a listed one (`vomitting`): refused with the listed name.
    case nearlyListed(field: String, value: String, suggestion: String)
    /// Something that happened, dated after now (plus the tolerance) or a birth after today; `limit` is the latest allowed.
    case inFuture(String, limit: DatingLimit)
    /// A day that must not precede the day it counts from: `--until`, `--next`, `--follow-up`.
    case beforeStart(field: String, value: String, start: String)
    /// A file given where an image belongs (`--photo`), or an image or PDF (`--receipt`), that is neither.
    case notAnImage(path: String, pdfAllowed: Bool)
    /// A contact that is not `NAME, PHONE` (`--vet-contact`, `--emergency-contact`).
    case badContact(field: String, value: String)
    /// `--no-allergy` (and the like) naming an item the pet does not have.
    case notListed(field: String, value: String)
    /// More allergies, conditions or contacts than a pet may have.
    case tooManyItems(field: String, max: Int)
}
