import Foundation
import SplitCore
import SplitStore

/// A page of the caller's inbox.
public struct NotificationPage: Sendable {
    public let notifications: [NotificationRecord]
    public let unread: Int
    /// The cursor of the next page, when this one is full.
    public let nextCursor: String?
}

/// The caller's notification inbox (issue 17): what concerns them in their groups, the unread
/// count, marking read, and per group how much they want.
public struct NotificationUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    /// Newest first, `limit` (1 to 200, default 50) a page, after the cursor of a previous page.
    public func inbox(caller: Caller, cursor: String?, limit: Int?) async throws -> NotificationPage {
        try caller.requireWholeAccount()
        let limit = min(max(limit ?? 50, 1), 200)
        let before = try PageCursor.decode(cursor)
        let lines = try await notifications.inbox(userID: caller.user.id, before: before, limit: limit)
        return NotificationPage(
            notifications: lines, unread: try await notifications.unreadCount(userID: caller.user.id),
            nextCursor: PageCursor.next(after: lines, limit: limit) { ($0.createdAt, $0.activity.id) })
    }

    public func unreadCount(caller: Caller) async throws -> Int {
        try caller.requireWholeAccount()
        return try await notifications.unreadCount(userID: caller.user.id)
    }

    /// Marks the lines with these ids read (ids that are not the caller's mark nothing), or all
    /// of them; the unread count after.
    public func markRead(ids: [String]?, caller: Caller) async throws -> Int {
        try caller.requireWholeAccount()
        let parsed = try ids.map { texts in
            try ExpenseLimits.checkCount(texts.count, atMost: 200, field: "ids")
            return try texts.enumerated().map { index, text in
                guard let id = UUID(uuidString: text) else {
                    throw AppError.invalid(field: "ids[\(index)]", message: "ids[\(index)] is not a notification id.")
                }
                return id
            }
        }
        try await notifications.markRead(userID: caller.user.id, activityIDs: parsed, now: now())
        return try await notifications.unreadCount(userID: caller.user.id)
    }

    /// The caller's setting for a group they are in.
    public func level(groupID: UUID, caller: Caller) async throws -> NotificationLevel {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await notifications.level(userID: caller.user.id, groupID: group.id)
    }

    public func setLevel(_ text: String, groupID: UUID, caller: Caller) async throws -> NotificationLevel {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        guard let level = NotificationLevel(rawValue: text) else {
            throw AppError.invalid(field: "level", message: "level is one of all, mine, none.")
        }
        try await notifications.setLevel(level, userID: caller.user.id, groupID: group.id, now: now())
        return level
    }
}
