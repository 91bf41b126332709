import ArgumentParser
import Foundation
import PetStore

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy the database with SQLite's online backup (safe while petlog writes); mode 0600.")
    @Option(name: .shortAndLong, help: "The backup file to create (must not exist).") var output: String

    func run() throws {
        try Session.run { s in
            do {
                try s.repository().backup(to: output)
            } catch let e as StoreError {
                if case .io = e { throw UsageError(message: s.t(.errCannotWrite, ["path": output, "reason": s.t(.errFileExists)]), code: Failure.cannotCreate) }
                throw e
            } catch {
                throw UsageError(message: s.t(.errCannotWrite, ["path": output, "reason": "\(error)"]), code: Failure.cannotCreate)
            }
            s.terminal.line(s.t(.backupWrote, ["path": Terminal.sanitize(output)]))
        }
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the database and attachments; prints nothing and exits 0 when all is well.",
        discussion: "Exit 65 with one line per problem otherwise. --repair removes only what is safe: orphan files and orphan record headers.")
    @Flag(help: "Remove orphan files and orphan record headers.") var repair = false

    func run() throws {
        try Session.run { s in
            let repo = try s.repository()
            var problems = try repo.check()
            if repair && problems.contains(where: \.repairable) {
                let n = try repo.repair(problems)
                s.terminal.line(s.t(.checkRepaired, ["count": String(n)]))
                problems = try repo.check()
            }
            if s.json {
                s.terminal.json(problems.map { ["kind": $0.kind.rawValue, "detail": $0.detail, "repairable": $0.repairable] })
            } else {
                for p in problems { s.terminal.line(p.kind.rawValue + ": " + Terminal.sanitize(p.detail)) }
            }
            if !problems.isEmpty { throw ExitCode(Failure.dataError) }
        }
    }
}
