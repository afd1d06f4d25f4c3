import Foundation
import Logging
import SQLKit
import SplitStore

/// Real databases for tests (STYLE §20): SQLite always, PostgreSQL too when the test script
/// started one and exported `TEST_DATABASE_URL`.
public enum TestDatabases {
    public static var all: [Database.Backend] {
        ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    public static let logger: Logger = {
        var logger = Logger(label: "tests")
        logger.logLevel = .warning
        return logger
    }()

    /// A fresh database for one test, removed afterwards whether the test passes or not: a
    /// temporary SQLite file, or `CREATE DATABASE t_<uuid>` on the test PostgreSQL server.
    ///
    /// It has the schema already (every migration applied), copied from a template made once per
    /// test process (SQLite: a file in the temporary folder; PostgreSQL: a database named by a
    /// hash of the migrations, made once per server): applying every migration to every test's
    /// database was a good share of the tests' CPU. `empty: true` gives a database without it, for
    /// the tests of the migrations themselves and of upgrading an earlier release's database.
    public static func withConfiguration<T>(
        _ backend: Database.Backend, empty: Bool = false, _ body: (DatabaseConfiguration) async throws -> T
    ) async throws -> T {
        switch backend {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-\(UUID()).sqlite").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            if !empty { try await SchemaTemplates.shared.copySQLite(to: path) }
            return try await body(.sqlite(path: path))
        case .postgres:
            return try await PostgresPermits.shared.holding { try await postgres(empty: empty, body) }
        }
    }

    /// `CREATE DATABASE t_<uuid>` (from the schema's template unless `empty`), the body, `DROP DATABASE`.
    private static func postgres<T>(empty: Bool, _ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        guard let adminURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"],
            var components = URLComponents(string: adminURL)
        else { throw DatabaseConfigurationError.unsupportedScheme }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let template = empty ? nil : try await SchemaTemplates.shared.postgres(adminURL: adminURL)
        let admin = try await Database.open(.postgres(url: adminURL), logger: logger)
        do {
            if let template {
                try await admin.read {
                    try await $0.raw("CREATE DATABASE \(ident: name) TEMPLATE \(ident: template)").run()
                }
            } else {
                try await admin.read { try await $0.raw("CREATE DATABASE \(ident: name)").run() }
            }
        } catch {
            try? await admin.close()
            throw error
        }
        components.path = "/" + name
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body(.postgres(url: components.string ?? adminURL)))
        } catch {
            outcome = .failure(error)
        }
        try? await admin.read { try await $0.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run() }
        try? await admin.close()
        return try outcome.get()
    }

    /// A fresh database, opened; closed and removed afterwards. With the schema already, unless
    /// `empty` (see `withConfiguration`).
    public static func with<T>(
        _ backend: Database.Backend, empty: Bool = false, _ body: (Database) async throws -> T
    ) async throws -> T {
        try await withConfiguration(backend, empty: empty) { configuration in
            let database = try await Database.open(configuration, logger: logger)
            do {
                let result = try await body(database)
                try await database.close()
                return result
            } catch {
                try? await database.close()
                throw error
            }
        }
    }
}

/// How many PostgreSQL test databases are open at once. Every test runs at the same time, and
/// each open database holds a pool of up to 16 connections plus its admin and listener
/// connections: unbounded, a full run passed the test server's 1,000 connections ("sorry, too
/// many clients already") and requests failed with a 500. A test past the bound waits for a
/// permit before it creates its database; a body that opens another test database inside its
/// own (on this task or its children) uses the permit it holds, so nesting never waits on itself.
actor PostgresPermits {
    static let shared = PostgresPermits(permits: 24)

    @TaskLocal static var held = false

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { free = permits }

    nonisolated func holding<T>(_ body: () async throws -> T) async throws -> T {
        if Self.held { return try await body() }
        await acquire()
        do {
            let result = try await Self.$held.withValue(true) { try await body() }
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
