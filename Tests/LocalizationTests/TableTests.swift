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
            let english = L10n.en(key)
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
            .category: CareNames.shipped.categoryCodes,
            .vaccine: Array(Set(VaccinationSchedule.shipped.species.values.flatMap { $0.map(\.code) })),
        ]
        for (group, codes) in L10n.requiredCodes {
            XCTAssertEqual(Set(codes), Set(required[group] ?? codes), "requiredCodes[\(group)] is not what petlog stores")
        }
        for (group, codes) in required {
            for code in codes {
                XCTAssertNotNil(L10n.Key(rawValue: "\(group.rawValue).\(code)"), "\(group).\(code) has no key")
            }
        }
    }

    func testFillReplacesNamedPlaceholders() {
        XCTAssertEqual(L10n.fill("Added {name} (id {id}).", ["name": "Coco", "id": "3"]), "Added Coco (id 3).")
        XCTAssertEqual(L10n(.en).text(.petAdded(name: "Coco", id: "1")), "Added Coco (id 1).")
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
        XCTAssertEqual(en.text(.importDone(added: "1", pets: "1", path: "a", existing: "0")), "Imported 1 record and 1 new pet from a (0 already there)")
        XCTAssertEqual(en.text(.checkRepaired(count: "1")), "Repaired 1 problem")
        XCTAssertEqual(en.text(.reportAlertSevere(count: "1", symptoms: "x")), "1 severe symptom episode (severity 4–5): x")
        XCTAssertEqual(L10n(.ko).text(.reportAlertSevere(count: "1", symptoms: "x")).contains("|"), false)
    }

    func testEveryEnglishCountHasASingular() {
        // A number placeholder followed by an English plural noun must use the plural form.
        let counted = ["count", "records", "added", "pets", "pages", "days", "meals", "treats", "tables", "found"]
        for key in L10n.Key.allCases {
            let text = L10n.en(key)
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

final class POSIXLocaleTests: XCTestCase {
    func testLCAllThenTheCategoryThenLang() {
        let l = POSIXLocale(environment: ["LANG": "ja_JP.UTF-8", "LC_TIME": "en_US.UTF-8", "LC_MESSAGES": "", "LC_MEASUREMENT": "ko_KR"])
        XCTAssertEqual(l.language(.messages), .ja, "an empty LC_MESSAGES does not count")
        XCTAssertEqual(l.region(.time), "US")
        XCTAssertEqual(l.language(.measurement), .ko)
        let all = POSIXLocale(environment: ["LC_ALL": "C.UTF-8", "LANG": "ko_KR.UTF-8", "LC_TIME": "ja_JP"])
        XCTAssertEqual(all.language(.messages), .en)
        XCTAssertNil(all.region(.time), "LC_ALL wins, and C has no region")
        XCTAssertNil(POSIXLocale(environment: [:]).value(.messages))
        XCTAssertNil(POSIXLocale(environment: ["LANG": "fr_FR.UTF-8"]).language(.messages))
        XCTAssertEqual(POSIXLocale(environment: ["LANG": "de_DE.UTF-8@euro"]).region(.time), "DE")
    }
}

final class KoreanParticleTests: XCTestCase {
    func testTheParticleFollowsTheInsertedWord() {
        let ko = L10n(.ko)
        let cases: [(String, String)] = [
            ("나비", "나비를"), ("보리", "보리를"), ("콩", "콩을"), ("솔", "솔을"), ("Coco", "Coco를"), ("Max", "Max를"),
            ("Tom", "Tom을"), ("Ben", "Ben을"), ("Bell", "Bell을"), ("King", "King을"), ("3", "3을"), ("2", "2를"),
            ("10", "10을"), ("100", "100을"), ("1000", "1000을"), ("9", "9를"), ("もち", "もち을(를)"), ("Coco (2)", "Coco (2)를"),
        ]
        for (name, expected) in cases {
            XCTAssertEqual(ko.text(.petAdded(name: name, id: "1")), "\(expected) 등록했습니다 (ID 1).", name)
        }
        // Quoted values, 이/가, 은/는, (이)라는, (으)로 with ㄹ, 과/와.
        XCTAssertEqual(ko.text(.errPetNotFound(name: "나비")), "\"나비\"라는 반려동물이 없습니다 (확인: petlog pet list --all)")
        XCTAssertEqual(ko.text(.errPetNotFound(name: "콩")), "\"콩\"이라는 반려동물이 없습니다 (확인: petlog pet list --all)")
        XCTAssertTrue(ko.text(.errNotANumber(value: "abc")).hasPrefix("\"abc\"는 숫자가 아닙니다"))
        XCTAssertTrue(ko.text(.errNotANumber(value: "12kg")).hasPrefix("\"12kg\"은"), "a unit after a number reads as its word: 킬로그램")
        XCTAssertTrue(ko.text(.errMassRange(value: "2000kg")).contains("\"2000kg\"이"))
        XCTAssertTrue(ko.text(.errMassRange(value: "9 lb")).contains("\"9 lb\"가"), "파운드")
        XCTAssertTrue(ko.text(.errNotANumber(value: "Meg")).hasPrefix("\"Meg\"는"), "a name ending in g is read letter by letter: 그")
        XCTAssertTrue(ko.text(.checkQuarantined(count: "1", path: "/tmp/서울")).contains("/tmp/서울로"), "ㄹ takes 로")
        XCTAssertTrue(ko.text(.checkQuarantined(count: "1", path: "/tmp/q")).contains("/tmp/q로"))
        XCTAssertTrue(ko.text(.checkQuarantined(count: "1", path: "/tmp/집")).contains("/tmp/집으로"))
        XCTAssertTrue(ko.text(.petRemoved(name: "콩", count: "3")).hasPrefix("콩과 기록"))
        XCTAssertTrue(ko.text(.petRemoved(name: "나비", count: "3")).hasPrefix("나비와 기록"))
        // Nothing changes outside Korean.
        XCTAssertEqual(L10n(.ja).text(.petAdded(name: "Tom", id: "1")).contains("을"), false)
    }
}
