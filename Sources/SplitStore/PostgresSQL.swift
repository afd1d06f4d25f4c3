import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through PostgresNIO, with rows that read their columns cheaply (issue 16).
/// PostgresKit's `SQLDatabase` hands each row over as a copy with every column looked up by name
/// twice and decoded through a generic translation that builds a coding path per value: a third
/// of a page of expenses' server CPU (`perf`). Here a result's column names are read once and
/// shared by its rows; text, integers and booleans are read from their bytes, other types by
/// PostgresNIO; what neither decodes, and every error, goes to PostgresKit's decoding, so values
/// and errors are what they were.
///
/// SQL is serialized with PostgresKit's dialect. Binds are values PostgresNIO encodes (text,
/// integers, booleans, reals, and optionals of them); anything else is refused, where PostgresKit
/// would have sent it as JSON (the stores bind nothing else).
struct PostgresSQL: SQLDatabase {
    let database: any PostgresDatabase

    var logger: Logger { database.logger }
    var eventLoop: any EventLoop { database.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { PostgresDialect() }
    var queryLogLevel: Logger.Level? { .debug }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        let (sql, binds) = serialize(query)
        logger.debug("Executing query", metadata: ["sql": .string(sql)])
        let bindings: PostgresBindings
        do {
            bindings = try Self.bindings(binds)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return database.withConnection { connection in
            let columns = ColumnsOnce()
            return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: connection.logger) { row in
                onRow(PostgresSQLRow(row: row, columns: columns.of(row)))
            }.map { _ in }
        }
    }

    func withSession<R: Sendable>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await database.withConnection { connection in
            connection.eventLoop.makeFutureWithTask { try await closure(PostgresSQL(database: connection)) }
        }.get()
    }

    static func bindings(_ binds: [any Encodable & Sendable]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds { try append(bind, to: &bindings) }
        return bindings
    }

    /// As PostgresKit: nil as NULL, a value PostgresNIO encodes as itself.
    private static func append<T: Encodable>(_ value: T, to bindings: inout PostgresBindings) throws {
        if let optional = value as? any OptionalBind {
            if let wrapped = optional.wrapped {
                try append(wrapped, to: &bindings)
            } else {
                bindings.appendNull()
            }
        } else if let direct = value as? any PostgresThrowingDynamicTypeEncodable {
            try bindings.append(direct, context: .default)
        } else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(T.self) is not a PostgreSQL value"))
        }
    }
}

/// An optional bind: nil, or the value PostgresNIO encodes (it has no encoding of optionals).
private protocol OptionalBind {
    var wrapped: (any Encodable)? { get }
}

extension Optional: OptionalBind where Wrapped: Encodable {
    var wrapped: (any Encodable)? { self }
}

/// A result's column names, read from its first row and shared by the rest (the rows of one
/// result all have the same columns). Rows are handed over one after another on one event loop.
private final class ColumnsOnce: @unchecked Sendable {
    private var columns: ResultColumns?

    func of(_ row: PostgresRow) -> ResultColumns {
        if let columns { return columns }
        // PostgresNIO's own look-up takes the last of two columns with one name.
        let made = ResultColumns(names: row.map(\.columnName), lastWins: true)
        columns = made
        return made
    }
}

private struct PostgresSQLRow: SQLRow {
    let row: PostgresRow
    let cells: PostgresRandomAccessRow
    let columns: ResultColumns

    init(row: PostgresRow, columns: ResultColumns) {
        self.row = row
        self.cells = row.makeRandomAccess()
        self.columns = columns
    }

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index(of: column) != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.index(of: column) else { return true }
        return cells[index].bytes == nil
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        if let index = columns.index(of: column), let value = try? Self.decode(D.self, cells[index]) {
            return value
        }
        // Anything else (and every error) as PostgresKit decodes it.
        return try row.sql().decode(column: column, as: D.self)
    }

    /// The types rows are read as most, straight from the cell's bytes (PostgresNIO's own
    /// decoding instantiates generic metadata for each value: a quarter of a change-feed page's
    /// CPU); others, and other column types, by PostgresNIO through a `Decoder`.
    private static func decode<D: Decodable>(_ type: D.Type, _ cell: PostgresCell) throws -> D {
        func optional<V>(_ read: (ByteBuffer) -> V?) throws -> D {
            guard let bytes = cell.bytes else { return unsafeBitCast(V?.none, to: D.self) }
            guard let value = read(bytes) else { throw PostgresCellDecoder.Unsupported() }
            return unsafeBitCast(V?.some(value), to: D.self)
        }
        func value<V>(_ read: (ByteBuffer) -> V?) throws -> D {
            guard let bytes = cell.bytes, let value = read(bytes) else { throw PostgresCellDecoder.Unsupported() }
            return unsafeBitCast(value, to: D.self)
        }
        switch ObjectIdentifier(D.self) {
        case ObjectIdentifier(String.self): return try value(cell.text)
        case ObjectIdentifier(Int64.self): return try value(cell.integer)
        case ObjectIdentifier(Int.self): return try value { cell.integer($0).map(Int.init) }
        case ObjectIdentifier(Bool.self): return try value(cell.bool)
        case ObjectIdentifier(String?.self): return try optional(cell.text)
        case ObjectIdentifier(Int64?.self): return try optional(cell.integer)
        case ObjectIdentifier(Int?.self): return try optional { cell.integer($0).map(Int.init) }
        default: return try D(from: PostgresCellDecoder(cell: cell))
        }
    }
}

extension PostgresCell {
    /// Text of a text column in binary format (UTF-8, as sent).
    fileprivate func text(_ bytes: ByteBuffer) -> String? {
        guard format == .binary, dataType == .text || dataType == .varchar || dataType == .name else { return nil }
        return String(buffer: bytes)
    }

    /// An integer column in binary format (big-endian, as sent).
    fileprivate func integer(_ bytes: ByteBuffer) -> Int64? {
        guard format == .binary else { return nil }
        switch (dataType, bytes.readableBytes) {
        case (.int8, 8): return bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
        case (.int4, 4): return bytes.getInteger(at: bytes.readerIndex, as: Int32.self).map(Int64.init)
        case (.int2, 2): return bytes.getInteger(at: bytes.readerIndex, as: Int16.self).map(Int64.init)
        default: return nil
        }
    }

    fileprivate func bool(_ bytes: ByteBuffer) -> Bool? {
        guard format == .binary, dataType == .bool, bytes.readableBytes == 1 else { return nil }
        return bytes.getInteger(at: bytes.readerIndex, as: UInt8.self).map { $0 != 0 }
    }
}

/// One cell as a `Decoder` of a single value, decoded by PostgresNIO.
private struct PostgresCellDecoder: Decoder, SingleValueDecodingContainer {
    struct Unsupported: Error {}

    let cell: PostgresCell
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw Unsupported()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { cell.bytes == nil }
    func decode(_ type: Bool.Type) throws -> Bool { try cell.decode(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try cell.decode(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try cell.decode(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try cell.decode(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try cell.decode(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw Unsupported() }
    func decode(_ type: Int16.Type) throws -> Int16 { try cell.decode(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try cell.decode(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try cell.decode(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { throw Unsupported() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw Unsupported() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw Unsupported() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw Unsupported() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw Unsupported() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { throw Unsupported() }
}
