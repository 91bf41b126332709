import ArgumentParser
import Foundation
import PetStore

struct BackupCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy the database and its attachments (safe while petlog writes); mode 0600.",
        discussion: """
        The backup is a petlog database file at -o with its attachments in FILE.attachments/ beside it, the same
        layout as the database itself: petlog --db FILE reads it as it is, and petlog restore FILE brings both back.
        The copy is checked (SQLite's integrity check, every attachment's SHA-256); a damaged database is refused.
        """)
    @Option(name: .shortAndLong, help: "The backup file to create (must not exist).") var output: String

    func run() throws {
        try Session.run(global) { s in
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errBackupStdout))
            }
            let report = try s.repository().backup(to: output)
            if !report.missing.isEmpty { s.terminal.error(s.t(.backupMissing(count: String(report.missing.count)))) }
            if let folder = report.attachmentsFolder {
                s.terminal.line(s.t(.backupWroteAttachments(path: Terminal.sanitize(output), count: String(report.attachments), folder: Terminal.sanitize(folder))))
            } else {
                s.terminal.line(s.t(.backupWrote(path: Terminal.sanitize(output))))
            }
        }
    }
}

struct RestoreCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Bring back a backup (database and attachments) as the database --db names, which must not exist yet.",
        discussion: "The backup is only read. To replace a database, move the old file (and its .attachments folder) away first.")
    @Argument(help: "The backup file written by petlog backup.") var backup: String

    func run() throws {
        try Session.run(global) { s in
            let target = s.settings.resolvedDatabasePath
            let report = try SQLiteRepository.restore(from: backup, to: target)
            if !report.missing.isEmpty { s.terminal.error(s.t(.backupMissing(count: String(report.missing.count)))) }
            s.terminal.line(s.t(.restoreWrote(backup: Terminal.sanitize(backup), path: Terminal.sanitize(target), count: String(report.attachments))))
        }
    }
}

struct CheckCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the database and attachments; prints nothing and exits 0 when all is well.",
        discussion: """
        Exit 65 with one line per problem otherwise. --repair never deletes a file and never rewrites a damaged one:
        orphan files move to FILE.quarantine/TIME/ beside the database, record headers without their detail are
        removed, damaged indexes are rebuilt (REINDEX), and a file whose tables are damaged is copied, every readable
        row, into FILE.recovered-TIME.sqlite beside it for you to check and put in place.
        """)
    @Flag(help: "Fix what can be fixed without losing anything (see above).") var repair = false

    func run() throws {
        try Session.run(global) { s in
            let repo = try s.repository()
            var problems = try repo.check()
            if repair && problems.contains(where: \.repairable) {
                let report = try repo.repair(problems)
                if let (copy, records, lost) = report.recovered {
                    s.terminal.line(s.t(.checkRecovered(path: Terminal.sanitize(s.settings.resolvedDatabasePath), records: String(records), copy: Terminal.sanitize(copy), lost: String(lost))))
                } else {
                    if let folder = report.quarantine {
                        let count = problems.filter { $0.kind == .orphanFile }.count
                        s.terminal.line(s.t(.checkQuarantined(count: String(count), path: Terminal.sanitize(folder))))
                    }
                    s.terminal.line(s.t(.checkRepaired(count: String(report.fixed))))
                    problems = try repo.check()
                }
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
