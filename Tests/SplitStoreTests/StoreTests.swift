import Foundation
import Logging
import SQLKit
import SplitStore
import SplitTestSupport
import Testing

/// Every store test runs on each database this machine has: SQLite always, PostgreSQL when
/// `TEST_DATABASE_URL` is set (scripts/test starts one). Each test gets a database of its own.
@Suite("Database and migrations")
struct MigrationTests {
    @Test("migrations run in order once, and a second run applies nothing", arguments: TestDatabases.all)
    func migrationsApplyOnce(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend, empty: true) { database in
            // act
            let first = try await Migrations.run(on: database)
            let second = try await Migrations.run(on: database)
            // validate
            #expect(first == Migrations.all.map(\.id))
            #expect(second.isEmpty)
            #expect(try await Migrations.applied(on: database) == Migrations.all.map(\.id))
        }
    }

    @Test("servers starting at once apply each migration exactly once", arguments: TestDatabases.all)
    func concurrentMigrations(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend, empty: true) { database in
            let results = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<4 { group.addTask { try await Migrations.run(on: database) } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(results.sorted() == Migrations.all.map(\.id).sorted())
        }
    }

    @Test("0027 composes addresses an earlier release stored decomposed, unless another account has that form", arguments: TestDatabases.all)
    func composedEmails(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend, empty: true) { database in
            // setup: the schema before 0027, with café decomposed (e + U+0301), and josé twice
            let before = Array(Migrations.all.prefix { $0.id != "0027_nfc_emails" })
            try await Migrations.run(on: database, migrations: before)
            let rows = [
                ("u1", "cafe\u{301}@example.com"), ("u2", "jose\u{301}@example.com"), ("u3", "jos\u{e9}@example.com"),
                ("u4", "plain@example.com"),
            ]
            try await database.transaction { sql in
                for (id, email) in rows {
                    try await sql.raw(
                        "INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES (\(bind: id), \(bind: email), 'A', 'h', 0, 0)"
                    ).run()
                }
            }
            // act
            #expect(try await Migrations.run(on: database).first == "0027_nfc_emails")
            // validate: byte for byte, composed where it could be; the colliding one untouched
            let stored = try await database.read { sql in
                try await sql.raw("SELECT id, email FROM users ORDER BY id").all().map {
                    (try $0.decode(column: "id", as: String.self), Array(try $0.decode(column: "email", as: String.self).utf8))
                }
            }
            #expect(stored.map(\.0) == ["u1", "u2", "u3", "u4"])
            #expect(stored[0].1 == Array("caf\u{e9}@example.com".utf8))
            #expect(stored[1].1 == Array("jose\u{301}@example.com".utf8))
            #expect(stored[2].1 == Array("jos\u{e9}@example.com".utf8))
            #expect(stored[3].1 == Array("plain@example.com".utf8))
        }
    }

    @Test("a transaction that throws leaves nothing behind", arguments: TestDatabases.all)
    func rollback(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            struct Boom: Error {}
            await #expect(throws: Boom.self) {
                try await database.transaction { sql in
                    try await sql.raw(
                        "INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES ('u1', 'a@b.c', 'A', 'h', 0, 0)"
                    ).run()
                    throw Boom()
                }
            }
            let count = try await database.read {
                try await $0.raw("SELECT COUNT(*) AS n FROM users").first()!.decode(column: "n", as: Int.self)
            }
            #expect(count == 0)
        }
    }

    @Test("schema constraints hold on both databases: unique emails, roles, foreign keys", arguments: TestDatabases.all)
    func constraints(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let insertUser: @Sendable (String, String) async throws -> Void = { id, email in
                try await database.transaction { sql in
                    try await sql.raw(
                        "INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES (\(bind: id), \(bind: email), 'A', 'h', 0, 0)"
                    ).run()
                }
            }
            try await insertUser("u1", "a@example.com")
            do {
                try await insertUser("u2", "a@example.com")
                Issue.record("a second user with the same email was accepted")
            } catch {
                #expect(Database.isUniqueViolation(error))
            }
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    try await sql.raw(
                        "INSERT INTO members (id, group_id, name, role, created_at, updated_at) VALUES ('m1', 'no-such-group', 'Aki', 'member', 0, 0)"
                    ).run()
                }
            }
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    try await sql.raw(
                        "INSERT INTO groups (id, name, home_currency, owner_user_id, created_at, updated_at) VALUES ('g1', 'Trip', 'JPY', 'u1', 0, 0)"
                    ).run()
                    try await sql.raw(
                        "INSERT INTO members (id, group_id, name, role, created_at, updated_at) VALUES ('m1', 'g1', 'Aki', 'emperor', 0, 0)"
                    ).run()
                }
            }
        }
    }

    @Test("twenty concurrent inserts of one email: one row, nineteen unique violations", arguments: TestDatabases.all)
    func concurrentUniqueInserts(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let outcomes = await withTaskGroup(of: Bool?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            try await database.transaction { sql in
                                try await sql.raw(
                                    "INSERT INTO users (id, email, display_name, password_hash, created_at, updated_at) VALUES (\(bind: "u\(index)"), 'same@example.com', 'A', 'h', 0, 0)"
                                ).run()
                            }
                            return true
                        } catch {
                            return Database.isUniqueViolation(error) ? false : nil
                        }
                    }
                }
                return await group.reduce(into: [Bool?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == true }.count == 1)
            #expect(outcomes.filter { $0 == false }.count == 19)
        }
    }
}

@Suite("Configuration")
struct ConfigurationTests {
    @Test("an SQLite file opens with synchronous NORMAL, or FULL when its URL says so")
    func synchronous() async throws {
        for (option, expected) in [("", 1), ("?synchronous=full", 2)] {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID()).sqlite").path
            let database = try await Database.open(.sqlite(path: path + option), logger: Logger(label: "test"))
            let value = try await database.read { sql in
                try await sql.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
            }
            try await database.close()
            #expect(value == expected, "\(option)")
            #expect(FileManager.default.fileExists(atPath: path))
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    @Test("DATABASE_URL: unset means SQLite in the working directory; postgres and sqlite URLs; anything else refused")
    func databaseURL() throws {
        #expect(try DatabaseConfiguration(databaseURL: nil) == .sqlite(path: "splitter.sqlite"))
        #expect(try DatabaseConfiguration(databaseURL: "  ") == .sqlite(path: "splitter.sqlite"))
        #expect(try DatabaseConfiguration(databaseURL: "sqlite:/tmp/x.db") == .sqlite(path: "/tmp/x.db"))
        #expect(
            try DatabaseConfiguration(databaseURL: "postgres://u:secret@db:5433/app")
                == .postgres(url: "postgres://u:secret@db:5433/app"))
        #expect(throws: DatabaseConfigurationError.unsupportedScheme) {
            try DatabaseConfiguration(databaseURL: "mysql://x")
        }
        #expect(throws: DatabaseConfigurationError.missingPath) { try DatabaseConfiguration(databaseURL: "sqlite:") }
        // How a commit waits for the disk: NORMAL unless the URL asks for FULL (issue 16).
        #expect(try DatabaseConfiguration.sqliteOptions("/tmp/x.db") == ("/tmp/x.db", "NORMAL"))
        #expect(try DatabaseConfiguration.sqliteOptions("/tmp/x.db?synchronous=full") == ("/tmp/x.db", "FULL"))
        #expect(throws: DatabaseConfigurationError.unknownOption) {
            try DatabaseConfiguration(databaseURL: "sqlite:/tmp/x.db?synchronous=off")
        }
        #expect(throws: DatabaseConfigurationError.missingPath) {
            try DatabaseConfiguration(databaseURL: "sqlite:?synchronous=full")
        }
        let description = try DatabaseConfiguration(databaseURL: "postgres://u:secret@db:5433/app").description
        #expect(description == "PostgreSQL at db:5433/app")
        #expect(!description.contains("secret"))
    }

    @Test("PostgreSQL that cannot be used at start-up says why: a database that does not exist, a socket that is not there")
    func postgresStartErrors() async throws {
        guard let admin = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"],
            var components = URLComponents(string: admin)
        else { return }
        components.path = "/no_such_database_\(UInt32.random(in: 0...UInt32.max))"
        do {
            let opened = try await Database.open(.postgres(url: components.string!), logger: TestDatabases.logger)
            try await opened.close()
            Issue.record("a database that does not exist opened")
        } catch {
            #expect("\(error)".hasPrefix("PostgreSQL refused: database \"no_such_database_"), "\(error)")
            #expect("\(error)".hasSuffix("\" does not exist"), "\(error)")
        }
        do {
            let url = "postgres://splitter@/splitter?host=/nonexistent-\(UUID())"
            let opened = try await Database.open(try DatabaseConfiguration(databaseURL: url), logger: TestDatabases.logger)
            try await opened.close()
            Issue.record("a socket that is not there opened")
        } catch {
            #expect("\(error)".hasPrefix("cannot reach PostgreSQL"), "\(error)")
            #expect("\(error)".contains("No such file or directory"), "\(error)")
        }
    }

    @Test("a PostgreSQL URL PostgresKit cannot use is refused without quoting it (it may hold a password)")
    func unusablePostgresURL() async throws {
        for url in ["postgres://u:secret@/app", "postgres://:secret@/app?sslmode=disable", "postgres://u:secret@[bad/app"] {
            do {
                let opened = try await Database.open(.postgres(url: url), logger: TestDatabases.logger)
                try await opened.close()
                Issue.record("\(url) opened")
            } catch {
                #expect(error as? DatabaseConfigurationError == .unusablePostgresURL, "\(error)")
                #expect(!"\(error)".contains("secret"), "\(error)")
            }
        }
    }

    @Test("DATABASE_URL: a host query item that is a directory is PostgreSQL's Unix socket in it, as libpq reads it")
    func postgresSocket() throws {
        let socket = DatabaseConfiguration.postgresSocketPath
        #expect(socket("postgres://splitter@/app?host=/var/run/postgresql") == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(
            socket("postgresql://u:p@localhost:5433/app?host=%2Fvar%2Frun%2Fpostgresql%2F")
                == "/var/run/postgresql/.s.PGSQL.5433")
        #expect(socket("postgres://u@/app?port=6000&host=/tmp/pg") == "/tmp/pg/.s.PGSQL.6000")
        #expect(socket("postgres://u@db:5432/app") == nil)
        #expect(socket("postgres://u@db/app?host=db.internal") == nil)
        #expect(socket("postgres://u@db/app?sslmode=require") == nil)
        let url = "postgres://u:secret@/app?host=/var/run/postgresql"
        #expect(try DatabaseConfiguration(databaseURL: url) == .postgres(url: url))
        let description = try DatabaseConfiguration(databaseURL: url).description
        #expect(description == "PostgreSQL over the Unix socket /var/run/postgresql/.s.PGSQL.5432, database app")
        #expect(!description.contains("secret"))
        // Never TLS on a socket: the URL is left as it is.
        #expect(DatabaseConfiguration.postgresURLWithTLSDefault(url) == url)
    }
}
