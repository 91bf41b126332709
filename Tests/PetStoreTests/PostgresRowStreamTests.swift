import Foundation
import XCTest
import PetlogTestSupport
@testable import PetFiles
@testable import PetStoreCore
@testable import PetStoreSQLite
@testable import PetStorePostgres

/// `forEachRow` on PostgreSQL: rows reach the calling thread (never the event loop), a statement sent
/// from inside the row closure runs (it deadlocked when the closure ran on the event loop), and an
/// error thrown by the closure leaves the link usable.
final class PostgresRowStreamTests: XCTestCase, OnOneStore {
    static let onOneStore = "PostgreSQL: the link streaming rows to the calling thread"
    /// A table of `n` numbered rows on a new database.
    func numbers(_ n: Int) throws -> PostgresLink {
        let link = try connect(try requireServer().newDatabase())
        try link.query("CREATE SCHEMA petlog")
        try link.query("CREATE TABLE n (i bigint PRIMARY KEY, t text NOT NULL)")
        try link.query("INSERT INTO n SELECT g, 'row ' || g FROM generate_series(1, \(n)) AS g")
        try link.query("CREATE TABLE seen (i bigint PRIMARY KEY, total bigint NOT NULL)")
        return link
    }

    func testAStatementSentFromTheRowClosureRunsAndTheRowsGoOnInOrder() throws {
        // More rows than the stream lets wait (RowStream.limit) and than postgres-nio buffers, so the
        // read is still going on the server when the nested statements go out.
        let n = 50_000
        let link = try numbers(n)
        var next: Int64 = 1
        var columns: [String] = []
        try link.transaction(.write) {
            try link.forEachRow("SELECT i, t FROM n WHERE i >= ? ORDER BY i", [.int(1)], columns: { columns = $0 }) { values in
                XCTAssertEqual(values, [.int(next), .text("row \(next)")])
                if next % 5_000 == 1 {
                    // A read, a write, and a streamed read of its own, all on the same connection.
                    let total = try link.int("SELECT count(*) FROM n WHERE i <= ?", [.int(next)])
                    XCTAssertEqual(total, next)
                    try link.execute("INSERT INTO seen (i, total) VALUES (?, ?)", [.int(next), .int(total ?? -1)])
                    var inner = 0
                    try link.forEachRow("SELECT i FROM n WHERE i <= 3 ORDER BY i", [], columns: nil) { v in
                        inner += 1
                        XCTAssertEqual(v, [.int(Int64(inner))])
                        _ = try link.int("SELECT 1", [])
                    }
                    XCTAssertEqual(inner, 3)
                }
                next += 1
            }
        }
        XCTAssertEqual(next, Int64(n + 1), "every row, once, in order")
        XCTAssertEqual(columns, ["i", "t"])
        XCTAssertEqual(try link.int("SELECT count(*) FROM seen", []), 10)
        XCTAssertEqual(try link.int("SELECT sum(i - total)::bigint FROM seen", []), 0)
    }

    func testRowsArriveOnTheCallingThread() throws {
        let link = try numbers(3_000)
        let caller = pthread_self()
        var rows = 0
        try link.forEachRow("SELECT i FROM n ORDER BY i", [], columns: nil) { _ in
            XCTAssertTrue(pthread_equal(pthread_self(), caller) != 0, "row \(rows) on another thread")
            rows += 1
        }
        XCTAssertEqual(rows, 3_000)
    }

    func testAnErrorFromTheRowClosureIsItsOwnAndTheLinkGoesOn() throws {
        struct Enough: Error, Equatable {}
        let link = try numbers(100_000)
        var rows = 0
        XCTAssertThrowsError(try link.forEachRow("SELECT i FROM n ORDER BY i", [], columns: nil) { _ in
            rows += 1
            if rows == 700 { throw Enough() }
        }) { XCTAssertEqual($0 as? Enough, Enough()) }
        XCTAssertEqual(rows, 700)
        XCTAssertEqual(try link.int("SELECT count(*) FROM n", []), 100_000, "the connection serves the next statement")
        // A statement the server refuses is a fault, as before.
        XCTAssertThrowsError(try link.forEachRow("SELECT i / 0 FROM n", [], columns: nil) { _ in }) { error in
            guard case .server(let state, _)? = error as? PostgresFault else { return XCTFail("\(error)") }
            XCTAssertEqual(state, "22012")
        }
        XCTAssertEqual(try link.int("SELECT 2", []), 2)
    }

    func testNoRowsNoColumnsCall() throws {
        let link = try numbers(1)
        var heard = false
        try link.forEachRow("SELECT i FROM n WHERE i < 0", [], columns: { _ in heard = true }) { _ in XCTFail("no row") }
        XCTAssertFalse(heard, "the column names come before the first row, and there is none")
    }
}
