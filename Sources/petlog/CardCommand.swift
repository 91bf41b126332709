import ArgumentParser
import Foundation
import Localization
import PetModel
import PetReport
import PetFiles
import PetViews

/// The sizes `card --paper` takes: the card alone, or a sheet of cards.
enum CardPaper: String, ChoiceValue {
    case card, a4, letter
    static var wordGroup: String { "cardPaper" }
}

struct CardCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "card", abstract: Help.s(.helpCardCommandAbstract),
        discussion: Help.s(.helpCardCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpCardCommandPet)), completion: .petNames) var pet: String
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpCardCommandOutput))) var output: String
    @Option(help: ArgumentHelp(Help.s(.helpCardCommandPaper))) var paper: Choice<CardPaper>?

    func run() throws {
        try Session.run(global) { s in
            let paperChoice = try (paper ?? Choice(.card)).value("--paper")
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errStdoutFormat(what: "PDF", ext: ".pdf")))
            }
            let format: CardRenderer.Format
            switch URL(fileURLWithPath: output).pathExtension.lowercased() {
            case "pdf": format = .pdf
            case "png": format = .png
            default: throw UsageError(message: s.t(.errCardFormat(path: Terminal.sanitize(output))))
            }
            let layout: CardLayout
            switch paperChoice {
            case .card: layout = .single
            case .a4: layout = .sheet(.a4)
            case .letter: layout = .sheet(.letter)
            }
            if layout != .single && format == .png {
                throw UsageError(message: s.t(.errCardSheetPNG(paper: paperChoice.rawValue)))
            }
            // The age is counted to today, or to $SOURCE_DATE_EPOCH's day for reproducible builds.
            var today = s.time.today
            if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let secs = Double(epoch) {
                today = s.localDay(Date(timeIntervalSince1970: secs))
            }
            let scratch = ScratchFolder()
            let (p, card) = try PetDocuments(store: try s.repository(), context: s.presentation).emergencyCard(pet: PetRef(pet), today: today, scratch: scratch.path)
            // A card that would leave out a fact is refused before any file is touched.
            do {
                try CardRenderer.fit(card)
            } catch let overflow as CardOverflow {
                let message: String
                switch overflow {
                case .text(let labels):
                    message = s.t(.errCardTooFull(pet: Terminal.sanitize(p.name), what: labels.joined(separator: s.format.l10n.language == .ja ? "、" : ", ")))
                case .qr(let bytes, let maximum):
                    message = s.t(.errCardQRTooFull(pet: Terminal.sanitize(p.name), bytes: Display.count(bytes), max: Display.count(maximum)))
                }
                throw UsageError(message: message, code: Failure.dataError)
            }
            let summary = try s.renderOutput(output) { try CardRenderer.render(card, layout: layout, format: format, to: $0) }
            s.terminal.line(s.t(.cardWrote(path: Terminal.sanitize(output), pet: Terminal.sanitize(p.name), copies: Display.count(summary.copies))))
        }
    }
}
