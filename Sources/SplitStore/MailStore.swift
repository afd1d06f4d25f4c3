import Foundation
import SQLKit
import SplitCore

/// How an account wants notification mail (issue 17).
public enum MailMode: String, Sendable, CaseIterable {
    /// A mail per notification, sent within seconds. The default.
    case each
    /// One mail a day with what is unread, at the account's digest hour.
    case daily
    /// No notification mail.
    case off
}

/// The kinds of notification a mail's unsubscribe link turns off, each on its own.
public enum MailCategory: String, Sendable, CaseIterable {
    /// Expenses added (by hand or by a recurring series), changed, deleted or restored.
    case expenses
    /// Shares marked paid or unpaid, transfers recorded or deleted, payment requests.
    case payments
    /// Being added, removed, brought back or given a role or rights.
    case members
    /// Everything else in a group (categories, rates, budgets, its creation).
    case group

    /// Which actions belong to which category, by how they begin; the rest is `group`.
    static let prefixes: [(prefix: String, category: MailCategory)] = [
        ("expense.", .expenses), ("recurring.added", .expenses), ("share.", .payments), ("settlement.", .payments),
        ("payment_request.", .payments), ("member.", .members),
    ]

    public static func of(action: String) -> MailCategory {
        prefixes.first { action.hasPrefix($0.prefix) }?.category ?? .group
    }

    /// SQL that is true for an `action` column of a category not in `off`. The prefixes are
    /// this type's own constants (letters, dots and underscores), never input.
    static func sqlWanted(_ column: String, off: Set<MailCategory>) -> String {
        func matches(_ category: MailCategory) -> String {
            let conditions = prefixes.filter { category == .group || $0.category == category }.map {
                "substr(\(column), 1, \($0.prefix.utf8.count)) = '\($0.prefix)'"
            }
            let any = "(" + conditions.joined(separator: " OR ") + ")"
            // `group` is what matches no other category's prefix.
            return category == .group ? "NOT " + any : any
        }
        return off.isEmpty ? "TRUE" : off.sorted { $0.rawValue < $1.rawValue }.map { "NOT " + matches($0) }
            .joined(separator: " AND ")
    }
}

/// An account's mail settings, with the address they apply to.
public struct MailSettings: Sendable, Equatable {
    public var userID: UUID
    public var email: String?
    public var emailVerifiedAt: Int64?
    public var isActive: Bool
    public var mode: MailMode
    public var off: Set<MailCategory>
    /// The hour (UTC, 0–23) a daily digest goes out.
    public var digestHour: Int
    /// Nil until the first mail is written (it appears in the mail's unsubscribe links).
    public var unsubscribeKey: String?

    /// Whether mail of this category goes to this account in this mode.
    public func wants(_ category: MailCategory, in mode: MailMode) -> Bool {
        isActive && email != nil && emailVerifiedAt != nil && self.mode == mode && !off.contains(category)
    }
}

/// Queued mail's bookkeeping (docs/architecture.md, "Mail"): settings, unsubscribe keys, which
/// notifications went out, and email verification. The mail itself is a job
/// (`mail.notification`, `mail.digest`, `mail.verify`) queued in the write's transaction, so a
/// write that commits never loses its mail and one that rolls back sends none.
public struct MailStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Whether this server sends mail (`SMTP_URL` is set).
    public var sendsMail: Bool { database.sendsMail }

    public static let notificationJob = "mail.notification"
    public static let digestJob = "mail.digest"
    public static let verificationJob = "mail.verify"
    public static let resetJob = "mail.reset"

    /// The payload of a `mail.notification` job.
    public struct NotificationJob: Codable, Sendable, Equatable {
        public var user: UUID
        public var activity: UUID
    }

    /// The payload of a `mail.digest` job: what is unread up to `upTo` goes out.
    public struct DigestJob: Codable, Sendable, Equatable {
        public var user: UUID
        public var upTo: Int64
    }

    /// The payload of a `mail.verify` or `mail.reset` job: a link for `email` goes to it.
    public struct VerificationJob: Codable, Sendable, Equatable {
        public var user: UUID
        public var email: String
    }

    // MARK: Queueing, in the write's transaction

    /// Queues the mail of a new notification for its recipients who want it: a mail each, or a
    /// place in their next digest. Called by `GroupLog.activity` when the server sends mail.
    static func queue(recipients: [UUID], activityID: UUID, action: String, now: Int64, _ sql: any SQLDatabase)
        async throws
    {
        guard !recipients.isEmpty else { return }
        let category = MailCategory.of(action: action)
        let rows = try await sql.raw(
            """
            SELECT u.id, COALESCE(s.mode, 'each') AS mode, COALESCE(s.digest_hour, 7) AS digest_hour
            FROM users u LEFT JOIN mail_settings s ON s.user_id = u.id
            WHERE u.id IN (\(binds: recipients.map(\.text))) AND u.is_active = \(bind: true)
                  AND u.email IS NOT NULL AND u.email_verified_at IS NOT NULL
                  AND COALESCE(s.mode, 'each') <> 'off'
                  AND COALESCE(s.off_categories, ',') NOT LIKE \(bind: "%,\(category.rawValue),%")
            """
        ).all()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for row in rows {
            let user = try row.decodeUUID("id")
            if try row.decode(column: "mode", as: String.self) == MailMode.daily.rawValue {
                let upTo = nextDigest(after: now, hour: try row.decode(column: "digest_hour", as: Int.self))
                let payload = String(decoding: try encoder.encode(DigestJob(user: user, upTo: upTo)), as: UTF8.self)
                try await JobStore.enqueue(
                    kind: digestJob, uniqueKey: "\(digestJob):\(user.text):\(upTo)", payload: payload, dueAt: upTo,
                    now: now, sql)
            } else {
                let payload = String(
                    decoding: try encoder.encode(NotificationJob(user: user, activity: activityID)), as: UTF8.self)
                try await JobStore.enqueue(
                    kind: notificationJob, uniqueKey: "\(notificationJob):\(user.text):\(activityID.text)",
                    payload: payload, dueAt: now, now: now, sql)
            }
        }
    }

    /// The first `hour`:00 UTC after `now` (epoch milliseconds).
    public static func nextDigest(after now: Int64, hour: Int) -> Int64 {
        let day: Int64 = 86_400_000
        let candidate = (now / day) * day + Int64(hour) * 3_600_000
        return candidate > now ? candidate : candidate + day
    }

    // MARK: Settings

    /// The account's settings (defaults where never set); nil for an unknown account.
    public func settings(userID: UUID) async throws -> MailSettings? {
        try await database.read { sql in
            try await Self.settings(userID: userID, sql)
        }
    }

    static func settings(userID: UUID, _ sql: any SQLDatabase) async throws -> MailSettings? {
        guard
            let row = try await sql.raw(
                """
                SELECT u.id, u.email, u.email_verified_at, u.is_active, s.mode, s.off_categories, s.digest_hour,
                       s.unsubscribe_key
                FROM users u LEFT JOIN mail_settings s ON s.user_id = u.id WHERE u.id = \(bind: userID.text)
                """
            ).first()
        else { return nil }
        return try MailSettings(row: row)
    }

    /// Changes the account's mode, the categories it turned off and its digest hour.
    public func update(userID: UUID, mode: MailMode, off: Set<MailCategory>, digestHour: Int, now: Int64)
        async throws
    {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO mail_settings (user_id, mode, off_categories, digest_hour, unsubscribe_key, updated_at)
                VALUES (\(bind: userID.text), \(bind: mode.rawValue), \(bind: Self.categoryList(off)),
                        \(bind: digestHour), \(bind: Self.newKey()), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, off_categories = excluded.off_categories,
                    digest_hour = excluded.digest_hour, updated_at = excluded.updated_at
                """
            ).run()
            // A digest waits for the hour: queued for the old one, it now sends nothing (it sees
            // the hour changed), so what is unmailed gets a digest at the new hour.
            if mode == .daily,
                try await sql.raw(
                    """
                    SELECT 1 AS one FROM notifications
                    WHERE user_id = \(bind: userID.text) AND read_at IS NULL AND mailed_at IS NULL LIMIT 1
                    """
                ).first() != nil
            {
                let upTo = Self.nextDigest(after: now, hour: digestHour)
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                _ = try await JobStore.enqueue(
                    kind: Self.digestJob, uniqueKey: "\(Self.digestJob):\(userID.text):\(upTo)",
                    payload: String(decoding: try encoder.encode(DigestJob(user: userID, upTo: upTo)), as: UTF8.self),
                    dueAt: upTo, now: now, sql)
            }
        }
    }

    /// The account's unsubscribe key, made on first use.
    public func unsubscribeKey(userID: UUID, now: Int64) async throws -> String {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO mail_settings (user_id, unsubscribe_key, updated_at)
                VALUES (\(bind: userID.text), \(bind: Self.newKey()), \(bind: now))
                ON CONFLICT (user_id) DO NOTHING
                """
            ).run()
            return try await sql.raw(
                "SELECT unsubscribe_key FROM mail_settings WHERE user_id = \(bind: userID.text)"
            ).first()?.decode(column: "unsubscribe_key", as: String.self) ?? ""
        }
    }

    /// The settings of the account an unsubscribe link's key belongs to.
    public func settings(unsubscribeKey key: String) async throws -> MailSettings? {
        try await database.read { sql in
            guard
                let row = try await sql.raw(
                    "SELECT user_id FROM mail_settings WHERE unsubscribe_key = \(bind: key)"
                ).first()
            else { return nil }
            return try await Self.settings(userID: try row.decodeUUID("user_id"), sql)
        }
    }

    /// Turns one category off for the key's account, or with nil all notification mail (again
    /// is fine); false for an unknown key.
    public func unsubscribe(key: String, from category: MailCategory?, now: Int64) async throws -> Bool {
        try await database.transaction { sql in
            guard
                let row = try await sql.raw(
                    "SELECT off_categories FROM mail_settings WHERE unsubscribe_key = \(bind: key)\(unsafeRaw: database.forUpdate)"
                ).first()
            else { return false }
            var off = Self.categories(try row.decode(column: "off_categories", as: String.self))
            if let category { off.insert(category) }
            try await sql.raw(
                """
                UPDATE mail_settings SET off_categories = \(bind: Self.categoryList(off)), updated_at = \(bind: now),
                    mode = CASE WHEN \(bind: category == nil) THEN 'off' ELSE mode END
                WHERE unsubscribe_key = \(bind: key)
                """
            ).run()
            return true
        }
    }

    // MARK: What goes out

    /// One notification of the account, with whether it was mailed already.
    public func notification(userID: UUID, activityID: UUID) async throws -> (NotificationRecord, mailedAt: Int64?)? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT n.created_at AS n_created_at, n.read_at AS n_read_at, n.mailed_at AS n_mailed_at,
                       g.name AS g_name, g.time_zone AS g_time_zone, n.user_id AS n_user_id, m.id AS m_id, m.is_active AS m_active, a.*
                FROM notifications n JOIN activity a ON a.id = n.activity_id JOIN groups g ON g.id = n.group_id
                     LEFT JOIN members m ON m.group_id = n.group_id AND m.user_id = n.user_id
                WHERE n.user_id = \(bind: userID.text) AND n.activity_id = \(bind: activityID.text)
                """
            ).first()
        }.map { row in (try NotificationRecord(inboxRow: row), try row.decode(column: "n_mailed_at", as: Int64?.self)) }
    }

    /// The account's notifications not read and not mailed, made at or before `upTo`, of the
    /// categories not in `off`, oldest first: the first `limit`, and how many there are in all.
    public func unmailed(userID: UUID, upTo: Int64, off: Set<MailCategory> = [], limit: Int) async throws -> (
        lines: [NotificationRecord], total: Int
    ) {
        // The categories turned off are left out here, not after the limit: 50 lines the account
        // does not want must not push out one it does (and all of them are marked mailed after).
        let wanted = MailCategory.sqlWanted("a.action", off: off)
        return try await database.read { sql in
            let lines = try await sql.raw(
                """
                SELECT n.created_at AS n_created_at, n.read_at AS n_read_at, g.name AS g_name, g.time_zone AS g_time_zone,
                       n.user_id AS n_user_id, m.id AS m_id, m.is_active AS m_active, a.*
                FROM notifications n JOIN activity a ON a.id = n.activity_id JOIN groups g ON g.id = n.group_id
                     LEFT JOIN members m ON m.group_id = n.group_id AND m.user_id = n.user_id
                WHERE n.user_id = \(bind: userID.text) AND n.read_at IS NULL AND n.mailed_at IS NULL
                      AND n.created_at <= \(bind: upTo) AND \(unsafeRaw: wanted)
                ORDER BY n.created_at, n.activity_id LIMIT \(bind: limit)
                """
            ).all().map(NotificationRecord.init(inboxRow:))
            let total = try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM notifications n JOIN activity a ON a.id = n.activity_id
                WHERE n.user_id = \(bind: userID.text) AND n.read_at IS NULL AND n.mailed_at IS NULL
                      AND n.created_at <= \(bind: upTo) AND \(unsafeRaw: wanted)
                """
            ).first()?.decode(column: "n", as: Int.self) ?? 0
            return (lines, total)
        }
    }

    /// Records that these notifications went out (or, with `upTo`, every unread one made by then).
    public func markMailed(userID: UUID, activityIDs: [UUID] = [], upTo: Int64? = nil, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE notifications SET mailed_at = \(bind: now)
                WHERE user_id = \(bind: userID.text) AND mailed_at IS NULL
                      AND (activity_id IN (\(binds: activityIDs.isEmpty ? [""] : activityIDs.map(\.text)))
                           OR (read_at IS NULL AND created_at <= \(bind: upTo ?? -1)))
                """
            ).run()
        }
    }

    // MARK: Verification

    /// What asking for a mailed link did.
    public enum LinkRequest: Sendable, Equatable {
        /// A link is on its way (or one asked for within the same minute already is).
        case queued
        /// No link: nothing to verify, or no such account.
        case nothingToDo
        /// No link: the account had `linksPerDay` of this kind in the last 24 hours (an address
        /// is not flooded by whoever registered it), `until` the first of them is a day old
        /// (epoch milliseconds).
        case tooMany(until: Int64)
    }

    /// Links of one kind an account may be mailed in 24 hours.
    public static let linksPerDay = 5

    /// Queues a verification mail for the account's address; at most one a minute (a second
    /// request within it is a no-op) and `linksPerDay` a day.
    @discardableResult
    public func requestVerification(userID: UUID, now: Int64) async throws -> LinkRequest {
        try await database.transaction { sql in
            try await Self.requestVerification(userID: userID, now: now, sql)
        }
    }

    /// Whether the account may be sent another link of `kind`: nil when it may, else
    /// `.tooMany` until fewer than `linksPerDay` of the links (sent or waiting) are younger than
    /// a day: when the `linksPerDay`-th newest is a day old (more than that many, made by two
    /// servers at once, wait for the right one).
    static func dailyLimit(kind: String, userID: UUID, now: Int64, _ sql: any SQLDatabase) async throws -> LinkRequest? {
        let row = try await sql.raw(
            """
            SELECT created_at FROM jobs
            WHERE kind = \(bind: kind) AND unique_key LIKE \(bind: "\(kind):\(userID.text):%")
                  AND created_at > \(bind: now - 86_400_000)
            ORDER BY created_at DESC LIMIT 1 OFFSET \(bind: linksPerDay - 1)
            """
        ).first()
        guard let row else { return nil }
        return .tooMany(until: try row.decode(column: "created_at", as: Int64.self) + 86_400_000)
    }

    @discardableResult
    /// `change`: what made the address new (a version of the account), so that each change
    /// gets its link even within a minute; else one a minute per address.
    static func requestVerification(userID: UUID, now: Int64, change: Int64? = nil, _ sql: any SQLDatabase) async throws
        -> LinkRequest
    {
        guard let settings = try await settings(userID: userID, sql), settings.isActive,
            let email = settings.email, settings.emailVerifiedAt == nil
        else { return .nothingToDo }
        if let limited = try await dailyLimit(kind: verificationJob, userID: userID, now: now, sql) { return limited }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = String(decoding: try encoder.encode(VerificationJob(user: userID, email: email)), as: UTF8.self)
        try await JobStore.enqueue(
            // One a minute per address: a new address (an email changed within the minute of the
            // last link) gets its own (found by a new user: the change's link was taken for a
            // repeat of the registration's, and the new address never got one).
            kind: verificationJob,
            uniqueKey: "\(verificationJob):\(userID.text):\(email):" + (change.map { "v\($0)" } ?? "\(now / 60_000)"),
            payload: payload, dueAt: now, now: now, sql)
        return .queued
    }

    /// What a mailed link's token lets its holder do.
    public enum TokenPurpose: String, Sendable {
        /// Verify the address it was sent to.
        case verify
        /// Set a new password (which verifies the address too: the holder reads its mail).
        case reset
    }

    /// Keeps a new link's token (its hash) for `email`, valid until `expiresAt`.
    public func addToken(
        hash: String, purpose: TokenPurpose, userID: UUID, email: String, expiresAt: Int64, now: Int64
    ) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO email_verifications (token_hash, user_id, email, purpose, created_at, expires_at)
                VALUES (\(bind: hash), \(bind: userID.text), \(bind: email), \(bind: purpose.rawValue), \(bind: now),
                        \(bind: expiresAt))
                """
            ).run()
        }
    }

    /// Queues a password-reset link for an active account's address; at most one a minute and
    /// `linksPerDay` a day per account.
    @discardableResult
    public func requestPasswordReset(email: String, now: Int64) async throws -> LinkRequest {
        try await database.transaction { sql in
            guard
                let row = try await sql.raw(
                    "SELECT id FROM users WHERE email = \(bind: email) AND is_active = \(bind: true)"
                ).first()
            else { return .nothingToDo }
            let userID = try row.decodeUUID("id")
            if let limited = try await Self.dailyLimit(kind: Self.resetJob, userID: userID, now: now, sql) { return limited }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let payload = String(decoding: try encoder.encode(VerificationJob(user: userID, email: email)), as: UTF8.self)
            try await JobStore.enqueue(
                kind: Self.resetJob, uniqueKey: "\(Self.resetJob):\(userID.text):\(now / 60_000)", payload: payload, dueAt: now,
                now: now, sql)
            return .queued
        }
    }

    /// Whether a reset link's token is unused and unexpired now: checked before the new password
    /// is hashed, so a flood of made-up links costs a read each, not a hash, and before its page
    /// shows a form that could not work (`resetPassword` still decides, in its transaction).
    public func resetLinkIsOpen(tokenHash: String, now: Int64) async throws -> Bool {
        try await linkIsOpen(tokenHash, purpose: .reset, now: now)
    }

    /// Whether a verification link's token is unused and unexpired now, for its page (`verify`
    /// still decides, in its transaction).
    public func verificationLinkIsOpen(tokenHash: String, now: Int64) async throws -> Bool {
        try await linkIsOpen(tokenHash, purpose: .verify, now: now)
    }

    /// Unused, unexpired, and sent to the address the account still has (as `useLink` and the
    /// writes after it require: a link to an address changed since no longer works).
    private func linkIsOpen(_ tokenHash: String, purpose: TokenPurpose, now: Int64) async throws -> Bool {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT 1 AS open FROM email_verifications v JOIN users u ON u.id = v.user_id
                WHERE v.token_hash = \(bind: tokenHash) AND v.purpose = \(bind: purpose.rawValue) AND v.used_at IS NULL
                      AND v.expires_at > \(bind: now) AND u.email = v.email AND u.is_active = \(bind: true)
                """
            ).first() != nil
        }
    }

    /// Sets a new password with a reset link's token, if it is unused, unexpired and the account
    /// still has the address it was sent to; the address counts as verified, and every session
    /// ends (whoever else had the account is out). Returns the account, or nil.
    public func resetPassword(tokenHash: String, passwordHash: String, now: Int64) async throws -> UUID? {
        try await database.transaction { sql in
            guard let (userID, email) = try await Self.useLink(tokenHash, purpose: "reset", now: now, sql) else { return nil }
            guard
                try await sql.raw(
                    """
                    UPDATE users SET password_hash = \(bind: passwordHash), version = version + 1,
                        updated_at = \(bind: now), email_verified_at = COALESCE(email_verified_at, \(bind: now))
                    WHERE id = \(bind: userID.text) AND is_active = \(bind: true) AND email = \(bind: email)
                    RETURNING id
                    """
                ).first() != nil
            else { return nil }
            try await AccountStore.revokeSessions(of: userID, except: nil, now: now, sql)
            try await AccountStore.closeResetLinks(of: userID, now: now, sql)
            return userID
        }
    }

    /// Verifies the address a link was sent to, if the link is unused, unexpired and the
    /// account still has that address. Returns the account, or nil.
    public func verify(tokenHash: String, now: Int64) async throws -> UUID? {
        try await database.transaction { sql in
            guard let (userID, email) = try await Self.useLink(tokenHash, purpose: "verify", now: now, sql) else { return nil }
            let verified = try await sql.raw(
                """
                UPDATE users SET email_verified_at = COALESCE(email_verified_at, \(bind: now))
                WHERE id = \(bind: userID.text) AND is_active = \(bind: true) AND email = \(bind: email)
                RETURNING id
                """
            ).first()
            return verified == nil ? nil : userID
        }
    }

    // MARK: Helpers

    /// Marks a link of `purpose` used, if it is unused and unexpired: the account and the address
    /// it was sent to, or nil.
    static func useLink(
        _ tokenHash: String, purpose: String, now: Int64, _ sql: any SQLDatabase
    ) async throws -> (UUID, String)? {
        guard
            let row = try await sql.raw(
                """
                UPDATE email_verifications SET used_at = \(bind: now)
                WHERE token_hash = \(bind: tokenHash) AND purpose = \(bind: purpose) AND used_at IS NULL
                      AND expires_at > \(bind: now)
                RETURNING user_id, email
                """
            ).first()
        else { return nil }
        return (try row.decodeUUID("user_id"), try row.decode(column: "email", as: String.self))
    }

    static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func categoryList(_ off: Set<MailCategory>) -> String {
        "," + off.map(\.rawValue).sorted().map { $0 + "," }.joined()
    }

    static func categories(_ list: String) -> Set<MailCategory> {
        Set(list.split(separator: ",").compactMap { MailCategory(rawValue: String($0)) })
    }
}

extension MailSettings {
    init(row: any SQLRow) throws {
        self.init(
            userID: try row.decodeUUID("id"), email: try row.decode(column: "email", as: String?.self),
            emailVerifiedAt: try row.decode(column: "email_verified_at", as: Int64?.self),
            isActive: try row.decode(column: "is_active", as: Bool.self),
            mode: try row.decode(column: "mode", as: String?.self).flatMap(MailMode.init(rawValue:)) ?? .each,
            off: MailStore.categories(try row.decode(column: "off_categories", as: String?.self) ?? ","),
            digestHour: try row.decode(column: "digest_hour", as: Int?.self) ?? 7,
            unsubscribeKey: try row.decode(column: "unsubscribe_key", as: String?.self))
    }
}
