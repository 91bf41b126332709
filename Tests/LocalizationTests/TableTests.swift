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
}
