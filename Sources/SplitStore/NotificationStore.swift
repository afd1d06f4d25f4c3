import Foundation
import SQLKit
import SplitCore

/// How much of a group's activity an account wants in its inbox (issue 17).
public enum NotificationLevel: String, Sendable, CaseIterable {
    /// Everything anyone does in the group.
    case all
    /// What concerns them: expenses they owe or are owed in, their shares marked paid or unpaid,
    /// transfers to or from them, being added, removed or given a role. The default.
    case mine
    /// Nothing.
    case none
}

/// One line of an account's inbox: an activity line of a group, and whether it was read.
public struct NotificationRecord: Sendable, Equatable {
    public var activity: ActivityRecord
    public var groupID: UUID
    public var groupName: String
    /// The group's time zone (an IANA name): where mail says the time.
    public var groupTimeZone: String
    public var createdAt: Int64
    public var readAt: Int64?
    /// Whose inbox it is: the account and its member in the group (none for a claimant turned
    /// down), so a line can say "you" where it is about them.
    public var readerUserID: UUID
    public var readerMemberID: UUID?
    /// Whether the reader is in the group now (not removed, not left): whether it is theirs to open.
    public var readerIsIn: Bool
}

/// The notification inboxes. Lines are put there by the write that made the activity line, in
/// its transaction (`GroupLog.activity`); here they are read, marked read, and the per-group
/// settings kept.
public struct NotificationStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Newest first, at most `limit`, before `(createdAt, activityID)` of a previous page's last line.
    public func inbox(userID: UUID, before: (Int64, UUID)?, limit: Int) async throws -> [NotificationRecord] {
        let beforeAt = before?.0 ?? Int64.max
        let beforeID = before?.1.text ?? "~"
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT n.created_at AS n_created_at, n.read_at AS n_read_at, g.name AS g_name, g.time_zone AS g_time_zone,
                       n.user_id AS n_user_id, m.id AS m_id, m.is_active AS m_active, a.*
                FROM notifications n JOIN activity a ON a.id = n.activity_id JOIN groups g ON g.id = n.group_id
                     LEFT JOIN members m ON m.group_id = n.group_id AND m.user_id = n.user_id
                WHERE n.user_id = \(bind: userID.text)
                      AND (n.created_at < \(bind: beforeAt) OR (n.created_at = \(bind: beforeAt) AND n.activity_id < \(bind: beforeID)))
                ORDER BY n.created_at DESC, n.activity_id DESC LIMIT \(bind: limit)
                """
            ).all()
        }.map(NotificationRecord.init(inboxRow:))
    }

    public func unreadCount(userID: UUID) async throws -> Int {
        try await database.read { sql in
            try await sql.raw(
                "SELECT COUNT(*) AS n FROM notifications WHERE user_id = \(bind: userID.text) AND read_at IS NULL"
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// Marks lines read: those of `activityIDs`, or every one when nil. Lines of other accounts
    /// are not touched (an id of theirs marks nothing). Returns how many became read.
    @discardableResult
    public func markRead(userID: UUID, activityIDs: [UUID]?, now: Int64) async throws -> Int {
        if let activityIDs, activityIDs.isEmpty { return 0 }
        let ids = activityIDs?.map(\.text)
        return try await database.transaction { sql in
            let rows = try await sql.raw(
                """
                UPDATE notifications SET read_at = \(bind: now)
                WHERE user_id = \(bind: userID.text) AND read_at IS NULL
                      AND (\(bind: ids == nil) OR activity_id IN (\(binds: ids ?? [""])))
                RETURNING activity_id
                """
            ).all()
            if !rows.isEmpty { PendingEvents.note(.inbox(userID)) }
            return rows.count
        }
    }

    /// The account's setting for a group (the default when never set).
    public func level(userID: UUID, groupID: UUID) async throws -> NotificationLevel {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT level FROM notification_settings
                WHERE user_id = \(bind: userID.text) AND group_id = \(bind: groupID.text)
                """
            ).first()?.decode(column: "level", as: String.self)
        }.flatMap(NotificationLevel.init(rawValue:)) ?? .mine
    }

    public func setLevel(_ level: NotificationLevel, userID: UUID, groupID: UUID, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO notification_settings (user_id, group_id, level, updated_at)
                VALUES (\(bind: userID.text), \(bind: groupID.text), \(bind: level.rawValue), \(bind: now))
                ON CONFLICT (user_id, group_id) DO UPDATE SET level = excluded.level, updated_at = excluded.updated_at
                """
            ).run()
        }
    }
}

extension NotificationRecord {
    /// A row of `notifications` (its columns as `n_created_at`, `n_read_at`) joined with its
    /// activity line (`a.*`), group (`g_name`, `g_time_zone`), and the reader (`n_user_id`, and
    /// `m_id` their member).
    init(inboxRow row: any SQLRow) throws {
        self.init(
            activity: try ActivityRecord(row: row), groupID: try row.decodeUUID("group_id"),
            groupName: try row.decode(column: "g_name", as: String.self),
            groupTimeZone: try row.decode(column: "g_time_zone", as: String.self),
            createdAt: try row.decode(column: "n_created_at", as: Int64.self),
            readAt: try row.decode(column: "n_read_at", as: Int64?.self),
            readerUserID: try row.decodeUUID("n_user_id"),
            readerMemberID: try row.decode(column: "m_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            readerIsIn: try row.decode(column: "m_active", as: Bool?.self) ?? false)
    }
}
