import Foundation
import XCTest
import PetlogTestSupport

/// Issue 33, the emergency card: `petlog card PET -o card.pdf|card.png [--paper a4|letter]`. The QR code is read
/// back with zbarimg from the rendered page, in en, ko and ja.
final class EmergencyCardTests: CLITestCase {
    override class var firstStoreOnly: [String: String] { [
        "testA4SheetHasFrontsThenBacksWithCutMarks": "the sheet's layout and cut marks",
        "testHostileTextIsDrawnAndEncodedButNeverRunOrOverflowing": "drawing and encoding hostile text on the card",
        "testTwelveAllergiesAndSixMedicationsAreAllOnTheCardAndTheReport": "fitting long lists on the card and the report",
        "testSameDataSameBytes": "the same card drawn twice is the same bytes",
    ] }

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    /// What zbarimg reads from an image (the test is skipped where zbar-tools is not installed).
    func decodeQR(_ png: String) throws -> String {
        let out = try tool("zbarimg", ["--raw", "-q", png])
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    /// The PDF's pages rendered at 600 dpi, as PNG paths.
    func rasterize(_ pdf: String, prefix: String) throws -> [String] {
        _ = try tool("pdftoppm", ["-r", "600", "-png", pdf, path(prefix)])
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(prefix + "-") && $0.hasSuffix(".png") }.sorted()
        return names.map(path)
    }

    func pages(_ pdf: String) throws -> (count: Int, size: String) {
        let info = try tool("pdfinfo", [pdf]).split(separator: "\n")
        let count = Int(try XCTUnwrap(info.first { $0.hasPrefix("Pages:") }).split(separator: " ").last!)!
        let size = String(try XCTUnwrap(info.first { $0.hasPrefix("Page size:") }).dropFirst("Page size:".count)).trimmingCharacters(in: .whitespaces)
        return (count, size)
    }

    /// PNG width and height from its header.
    func pngSize(_ png: String) throws -> (Int, Int) {
        let d = try Data(contentsOf: URL(fileURLWithPath: png))
        XCTAssertEqual(Array(d.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be(_ at: Int) -> Int { d[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    func testDemoCocoCardInThreeLanguagesReadsBack() throws {
        try ok("demo", "--end", "2026-11-20")
        let coco = try XCTUnwrap(try json("pet", "show", "Coco") as? [String: Any])
        let chip = try XCTUnwrap(coco["microchip"] as? String)
        let allergies = try XCTUnwrap(coco["allergies"] as? [String])
        XCTAssertFalse(allergies.isEmpty, "the demo's Coco has allergies")
        let contacts = (coco["emergency_contacts"] as? [[String: String]] ?? []) + [coco["vet_contact"] as? [String: String]].compactMap { $0 }
        XCTAssertFalse(contacts.isEmpty, "the demo's Coco has contacts")
        let labels = ["en": ("Allergies", "Microchip"), "ko": ("알레르기", "마이크로칩"), "ja": ("アレルギー", "マイクロチップ")]
        for lang in ["en", "ko", "ja"] {
            let pdf = path("coco-\(lang).pdf"), png = path("coco-\(lang).png")
            let out = try run(["card", "Coco", "-o", pdf], env: ["PETLOG_LANG": lang])
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertTrue(out.stdout.contains(pdf), out.stdout)
            let info = try pages(pdf)
            XCTAssertEqual(info.count, 2, "front and back")
            XCTAssertTrue(info.size.hasPrefix("242.6") && info.size.contains("x 153.0"), "ID-1 size in points: \(info.size)")
            let text = try pdfText(pdf)
            for expected in ["Coco", chip, labels[lang]!.0, labels[lang]!.1] + allergies {
                XCTAssertTrue(text.contains(expected), "\(lang) card lacks \(expected):\n\(text)")
            }
            let attrs = try FileManager.default.attributesOfItem(atPath: pdf)
            XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
            // The font family of the language, as the report uses.
            let fonts = try tool("pdffonts", [pdf])
            switch lang {
            case "ko": XCTAssertTrue(fonts.contains("NanumGothic"), fonts)
            case "ja": XCTAssertTrue(fonts.contains("MPLUS2") || fonts.contains("M PLUS 2") || fonts.contains("MPLUS"), fonts)
            default: XCTAssertTrue(fonts.contains("DejaVu"), fonts)
            }

            var decodedTexts: [String] = []
            let pagesPNG = try rasterize(pdf, prefix: "coco-\(lang)-page")
            XCTAssertEqual(pagesPNG.count, 2)
            XCTAssertEqual(try decodeQR(pagesPNG[0]), "", "no QR code on the front")
            decodedTexts.append(try decodeQR(pagesPNG[1]))

            let r = try run(["card", "Coco", "-o", png], env: ["PETLOG_LANG": lang])
            XCTAssertEqual(r.status, 0, r.stderr)
            let (w, h) = try pngSize(png)
            XCTAssertEqual(w, 1011, "85.6 mm at 300 dpi")
            XCTAssertGreaterThan(h, 2 * 637, "both sides one above the other")
            decodedTexts.append(try decodeQR(png))

            for decoded in decodedTexts {
                for expected in ["Coco", chip, labels[lang]!.0] + allergies + contacts.compactMap({ $0["phone"] }) + contacts.compactMap({ $0["name"] }) {
                    XCTAssertTrue(decoded.contains(expected), "\(lang) QR lacks \(expected):\n\(decoded)")
                }
            }
            XCTAssertEqual(decodedTexts[0], decodedTexts[1], "PDF and PNG hold the same QR text")
        }
    }

    func testSameDataSameBytes() throws {
        try ok("demo", "--end", "2026-11-20")
        for ext in ["pdf", "png"] {
            let a = path("a.\(ext)"), b = path("b.\(ext)")
            try ok("card", "Coco", "-o", a)
            try ok("card", "Coco", "-o", b)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)), ext)
        }
        let a = path("sheet-a.pdf"), b = path("sheet-b.pdf")
        try ok("card", "Nabi", "-o", a, "--paper", "a4")
        try ok("card", "Nabi", "-o", b, "--paper", "a4")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
    }

    func testAPetWithNoFactsStillMakesACard() throws {
        try ok("pet", "add", "Plain", "--species", "cat")
        let png = path("plain.png"), pdf = path("plain.pdf")
        try ok("card", "Plain", "-o", png)
        try ok("card", "Plain", "-o", pdf)
        XCTAssertEqual(try decodeQR(png), "Plain\nCat · unknown")
        let text = try pdfText(pdf)
        XCTAssertTrue(text.contains("Plain") && text.contains("—"), text)
    }

    func testHostileTextIsDrawnAndEncodedButNeverRunOrOverflowing() throws {
        let long = String(repeating: "Sir Reginald Fluffington-Smythe 🐈‍⬛ 냥이 ", count: 4)
        let name = "O'Brien \"$(touch pwned)\" `id` 나비🐾"
        try ok("pet", "add", name, "--species", "cat", "--breed", long, "--chip", "900123456789012",
               "--allergy", "$(rm -rf ~) \"quoted\"", "--allergy", String(repeating: "닭고기 알레르기 ", count: 6),
               "--condition", String(long.prefix(60)), "--emergency-contact", "김\"민지\" $(id), 010-5550-1234",
               "--vet-contact", String(repeating: "Clinic ", count: 8) + ", 02-555-0142", "--insurance", "Fluffington \u{202E}Mutual, P-1")
        try ok("med", "start", name, String(repeating: "Amoxicillin ", count: 4), "--dose", "50 mg", "--every", "12h")
        let png = path("hostile.png"), pdf = path("hostile.pdf")
        try ok("card", name, "-o", png)
        try ok("card", name, "-o", pdf)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("pwned")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "pwned"))
        let decoded = try decodeQR(png)
        XCTAssertTrue(decoded.hasPrefix(name), decoded)
        XCTAssertTrue(decoded.contains("900123456789012"), decoded)
        XCTAssertTrue(decoded.contains("$(rm -rf ~) \"quoted\""), decoded)
        XCTAssertTrue(decoded.contains("김\"민지\" $(id), 010-5550-1234"), decoded)
        // Every fact whole, the override a space: nothing dropped, nothing shortened with "…".
        XCTAssertTrue(decoded.contains("Fluffington  Mutual, P-1"), decoded)
        XCTAssertTrue(decoded.contains(String(repeating: "닭고기 알레르기 ", count: 6).trimmingCharacters(in: .whitespaces)), decoded)
        XCTAssertTrue(decoded.contains("Amoxicillin Amoxicillin Amoxicillin Amoxicillin 50 mg"), decoded)
        XCTAssertFalse(decoded.contains("…"), decoded)
        // The PDF's pages stay card size and the QR still reads from the rendered page.
        let info = try pages(pdf)
        XCTAssertEqual(info.count, 2)
        let rendered = try rasterize(pdf, prefix: "hostile-page")
        XCTAssertEqual(try decodeQR(rendered[1]), decoded)

        // Too many facts for a code that scans from print (12 long emergency contacts): refused in one line that
        // says so, and no file (the card would otherwise leave facts out).
        for i in 0..<12 { try ok("pet", "edit", name, "--emergency-contact", "Contact \(i) \(long.prefix(60)), 010-5550-\(1000 + i)") }
        let refused = path("refused.png")
        let r = try expectRefused(["card", name, "-o", refused], code: 65, mentions: "QR")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused))
        let ko = try run(["card", name, "-o", refused], env: ["PETLOG_LANG": "ko"])
        XCTAssertEqual(ko.status, 65)
        XCTAssertTrue(ko.stderr.contains("QR 코드"), ko.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused))

        // The longest name petlog takes, all emoji and Hangul, with nothing else: the whole name is in the code.
        let huge = String(repeating: "🐶멍", count: 50)
        try ok("pet", "add", huge, "--species", "dog")
        let hugePNG = path("huge.png")
        try ok("card", huge, "-o", hugePNG)
        XCTAssertEqual(try decodeQR(hugePNG), huge + "\nDog · unknown")
    }

    /// Issue 42: 12 allergies and 6 current medications, in en, ko and ja: every one on the card and in the code
    /// read back from the PDF rendered at 300 dpi, and in the report's alert box; labels whole.
    func testTwelveAllergiesAndSixMedicationsAreAllOnTheCardAndTheReport() throws {
        let allergies = ["chicken", "beef", "penicillin", "flea saliva", "house dust mites", "lidocaine", "wheat gluten", "soy",
                         "grass pollen", "cephalexin", "bee stings", "latex"]
        func succeed(_ args: [String], env: [String: String] = [:]) throws {
            let r = try run(args, env: env)
            XCTAssertEqual(r.status, 0, "petlog \(args): \(r.stderr)")
        }
        try succeed(["pet", "add", "Coco", "--species", "dog", "--breed", "Maltese", "--chip", "900123456789012",
                "--emergency-contact", "Mina Park, 010-5550-1234"] + allergies.flatMap { ["--allergy", $0] })
        let meds = ["Pimobendan", "Furosemide", "Enalapril", "Gabapentin", "Omeprazole", "Cetirizine"]
        for (i, m) in meds.enumerated() { try ok("med", "start", "Coco", m, "--dose", "\(i + 1).25 mg", "--every", "12h") }
        let items = allergies + meds.enumerated().map { "\($0.element) \($0.offset + 1).25 mg" }
        func words(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let labels = ["en": ["Allergies", "Current medications", "Species"], "ko": ["알레르기", "복용 중인 약"], "ja": ["アレルギー", "服用中の薬"]]
        for lang in ["en", "ko", "ja"] {
            let pdf = path("many-\(lang).pdf")
            try succeed(["card", "Coco", "-o", pdf], env: ["PETLOG_LANG": lang])
            let text = words(try pdfText(pdf))
            XCTAssertFalse(text.contains("…"), text)
            for item in items + labels[lang]!.prefix(2) { XCTAssertTrue(text.contains(item), "\(lang) card lacks \(item): \(text)") }
            _ = try tool("pdftoppm", ["-r", "300", "-png", pdf, path("many-\(lang)")])
            let decoded = try decodeQR(path("many-\(lang)-2.png"))
            for item in items { XCTAssertTrue(decoded.contains(item), "\(lang) QR lacks \(item):\n\(decoded)") }
            XCTAssertEqual(decoded.split(separator: "\n").count, 6, "name, species line, microchip, allergies, medications, contact:\n\(decoded)")
            let report = path("report-\(lang).pdf")
            try succeed(["report", "Coco", "-o", report], env: ["PETLOG_LANG": lang])
            let page1 = words(try tool("pdftotext", ["-l", "1", report, "-"]))
            for item in items { XCTAssertTrue(page1.contains(item), "\(lang) report's first page lacks \(item)") }
            XCTAssertTrue(page1.contains(labels[lang]![1] + ":"), "\(lang): the alert box names the medications: \(page1)")
        }
    }

    func testRefusalsWriteNothing() throws {
        try ok("demo", "--end", "2026-11-20")
        let out = path("nobody.pdf")
        try expectRefused(["card", "Nobody", "-o", out], code: 66, mentions: "Nobody")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        try expectRefused(["card", "Coco", "-o", path("card.jpg")], code: 64, mentions: ".pdf or .png")
        try expectRefused(["card", "Coco", "-o", path("sheet.png"), "--paper", "a4"], code: 64, mentions: ".pdf")
        try expectRefused(["card", "Coco", "-o", path("x.pdf"), "--paper", "b5"], code: 65, mentions: "--paper")
        try expectRefused(["card", "Coco", "-o", "-"], code: 64, mentions: ".pdf")
        for name in ["card.jpg", "sheet.png", "x.pdf"] { XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), name) }
        // An existing file is left as it was when the card is refused.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
        try expectRefused(["card", "Nobody", "-o", out], code: 66, mentions: "Nobody")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), Data("keep".utf8))
    }

    func testA4SheetHasFrontsThenBacksWithCutMarks() throws {
        try ok("demo", "--end", "2026-11-20")
        for (paper, copies, size) in [("a4", 10, "595.28 x 841.89"), ("letter", 8, "612 x 792")] {
            let pdf = path("sheet-\(paper).pdf")
            let out = try ok("card", "Coco", "-o", pdf, "--paper", paper)
            XCTAssertTrue(out.contains("(\(copies) cards)"), out)
            let info = try pages(pdf)
            XCTAssertEqual(info.count, 2)
            XCTAssertTrue(info.size.hasPrefix(size), info.size)
            let rendered = try rasterize(pdf, prefix: "sheet-\(paper)-page")
            XCTAssertEqual(try decodeQR(rendered[0]), "", "fronts carry no QR code")
            let backs = try decodeQR(rendered[1]).components(separatedBy: "\nCoco\n").count
            XCTAssertGreaterThanOrEqual(backs, 2, "zbarimg reads several cards' codes on the back page")
            let text = try pdfText(pdf)
            XCTAssertEqual(text.components(separatedBy: "900123456789012").count - 1, copies, "one microchip per front")
        }
    }
}
