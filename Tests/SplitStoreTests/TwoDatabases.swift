import SplitTestSupport

@testable import SplitStore

extension TestDatabases {
    /// Two `Database`s on one new database, as two servers (or another process) would hold it,
    /// both closed after `body` whatever it threw.
    static func withTwo<T: Sendable>(
        _ backend: Database.Backend, _ body: (Database, Database) async throws -> T
    ) async throws -> T {
        try await withConfiguration(backend) { configuration in
            let database = try await Database.open(configuration, logger: logger)
            let other = try await Database.open(configuration, logger: logger)
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(database, other))
            } catch {
                outcome = .failure(error)
            }
            try? await database.close()
            try? await other.close()
            return try outcome.get()
        }
    }
}
