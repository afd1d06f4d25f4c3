import Foundation
import SQLKit
import SplitStore
import SplitTestSupport
import Testing

/// The SQL layer under every store: values go in and come back unchanged, errors are reported
/// and leave the connection usable, on SQLite (our own binding to its C API) and PostgreSQL.
@Suite("SQL values and errors")
struct SQLValuesTests {
    static let table = """
        CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT, amount BIGINT, flag BOOLEAN NOT NULL, ratio DOUBLE PRECISION)
        """

    struct Row: Equatable {
        var id: Int64
        var name: String?
        var amount: Int64?
        var flag: Bool
        var ratio: Double?
    }

    static func insert(_ row: Row, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO t (id, name, amount, flag, ratio)
            VALUES (\(bind: row.id), \(bind: row.name), \(bind: row.amount), \(bind: row.flag), \(bind: row.ratio))
            """
        ).run()
    }

    static func rows(_ sql: any SQLDatabase) async throws -> [Row] {
        try await sql.raw("SELECT id, name, amount, flag, ratio FROM t ORDER BY id").all().map { row in
            Row(
                id: try row.decode(column: "id", as: Int64.self),
                name: try row.decode(column: "name", as: String?.self),
                amount: try row.decode(column: "amount", as: Int64?.self),
                flag: try row.decode(column: "flag", as: Bool.self),
                ratio: try row.decode(column: "ratio", as: Double?.self))
        }
    }

    @Test(
        "text, integers at their limits, booleans, reals and nulls come back as they went in",
        arguments: TestDatabases.all)
    func roundTrip(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            var written = [
                Row(id: 1, name: "", amount: 0, flag: false, ratio: 0),
                Row(id: 2, name: "naïve 🍜 ラーメン", amount: Int64.max, flag: true, ratio: 1.5),
                Row(id: 3, name: nil, amount: nil, flag: true, ratio: nil),
                Row(id: 4, name: "quote ' and \" and \\", amount: Int64.min, flag: false, ratio: -0.25),
                Row(id: 5, name: String(repeating: "long ", count: 10_000), amount: -1, flag: true, ratio: 1e300),
            ]
            if backend == .sqlite {
                // PostgreSQL text cannot hold NUL; SQLite's can, and nothing may cut it short.
                written.append(Row(id: 6, name: "before\u{0}after", amount: 6, flag: false, ratio: nil))
            }
            try await database.transaction { [written] sql in
                try await sql.raw(SQLQueryString(Self.table)).run()
                for row in written { try await Self.insert(row, sql) }
            }
            let read = try await database.read { try await Self.rows($0) }
            #expect(read == written)
        }
    }

    @Test("a unique violation is recognised, other constraint errors are not", arguments: TestDatabases.all)
    func uniqueViolation(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.transaction { try await $0.raw(SQLQueryString(Self.table)).run() }
            try await database.transaction { try await Self.insert(Row(id: 1, flag: true), $0) }
            let duplicate = await #expect(throws: (any Error).self) {
                try await database.transaction { try await Self.insert(Row(id: 1, flag: false), $0) }
            }
            #expect(duplicate.map(Database.isUniqueViolation) == true)
            let missingFlag = await #expect(throws: (any Error).self) {
                try await database.transaction { try await $0.raw("INSERT INTO t (id) VALUES (2)").run() }
            }
            #expect(missingFlag.map(Database.isUniqueViolation) == false)
            // The failed statements left the connection usable and changed nothing.
            #expect(try await database.read { try await Self.rows($0) } == [Row(id: 1, flag: true)])
        }
    }

    @Test("two statements in one query are refused, not half run", arguments: TestDatabases.all)
    func oneStatementPerQuery(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.transaction { try await $0.raw(SQLQueryString(Self.table)).run() }
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    try await sql.raw(
                        "INSERT INTO t (id, flag) VALUES (\(bind: Int64(1)), TRUE); INSERT INTO t (id, flag) VALUES (2, TRUE)"
                    ).run()
                }
            }
            #expect(try await database.read { try await Self.rows($0) }.isEmpty)
        }
    }

    @Test("decoding a column as the wrong type or a missing column throws", arguments: TestDatabases.all)
    func decodingErrors(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let row = try #require(
                try await database.read {
                    try await $0.raw("SELECT 'text' AS word, CAST(NULL AS TEXT) AS absent, CAST(7 AS BIGINT) AS seven")
                        .first()
                })
            #expect(throws: (any Error).self) { try row.decode(column: "word", as: Int64.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "word", as: Int64?.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "word", as: Bool.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "absent", as: String.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "absent", as: Int64.self) }
            if backend == .sqlite {
                // PostgresNIO reads an integer as its text; our SQLite rows keep the kinds apart.
                #expect(throws: (any Error).self) { try row.decode(column: "seven", as: String.self) }
            }
            #expect(throws: (any Error).self) { try row.decode(column: "missing", as: String.self) }
            #expect(try row.decode(column: "word", as: String.self) == "text")
            #expect(try row.decode(column: "absent", as: String?.self) == nil)
            #expect(try row.decode(column: "absent", as: Int64?.self) == nil)
            #expect(try row.decode(column: "seven", as: Int64?.self) == 7)
            #expect(try row.decode(column: "seven", as: Int.self) == 7)
            #expect(row.allColumns == ["word", "absent", "seven"])
        }
    }

    @Test(
        "every row of a result reads its own values; of two columns with one name SQLite reads the first, PostgreSQL the last; other types through their Decodable",
        arguments: TestDatabases.all)
    func sharedColumns(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let id = UUID()
            let rows = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT 1 AS n, 'a' AS twice, 'b' AS twice, \(bind: id.uuidString) AS id, CAST(2.5 AS DOUBLE PRECISION) AS real
                    UNION ALL
                    SELECT 2, 'c', 'd', \(bind: id.uuidString), CAST(NULL AS DOUBLE PRECISION)
                    """
                ).all()
            }
            #expect(try rows.map { try $0.decode(column: "n", as: Int.self) } == [1, 2])
            #expect(try rows.map { try $0.decode(column: "twice", as: String.self) }
                == (backend == .sqlite ? ["a", "c"] : ["b", "d"]))
            #expect(try rows.map { try $0.decode(column: "id", as: UUID.self) } == [id, id])
            #expect(try rows.map { try $0.decode(column: "real", as: Double?.self) } == [2.5, nil])
            #expect(try rows.map { try $0.decodeNil(column: "real") } == [false, true])
            #expect(rows.allSatisfy { $0.contains(column: "twice") && !$0.contains(column: "thrice") })
        }
    }

    @Test("hundreds of different statements, then the first again, give right answers", arguments: TestDatabases.all)
    func manyStatements(backend: Database.Backend) async throws {
        // More distinct texts than SQLite's statement cache holds, so it is emptied and refilled.
        try await TestDatabases.with(backend) { database in
            for round in 0..<2 {
                for count in 1...300 {
                    let values = (1...count).map(Int64.init)
                    var query = SQLQueryString("SELECT ")
                    for value in values {
                        query.appendInterpolation(bind: value)
                        query.appendLiteral(" + ")
                    }
                    query.appendInterpolation(bind: Int64(round))
                    query.appendLiteral(" AS total")
                    let sum = try await database.read { [query] sql in
                        try await sql.raw(query).first()?.decode(column: "total", as: Int64.self)
                    }
                    #expect(sum == values.reduce(0, +) + Int64(round))
                }
            }
        }
    }

    @Test(
        "columns are found by name in narrow and wide rows; of two with one name, the first",
        arguments: TestDatabases.all)
    func columnsByName(backend: Database.Backend) async throws {
        // SQLite looks a name up one by one in rows of up to 16 columns, in a dictionary above.
        try await TestDatabases.with(backend) { database in
            for width in [1, 2, 15, 16, 17, 40] {
                let select = (0..<width).map { "CAST(\($0 * 10) AS BIGINT) AS column_number_\($0)" }
                let row = try #require(
                    try await database.read { try await $0.raw(SQLQueryString("SELECT " + select.joined(separator: ", "))).first() })
                for index in (0..<width).reversed() {
                    #expect(try row.decode(column: "column_number_\(index)", as: Int64.self) == Int64(index * 10))
                    #expect(row.contains(column: "column_number_\(index)"))
                }
                #expect(!row.contains(column: "column_number_\(width)"))
                #expect(throws: (any Error).self) { try row.decode(column: "column_number_\(width)", as: Int64.self) }
            }
            if backend == .sqlite {
                // PostgresNIO's rows say nothing of which of two same-named columns they read.
                for width in [2, 20] {
                    let select = ["CAST(1 AS BIGINT) AS twice"] + (2..<width).map { "CAST(0 AS BIGINT) AS c\($0)" }
                        + ["CAST(2 AS BIGINT) AS twice"]
                    let row = try #require(
                        try await database.read { try await $0.raw(SQLQueryString("SELECT " + select.joined(separator: ", "))).first() })
                    #expect(try row.decode(column: "twice", as: Int64.self) == 1)
                }
            }
        }
    }
}
