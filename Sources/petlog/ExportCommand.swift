import ArgumentParser
import Foundation
import PetModel
import PetStore

struct ExportCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "export", abstract: Help.s(.helpExportCommandAbstract),
        discussion: Help.s(.helpExportCommandDiscussion)) }
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpExportCommandOutput))) var output: String
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandFormat))) var format: Choice<ExportFormat> = Choice(.json)
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandTable)), completion: .list(SQLiteRepository.csvTableNames)) var table: String?
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandWithAttachments))) var withAttachments: String?
    @Flag(name: [.customLong("bom"), .customLong("excel")], help: ArgumentHelp(Help.s(.helpExportCommandBom)))
    var bom = false

    func run() throws {
        try Session.run(global) { s in
            let csv = try format.value("--format") == .csv
            if bom && !csv { throw UsageError(message: s.t(.errFlagNeedsCSV(flag: "--bom"))) }
            if let t = table {
                guard csv else { throw UsageError(message: s.t(.errTableNeedsCSV(table: t))) }
                guard SQLiteRepository.csvTableNames.contains(t) else {
                    throw ParseError.unknownChoice(field: "--table", value: t, accepted: SQLiteRepository.csvTableNames)
                }
            } else if csv, OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errCSVStdoutNeedsTable(tables: SQLiteRepository.csvTableNames.joined(separator: ", "))))
            }
            if let dir = withAttachments, OutputFile.isStandardOutput(dir) {
                throw UsageError(message: s.t(.errFolderNotStdout(option: "--with-attachments")))
            }
            let toStdout = OutputFile.isStandardOutput(output)
            let repo = try s.repository()
            // Checked before anything is written; copied after the tables, so the folder may sit inside -o's.
            if withAttachments != nil { try repo.verifyAttachments() }
            let shown = toStdout ? s.t(.outputStandard) : Terminal.sanitize(output)
            // With -o -, stdout carries the data only; the summary goes to stderr.
            let terminal = s.terminal
            let say: (String) -> Void = toStdout ? { terminal.error($0) } : { terminal.line($0) }
            if let t = table {
                let rows = try repo.exportCSVTable(t, to: output, bom: bom)
                try copyAttachments(repo)
                say(s.t(.exportWroteTable(rows: String(rows), table: t, path: shown)))
                return
            }
            if csv {
                let written = try repo.exportCSV(to: output, bom: bom)
                try copyAttachments(repo)
                say(s.t(.exportWroteCSV(records: String(written.records), tables: String(written.tables), path: shown)))
                return
            }
            var count = 0
            try OutputFile.write(to: output) { sink in
                count = try repo.exportJSON(to: sink)
            }
            try copyAttachments(repo)
            say(s.t(.exportWrote(records: String(count), path: shown)))
        }
    }

    func copyAttachments(_ repo: any PetlogStore) throws {
        if let dir = withAttachments { _ = try repo.copyAttachments(to: dir) }
    }
}
