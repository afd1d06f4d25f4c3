import Foundation
import SQLKit
@testable import SplitStore
import SplitTestSupport
import Testing

/// `WriteBatch`: writes sent together, one statement on PostgreSQL, one after another on SQLite.
@Suite("Write batches")
struct WriteBatchTests {
    static let tables = [
        "CREATE TABLE parent (id BIGINT PRIMARY KEY)",
        "CREATE TABLE child (id BIGINT PRIMARY KEY, parent_id BIGINT NOT NULL REFERENCES parent (id), n BIGINT NOT NULL)",
        "CREATE TABLE counts (k TEXT PRIMARY KEY, n BIGINT NOT NULL)",
    ]

    static func makeTables(_ database: Database) async throws {
        try await database.transaction { sql in
            for table in Self.tables { try await sql.raw(SQLQueryString(table)).run() }
            try await sql.raw("INSERT INTO counts (k, n) VALUES ('a', 10)").run()
        }
    }

    @Test(
        "every write is made, each returning write's values come back at its index, and a child may reference a parent written in the same batch",
        arguments: TestDatabases.all)
    func writesAndValues(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeTables(database)
            let values = try await database.transaction { sql in
                var batch = WriteBatch()
                let parents = batch.addReturning(
                    "INSERT INTO parent (id) VALUES (\(bind: Int64(1))), (\(bind: Int64(2))) RETURNING CAST(id AS TEXT) AS value")
                batch.add(
                    MultiRowInsert.statements(
                        "INSERT INTO child (id, parent_id, n)", [[Int64(7), Int64(1), Int64(70)], [Int64(8), Int64(2), Int64(80)]]))
                let upserted = batch.addReturning(
                    """
                    INSERT INTO counts (k, n) VALUES (\(bind: "a"), \(bind: Int64(5)))
                    ON CONFLICT (k) DO UPDATE SET n = counts.n + excluded.n RETURNING CAST(n AS TEXT) AS value
                    """)
                let none = batch.addReturning(
                    "UPDATE counts SET n = 0 WHERE k = \(bind: "nothing") RETURNING CAST(n AS TEXT) AS value")
                let values = try await batch.run(on: sql)
                return [values[parents].sorted(), values[1], values[upserted], values[none]]
            }
            #expect(values == [["1", "2"], [], ["15"], []])
            let children = try await database.read { sql in
                try await sql.raw("SELECT id, parent_id, n FROM child ORDER BY id").all().map {
                    [try $0.decode(column: "id", as: Int64.self), try $0.decode(column: "parent_id", as: Int64.self),
                     try $0.decode(column: "n", as: Int64.self)]
                }
            }
            #expect(children == [[7, 1, 70], [8, 2, 80]])
        }
    }

    @Test("a failing write fails the batch and its transaction leaves nothing", arguments: TestDatabases.all)
    func failure(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeTables(database)
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    var batch = WriteBatch()
                    batch.add("INSERT INTO parent (id) VALUES (\(bind: Int64(1)))")
                    // No parent 9: the foreign key refuses it.
                    batch.add("INSERT INTO child (id, parent_id, n) VALUES (1, \(bind: Int64(9)), 0)")
                    batch.add("UPDATE counts SET n = 99")
                    _ = try await batch.run(on: sql)
                }
            }
            let left = try await database.read { sql in
                (
                    try await sql.raw("SELECT COUNT(*) AS n FROM parent").first()?.decode(column: "n", as: Int64.self),
                    try await sql.raw("SELECT n FROM counts").first()?.decode(column: "n", as: Int64.self)
                )
            }
            #expect(left.0 == 0 && left.1 == 10)
        }
    }

    /// What the batch's rule (no write reads another's rows) guards against, shown: on PostgreSQL
    /// the writes are one statement, so a later one does not see an earlier one's rows; on SQLite
    /// they are statements one after another, so it does.
    @Test("on PostgreSQL the writes are one statement; on SQLite one after another", arguments: TestDatabases.all)
    func oneStatement(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Self.makeTables(database)
            let seen = try await database.transaction { sql in
                var batch = WriteBatch()
                batch.add("INSERT INTO parent (id) VALUES (\(bind: Int64(1)))")
                let count = batch.addReturning(
                    """
                    INSERT INTO counts (k, n) SELECT \(bind: "parents"), COUNT(*) FROM parent
                    RETURNING CAST(n AS TEXT) AS value
                    """)
                return try await batch.run(on: sql)[count]
            }
            #expect(seen == [backend == .postgres ? "0" : "1"])
        }
    }
}
