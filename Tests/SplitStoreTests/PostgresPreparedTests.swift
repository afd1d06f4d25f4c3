import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// PostgreSQL runs statements as named prepared statements (issue 16): prepared once a
/// connection, bound with the types they were prepared for, and never in the way of a result.
@Suite("PostgreSQL prepared statements")
struct PostgresPreparedTests {
    static var postgres: [Database.Backend] { TestDatabases.all.filter { $0 == .postgres } }

    /// Names of this session's prepared statements whose text is `sql`.
    static func prepared(_ sql: any SQLDatabase, text: String) async throws -> [String] {
        try await sql.raw("SELECT name FROM pg_prepared_statements WHERE statement = \(bind: text)").all()
            .map { try $0.decode(column: "name", as: String.self) }
    }

    @Test("a statement run again on a connection runs by the name it was prepared under", arguments: postgres)
    func preparedOnce(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let text = "SELECT $1::bigint + 1 AS n"
            let (answers, names) = try await database.transaction { sql in
                var answers: [Int] = []
                for value in [1, 41] {
                    answers.append(
                        try await sql.raw("SELECT \(bind: value)::bigint + 1 AS n").first()!.decode(column: "n", as: Int.self))
                }
                return (answers, try await Self.prepared(sql, text: text))
            }
            #expect(answers == [2, 42])
            #expect(names.count == 1)
            #expect(names.allSatisfy { $0.hasPrefix("splitter_") })
        }
    }

    @Test("one text bound with NULL, then with a value, into a narrower column: each works", arguments: postgres)
    func typesFollowBinds(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await database.transaction { try await $0.raw("CREATE TABLE t (id integer PRIMARY KEY, n integer)").run() }
            for (id, value) in [(1, Int64?.none), (2, 7), (3, nil), (4, 9)] {
                try await database.transaction { sql in
                    try await sql.raw("INSERT INTO t (id, n) VALUES (\(bind: Int64(id)), \(bind: value))").run()
                }
            }
            let rows = try await database.read { sql in
                try await sql.raw("SELECT id, n FROM t WHERE n IS NOT NULL OR id > \(bind: Int64(0)) ORDER BY id").all()
                    .map { [try $0.decode(column: "id", as: Int.self), try $0.decode(column: "n", as: Int?.self)] }
            }
            #expect(rows == [[1, nil], [2, 7], [3, nil], [4, 9]])
        }
    }

    @Test("a statement with more binds than the limit runs unnamed", arguments: postgres)
    func manyBindsUnnamed(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let values = (0...PreparedNames.maxBinds).map { Int64($0) }
            let (count, names) = try await database.transaction { sql in
                let list = SQLList(values.map { SQLBind($0) })
                let count = try await sql.raw("SELECT cardinality(ARRAY[\(list)]::bigint[]) AS n").first()!
                    .decode(column: "n", as: Int.self)
                let named = try await sql.raw("SELECT name, statement FROM pg_prepared_statements").all()
                    .filter { try $0.decode(column: "statement", as: String.self).hasPrefix("SELECT cardinality") }
                return (count, named.count)
            }
            #expect(count == values.count)
            #expect(names == 0)
        }
    }

    @Test("a statement that failed to prepare (its table did not exist yet) runs once the table does", arguments: postgres)
    func failedPreparation(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let read: @Sendable () async throws -> Int = {
                try await database.read { sql in
                    try await sql.raw("SELECT count(*) AS n FROM later WHERE id > \(bind: Int64(0))").first()!
                        .decode(column: "n", as: Int.self)
                }
            }
            for _ in 0..<4 {
                await #expect(throws: (any Error).self) { try await read() }
            }
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE later (id integer PRIMARY KEY)").run()
                try await sql.raw("INSERT INTO later VALUES (1), (2)").run()
            }
            for _ in 0..<8 { #expect(try await read() == 2) }
        }
    }

    @Test("a preparation that timed out waiting for another server's lock does not stay that name's answer", arguments: postgres)
    func lockTimeoutWhilePreparing(_ backend: Database.Backend) async throws {
        let (refused, answers) = try await TestDatabases.withTwo(backend) { database, other in
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE busy (id integer PRIMARY KEY)").run()
                try await sql.raw("INSERT INTO busy VALUES (1)").run()
            }
            let read: @Sendable (_ wait: String) async throws -> Int = { wait in
                try await database.transaction { sql in
                    try await sql.raw("SELECT set_config('lock_timeout', \(bind: wait), true)").run()
                    return try await sql.raw("SELECT count(*) AS n FROM busy WHERE id > \(bind: Int64(0))").first()!
                        .decode(column: "n", as: Int.self)
                }
            }
            // Another server's migration holds the table while the statement is first
            // prepared, on every connection of the pool: preparing it times out (55P03).
            let (locked, release) = AsyncStream.makeStream(of: Void.self)
            let (done, finish) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await other.transaction { sql in
                    try await sql.raw("LOCK TABLE busy IN ACCESS EXCLUSIVE MODE").run()
                    release.yield()
                    for await _ in done { break }
                }
            }
            for await _ in locked { break }
            var refused = 0
            for _ in 0..<6 {
                do { _ = try await read("50ms") } catch { refused += 1 }
            }
            finish.finish()
            try await holder.value
            var answers: [Int] = []
            for _ in 0..<8 { answers.append(try await read("5s")) }
            return (refused, answers)
        }
        #expect(refused == 6)
        #expect(answers == Array(repeating: 1, count: 8))
    }

    @Test("after another server adds a column, a prepared SELECT * fails once and then reads the new shape", arguments: postgres)
    func schemaChange(_ backend: Database.Backend) async throws {
        let (failures, columns) = try await TestDatabases.withTwo(backend) { database, other in
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE wide (id integer PRIMARY KEY)").run()
                try await sql.raw("INSERT INTO wide VALUES (1)").run()
            }
            // Prepared on each connection of the pool that reads it.
            let read: @Sendable () async throws -> [String] = {
                try await database.transaction { sql in
                    try await sql.raw("SELECT * FROM wide WHERE id = \(bind: Int64(1))").first()!.allColumns
                }
            }
            for _ in 0..<3 { #expect(try await read() == ["id"]) }
            try await other.transaction { try await $0.raw("ALTER TABLE wide ADD COLUMN note text").run() }
            var failures = 0
            var columns: [String] = []
            for _ in 0..<3 {
                do {
                    columns = try await read()
                } catch {
                    failures += 1
                }
            }
            return (failures, columns)
        }
        #expect(failures <= 1)
        #expect(columns == ["id", "note"])
    }

    @Test(
        "a list of ids finds exactly its rows; on PostgreSQL lists up to the bind limit are one prepared statement",
        arguments: TestDatabases.all)
    func idLists(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let ids = (0..<150).map { "r" + String(1000 + $0) }
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE listed (id text PRIMARY KEY, n integer NOT NULL)").run()
                try await MultiRowInsert.run(
                    "INSERT INTO listed (id, n)", ids.enumerated().map { [$0.element, Int64($0.offset)] }, on: sql)
            }
            let lists: [[String]] = [
                [], ["r1007"], Array(ids[10..<80]), ids, ids + ["absent", "r1003"], ["absent"],
                Array(ids[0..<PreparedNames.maxBinds]), Array(ids[1...PreparedNames.maxBinds]) + ["absent"],
                (0..<PreparedNames.maxBinds + 40).map { "r" + String(1000 + $0 * 3 % 150) },
            ]
            let (found, written, statements) = try await database.transaction { sql in
                var found: [Set<String>] = []
                var written: [String] = []
                for list in lists {
                    let rows = try await sql.select().column("id").from("listed").where(OneOf("id", list)).all()
                    found.append(Set(try rows.map { try $0.decode(column: "id", as: String.self) }))
                    var serializer = SQLSerializer(database: sql)
                    OneOf("id", list).serialize(to: &serializer)
                    let asArray = serializer.sql == #""id" = ANY($1)"# && serializer.binds.count == 1
                    let asList = serializer.sql.hasPrefix(#""id" IN ("#) && serializer.binds.count == list.count
                    written.append(asArray ? "array" : asList ? "list" : serializer.sql)
                }
                guard backend == .postgres else { return (found, written, [String]()) }
                let statements = try await sql.raw("SELECT statement FROM pg_prepared_statements").all()
                    .map { try $0.decode(column: "statement", as: String.self) }
                return (found, written, statements.filter { $0.contains("\"listed\"") })
            }
            #expect(found == lists.map { Set($0).intersection(ids) })
            // Up to the bind limit one array on PostgreSQL; longer lists, and every list on SQLite, one bind a value.
            #expect(written == lists.map { backend == .postgres && $0.count <= PreparedNames.maxBinds ? "array" : "list" })
            if backend == .postgres {
                #expect(statements == [#"SELECT "id" FROM "listed" WHERE "id" = ANY($1)"#])
            }
        }
    }

    @Test("an id column reads as the id it holds in either case, and a malformed or missing one is a clear error",
          arguments: TestDatabases.all)
    func idColumns(_ backend: Database.Backend) async throws {
        let id = UUID.random()
        let (read, errors) = try await TestDatabases.with(backend) { database in
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE ids (n integer PRIMARY KEY, id text, other text)").run()
                try await sql.raw(
                    """
                    INSERT INTO ids (n, id, other) VALUES (1, \(bind: id.text), 'x'), (2, \(bind: id.uuidString), 'x'),
                           (3, 'nope', 'x'), (4, NULL, 'x')
                    """
                ).run()
            }
            return try await database.read { sql in
                let rows = try await sql.raw("SELECT * FROM ids ORDER BY n").all()
                var errors: [String] = []
                for row in rows.dropFirst(2) {
                    do {
                        _ = try row.decodeUUID("id")
                    } catch {
                        errors.append(String(describing: error))
                    }
                }
                do {
                    _ = try rows[0].decodeUUID("absent")
                } catch {
                    errors.append(String(describing: error))
                }
                // As text, each reads back exactly as written: a lower-case id (which SQLite rows
                // keep as its bytes), an upper-case one, and a text that is no id; by a line of
                // their own and through a `Decoder`.
                for (row, text) in zip(rows, [id.text, id.uuidString, "nope"]) {
                    #expect(try row.decode(column: "id", as: String.self) == text)
                    #expect(try row.decode(column: "id", as: String?.self) == text)
                    #expect(try row.decode(column: "id", as: Wrapped.self) == Wrapped(text: text))
                }
                #expect(try rows[3].decode(column: "id", as: String?.self) == nil)
                return ([try rows[0].decodeUUID("id"), try rows[1].decodeUUID("id")], errors)
            }
        }
        #expect(read == [id, id])
        #expect(errors.count == 3)
        #expect(errors.first?.contains("id is not a UUID: nope") == true, "\(errors)")
    }
}

/// A text read through a `Decoder` rather than a row's own line for `String`.
private struct Wrapped: Decodable, Equatable {
    let text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
}
