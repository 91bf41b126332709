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
        guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return .null }
        let typed = try walk([raw], s)
        let distance = m.value == .meters
        guard let v = distance ? typed.meters : typed.minutes, typed.meters == nil || typed.minutes == nil else {
            throw UsageError(message: s.t(distance ? .errWalkDistance(value: raw) : .errWalkDuration(value: raw)), code: Failure.dataError)
        }
        return .int(Int64(v))
    }
}
