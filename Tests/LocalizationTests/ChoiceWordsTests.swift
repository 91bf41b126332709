import XCTest
import PetModel
@testable import Localization

/// Issue 42: every fixed choice reads the words help and errors show in en/ko/ja, in any UI language, and the
/// common short forms, through one mechanism (`ChoiceWords`).
final class ChoiceWordsTests: XCTestCase {
    /// Every word of every code of every known choice, in every language, reads back as that code; no word of a
    /// choice names two of its codes.
    func testEveryWordOfEveryChoiceReadsAsItsCode() {
        XCTAssertEqual(Set(ChoiceWords.known.keys), ["species", "sex", "kind", "mood", "route", "urineAmount", "archiveReason",
                                                    "payment", "severity", "units", "massUnit", "color"])
        for (group, codes) in ChoiceWords.known.sorted(by: { $0.key < $1.key }) {
            var seen: [String: String] = [:]
            for code in codes {
                let words = ChoiceWords.words(group, code)
                for word in words {
                    XCTAssertEqual(ChoiceWords.code(word, group: group, codes: codes), code, "\(group): \"\(word)\"")
                    // Width and case do not matter: ＣＡＴ, Cat.
                    XCTAssertEqual(ChoiceWords.code(word.uppercased().applyingTransform(.fullwidthToHalfwidth, reverse: true) ?? word,
                                                    group: group, codes: codes), code, "\(group): \"\(word)\" in full width")
                    let k = CareNames.key(word)
                    if let other = seen[k], other != code { XCTFail("\(group): \"\(word)\" names both \(other) and \(code)") }
                    seen[k] = code
                }
            }
        }
    }

    /// The words an error lists (`cat(고양이)`, `weight（体重）`) are each read back, whatever the language.
    func testTheWordsAnErrorListsAreAccepted() {
        let fields = ["species": "species", "sex": "sex", "kind": "kind", "mood": "mood", "route": "route", "amount": "urineAmount",
                      "reason": "archiveReason", "payment": "payment"]
        for language in Language.allCases {
            for (field, group) in fields {
                let codes = ChoiceWords.known[group]!
                for (listed, code) in zip(L10n(language).acceptedWords(field, codes), codes) {
                    // `cat(고양이)` → the code and the name in brackets.
                    let parts = listed.split(whereSeparator: { "()（）".contains($0) }).map(String.init)
                    for part in parts {
                        XCTAssertEqual(ChoiceWords.code(part, group: group, codes: codes), code, "\(language) \(field): \(listed)")
                    }
                }
            }
        }
    }

    /// Every colour petlog knows has a word of its own in Korean and Japanese (not the English code), which
    /// reads back as its code: `노란색`, `黄色` → `yellow`.
    func testEveryKnownColourHasAKoreanAndJapaneseWord() {
        let codes = L10n.requiredCodes[.color] ?? []
        XCTAssertTrue(codes.contains("yellow") && codes.contains("brown"), "\(codes)")
        XCTAssertEqual(ChoiceWords.known["color"], codes)
        for code in codes {
            for language in [Language.ko, .ja] {
                let word = L10n(language).code(.color, code)
                XCTAssertNotEqual(word, code, "\(language) \(code)")
                XCTAssertFalse(word.contains { $0.isASCII && $0.isLetter }, "\(language) \(code): \(word)")
                XCTAssertEqual(ChoiceWords.code(word, group: "color", codes: codes), code, "\(language) \(word)")
            }
        }
        XCTAssertEqual(ChoiceWords.code("노랑", group: "color", codes: codes), "yellow")
        XCTAssertEqual(ChoiceWords.code("茶色", group: "color", codes: codes), "brown")
        XCTAssertNil(ChoiceWords.code("lemon chiffon", group: "color", codes: codes))
    }

    /// A record kind's short forms are its `kindWords.*` lines in the three tables (issue 43: a new kind says
    /// them beside its name and touches no code): each language's words are read in any language, and no
    /// kind's are listed in code.
    func testAKindsShortFormsAreItsTableLines() {
        let kinds = ChoiceWords.known["kind"]!
        XCTAssertNil(ChoiceWords.shortForms["kind"], "a kind's short forms go in Strings/*.txt as kindWords.KIND")
        for kind in kinds {
            guard let key = L10n.Key(rawValue: "kindWords.\(kind)") else { continue }
            for language in Language.allCases {
                for word in L10n.template(key, language).split(separator: ",") {
                    let w = word.trimmingCharacters(in: .whitespaces)
                    XCTAssertFalse(w.isEmpty, "kindWords.\(kind) in \(language)")
                    XCTAssertEqual(ChoiceWords.code(w, group: "kind", codes: kinds), kind, "\(language): \(w)")
                }
            }
        }
        for (word, kind) in ["walks": "walk", "산책하기": "walk", "お散歩": "walk", "groom": "grooming", "グルーミング": "grooming", "poop": "stool",
                             "투약 계획": "medication", "費用": "expense"] {
            XCTAssertEqual(ChoiceWords.code(word, group: "kind", codes: kinds), kind, word)
        }
    }

    func testCommonShortForms() {
        let species = ChoiceWords.known["species"]!
        for word in ["고양이", "猫", "ねこ", "ネコ", "냥이", "kitten", "Cat"] {
            XCTAssertEqual(ChoiceWords.code(word, group: "species", codes: species), "cat", word)
        }
        for word in ["犬", "いぬ", "강아지", "개", "puppy"] {
            XCTAssertEqual(ChoiceWords.code(word, group: "species", codes: species), "dog", word)
        }
        XCTAssertEqual(ChoiceWords.code("体重", group: "kind", codes: ChoiceWords.known["kind"]!), "weight")
        XCTAssertEqual(ChoiceWords.code("ワクチン", group: "kind", codes: ChoiceWords.known["kind"]!), "vaccination")
        XCTAssertEqual(ChoiceWords.code("重い", group: "severity", codes: ChoiceWords.known["severity"]!), "5")
        XCTAssertEqual(ChoiceWords.code("メス", group: "sex", codes: ChoiceWords.known["sex"]!), "female")
        XCTAssertNil(ChoiceWords.code("dragon", group: "species", codes: species))
        XCTAssertNil(ChoiceWords.code("", group: "species", codes: species))
        // A disease's short form names the vaccine that covers it (care-names.json): カリシ is calicivirus.
        XCTAssertEqual(CareNames.shipped.diseaseCode("カリシ"), "calicivirus")
    }
}
