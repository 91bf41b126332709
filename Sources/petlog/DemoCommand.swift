import ArgumentParser
import Foundation
import PetModel
import PetStore

struct DemoCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Fill an empty database with a realistic demo household (a dog, a cat, a ferret; two years).",
        discussion: "Refuses a database that already has pets; use --db to pick a new file.")
    @Option(help: "Seed: the same seed and end day give the same household.") var seed: UInt64 = 42
    @Option(help: "Last day of the two years (default: today).") var end: String?

    func run() throws {
        try Session.run(global) { s in
            let endDay = try end.map { try TimeParser.day($0, context: s.time) } ?? s.time.today
            let repo = try s.repository(creating: true)
            if try !repo.pets(includeArchived: true).isEmpty {
                throw UsageError(message: s.t(.errDemoNotEmpty(path: s.settings.resolvedDatabasePath)), code: Failure.cannotCreate)
            }
            let counts = try DemoHousehold(seed: seed, end: endDay, timeZone: s.time.timeZone).seed(into: repo)
            s.terminal.line(s.t(.demoDone(pets: String(counts.pets), records: String(counts.records), path: Terminal.sanitize(s.settings.resolvedDatabasePath))))
        }
    }
}
