import Foundation
import Hummingbird
import PetlogTestSupport
import XCTest
@testable import PetServe

/// Hummingbird checks a router's routes (no two alike, parameters that can be told apart) only in a DEBUG build,
/// when it builds the responder. The tests' build has no DEBUG (`make test`'s TEST_BUILD, docs/testing.md), so
/// this test asks for the same check of `petlog serve`'s router in any build.
final class RouterDefinitionTests: StoreTestCase, @unchecked Sendable {
    override class var onOneStoreOnly: String? { "the routes are the same whatever the store" }

    func testServesRoutesPassHummingbirdsRouterCheck() throws {
        let store = try XCTUnwrap(try makeStore() as? SharedStore.Served)
        let server = PetServer(store: SharedStore(store), settings: ServeSettings(timeZone: TimeZone(identifier: "UTC")!))
        XCTAssertNoThrow(try server.router().validate())
    }
}
