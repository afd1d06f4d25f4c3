import Crypto
import Foundation
import SQLKit
import SplitCore

public struct CategoryRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: UUID
    public var name: String
    public var icon: String
    public var color: String
    public var isDefault: Bool
    public var position: Int64
    public var isDeleted: Bool
    public var version: Int64

    public init(
        id: UUID, groupID: UUID, name: String, icon: String, color: String, isDefault: Bool, position: Int64,
        isDeleted: Bool = false, version: Int64 = 1
    ) {
        self.id = id
        self.groupID = groupID
        self.name = name
        self.icon = icon
        self.color = color
        self.isDefault = isDefault
        self.position = position
        self.isDeleted = isDeleted
        self.version = version
    }
}

public enum CategoryStoreError: Error, Equatable, Sendable {
    /// Defaults cannot be renamed or deleted.
    case isDefault
    /// A reorder must list every live category exactly once.
    case orderIncomplete
    case nameTaken
}

/// A group's categories: the seed's six defaults plus custom ones.
public struct CategoryStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The seed's defaults, in order.
    public static let defaults: [(name: String, icon: String, color: String)] = [
        ("Meal", "🍜", "#E4572E"), ("Transport", "🚆", "#2E86AB"), ("Tickets", "🎫", "#A23B72"),
        ("Shopping", "🛍️", "#F18F01"), ("Hotel", "🏨", "#3B8B5A"), ("Other", "📦", "#6C757D"),
    ]

    /// A personal expense book's defaults (issue 20): everyday money rather than a trip.
    public static let personalDefaults: [(name: String, icon: String, color: String)] = [
        ("Groceries", "🛒", "#2A9D6F"), ("Rent", "🏠", "#3B8B5A"), ("Bills", "💡", "#C9A227"),
        ("Transport", "🚆", "#2E86AB"), ("Eating out", "🍜", "#E4572E"), ("Health", "💊", "#D1495B"),
        ("Fun", "🎉", "#A23B72"), ("Other", "📦", "#6C757D"),
    ]

    /// Default categories have ids derived from the group's id, so creating them twice (two
    /// requests at once for a group made before categories existed) inserts nothing twice.
    public static func defaultID(groupID: UUID, name: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("category:\(groupID.text):\(name)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x50  // version 5-like
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    static func insertDefaults(
        groupID: UUID, now: Int64, _ sql: any SQLDatabase,
        set: [(name: String, icon: String, color: String)] = defaults
    ) async throws {
        for (position, category) in set.enumerated() {
            try await sql.raw(
                """
                INSERT INTO categories (id, group_id, name, icon, color, is_default, position, is_deleted, version,
                                        created_at, updated_at)
                VALUES (\(bind: defaultID(groupID: groupID, name: category.name).text), \(bind: groupID.text),
                        \(bind: category.name), \(bind: category.icon), \(bind: category.color), \(bind: true),
                        \(bind: Int64(position)), \(bind: false), 1, \(bind: now), \(bind: now))
                ON CONFLICT (id) DO NOTHING
                """
            ).run()
        }
    }

    /// Live categories in order; a group without any gets the defaults first.
    public func categories(groupID: UUID, now: Int64) async throws -> [CategoryRecord] {
        var found = try await Self.list(groupID: groupID, includeDeleted: false, database)
        if found.isEmpty {
            // A group from before categories existed: its defaults, through the change feed too.
            try await database.transaction { sql in
                guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now) else { return }
                try await Self.insertDefaults(groupID: groupID, now: now, sql)
                for category in Self.defaults {
                    try await log.changed(.category, Self.defaultID(groupID: groupID, name: category.name), sql)
                }
            }
            found = try await Self.list(groupID: groupID, includeDeleted: false, database)
        }
        return found
    }

    public func categories(ids: [UUID]) async throws -> [CategoryRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { sql in
            try await sql.select().column(SQLLiteral.all).from("categories").where(OneOf("id", ids.map(\.text))).all()
        }.map { try CategoryRecord(row: $0) }
    }

    /// Every category ever made in the group, deleted ones too (expenses keep their names).
    public func allCategories(groupID: UUID) async throws -> [CategoryRecord] {
        try await Self.list(groupID: groupID, includeDeleted: true, database)
    }

    public func create(_ category: CategoryRecord, actor: Actor, now: Int64) async throws -> CategoryRecord? {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: category.groupID, now: now, actor: actor) else {
                return nil
            }
            try await Self.requireFreeName(category.name, groupID: category.groupID, except: nil, sql)
            let last = try await sql.raw(
                "SELECT MAX(position) AS p FROM categories WHERE group_id = \(bind: category.groupID.text)"
            ).first()?.decode(column: "p", as: Int64?.self)
            var stored = category
            stored.position = (last ?? -1) + 1
            try await sql.raw(
                """
                INSERT INTO categories (id, group_id, name, icon, color, is_default, position, is_deleted, version,
                                        created_at, updated_at)
                VALUES (\(bind: stored.id.text), \(bind: stored.groupID.text), \(bind: stored.name), \(bind: stored.icon),
                        \(bind: stored.color), \(bind: false), \(bind: stored.position), \(bind: false), 1, \(bind: now),
                        \(bind: now))
                """
            ).run()
            try await log.changed(.category, stored.id, sql)
            try await log.activity(
                actor, "category.created", .category, stored.id, ActivityEvent(subject: stored.name), sql)
            return stored
        }
    }

    /// Renames or restyles a custom category, or deletes it (soft); defaults refuse both.
    public func update(
        _ category: CategoryRecord, expectedVersion: Int64, actor: Actor, now: Int64
    ) async throws -> VersionedWrite<CategoryRecord>? {
        let forUpdate = database.forUpdate
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: category.groupID, now: now, actor: actor) else {
                return nil
            }
            guard
                let current = try await sql.raw(
                    "SELECT * FROM categories WHERE id = \(bind: category.id.text)\(unsafeRaw: forUpdate)"
                ).first().map({ try CategoryRecord(row: $0) }), current.groupID == category.groupID, !current.isDeleted
            else { return nil }
            guard !current.isDefault else { throw CategoryStoreError.isDefault }
            guard current.version == expectedVersion else { return .stale(current) }
            if AccountInput.nameKey(category.name) != AccountInput.nameKey(current.name) {
                try await Self.requireFreeName(category.name, groupID: category.groupID, except: category.id, sql)
            }
            var next = category
            next.version = current.version + 1
            next.isDefault = false
            next.position = current.position
            try await sql.raw(
                """
                UPDATE categories SET name = \(bind: next.name), icon = \(bind: next.icon), color = \(bind: next.color),
                    is_deleted = \(bind: next.isDeleted), version = \(bind: next.version), updated_at = \(bind: now)
                WHERE id = \(bind: next.id.text)
                """
            ).run()
            try await log.changed(.category, next.id, isDeleted: next.isDeleted, sql)
            // Series that would add to it pause now, saying so (found by a new user: they went on
            // putting expenses in the deleted category).
            if next.isDeleted {
                try await RecurringStore.pause(groupID: next.groupID, log: log, now: now, sql) {
                    $0.template.categoryID == next.id ? SeriesStop.categoryGone(current.name) : nil
                }
            }
            try await log.activity(
                actor, next.isDeleted ? "category.deleted" : "category.updated", .category, next.id,
                // A rename keeps the old name too ("renamed category Food to Meals").
                ActivityEvent(subject: next.name, from: next.name != current.name ? current.name : nil), sql)
            return .written(next)
        }
    }

    /// Puts the live categories in the given order.
    public func reorder(groupID: UUID, ids: [UUID], actor: Actor, now: Int64) async throws -> [CategoryRecord]? {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            let live = try await sql.raw(
                "SELECT id FROM categories WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false)"
            ).all().map { try $0.decodeUUID("id") }
            guard Set(live) == Set(ids), live.count == ids.count else { throw CategoryStoreError.orderIncomplete }
            for (position, id) in ids.enumerated() {
                try await sql.raw(
                    """
                    UPDATE categories SET position = \(bind: Int64(position)), version = version + 1, updated_at = \(bind: now)
                    WHERE id = \(bind: id.text)
                    """
                ).run()
                try await log.changed(.category, id, sql)
            }
            try await log.activity(
                actor, "category.reordered", .group, groupID, ActivityEvent(), sql)
            return try await sql.raw(
                """
                SELECT * FROM categories WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false)
                ORDER BY position, id
                """
            ).all().map { try CategoryRecord(row: $0) }
        }
    }

    private static func requireFreeName(_ name: String, groupID: UUID, except: UUID?, _ sql: any SQLDatabase)
        async throws
    {
        // Compared here, not by SQL's lower() (ASCII only on SQLite): one key for a name on both
        // databases, spaces included (a name stored with a run of them is still the same name).
        let key = AccountInput.nameKey(name)
        let names = try await sql.raw(
            """
            SELECT id, name FROM categories WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false)
            """
        ).all()
        for row in names where try row.decodeUUID("id") != except {
            if AccountInput.nameKey(try row.decode(column: "name", as: String.self)) == key { throw CategoryStoreError.nameTaken }
        }
    }

    private static func list(groupID: UUID, includeDeleted: Bool, _ database: Database) async throws -> [CategoryRecord]
    {
        try await database.read { sql in try await list(groupID: groupID, includeDeleted: includeDeleted, sql) }
    }

    static func list(groupID: UUID, includeDeleted: Bool, _ sql: any SQLDatabase) async throws -> [CategoryRecord] {
        try await sql.raw(
            """
            SELECT * FROM categories WHERE group_id = \(bind: groupID.text)
                  AND (\(bind: includeDeleted) OR is_deleted = \(bind: false))
            ORDER BY position, id
            """
        ).all().map { try CategoryRecord(row: $0) }
    }
}

extension CategoryRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            name: try row.decode(column: "name", as: String.self),
            icon: try row.decode(column: "icon", as: String.self),
            color: try row.decode(column: "color", as: String.self),
            isDefault: try row.decode(column: "is_default", as: Bool.self),
            position: try row.decode(column: "position", as: Int64.self),
            isDeleted: try row.decode(column: "is_deleted", as: Bool.self),
            version: try row.decode(column: "version", as: Int64.self))
    }
}
