import Foundation
import GRDB
import PetModel

/// `petlog export --format csv`: one RFC 4180 file per table, header row first, rows in id order.
/// Columns are the database's, except: `pet` leaves out its search key and timestamps, `record` writes
/// `at` as RFC 3339 with the offset it happened at (and leaves out `utc_offset` and timestamps),
/// `medication.stopped_at` is RFC 3339 UTC, `attachment` leaves out its row id. Text cells that a
/// spreadsheet would run as a formula get a leading `'` (`CSVText`), which import removes again.
extension SQLiteRepository {
    static let csvTables: [(name: String, select: String)] = [
        ("pet", "SELECT id, name, species, breed, sex, neutered, born, microchip, color, notes, archived_on, archive_reason FROM pet ORDER BY id"),
        ("record", "SELECT id, pet_id, kind, at, utc_offset, note, starred FROM record ORDER BY id"),
    ] + RecordKind.allCases.map { kind in
        (kind.rawValue, kind == .medication
            ? "SELECT record_id, name, dose, route, interval_seconds, times, ends_on, stopped_at FROM medication ORDER BY record_id"
            : "SELECT * FROM \(kind.rawValue) ORDER BY record_id")
    } + [("attachment", "SELECT record_id, position, sha256, original_name, media_type, size FROM attachment ORDER BY record_id, position")]

    /// Writes every table into `directory` (created 0700; files 0600, each written whole then renamed).
    public func exportCSV(to directory: URL) throws -> (records: Int, tables: Int) {
        try FileSecurity.makePrivateDirectory(directory)
        var records = 0
        try read { db in
            for (name, select) in Self.csvTables {
                var out = ""
                out.reserveCapacity(1 << 20)
                let rows = try Row.fetchCursor(db, sql: select)
                var header: [String]?
                var atColumn = -1, offsetColumn = -1, stoppedColumn = -1
                let target = directory.appendingPathComponent("\(name).csv")
                let temp = directory.appendingPathComponent(".\(name).csv.\(getpid()).tmp")
                guard FileManager.default.createFile(atPath: temp.path, contents: nil, attributes: [.posixPermissions: 0o600]),
                      let handle = FileHandle(forWritingAtPath: temp.path) else { throw StoreError.io("cannot write \(temp.path)") }
                func flush(_ force: Bool) {
                    if force || out.utf8.count > 1 << 20 { handle.write(Data(out.utf8)); out.removeAll(keepingCapacity: true) }
                }
                let columns = try db.makeStatement(sql: select).columnNames
                header = columns.filter { $0 != "utc_offset" }
                atColumn = name == "record" ? columns.firstIndex(of: "at")! : -1
                offsetColumn = name == "record" ? columns.firstIndex(of: "utc_offset")! : -1
                stoppedColumn = name == "medication" ? columns.firstIndex(of: "stopped_at")! : -1
                out += header!.joined(separator: ",") + "\r\n"
                while let row = try rows.next() {
                    var cells: [String] = []
                    for i in 0..<columns.count where i != offsetColumn {
                        let value = row[i] as DatabaseValue
                        if i == atColumn {
                            cells.append(RFC3339.format(seconds: row[i], offset: row[offsetColumn]))
                        } else if i == stoppedColumn, let t = row[i] as Int64? {
                            cells.append(RFC3339.format(seconds: t, offset: 0))
                        } else {
                            switch value.storage {
                            case .null: cells.append("")
                            case .int64(let v): cells.append(String(v))
                            case .double(let v): cells.append(DecimalFormat.shortest(v))
                            case .string(let s): cells.append(CSVText.cell(text: s))
                            case .blob: cells.append("")
                            }
                        }
                    }
                    out += cells.joined(separator: ",") + "\r\n"
                    if name == "record" { records += 1 }
                    flush(false)
                }
                flush(true)
                try handle.close()
                if rename(temp.path, target.path) != 0 {
                    try? FileManager.default.removeItem(at: temp)
                    throw StoreError.io("cannot write \(target.path)")
                }
            }
        }
        return (records, Self.csvTables.count)
    }

    /// Copies the attachment files the database refers to into `directory` as `<sha256>` (0600).
    public func copyAttachments(to directory: URL) throws -> Int {
        guard let store = attachments else { return 0 }
        try FileSecurity.makePrivateDirectory(directory)
        let hashes = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM attachment ORDER BY sha256") }
        var copied = 0
        for sha in hashes {
            let target = directory.appendingPathComponent(sha)
            if FileManager.default.fileExists(atPath: target.path) { continue }
            guard let data = FileManager.default.contents(atPath: store.url(for: sha).path) else { throw StoreError.attachmentUnreadable(path: store.url(for: sha).path) }
            guard FileManager.default.createFile(atPath: target.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw StoreError.io("cannot write \(target.path)")
            }
            copied += 1
        }
        return copied
    }
}

/// RFC 3339 instants with a given offset, without a formatter per call.
public enum RFC3339 {
    /// Any Int64 a file holds has an answer (years beyond 9999 are written out in full, which an import
    /// then refuses with the row's line); the sum with the offset saturates instead of trapping.
    public static func format(seconds: Int64, offset: Int) -> String {
        let (sum, overflow) = seconds.addingReportingOverflow(Int64(offset))
        let local = overflow ? (offset > 0 ? Int64.max : Int64.min) : sum
        let (q, r) = local.quotientAndRemainder(dividingBy: 86400)
        let day = Int(r < 0 ? q - 1 : q)
        let secs = Int(r < 0 ? r + 86400 : r)
        let d = LocalDate(dayNumber: day)
        let zone: String
        if offset == 0 { zone = "Z" } else {
            let a = abs(offset)
            zone = (offset < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a % 3600 / 60)
        }
        return "\(d)T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))\(zone)"
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
}

/// Doubles written as the shortest text that reads back to the same value.
enum DecimalFormat {
    static func shortest(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
