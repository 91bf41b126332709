import ArgumentParser
import Foundation
import PetModel
import PetStoreCore
import PetViews

struct LogCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "log", abstract: Help.s(.helpLogCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpLogCommandPet)), completion: .petNames) var pet: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpLogCommandSince))) var since: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(Help.s(.helpLogCommandUntil))) var until: String?
    @Option(help: ArgumentHelp(Help.s(.helpLogCommandKind))) var kind: String?
    @Option(help: ArgumentHelp(Help.s(.helpLogCommandLimit))) var limit: Int?
    @Flag(help: ArgumentHelp(Help.s(.helpLogCommandBy))) var by = false

    func run() throws {
        try Session.run(global) { s in
            let window = try TimeWindow(since: since, until: until, context: s.time)
            let query = RecordQuery(pets: pet.map(PetModelText.pets) ?? [], kinds: try kind.map(RecordKind.typedList) ?? [],
                                    since: window.since, until: window.until, days: window.days,
                                    limit: limit, newestFirst: limit != nil)
            var records = try s.repository().records(query)
            if limit != nil { records.reverse() }
            try s.printTimeline(records, showPet: pet.map { PetModelText.pets($0).count > 1 } ?? true, showWriter: by)
        }
    }
}

extension Session {
    /// `showWriter`: each line ends with the database role that wrote the record (a PostgreSQL store keeps
    /// it; a SQLite file has one user and says `-`).
    func printTimeline(_ records: [PetRecord], showPet: Bool, showWriter: Bool = false) throws {
        if json {
            try terminal.json(records.map { RecordJSON($0, showWriter: showWriter) })
            return
        }
        terminal.lines(TimelinePresenter(presentation).lines(records, showPet: showPet, showWriter: showWriter))
    }
}

struct SearchCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "search", abstract: Help.s(.helpSearchCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpSearchCommandText))) var text: String?
    @Option(help: ArgumentHelp(Help.s(.helpSearchCommandCategory))) var category: String?
    @Option(help: ArgumentHelp(Help.s(.helpSearchCommandLimit))) var limit = 100

    func run() throws {
        try Session.run(global) { s in
            let text = self.text.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            guard text != nil || category != nil else { throw ParseError.emptyText(field: "search") }
            let code = try category.map { try CareNames.shipped.categoryEntry($0) }
            let repo = try s.repository()
            var found: [PetRecord]
            if let code {
                // The expenses of one category (named in any language), newest first; with text, those that have it too.
                let matching = try text.map { Set(try repo.search($0, limit: Int(Int32.max)).map(\.id)) }
                found = try repo.records(RecordQuery(kinds: [.expense], newestFirst: true)).filter { r in
                    guard case .expense(let e) = r.detail, e.category == code else { return false }
                    return matching?.contains(r.id) ?? true
                }
                found = Array(found.prefix(max(1, limit)))
            } else {
                found = try repo.search(text ?? "", limit: max(1, limit))
            }
            // Pets whose profile matches come first on screen; `--json` stays the list of records (pets: `pet list --json`).
            let pets = s.json || code != nil ? [] : try repo.searchPets(text ?? "")
            if !pets.isEmpty {
                s.terminal.lines(PetPresenter(s.presentation).searchPets(pets))
                if found.isEmpty { return }
                s.terminal.line()
            }
            try s.printTimeline(found.reversed(), showPet: true)
        }
    }
}

struct StarCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "star", abstract: Help.s(.helpStarCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpStarCommandId))) var id: Int64

    func run() throws {
        try Session.run(global) { s in
            let r = try s.repository().setStarred(id: id, true)
            s.terminal.line(s.t(.recordStarred(id: String(r.id))))
        }
    }
}

struct UnstarCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "unstar", abstract: Help.s(.helpUnstarCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpUnstarCommandId))) var id: Int64

    func run() throws {
        try Session.run(global) { s in
            let r = try s.repository().setStarred(id: id, false)
            s.terminal.line(s.t(.recordUnstarred(id: String(r.id))))
        }
    }
}

struct StarredCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "starred", abstract: Help.s(.helpStarredCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpStarredCommandPet)), completion: .petNames) var pet: String?

    func run() throws {
        try Session.run(global) { s in
            let records = try s.repository().records(RecordQuery(pets: pet.map(PetModelText.pets) ?? [], starredOnly: true))
            try s.printTimeline(records, showPet: pet == nil)
        }
    }
}

struct DeleteCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "delete", abstract: Help.s(.helpDeleteCommandAbstract)) }
    @Argument(help: ArgumentHelp(Help.s(.helpDeleteCommandId))) var id: Int64

    func run() throws {
        try Session.run(global) { s in
            let repo = try s.repository()
            let others = try repo.splitShares(of: id).filter { $0.id != id }
            let r = try repo.deleteRecord(id: id)
            s.terminal.line(s.t(.recordDeleted(id: String(r.id), kind: s.wording.kindName(r.kind), summary: Terminal.sanitize(s.wording.summary(r)))))
            for o in others {
                s.terminal.line(s.t(.recordDeleted(id: String(o.id), kind: s.wording.kindName(o.kind), summary: Terminal.sanitize(s.wording.summary(o)))))
            }
        }
    }
}
