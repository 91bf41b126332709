import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import PetViews

struct UndoCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "undo",
        abstract: Help.s(.helpUndoCommandAbstract),
        discussion: Help.s(.helpUndoCommandDiscussion)) }
    @Flag(help: ArgumentHelp(Help.s(.helpUndoCommandList))) var list = false

    func run() throws {
        try Session.run(global) { s in
            let repo = try s.repository()
            if list {
                let entries = try repo.undoHistory(limit: 100)
                if s.json {
                    try s.terminal.json(entries.map { UndoEntryJSON($0, context: s.time) })
                    return
                }
                if entries.isEmpty { s.terminal.line(s.t(.undoNothing)); return }
                for e in entries { s.terminal.line("\(s.dateTime(e.at))  petlog \(Terminal.sanitize(e.command))") }
                return
            }
            guard let r = try repo.undo() else {
                s.terminal.line(s.t(.undoNothing))
                return
            }
            s.terminal.line(s.t(.undoDone(command: Terminal.sanitize(r.command), at: s.dateTime(r.at), changes: String(r.changes))))
            if let q = r.quarantine { s.terminal.line(s.t(.undoQuarantined(path: Terminal.sanitize(q)))) }
        }
    }
}
