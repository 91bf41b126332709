import Cairo
import Foundation
import Localization
import PetModel
import XCTest
@testable import PetReport

/// Issue 42: the emergency card never drops a safety fact. Every allergy and medication is on the card (front,
/// or continued on the back) and in its QR text, which zbarimg reads back whole from a 300 dpi rendering; a card
/// that cannot hold them is refused before any file is written. Small text keeps its spaces.
final class EmergencyCardLayoutTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("EmergencyCardLayoutTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Monday 2026-11-23, 10:00 in Seoul.
    let time = TimeContext(now: Date(timeIntervalSince1970: 1_795_395_600), timeZone: TimeZone(identifier: "Asia/Seoul") ?? .current)

    static let allergies: [Language: [String]] = [
        .en: ["chicken", "beef", "penicillin", "flea saliva", "house dust mites", "lidocaine", "wheat gluten", "soy",
              "grass pollen", "cephalexin", "bee stings", "latex"],
        .ko: ["닭고기", "소고기", "페니실린", "벼룩 타액", "집먼지진드기", "리도카인", "밀 글루텐", "대두", "꽃가루", "세팔렉신", "벌침", "라텍스"],
        .ja: ["鶏肉", "牛肉", "ペニシリン", "ノミの唾液", "ハウスダスト", "リドカイン", "小麦グルテン", "大豆", "花粉", "セファレキシン", "ハチ毒", "ラテックス"],
    ]
    static let medications: [Language: [String]] = [
        .en: ["Pimobendan", "Furosemide", "Enalapril", "Gabapentin", "Omeprazole", "Cetirizine"],
        .ko: ["피모벤단", "푸로세미드", "에날라프릴", "가바펜틴", "오메프라졸", "세티리진"],
        .ja: ["ピモベンダン", "フロセミド", "エナラプリル", "ガバペンチン", "オメプラゾール", "セチリジン"],
    ]

    func pet(_ name: String, allergies: [String], conditions: [String] = ["mitral valve disease"]) -> Pet {
        Pet(id: 1, name: name, species: .dog, breed: "Maltese", sex: .female, microchip: "900123456789012",
            health: PetHealth(allergies: allergies, conditions: conditions, vetContact: PetContact(name: "Seoul Animal Clinic", phone: "02-555-0142"),
                              emergencyContacts: [PetContact(name: "Mina Park", phone: "010-5550-1234")],
                              insurance: PetInsurance(insurer: "PetCare", policy: "P-12345")),
            createdAt: time.now, updatedAt: time.now)
    }

    func card(_ pet: Pet, medications: [Medication], language: Language) -> EmergencyCard {
        let format = ValueFormatter(L10n(language), unitSystem: .metric)
        return EmergencyCardComposer(format: format, wording: RecordWording(format, time: time), pet: pet,
                                     medications: medications, today: LocalDate(clamping: 2026, month: 11, day: 23)).card()
    }

    func plan(_ card: EmergencyCard) throws -> CardPlan {
        try CardPlan(card, context: try CardPlan.measuringContext(card))
    }

    /// Text without any white space: a value wrapped over lines (and Japanese wrapped inside a word) still matches.
    func squeezed(_ s: String) -> String { String(s.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init)) }

    func decodeQR(_ png: String) throws -> String {
        let out = try PDFTools.run("zbarimg", ["--raw", "-q", png])
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    func testTwelveAllergiesAndSixMedicationsAreAllOnTheCardAndInItsCodeInThreeLanguages() throws {
        for language in [Language.en, .ko, .ja] {
            let allergies = Self.allergies[language]!
            let meds = Self.medications[language]!.enumerated().map { Medication(name: $0.element, dose: "\($0.offset + 1).25 mg", intervalSeconds: 43_200) }
            let c = card(pet("Coco", allergies: allergies), medications: meds, language: language)
            let items = allergies + meds.map { "\($0.name) \($0.dose!)" }
            // The composer: every item in the rows and in the QR text, with the species line and the medications.
            let rows = c.front + c.back
            for item in items { XCTAssertTrue(rows.contains { $0.items.contains(item) }, "\(language): \(item) not in the rows") }
            XCTAssertTrue(c.qrText.contains(c.subtitle), "\(language): the species line is in the QR text")
            for item in items { XCTAssertTrue(c.qrText.contains(item), "\(language): \(item) not in the QR text:\n\(c.qrText)") }
            XCTAssertFalse(c.qrText.contains("…"), c.qrText)
            // The plan: every item placed on one side or the other.
            let placed = try plan(c)
            let placedItems = (placed.front + placed.back).flatMap(\.items)
            for item in items { XCTAssertEqual(placedItems.filter { $0 == item }.count, 1, "\(language): \(item) placed once") }

            // The PDF: every item and every label whole in its text; the QR code read back from 300 dpi is the whole text.
            let pdf = path("coco-\(language).pdf")
            try CardRenderer.render(c, layout: .single, format: .pdf, to: pdf)
            let text = try PDFTools.text(pdf)
            XCTAssertFalse(text.contains("…"), "\(language): nothing cut:\n\(text)")
            // The back's title joins its words with the language's separator: "・" with no spaces in Japanese.
            let separator = language == .ja ? "・" : " · "
            XCTAssertTrue(c.backTitle.hasSuffix(separator + "Coco"), "\(language): \(c.backTitle)")
            if language == .ja { XCTAssertFalse(text.contains(" ·") || text.contains("· "), "ja: a spaced middle dot:\n\(text)") }
            for item in items + rows.map(\.label) {
                XCTAssertTrue(squeezed(text).contains(squeezed(item)), "\(language): \(item) not printed:\n\(text)")
            }
            _ = try PDFTools.run("pdftoppm", ["-r", "300", "-png", pdf, path("coco-\(language)")])
            XCTAssertEqual(try decodeQR(path("coco-\(language)-2.png")), c.qrText, "\(language): PDF at 300 dpi")
            let png = path("coco-\(language).png")
            try CardRenderer.render(c, layout: .single, format: .png, to: png)
            XCTAssertEqual(try decodeQR(png), c.qrText, "\(language): PNG")
        }
    }

    func testWhatTheFrontCannotHoldContinuesOnTheBackInSmallerType() throws {
        // 18 allergies of 41 characters: the front in its smallest type holds some; the others continue on the back.
        let allergies = (1...18).map { "allergen \($0) " + String(repeating: "y", count: 30) }
        let c = card(pet("Big", allergies: allergies, conditions: []), medications: [], language: .en)
        let placed = try plan(c)
        XCTAssertEqual(placed.frontSize, CardGeometry.frontSizes.last, "the front shrinks to the floor first")
        let continued = try XCTUnwrap(placed.back.first, "the rest continues at the top of the back")
        XCTAssertEqual(continued.label, "Allergies (continued)")
        XCTAssertTrue(continued.alert)
        let placedItems = (placed.front + placed.back).flatMap(\.items)
        for item in allergies { XCTAssertEqual(placedItems.filter { $0 == item }.count, 1, item) }
        XCTAssertTrue(placed.back.contains { $0.label == "Emergency contact" } && placed.back.contains { $0.label == "Vet" })
        let pdf = path("big.pdf")
        try CardRenderer.render(c, layout: .single, format: .pdf, to: pdf)
        let text = try PDFTools.text(pdf)
        XCTAssertTrue(try PDFTools.text(pdf, page: 2).contains("Allergies (continued)"))
        for item in allergies { XCTAssertTrue(squeezed(text).contains(squeezed(item)), item) }
        _ = try PDFTools.run("pdftoppm", ["-r", "300", "-png", pdf, path("big")])
        XCTAssertEqual(try decodeQR(path("big-2.png")), c.qrText)
        XCTAssertGreaterThan(c.qrText.utf8.count, 700, "more than version 13 held (428 bytes at L)")
    }

    func testACardThatCannotHoldEveryFactIsRefusedAndNothingIsWritten() throws {
        // 20 allergies of 100 characters: more than a QR symbol with modules of the floor holds.
        let long = (1...20).map { "allergen \($0) " + String(repeating: "x", count: 88) }
        let c = card(pet("Huge", allergies: long), medications: [], language: .en)
        XCTAssertThrowsError(try CardRenderer.fit(c)) { error in
            guard case .qr(let bytes, let maximum)? = error as? CardOverflow else { return XCTFail("\(error)") }
            XCTAssertEqual(bytes, c.qrText.utf8.count)
            XCTAssertLessThan(maximum, bytes)
        }
        let out = path("huge.pdf")
        XCTAssertThrowsError(try CardRenderer.render(c, layout: .single, format: .pdf, to: out))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // Text that fits the code but not the card's two sides, even in the smallest type: named in the refusal.
        // Wide letters: more room on the card for each byte of the code.
        let wide = (1...20).map { "allergen \($0) " + String(repeating: "W", count: 33) }
        let d = card(pet("Wide", allergies: wide, conditions: []), medications: [], language: .en)
        XCTAssertThrowsError(try CardRenderer.fit(d)) { error in
            guard case .text(let labels)? = error as? CardOverflow else { return XCTFail("\(error)") }
            XCTAssertFalse(labels.isEmpty)
            XCTAssertFalse(labels.contains { $0.contains("continued") }, "\(labels)")
        }
    }

    func testSmallTextKeepsItsSpaces() throws {
        let c = card(pet("Coco", allergies: ["chicken"]), medications: [Medication(name: "Pimobendan", dose: "1.25 mg", intervalSeconds: 43_200)], language: .en)
        let pdf = path("spaces.pdf")
        try CardRenderer.render(c, layout: .single, format: .pdf, to: pdf)
        let back = try PDFTools.text(pdf, page: 2)
        // Pango rounding glyph positions to whole points printed "Sc an: same fac ts as text".
        XCTAssertTrue(back.contains("Scan: same facts as text"), back)
        for label in ["Emergency contact", "Vet", "Insurance"] { XCTAssertTrue(back.contains(label + "\n"), back) }
        // A label wraps rather than ends with "…".
        let front = try PDFTools.text(pdf, page: 1)
        XCTAssertTrue(front.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("Current medications"), front)
        XCTAssertFalse(front.contains("…"), front)
    }
}

/// Issue 42: the report's alert box (allergies, conditions, current medications) drops and cuts nothing.
final class AlertBoxTests: XCTestCase {
    func typesetter() throws -> Typesetter {
        let context = try Context(try Surface.image(width: 10, height: 10))
        context.setTextLanguage("en")
        return Typesetter(context: context, style: ReportStyle(paper: .a4, fontFamily: "Sans"))
    }

    func testAnAlertTallerThanTheRoomSplitsBetweenItsLines() throws {
        let items = (1...40).map { "allergen \($0) end\($0)" }
        let alert = "Allergies: " + items.joined(separator: ", ")
        var box: any Flowable = AlertsFlowable([alert, "Current medications: Pimobendan 1.25 mg"], width: 200, spaceBefore: 0, typesetter: try typesetter())
        var parts: [AlertsFlowable] = []
        while box.height > 120, let (first, rest) = box.split(toFit: 120, atPageTop: true) {
            XCTAssertLessThanOrEqual(first.height, 120.01)
            parts.append(try XCTUnwrap(first as? AlertsFlowable))
            box = rest
        }
        parts.append(try XCTUnwrap(box as? AlertsFlowable))
        XCTAssertGreaterThan(parts.count, 2, "split inside the first alert")
        let all = parts.flatMap(\.texts).joined(separator: " ")
        for item in items { XCTAssertTrue(all.contains(item), item) }
        XCTAssertTrue(all.contains("Pimobendan 1.25 mg"))
    }

    func testEveryAlertItemIsInTheReport() throws {
        let allergies = (1...20).map { "allergen \($0) " + String(repeating: "word ", count: 30) + "end\($0)" }
        let doc = ReportFixtures.document([.title("Coco", subtitle: nil),
                                           .alerts(["Allergies: " + allergies.joined(separator: ", "),
                                                    "Current medications: " + (1...30).map { "Medicine\($0) 1 mg" }.joined(separator: ", ")])])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID()).pdf").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try ReportRenderer.render(doc, to: out)
        let text = try PDFTools.text(out).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for i in 1...20 { XCTAssertTrue(text.contains("end\(i),") || text.contains("end\(i) "), "allergy \(i)") }
        for i in 1...30 { XCTAssertTrue(text.contains("Medicine\(i) 1 mg"), "medication \(i)") }
        XCTAssertFalse(text.contains("…"))
    }
}
