import Foundation
import SQLKit
import SplitStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Databases with every migration applied, made once and copied for each test
/// (`TestDatabases.withConfiguration`).
actor SchemaTemplates {
    static let shared = SchemaTemplates()

    private var sqliteTemplate: Task<String, any Error>?
    private var postgresTemplate: Task<String, any Error>?

    /// Copies the SQLite template (made on first use, in the temporary folder, removed when the
    /// process exits) to `path`.
    func copySQLite(to path: String) async throws {
        let template = try await sqlite()
        // Closing the last connection checkpointed the log into the file; a log left over goes too.
        for suffix in ["", "-wal"] where suffix.isEmpty || FileManager.default.fileExists(atPath: template + suffix) {
            try FileManager.default.copyItem(atPath: template + suffix, toPath: path + suffix)
        }
    }

    private func sqlite() async throws -> String {
        if let sqliteTemplate { return try await sqliteTemplate.value }
        let task = Task {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("splitter-schema-\(UUID()).sqlite").path
            try await Self.migrate(.sqlite(path: path))
            removedAtExit = strdup(path)
            atexit {
                guard let removedAtExit else { return }
                unlink(removedAtExit)
                for suffix in ["-wal", "-shm"] { unlink(String(cString: removedAtExit) + suffix) }
            }
            return path
        }
        sqliteTemplate = task
        return try await task.value
    }

    /// The name of the PostgreSQL template: `t_schema_<hash of the migrations>`, made once on the
    /// test server (under another name, then renamed, so a half-made one is never used) and kept
    /// there for the next run; a change to the migrations names a new one.
    func postgres(adminURL: String) async throws -> String {
        if let postgresTemplate { return try await postgresTemplate.value }
        let task = Task { try await Self.makePostgres(adminURL: adminURL) }
        postgresTemplate = task
        return try await task.value
    }

    private static func makePostgres(adminURL: String) async throws -> String {
        guard var components = URLComponents(string: adminURL) else {
            throw DatabaseConfigurationError.unsupportedScheme
        }
        let name = "t_schema_" + migrationsHash()
        let admin = try await Database.open(.postgres(url: adminURL), logger: TestDatabases.logger)
        do {
            let exists = try await admin.read {
                try await $0.raw("SELECT 1 AS found FROM pg_database WHERE datname = \(bind: name)").all()
            }
            if exists.isEmpty {
                let building = "t_build_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
                try await admin.read { try await $0.raw("CREATE DATABASE \(ident: building)").run() }
                components.path = "/" + building
                try await migrate(.postgres(url: components.string ?? adminURL))
                do {
                    try await admin.read {
                        try await $0.raw("ALTER DATABASE \(ident: building) RENAME TO \(ident: name)").run()
                    }
                } catch {
                    // Another test process made it meanwhile: use theirs.
                    try? await admin.read { try await $0.raw("DROP DATABASE IF EXISTS \(ident: building)").run() }
                }
            }
            try await admin.close()
        } catch {
            try? await admin.close()
            throw error
        }
        return name
    }

    /// Opens the database, applies every migration and closes it.
    private static func migrate(_ configuration: DatabaseConfiguration) async throws {
        let database = try await Database.open(configuration, logger: TestDatabases.logger)
        do {
            _ = try await Migrations.run(on: database)
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
    }

    /// FNV-1a over every migration's id and statements: the same schema, the same name.
    private static func migrationsHash() -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for migration in Migrations.all {
            for text in [migration.id] + migration.statements {
                for byte in text.utf8 + [0] {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x100_0000_01b3
                }
            }
        }
        return String(hash, radix: 16)
    }
}

/// The SQLite template's path, for the `atexit` handler (a C function cannot capture it).
nonisolated(unsafe) private var removedAtExit: UnsafeMutablePointer<CChar>?
