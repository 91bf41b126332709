import Foundation
import GRDB
import PetStoreCore

extension Row: StoredRow {
    func int64(_ column: String) -> Int64? { self[column] }
    func double(_ column: String) -> Double? { self[column] }
    func text(_ column: String) -> String? {
        String.fromDatabaseValue(self[column] as DatabaseValue)
    }
    func isNull(_ column: String) -> Bool { (self[column] as DatabaseValue).isNull }
    func describe(_ column: String) -> String {
        let stored: DatabaseValue = self[column]
        return stored.isNull ? "NULL" : "\(stored)"
    }
}
