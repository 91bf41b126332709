import XCTest
import Assets
@testable import PetModel

final class CareNamesTests: XCTestCase {
    let names = CareNames.shipped

    func testEveryListedSymptomAndVaccineIsKnownInEnglishKoreanAndJapanese() throws {
        let file = try JSONDecoder().decode(CareNames.File.self, from: Assets.careNames)
        XCTAssertEqual(Set(file.symptoms.keys), Set(SymptomCode.allCases.map(\.rawValue)))
        for (code, e) in file.symptoms {
            XCTAssertFalse(e.en.isEmpty || e.ko.isEmpty || e.ja.isEmpty, code)
            for n in e.en + e.ko + e.ja { XCTAssertEqual(names.symptom(n), .listed(code), n) }
        }
        let scheduled = Set(VaccinationSchedule.shipped.species.values.flatMap { $0.map(\.code) })
        XCTAssertEqual(Set(file.vaccines.keys), scheduled)
        for (code, e) in file.vaccines {
            XCTAssertFalse(e.en.isEmpty || e.ko.isEmpty || e.ja.isEmpty, code)
            for n in e.en + e.ko + e.ja { XCTAssertEqual(names.vaccine(n), .listed(code), n) }
        }
    }

    func testEveryExpenseCategoryIsKnownInEnglishKoreanAndJapanese() throws {
        let file = try JSONDecoder().decode(CareNames.File.self, from: Assets.careNames)
        XCTAssertEqual(Set(file.categories.keys), ["food", "treats", "vet", "medication", "grooming", "insurance", "supplies",
                                                   "boarding", "training", "transport", "other"])
        for (code, e) in file.categories {
            XCTAssertFalse(e.en.isEmpty || e.ko.isEmpty || e.ja.isEmpty, code)
            for n in [code] + e.en + e.ko + e.ja { XCTAssertEqual(names.category(n), .listed(code), n) }
        }
        XCTAssertEqual(try names.categoryEntry("ＳＮＡＣＫＳ"), "treats")
        XCTAssertEqual(try names.categoryEntry("간식"), "treats")
        XCTAssertEqual(try names.categoryEntry("dog walking"), "dog walking", "the owner's own word")
        XCTAssertThrowsError(try names.categoryEntry("insurence")) { e in
            XCTAssertEqual(e as? ParseError, .nearlyListed(field: "category", value: "insurence", suggestion: "insurance"))
        }
    }

    /// `shipped` folds each list on first use; `decode` folds and checks them all, and gives the same tables.
    func testEveryListOfTheShippedFileFoldsAndNamesOneCodeEach() throws {
        let all = try CareNames.decode(Assets.careNames)
        for list in CareNames.List.allCases {
            XCTAssertEqual(all.table(list).names.map { "\($0.name) \($0.key) \($0.code)" },
                           CareNames.shipped.table(list).names.map { "\($0.name) \($0.key) \($0.code)" }, "\(list)")
        }
        XCTAssertEqual(all.waterKeys, CareNames.shipped.waterKeys)
        let twice = Data((#"{"note": "", "symptoms": {}, "categories": {}, "diseases": {}, "grooming": {}, "water": {"en": [], "ko": [], "ja": []},"#
            + #""vaccines": {"a": {"en": ["Shot"], "ko": [], "ja": []}, "b": {"en": ["shot"], "ko": [], "ja": []}}}"#).utf8)
        XCTAssertThrowsError(try CareNames.decode(twice)) { e in
            XCTAssertEqual(e as? CareNames.LoadError, .invalid(#"vaccine "shot" names both a and b"#))
        }
    }

    /// The byte-by-byte key of ASCII text is Foundation's NFKC and case folding of it, for every ASCII character and name.
    func testTheASCIIKeyIsTheFoldedKey() throws {
        var texts = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) } + ["Lyme Booster", " Appetite-Loss ", "a_b.c(d)[e]\tF\r\n", "DA2PP"]
        let file = try JSONDecoder().decode(CareNames.File.self, from: Assets.careNames)
        for list in [file.symptoms, file.vaccines, file.categories, file.diseases, file.grooming] {
            for (code, e) in list { texts += [code] + e.en + e.ko + e.ja }
        }
        for text in texts { XCTAssertEqual(CareNames.key(text), CareNames.foldedKey(text), text.debugDescription) }
        XCTAssertEqual(CareNames.key("Ｌｙｍｅ Booster"), "lymebooster", "full-width letters still go through NFKC")
    }

    func testCaseWidthAndSpacingDoNotMatter() {
        XCTAssertEqual(SymptomCode.match("ＶＯＭＩＴ"), .vomiting)
        XCTAssertEqual(SymptomCode.match("  Appetite-Loss "), .appetiteLoss)
        XCTAssertEqual(SymptomCode.match("식욕부진"), .appetiteLoss)
        XCTAssertEqual(SymptomCode.match("ｹﾞﾘ"), nil, "half-width katakana of a name not listed")
        XCTAssertEqual(VaccineName.normalize("Da2pp"), "dhpp")
        XCTAssertEqual(VaccineName.normalize("ｼﾞｽﾃﾝﾊﾟｰ"), "distemper", "half-width katakana")
        XCTAssertEqual(VaccineName.normalize("Lyme"), "Lyme")
        XCTAssertEqual(VaccineName.key("Lyme Booster"), VaccineName.key("lyme  booster"))
    }

    func testOnlyATypoOfALongEnoughNameIsRefused() {
        XCTAssertEqual(names.symptom("vomitting"), .nearly(code: "vomiting", name: "vomiting"))
        XCTAssertEqual(names.symptom("diarhoea"), .nearly(code: "diarrhea", name: "diarrhoea"))
        XCTAssertEqual(names.symptom("bump"), .unlisted, "short words are not guessed at")
        XCTAssertEqual(names.symptom("hiccups"), .unlisted)
        XCTAssertEqual(names.symptom("sore paw"), .unlisted)
        XCTAssertThrowsError(try names.symptomEntry("vomitting")) { error in
            XCTAssertEqual(error as? ParseError, .nearlyListed(field: "symptom", value: "vomitting", suggestion: "vomiting"))
        }
        XCTAssertEqual(try names.symptomEntry("vomitting", asWritten: true).isListed, false)
        XCTAssertEqual(try names.vaccineEntry("ＤＨＰＰ"), "dhpp")
    }

    func testSearchFindsCodesByAnyName() {
        XCTAssertEqual(names.symptomCodes(containing: "구토"), ["vomiting"])
        XCTAssertEqual(names.symptomCodes(containing: "食欲"), ["appetite-loss"])
        XCTAssertEqual(names.vaccineCodes(containing: "ジステンパー"), ["distemper"])
        XCTAssertEqual(names.symptomCodes(containing: "happy vet"), [])
    }

    func testAnOldFreeTextNameCountsAsItsCode() {
        XCTAssertEqual(Symptom(code: "구토", isListed: false, severity: 2).groupKey, Symptom(code: "vomiting", isListed: true, severity: 1).groupKey)
        XCTAssertEqual(Symptom(code: "Hiccups", isListed: false, severity: 2).groupKey, Symptom(code: "hiccups", isListed: false, severity: 2).groupKey)
    }
}
