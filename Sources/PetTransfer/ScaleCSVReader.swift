import Foundation
import PetModel
import PetStoreCore

/// One pet's weights from a smart scale's or a spreadsheet's CSV.
///
/// Columns come from `--columns` (names in order, `-` skips one) or from the header: a date column
/// (`date`, `time`, `datetime`, `timestamp`, `measured_at`) and a weight column (`weight`, `weight_kg`,
/// `Weight (lb)`, `grams`…); an optional separate `time` column joins the date. A first row whose
/// weight is not a number is the header, and gives the unit even with `--columns`. Units: the header's
/// (or a `--columns` role such as `weight_kg`), else `--weight-unit`, else one in each cell
/// (`4.2 kg`). Times: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`, `YYYY/MM/DD …`, or RFC 3339 with an offset.
enum ScaleCSVReader {
    /// Without `pet`, the columns are still found first (a file that is no table says so), then `--pet` is asked for.
    static func read(bytes: [UInt8], file: String, pet: PetRef?, options: ImportOptions) throws -> ImportBatch {
        var batch = ImportBatch()
        var converter = LocalTimeConverter(timeZone: options.timeZone)
        var r = CSVReader(sniffing: bytes, file: file, delimiter: options.delimiter)
        let order = try options.dateOrder ?? dateOrder(bytes: bytes, file: file, delimiter: r.delimiter)
        guard try r.next() else { throw ImportError(file: r.file, line: 0, problem: .noRows) }
        var cDate: Int, cTime: Int?, cWeight: Int, unit = options.unit
        var firstIsData = false
        var fieldCount: Int?  // a header fixes the number of fields
        if let columns = options.columns?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let d = columns.firstIndex(where: { ["date", "datetime", "time", "at", "timestamp"].contains($0) && $0 != "time" } ) ?? columns.firstIndex(of: "time"),
                  let w = columns.firstIndex(where: { $0.hasPrefix("weight") || $0 == "grams" || $0 == "kg" || $0 == "lb" }) else {
                throw ImportError(file: r.file, line: 0, problem: .missingColumn(columns.contains(where: { $0.hasPrefix("weight") }) ? "date" : "weight"))
            }
            cDate = d; cWeight = w
            cTime = columns[d] != "time" ? columns.firstIndex(of: "time") : nil
            let name = columns[w]
            if unit == nil { unit = ["weight_kg": .kilogram, "kg": .kilogram, "weight_lb": .pound, "lb": .pound, "weight_g": .gram, "grams": .gram][name] }
            firstIsData = r.count > w && (r.decimal(w) != nil || (try? Mass.parse((try? r.text(w)) ?? "", defaultUnit: unit)) != nil)
            // `--columns` names the roles; a header row still gives the unit, in any language (`Weight (kg)`, `Gewicht (kg)`, `体重_g`).
            if !firstIsData, r.count > w, let cell = try? r.text(w), let headerUnit = SpreadsheetTables.unit(inAnyHeader: cell) {
                unit = headerUnit
            }
        } else {
            let h = try Header(r)
            fieldCount = h.names.count
            guard let d = h.find("datetime", "timestamp", "measured_at", "date", "time", "at", "datum", "fecha", "날짜", "日付") else {
                throw ImportError(file: r.file, line: 1, problem: .missingColumnWithSeparator("date", separator: r.delimiterName, found: h.names))
            }
            cDate = d
            cTime = h.names[d] == "date" ? h.find("time") : nil
            guard let (w, headerUnit) = try? SpreadsheetTables.weightColumn(h, fallback: nil) else {
                throw ImportError(file: r.file, line: 1, problem: .missingColumnWithSeparator("weight", separator: r.delimiterName, found: h.names))
            }
            cWeight = w
            unit = headerUnit ?? unit
        }
        guard let pet else { throw ImportError(file: file, line: 0, problem: .needsPet) }
        batch.pets = [.existing(pet)]
        if !firstIsData { guard try r.next() else { throw ImportError(file: r.file, line: 0, problem: .noRows) } }
        batch.weights.reserve(r.bytes.count / 20)
        repeat {
            if let n = fieldCount, r.count != n { throw ImportError(location: r.location, problem: .wrongFieldCount(expected: n, found: r.count)) }
            guard r.count > max(cDate, cWeight, cTime ?? 0) else {
                throw ImportError(location: r.location, problem: .wrongFieldCount(expected: max(cDate, cWeight, cTime ?? 0) + 1, found: r.count))
            }
            // A multi-metric scale writes rows with no weight (body fat or water only): skipped and counted.
            if (try r.text(cWeight))?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                batch.skippedWithoutWeight += 1
                continue
            }
            let at: Int64, offset: Int
            if cTime == nil, let local = r.localDateTime(cDate) {  // the common case, read from the bytes
                (at, offset) = converter.instant(local: local + (r.fields[cDate].count == 10 ? 12 * 3600 : 0))
            } else {
                var text = try r.text(cDate) ?? ""
                if let t = cTime, let time = try r.text(t) { text += " " + time }
                (at, offset) = try instant(text, &converter, r, order: order)
            }
            if unit == nil && r.decimal(cWeight) != nil { throw ImportError(location: r.location, problem: .needsUnit) }
            let grams = try SpreadsheetTables.grams(r, cWeight, unit)
            try options.checkWeight(at: at, utcOffset: offset, location: r.location)
            batch.weights.append(pet: 0, at: at, utcOffset: offset, grams: grams)
        } while try r.next()
        return batch
    }

    /// `11/03/2026 08:00` (or with dots) as `2026-11-03 08:00` or `2026-03-11 08:00` by `order`; other text as it is.
    static func isoDate(_ raw: String, order: DateOrder) -> String {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let (a, b, y, rest) = slashDate(text), order != .ymd else { return text }
        let (m, d) = order == .mdy ? (a, b) : (b, a)
        return String(format: "%04d-%02d-%02d", y, m, d) + rest
    }

    /// `A/B/YYYY…` or `A.B.YYYY…` (one or two digits each): the parts and what follows the year.
    static func slashDate(_ text: String) -> (Int, Int, Int, String)? {
        let head = text.prefix { $0 != " " && $0 != "T" }
        let parts = head.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "." }
        guard parts.count == 3, (1...2).contains(parts[0].count), (1...2).contains(parts[1].count), parts[2].count == 4,
              let a = Int(parts[0]), let b = Int(parts[1]), let y = Int(parts[2]) else { return nil }
        return (a, b, y, String(text.dropFirst(head.count)))
    }

    /// The day/month order of a file's slashed dates: the only one every date allows, else refused with a
    /// line naming the first date that could be read both ways (`--date-format` decides then).
    static func dateOrder(bytes: [UInt8], file: String, delimiter: UInt8) throws -> DateOrder {
        var r = CSVReader(bytes: bytes, file: file, delimiter: delimiter)
        var mdy = true, dmy = true, sawSlashed = false
        var firstAmbiguous: (String, SourceLocation)?
        while try r.next() {
            for i in 0..<r.count {
                guard let cell = try? r.string(i), let (a, b, _, _) = slashDate(cell.trimmingCharacters(in: .whitespaces)) else { continue }
                sawSlashed = true
                if a > 12 || b < 1 || b > 31 { mdy = false }
                if b > 12 || a < 1 || a > 31 { dmy = false }
                if a <= 12 && b <= 12 && a != b && firstAmbiguous == nil { firstAmbiguous = (cell, r.location) }
            }
        }
        guard sawSlashed else { return .ymd }
        switch (mdy, dmy) {
        case (true, false): return .mdy
        case (false, true): return .dmy
        case (true, true):
            guard let (cell, location) = firstAmbiguous else { return .mdy }  // every date reads the same either way
            throw ImportError(location: location, problem: .ambiguousDate(cell))
        case (false, false): throw ImportError(file: file, line: 0, problem: .badTime("dd/mm/yyyy"))
        }
    }

    static func instant(_ raw: String, _ converter: inout LocalTimeConverter, _ r: CSVReader, order: DateOrder = .ymd) throws -> (Int64, Int) {
        let text = isoDate(raw, order: order).replacingOccurrences(of: "/", with: "-")
        let bytes = Array(text.utf8)
        if bytes.count == 19 || bytes.count == 16 || bytes.count == 10 {
            if let local = bytes.withUnsafeBufferPointer({ RFC3339.localSeconds($0, 0..<bytes.count) }) {
                return converter.instant(local: local + (bytes.count == 10 ? 12 * 3600 : 0))
            }
        }
        // RFC 3339 with an offset or Z.
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        if let date = f.date(from: text.replacingOccurrences(of: " ", with: "T")) { return (date.unixSeconds(), RFC3339.offset(text) ?? 0) }
        throw ImportError(location: r.location, problem: .badTime(raw))
    }
}
