import ArgumentParser
import Foundation
import PetModel
import PetStoreCore

struct DemoCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "demo", abstract: Help.s(.helpDemoCommandAbstract),
        discussion: Help.s(.helpDemoCommandDiscussion)) }
    @Option(help: ArgumentHelp(Help.s(.helpDemoCommandSeed))) var seed: UInt64 = 42
    @Option(help: ArgumentHelp(Help.s(.helpDemoCommandEnd))) var end: String?

    func run() throws {
        try Session.run(global) { s in
            let endDay = try end.map { try TimeParser.day($0, context: s.time) } ?? s.time.today
            let repo = try s.repository(creating: true)
            if try !repo.pets(includeArchived: true).isEmpty {
                throw UsageError(message: s.t(.errDemoNotEmpty(path: s.settings.databaseForDisplay)), code: Failure.cannotCreate)
            }
            let counts = try DemoHousehold(seed: seed, end: endDay, timeZone: s.time.timeZone).seed(into: repo)
            s.terminal.line(s.t(.demoDone(pets: Display.count(counts.pets), records: Display.count(counts.records), path: Terminal.sanitize(s.settings.databaseForDisplay))))
        }
    }
}
