import ArgumentParser
import Foundation
import PetModel
import PetStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write everything to one documented JSON file (docs/json.md) or one CSV per table: pets, every record, attachments by hash.",
        discussion: """
        Weights in grams and money in minor units with its currency, as stored; one record per line. Files 0600.
        --format csv writes pet.csv, record.csv and one file per record kind into the folder -o names (docs/import.md);
        text a spreadsheet would run as a formula (=, +, -, @) starts with ' there. petlog import reads both back.
        """)
    @Option(name: .shortAndLong, help: "The JSON file to write (a folder with --format csv).") var output: String
    @Option(help: "json (one file) or csv (a folder of tables).") var format: String = "json"
    @Option(help: "Also copy the attachment files into this folder, named by SHA-256.") var withAttachments: String?

    func run() throws {
        try Session.run { s in
            guard ["json", "csv"].contains(format.lowercased()) else {
                throw ParseError.unknownChoice(field: "--format", value: format, accepted: ["json", "csv"])
            }
            let repo = try s.repository()
            if let dir = withAttachments {
                do { _ = try repo.copyAttachments(to: URL(fileURLWithPath: dir)) } catch {
                    throw UsageError(message: s.t(.errCannotWrite, ["path": dir, "reason": "\(error)"]), code: Failure.cannotCreate)
                }
            }
            if format.lowercased() == "csv" {
                let written: (records: Int, tables: Int)
                do { written = try repo.exportCSV(to: URL(fileURLWithPath: output)) } catch {
                    throw UsageError(message: s.t(.errCannotWrite, ["path": output, "reason": "\(error)"]), code: Failure.cannotCreate)
                }
                s.terminal.line(s.t(.exportWroteCSV, ["records": String(written.records), "tables": String(written.tables), "path": Terminal.sanitize(output)]))
                return
            }
            let url = URL(fileURLWithPath: output)
            let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
            guard FileManager.default.createFile(atPath: temp.path, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let handle = try? FileHandle(forWritingTo: temp) else {
                throw UsageError(message: s.t(.errCannotWrite, ["path": output, "reason": s.t(.errIO, ["detail": temp.path])]), code: Failure.cannotCreate)
            }
            var count = 0
            do {
                func line(_ object: Any) throws -> Data {
                    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                }
                let pets = try repo.pets(includeArchived: true).sorted { $0.id < $1.id }
                handle.write(Data("{\"format\": \"petlog\", \"schema\": \"v1\", \"units\": {\"weight\": \"g\", \"money\": \"minor units\"},\n\"pets\": [\n".utf8))
                for (i, p) in pets.enumerated() {
                    handle.write(try line(JSONShape.pet(p)) + Data((i < pets.count - 1 ? ",\n" : "\n").utf8))
                }
                handle.write(Data("],\n\"records\": [\n".utf8))
                try repo.forEachRecordBatch { batch in
                    for r in batch {
                        handle.write(Data((count > 0 ? ",\n" : "").utf8) + (try line(JSONShape.record(r))))
                        count += 1
                    }
                }
                handle.write(Data("\n]}\n".utf8))
                try handle.close()
                if rename(temp.path, url.path) != 0 { throw CocoaError(.fileWriteUnknown) }
            } catch {
                try? FileManager.default.removeItem(at: temp)
                throw UsageError(message: s.t(.errCannotWrite, ["path": output, "reason": "\(error)"]), code: Failure.cannotCreate)
            }
            s.terminal.line(s.t(.exportWrote, ["path": Terminal.sanitize(output), "records": String(count)]))
        }
    }
}
