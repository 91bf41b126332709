import Assets
import Foundation

/// The words a receipt is read by (`assets/receipt-words.json`): what means "to pay", what only looks like it
/// (tendered, change, points, tax, subtotal), discounts, and header lines that are no store name.
///
/// Text is matched folded: NFKC, lowercased, spaces removed, and OCR's confusions (`0`→`o`, `1`→`l`, `rn`→`m`)
/// folded the same way on both sides, so `T0TAL`, `TOTA L`, `합 계` and `合 計` match their words.
struct ReceiptWords: Decodable {
    struct Tiers: Decodable { let final: [String: [String]], plain: [String: [String]], weak: [String: [String]] }
    let fold: [String: String]
    let toPay: Tiers
    let notToPay: [String: [String]]
    let notToPayUnless: [String: [String]]
    let discount: [String: [String]]
    let notAName: [String: [String]]
    let shopWords: [String: [String]]
    struct Branch: Decodable { let ends: [String], shop: [String] }
    let branch: Branch

    static let shipped: ReceiptWords = {
        // safe: the file is compiled into the binary, and the receipt tests decode it, so no input reaches this.
        do { return try JSONDecoder().decode(ReceiptWords.self, from: Assets.receiptWords) } catch { fatalError("assets/receipt-words.json: \(error)") }
    }()

    /// A to-pay word's tier: 3 the amount finally paid (`결제금액`, `ご請求額`, `AMOUNT DUE`), 2 a total (`합계`,
    /// `合計`, `TOTAL`), 1 a weak one (`BALANCE`, `카드결제`).
    static let toPayWords: [(word: String, tier: Int)] = {
        func all(_ d: [String: [String]], _ tier: Int) -> [(String, Int)] { d.values.flatMap { $0 }.map { (folded($0), tier) } }
        // The strongest tier first, and in a tier the longest word (`합계금액` before `합계`), so a line's label ends where its word does.
        return (all(shipped.toPay.final, 3) + all(shipped.toPay.plain, 2) + all(shipped.toPay.weak, 1))
            .sorted { ($0.1, $0.0.count) > ($1.1, $1.0.count) }
    }()
    static let notToPayWords: [String] = shipped.notToPay.values.flatMap { $0 }.map(folded)
    static let unlessWords: [String] = shipped.notToPayUnless.values.flatMap { $0 }.map(folded)
    /// Every word of the total and of its look-alikes.
    static let labelWords: [String] = toPayWords.map(\.word) + notToPayWords
    static let discountWords: [String] = shipped.discount.values.flatMap { $0 }.map(folded)
    static let notANameWords: [String] = shipped.notAName.values.flatMap { $0 }.map { $0.lowercased() }
    /// Shop kinds with a look-alike's word in them (`할인마트`): matched folded.
    static let shopKindWords: [String] = shipped.shopWords.values.flatMap { $0 }.map(folded)

    /// The confusions, longest first (`rn` before single characters).
    static let folds: [([Character], Character)] = shipped.fold.map { (Array($0.key), Character($0.value)) }.sorted { $0.0.count > $1.0.count }

    /// `text` folded for matching, with, for each folded character, the offset (in `text`'s characters) just after it.
    static func foldWithOffsets(_ text: String) -> (chars: [Character], ends: [Int]) {
        let source = Array(text.lowercased())
        var chars: [Character] = [], ends: [Int] = []
        var i = 0
        outer: while i < source.count {
            let c = source[i]
            if c.isWhitespace { i += 1; continue }
            for (from, to) in folds where i + from.count <= source.count && Array(source[i..<(i + from.count)]) == from {
                chars.append(to); i += from.count; ends.append(i)
                continue outer
            }
            chars.append(c); i += 1; ends.append(i)
        }
        return (chars, ends)
    }

    static func folded(_ text: String) -> String { String(foldWithOffsets(text.precomposedStringWithCompatibilityMapping).chars) }

    /// Whether a folded line carries a word that is not the amount to pay (a "tax included" phrase does not count as tax).
    static func isNotToPay(_ folded: String) -> Bool {
        var text = folded
        for w in unlessWords { text = text.replacingOccurrences(of: w, with: "_") }
        return notToPayWords.contains { text.contains($0) }
    }

    static func isDiscount(_ folded: String) -> Bool { discountWords.contains { folded.contains($0) } }

    /// The strongest to-pay word on a line (its tier) and where it ends in the line's normalized characters.
    static func toPay(_ normalized: String) -> (tier: Int, end: Int)? {
        let (chars, ends) = foldWithOffsets(normalized)
        let text = String(chars)
        guard !isNotToPay(text) else { return nil }
        for (word, tier) in toPayWords {
            guard let r = text.range(of: word) else { continue }
            return (tier, ends[text.distance(from: text.startIndex, to: r.upperBound) - 1])
        }
        return nil
    }
}
