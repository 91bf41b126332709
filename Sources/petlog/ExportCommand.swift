import ArgumentParser
import Foundation
import PetModel
import PetStore

struct ExportCommand: ParsableCommand {
    @OptionGroup(title: "Global options") var global: GlobalOptions
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write everything to one documented JSON file (docs/json.md) or one CSV per table: pets, every record, attachments by hash.",
        discussion: """
        Weights in grams and money in minor units with its currency, as stored; one record per line. Files 0600.
        --format csv writes pet.csv, record.csv and one file per record kind into the folder -o names (docs/import.md);
        text a spreadsheet would run as a formula (=, +, -, @) starts with ' there. petlog import reads both back.
        """)
    @Option(name: .shortAndLong, help: "The JSON file to write (a folder with --format csv; - for standard output).") var output: String
    @Option(help: "json (one file) or csv (a folder of tables).") var format: Choice<ExportFormat> = Choice(.json)
    @Option(help: "With --format csv: write only this table, to the file -o names (or - for standard output).", completion: .list(SQLiteRepository.csvTableNames)) var table: String?
    @Option(help: "Also copy the attachment files into this folder, named by SHA-256.") var withAttachments: String?
    @Flag(name: [.customLong("bom"), .customLong("excel")], help: "With --format csv: start each file with a UTF-8 byte order mark, so Excel shows Hangul and Kana.")
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
