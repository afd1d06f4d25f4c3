import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// The one handle on the database that the rest of the server uses (DESIGN §6, STYLE §11, §14):
/// queries go through `read` or `transaction`, both handing out an `any SQLDatabase`, so every
/// store function is one code path over SQLite and PostgreSQL. The differences between the two
/// live in this file only.
///
/// Inside a `read` or `transaction` body use only the `SQLDatabase` it hands you: calling
/// `read` inside a `read`, or `transaction` inside a `transaction`, would wait for itself on
/// SQLite, and a `read` inside a `transaction` would not see the transaction's writes.
public final class Database: Sendable {
    public enum Backend: String, Sendable {
        case sqlite
        case postgres
    }

    private enum Storage: Sendable {
        /// SQLite has a single writer: transactions take turns on one connection under its lock.
        /// Reads run on connections of their own (`SQLiteReaders`), each in a snapshot of its
        /// own, so they neither wait for a transaction nor hold one up (WAL lets readers and the
        /// writer work at once). An in-memory database has one connection for both.
        /// A file's log is copied into it by `checkpointer` (nil in memory).
        case sqlite(SQLiteHandle, AsyncLock, readers: SQLiteReaders, checkpointer: WALCheckpointer?)
        /// A pool: each transaction pins one connection for its duration, and each query of a
        /// read takes one for itself.
        case postgres(PostgresPool, any SQLDatabase)
    }

    /// `EventLoopGroupConnectionPool` predates Sendable annotations, but every entry point takes
    /// its internal `NIOLock` (it is shared across threads by every Vapor application), so
    /// sharing it between tasks is safe.
    private final class PostgresPool: @unchecked Sendable {
        let pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
        init(_ pool: EventLoopGroupConnectionPool<PostgresConnectionSource>) { self.pool = pool }

        /// Runs `body` with one pooled connection, in a task that prefers the connection's event
        /// loop as its executor. Each query's answer then resumes the body on the thread that
        /// read it, instead of waking a thread of Swift's pool: the dozen round trips of a create
        /// cost two thread switches in all instead of two each (issue 16; docs/benchmarks.md).
        /// The body holds that loop while it computes, so it must stay as short as a transaction
        /// should.
        func onConnection<T: Sendable>(
            logger: Logger, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
        ) async throws -> T {
            try await pool.withConnection(logger: logger) { connection in
                let promise = connection.eventLoop.makePromise(of: T.self)
                Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
                    do {
                        promise.succeed(try await body(PostgresSQL(database: connection)))
                    } catch {
                        promise.fail(error)
                    }
                }
                return promise.futureResult
            }.get()
        }
    }

    public let backend: Backend
    private let storage: Storage
    let logger: Logger
    /// Where committed writes are announced to this server's live streams (issue 17).
    public let events = EventBus()
    /// When a read or a transaction last finished without an error (`DispatchTime` nanoseconds;
    /// 0: not since opening, or closed): the health check's evidence that the database answers.
    private let lastAnswered = Atomic<UInt64>(0)
    /// The connection settings of the PostgreSQL listener that feeds `events` (PostgreSQL only).
    private let listenerConfiguration: PostgresConnection.Configuration?
    /// Whether writes queue notification mail (`SMTP_URL` is set): off until the server turns
    /// it on, so a server that cannot send never fills the queue.
    private let mailSwitch = Atomic<Bool>(false)
    public var sendsMail: Bool { mailSwitch.load(ordering: .relaxed) }
    public func startSendingMail() { mailSwitch.store(true, ordering: .relaxed) }
    /// The PostgreSQL channel every server's writes are announced on.
    static let eventChannel = "splitter_events"

    private init(
        backend: Backend, storage: Storage, logger: Logger,
        listenerConfiguration: PostgresConnection.Configuration? = nil
    ) {
        self.backend = backend
        self.storage = storage
        self.logger = logger
        self.listenerConfiguration = listenerConfiguration
    }

    /// Opens the configured database. SQLite gets WAL, foreign keys and a busy timeout, and keeps
    /// its temporary files (statement journals, sorts) in memory: on disk, two creates in three
    /// made and removed a file under /var/tmp (strace, issue 16).
    public static func open(_ configuration: DatabaseConfiguration, logger: Logger) async throws -> Database {
        switch configuration {
        case .sqlite(let path):
            let (file, synchronous) = try DatabaseConfiguration.sqliteOptions(path)
            let connection = try SQLiteHandle.open(path: file, logger: logger)
            var readers: [SQLiteHandle] = []
            var checkpointer: WALCheckpointer?
            let lock = AsyncLock()
            // Every connection's settings; WAL and foreign keys belong to the file and the writer.
            let settings = [
                "PRAGMA synchronous = \(synchronous)", "PRAGMA busy_timeout = 5000", "PRAGMA temp_store = MEMORY",
            ]
            do {
                for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON"] + settings {
                    try await connection.raw(SQLQueryString(pragma)).run()
                }
                if !DatabaseConfiguration.isInMemory(file) {
                    for _ in 0..<SQLiteReaders.count {
                        let opened = try SQLiteHandle.open(path: file, logger: logger)
                        readers.append(opened)
                        // A write in a read's body is a mistake: it fails here rather than
                        // passing the writer's lock by.
                        for pragma in settings + ["PRAGMA query_only = ON"] {
                            try await opened.raw(SQLQueryString(pragma)).run()
                        }
                    }
                    let copier = try SQLiteHandle.open(path: file, logger: logger)
                    for pragma in settings { try await copier.raw(SQLQueryString(pragma)).run() }
                    checkpointer = WALCheckpointer(copier, writerLock: lock)
                    connection.checkpointInBackground(checkpointer!)
                }
            } catch {
                await checkpointer?.stop()
                for reader in readers { reader.close() }
                connection.close()
                throw error
            }
            return Database(
                backend: .sqlite,
                storage: .sqlite(
                    connection, lock,
                    readers: readers.isEmpty
                        ? SQLiteReaders(writer: connection, lock: lock) : SQLiteReaders(readers),
                    checkpointer: checkpointer),
                logger: logger)
        case .postgres(let url):
            let configuration: SQLPostgresConfiguration
            if let socket = DatabaseConfiguration.postgresSocketPath(url), let components = URLComponents(string: url) {
                // No TLS on a socket: it never leaves the machine. No user in the URL is the
                // system user's name, as for libpq.
                let database = String(components.path.dropFirst())
                configuration = SQLPostgresConfiguration(
                    unixDomainSocketPath: socket, username: components.user ?? NSUserName(),
                    password: components.password, database: database.isEmpty ? nil : database)
            } else {
                do {
                    configuration = try SQLPostgresConfiguration(
                        url: DatabaseConfiguration.postgresURLWithTLSDefault(url))
                } catch {
                    // PostgresKit's error quotes the URL, password and all.
                    throw DatabaseConfigurationError.unusablePostgresURL
                }
            }
            let source = PostgresConnectionSource(sqlConfiguration: configuration)
            let pool = EventLoopGroupConnectionPool(
                source: source,
                maxConnectionsPerEventLoop: 8,
                pruneInterval: .seconds(60),
                logger: logger,
                on: MultiThreadedEventLoopGroup.singleton
            )
            let database = Database(
                backend: .postgres,
                storage: .postgres(PostgresPool(pool), PostgresSQL(database: pool.database(logger: logger))),
                logger: logger, listenerConfiguration: configuration.coreConfiguration)
            do {
                // Fail at start-up, with the driver's reason, if the server cannot be reached.
                _ = try await database.read { try await $0.raw("SELECT 1").run() }
            } catch {
                try? await pool.shutdownAsync()
                throw PostgresUnreachable(error)
            }
            return database
        }
    }

    /// SQLite's cached statements with how often each ran and was prepared again; empty on
    /// PostgreSQL.
    public func sqliteStatementStatistics() -> [SQLiteStatementStatistics] {
        if case .sqlite(let connection, _, let readers, _) = storage {
            return connection.statementStatistics()
                + readers.connections.filter { $0 !== connection }.flatMap { $0.statementStatistics() }
        }
        return []
    }

    /// How many times the WAL was copied into a SQLite file in the background (nil in memory and
    /// on PostgreSQL).
    var backgroundCheckpoints: Int? {
        guard case .sqlite(_, _, _, let checkpointer?) = storage else { return nil }
        return checkpointer.copies
    }

    /// Whether two reads can run at once, each on a connection of its own: on PostgreSQL and on
    /// an SQLite file (`SQLiteReaders`), not in memory.
    var readsInParallel: Bool {
        switch storage {
        case .sqlite(_, _, let readers, _): readers.connections.count > 1
        case .postgres: true
        }
    }

    /// Runs read-only work. On SQLite its statements see one snapshot, that of its first read:
    /// what committed before it, and nothing that commits meanwhile.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let result = try await unrecordedRead(body)
        answered()
        return result
    }

    private func unrecordedRead<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T)
        async throws -> T
    {
        switch storage {
        case .sqlite(let writer, _, let readers, _):
            return try await readers.withReader { reader in
                guard reader !== writer else { return try await body(writer) }
                // `END` (SQLite's other name for COMMIT) so that statement counts tell reads' ends
                // from transactions' commits.
                return try await Self.inTransaction(reader, begin: "BEGIN", end: "END", body)
            }
        case .postgres(_, let sql):
            // Not on a connection's event loop, as a transaction is: reads are mostly one query,
            // and a page of expenses took 7.4 ms there instead of 6.9 ms.
            return try await body(sql)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// The events its stores noted (`PendingEvents`) reach `events` once it has committed: on
    /// SQLite from here, on PostgreSQL as a `NOTIFY` that the database delivers to every
    /// server's listener at commit (and never after a rollback).
    ///
    /// On PostgreSQL the body runs on its connection's event loop (`PostgresPool.onConnection`),
    /// which it holds while it computes: a body that computes a lot between its statements uses
    /// `longTransaction`.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T)
        async throws -> T
    {
        try await transaction(onEventLoop: true, body)
    }

    /// `transaction` for a body that computes a lot between its statements (an import's
    /// thousands of rows, a day of recurring expenses): on PostgreSQL it runs on Swift's pool,
    /// so the other connections of its event loop, HTTP ones among them, are not held meanwhile.
    public func longTransaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T)
        async throws -> T
    {
        try await transaction(onEventLoop: false, body)
    }

    private func transaction<T: Sendable>(
        onEventLoop: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let result = try await unrecordedTransaction(onEventLoop: onEventLoop, body)
        answered()
        return result
    }

    private func answered() { lastAnswered.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    private func unrecordedTransaction<T: Sendable>(
        onEventLoop: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let pending = PendingEvents(sendsMail: sendsMail)
        switch storage {
        case .sqlite(let connection, let lock, _, _):
            // IMMEDIATE takes the write lock up front, so two writers never deadlock on upgrade.
            let result = try await PendingEvents.$current.withValue(pending) {
                try await lock.withLock {
                    try await Self.inTransaction(connection, begin: "BEGIN IMMEDIATE", body)
                }
            }
            events.publish(pending.all)
            return result
        case .postgres(let pool, let sql):
            // The body runs in a task of its own, so the collector is bound inside it.
            let session: @Sendable (any SQLDatabase) async throws -> T = { session in
                try await PendingEvents.$current.withValue(pending) {
                    try await Self.inTransaction(session, begin: "BEGIN", body) { sql in
                        // What a write batch did not send already (`WriteBatch`).
                        for payload in BusEvent.payloads(pending.takeUnsent()) {
                            try await sql.raw("SELECT pg_notify(\(bind: Self.eventChannel), \(bind: payload))").run()
                        }
                    }
                }
            }
            return try await onEventLoop ? pool.onConnection(logger: logger, session) : sql.withSession(session)
        }
    }

    private static func inTransaction<T: Sendable>(
        _ sql: any SQLDatabase,
        begin: String,
        end: String = "COMMIT",
        _ body: @Sendable (any SQLDatabase) async throws -> T,
        beforeCommit: @Sendable (any SQLDatabase) async throws -> Void = { _ in }
    ) async throws -> T {
        try await sql.raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(sql)
            try await beforeCommit(sql)
            try await sql.raw(SQLQueryString(end)).run()
            return result
        } catch {
            try? await sql.raw("ROLLBACK").run()
            throw error
        }
    }

    /// Feeds `events` with every server's committed writes until the task is cancelled
    /// (PostgreSQL: one connection that LISTENs, reconnecting with backoff; each time it is in
    /// place a `resync` tells streams to catch up from the change feed). Returns at once on SQLite, where
    /// `transaction` publishes directly.
    ///
    /// - Parameter listening: called each time the listener is in place (tests wait for it).
    public func listenForEvents(listening: @escaping @Sendable () -> Void = {}) async {
        guard let configuration = listenerConfiguration else { return }
        var delay = 0.1
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                // The connection is closed, and that awaited, however listening ends: when it
                // threw (cancelled at shutdown, the connection lost), leaving without waiting let
                // the connection go before it had closed (PostgresNIO asserts on that in debug
                // builds; the test run crashed on it once).
                var failure: (any Error)?
                do {
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: Self.eventChannel) { notifications in
                            listening()
                            // Whatever committed while nobody listened (before the first connect,
                            // or while reconnecting) is caught up from the change feed.
                            events.publish([.resync])
                            delay = 0.1
                            for try await notification in notifications {
                                events.publish(BusEvent.parse(payload: notification.payload))
                            }
                        }
                    } onCancel: {
                        connection.close().whenComplete { _ in }
                    }
                } catch {
                    failure = error
                }
                try? await connection.close().get()
                if let failure { throw failure }
            } catch {
                if !Task.isCancelled {
                    logger.warning("event listener lost its connection", metadata: ["error": "\(error)"])
                }
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: .milliseconds(Int(delay * 1_000)))
            delay = min(delay * 2, 5)
        }
    }

    /// Serializes schema changes between servers starting at once (PostgreSQL; SQLite's single
    /// writer already does). Call inside a transaction; released when it ends.
    func lockForMigrations(_ sql: any SQLDatabase) async throws {
        if backend == .postgres {
            try await sql.raw("SELECT pg_advisory_xact_lock(7240011)").run()
        }
    }

    /// One round trip, for the health check.
    /// Whether the database answers (`GET /health`): a read or transaction that finished within
    /// the last second says so; otherwise `SELECT 1`. Under load, a health check that queued for
    /// a connection behind every request would time a load balancer's probe out on a working
    /// server (issue 16's load check: p99 above 50 ms on PostgreSQL with 200 connections busy).
    /// A database that stops answering fails the check a second after its last answer.
    public func ping() async throws {
        let last = lastAnswered.load(ordering: .relaxed)
        if last != 0, DispatchTime.now().uptimeNanoseconds - last < Self.answeredRecently { return }
        _ = try await read { try await $0.raw("SELECT 1 AS one").first() }
    }

    /// How recent an answer stands for a ping: one second.
    static let answeredRecently: UInt64 = 1_000_000_000

    /// Row lock for a read-then-write inside a transaction: `FOR UPDATE` on PostgreSQL, where
    /// READ COMMITTED would otherwise let two writers read the same row; nothing on SQLite,
    /// whose single writer already serializes transactions.
    public var forUpdate: String { backend == .postgres ? " FOR UPDATE" : "" }

    /// Whether `error` is a unique-constraint violation, on either database.

    public static func isUniqueViolation(_ error: any Error) -> Bool {
        if let error = error as? SQLiteFailure {
            return error.isUniqueViolation
        }
        if let error = error as? PSQLError {
            return error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw
        }
        return false
    }

    /// Whether `error` says the database is too busy to take the statement now: on PostgreSQL, no
    /// pooled connection came free within the pool's wait (10 s), as under a burst of writes to
    /// one group, whose lock each holds. Nothing of that statement ran; the request may be tried
    /// again (a write with the same Idempotency-Key is done at most once).
    public static func isBusy(_ error: any Error) -> Bool {
        error is ConnectionPoolTimeoutError
    }

    /// Closes the connection or drains the pool.
    public func close() async throws {
        lastAnswered.store(0, ordering: .relaxed)
        switch storage {
        case .sqlite(let connection, let lock, let readers, let checkpointer):
            await readers.close(except: connection)
            await lock.withLock { connection.close() }
            // After the writer, whose hook may still ask for a copy until it is closed.
            await checkpointer?.stop()
        case .postgres(let pool, _):
            try await pool.pool.shutdownAsync()
        }
    }
}

/// Why PostgreSQL could not be used at start-up, in words: PostgresNIO's own description of an
/// error says only that it hides the details (it may carry a query's values). At start-up the one
/// query is `SELECT 1`, so the reason is safe to tell: the server's message ("database … does not
/// exist", "password authentication failed …") or the connection's ("No such file or directory"
/// for a socket that is not there).
public struct PostgresUnreachable: Error, CustomStringConvertible {
    public let underlying: any Error

    init(_ underlying: any Error) { self.underlying = underlying }

    public var description: String {
        guard let error = underlying as? PSQLError else { return "cannot use PostgreSQL: \(underlying)" }
        if let message = error.serverInfo?[.message] {
            return "PostgreSQL refused: \(message)"
        }
        if let reason = error.underlying {
            return "cannot reach PostgreSQL (\(error.code)): \(reason)"
        }
        return "cannot use PostgreSQL (\(error.code))"
    }
}
