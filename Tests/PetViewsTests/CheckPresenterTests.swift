import Foundation
import XCTest
import Localization
import PetModel
import PetStoreCore
@testable import PetViews

/// `check`'s lines: the kind and petlog's own words in the user's language; English keeps the codes and
/// the texts `check --json` writes; data (paths, SQLite's messages) is shown as it is, sanitized.
final class CheckPresenterTests: XCTestCase {
    let problems = [
        StoreProblem(kind: .integrity, detail: "row 3 missing from index x"),
        StoreProblem(kind: .orphanFile, .attachment(sha256: "ab12")),
        StoreProblem(kind: .searchIndex, .rowsOutOfStep(table: "search_index", count: 1234)),
        StoreProblem(kind: .foreignKey, .foreignKey(table: "weight", rowid: 9, parent: "record")),
        StoreProblem(kind: .missingFile, detail: "/tmp/a\u{1B}[31mb"),
        StoreProblem.orphanRecord(.init(id: 12, kind: .weight)),
    ]

    func testEnglishLinesAreTheCodesAndTheJSONDetail() {
        let lines = CheckPresenter(l10n: L10n(.en), path: "/db").lines(problems, verbose: true, repairing: false)
        XCTAssertEqual(Array(lines.dropFirst().prefix(problems.count)), [
            "  integrity: row 3 missing from index x",
            "  orphan-file: attachment ab12",
            "  search-index: search_index: 1234 rows out of step",
            "  foreign-key: weight rowid 9 → record",
            "  missing-file: " + PlainText.sanitized("/tmp/a\u{1B}[31mb"),
            "  orphan-record: #12 weight",
        ])
        // One row is said in the singular on screen; --json keeps its documented detail.
        XCTAssertEqual(CheckPresenter(l10n: L10n(.en), path: "/db").line(StoreProblem(kind: .searchIndex, .rowsOutOfStep(table: "t", count: 1))),
                       "search-index: t: 1 row out of step")
        // The detail `check --json` writes is the same English text.
        XCTAssertEqual(problems.map(\.detail)[1...3], ["attachment ab12", "search_index: 1234 rows out of step", "weight rowid 9 → record"])
    }

    func testKoreanAndJapaneseSayKindsAndWordsInTheirLanguage() {
        let ko = CheckPresenter(l10n: L10n(.ko), path: "/db")
        XCTAssertEqual(ko.line(problems[1]), "기록 없는 첨부 파일: 첨부 파일 ab12")
        XCTAssertEqual(ko.line(problems[2]), "검색 색인 불일치: search_index: 1234개 행이 기록과 맞지 않음")
        XCTAssertEqual(ko.line(problems[3]), "끊어진 참조: weight의 행 9 → record")
        XCTAssertEqual(ko.line(problems[0]), "파일 손상: row 3 missing from index x")
        let ja = CheckPresenter(l10n: L10n(.ja), path: "/db")
        XCTAssertEqual(ja.line(problems[1]), "記録のない添付ファイル：添付ファイル ab12")
        XCTAssertEqual(ja.line(problems[5]), "中身のない記録：#12 weight")
        XCTAssertFalse(ja.line(problems[4]).contains("\u{1B}"))
        for kind in ["integrity", "index", "foreign-key", "missing-file", "quarantined-file", "bad-hash", "orphan-file", "orphan-record", "invalid-value", "search-index"] {
            XCTAssertNotNil(StoreProblem.Kind(rawValue: kind))
            XCTAssertNotEqual(L10n(.ko).code(.checkProblem, kind), kind, kind)
            XCTAssertNotEqual(L10n(.ja).code(.checkProblem, kind), kind, kind)
            XCTAssertEqual(L10n(.en).code(.checkProblem, kind), kind, kind)
        }
    }

    func testTheSummaryListsFiveWithoutVerbose() {
        let many = (1...8).map { StoreProblem(kind: .orphanFile, .attachment(sha256: String($0))) }
        let lines = CheckPresenter(l10n: L10n(.en), path: "/db").lines(many, verbose: false, repairing: false)
        XCTAssertEqual(lines.count, 1 + CheckPresenter.shown + 1, lines.joined(separator: "\n"))
    }
}
