import ArgumentParser
import Foundation
import PetStore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write everything to one documented JSON file (docs/json.md): pets, every record, attachments by hash.",
        discussion: "Weights in grams and money in minor units with its currency, as stored; one record per line. Mode 0600.")
    @Option(name: .shortAndLong, help: "The JSON file to write.") var output: String

    func run() throws {
        try Session.run { s in
            let repo = try s.repository()
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
            s.terminal.line(s.t(.exportWrote, ["path": output, "records": String(count)]))
        }
    }
}
