import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit
import SplitCore
import Synchronization

/// PostgreSQL through PostgresNIO, with rows that read their columns cheaply (issue 16).
/// PostgresKit's `SQLDatabase` hands each row over as a copy with every column looked up by name
/// twice and decoded through a generic translation that builds a coding path per value: a third
/// of a page of expenses' server CPU (`perf`). Here a result's column names are read once and
/// shared by its rows; text, integers and booleans are read from their bytes, other types by
/// PostgresNIO; what neither decodes, and every error, goes to PostgresKit's decoding, so values
/// and errors are what they were.
///
/// SQL is serialized with PostgresKit's dialect. Binds are values PostgresNIO encodes (text,
/// integers, booleans, reals, optionals of them, and lists of text for `OneOf`); anything else is
/// refused, where PostgresKit would have sent it as JSON (the stores bind nothing else).
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
        return database.withConnection { Self.unnamed(sql, bindings, on: $0, onRow) }
    }

    /// Statements run as named prepared statements, prepared on a connection the first time it
    /// sees them: PostgreSQL then neither parses nor plans them again (planning was 0.40 ms of
    /// PostgreSQL's 1.67 ms of CPU per create, `pg_stat_statements`; docs/benchmarks.md).
    /// Statements with many binds (a feed page's list of 1,000 ids), and any the registry has no
    /// room for, run unnamed; a list of up to 64 ids is one bind (`OneOf`). A read off the pool
    /// runs on the connection it takes, in a task that prefers that connection's event loop, as a
    /// transaction does.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        logger.debug("Executing query", metadata: ["sql": .string(sql)])
        let bindings = try Self.bindings(binds)
        guard let name = PreparedNames.shared.name(for: sql, binds: binds) else {
            return try await database.withConnection { Self.unnamed(sql, bindings, on: $0, onRow) }.get()
        }
        let statement = NamedRun(name: name, sql: sql, binds: binds, bindings: bindings)
        if let connection = database as? PostgresConnection {
            return try await statement.run(on: connection, onRow)
        }
        try await database.withConnection { connection in
            let promise = connection.eventLoop.makePromise(of: Void.self)
            Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
                do {
                    try await statement.run(on: connection, onRow)
                    promise.succeed()
                } catch {
                    promise.fail(error)
                }
            }
            return promise.futureResult
        }.get()
    }

    private static func unnamed(
        _ sql: String, _ bindings: PostgresBindings, on connection: PostgresConnection,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) -> EventLoopFuture<Void> {
        let columns = ColumnsOnce()
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: connection.logger) { row in
            onRow(PostgresSQLRow(row: row, columns: columns.of(row)))
        }.map { _ in }
    }

    /// One statement run by its name.
    private struct NamedRun: Sendable {
        /// Errors after which a statement's name is given up and its text gets a new one, prepared
        /// afresh (this run still fails; inside a transaction nothing more can run). PostgresNIO
        /// keeps a failed preparation as that name's answer on its connection for good, whatever
        /// failed it: an undefined table (class 42) that a migration has since made, a lock or
        /// statement timeout or a deadlock while another server's migration held the table. And
        /// "cached plan must not change result type" (0A000): such a migration changed a table
        /// this `SELECT *` reads. Only data exceptions (22) and integrity violations (23) keep the
        /// name: they come from running a statement, never from preparing it.
        static func forgets(_ error: PSQLError) -> Bool {
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return !state.hasPrefix("22") && !state.hasPrefix("23")
        }

        let name: String
        let sql: String
        let binds: [any Encodable & Sendable]
        let bindings: PostgresBindings

        func run(on connection: PostgresConnection, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
            let rows: AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
            do {
                rows = try await NamedStatement.$current.withValue((name, sql)) {
                    try await connection.execute(NamedStatement(bindings: bindings), logger: connection.logger)
                }
            } catch let error as PSQLError where Self.forgets(error) {
                PreparedNames.shared.forget(sql, binds: binds)
                throw error
            }
            let columns = ColumnsOnce()
            for try await row in rows { onRow(PostgresSQLRow(row: row, columns: columns.of(row))) }
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

/// A statement run by name (`PostgresSQL.execute`). PostgresNIO names a prepared statement by its
/// type, with the name and text as static members, and reads them in the calling task before it
/// sends anything; our statements are made at run time, so the two are bound for the call as a
/// task-local value.
private struct NamedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow
    @TaskLocal static var current: (name: String, sql: String) = ("", "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// The names of the statements run by name, one per SQL text and Swift types of its binds (so a
/// name is always prepared with the parameter types it is bound with: a NULL leaves its type to
/// PostgreSQL, a value does not). Shared by all connections; each prepares a name on first use.
final class PreparedNames: Sendable {
    static let shared = PreparedNames()
    /// Statements with more binds are one-offs (an `IN` list as long as a feed page). A create's
    /// spending rows stay under it up to 14 rows of 7 values (14 sharers, or 13 and a payer who
    /// does not share); bigger writes (an edit that moves an expense's date, a batch) run unnamed.
    static let maxBinds = 100
    /// Names given at most (a few hundred statements, and one more each time a preparation
    /// fails); past it, statements without a name run unnamed.
    static let capacity = 2_048

    /// The name of each statement, and how many names were ever given (a forgotten name is not
    /// given again: a connection may still hold its failed preparation).
    private let names = Mutex<(byKey: [String: String], issued: Int)>(([:], 0))

    func name(for sql: String, binds: [any Encodable & Sendable]) -> String? {
        guard binds.count <= Self.maxBinds else { return nil }
        let key = Self.key(sql, binds)
        return names.withLock { names in
            if let name = names.byKey[key] { return name }
            guard names.issued < Self.capacity else { return nil }
            let name = "splitter_\(names.issued)"
            names.issued += 1
            names.byKey[key] = name
            return name
        }
    }

    /// The statement gets a new name the next time it runs.
    func forget(_ sql: String, binds: [any Encodable & Sendable]) {
        let key = Self.key(sql, binds)
        _ = names.withLock { $0.byKey.removeValue(forKey: key) }
    }

    private static func key(_ sql: String, _ binds: [any Encodable & Sendable]) -> String {
        var key = ""
        for bind in binds {
            let value = (bind as? any OptionalBind).map { $0.wrapped } ?? bind
            key += value.map { String(reflecting: type(of: $0)) } ?? "nil"
            key += ","
        }
        return key + "\u{0}" + sql
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
        if let index = columns.index(of: column) {
            // Not `try?`: an optional of a type known only here is made at run time, per value.
            do { return try Self.decode(D.self, cells[index]) } catch {}
        }
        // Anything else (and every error) as PostgresKit decodes it.
        return try row.sql().decode(column: column, as: D.self)
    }

    /// The types rows are read as most, straight from the cell's bytes (PostgresNIO's own
    /// decoding instantiates generic metadata for each value: a quarter of a change-feed page's
    /// CPU); others, and other column types, by PostgresNIO through a `Decoder`. Each type is
    /// read by its own line, with no generic helper: a helper's optional of its type parameter
    /// was made at run time for every value (`perf`, issue 16).
    private static func decode<D: Decodable>(_ type: D.Type, _ cell: PostgresCell) throws -> D {
        let unsupported = PostgresCellDecoder.Unsupported()
        let bytes = cell.bytes
        switch ObjectIdentifier(D.self) {
        case ObjectIdentifier(String.self):
            guard let bytes, let value = cell.text(bytes) else { throw unsupported }
            return unsafeBitCast(value, to: D.self)
        case ObjectIdentifier(StoredID.self):
            guard let bytes, cell.isText, let uuid = bytes.withUnsafeReadableBytes({ UUID(utf8: $0) }) else {
                throw unsupported
            }
            return unsafeBitCast(StoredID(uuid: uuid), to: D.self)
        case ObjectIdentifier(Int64.self):
            guard let bytes, let value = cell.integer(bytes) else { throw unsupported }
            return unsafeBitCast(value, to: D.self)
        case ObjectIdentifier(Int.self):
            guard let bytes, let value = cell.integer(bytes) else { throw unsupported }
            return unsafeBitCast(Int(value), to: D.self)
        case ObjectIdentifier(Bool.self):
            guard let bytes, let value = cell.bool(bytes) else { throw unsupported }
            return unsafeBitCast(value, to: D.self)
        case ObjectIdentifier(String?.self):
            guard let bytes else { return unsafeBitCast(String?.none, to: D.self) }
            guard let value = cell.text(bytes) else { throw unsupported }
            return unsafeBitCast(String?.some(value), to: D.self)
        case ObjectIdentifier(Int64?.self):
            guard let bytes else { return unsafeBitCast(Int64?.none, to: D.self) }
            guard let value = cell.integer(bytes) else { throw unsupported }
            return unsafeBitCast(Int64?.some(value), to: D.self)
        case ObjectIdentifier(Int?.self):
            guard let bytes else { return unsafeBitCast(Int?.none, to: D.self) }
            guard let value = cell.integer(bytes) else { throw unsupported }
            return unsafeBitCast(Int?.some(Int(value)), to: D.self)
        case ObjectIdentifier(PackedRecords.self):
            guard bytes == nil || (cell.format == .binary && cell.dataType.rawValue == PackedRecords.recordArrayType)
            else { throw unsupported }
            return unsafeBitCast(PackedRecords(bytes), to: D.self)
        default: return try D(from: PostgresCellDecoder(cell: cell))
        }
    }
}

extension PostgresCell {
    /// Whether the cell is a text column's, in binary format (UTF-8, as sent).
    fileprivate var isText: Bool {
        format == .binary && (dataType == .text || dataType == .varchar || dataType == .name)
    }

    /// Text of a text column.
    fileprivate func text(_ bytes: ByteBuffer) -> String? {
        guard isText else { return nil }
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
