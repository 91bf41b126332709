import Foundation
import GRDB
import PetStoreCore

extension Row: StoredRow {
    public func int64(_ column: String) -> Int64? { self[column] }
    public func double(_ column: String) -> Double? { self[column] }
    public func text(_ column: String) -> String? {
        String.fromDatabaseValue(self[column] as DatabaseValue)
    }
    public func isNull(_ column: String) -> Bool { (self[column] as DatabaseValue).isNull }
    public func describe(_ column: String) -> String {
        let stored: DatabaseValue = self[column]
        return stored.isNull ? "NULL" : "\(stored)"
    }
}
