import Foundation
import PetStoreCore
import PetStoreSQLite
import PetStorePostgres

extension StoreTestCase {
    /// `count` stores on one database, each with its own connection, as separate processes would have them
    /// (two `petlog serve`, or a server and the CLI): on SQLite one file (in a private folder removed after the
    /// test) opened `count` times; on PostgreSQL one new database of the run's server, connected `count` times.
    public func makeStoresOnOneDatabase(_ count: Int = 2, now: @escaping @Sendable () -> Date = { Date() }) throws -> [any PetlogStore] {
        if onServer {
            let server = try TestServer.shared()
            let name = try server.createMigratedDatabase()
            addTeardownBlock { try? server.dropDatabase(name) }
            return try (0..<count).map { _ in
                Store(try PostgresRepository(PostgresTarget.parse(TestServer.url(name), environment: [:]), now: now))
            }
        }
        let folder = NSTemporaryDirectory() + "petlog-test-one-database-" + UUID().uuidString
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try (0..<count).map { _ in Store(SQLiteRepository(try AppDatabase.open(path: folder + "/petlog.sqlite"), now: now)) }
    }
}
