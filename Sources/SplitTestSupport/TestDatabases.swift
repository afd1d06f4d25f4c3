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

    /// A fresh, empty database for one test, removed afterwards whether the test passes or not:
    /// a temporary SQLite file, or `CREATE DATABASE t_<uuid>` on the test PostgreSQL server.
    public static func withConfiguration<T>(
        _ backend: Database.Backend, _ body: (DatabaseConfiguration) async throws -> T
    ) async throws -> T {
        switch backend {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-\(UUID()).sqlite").path
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            return try await body(.sqlite(path: path))
        case .postgres:
            guard let adminURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"],
                var components = URLComponents(string: adminURL)
            else { throw DatabaseConfigurationError.unsupportedScheme }
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let admin = try await Database.open(.postgres(url: adminURL), logger: logger)
            try await admin.read { try await $0.raw("CREATE DATABASE \(ident: name)").run() }
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
    }

    /// A fresh database, opened; closed and removed afterwards.
    public static func with<T>(_ backend: Database.Backend, _ body: (Database) async throws -> T) async throws -> T {
        try await withConfiguration(backend) { configuration in
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
