import SQLKit
import SplitTestSupport
import Testing

@testable import SplitStore

/// `Database.ping` (GET /health) takes a recent answer as proof the database answers, and asks
/// it otherwise (issue 16: a probe must not queue behind a busy pool).
@Suite("The health check's database ping")
struct HealthPingTests {
    static func pings(_ database: Database) -> Int {
        database.sqliteStatementStatistics().filter { $0.sql.hasPrefix("SELECT 1") }.map(\.runs).reduce(0, +)
    }

    @Test("a ping within a second of an answer runs nothing; later it asks; after close it fails at once")
    func recentAnswer() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { configuration in
            let database = try await Database.open(configuration, logger: TestDatabases.logger)
            let outcome: Result<[Int], any Error>
            do {
                try await database.ping()  // nothing answered since opening: it asks
                let first = Self.pings(database)
                try await database.transaction { try await $0.raw("CREATE TABLE t (n INTEGER)").run() }
                try await database.ping()
                let afterAnswer = Self.pings(database)
                try await Task.sleep(for: .milliseconds(1_100))
                try await database.ping()
                outcome = .success([first, afterAnswer, Self.pings(database)])
            } catch {
                outcome = .failure(error)
            }
            try await database.close()
            await #expect(throws: (any Error).self) { try await database.ping() }
            #expect(try outcome.get() == [1, 1, 2])
        }
    }
}
