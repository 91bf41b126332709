import Foundation

/// The store's name: a labelled line (`상호:`, `店名`, `Store:`), else the most prominent header line that is
/// nothing else (not a date, phone number, address, receipt title, business number or web address): the one
/// in the largest type, else the first, in the receipt's script.
extension ReceiptReading {
    /// Labels in front of a store name; the Latin ones need a colon (`Store hours` is no name).
    static let merchantLabels: [(String, needsColon: Bool)] = [
        ("상호명", false), ("상호", false), ("가맹점명", false), ("가맹점", false), ("매장명", false),
        ("店舗名", false), ("店名", false), ("merchant name", true), ("merchant", true), ("store name", true), ("store", true),
    ]
    /// Where a labelled name stops: the owner, the business number or the phone on the same line.
    static let merchantCutoffs = ["대표", "사업자", "tel", "전화", "☎", "代表", "電話", "phone"]
    static let titles = ["영수증", "매출전표", "거래명세", "고객용", "領収書", "領収証", "レシート", "receipt", "invoice", "customer copy"]
    static let greetings = ["welcome", "thank", "어서오세요", "환영", "감사", "いらっしゃいませ", "ありがとう", "毎度"]
    static let otherLabels = ["주소", "住所", "address", "fax", "대표", "代表", "登録番号", "사업자", "cashier", "담당", "担当", "レジ", "pos"]
    /// A name in large type read under this (its line under 90) is asked about.
    static let sureMerchant = 72.0
    /// A name with a kana of `voicedKana` read under this (its line under 95) is asked about.
    static let sureVoicedMerchant = 76.0
    /// Kana OCR takes one for another: with the voicing marks (the two dots and the small circle), and the small ones
    /// beside their full size (`ディリー` for デイリー).
    static let voicedKana = Set("がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽガギグゲゴザジズゼゾダヂヅデドバビブベボパピプペポヴ"
                                + "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮイアウエオツヤユヨワ")
    static let separators = CharacterSet(charactersIn: " \t*-=_~#:|[](){}<>.,·•【】「」『』〔〕/\\")

    static func readMerchant(_ lines: [ScannedLine], header: Set<Int>, language: ReceiptLanguage = .korean) -> (field: ReceiptField<String>, line: Int)? {
        for (i, line) in lines.enumerated() {
            guard let rest = afterMerchantLabel(line.normalized) else { continue }
            if let name = cleanName(rest) { return (line.field(name, certainty: 1.0), i) }
            // The label alone: the name is the next line.
            if i + 1 < lines.count, let name = cleanName(lines[i + 1].normalized), !isNotAName(lines[i + 1]) {
                let confidence = min(line.confidence, lines[i + 1].confidence) * 0.9
                return (ReceiptField(value: name, confidence: (confidence * 10).rounded() / 10, source: line.text + "\n" + lines[i + 1].text), i + 1)
            }
        }
        var candidates: [(index: Int, name: String, height: Int)] = []
        // The name stands above the date and the first amount: lines below them in the top part are items.
        let dateLine = lines.indices.first { ReceiptReading.firstDate(lines[$0]) != nil } ?? lines.count
        let firstAmount = lines.indices.first { i in lines[i].runs.contains { !$0.separators.isEmpty || $0.marker != nil } } ?? lines.count
        let above = min(dateLine, firstAmount)
        let typical = typicalHeight(lines)
        for i in header.sorted() where i < lines.count {
            let line = lines[i]
            // A line OCR read at under 45 is noise (a logo, a name in type too large for it): better no name than that; but
            // a large line read all in the receipt's own script (`몽실몽실펫미용실` at 44) is the name read badly (asked about).
            guard line.confidence >= 45 || (line.confidence >= 35 && largeInOwnScript(line, language, typical: typical)),
                  !isNotAName(line), let read = cleanName(joinedPieces(lines, i)), looksLikeAName(read),
                  // What is left once OCR's marks around it are gone must still be a name (`!      ama` is none).
                  let name = cleanName(withoutLeadingNoise(withoutTrailingNoise(read, language), language)),
                  // A branch alone (`名古屋店`, `강남점` on the line under the name) is no name by itself.
                  !isBranchOnly(name) else { continue }
            candidates.append((i, name, line.height))
        }
        // OCR reading part of a line in large type twice (`펀의` over 굿모닝편의점, on the same row): the part is no candidate.
        candidates = candidates.filter { c in
            !candidates.contains { o in o.index != c.index && o.name.count > c.name.count && sameRowWithin(lines[c.index].original.box, lines[o.index].original.box) }
        }
        let aboveOnes = candidates.filter { $0.index < above }
        if !aboveOnes.isEmpty { candidates = aboveOnes }
        // In the receipt's script when there is such a line: OCR noise in a Korean header reads as Latin letters;
        // and read with some confidence when there is such a line (a logo reads as letters at a low one).
        let inScript = candidates.filter { inReceiptScript($0.name, language) }
        if !inScript.isEmpty { candidates = inScript }
        let clear = candidates.filter { lines[$0.index].confidence >= 70 }
        if !clear.isEmpty { candidates = clear }
        guard let first = candidates.first else { return nil }
        let tallest = candidates.max { $0.height < $1.height } ?? first
        if typical > 0, Double(tallest.height) >= typical * 1.25, tallest.height > candidates.filter({ $0.index != tallest.index }).map(\.height).max() ?? 0 {
            // One line stands out in larger type: that is how shops print their name.
            // Read at under 90 (a field under 72), it is often a character off (`벽식자재마트` for 새벽식자재마트, `반러` for 반려):
            // asked about; and under 95 when it has a kana with voicing marks, which OCR reads one for the other at a high
            // confidence (`ぺろべろ` for ぺろぺろ, `コンピニ` for コンビニ, `こもれぴ` for こもれび).
            let field = lines[tallest.index].field(tallest.name, certainty: 0.8)
            let unsure = field.confidence < Self.sureMerchant || (field.confidence < Self.sureVoicedMerchant && tallest.name.contains(where: Self.voicedKana.contains))
            return (ReceiptField(value: field.value, confidence: field.confidence, source: field.source, unsure: unsure), tallest.index)
        }
        return (lines[first.index].field(first.name, certainty: 0.6, unsure: true), first.index)
    }

    /// A header line with the short pieces OCR cut off it on the same baseline (`ポ` `チタマ動物病院` read as two
    /// lines because of the large type's spacing) put back in their left-to-right order.
    static func joinedPieces(_ lines: [ScannedLine], _ i: Int) -> String {
        let box = lines[i].original.box
        func sameRow(_ other: ReceiptBox) -> Bool {
            let top = max(box.y, other.y), bottom = min(box.y + box.height, other.y + other.height)
            return bottom - top >= min(box.height, other.height) / 2 && box.height > 0 && other.height > 0
        }
        var pieces = [(x: box.x, text: lines[i].normalized)]
        for j in [i - 1, i + 1] where j >= 0 && j < lines.count {
            let other = lines[j]
            // A piece within the line's own width is OCR reading some of its characters twice (`야` over 새봄약국), no piece of it.
            let ob = other.original.box
            let within = min(ob.x + ob.width, box.x + box.width) - max(ob.x, box.x) > ob.width / 2
            guard sameRow(ob), !within, cleanName(other.normalized) == nil, other.runs.isEmpty,
                  other.normalized.contains(where: \.isLetter) else { continue }
            pieces.append((other.original.box.x, other.normalized))
        }
        guard pieces.count > 1 else { return lines[i].normalized }
        return pieces.sorted { $0.x < $1.x }.map(\.text).joined(separator: " ")
    }

    /// A Korean or Japanese name without the short marks OCR read beside it at the paper's edge
    /// (`あおい薬局 ーー oe`, `デイリーマート : i 1`); an upper-case tag with digits such as `GS25` stays.
    static func withoutTrailingNoise(_ name: String, _ language: ReceiptLanguage) -> String {
        guard language != .english else { return name }
        var words = name.split(separator: " ").map(String.init)
        func isCJK(_ c: Character) -> Bool { ReceiptSpacing.isHangul(c) || (ReceiptSpacing.isKanaOrKanji(c) && c != "ー") }
        while words.count > 1, let last = words.last, !last.contains(where: isCJK), last.count <= 4,
              !(last.count >= 2 && last.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) } && last.contains(where: \.isLetter)
                && last.contains(where: \.isNumber)) {
            words.removeLast()
        }
        var out = words.joined(separator: " ")
        // A rule of long-vowel marks OCR joined to the name (`あおい薬局ーー`); one `ー` ends names (`センター`).
        while out.hasSuffix("ーー") { out.removeLast() }
        if out.hasSuffix("ー"), out.dropLast().last.map({ ReceiptSpacing.isKanaOrKanji($0) && !("\u{30A0}"..."\u{30FF}").contains($0) }) == true { out.removeLast() }
        return out
    }

    /// Mostly letters: not OCR's noise from a logo or a rule (`=e a`, `VSS Sa =`).
    static func looksLikeAName(_ name: String) -> Bool {
        let visible = name.filter { !$0.isWhitespace }
        let letters = visible.filter(\.isLetter).count
        guard visible.count > 0, Double(letters) / Double(visible.count) >= 0.6 else { return false }
        // Latin noise: at least one word of three letters or more.
        if name.allSatisfy({ $0.isASCII }) { return name.split(separator: " ").contains { $0.filter(\.isLetter).count >= 3 } }
        return true
    }

    /// Whether a name is written in the receipt's script (Hangul for Korean, kana or kanji for Japanese, Latin for English).
    static func inReceiptScript(_ name: String, _ language: ReceiptLanguage) -> Bool {
        switch language {
        case .korean: name.contains(where: ReceiptSpacing.isHangul)
        case .japanese: name.contains(where: ReceiptSpacing.isKanaOrKanji)
        case .english: name.contains { $0.isASCII && $0.isLetter }
        }
    }

    /// The text after a merchant label at the start of a line, or nil when the line has none.
    static func afterMerchantLabel(_ text: String) -> String? {
        let trimmed = Array(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t*[(<【「")))
        for (label, needsColon) in merchantLabels {
            // OCR often spaces out Hangul and kanji (`상 호 :`): spaces inside the label are skipped.
            var k = 0
            for wanted in label where wanted != " " {
                while k > 0, k < trimmed.count, trimmed[k] == " " { k += 1 }
                guard k < trimmed.count, trimmed[k].lowercased() == String(wanted) else { k = -1; break }
                k += 1
            }
            guard k > 0 else { continue }
            var rest = Substring(String(trimmed[k...]))
            let next = rest.first
            // `가맹점번호` is the merchant's number, not its name.
            guard next == nil || next == ":" || next == " " || next == "]" || next == ")" || next == ">" || next == "】" || next == "」" || next == "-" else { continue }
            if needsColon {
                rest = rest.drop { $0 == " " }
                guard rest.first == ":" else { continue }
            }
            var value = String(rest)
            if let cut = merchantCutoffs.compactMap({ value.range(of: $0, options: .caseInsensitive) }).map(\.lowerBound).min() {
                value = String(value[..<cut])
            }
            return value
        }
        return nil
    }

    /// The name without separators around it; nil when fewer than two letters remain.
    static func cleanName(_ text: String) -> String? {
        // The company form is no part of the name people know: `(주)멍멍펫샵`, `㈱さくら` (NFKC: `(株)`).
        var name = text
        for form in ["(주)", "(株)", "(유)", "(有)", "주식회사", "株式会社"] { name = name.replacingOccurrences(of: form, with: " ") }
        name = ReceiptSpacing.tidy(name.trimmingCharacters(in: separators))
        return name.filter(\.isLetter).count >= 2 ? name : nil
    }

    /// A line in type at least 1.25 times the page's, whose letters are all of the Korean or Japanese receipt's script (three or more).
    static func largeInOwnScript(_ line: ScannedLine, _ language: ReceiptLanguage, typical: Double) -> Bool {
        guard language != .english, typical > 0, Double(line.height) >= typical * 1.25 else { return false }
        let letters = line.normalized.filter(\.isLetter)
        let own = letters.filter { language == .korean ? ReceiptSpacing.isHangul($0) : ReceiptSpacing.isKanaOrKanji($0) }
        return own.count >= 3 && own.count == letters.count
    }

    /// Whether a box lies on another's row (half its height or more shared) and mostly within its width.
    static func sameRowWithin(_ inner: ReceiptBox, _ outer: ReceiptBox) -> Bool {
        guard inner.height > 0, outer.height > 0, inner.width > 0 else { return false }
        let rows = min(inner.y + inner.height, outer.y + outer.height) - max(inner.y, outer.y)
        let columns = min(inner.x + inner.width, outer.x + outer.width) - max(inner.x, outer.x)
        return rows * 2 >= min(inner.height, outer.height) && columns * 2 > inner.width
    }

    /// A branch alone: one word of two to five Hangul, or of kanji, ending in a branch's ending (`강남점`, `名古屋店`,
    /// `本店`), that is not a kind of shop with the same ending (`편의점`, `用品店`; `assets/receipt-words.json`, `branch`).
    static func isBranchOnly(_ name: String) -> Bool {
        let word = name.filter { !$0.isWhitespace }
        guard (2...5).contains(word.count), ReceiptWords.shipped.branch.ends.contains(where: { word.hasSuffix($0) }),
              !ReceiptWords.shipped.branch.shop.contains(where: { word.hasSuffix($0) }) else { return false }
        let kanji: (Character) -> Bool = { $0.unicodeScalars.allSatisfy { (0x4E00...0x9FFF).contains($0.value) } }
        return word.allSatisfy(ReceiptSpacing.isHangul) || word.allSatisfy(kanji)
    }

    /// Header lines that are something else than the store's name.
    static func isNotAName(_ line: ScannedLine) -> Bool {
        let lower = line.normalized.lowercased()
        let compact = line.compact
        if titles.contains(where: { compact.contains($0.replacingOccurrences(of: " ", with: "")) }) { return true }
        if greetings.contains(where: { compact.contains($0) }) || otherLabels.contains(where: { lower.contains($0) }) { return true }
        if afterMerchantLabel(line.normalized) != nil { return true }
        if firstDate(line) != nil || readTime(line) != nil || isPhone(line.normalized) || isBusinessNumber(line.normalized) { return true }
        if isAddress(line.normalized) { return true }
        // Business numbers, web addresses, registers and the like (`assets/receipt-words.json`, `notAName`).
        let tokens = Set(lower.split { !$0.isLetter }.map(String.init))
        // A Korean or Japanese word also when OCR spaced it out (`영 수 중`, `登 録 番 号`).
        if ReceiptWords.notANameWords.contains(where: { w in
            w.allSatisfy { $0.isASCII && $0.isLetter } ? tokens.contains(w) : w.allSatisfy(\.isASCII) ? lower.contains(w) : compact.contains(w)
        }) { return true }
        // Amounts, card numbers and other long numbers (a store number such as `#1234` may stay).
        if line.runs.contains(where: { !$0.separators.isEmpty || $0.marker != nil || $0.groups.joined().count >= 5 }) { return true }
        // A total's look-alike word inside a kind of shop (`할인` of 우리동네할인마트) leaves it a name.
        var rest = line.compact
        for w in ReceiptWords.shopKindWords where !w.isEmpty { rest = rest.replacingOccurrences(of: w, with: " ") }
        guard rest != line.compact else { return TotalLabel.isLabel(line, wholeLatinWords: true) }
        let original = line.original
        return TotalLabel.isLabel(ScannedLine(ReceiptLine(text: rest, confidence: original.confidence, box: original.box)), wholeLatinWords: true)
    }

    static let phonePattern = ReceiptPatterns.make(#"(?<![0-9])\(?0[0-9]{1,3}\)?[-. ][0-9]{3,4}[-. ][0-9]{4}(?![0-9])|(?<![0-9])\(?[0-9]{3}\)?[-. ][0-9]{3}[-. ][0-9]{4}(?![0-9])"#)
    static let businessPattern = ReceiptPatterns.make(#"(?<![0-9])[0-9]{3}-[0-9]{2}-[0-9]{5}(?![0-9])|\bT[0-9]{13}\b"#)

    static let zipPattern = ReceiptPatterns.make(#"\b[A-Z]{2}\s+[0-9]{5}(?:-[0-9]{4})?\b"#, ignoringCase: false)

    static func isPhone(_ text: String) -> Bool {
        let lower = text.lowercased()
        if ["tel", "전화", "電話", "☎", "phone"].contains(where: { lower.contains($0) }) { return true }
        return !ReceiptPatterns.matches(phonePattern, in: text).isEmpty
    }

    static func isBusinessNumber(_ text: String) -> Bool {
        text.contains("사업자") || text.contains("登録番号") || !ReceiptPatterns.matches(businessPattern, in: text).isEmpty
    }

    /// A line with a digit and a word ending in an address part: `강남대로 123`, `역삼동`, `渋谷区1-2-3`, `12 Main St`.
    static func isAddress(_ text: String) -> Bool {
        guard text.contains(where: { $0.asciiDigit != nil }) else { return false }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        let korean: Set<Character> = ["로", "길", "동", "구", "시", "군", "읍", "면"]
        if words.contains(where: { w in w.count >= 2 && w.last.map(korean.contains) == true && w.dropLast().allSatisfy { !$0.isNumber } }) { return true }
        if ["市", "区", "町", "都", "県", "丁目", "番地"].contains(where: { text.contains($0) }) { return true }
        // A US state and ZIP code: `Springfield, IL 62701`.
        if !ReceiptPatterns.matches(zipPattern, in: text).isEmpty { return true }
        // A British or Irish postcode (`Manchester M1 4BT`, OCR's `M1 48T`; `Dublin 2`).
        if text.range(of: #"\b[A-Z]{1,2}[0-9][0-9A-Z]?\s+[0-9][A-Z0-9]{2}\b"#, options: .regularExpression) != nil { return true }
        if text.range(of: #"^[A-Z][a-z]+ [0-9]{1,2}$"#, options: .regularExpression) != nil { return true }
        let english: Set<String> = ["st", "st.", "street", "ave", "ave.", "avenue", "rd", "rd.", "road", "blvd", "blvd.", "suite", "ste", "dr", "dr.", "hwy", "ln", "way"]
        return words.contains { english.contains($0.lowercased()) }
    }
}
