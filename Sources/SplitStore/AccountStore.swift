import Foundation
import SQLKit
import SplitCore

/// A user account row.
public struct UserRecord: Sendable, Equatable {
    public var id: UUID
    public var email: String?
    public var phone: String?
    public var displayName: String
    public var passwordHash: String
    public var isActive: Bool
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, email: String?, phone: String?, displayName: String, passwordHash: String, isActive: Bool = true,
        version: Int64 = 1, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.email = email
        self.phone = phone
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.isActive = isActive
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A login session; the token itself is never stored, only its hash (DESIGN §4).
public struct SessionRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var tokenHash: String
    public var deviceID: String?
    public var deviceName: String?
    public var ipAddress: String?
    public var createdAt: Int64
    public var lastUsedAt: Int64
    public var expiresAt: Int64
    public var revokedAt: Int64?
    /// Set for a personal access token (issue 21), nil for a login: what it may do and where.
    public var access: TokenAccess?

    public init(
        id: UUID, userID: UUID, tokenHash: String, deviceID: String? = nil, deviceName: String? = nil,
        ipAddress: String? = nil, createdAt: Int64, lastUsedAt: Int64, expiresAt: Int64, revokedAt: Int64? = nil,
        access: TokenAccess? = nil
    ) {
        self.id = id
        self.userID = userID
        self.tokenHash = tokenHash
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.ipAddress = ipAddress
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.access = access
    }
}

/// What a store write can be refused for.
public enum StoreError: Error, Equatable, Sendable {
    /// A unique value is taken already; `field` as on the wire ("email", "phone").
    case conflict(field: String)
    /// The account changed since the version the write was based on; nothing was written.
    case stale
}

/// Accounts and sessions: plain functions over the database, testable without HTTP (STYLE §8).
/// Ids are stored as lower-case UUID text, timestamps as epoch milliseconds.
public struct AccountStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Inserts a user; a taken email or phone is `StoreError.conflict`, also under races (the
    /// unique index decides, not a prior read).
    public func createUser(_ user: UserRecord) async throws -> UserRecord {
        do {
            try await database.transaction { sql in
                try await sql.raw(
                    """
                    INSERT INTO users (id, email, phone, display_name, password_hash, is_active, version, created_at, updated_at)
                    VALUES (\(bind: user.id.text), \(bind: user.email), \(bind: user.phone), \(bind: user.displayName),
                            \(bind: user.passwordHash), \(bind: user.isActive), \(bind: user.version),
                            \(bind: user.createdAt), \(bind: user.updatedAt))
                    """
                ).run()
                // A new address gets its verification link, queued with the account so neither
                // exists without the other (only when this server sends mail).
                if PendingEvents.current?.sendsMail == true, user.email != nil {
                    try await MailStore.requestVerification(userID: user.id, now: user.createdAt, sql)
                }
            }
            return user
        } catch  where Database.isUniqueViolation(error) {
            // Name the field for the 409: whichever of the two is already there.
            if let email = user.email, try await self.user(email: email) != nil {
                throw StoreError.conflict(field: "email")
            }
            throw StoreError.conflict(field: "phone")
        }
    }

    public func user(id: UUID) async throws -> UserRecord? {
        try await database.read { try await $0.raw("SELECT * FROM users WHERE id = \(bind: id.text)").first() }
            .map(UserRecord.init(row:))
    }

    /// By normalized email (see `AccountInput.normalizedEmail`).
    public func user(email: String) async throws -> UserRecord? {
        try await database.read { try await $0.raw("SELECT * FROM users WHERE email = \(bind: email)").first() }
            .map(UserRecord.init(row:))
    }

    /// By normalized phone (see `AccountInput.normalizedPhone`).
    public func user(phone: String) async throws -> UserRecord? {
        try await database.read { try await $0.raw("SELECT * FROM users WHERE phone = \(bind: phone)").first() }
            .map(UserRecord.init(row:))
    }

    /// Deactivates a user and revokes every session at once (DESIGN §4).
    public func deactivate(userID: UUID, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                "UPDATE users SET is_active = \(bind: false), version = version + 1, updated_at = \(bind: now) WHERE id = \(bind: userID.text)"
            ).run()
            try await sql.raw(
                "UPDATE sessions SET revoked_at = \(bind: now) WHERE user_id = \(bind: userID.text) AND revoked_at IS NULL"
            ).run()
            try await WebhookStore.disableCreated(by: userID, groupID: nil, now: now, sql)
            PendingEvents.note(.account(userID))
        }
    }

    /// Deletes an account (issue 14 item 17) in one transaction, keeping every group's money and
    /// history whole: the user's members become name-only members under the same name (their
    /// shares, payments and activity stay), every session (with its addresses and devices) and
    /// stored idempotent answer is erased, and the users row keeps only its id, so the rows that
    /// name it still resolve: no email or phone, no password, the name "Deleted account".
    /// A group the user owns alone (no other account in it) is archived with them; one shared with
    /// other accounts must be handed over first (`AccountDeletionRefusal.ownsSharedGroups`).
    /// Returns false when there is no such active account.
    public func deleteAccount(userID: UUID, now: Int64) async throws -> Bool {
        try await database.transaction { sql in
            guard
                try await sql.raw(
                    "SELECT id FROM users WHERE id = \(bind: userID.text) AND is_active = \(bind: true)"
                ).first() != nil
            else { return false }
            let shared = try await sql.raw(
                """
                SELECT g.name FROM groups g
                WHERE g.owner_user_id = \(bind: userID.text) AND EXISTS (
                    SELECT 1 FROM members m WHERE m.group_id = g.id AND m.is_active = \(bind: true)
                    AND m.user_id IS NOT NULL AND m.user_id <> \(bind: userID.text))
                """
            ).all().map { try $0.decode(column: "name", as: String.self) }
            guard shared.isEmpty else { throw AccountDeletionRefusal.ownsSharedGroups(shared.sorted()) }
            let memberships = try await sql.raw(
                "SELECT id, group_id FROM members WHERE user_id = \(bind: userID.text)"
            ).all().map { (member: try $0.decodeUUID("id"), group: try $0.decodeUUID("group_id")) }
            for (member, group) in memberships {
                // Each group's change number first, as every write does, so members' devices see it.
                let log = try await GroupLog.begin(sql, groupID: group, now: now)
                let nameOnly = try await sql.raw(
                    """
                    UPDATE members SET user_id = NULL, version = version + 1, updated_at = \(bind: now)
                    WHERE id = \(bind: member.text)
                    RETURNING *
                    """
                ).first().map { try MemberRecord(row: $0) }
                try await log?.changed(.member, member, sql)
                // The series they made add as nobody now: paused at once, saying why.
                if let log, let nameOnly {
                    try await RecurringStore.pause(after: nameOnly, deletedAccount: userID, log: log, now: now, sql)
                }
                let archived = try await sql.raw(
                    """
                    UPDATE groups SET is_archived = \(bind: true), version = version + 1, updated_at = \(bind: now)
                    WHERE id = \(bind: group.text) AND owner_user_id = \(bind: userID.text) AND is_archived = \(bind: false)
                    RETURNING id
                    """
                ).first()
                if archived != nil { try await log?.changed(.group, group, sql) }
            }
            try await sql.raw("DELETE FROM sessions WHERE user_id = \(bind: userID.text)").run()
            try await ConversationStore.deleteAll(userID: userID, sql)
            PendingEvents.note(.account(userID))
            try await sql.raw("DELETE FROM idempotency_keys WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw("DELETE FROM member_claims WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw("DELETE FROM notifications WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw("DELETE FROM notification_settings WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw("DELETE FROM pay_details WHERE user_id = \(bind: userID.text)").run()
            // Requests the account asked for stop working with it.
            try await sql.raw(
                """
                UPDATE payment_requests SET status = 'cancelled', updated_at = \(bind: now)
                WHERE created_by_user_id = \(bind: userID.text) AND status IN ('open', 'locked')
                """
            ).run()
            // Nothing of the address stays: its links, its unsubscribe key, its mail jobs (their
            // payloads name it), sent or waiting.
            try await WebhookStore.disableCreated(by: userID, groupID: nil, now: now, sql)
            try await sql.raw("DELETE FROM email_verifications WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw("DELETE FROM mail_settings WHERE user_id = \(bind: userID.text)").run()
            try await sql.raw(
                """
                DELETE FROM jobs WHERE kind LIKE 'mail.%' AND unique_key LIKE \(bind: "%:\(userID.text):%")
                """
            ).run()
            try await sql.raw(
                """
                UPDATE users SET email = \(bind: "deleted-\(userID.text)@invalid"), phone = NULL,
                    display_name = 'Deleted account', password_hash = '', is_active = \(bind: false),
                    version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: userID.text)
                """
            ).run()
            return true
        }
    }

    /// Stores a new session; the user's oldest working sessions beyond `keepingAtMost` (the new
    /// one counted) are revoked in the same transaction, so logins cannot pile up sessions.
    public func createSession(_ session: SessionRecord, keepingAtMost limit: Int = .max) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO sessions (id, user_id, token_hash, device_id, device_name, ip_address, created_at, last_used_at,
                                      expires_at, revoked_at, token_name, scopes, group_ids)
                VALUES (\(bind: session.id.text), \(bind: session.userID.text), \(bind: session.tokenHash),
                        \(bind: session.deviceID), \(bind: session.deviceName), \(bind: session.ipAddress),
                        \(bind: session.createdAt), \(bind: session.lastUsedAt), \(bind: session.expiresAt),
                        \(bind: session.revokedAt), \(bind: session.access?.name), \(bind: session.access?.scopesText),
                        \(bind: session.access?.groupIDsText))
                """
            ).run()
            // Logins push out the logins used longest ago, never an access token (nor the other
            // way): not the phone signed in a year ago and used every day (found by a new user).
            guard limit < .max, session.access == nil else { return }
            let working = try await sql.raw(
                """
                SELECT id FROM sessions
                WHERE user_id = \(bind: session.userID.text) AND id <> \(bind: session.id.text) AND revoked_at IS NULL
                      AND expires_at > \(bind: session.createdAt) AND scopes IS NULL
                ORDER BY last_used_at DESC, created_at DESC, id DESC
                """
            ).all().map { try $0.decode(column: "id", as: String.self) }
            let pushedOut = working.dropFirst(max(limit - 1, 0))
            for id in pushedOut {
                try await sql.raw(
                    "UPDATE sessions SET revoked_at = \(bind: session.createdAt) WHERE id = \(bind: id)"
                ).run()
            }
            // As every revocation: the account's open streams check their session at once.
            if !pushedOut.isEmpty { PendingEvents.note(.account(session.userID)) }
        }
    }

    /// Whether the user has had a session from this client address since `since` (revoked and
    /// expired ones included): a device that logged in before.
    public func hasSession(userID: UUID, fromAddress address: String, since: Int64) async throws -> Bool {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT 1 AS found FROM sessions
                WHERE user_id = \(bind: userID.text) AND ip_address = \(bind: address) AND created_at >= \(bind: since)
                LIMIT 1
                """
            ).first() != nil
        }
    }

    /// How stale `last_used_at` may get before a request writes it again, in milliseconds.
    public static let lastUsedPrecision: Int64 = 60_000

    /// The session and user behind a token hash, when the session is neither revoked nor expired
    /// and the user is active; records `now` as its last use.
    public func authenticate(tokenHash: String, now: Int64) async throws -> (SessionRecord, UserRecord)? {
        // One read, no transaction (issue 16: BEGIN and COMMIT around it were two more round
        // trips on every request); the rare last-use update is its own write.
        let found = try await database.read { sql -> (SessionRecord, UserRecord)? in
            guard
                let row = try await sql.raw(
                    """
                    SELECT s.id AS s_id, s.user_id AS s_user_id, s.token_hash AS s_token_hash, s.device_id AS s_device_id,
                           s.device_name AS s_device_name, s.ip_address AS s_ip_address, s.created_at AS s_created_at,
                           s.last_used_at AS s_last_used_at, s.expires_at AS s_expires_at, s.revoked_at AS s_revoked_at,
                           s.token_name AS s_token_name, s.scopes AS s_scopes, s.group_ids AS s_group_ids, u.*
                    FROM sessions s JOIN users u ON u.id = s.user_id
                    WHERE s.token_hash = \(bind: tokenHash) AND s.revoked_at IS NULL AND s.expires_at > \(bind: now)
                          AND u.is_active = \(bind: true)
                    """
                ).first()
            else { return nil }
            return (try SessionRecord(row: row, prefix: "s_"), try UserRecord(row: row))
        }
        guard let (found, user) = found else { return nil }
        var session = found
        // A write per request would cost more than the request; a minute's precision is plenty.
        if now - session.lastUsedAt >= Self.lastUsedPrecision {
            let id = session.id.text
            try await database.transaction { sql in
                try await sql.raw("UPDATE sessions SET last_used_at = \(bind: now) WHERE id = \(bind: id)").run()
            }
            session.lastUsedAt = now
        }
        return (session, user)
    }

    /// Whether a session still works (not revoked, not expired, its account active): what a
    /// live stream checks again now and then, without touching its last use.
    public func isSessionLive(id: UUID, now: Int64) async throws -> Bool {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT 1 AS one FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.id = \(bind: id.text) AND s.revoked_at IS NULL AND s.expires_at > \(bind: now)
                      AND u.is_active = \(bind: true)
                """
            ).first() != nil
        }
    }

    /// A user's logins that still work, newest first (access tokens are listed on their own).
    public func activeSessions(userID: UUID, now: Int64) async throws -> [SessionRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM sessions WHERE user_id = \(bind: userID.text) AND revoked_at IS NULL AND expires_at > \(bind: now)
                      AND scopes IS NULL
                ORDER BY created_at DESC, id
                """
            ).all()
        }.map { try SessionRecord(row: $0) }
    }

    /// Revokes one of the user's sessions, or with `accessToken` one of their access tokens;
    /// false when it is not theirs, not of that kind or already revoked (the caller answers 404
    /// either way, so ids of other users' sessions reveal nothing).
    public func revokeSession(id: UUID, userID: UUID, now: Int64, accessToken: Bool = false) async throws -> Bool {
        try await database.transaction { sql in
            let row = try await sql.raw(
                """
                SELECT id FROM sessions WHERE id = \(bind: id.text) AND user_id = \(bind: userID.text) AND revoked_at IS NULL
                      AND (scopes IS NULL) = \(bind: !accessToken)
                """
            ).first()
            guard row != nil else { return false }
            try await sql.raw("UPDATE sessions SET revoked_at = \(bind: now) WHERE id = \(bind: id.text)").run()
            PendingEvents.note(.account(userID))
            return true
        }
    }

    /// Sets the account's name, email and phone (their new values, every one) if the account is
    /// still at `version` (the one the caller read, and decided on: whether a password was needed,
    /// what was left as it was), else `StoreError.stale` and nothing written. A new email is
    /// unverified: links sent to the old one close, and (with mail on) the new one's verification
    /// link is queued in the same transaction. A taken email or phone is `StoreError.conflict`
    /// (the unique index decides); an unknown or inactive account nil.
    /// - Returns: the account afterwards and, for a new email, whether its link was queued
    ///   (`.tooMany` after `MailStore.linksPerDay` links in a day; nil with mail off).
    public func updateProfile(
        userID: UUID, version: Int64, displayName: String, email: String?, phone: String?, now: Int64
    ) async throws -> (user: UserRecord, link: MailStore.LinkRequest?)? {
        do {
            return try await database.transaction { sql -> (user: UserRecord, link: MailStore.LinkRequest?)? in
                guard
                    var user = try await sql.raw(
                        "SELECT * FROM users WHERE id = \(bind: userID.text) AND is_active = \(bind: true)"
                    ).first().map(UserRecord.init(row:))
                else { return nil }
                let newEmail = user.email != email
                guard newEmail || user.phone != phone || user.displayName != displayName else { return (user, nil) }
                var link: MailStore.LinkRequest?
                guard
                    try await sql.raw(
                        """
                        UPDATE users SET display_name = \(bind: displayName), email = \(bind: email), phone = \(bind: phone),
                            \(unsafeRaw: newEmail ? "email_verified_at = NULL," : "") version = version + 1,
                            updated_at = \(bind: now)
                        WHERE id = \(bind: userID.text) AND version = \(bind: version)
                        RETURNING id
                        """
                    ).first() != nil
                else { throw StoreError.stale }
                if newEmail {
                    // Every open link of the account went to the old address.
                    try await sql.raw(
                        """
                        UPDATE email_verifications SET used_at = \(bind: now)
                        WHERE user_id = \(bind: userID.text) AND used_at IS NULL
                        """
                    ).run()
                    if PendingEvents.current?.sendsMail == true, email != nil {
                        // Its own link whatever was sent within the minute (found by a new user:
                        // going back to an address within a minute got none).
                        link = try await MailStore.requestVerification(
                            userID: userID, now: now, change: user.version + 1, sql)
                    }
                }
                (user.displayName, user.email, user.phone) = (displayName, email, phone)
                user.version += 1
                user.updatedAt = now
                return (user, link)
            }
        } catch where Database.isUniqueViolation(error) {
            if let email, let holder = try await self.user(email: email), holder.id != userID {
                throw StoreError.conflict(field: "email")
            }
            throw StoreError.conflict(field: "phone")
        }
    }

    /// Stores a new password hash and revokes every other session, in one transaction, so an
    /// attacker's session cannot outlive the password change.
    public func changePassword(userID: UUID, passwordHash: String, keepSession: UUID?, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE users SET password_hash = \(bind: passwordHash), version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: userID.text)
                """
            ).run()
            try await Self.revokeSessions(of: userID, except: keepSession, now: now, sql)
            try await Self.closeResetLinks(of: userID, now: now, sql)
        }
    }

    /// Closes every reset link of the account still open: a new password outdates them (found
    /// by a new user: a link asked for before a change still set a password after it).
    static func closeResetLinks(of userID: UUID, now: Int64, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE email_verifications SET used_at = \(bind: now)
            WHERE user_id = \(bind: userID.text) AND purpose = 'reset' AND used_at IS NULL
            """
        ).run()
    }

    /// Revokes every session of the user but `except` (after a password change).
    public func revokeOtherSessions(userID: UUID, except: UUID?, now: Int64) async throws {
        try await database.transaction { try await Self.revokeSessions(of: userID, except: except, now: now, $0) }
    }

    static func revokeSessions(of userID: UUID, except: UUID?, now: Int64, _ sql: any SQLDatabase) async throws
    {
        try await sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now)
            WHERE user_id = \(bind: userID.text) AND revoked_at IS NULL AND id <> \(bind: except?.text ?? "")
            """
        ).run()
        PendingEvents.note(.account(userID))
    }
}

extension UserRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"),
            email: try row.decode(column: "email", as: String?.self),
            phone: try row.decode(column: "phone", as: String?.self),
            displayName: try row.decode(column: "display_name", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            isActive: try row.decode(column: "is_active", as: Bool.self),
            version: try row.decode(column: "version", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self)
        )
    }
}

extension SessionRecord {
    init(row: any SQLRow, prefix: String = "") throws {
        self.init(
            id: try row.decodeUUID(prefix + "id"),
            userID: try row.decodeUUID(prefix + "user_id"),
            tokenHash: try row.decode(column: prefix + "token_hash", as: String.self),
            deviceID: try row.decode(column: prefix + "device_id", as: String?.self),
            deviceName: try row.decode(column: prefix + "device_name", as: String?.self),
            ipAddress: try row.decode(column: prefix + "ip_address", as: String?.self),
            createdAt: try row.decode(column: prefix + "created_at", as: Int64.self),
            lastUsedAt: try row.decode(column: prefix + "last_used_at", as: Int64.self),
            expiresAt: try row.decode(column: prefix + "expires_at", as: Int64.self),
            revokedAt: try row.decode(column: prefix + "revoked_at", as: Int64?.self),
            access: try TokenAccess(
                name: row.decode(column: prefix + "token_name", as: String?.self),
                scopes: row.decode(column: prefix + "scopes", as: String?.self),
                groupIDs: row.decode(column: prefix + "group_ids", as: String?.self))
        )
    }
}

/// An id column read as an id. This module's rows read it straight from the cell's text
/// (SQLite's) or bytes (PostgreSQL's), through the `decode(column:as:)` they already answer: a
/// feed page reads some 20,000 ids, and each was decoded as a `String` through the generic path
/// first. Asking a row whether it can do so (`as? any Protocol`) cost as much as parsing the id.
/// Any other row decodes it from its text.
struct StoredID: Decodable {
    let uuid: UUID

    init(uuid: UUID) { self.uuid = uuid }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = UUID(text: text) else { throw NotAnID(text: text) }
        self.uuid = uuid
    }

    struct NotAnID: Error {
        let text: String
    }
}

extension SQLRow {
    func decodeUUID(_ column: String) throws -> UUID {
        do {
            return try decode(column: column, as: StoredID.self).uuid
        } catch let error as StoredID.NotAnID {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "\(column) is not a UUID: \(error.text)"))
        }
    }
}

/// Why an account could not be deleted; nothing was changed.
public enum AccountDeletionRefusal: Error, Equatable, Sendable {
    /// The user owns these groups (by name) and other accounts are in them: ownership goes to one
    /// of them first.
    case ownsSharedGroups([String])
}
