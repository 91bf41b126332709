import ArgumentParser
import Foundation
import Localization
import PetModel
import PetStoreCore
import PetViews

/// `petlog walk PET [DISTANCE] [DURATION]`: how far and how long, in en/ko/ja units; several pets at once.
struct WalkCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "walk", abstract: Help.s(.helpWalkCommandAbstract),
                                                                          discussion: Help.s(.helpWalkCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpWalkCommandPet)), completion: .petNames) var pet: String
    @Argument(help: ArgumentHelp(Help.s(.helpWalkCommandMeasure))) var measure: [String] = []
    @Option(help: ArgumentHelp(Help.s(.helpWalkCommandPhoto))) var photo: [String] = []
    @OptionGroup var record: RecordOptions

    func run() throws {
        try Session.run(global) { s in
            let walk = try Self.walk(measure, s)
            try s.checkImages(photo)
            try s.log(pets: pet, record, attachments: photo, detail: .walk(walk))
        }
    }

    /// `Walk.parse`, its refusals as one localized line (exit 65).
    static func walk(_ words: [String], _ s: Session) throws -> Walk {
        do { return try Walk.parse(words) } catch let r as Walk.Refusal {
            throw UsageError(message: RecordEntry.text(r, s.l10n), code: Failure.dataError)
        }
    }
}

extension WalkCommand: KindCommand {
    static var kind: RecordKind { .walk }

    /// One measure each, as `walk` reads it (`edit --distance 3.2km`, `--duration 1h10m`); empty clears it.
    static func typed(_ raw: String, for m: RecordKindTable.JSONField, _ s: Session) throws -> SQLValue {
        do {
            return try RecordEntry.walkMeasure(raw, distance: m.value == .meters).map { .int(Int64($0)) } ?? .null
        } catch let r as Walk.Refusal {
            throw UsageError(message: RecordEntry.text(r, s.l10n), code: Failure.dataError)
        } catch let e as RecordEntry.NotOneMeasure {
            throw UsageError(message: e.text(s.l10n), code: Failure.dataError)
        }
    }
}
