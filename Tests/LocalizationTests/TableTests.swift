import XCTest
import PetModel
@testable import Localization

final class TableTests: XCTestCase {
    func testEveryKeyHasATextInEveryLanguage() {
        for (language, table) in L10n.tables {
            let missing = L10n.Key.allCases.filter { (table[$0.rawValue] ?? "").isEmpty }.map(\.rawValue)
            XCTAssertEqual(missing, [], "\(language) lacks \(missing.count) keys")
        }
    }

    func testNoTableHasAKeyTheEnumLacks() {
        let known = Set(L10n.Key.allCases.map(\.rawValue))
        for (language, table) in L10n.tables {
            let extra = Set(table.keys).subtracting(known).sorted()
            XCTAssertEqual(extra, [], "\(language) has keys the enum lacks")
        }
    }

    func testPlaceholdersAreTheSameInEveryLanguage() {
        for key in L10n.Key.allCases {
            guard let english = L10n.en[key.rawValue] else { continue }
            let expected = L10n.placeholders(in: english)
            for (language, table) in L10n.tables {
                guard let text = table[key.rawValue] else { continue }
                XCTAssertEqual(L10n.placeholders(in: text), expected, "\(language) \(key.rawValue)")
            }
        }
    }

    func testEveryStoredCodeHasADisplayName() {
        let required: [L10n.CodeGroup: [String]] = [
            .kind: RecordKind.allCases.map(\.rawValue), .species: Species.allCases.map(\.rawValue), .sex: Sex.allCases.map(\.rawValue),
            .symptom: SymptomCode.allCases.map(\.rawValue), .mealType: MealType.allCases.map(\.rawValue),
            .urineAmount: UrineAmount.allCases.map(\.rawValue), .mood: Mood.allCases.map(\.rawValue), .route: Route.allCases.map(\.rawValue),
            .archiveReason: ArchiveReason.allCases.map(\.rawValue), .amountUnit: Amount.Unit.allCases.map(\.rawValue),
        ]
        for (group, codes) in required {
            for code in codes {
                XCTAssertNotNil(L10n.Key(rawValue: "\(group.rawValue).\(code)"), "\(group).\(code) has no key")
            }
        }
    }

    func testFillReplacesNamedPlaceholders() {
        XCTAssertEqual(L10n.fill("Added {name} (id {id}).", ["name": "Coco", "id": "3"]), "Added Coco (id 3).")
        XCTAssertEqual(L10n(.en).text(.petAdded, ["name": "Coco", "id": "1"]), "Added Coco (id 1).")
    }

    func testLanguageSelection() {
        XCTAssertEqual(Language.parse("ko_KR.UTF-8"), .ko)
        XCTAssertEqual(Language.parse("ja-JP"), .ja)
        XCTAssertEqual(Language.fromLocale("C.UTF-8"), .en)
        XCTAssertNil(Language.parse("fr"))
    }

    // fix-answers

    func testEnglishCountsChooseTheirPluralForm() {
        XCTAssertEqual(L10n.fill("{n} {n|meal|meals}", ["n": "1"]), "1 meal")
        XCTAssertEqual(L10n.fill("{n} {n|meal|meals}", ["n": "0"]), "0 meals")
        XCTAssertEqual(L10n.fill("{n} {n|meal|meals}", ["n": "21"]), "21 meals")
        XCTAssertEqual(L10n.placeholders(in: "{n} {n|meal|meals} on {day}"), ["n", "day"])
        let en = L10n(.en)
        XCTAssertEqual(en.text(.importDone, ["added": "1", "pets": "1", "path": "a", "existing": "0"]), "Imported 1 record and 1 new pet from a (0 already there)")
        XCTAssertEqual(en.text(.checkRepaired, ["count": "1"]), "Repaired 1 problem")
        XCTAssertEqual(en.text(.reportAlertSevere, ["count": "1", "symptoms": "x"]), "1 severe symptom episode (severity 4–5): x")
        XCTAssertEqual(L10n(.ko).text(.reportAlertSevere, ["count": "1", "symptoms": "x"]).contains("|"), false)
    }

    func testEveryEnglishCountHasASingular() {
        // A number placeholder followed by an English plural noun must use the plural form.
        let counted = ["count", "records", "added", "pets", "pages", "days", "meals", "treats", "tables", "found"]
        for (key, text) in L10n.en {
            for name in counted where text.contains("{\(name)} ") {
                let after = text.components(separatedBy: "{\(name)} ")[1]
                if let word = after.split(separator: " ").first, word.hasSuffix("s"), !word.hasPrefix("{") {
                    XCTFail("\(key): \"{\(name)} \(word)\" has no singular form")
                }
            }
        }
    }

    func testEveryDisplayNameOfASymptomOrVaccineIsAcceptedAsInput() {
        for (language, table) in L10n.tables {
            for code in SymptomCode.allCases.map(\.rawValue) {
                let shown = table["symptom.\(code)"] ?? ""
                XCTAssertEqual(SymptomCode.match(shown)?.rawValue, code, "\(language) \(shown)")
            }
            for code in L10n.requiredCodes[.vaccine] ?? [] {
                let shown = table["vaccine.\(code)"] ?? ""
                XCTAssertEqual(VaccineName.normalize(shown), code, "\(language) \(shown)")
            }
        }
    }
}
