// Over 400 lines on purpose: every use of SQLite's C API (open, prepare, bind, step, column
// reads, the statement cache) sits in this one file, so nothing else touches raw pointers.

import CSQLiteSettings
import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SplitCore
import Synchronization
import VaporCSQLite

/// One SQLite connection as an `SQLDatabase`. Each statement runs synchronously on the calling
/// thread, from a cache of prepared statements. SQLite itself is sqlite-nio's build of it (the
/// `VaporCSQLite` module, every C function prefixed `sqlite_nio_`, so it never clashes with the
/// system SQLite that GRDB uses in the same test process).
///
/// Why not SQLiteNIO: it runs every statement on NIO's thread pool and resumes on an event loop,
/// so each statement cost three thread switches. A create is about twenty statements, and those
/// switches were most of its time (docs/benchmarks.md). Here a statement takes microseconds on
/// the caller's thread. `Database` runs every use under its lock, so one thread at a time uses
/// the connection and at most one task's thread is inside SQLite at once; `stateLock` makes that
/// a guarantee rather than a convention.
final class SQLiteHandle: SQLDatabase, @unchecked Sendable {
    let logger: Logger
    let eventLoop: any EventLoop
    var dialect: any SQLDialect { SQLiteSyntax() }

    private let stateLock = NSLock()
    /// Guarded by `stateLock`; nil once closed.
    private var connection: OpaquePointer?
    /// Prepared statements by SQL text, guarded by `stateLock`.
    private var statements: [String: PreparedStatement] = [:]
    /// Statements with many binds (`IN (?1, … ?200)`) each have their own text; keep the cache
    /// from growing without bound.
    private static let cacheLimit = 256

    private init(connection: OpaquePointer, logger: Logger) {
        self.connection = connection
        self.logger = logger
        self.eventLoop = MultiThreadedEventLoopGroup.singleton.any()
    }

    /// Opens (or creates) the file at `path`. The file holds password hashes, token hashes and
    /// client addresses: it is created readable by its owner only (0600), and an existing one
    /// open to others is narrowed to that; SQLite gives its `-wal` and `-shm` files the same mode.
    static func open(path: String, logger: Logger) throws -> SQLiteHandle {
        if path != ":memory:", !path.hasPrefix("file:") {
            try ownerOnly(path)
        }
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite_nio_sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close_v2(connection)
            throw SQLiteFailure(code: code, message: "cannot open \(path): \(message)")
        }
        sqlite_nio_sqlite3_extended_result_codes(connection, 1)
        // One plan per statement whatever its bound values, so each cached statement is parsed
        // and planned once (issue 16: re-preparing was a tenth of a create's CPU).
        let stability = splitter_sqlite_enable_qpsg(UnsafeMutableRawPointer(connection))
        guard stability == SQLITE_OK else {
            sqlite_nio_sqlite3_close_v2(connection)
            throw SQLiteFailure(code: stability, message: "cannot turn on the query planner stability guarantee")
        }
        return SQLiteHandle(connection: connection, logger: logger)
    }

    private static func ownerOnly(_ path: String) throws {
        let files = FileManager.default
        if !files.fileExists(atPath: path) {
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw SQLiteFailure(code: SQLITE_CANTOPEN, message: "cannot create \(path)")
            }
            return
        }
        for file in [path, path + "-wal", path + "-shm"] {
            guard let mode = (try? files.attributesOfItem(atPath: file))?[.posixPermissions] as? Int,
                mode & 0o077 != 0
            else { continue }
            try files.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: file)
        }
    }

    /// Hands every commit's WAL size (in pages) to `checkpointer`, which copies the WAL into
    /// the database on a connection of its own once it is large enough, so no write waits for
    /// that copy and its fsyncs. This replaces SQLite's automatic checkpoint on this connection,
    /// except past `WALCheckpointer.inlineLimit` pages, where this connection checkpoints at
    /// commit as SQLite would. `checkpointer` must outlive the connection.
    func checkpointInBackground(_ checkpointer: WALCheckpointer) {
        stateLock.withLock {
            guard let connection else { return }
            sqlite_nio_sqlite3_wal_hook(
                connection,
                { context, connection, name, pages in
                    let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
                    if pages >= WALCheckpointer.inlineLimit {
                        // The background copy fell behind: what SQLite's own checkpoint does.
                        sqlite_nio_sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    } else {
                        checkpointer.logGrew(to: pages)
                    }
                    return SQLITE_OK
                }, Unmanaged.passUnretained(checkpointer).toOpaque())
        }
    }

    /// `PRAGMA wal_checkpoint(PASSIVE)`: copies what no reader still needs, waiting for no one.
    func checkpoint() throws {
        try stateLock.withLock {
            guard let connection else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the database is closed") }
            let code = sqlite_nio_sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            guard code == SQLITE_OK || code == SQLITE_BUSY else { throw SQLiteFailure(code: code, connection) }
        }
    }

    func close() {
        stateLock.withLock {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
            statements = [:]
            sqlite_nio_sqlite3_close_v2(connection)
            connection = nil
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
        Void
    > {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
        let (sql, binds) = serialize(query)
        try stateLock.withLock {
            guard let connection else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the database is closed") }
            let statement = try prepared(sql, connection)
            defer {
                sqlite_nio_sqlite3_reset(statement.pointer)
                sqlite_nio_sqlite3_clear_bindings(statement.pointer)
            }
            for (index, value) in binds.enumerated() {
                try bind(SQLiteValue(encoding: value), at: Int32(index + 1), statement.pointer, connection)
            }
            while true {
                let code = sqlite_nio_sqlite3_step(statement.pointer)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw SQLiteFailure(code: code, connection) }
                let columns = statement.resultColumns()
                var values: [SQLiteValue] = []
                values.reserveCapacity(columns.names.count)
                for column in 0..<Int32(columns.names.count) {
                    values.append(SQLiteValue(statement.pointer, column))
                }
                onRow(SQLiteRow(columns: columns, values: values))
            }
        }
    }

    /// Each cached statement's text, how often it ran and how often SQLite had to prepare it
    /// again (a statement whose plan used a bound value is re-prepared on every new value: parse
    /// and plan each time, which `PreparedStatementTests` watches for).
    func statementStatistics() -> [SQLiteStatementStatistics] {
        stateLock.withLock {
            statements.map { sql, statement in
                SQLiteStatementStatistics(
                    sql: sql, runs: Int(sqlite_nio_sqlite3_stmt_status(statement.pointer, SQLITE_STMTSTATUS_RUN, 0)),
                    reprepares: Int(
                        sqlite_nio_sqlite3_stmt_status(statement.pointer, SQLITE_STMTSTATUS_REPREPARE, 0)))
            }
        }
    }

    /// The cached statement for `sql`, prepared on first use. Call with `stateLock` held.
    private func prepared(_ sql: String, _ connection: OpaquePointer) throws -> PreparedStatement {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.cacheLimit {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
            statements = [:]
        }
        var pointer: OpaquePointer?
        let (code, hasTail) = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite_nio_sqlite3_prepare_v3(
                connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, &tail)
            // The tail points into `text`, so it is read here, while `text` is alive.
            return (code, tail.map { !String(cString: $0).allSatisfy(\.isWhitespace) } ?? false)
        }
        guard code == SQLITE_OK, let pointer else { throw SQLiteFailure(code: code, connection) }
        // One statement per call: text after the first statement would be silently ignored.
        if hasTail {
            sqlite_nio_sqlite3_finalize(pointer)
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "one statement per query: \(sql)")
        }
        let statement = PreparedStatement(pointer)
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteValue, at index: Int32, _ statement: OpaquePointer, _ connection: OpaquePointer)
        throws
    {
        let code: Int32
        switch value {
        case .null: code = sqlite_nio_sqlite3_bind_null(statement, index)
        case .integer(let integer): code = sqlite_nio_sqlite3_bind_int64(statement, index, integer)
        case .real(let real): code = sqlite_nio_sqlite3_bind_double(statement, index, real)
        case .id(let id):
            try bind(.text(id.text), at: index, statement, connection)
            return
        case .text(var text):
            code = text.withUTF8 { bytes in
                // An empty buffer may have no address, and a nil pointer would bind NULL.
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    sqlite_nio_sqlite3_bind_text(
                        statement, index, characters.baseAddress ?? emptyText, Int32(bytes.count), transient)
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                sqlite_nio_sqlite3_bind_blob(
                    statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), transient)
            }
        }
        guard code == SQLITE_OK else { throw SQLiteFailure(code: code, connection) }
    }
}

/// SQLite copies bound text and blobs (SQLITE_TRANSIENT, a macro Swift cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// A valid address for binding the empty string.
nonisolated(unsafe) private let emptyText: UnsafePointer<CChar> = {
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return UnsafePointer(pointer)
}()

private final class PreparedStatement {
    let pointer: OpaquePointer
    /// Filled on the first row, then shared by every row this statement returns, until SQLite
    /// prepares it again: after a schema change (another process's migration), a `SELECT *` can
    /// come back with other columns, and names read before would put values under wrong names.
    private var columns: ResultColumns?
    private var columnsAtReprepare: Int32 = 0

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    func resultColumns() -> ResultColumns {
        let reprepares = sqlite_nio_sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_REPREPARE, 0)
        if let columns, reprepares == columnsAtReprepare { return columns }
        let read = ResultColumns(
            names: (0..<sqlite_nio_sqlite3_column_count(pointer)).map {
                String(cString: sqlite_nio_sqlite3_column_name(pointer, $0))
            }, lastWins: false)
        (columns, columnsAtReprepare) = (read, reprepares)
        return read
    }
}

/// Column names of a result, shared by its rows (SQLite's and PostgreSQL's).
final class ResultColumns: Sendable {
    let names: [String]
    let indexes: [String: Int]
    /// Which of two columns with one name a look-up finds: the driver's choice before ours
    /// (SQLiteNIO the first, PostgresNIO the last).
    let lastWins: Bool

    /// The column named `name`. Up to 24 names are compared one by one: hashing the name for the
    /// dictionary was 4 % of a change-feed page, which looks up every column of every row (an
    /// expense row has 15 columns, and 17 on PostgreSQL with its payers and shares packed in).
    func index(of name: String) -> Int? {
        guard names.count <= 24 else { return indexes[name] }
        return lastWins ? names.lastIndex(of: name) : names.firstIndex(of: name)
    }

    init(names: [String], lastWins: Bool) {
        self.names = names
        self.lastWins = lastWins
        self.indexes = Dictionary(
            names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, last in lastWins ? last : first })
    }
}

/// One cached statement's counters (`Database.sqliteStatementStatistics()`).
public struct SQLiteStatementStatistics: Sendable {
    public let sql: String
    public let runs: Int
    public let reprepares: Int
}

/// A failed SQLite call: the extended result code and SQLite's message.
public struct SQLiteFailure: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, _ connection: OpaquePointer) {
        self.init(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(connection)))
    }

    /// A UNIQUE or PRIMARY KEY constraint refused the write.
    public var isUniqueViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY, macros Swift cannot import.
        code == SQLITE_CONSTRAINT | (8 << 8) || code == SQLITE_CONSTRAINT | (6 << 8)
    }

    public var description: String { "SQLite error \(code): \(message)" }
}

/// One value in or out of SQLite.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A text that is an id in its one stored form (36 characters, lower case): kept as its 16
    /// bytes, so a row of ids is read without a `String` made for each (a share row holds
    /// three; issue 16). It reads back as exactly the same text.
    case id(UUID)
    case blob([UInt8])

    /// Column `column` of the current row.
    init(_ statement: OpaquePointer, _ column: Int32) {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: self = .integer(sqlite_nio_sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: self = .real(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            let bytes = UnsafeBufferPointer(start: sqlite_nio_sqlite3_column_text(statement, column), count: count)
            if count == 36, let id = UUID(utf8: UnsafeRawBufferPointer(bytes)),
                !bytes.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") })
            {
                self = .id(id)
            } else {
                self = .text(String(decoding: bytes, as: UTF8.self))
            }
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            let start = sqlite_nio_sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self)
            self = .blob(Array(UnsafeBufferPointer(start: start, count: count)))
        default: self = .null
        }
    }

    /// A bound value: the common types directly, anything else through its `Encodable` form.
    init(encoding value: any Encodable) throws {
        switch value {
        case let text as String: self = .text(text)
        case let integer as Int64: self = .integer(integer)
        case let integer as Int: self = .integer(Int64(integer))
        case let flag as Bool: self = .integer(flag ? 1 : 0)
        case let real as Double: self = .real(real)
        case let data as Data: self = .blob(Array(data))
        case let bytes as [UInt8]: self = .blob(bytes)
        default:
            let encoder = SQLiteValueEncoder()
            try value.encode(to: encoder)
            guard let encoded = encoder.value else {
                throw EncodingError.invalidValue(
                    value, .init(codingPath: [], debugDescription: "\(type(of: value)) is not one SQLite value"))
            }
            self = encoded
        }
    }
}

/// A row: shared column names and this row's values.
struct SQLiteRow: SQLRow {
    let columns: ResultColumns
    let values: [SQLiteValue]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index(of: column) != nil }

    func decodeNil(column: String) throws -> Bool { try value(column) == .null }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let value = try value(column)
        // The types rows are read as most, without a `Decoder` (a fifth of a change-feed page's
        // CPU went to decoding through one, `perf`, issue 16): what the decoder below gives.
        switch (value, ObjectIdentifier(D.self)) {
        case (.id(let id), ObjectIdentifier(StoredID.self)): return unsafeBitCast(StoredID(uuid: id), to: D.self)
        case (.id(let id), ObjectIdentifier(String.self)): return unsafeBitCast(id.text, to: D.self)
        case (.id(let id), ObjectIdentifier(String?.self)): return unsafeBitCast(String?.some(id.text), to: D.self)
        case (.text(let text), ObjectIdentifier(String.self)): return unsafeBitCast(text, to: D.self)
        case (.text(let text), ObjectIdentifier(StoredID.self)):
            if let uuid = UUID(text: text) { return unsafeBitCast(StoredID(uuid: uuid), to: D.self) }
        case (.text(let text), ObjectIdentifier(String?.self)): return unsafeBitCast(String?.some(text), to: D.self)
        case (.null, ObjectIdentifier(String?.self)): return unsafeBitCast(String?.none, to: D.self)
        case (.integer(let integer), ObjectIdentifier(Int64.self)): return unsafeBitCast(integer, to: D.self)
        case (.integer(let integer), ObjectIdentifier(Int64?.self)):
            return unsafeBitCast(Int64?.some(integer), to: D.self)
        case (.null, ObjectIdentifier(Int64?.self)): return unsafeBitCast(Int64?.none, to: D.self)
        case (.integer(let integer), ObjectIdentifier(Int.self)): return unsafeBitCast(Int(integer), to: D.self)
        case (.integer(let integer), ObjectIdentifier(Bool.self)): return unsafeBitCast(integer != 0, to: D.self)
        default: break
        }
        do {
            if case .id(let id) = value { return try D(from: SQLiteValueDecoder(value: .text(id.text))) }
            return try D(from: SQLiteValueDecoder(value: value))
        } catch let DecodingError.typeMismatch(type, context) {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [SQLColumnKey(column)], debugDescription: context.debugDescription))
        }
    }

    private func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.index(of: column) else {
            throw DecodingError.keyNotFound(
                SQLColumnKey(column), .init(codingPath: [], debugDescription: "No column \(column) in this row."))
        }
        return values[index]
    }
}

private struct SQLColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes one column value: integers, reals, text, blobs, booleans stored as 0/1, and nil.
private struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLiteValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch(Dictionary<String, String>.self)
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch([String].self) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .integer(let integer) = value else { throw mismatch(type) }
        return integer != 0
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
        guard case .integer(let integer) = value, let result = T(exactly: integer) else { throw mismatch(type) }
        return result
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Data.self, case .blob(let bytes) = value, let data = Data(bytes) as? T { return data }
        return try T(from: self)
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "The column holds \(value)."))
    }
}

/// Captures the one value an `Encodable` bind writes.
private final class SQLiteValueEncoder: Encoder, SingleValueEncodingContainer {
    var value: SQLiteValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Unsupported<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnsupportedList() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { value = .null }
    func encode(_ value: Bool) { self.value = .integer(value ? 1 : 0) }
    func encode(_ value: String) { self.value = .text(value) }
    func encode(_ value: Double) { self.value = .real(value) }
    func encode(_ value: Float) { self.value = .real(Double(value)) }
    func encode(_ value: Int) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int8) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int16) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int32) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int64) { self.value = .integer(value) }
    func encode(_ value: UInt) throws { self.value = .integer(try Self.exact(value)) }
    func encode(_ value: UInt8) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt16) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt32) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt64) throws { self.value = .integer(try Self.exact(value)) }
    func encode<T: Encodable>(_ value: T) throws { self.value = try SQLiteValue(encoding: value) }

    private static func exact(_ value: some BinaryInteger) throws -> Int64 {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Out of SQLite's range."))
        }
        return integer
    }

    /// Keyed and unkeyed values (a struct, an array) are not one column value: writing one
    /// leaves `value` nil, which the caller reports.
    private struct Unsupported<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
        mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type, forKey key: Key)
            -> KeyedEncodingContainer<Nested>
        { KeyedEncodingContainer(Unsupported<Nested>()) }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { UnsupportedList() }
        mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { SQLiteValueEncoder() }
    }

    private struct UnsupportedList: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) {}
        mutating func nestedContainer<Nested: CodingKey>(keyedBy keyType: Nested.Type) -> KeyedEncodingContainer<Nested>
        { KeyedEncodingContainer(Unsupported<Nested>()) }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { UnsupportedList() }
        mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
    }
}

/// SQLite's SQL as SQLKit writes it: `?N` binds, double-quoted names, standard upsert and
/// RETURNING (the SQLite built here is 3.54; both need 3.35).
struct SQLiteSyntax: SQLDialect {
    var name: String { "sqlite" }
    var identifierQuote: any SQLExpression { SQLRaw("\"") }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?\(position)") }
    func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    var literalDefault: any SQLExpression { SQLLiteral.null }
    var supportsDropBehavior: Bool { false }
    var enumSyntax: SQLEnumSyntax { .unsupported }
    var upsertSyntax: SQLUpsertSyntax { .standard }
    var supportsReturning: Bool { true }
    var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
}

/// Copies a WAL database's log into the database file in the background (`SQLiteHandle
/// .checkpointInBackground`). SQLite's automatic checkpoint runs inside the commit that takes the
/// log past 1,000 pages: that write waits for about 4 MB to be copied and two fsyncs, a spike in
/// every hundred or so creates (issue 16: p99 7–8 ms against a p50 of 1 ms). Here that commit
/// only asks, and a task copies on its own connection in two steps:
///
/// 1. everything committed so far, while writes go on;
/// 2. under the writer's lock, the few pages committed during step 1. The whole log is then in
///    the database, so the next write starts the log again from its beginning. Without this step
///    a busy writer stays ahead of the copy, the log is never started again and grows (to 25 MB
///    for 8 MB written in a test; at hundreds of megabytes, the kernel held back writes for 200 ms).
final class WALCheckpointer: Sendable {
    /// Pages in the log from which a copy is asked for (SQLite's own default).
    static let threshold: Int32 = 1_000
    /// Pages from which the writer copies at commit after all, should the task fall behind: the
    /// log must not grow without bound.
    static let inlineLimit: Int32 = 8_000

    private let requests: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>
    /// The log's size at the last ask (0 after the log started again): one copy is asked for
    /// each `threshold` pages written, not one for every commit while a copy is under way.
    private let askedAt = Atomic<Int32>(0)
    private let done = Count()

    /// How many copies the task has made.
    var copies: Int { done.value.load(ordering: .relaxed) }

    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Starts copying with `connection`, which it then owns and closes when stopped; the
    /// writer's transactions run under `writerLock`.
    init(_ connection: SQLiteHandle, writerLock: AsyncLock) {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        requests = continuation
        let done = done
        task = Task.detached(priority: .utility) {
            for await _ in stream {
                do {
                    try connection.checkpoint()
                    try await writerLock.withLock { try connection.checkpoint() }
                    done.value.add(1, ordering: .relaxed)
                } catch {
                    connection.logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
                }
            }
            connection.close()
        }
    }

    /// Told after each commit (by the writer, one commit at a time) how many pages the log holds.
    func logGrew(to pages: Int32) {
        var asked = askedAt.load(ordering: .relaxed)
        if pages < asked {  // the log was started again
            asked = 0
            askedAt.store(0, ordering: .relaxed)
        }
        guard pages >= asked + Self.threshold else { return }
        askedAt.store(pages, ordering: .relaxed)
        requests.yield()  // one asked while a copy runs becomes one copy after it
    }

    /// Ends the task once a copy under way is done, and closes its connection.
    func stop() async {
        requests.finish()
        await task.value
    }
}
