import Foundation

// The SDK's own types for the notification inbox (`SplitterClient.notifications`,
// `GET /api/notifications`): what others did that concerns you, across your groups. Their JSON is
// the API's (see GroupModels.swift). Named "inbox" so as not to clash with Foundation's
// `Notification`.

/// One thing in your inbox: an activity line of one of your groups that concerns you (an expense
/// you share or paid, your share marked paid or unpaid, a transfer with you, being added, removed
/// or given a role) or, in a group set to `.all`, anything done there. Never your own actions.
public struct InboxItem: Codable, Hashable, Sendable {
    /// The activity line's id: give it to `markNotificationsRead(ids:)`.
    public var id: String
    public var groupId: String
    public var groupName: String
    /// What happened, as in the activity list: `expense.created`, `share.marked_paid`, `member.removed`…
    public var action: String
    /// Who did it, when known.
    public var actorName: String?
    /// What kind of thing it happened to, e.g. `expense`.
    public var entity: String
    public var entityId: String
    /// A line for people, e.g. "Ben added Dinner (¥9,000)".
    public var summary: String
    public var at: Date
    public var isRead: Bool

    enum CodingKeys: String, CodingKey {
        case id, groupId, groupName, action, actorName, entity, entityId, summary, at
        case isRead = "read"
    }

    public init(
        id: String, groupId: String, groupName: String, action: String, actorName: String? = nil, entity: String,
        entityId: String, summary: String, at: Date, isRead: Bool
    ) {
        self.id = id
        self.groupId = groupId
        self.groupName = groupName
        self.action = action
        self.actorName = actorName
        self.entity = entity
        self.entityId = entityId
        self.summary = summary
        self.at = at
        self.isRead = isRead
    }
}

/// One page of the inbox, newest first.
public struct NotificationPage: Codable, Hashable, Sendable {
    public var items: [InboxItem]
    /// Unread notifications in all, not only on this page.
    public var unread: Int
    /// Give it to `notifications(cursor:)` for the next (older) page; nil on the last page.
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items = "notifications"
        case unread, nextCursor
    }

    public init(items: [InboxItem], unread: Int, nextCursor: String? = nil) {
        self.items = items
        self.unread = unread
        self.nextCursor = nextCursor
    }
}

/// How much of one group's activity reaches your inbox; each account sets its own, per group,
/// and nobody else sees it.
public enum NotificationLevel: String, Codable, Hashable, Sendable, CaseIterable {
    /// Everything anyone else does in the group.
    case all
    /// What concerns you (the default).
    case mine
    /// Nothing.
    case none
}

/// How you get notification mail (`SplitterClient.emailSettings()`).
public enum EmailMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// A mail per notification (the default).
    case each
    /// One digest a day, at `EmailSettings.digestHour` (UTC), of what is still unread.
    case daily
    /// No notification mail.
    case off
}

/// The kinds of notification mail that can be turned off one by one.
public enum MailKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// Expenses added, changed, deleted, restored.
    case expenses
    /// Shares marked paid or unpaid; transfers.
    case payments
    /// Being added, removed, given a role or rights.
    case members
    /// Everything else in a group.
    case group
}

/// Your address and what notification mail reaches it. Mail goes only to a verified address,
/// and only when the server sends mail at all (`sending`).
public struct EmailSettings: Codable, Hashable, Sendable {
    /// Nil for an account with only a phone number.
    public var email: String?
    public var verified: Bool
    /// Whether this server sends mail (its operator set a relay).
    public var sending: Bool
    public var mode: EmailMode
    /// The kinds not mailed.
    public var off: Set<MailKind>
    /// The hour (UTC, 0–23) a daily digest goes out.
    public var digestHour: Int

    public init(
        email: String?, verified: Bool, sending: Bool, mode: EmailMode, off: Set<MailKind>, digestHour: Int
    ) {
        self.email = email
        self.verified = verified
        self.sending = sending
        self.mode = mode
        self.off = off
        self.digestHour = digestHour
    }
}
