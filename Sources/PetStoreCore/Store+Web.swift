import Foundation
import PetModel

/// What `petlog serve`'s pages read beside the CLI's reads (issue 44): the store's change marker, which keys the
/// server's caches of values derived from the household's data, and each pet's latest weights in one read.
public protocol WebRepository: Sendable {
    /// A text that differs after any write has been committed to the store, by this process or another (a CLI
    /// command, a second server): a value computed from reads made after the marker was read is current for as long
    /// as the marker stays the same. Nil where the engine has none: then nothing may be cached.
    func changeMarker() throws -> String?
    /// The latest `count` weights of each of `pets`, newest first (the latest time, then the highest id), read at
    /// once: the home page's last weight and the one before it, for every pet, without a query per pet.
    func latestWeights(pets: [Int64], count: Int) throws -> [Int64: [PetRecord]]
    /// Reads from now on on up to `connections` connections of their own, so that one reader need not wait for
    /// another's (the server's pages); each still sees every write committed before it. True when the engine does so
    /// (a SQLite file in WAL mode); false, and nothing changed, where it cannot (one server connection, a database in
    /// memory): then its calls must not be made side by side.
    func readConcurrently(connections: Int) -> Bool
}

extension Store {
    public func changeMarker() throws -> String? { try engine.changeMarker() }
    public func readConcurrently(connections: Int) -> Bool { engine.readConcurrently(connections: connections) }

    public func latestWeights(pets: [Int64], count: Int) throws -> [Int64: [PetRecord]] {
        guard !pets.isEmpty, count > 0 else { return [:] }
        return try read { s in
            var ids: [Int64] = []
            // One backward seek per pet in `record_pet_kind_at` (both engines plan the correlated subquery so).
            for chunk in stride(from: 0, to: pets.count, by: 500).map({ Array(pets[$0..<min($0 + 500, pets.count)]) }) {
                for row in try s.sql.rows("""
                    SELECT r.id FROM pet p JOIN record r ON r.id IN (SELECT x.id FROM record x WHERE x.pet_id = p.id AND x.kind = 'weight'
                                                                     ORDER BY x.at DESC, x.id DESC LIMIT \(count))
                    WHERE p.id IN (\(questionMarks(chunk.count)))
                    """, chunk) {
                    if let id = row[0].int { ids.append(id) }
                }
            }
            var out: [Int64: [PetRecord]] = [:]
            for r in try s.loadRecords(ids: ids) { if let p = r.petId { out[p, default: []].append(r) } }
            for (p, list) in out { out[p] = list.sorted { ($0.at, $0.id) > ($1.at, $1.id) } }
            return out
        }
    }
}

extension StoreEngine {
    /// No marker: the web's caches stay off (an engine that can tell when it was written to says so).
    public func changeMarker() throws -> String? { nil }
    /// One connection: reads wait their turn.
    public func readConcurrently(connections: Int) -> Bool { false }
}
