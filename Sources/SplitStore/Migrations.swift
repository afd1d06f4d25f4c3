import Logging
import SQLKit

/// One schema step. Append-only: a migration that has shipped is never edited, only followed.
public struct Migration: Sendable {
    /// Ordered id, "0001_accounts".
    public let id: String
    /// Portable SQL (DESIGN §6): TEXT ids and codes, BIGINT minor units and epoch-millisecond
    /// timestamps, BOOLEAN, CHECK instead of enums; the same text on SQLite and PostgreSQL.
    public let statements: [String]
}

/// The ordered list of migrations, and the runner the server calls before it takes requests.
public enum Migrations {
    public static let all: [Migration] = [
        Migration(
            id: "0001_accounts",
            statements: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT UNIQUE,
                    phone TEXT UNIQUE,
                    display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
                    password_hash TEXT NOT NULL,
                    is_active BOOLEAN NOT NULL DEFAULT TRUE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    CHECK (email IS NOT NULL OR phone IS NOT NULL)
                )
                """,
                // Tokens are stored only as hashes (DESIGN §4); revoked_at set = logged out.
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    token_hash TEXT NOT NULL UNIQUE,
                    device_id TEXT,
                    device_name TEXT,
                    ip_address TEXT,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX sessions_by_user ON sessions (user_id)",
            ]
        ),
        Migration(
            id: "0002_groups_and_members",
            statements: [
                """
                CREATE TABLE groups (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    description TEXT NOT NULL DEFAULT '',
                    home_currency TEXT NOT NULL CHECK (length(home_currency) = 3),
                    owner_user_id TEXT NOT NULL REFERENCES users (id),
                    invite_code TEXT UNIQUE,
                    is_archived BOOLEAN NOT NULL DEFAULT FALSE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                // One membership table (DESIGN §4): a member may be a name only (user_id NULL);
                // removed members are deactivated, never deleted, so history keeps their name.
                """
                CREATE TABLE members (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    user_id TEXT REFERENCES users (id),
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
                    can_add_expenses BOOLEAN NOT NULL DEFAULT TRUE,
                    can_edit_own_expenses BOOLEAN NOT NULL DEFAULT TRUE,
                    can_edit_all_expenses BOOLEAN NOT NULL DEFAULT FALSE,
                    can_mark_paid BOOLEAN NOT NULL DEFAULT TRUE,
                    is_active BOOLEAN NOT NULL DEFAULT TRUE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    UNIQUE (group_id, user_id)
                )
                """,
                "CREATE INDEX members_by_user ON members (user_id)",
            ]
        ),
        Migration(
            id: "0003_auth_attempts",
            statements: [
                // Rate limits live in the database, not in process memory, so they hold across
                // restarts and across several app servers (DESIGN §2). Old rows are pruned as
                // each subject is written.
                """
                CREATE TABLE auth_attempts (
                    id TEXT PRIMARY KEY,
                    scope TEXT NOT NULL CHECK (scope IN ('login_account', 'login_address', 'register_address')),
                    subject TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX auth_attempts_by_subject ON auth_attempts (scope, subject, at)",
            ]
        ),
        Migration(
            id: "0004_one_owner_per_group",
            statements: [
                // The database itself refuses a second owner (DESIGN §4: one owner), whatever
                // the code above it does. Existing data has one owner per group already: every
                // owner change so far went through the transfer transaction.
                "CREATE UNIQUE INDEX members_one_owner ON members (group_id) WHERE role = 'owner'",
                "CREATE INDEX auth_attempts_by_time ON auth_attempts (at)",
            ]
        ),
    ]

    /// Applies, in order, every migration not yet recorded in `schema_migrations`, each in its
    /// own transaction with its record. Safe to run from several servers at once.
    ///
    /// - Returns: the ids applied by this call.
    @discardableResult
    public static func run(on database: Database, migrations: [Migration] = all) async throws -> [String] {
        try await database.transaction { sql in
            try await database.lockForMigrations(sql)
            try await sql.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)"
            ).run()
        }
        var applied: [String] = []
        for migration in migrations {
            let didApply = try await database.transaction { sql in
                try await database.lockForMigrations(sql)
                let existing = try await sql.raw("SELECT id FROM schema_migrations WHERE id = \(bind: migration.id)")
                    .first()
                guard existing == nil else { return false }
                for statement in migration.statements {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.raw(
                    "INSERT INTO schema_migrations (id, applied_at) VALUES (\(bind: migration.id), \(bind: Clock.milliseconds()))"
                ).run()
                return true
            }
            if didApply {
                database.logger.info("applied migration", metadata: ["migration": "\(migration.id)"])
                applied.append(migration.id)
            }
        }
        return applied
    }

    /// Ids recorded as applied, in order.
    public static func applied(on database: Database) async throws -> [String] {
        try await database.read { sql in
            try await sql.raw("SELECT id FROM schema_migrations ORDER BY id").all().map {
                try $0.decode(column: "id", as: String.self)
            }
        }
    }
}
