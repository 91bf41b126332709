import Foundation
import XCTest
import PetlogTestSupport

/// A new kind touches the nine files issue 43 allows outside the tests (model, descriptor, two migrations,
/// three language tables, the command, its registration), counted by `scripts/kind-files.sh` as
/// docs/architecture.md ("The path a new kind takes") counts walks and grooming.
final class KindFilesTests: XCTestCase {
    /// The script's lines for `arguments`: the kind's files, then `N files`, then the features.
    func kindFiles(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", TestServer.repoRoot.appendingPathComponent("scripts/kind-files.sh").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        return Array(lines.prefix { !$0.hasSuffix(" files") })
    }

    static let nine = ["Localization/Strings/en.txt", "Localization/Strings/ja.txt", "Localization/Strings/ko.txt", "Sources/PetModel/Records.swift",
                       "Sources/PetStoreCore/RecordDetailTables.swift", "Sources/PetStorePostgres/PostgresSchema.swift",
                       "Sources/PetStoreSQLite/Schema.swift", "Sources/petlog/Petlog.swift"]

    /// The web form of a kind (`petlog serve`'s `POST /pets/ID/log`): its fields on the page, its route, and the
    /// reader the CLI's command and the form share; the edit form's reading of a later kind's codes and measures
    /// (`EditRoutes.swift`). A feature a kind may have, not what makes it a kind.
    static let webForm = ["Sources/PetServe/RecordPages.swift", "Sources/PetServe/RecordRoutes.swift", "Sources/PetServe/EditRoutes.swift",
                          "Sources/PetViews/RecordEntry.swift"]

    /// Walks: the nine and nothing else (their summary line and short forms once took `RecordWording` and
    /// `ChoiceWords` too); what walks do beyond being a kind is features, listed apart.
    func testAWalkIsTheNineFiles() throws {
        let features = ["Sources/PetModel/MonthComparison.swift", "Sources/PetModel/WalkTotals.swift", "Sources/PetModel/VisitReportFacts.swift",
                        "Sources/PetStoreCore/DemoHousehold.swift", "Sources/PetTransfer/FHIRBundle.swift", "Sources/PetViews/ChartComposer.swift",
                        "Sources/PetViews/StatsPresenter.swift", "Sources/PetViews/CommandJSON.swift", "Sources/PetReport/VetReportComposer.swift",
                        "Sources/petlog/StatsCommand.swift"] + Self.webForm
        XCTAssertEqual(try kindFiles(["walk", "Walk", "--features"] + features).sorted(), (Self.nine + ["Sources/petlog/WalkCommand.swift"]).sorted())
    }

    /// Grooming: the nine and what a kind of listed codes adds (the code group, its typed names in en/ko/ja).
    func testAGroomingIsTheNineFilesAndItsListedCodes() throws {
        XCTAssertEqual(try kindFiles(["grooming", "Groom", "--features", "Sources/PetViews/StatsPresenter.swift", "Sources/PetStoreCore/DemoSpending.swift"]
                                       + Self.webForm).sorted(),
                       (Self.nine + ["Sources/petlog/GroomCommand.swift", "Localization/CodeGroups.swift", "Sources/PetModel/CareNames.swift",
                                     "assets/care-names.json"]).sorted())
    }
}
