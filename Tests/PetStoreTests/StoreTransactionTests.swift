import Foundation
import XCTest
import PetlogTestSupport
import PetModel
@testable import PetStoreCore

/// `Store` is written once over the engine: each method opens its transaction, and a method called on the
/// store a transaction gives runs inside that same transaction (docs/architecture.md, "One store, two engines").
final class StoreTransactionTests: StoreTestCase {
    struct Abandon: Error {}

    func store() throws -> Store { try XCTUnwrap(try makeStore() as? Store) }

    func testAMethodCalledInsideAWriteIsPartOfIt() throws {
        let store = try store()
        _ = try store.addPet(PetDraft(name: "Coco", species: .dog))
        XCTAssertThrowsError(try store.write { s -> Void in
            let nabi = try s.addPet(PetDraft(name: "Nabi", species: .cat))
            XCTAssertEqual(try s.pets(includeArchived: false).map(\.name), ["Coco", "Nabi"], "the write reads what it wrote")
            _ = try s.archivePet(.id(nabi.id), reason: .rehomed, on: LocalDate(year: 2026, month: 1, day: 1)!)
            XCTAssertEqual(try s.pet(.name("Nabi")).archiveReason, .rehomed)
            throw Abandon()
        }) { XCTAssertTrue($0 is Abandon) }
        XCTAssertEqual(try store.pets(includeArchived: true).map(\.name), ["Coco"], "one transaction: the calls inside it went with it")
    }

    func testAWriteInsideAReadIsRefusedAndWritesNothing() throws {
        let store = try store()
        XCTAssertThrowsError(try store.read { s in try s.addPet(PetDraft(name: "Coco", species: .dog)) }) {
            XCTAssertEqual($0 as? StoreError, .constraint("a write inside a read transaction"))
        }
        XCTAssertEqual(try store.pets(includeArchived: true), [])
    }

    func testAStoreOutsideATransactionRunsNoStatement() throws {
        let store = try store()
        XCTAssertEqual(store.transaction, .none)
        XCTAssertThrowsError(try store.sql.rows("SELECT count(*) FROM pet", [SQLValue]())) {
            XCTAssertEqual($0 as? StoreError, .constraint("a statement outside a transaction"))
        }
        XCTAssertEqual(try store.read { s in try s.sql.int("SELECT count(*) FROM pet", [SQLValue]()) }, 0)
    }
}
