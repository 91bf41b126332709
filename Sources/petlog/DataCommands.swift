import ArgumentParser
import Foundation
import PetFiles
import PetStoreCore
import PetViews
import StoreOpening

struct BackupCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "backup", abstract: Help.s(.helpBackupCommandAbstract),
        discussion: Help.s(.helpBackupCommandDiscussion)) }
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpBackupCommandOutput))) var output: String

    func run() throws {
        try Session.run(global) { s in
            if OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errBackupStdout))
            }
            let report = try s.repository().backup(to: output)
            if !report.missing.isEmpty { s.terminal.error(s.t(.backupMissing(count: Display.count(report.missing.count)))) }
            if let folder = report.attachmentsFolder {
                s.terminal.line(s.t(.backupWroteAttachments(path: Terminal.sanitize(output), count: Display.count(report.attachments), folder: Terminal.sanitize(folder))))
            } else {
                s.terminal.line(s.t(.backupWrote(path: Terminal.sanitize(output))))
            }
        }
    }
}

struct RestoreCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "restore", abstract: Help.s(.helpRestoreCommandAbstract),
        discussion: Help.s(.helpRestoreCommandDiscussion)) }
    @Argument(help: ArgumentHelp(Help.s(.helpRestoreCommandBackup))) var backup: String

    func run() throws {
        try Session.run(global) { s in
            let location = s.settings.storeLocation
            let report = try StoreOpening.restore(from: backup, to: location, server: s.settings.serverTarget)
            let target = location.filePath ?? ""
            if !report.missing.isEmpty { s.terminal.error(s.t(.backupMissing(count: Display.count(report.missing.count)))) }
            s.terminal.line(s.t(.restoreWrote(backup: Terminal.sanitize(backup), path: Terminal.sanitize(target), count: Display.count(report.attachments))))
        }
    }
}

struct CheckCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "check", abstract: Help.s(.helpCheckCommandAbstract),
        discussion: Help.s(.helpCheckCommandDiscussion)) }
    @Flag(help: ArgumentHelp(Help.s(.helpCheckCommandRepair))) var repair = false
    @Flag(help: ArgumentHelp(Help.s(.helpCheckCommandVerbose))) var verbose = false

    func run() throws {
        try Session.run(global) { s in
            // A file too damaged to open as usual is still opened here, only to be read.
            let repo = try s.repositoryForCheck()
            let present = CheckPresenter(l10n: s.l10n, path: s.settings.databaseForDisplay)
            var problems = try repo.check()
            if repair && problems.contains(where: \.repairable) {
                let report = try repo.repair(problems)
                if report.nothingReadable {
                    s.terminal.line(present.nothingReadable())
                    throw ExitCode(Failure.noInput)
                }
                if let recovered = report.recovered {
                    for line in present.recovered(copy: recovered.path, pets: recovered.pets, records: recovered.records) { s.terminal.line(line) }
                    // The damaged file itself is as it was: still damaged.
                    throw ExitCode(Failure.dataError)
                }
                if let folder = report.quarantine {
                    let count = problems.filter { $0.kind == .orphanFile }.count
                    s.terminal.line(s.t(.checkQuarantined(count: Display.count(count), path: Terminal.sanitize(folder))))
                }
                s.terminal.line(s.t(.checkRepaired(count: Display.count(report.fixed))))
                problems = try repo.check()
            }
            if s.json {
                try s.terminal.json(problems.map(ProblemJSON.init))
            } else {
                for line in present.lines(problems, verbose: verbose, repairing: repair) { s.terminal.line(line) }
            }
            if !problems.isEmpty { throw ExitCode(Failure.dataError) }
        }
    }
}
