import Foundation

// The SDK's own types for what happened in a group: the activity people read, and the change
// feed an offline copy is pulled from. Their JSON is the API's (see GroupModels.swift).

/// One line of a group's activity: who did what, when.
public struct ActivityEntry: Codable, Hashable, Sendable {
    public var id: String
    /// What happened, e.g. `expense.created`, `share.marked_paid`, `settlement.recorded`.
    public var action: String
    /// Who did it, when known.
    public var actorUserId: String?
    public var actorName: String?
    /// What kind of thing it happened to, e.g. `expense`.
    public var entity: String
    public var entityId: String
    /// A line for people.
    public var summary: String
    public var at: Date

    public init(
        id: String, action: String, actorUserId: String? = nil, actorName: String? = nil, entity: String,
        entityId: String, summary: String, at: Date
    ) {
        self.id = id
        self.action = action
        self.actorUserId = actorUserId
        self.actorName = actorName
        self.entity = entity
        self.entityId = entityId
        self.summary = summary
        self.at = at
    }
}

/// An expense category of a group.
public struct Category: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    /// An emoji or short symbol.
    public var icon: String
    /// `#RRGGBB`.
    public var color: String
    /// True for the categories every group starts with.
    public var isDefault: Bool
    /// Where it is listed, from 0.
    public var position: Int
    /// Grows by one with every change.
    public var version: Int64

    public init(
        id: String, name: String, icon: String, color: String, isDefault: Bool, position: Int, version: Int64
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.color = color
        self.isDefault = isDefault
        self.position = position
        self.version = version
    }
}

/// Something the change feed reports as deleted.
public struct Tombstone: Codable, Hashable, Sendable {
    /// What kind of thing was deleted.
    public enum Entity: String, Codable, Hashable, Sendable, CaseIterable {
        case expense
        case settlement
        case member
        case category
    }

    public var entity: Entity
    public var id: String

    public init(entity: Entity, id: String) {
        self.entity = entity
        self.id = id
    }
}

/// One page of a group's change feed (`SplitterClient.changes`): everything that changed after
/// the cursor it was asked from, deletions as tombstones. `OfflineStore.apply` keeps it.
public struct Changes: Codable, Hashable, Sendable {
    /// Where this page ends: ask for the next one from here.
    public var cursor: String
    /// True when more changes follow this page.
    public var hasMore: Bool
    /// The group itself, when it changed.
    public var group: Group?
    public var expenses: [Expense]
    public var settlements: [Settlement]
    public var members: [Member]
    public var categories: [Category]
    public var deleted: [Tombstone]

    public init(
        cursor: String, hasMore: Bool, group: Group? = nil, expenses: [Expense], settlements: [Settlement],
        members: [Member], categories: [Category], deleted: [Tombstone]
    ) {
        self.cursor = cursor
        self.hasMore = hasMore
        self.group = group
        self.expenses = expenses
        self.settlements = settlements
        self.members = members
        self.categories = categories
        self.deleted = deleted
    }
}
