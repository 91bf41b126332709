import ArgumentParser
import Foundation
import PetModel
import PetFiles
import PetStoreCore
import PetTransfer

struct ExportCommand: ParsableCommand {
    @OptionGroup(title: Help.s(.helpGlobalOptionsTitle)) var global: GlobalOptions
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "export", abstract: Help.s(.helpExportCommandAbstract),
        discussion: Help.s(.helpExportCommandDiscussion)) }
    @Option(name: .shortAndLong, help: ArgumentHelp(Help.s(.helpExportCommandOutput))) var output: String
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandFormat))) var format: Choice<ExportFormat> = Choice(.json)
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandTable)), completion: .list(CSVExport.tableNames)) var table: String?
    @Option(name: .customLong("pet"), help: ArgumentHelp(Help.s(.helpExportCommandPet)), completion: .petNames) var pets: [String] = []
    /// Kept for scripts from before the attachments went beside the file by default: the folder to put them in instead.
    @Option(help: ArgumentHelp(Help.s(.helpExportCommandWithAttachments))) var withAttachments: String?
    @Flag(name: .customLong("no-attachments"), help: ArgumentHelp(Help.s(.helpExportCommandNoAttachments))) var noAttachments = false
    @Flag(name: [.customLong("bom"), .customLong("excel")], help: ArgumentHelp(Help.s(.helpExportCommandBom)))
    var bom = false

    func run() throws {
        try Session.run(global) { s in
            let chosen = try format.value("--format")
            if chosen == .fhir { return try exportFHIR(&s) }
            if !pets.isEmpty { throw UsageError(message: s.t(.errPetNeedsFHIR)) }
            let csv = chosen == .csv
            if bom && !csv { throw UsageError(message: s.t(.errFlagNeedsCSV(flag: "--bom"))) }
            if let t = table {
                guard csv else { throw UsageError(message: s.t(.errTableNeedsCSV(table: t))) }
                guard CSVExport.tableNames.contains(t) else {
                    throw ParseError.unknownChoice(field: "--table", value: t, accepted: CSVExport.tableNames)
                }
            } else if csv, OutputFile.isStandardOutput(output) {
                throw UsageError(message: s.t(.errCSVStdoutNeedsTable(tables: CSVExport.tableNames.joined(separator: ", "))))
            }
            if let dir = withAttachments, OutputFile.isStandardOutput(dir) {
                throw UsageError(message: s.t(.errFolderNotStdout(option: "--with-attachments")))
            }
            if noAttachments && withAttachments != nil {
                throw UsageError(message: s.t(.errAttachmentsBothWays))
            }
            let toStdout = OutputFile.isStandardOutput(output)
            let repo = try s.repository()
            let folder = attachmentsFolder(csv: csv)
            // A file where the folder goes refuses the export before anything is written.
            if let folder, FileSecurity.exists(folder), !FileSecurity.isDirectory(folder) { throw OutputError(path: folder, cause: .isFile) }
            // Checked before anything is written (a damaged file refuses the export); copied after the tables,
            // so the folder may sit inside -o's. Files the database names but does not hold are left out.
            let inventory = try folder.map { _ in try repo.verifyAttachments(allowingMissing: true) }
            let shown = toStdout ? s.t(.outputStandard) : Terminal.sanitize(output)
            // With -o -, stdout carries the data only; the summary goes to stderr.
            let terminal = s.terminal
            let say: (String) -> Void = toStdout ? { terminal.error($0) } : { terminal.line($0) }
            func copyAttachments() throws { if let folder { _ = try repo.copyAttachments(to: folder, allowingMissing: true) } }
            func sayAttachments() {
                guard let folder, let inventory else { return }
                if !inventory.present.isEmpty {
                    say(s.t(.exportWroteAttachments(count: Display.count(inventory.present.count), folder: Terminal.sanitize(folder))))
                }
                if !inventory.missing.isEmpty { terminal.error(s.t(.exportAttachmentsMissing(count: Display.count(inventory.missing.count)))) }
            }
            if let t = table {
                let rows = try PetlogExport.csvTable(t, from: repo, to: output, bom: bom)
                try copyAttachments()
                say(s.t(.exportWroteTable(rows: Display.count(rows), table: t, path: shown)))
                sayAttachments()
                return
            }
            if csv {
                let written = try PetlogExport.csv(from: repo, to: output, bom: bom)
                try copyAttachments()
                say(s.t(.exportWroteCSV(records: Display.count(written.records), tables: Display.count(written.tables), path: shown)))
                sayAttachments()
                return
            }
            var count = 0
            try OutputFile.write(to: output) { sink in
                count = try PetlogExport.json(from: repo, to: sink)
            }
            try copyAttachments()
            say(s.t(.exportWrote(records: Display.count(count), path: shown)))
            sayAttachments()
            // A stream has no folder beside it: the records go, the files cannot (said on stderr only).
            if folder == nil && table == nil && !noAttachments {
                let files = try repo.attachmentHashes().count
                if files > 0 { terminal.error(s.t(.exportStreamWithoutAttachments(count: Display.count(files)))) }
            }
        }
    }

    /// `--format fhir`: one HL7 FHIR R4 bundle of the pets (all, or `--pet`'s) and their weights,
    /// vaccinations, medication courses and visits (docs/fhir.md). Attachments are not part of it.
    func exportFHIR(_ s: inout Session) throws {
        if bom { throw UsageError(message: s.t(.errFlagNeedsCSV(flag: "--bom"))) }
        if let t = table { throw UsageError(message: s.t(.errTableNeedsCSV(table: t))) }
        let repo = try s.repository()
        var chosen: [Pet] = []
        if pets.isEmpty {
            chosen = try repo.pets(includeArchived: true).sorted { $0.id < $1.id }
        } else {
            for name in pets {
                let p = try repo.pet(PetRef(name))
                if !chosen.contains(where: { $0.id == p.id }) { chosen.append(p) }
            }
            chosen.sort { $0.id < $1.id }
        }
        let records = chosen.isEmpty ? [] : try repo.records(RecordQuery(pets: chosen.map { .id($0.id) }, kinds: FHIRBundle.kinds))
            .sorted { $0.id < $1.id }
        let bytes = FHIRBundle.bytes(pets: chosen, records: records, today: s.time.today, namespace: try repo.householdNamespace())
        try OutputFile.write(to: output) { sink in try sink.write(bytes) }
        let count = bytes.filter { $0 == UInt8(ascii: "\n") }.count - 2  // one entry a line between the first and the last
        let toStdout = OutputFile.isStandardOutput(output)
        let line = s.t(.exportWroteFHIR(resources: Display.count(max(count, 0)), path: toStdout ? s.t(.outputStandard) : Terminal.sanitize(output)))
        if toStdout { s.terminal.error(line) } else { s.terminal.line(line) }
    }

    /// Where the attachment files go: `--with-attachments DIR`; else beside a JSON file (`FILE.attachments`,
    /// named as `backup` names its folder) or inside a CSV folder (`attachments/`, where `import` looks);
    /// nowhere for `--no-attachments`, one CSV table, or a stream (standard output, a device).
    func attachmentsFolder(csv: Bool) -> String? {
        if let dir = withAttachments { return dir }
        if noAttachments || table != nil || Self.isStream(output) { return nil }
        return csv ? (output.hasSuffix("/") ? output : output + "/") + "attachments" : output + ".attachments"
    }

    /// Standard output or another descriptor petlog has open (`/dev/stdout`, `/proc/self/fd/1`, a link to
    /// one), or a target that is not (or would not be) a regular file: a FIFO. No folder can be made beside it.
    static func isStream(_ path: String) -> Bool {
        if OutputFile.descriptor(path) != nil { return true }
        let absolute = FileSecurity.absolute(path)
        if absolute.hasPrefix("/dev/") || absolute.hasPrefix("/proc/") { return true }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }
}
