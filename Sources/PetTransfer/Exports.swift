import Foundation
import PetFiles
import PetModel
import PetStoreCore

/// `petlog export`'s JSON and CSV, written here from the rows the store hands out of one snapshot
/// (`TransferRepository.exportSnapshot`): the store reads, the formats write, one path for both engines.
public enum PetlogExport {
    /// The whole JSON export (docs/json.md) into `sink`: pets, records, budgets, rates; the records written.
    public static func json(from store: any TransferRepository, to sink: OutputSink) throws -> Int {
        try store.exportSnapshot { s in
            let writer = try PetlogJSONWriter(sink: sink, pets: try s.pets(), namespace: s.namespace)
            try s.forEachRecordBatch(size: 2000) { batch in for r in batch { try writer.write(r) } }
            try writer.finish(budgets: try s.budgets(), rates: try s.rates())
            return writer.recordCount
        }
    }

    /// Every table as CSV into `directory`; the records and tables written. `bom`: each file starts with a
    /// UTF-8 byte order mark, which Excel needs to read Hangul and Kana.
    public static func csv(from store: any TransferRepository, to directory: String, bom: Bool = false) throws -> (records: Int, tables: Int) {
        try store.exportSnapshot { s in try CSVExport.writeFolder(directory) { table, sink in try writeTable(table, of: s, to: sink, bom: bom) } }
    }

    /// One table as CSV to `path` (`-`: standard output); the rows written.
    public static func csvTable(_ name: String, from store: any TransferRepository, to path: String, bom: Bool = false) throws -> Int {
        let table = try CSVExport.table(name)
        return try store.exportSnapshot { s in
            var count = 0
            try OutputFile.write(to: path) { sink in count = try writeTable(table, of: s, to: sink, bom: bom) }
            return count
        }
    }

    /// One table's rows as CSV into `sink`; the rows written.
    static func writeTable(_ table: CSVTable, of s: ExportSnapshot, to sink: OutputSink, bom: Bool) throws -> Int {
        var writer = CSVTableWriter(name: table.name, bom: bom)
        try s.forEachRow(table, columns: { try writer.start(columns: $0, to: sink) }, row: { try writer.row($0, to: sink) })
        return try writer.finish(to: sink)
    }
}

extension CSVExport {
    /// Writes every table into the folder `directory` (created 0700 if missing; its parent must exist)
    /// as `<table>.csv`, each through `OutputFile` (links followed, 0600): every file is written to a
    /// temporary file first and all are renamed at the end, so a failure (a full disk, a signal) leaves
    /// the folder as it was. `write` writes one table into its file (called inside the store's read
    /// transaction, so all the files are of one moment).
    static func writeFolder(_ directory: String, write: (CSVTable, OutputSink) throws -> Int) throws -> (records: Int, tables: Int) {
        let batch = OutputFile.Batch()
        var records = 0
        do {
            try batch.prepareFolder(directory)
            let folder = directory.hasSuffix("/") ? directory : directory + "/"
            for table in tables {
                try batch.add(folder + "\(table.name).csv") { sink in
                    let rows = try write(table, sink)
                    if table.name == "record" { records = rows }
                }
            }
            try batch.commit()
        } catch {
            batch.discard()
            throw error
        }
        return (records, tables.count)
    }
}

/// One table's CSV: the header row, then each row's cells (`record.at` as RFC 3339 with its offset,
/// `medication.stopped_at` as RFC 3339 UTC, text through `CSVText`), in 1 MiB writes.
struct CSVTableWriter {
    let name: String
    var out: String
    var count = 0
    var skip = -1, atColumn = -1, offsetColumn = -1, stoppedColumn = -1

    init(name: String, bom: Bool) {
        self.name = name
        out = bom ? "\u{FEFF}" : ""
        out.reserveCapacity(1 << 20)
    }

    mutating func start(columns: [String], to sink: OutputSink) throws {
        // Both columns are in the SELECTs (`CSVExport.tables`), so they are found.
        atColumn = name == "record" ? columns.firstIndex(of: "at") ?? -1 : -1
        offsetColumn = name == "record" ? columns.firstIndex(of: "utc_offset") ?? -1 : -1
        stoppedColumn = name == "medication" ? columns.firstIndex(of: "stopped_at") ?? -1 : -1
        out += columns.filter { $0 != "utc_offset" }.joined(separator: ",") + "\r\n"
    }

    mutating func row(_ values: [SQLValue], to sink: OutputSink) throws {
        var cells: [String] = []
        cells.reserveCapacity(values.count)
        for (i, value) in values.enumerated() where i != offsetColumn {
            if i == atColumn, let seconds = value.int {
                cells.append(RFC3339.format(seconds: seconds, offset: Int(values[offsetColumn].int ?? 0)))
            } else if i == stoppedColumn, let t = value.int {
                cells.append(RFC3339.format(seconds: t, offset: 0))
            } else {
                switch value {
                case .null, .bytes: cells.append("")
                case .int(let v): cells.append(String(v))
                case .double(let v): cells.append(DecimalFormat.shortest(v))
                case .text(let s): cells.append(CSVText.cell(text: s))
                }
            }
        }
        out += cells.joined(separator: ",") + "\r\n"
        count += 1
        if out.utf8.count > 1 << 20 {
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what is left; the rows written.
    mutating func finish(to sink: OutputSink) throws -> Int {
        try sink.write(out)
        out = ""
        return count
    }
}


/// Doubles written as the shortest text that reads back to the same value.
enum DecimalFormat {
    static func shortest(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

