import Foundation
import XCTest
import PetlogTestSupport

/// Importers check microchips as `pet add --chip` does (one rule, in PetModel).
final class MicrochipImportTests: CLITestCase {
    func testEveryImportChecksMicrochips() throws {
        try ok("pet", "add", "Coco", "--species", "dog")
        let folder = home.appendingPathComponent("tables")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "pet_id,name,species,microchip\n1,Zed,dog,ABC123\n".write(to: folder.appendingPathComponent("pets.csv"), atomically: true, encoding: .utf8)
        try expectRefused(["import", folder.path], code: 65, mentions: "pets.csv:2")
        try expectRefused(["pet", "add", "Zed", "--chip", "ABC123"], code: 65, mentions: "ABC123")
        // A petlog export whose chip was edited by hand.
        try ok("pet", "edit", "Coco", "--chip", "900 123 456 789 012")
        let out = home.appendingPathComponent("all.json").path
        try ok("export", "-o", out)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("900123456789012"))
        try text.replacingOccurrences(of: "900123456789012", with: "90012345678901X").write(toFile: out, atomically: true, encoding: .utf8)
        let other = home.appendingPathComponent("other.sqlite").path
        let r = try run(["--db", other, "import", out], useDefaultDB: true)
        checkRefusal(r, code: 65, mentions: "90012345678901X", "import of an export with a bad chip")
        try "pet_id,name,species,microchip\n1,Zed,dog,985-121-004\n".write(to: folder.appendingPathComponent("pets.csv"), atomically: true, encoding: .utf8)
        try ok("import", folder.path)
        XCTAssertTrue(try ok("pet", "show", "Zed").contains("985121004"))
    }
}
