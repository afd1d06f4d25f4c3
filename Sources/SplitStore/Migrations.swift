// Over 400 lines on purpose: the migrations are one ordered, append-only list, read top to
// bottom in the order they run; splitting it across files would hide that order.

import Foundation
import Logging
import SQLKit
import SplitCore

/// One schema step. Append-only: a migration that has shipped is never edited, only followed.
public struct Migration: Sendable {
    /// Ordered id, "0001_accounts".
    public let id: String
    /// Portable SQL (DESIGN §6): TEXT ids and codes, BIGINT minor units and epoch-millisecond
    /// timestamps, BOOLEAN, CHECK instead of enums; the same text on SQLite and PostgreSQL.
    public let statements: [String]
    /// Fills new tables from the data already there, after the statements and in the same
    /// transaction, when that takes more than SQL (money rules live in SplitCore).
    public let fill: (@Sendable (any SQLDatabase) async throws -> Void)?

    public init(
        id: String, statements: [String], fill: (@Sendable (any SQLDatabase) async throws -> Void)? = nil
    ) {
        self.id = id
        self.statements = statements
        self.fill = fill
    }
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
        Migration(
            id: "0005_expenses_and_ledger",
            statements: [
                // Existing groups start at change 0; every later write to a group takes the next number.
                "ALTER TABLE groups ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0",
                """
                CREATE TABLE categories (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
                    icon TEXT NOT NULL DEFAULT '',
                    color TEXT NOT NULL DEFAULT '',
                    is_default BOOLEAN NOT NULL DEFAULT FALSE,
                    position BIGINT NOT NULL,
                    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX categories_by_group ON categories (group_id)",
                // Amounts are minor units of `currency` (DESIGN §3); the split rule is kept as
                // entered (JSON) so the expense can be re-edited; the shares are what counts.
                """
                CREATE TABLE expenses (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
                    amount BIGINT NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    category_id TEXT NOT NULL REFERENCES categories (id),
                    expense_date TEXT NOT NULL CHECK (length(expense_date) = 10),
                    split_json TEXT NOT NULL,
                    home_amount BIGINT,
                    -- The home currency home_amount is in: the group's may change later.
                    home_currency TEXT,
                    created_by_user_id TEXT NOT NULL REFERENCES users (id),
                    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX expenses_by_group ON expenses (group_id, expense_date, id)",
                """
                CREATE TABLE expense_payers (
                    expense_id TEXT NOT NULL REFERENCES expenses (id),
                    member_id TEXT NOT NULL REFERENCES members (id),
                    amount BIGINT NOT NULL CHECK (amount > 0),
                    PRIMARY KEY (expense_id, member_id)
                )
                """,
                "CREATE INDEX expense_payers_by_member ON expense_payers (member_id)",
                // A share keeps its id while the expense is edited, so its paid state and history
                // survive; a member dropped from the split keeps the row, marked removed.
                """
                CREATE TABLE expense_splits (
                    id TEXT PRIMARY KEY,
                    expense_id TEXT NOT NULL REFERENCES expenses (id),
                    member_id TEXT NOT NULL REFERENCES members (id),
                    amount BIGINT NOT NULL CHECK (amount >= 0),
                    is_paid BOOLEAN NOT NULL DEFAULT FALSE,
                    paid_at BIGINT,
                    is_removed BOOLEAN NOT NULL DEFAULT FALSE,
                    UNIQUE (expense_id, member_id)
                )
                """,
                "CREATE INDEX expense_splits_by_member ON expense_splits (member_id)",
                """
                CREATE TABLE settlements (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    from_member_id TEXT NOT NULL REFERENCES members (id),
                    to_member_id TEXT NOT NULL REFERENCES members (id),
                    amount BIGINT NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    settled_on TEXT NOT NULL,
                    note TEXT NOT NULL DEFAULT '',
                    expense_split_id TEXT REFERENCES expense_splits (id),
                    created_by_user_id TEXT NOT NULL REFERENCES users (id),
                    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    CHECK (from_member_id <> to_member_id)
                )
                """,
                "CREATE INDEX settlements_by_group ON settlements (group_id, created_at)",
                "CREATE INDEX settlements_by_split ON settlements (expense_split_id)",
                // The running ledger (DESIGN §3: net = paid − owed + sent − received), updated in the
                // transaction of every write so reads cost the same at 10 or 10,000 expenses.
                """
                CREATE TABLE balances (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    member_id TEXT NOT NULL REFERENCES members (id),
                    currency TEXT NOT NULL,
                    net BIGINT NOT NULL,
                    PRIMARY KEY (group_id, member_id, currency)
                )
                """,
                // Append-only audit trail of paid/unpaid marks (DESIGN §6).
                """
                CREATE TABLE payment_history (
                    id TEXT PRIMARY KEY,
                    expense_split_id TEXT NOT NULL REFERENCES expense_splits (id),
                    action TEXT NOT NULL CHECK (action IN ('marked_paid', 'marked_unpaid')),
                    performed_by_user_id TEXT NOT NULL REFERENCES users (id),
                    performed_by_name TEXT NOT NULL,
                    performed_at BIGINT NOT NULL,
                    -- The group's change number: orders marks made within one millisecond.
                    seq BIGINT NOT NULL,
                    reason TEXT,
                    ip_address TEXT,
                    device_info TEXT
                )
                """,
                "CREATE INDEX payment_history_by_split ON payment_history (expense_split_id, seq)",
                """
                CREATE TABLE activity (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    seq BIGINT NOT NULL,
                    actor_user_id TEXT,
                    actor_name TEXT NOT NULL DEFAULT '',
                    action TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX activity_by_group ON activity (group_id, seq)",
                // The change feed: the latest change number of each object; numbers come from the
                // group row, taken under its lock, so they are handed out in commit order.
                """
                CREATE TABLE changes (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    entity TEXT NOT NULL CHECK (entity IN ('group', 'member', 'category', 'expense', 'settlement')),
                    entity_id TEXT NOT NULL,
                    seq BIGINT NOT NULL,
                    is_deleted BOOLEAN NOT NULL,
                    PRIMARY KEY (group_id, entity, entity_id)
                )
                """,
                "CREATE INDEX changes_by_seq ON changes (group_id, seq)",
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL REFERENCES users (id),
                    key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    status BIGINT NOT NULL,
                    body TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, key)
                )
                """,
                """
                CREATE TABLE rates (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    from_currency TEXT NOT NULL CHECK (length(from_currency) = 3),
                    to_currency TEXT NOT NULL CHECK (length(to_currency) = 3),
                    rate_date TEXT NOT NULL CHECK (length(rate_date) = 10),
                    rate TEXT NOT NULL,
                    updated_by_user_id TEXT NOT NULL REFERENCES users (id),
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (group_id, from_currency, to_currency, rate_date)
                )
                """,
            ]
        ),
        Migration(
            id: "0006_pairwise_ledger",
            statements: [
                // Who owes whom, pair by pair (the "don't simplify" view), kept like `balances` in
                // the transaction of every write. One row per pair, lower member id first; `owed`
                // is what the lower owes the higher (negative: the other way).
                """
                CREATE TABLE pair_debts (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    currency TEXT NOT NULL,
                    lower_member_id TEXT NOT NULL REFERENCES members (id),
                    higher_member_id TEXT NOT NULL REFERENCES members (id),
                    owed BIGINT NOT NULL,
                    PRIMARY KEY (group_id, currency, lower_member_id, higher_member_id),
                    CHECK (lower_member_id < higher_member_id)
                )
                """
            ],
            fill: Ledger.fillPairDebts
        ),
        Migration(
            id: "0007_owned_split_format",
            statements: [],
            // Every split_json row held the API's split object as it was sent (amounts as decimal
            // strings in major units, any fields the client added). Each becomes `StoredSplit`
            // version 1: only what its mode uses, amounts in minor units. A row that cannot be read
            // (none is known) is rewritten as the exact split its live shares already are, so no
            // expense is lost and its money is unchanged.
            fill: { sql in
                for row in try await sql.raw("SELECT id, currency, split_json FROM expenses").all() {
                    let id = try row.decode(column: "id", as: String.self)
                    let rule: SplitRule
                    if let read = try? StoredSplit.decode(
                        try row.decode(column: "split_json", as: String.self),
                        currency: try row.decode(column: "currency", as: String.self))
                    {
                        rule = read
                    } else {
                        rule = .exact(
                            try await sql.raw(
                                """
                                SELECT member_id, amount FROM expense_splits
                                WHERE expense_id = \(bind: id) AND is_removed = \(bind: false) ORDER BY member_id
                                """
                            ).all().map {
                                MemberAmount(
                                    MemberID(try $0.decodeUUID("member_id")),
                                    try $0.decode(column: "amount", as: Int64.self))
                            })
                    }
                    try await sql.raw(
                        "UPDATE expenses SET split_json = \(bind: StoredSplit.encode(rule)) WHERE id = \(bind: id)"
                    ).run()
                }
            }
        ),
        Migration(
            id: "0008_structured_activity",
            statements: ["ALTER TABLE activity ADD COLUMN details TEXT NOT NULL DEFAULT '{}'"],
            // Activity lines stored English sentences (`summary`), which no other language could
            // show. Each becomes an `ActivityEvent` (names, amounts, counts) read back from its
            // sentence, which this code's earlier versions wrote from one template per action; a
            // sentence that does not match its template is kept whole as the event's legacy text.
            fill: { sql in
                for row in try await sql.raw("SELECT id, action, actor_name, summary FROM activity").all() {
                    let event = ActivityEvent.fromLegacy(
                        action: try row.decode(column: "action", as: String.self),
                        actorName: try row.decode(column: "actor_name", as: String.self),
                        summary: try row.decode(column: "summary", as: String.self))
                    try await sql.raw(
                        """
                        UPDATE activity SET details = \(bind: event.json)
                        WHERE id = \(bind: try row.decode(column: "id", as: String.self))
                        """
                    ).run()
                }
                try await sql.raw("ALTER TABLE activity DROP COLUMN summary").run()
            }
        ),
        Migration(
            id: "0009_rate_limit_scopes",
            statements: [
                // New limits (issue 14): failed logins per account and address, successful
                // logins, wrong current passwords per session, failed invite-code joins. The
                // table holds only the last hour of attempts, so it is made again rather than
                // rebuilt (SQLite cannot change a CHECK): limits restart from zero once.
                "DROP TABLE auth_attempts",
                """
                CREATE TABLE auth_attempts (
                    id TEXT PRIMARY KEY,
                    scope TEXT NOT NULL CHECK (scope IN ('login_account', 'login_address', 'register_address',
                        'login_account_address', 'login_success', 'password_change', 'join_address')),
                    subject TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX auth_attempts_by_subject ON auth_attempts (scope, subject, at)",
                "CREATE INDEX auth_attempts_by_time ON auth_attempts (at)",
            ]
        ),
        Migration(
            id: "0010_append_only_history",
            statements: [],
            fill: { sql in
                // The payment history and the activity list are the audit trail (DESIGN §3):
                // rows are added, never changed or removed, whoever holds a connection (issue 14
                // item 15). Trigger syntax differs, so each database gets its own.
                let tables = ["payment_history", "activity"]
                if sql.dialect.name == "sqlite" {
                    for table in tables {
                        for event in ["UPDATE", "DELETE"] {
                            try await sql.raw(
                                """
                                CREATE TRIGGER \(unsafeRaw: table)_no_\(unsafeRaw: event.lowercased())
                                BEFORE \(unsafeRaw: event) ON \(unsafeRaw: table)
                                BEGIN SELECT RAISE(ABORT, '\(unsafeRaw: table) is append-only'); END
                                """
                            ).run()
                        }
                    }
                } else {
                    try await sql.raw(
                        """
                        CREATE FUNCTION refuse_append_only_change() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$
                        """
                    ).run()
                    for table in tables {
                        try await sql.raw(
                            """
                            CREATE TRIGGER \(unsafeRaw: table)_append_only BEFORE UPDATE OR DELETE ON \(unsafeRaw: table)
                            FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change()
                            """
                        ).run()
                        try await sql.raw(
                            """
                            CREATE TRIGGER \(unsafeRaw: table)_no_truncate BEFORE TRUNCATE ON \(unsafeRaw: table)
                            FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change()
                            """
                        ).run()
                    }
                }
            }
        ),
        Migration(
            // Expired idempotency keys are removed by time (Idempotency.window).
            id: "0011_idempotency_key_expiry",
            statements: ["CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at)"]
        ),
        Migration(
            // Claims of name-only members with money history wait for an owner or admin (issue 14
            // item 5); one waiting claim per member.
            id: "0012_member_claims",
            statements: [
                """
                CREATE TABLE member_claims (
                    member_id TEXT PRIMARY KEY REFERENCES members (id),
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    user_id TEXT NOT NULL REFERENCES users (id),
                    requested_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX member_claims_by_group ON member_claims (group_id, requested_at)",
                "CREATE INDEX member_claims_by_user ON member_claims (user_id)",
            ]
        ),
        Migration(
            // The expense list orders one day's expenses by when they were entered (issue 15).
            id: "0013_expenses_by_entry",
            statements: [
                "CREATE INDEX expenses_by_group_entry ON expenses (group_id, expense_date, created_at, id)",
                "DROP INDEX expenses_by_group",
            ]
        ),
        Migration(
            // A group's time zone (issue 15): its "today" and the times its pages show. Groups
            // made before it keep UTC, what they were shown in, until someone sets theirs.
            id: "0014_group_time_zone",
            statements: ["ALTER TABLE groups ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC'"]
        ),
        Migration(
            // The home view reads a group's expenses with a charged amount on every balances read;
            // without this it scanned all of the group's expenses (10 ms at 10,000: issue 16).
            id: "0015_expenses_charged",
            statements: ["CREATE INDEX expenses_charged ON expenses (group_id) WHERE home_amount IS NOT NULL"]
        ),
        Migration(
            // Each account's notification inbox (issue 17): an activity line it is for, read or
            // not; and per group how much of the group's activity the account wants there.
            id: "0016_notifications",
            statements: [
                """
                CREATE TABLE notifications (
                    user_id TEXT NOT NULL REFERENCES users (id),
                    activity_id TEXT NOT NULL REFERENCES activity (id),
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    created_at BIGINT NOT NULL,
                    read_at BIGINT,
                    PRIMARY KEY (user_id, activity_id)
                )
                """,
                "CREATE INDEX notifications_by_user ON notifications (user_id, created_at, activity_id)",
                "CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL",
                """
                CREATE TABLE notification_settings (
                    user_id TEXT NOT NULL REFERENCES users (id),
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    level TEXT NOT NULL CHECK (level IN ('all', 'mine', 'none')),
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, group_id)
                )
                """,
            ]
        ),
        Migration(
            // Durable background work (docs/architecture.md, "Jobs"): what must happen once,
            // later or with retries (mail, webhooks, recurring expenses), whichever server runs it.
            id: "0017_jobs",
            statements: [
                """
                CREATE TABLE jobs (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    unique_key TEXT UNIQUE,
                    payload TEXT NOT NULL,
                    due_at BIGINT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    locked_by TEXT,
                    locked_until BIGINT,
                    done_at BIGINT,
                    failed_at BIGINT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX jobs_due ON jobs (due_at) WHERE done_at IS NULL AND failed_at IS NULL",
            ]
        ),
        Migration(
            // Notification mail (issue 17) and verified addresses (issue 14): mail goes only to
            // addresses whose owner followed a verification link; each account chooses a mail
            // per notification, a daily digest or none, and which kinds; `mailed_at` says a
            // notification has gone out (so a digest never repeats one).
            id: "0018_mail",
            statements: [
                "ALTER TABLE users ADD COLUMN email_verified_at BIGINT",
                "ALTER TABLE notifications ADD COLUMN mailed_at BIGINT",
                """
                CREATE TABLE mail_settings (
                    user_id TEXT PRIMARY KEY REFERENCES users (id),
                    mode TEXT NOT NULL DEFAULT 'each' CHECK (mode IN ('each', 'daily', 'off')),
                    off_categories TEXT NOT NULL DEFAULT ',',
                    digest_hour INTEGER NOT NULL DEFAULT 7 CHECK (digest_hour BETWEEN 0 AND 23),
                    unsubscribe_key TEXT NOT NULL UNIQUE,
                    updated_at BIGINT NOT NULL
                )
                """,
                // Only hashes of the links' tokens are kept (DESIGN §4).
                """
                CREATE TABLE email_verifications (
                    token_hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    email TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX email_verifications_by_user ON email_verifications (user_id)",
            ]
        ),
        Migration(
            // Webhooks (issue 17): URLs a group's admins registered, each with the event kinds it
            // wants and the secret deliveries are signed with (kept as is: the server needs it to
            // sign), and a log of every delivery. `kinds` is "*" or ",kind,kind," so one LIKE on
            // the group's live webhooks (the partial index) finds those a write must notify.
            // Deleted webhooks stay (deleted_at, secret erased) so their delivery log does.
            id: "0019_webhooks",
            statements: [
                """
                CREATE TABLE webhooks (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    url TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
                    secret TEXT NOT NULL,
                    kinds TEXT NOT NULL CHECK (length(kinds) BETWEEN 1 AND 4000),
                    created_by_user_id TEXT REFERENCES users (id),
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    disabled_at BIGINT,
                    disabled_reason TEXT,
                    failing_since BIGINT,
                    last_success_at BIGINT,
                    deleted_at BIGINT
                )
                """,
                "CREATE INDEX webhooks_live ON webhooks (group_id) WHERE disabled_at IS NULL AND deleted_at IS NULL",
                "CREATE INDEX webhooks_by_group ON webhooks (group_id, created_at)",
                """
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY,
                    webhook_id TEXT NOT NULL REFERENCES webhooks (id),
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    activity_id TEXT REFERENCES activity (id),
                    kind TEXT NOT NULL,
                    body TEXT,
                    state TEXT NOT NULL DEFAULT 'pending'
                        CHECK (state IN ('pending', 'delivered', 'failed', 'skipped')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_status INTEGER,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    last_attempt_at BIGINT,
                    finished_at BIGINT
                )
                """,
                "CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, id)",
                "CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id) WHERE state = 'pending'",
            ]
        ),
        Migration(
            // "Forgot my password" (issue 14 item 18): mailed links now either verify an address
            // or set a new password; and password-reset requests are limited per client address
            // (a new scope: the table holds only the last hour of attempts, so it is made again
            // as in 0009).
            id: "0020_password_reset",
            statements: [
                """
                ALTER TABLE email_verifications ADD COLUMN purpose TEXT NOT NULL DEFAULT 'verify'
                    CHECK (purpose IN ('verify', 'reset'))
                """,
                "DROP TABLE auth_attempts",
                """
                CREATE TABLE auth_attempts (
                    id TEXT PRIMARY KEY,
                    scope TEXT NOT NULL CHECK (scope IN ('login_account', 'login_address', 'register_address',
                        'login_account_address', 'login_success', 'password_change', 'join_address', 'reset_address')),
                    subject TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX auth_attempts_by_subject ON auth_attempts (scope, subject, at)",
                "CREATE INDEX auth_attempts_by_time ON auth_attempts (at)",
            ]
        ),
        Migration(
            // Refunds and income (issue 18): an expense's total, and its payers' amounts, may be
            // below zero, never zero; a refund's shares are zero or below. The money rules stay in
            // SplitCore; the database now only refuses a zero total or payment. PostgreSQL changes
            // the constraints; SQLite cannot, so its stored table text is edited as SQLite's
            // documentation describes for loosening a CHECK (a change to no stored row): in this
            // transaction, with writable_schema and a new schema_version.
            id: "0021_refunds",
            statements: [],
            fill: { sql in
                if sql.dialect.name == "sqlite" {
                    let version = try await sql.raw("PRAGMA schema_version").first()
                        .map { try $0.decode(column: "schema_version", as: Int64.self) } ?? 0
                    try await sql.raw("PRAGMA writable_schema = ON").run()
                    for (table, old, new) in [
                        ("expenses", "CHECK (amount > 0)", "CHECK (amount <> 0)"),
                        ("expense_payers", "CHECK (amount > 0)", "CHECK (amount <> 0)"),
                        ("expense_splits", " CHECK (amount >= 0)", ""),
                    ] {
                        try await sql.raw(
                            """
                            UPDATE sqlite_master SET sql = replace(sql, \(bind: old), \(bind: new))
                            WHERE type = 'table' AND name = \(bind: table)
                            """
                        ).run()
                    }
                    try await sql.raw("PRAGMA schema_version = \(unsafeRaw: String(version + 1))").run()
                    try await sql.raw("PRAGMA writable_schema = OFF").run()
                    let check = try await sql.raw("PRAGMA integrity_check").all()
                        .map { try $0.decode(column: "integrity_check", as: String.self) }
                    guard check == ["ok"] else {
                        throw MigrationError.failed("0021_refunds", check.joined(separator: "; "))
                    }
                } else {
                    for table in ["expenses", "expense_payers"] {
                        try await sql.raw(
                            """
                            ALTER TABLE \(unsafeRaw: table) DROP CONSTRAINT \(unsafeRaw: table)_amount_check,
                                ADD CONSTRAINT \(unsafeRaw: table)_amount_check CHECK (amount <> 0)
                            """
                        ).run()
                    }
                    try await sql.raw("ALTER TABLE expense_splits DROP CONSTRAINT expense_splits_amount_check").run()
                }
            }
        ),
        Migration(
            // Imports from other apps (issue 18): one row per file imported into a group, so the
            // same file (by its SHA-256) is not imported twice unless the importer insists.
            id: "0022_imports",
            statements: [
                """
                CREATE TABLE imports (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    format TEXT NOT NULL,
                    content_hash TEXT NOT NULL,
                    forced BOOLEAN NOT NULL,
                    expenses BIGINT NOT NULL,
                    settlements BIGINT NOT NULL,
                    created_by_user_id TEXT NOT NULL REFERENCES users (id),
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX imports_by_content ON imports (group_id, content_hash)",
            ]
        ),
        Migration(
            // Payment requests (issue 19): a member asks to be paid; a payer finds the request by
            // its short code, locks it (first lock wins) and pays it once, which records one
            // settlement. `status` is open, locked, paid or cancelled; expired is worked out
            // from `expires_at`, and a lock past `locked_until` is open again.
            id: "0023_payment_requests",
            statements: [
                """
                CREATE TABLE payment_requests (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    code TEXT NOT NULL UNIQUE CHECK (length(code) = 10),
                    payee_member_id TEXT NOT NULL REFERENCES members (id),
                    payer_member_id TEXT REFERENCES members (id),
                    amount BIGINT NOT NULL CHECK (amount > 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    note TEXT NOT NULL DEFAULT '',
                    status TEXT NOT NULL CHECK (status IN ('open', 'locked', 'paid', 'cancelled')),
                    locked_by_member_id TEXT REFERENCES members (id),
                    locked_by_user_id TEXT REFERENCES users (id),
                    locked_until BIGINT,
                    paid_by_member_id TEXT REFERENCES members (id),
                    settlement_id TEXT REFERENCES settlements (id),
                    paid_at BIGINT,
                    expires_at BIGINT NOT NULL,
                    created_by_user_id TEXT NOT NULL REFERENCES users (id),
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX payment_requests_by_group ON payment_requests (group_id, created_at)",
            ]
        ),
        Migration(
            // How each account likes to be paid (issue 19): IBAN, UPI, PayPal.me … as the
            // application's own JSON; shown to the members of the account's groups only.
            id: "0024_pay_details",
            statements: [
                """
                CREATE TABLE pay_details (
                    user_id TEXT PRIMARY KEY REFERENCES users (id),
                    methods TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """
            ]
        ),
        Migration(
            // Budgets (issue 20). `spending` holds each member's shares summed per day, category
            // and currency, kept in every expense write's transaction like `balances`, so a
            // budget's status reads a period's rows, never every expense. `budget_alerts` has one
            // row per alert sent: its key makes each one go out once, whatever servers run.
            id: "0025_budgets",
            statements: [
                """
                CREATE TABLE spending (
                    member_id TEXT NOT NULL REFERENCES members (id),
                    day TEXT NOT NULL,
                    category_id TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    amount BIGINT NOT NULL,
                    PRIMARY KEY (member_id, day, category_id, currency)
                )
                """,
                "CREATE INDEX spending_by_group ON spending (group_id, day)",
                """
                CREATE TABLE budgets (
                    group_id TEXT PRIMARY KEY REFERENCES groups (id),
                    period TEXT NOT NULL CHECK (period IN ('month', 'trip')),
                    start_date TEXT,
                    end_date TEXT,
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    total BIGINT CHECK (total >= 0),
                    thresholds TEXT NOT NULL,
                    updated_by_user_id TEXT REFERENCES users (id),
                    updated_at BIGINT NOT NULL,
                    CHECK (period = 'month' OR (start_date IS NOT NULL AND end_date IS NOT NULL AND start_date <= end_date))
                )
                """,
                """
                CREATE TABLE budget_caps (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    category_id TEXT NOT NULL REFERENCES categories (id),
                    amount BIGINT NOT NULL CHECK (amount >= 0),
                    PRIMARY KEY (group_id, category_id)
                )
                """,
                """
                CREATE TABLE budget_alerts (
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    period TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    threshold INTEGER NOT NULL,
                    at BIGINT NOT NULL,
                    PRIMARY KEY (group_id, period, scope, threshold)
                )
                """,
                """
                CREATE TABLE personal_budgets (
                    user_id TEXT PRIMARY KEY REFERENCES users (id),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    total BIGINT CHECK (total >= 0),
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE personal_budget_caps (
                    user_id TEXT NOT NULL REFERENCES users (id),
                    name_key TEXT NOT NULL,
                    name TEXT NOT NULL,
                    amount BIGINT NOT NULL CHECK (amount >= 0),
                    PRIMARY KEY (user_id, name_key)
                )
                """,
            ],
            fill: { sql in
                for row in try await sql.raw("SELECT id FROM groups").all() {
                    let groupID = try row.decodeUUID("id")
                    try await Spending.apply(
                        try await Spending.recomputed(groupID: groupID, sql), groupID: groupID, paid: false, sql)
                }
            }
        ),
        Migration(
            // Recurring expenses and the pending queue (issue 20). `recurring_occurrences` has
            // (series, date) as its key: whichever server makes an occurrence first, a second
            // attempt inserts nothing and so makes nothing.
            id: "0026_recurring",
            statements: [
                """
                CREATE TABLE recurring_series (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    template TEXT NOT NULL,
                    rule TEXT NOT NULL,
                    mode TEXT NOT NULL CHECK (mode IN ('auto', 'confirm')),
                    state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'ended')),
                    note TEXT,
                    next_date TEXT,
                    skipped TEXT NOT NULL DEFAULT '',
                    created_by_user_id TEXT NOT NULL REFERENCES users (id),
                    version BIGINT NOT NULL DEFAULT 1,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX recurring_series_by_group ON recurring_series (group_id, created_at)",
                "CREATE INDEX recurring_series_due ON recurring_series (next_date) WHERE state = 'active'",
                """
                CREATE TABLE recurring_occurrences (
                    series_id TEXT NOT NULL REFERENCES recurring_series (id),
                    occurrence_date TEXT NOT NULL,
                    expense_id TEXT,
                    pending_id TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (series_id, occurrence_date)
                )
                """,
                """
                CREATE TABLE pending_expenses (
                    id TEXT PRIMARY KEY,
                    group_id TEXT NOT NULL REFERENCES groups (id),
                    series_id TEXT NOT NULL REFERENCES recurring_series (id),
                    occurrence_date TEXT NOT NULL,
                    template TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'dismissed')),
                    expense_id TEXT,
                    decided_by_user_id TEXT REFERENCES users (id),
                    decided_at BIGINT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX pending_expenses_open ON pending_expenses (group_id, occurrence_date) WHERE state = 'pending'",
            ]
        ),
        Migration(
            id: "0027_nfc_emails",
            statements: [],
            // Addresses are kept in Unicode's composed form (NFC) since issue 14 item 12, and a
            // login composes what is typed; an address stored decomposed by an earlier release
            // could no longer be signed into. Each is rewritten to its composed form, unless
            // another account already has that form: then it stays as it was, and a warning
            // names both accounts for the operator (deleting or renaming one of them).
            fill: { sql in
                for row in try await sql.raw("SELECT id, email FROM users WHERE email IS NOT NULL ORDER BY created_at, id").all() {
                    let id = try row.decode(column: "id", as: String.self)
                    let email = try row.decode(column: "email", as: String.self)
                    let composed = email.precomposedStringWithCanonicalMapping
                    // Bytes, not String's ==, which holds canonically equivalent text equal.
                    guard !composed.utf8.elementsEqual(email.utf8) else { continue }
                    if let other = try await sql.raw("SELECT id FROM users WHERE email = \(bind: composed)").first() {
                        let otherID = try other.decode(column: "id", as: String.self)
                        Logger(label: "splitter.migrations").warning(
                            "an address, composed, is already another account's: this account keeps its decomposed address",
                            metadata: [
                                "account": "\(id)", "other": "\(otherID)",
                            ])
                        continue
                    }
                    try await sql.raw("UPDATE users SET email = \(bind: composed) WHERE id = \(bind: id)").run()
                }
            }
        ),
        Migration(
            id: "0028_access_tokens",
            // Personal access tokens (issue 21) are sessions with a name, scopes ("read" or
            // "read,write") and optionally the groups they reach (ids, comma-separated): resolved,
            // expired, revoked and followed by live streams as logins are. A login has no scopes.
            statements: [
                "ALTER TABLE sessions ADD COLUMN token_name TEXT",
                "ALTER TABLE sessions ADD COLUMN scopes TEXT",
                "ALTER TABLE sessions ADD COLUMN group_ids TEXT",
            ]
        ),
        Migration(
            id: "0029_conversations",
            // The assistant's conversations (issue 21), each an account's own: the group it is
            // about, the expense line it waits to hear yes for, its last change (for undo).
            statements: [
                """
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    group_id TEXT REFERENCES groups (id),
                    title TEXT NOT NULL,
                    pending TEXT,
                    last_action TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX conversations_by_user ON conversations (user_id, updated_at)",
                """
                CREATE TABLE conversation_messages (
                    conversation_id TEXT NOT NULL REFERENCES conversations (id),
                    seq BIGINT NOT NULL,
                    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
                    content TEXT NOT NULL,
                    tools TEXT NOT NULL DEFAULT '[]',
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (conversation_id, seq)
                )
                """,
            ]
        ),
        Migration(
            id: "0030_shares_without_member_indexes",
            // Payers and shares are found by their expense. An index by member put each share of
            // a create at the end of its member's part of the index, a page per member: ten of
            // the 38 pages a create wrote to SQLite's log (issue 16). The few reads by member go
            // through the group's expenses instead (`ExpenseStore`'s member filter, `hasHistory`,
            // personal budgets). Members are never deleted: no foreign-key check needs them.
            statements: [
                "DROP INDEX expense_payers_by_member",
                "DROP INDEX expense_splits_by_member",
            ]
        ),
        Migration(
            id: "0031_pair_debts_in_proportion",
            statements: ["DELETE FROM pair_debts"],
            // Each expense's pairwise debts are now in proportion to what each payer is owed (they
            // were matched in member-id order): the running ledger is worked out again from the
            // expenses and transfers, so removing an expense later takes away what it added.
            // Transfers recorded by paid marks before it keep their amounts (money that moved is
            // never rewritten): the pairwise view shows what the new matching leaves between
            // those payers, netting to the same balances. Servers older than this one write the
            // old matching: upgrade past it with every server stopped (README, "Upgrading").
            fill: Ledger.fillPairDebts
        ),
        Migration(
            id: "0032_spending_in_todays_home_currency",
            statements: [],
            // The spending totals count a charge only in the group's home currency of today (they
            // counted one in a former home currency): the groups with such a charge have theirs
            // worked out again; the rest are as they would be.
            fill: { sql in
                let groups = try await sql.raw(
                    """
                    SELECT DISTINCT e.group_id FROM expenses e JOIN groups g ON g.id = e.group_id
                    WHERE e.home_amount IS NOT NULL AND e.home_currency <> g.home_currency
                    """
                ).all().map { try $0.decodeUUID("group_id") }
                for groupID in groups {
                    try await sql.raw("DELETE FROM spending WHERE group_id = \(bind: groupID.text)").run()
                    try await Spending.apply(
                        try await Spending.recomputed(groupID: groupID, sql), groupID: groupID, paid: false, sql)
                }
            }
        ),
        Migration(
            // What each member paid, kept running beside their shares (issue 16: "Who paid what"
            // summed every expense's payers on each read, 11.7 ms at 10,000 expenses). Filled in
            // SQL for the expenses that count in their own currency; the few charged in the home
            // currency are apportioned in Swift, as `Spending.parts` does.
            id: "0033_spending_paid",
            statements: ["ALTER TABLE spending ADD COLUMN paid BIGINT NOT NULL DEFAULT 0"],
            fill: Spending.fillPaid
        ),
        Migration(
            // The share a paid mark's transfer was for, kept when an edit voids the mark (the
            // transfer stays, a plain one): marking the share paid again moves only what is left
            // (found by a new user: 33.33 paid, the share edited to 43.33, marked paid again, and
            // 43.33 more was recorded). Marks voided before this are plain transfers, as they were.
            id: "0034_settlements_voided_share",
            statements: [
                "ALTER TABLE settlements ADD COLUMN voided_split_id TEXT REFERENCES expense_splits (id)",
                "CREATE INDEX settlements_by_voided_split ON settlements (voided_split_id) WHERE voided_split_id IS NOT NULL",
            ]
        ),
        Migration(
            // Whether a member no longer in the group left it themselves or was removed (found by
            // a new user: one who left read "Ben (removed)" everywhere). Filled from the activity:
            // the last removal of each such member, when its actor was that member's account.
            id: "0035_members_who_left",
            statements: [
                "ALTER TABLE members ADD COLUMN has_left BOOLEAN NOT NULL DEFAULT FALSE",
                """
                UPDATE members SET has_left = TRUE
                WHERE is_active = FALSE AND user_id IS NOT NULL
                      AND user_id = (SELECT a.actor_user_id FROM activity a
                                     WHERE a.group_id = members.group_id AND a.entity = 'member'
                                           AND a.entity_id = members.id AND a.action = 'member.removed'
                                     ORDER BY a.seq DESC LIMIT 1)
                """,
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
                try await migration.fill?(sql)
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

/// A migration that could not be applied safely; its transaction is rolled back.
public enum MigrationError: Error, CustomStringConvertible {
    case failed(String, String)

    public var description: String {
        switch self {
        case .failed(let id, let why): "migration \(id) failed: \(why)"
        }
    }
}
