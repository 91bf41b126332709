import Foundation
import GRDB
import PetFiles
import PetModel
import PetStoreCore

/// How every connection to a petlog file is set up: foreign keys, the busy handler that waits within the
/// process's budget, and petlog's own SQL function (`petlog_fold`, the search index's folding).
extension AppDatabase {
    static func configuration(busy: BusyBudget) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .callback { tries in busy.waitOnce(tries: tries) }
        config.prepareDatabase { db in
            db.add(function: DatabaseFunction("petlog_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(fold)
            })
        }
        return config
    }

    /// `TextField.nameKey` (NFKC, trimmed, case-folded), with ASCII text done byte by byte: NFKC leaves
    /// ASCII as it is and case folding maps A–Z to a–z, and Foundation's folding was most of the time
    /// `search_index` takes to fill (tested against `nameKey`).
    static func fold(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            if b >= 0x80 { return TextField.nameKey(text) }
            bytes.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        // The ASCII part of `whitespacesAndNewlines`: tab, line feed, vertical tab, form feed, return, space.
        func blank(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        var low = 0, high = bytes.count
        while low < high && blank(bytes[low]) { low += 1 }
        while high > low && blank(bytes[high - 1]) { high -= 1 }
        return String(decoding: bytes[low..<high], as: UTF8.self)
    }
}
