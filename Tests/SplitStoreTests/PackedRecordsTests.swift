import Foundation
import NIOCore
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// `array_agg(ROW(…))` cells, read from PostgreSQL's binary format (issue 16): every value as
/// PostgreSQL sent it, and anything else refused with an error, never a wrong value or a crash.
@Suite("Packed records")
struct PackedRecordsTests {
    static var postgres: [Database.Backend] { TestDatabases.all.filter { $0 == .postgres } }

    /// The cell `packed` of the one row `select` returns.
    static func packed(_ database: Database, _ select: SQLQueryString) async throws -> PackedRecords {
        try await database.read { sql in
            try await sql.raw(select).first()!.decode(column: "packed", as: PackedRecords.self)
        }
    }

    @Test("ids, bigints at their ends, NULL and booleans read back as PostgreSQL holds them", arguments: postgres)
    func values(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let ids = (0..<3).map { _ in UUID() }
            let packed = try await Self.packed(
                database,
                """
                SELECT array_agg(ROW(v.id, v.n, v.p, v.b) ORDER BY v.k) AS packed FROM (VALUES
                    (1, \(bind: ids[0].text), \(bind: Int64.min), NULL::bigint, true),
                    (2, \(bind: ids[1].text), \(bind: Int64.max), \(bind: Int64(1_764_000_000_000)), false),
                    (3, \(bind: ids[2].text.uppercased()), \(bind: Int64(0)), \(bind: Int64(-1)), true)
                ) AS v(k, id, n, p, b)
                """)
            let read = try packed.map { fields in
                (try fields.uuid(), try fields.int64(), try fields.optionalInt64(), try fields.bool())
            }
            #expect(read.map(\.0) == ids)
            #expect(read.map(\.1) == [Int64.min, Int64.max, 0])
            #expect(read.map(\.2) == [nil, 1_764_000_000_000, -1])
            #expect(read.map(\.3) == [true, false, true])
        }
    }

    @Test("texts read back as PostgreSQL holds them; a NULL text or a field of another type is refused", arguments: postgres)
    func texts(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let names = ["", "Onsen ♨️", "“quoted” \\ 'and' more", String(repeating: "é", count: 3_000)]
            let packed = try await Self.packed(
                database,
                """
                SELECT array_agg(ROW(v.t) ORDER BY v.k) AS packed FROM (VALUES
                    (1, \(bind: names[0])), (2, \(bind: names[1])), (3, \(bind: names[2])), (4, \(bind: names[3]))
                ) AS v(k, t)
                """)
            #expect(try packed.map { try $0.text() } == names)
            let null = try await Self.packed(database, "SELECT array_agg(ROW(NULL::text)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try null.map { try $0.text() } }
            let number = try await Self.packed(database, "SELECT array_agg(ROW(7::bigint)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try number.map { try $0.text() } }
        }
    }

    @Test("no rows (NULL) and an empty array are no records", arguments: postgres)
    func empty(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let none = try await Self.packed(
                database, "SELECT (SELECT array_agg(ROW(1::bigint)) WHERE false) AS packed")
            #expect(try none.map { try $0.int64() }.isEmpty)
            let empty = try await Self.packed(
                database, "SELECT (array_agg(ROW(1::bigint)))[1:0] AS packed")
            #expect(try empty.map { try $0.int64() }.isEmpty)
        }
    }

    @Test("a field of another type, a text that is not an id, a NULL where none may be, or fields left unread: refused", arguments: postgres)
    func refused(_ backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let int4 = try await Self.packed(database, "SELECT array_agg(ROW(7::int4)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try int4.map { try $0.int64() } }
            let text = try await Self.packed(database, "SELECT array_agg(ROW('not an id'::text)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try text.map { try $0.uuid() } }
            let null = try await Self.packed(database, "SELECT array_agg(ROW(NULL::bigint)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try null.map { try $0.int64() } }
            #expect(try null.map { try $0.optionalInt64() } == [nil])
            let two = try await Self.packed(database, "SELECT array_agg(ROW(1::bigint, 2::bigint)) AS packed")
            #expect(throws: PackedRecords.Malformed.self) { try two.map { try $0.int64() } }
            #expect(throws: PackedRecords.Malformed.self) {
                try two.map { fields in (try fields.int64(), try fields.int64(), try fields.int64()) }
            }
            // A plain array is not one of records.
            await #expect(throws: (any Error).self) {
                try await Self.packed(database, "SELECT ARRAY[1::bigint] AS packed")
            }
        }
    }

    @Test("every cut of a well-formed array is refused, never misread")
    func cuts() throws {
        var whole = ByteBuffer()
        whole.writeInteger(Int32(1))  // one dimension
        whole.writeInteger(Int32(0))  // no NULLs
        whole.writeInteger(PackedRecords.recordType)
        whole.writeInteger(Int32(2))  // two elements
        whole.writeInteger(Int32(1))  // from 1
        for value in [Int64(-5), 9] {
            whole.writeInteger(Int32(4 + 4 + 4 + 8))
            whole.writeInteger(Int32(1))  // one field
            whole.writeInteger(UInt32(20))  // bigint
            whole.writeInteger(Int32(8))
            whole.writeInteger(value)
        }
        #expect(try PackedRecords(whole).map { try $0.int64() } == [-5, 9])
        for length in 0..<whole.readableBytes {
            let cut = whole.getSlice(at: 0, length: length)!
            #expect(throws: PackedRecords.Malformed.self, "cut at \(length)") {
                try PackedRecords(cut).map { try $0.int64() }
            }
        }
        var longer = whole
        longer.writeInteger(UInt8(0))
        #expect(throws: PackedRecords.Malformed.self) { try PackedRecords(longer).map { try $0.int64() } }
        // The SQLite side never has them.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PackedRecords.self, from: Data("[]".utf8)) }
    }
}
