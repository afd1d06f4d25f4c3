import Foundation
import SQLKit
import SplitCore

/// The kinds of object the change feed reports (the CHECK in migration 0005 lists the same).
public enum ChangeEntity: String, Sendable, CaseIterable {
    case group, member, category, expense, settlement
}

public struct ChangeRecord: Sendable, Equatable {
    public var entity: ChangeEntity
    public var entityID: UUID
    public var seq: Int64
    public var isDeleted: Bool
}

public struct ActivityRecord: Sendable, Equatable {
    public var id: UUID
    public var seq: Int64
    public var actorUserID: UUID?
    public var actorName: String
    public var action: String
    public var entity: ChangeEntity
    public var entityID: UUID
    /// What happened, as data; the edge puts it into words.
    public var event: ActivityEvent
    public var at: Int64
}

/// The change feed and the activity list of a group (DESIGN §5, §6). Every write transaction
/// on a group calls `begin` first: it takes the group's next change number under the group
/// row's lock, which is held to commit, so numbers become visible in order and a reader that
/// has seen number n has seen every number below it. Taking it first, before any other row
/// lock, keeps lock order the same in every transaction (no deadlocks).
public struct GroupLog: Sendable {
    let groupID: UUID
    public let seq: Int64
    let now: Int64
    /// Whether the group has a live webhook, or a budget, as `begin` read them under the group's
    /// lock (every change to either takes that lock too). Most groups have neither, and their
    /// writes skip looking for one: two statements fewer in each write (issue 16).
    let hasWebhooks: Bool
    let hasBudget: Bool
    /// The actor's membership and whether the group is archived, as `begin` read them under the
    /// group's lock: for an action that depends on a row read after `begin` (`require`).
    let actorMembership: Membership?
    let isArchived: Bool
    /// The group's home currency as `begin` read it under the lock: a charge in another (a
    /// former home currency) does not count (`Spending.parts`).
    let homeCurrency: String
    /// Of the members `begin` read under the lock (`involving` and `reading`), those active.
    let activeMembers: Set<UUID>
    /// Every member `begin` was asked to read: `requireActive` decides only for these.
    let readMembers: Set<UUID>

    /// Starts a logged write on a group; nil when the group does not exist. Under the group's
    /// lock it decides the actor's grant again and checks that every member in `involving` is
    /// still active, throwing a `WriteRefusal` (DESIGN §6: invariants are checked in the
    /// transaction that writes them).
    ///
    /// `reading`: members read in the same statement but not required to be active (an edit may
    /// keep members removed since): `requireActive` decides for them once the write knows which
    /// must be.
    static func begin(
        _ sql: any SQLDatabase, groupID: UUID, now: Int64, actor: Actor? = nil, involving: [UUID] = [],
        reading: [UUID] = []
    ) async throws -> GroupLog? {
        guard
            let row = try await sql.raw(
                """
                UPDATE groups SET change_seq = change_seq + 1 WHERE id = \(bind: groupID.text)
                RETURNING change_seq, is_archived, home_currency
                """
            ).first()
        else { return nil }
        let grant = actor?.grant
        let isArchived = try row.decode(column: "is_archived", as: Bool.self)
        // Under the group's lock, in one read: the actor's row and every involved member's, and
        // whether the group has a live webhook or a budget. A statement of its own, after the
        // lock is held, so that on PostgreSQL it sees every change committed before (the
        // UPDATE's own snapshot may be older when it waited for the lock).
        let read = Set(involving + reading)
        let wanted = read.union(grant.map { [$0.memberID] } ?? []).map(\.text)
        let rows = try await sql.raw(
            """
            SELECT f.has_webhooks, f.has_budget, m.* FROM (
                SELECT EXISTS (SELECT 1 FROM webhooks w WHERE w.group_id = \(bind: groupID.text)
                               AND w.disabled_at IS NULL AND w.deleted_at IS NULL) AS has_webhooks,
                       EXISTS (SELECT 1 FROM budgets b WHERE b.group_id = \(bind: groupID.text)) AS has_budget
            ) f LEFT JOIN members m
                ON m.group_id = \(bind: groupID.text) AND m.id IN (\(binds: wanted.isEmpty ? [""] : wanted))
            """
        ).all()
        guard let flags = rows.first else { return nil }
        let members = try rows.filter { try !$0.decodeNil(column: "id") }.map { try MemberRecord(row: $0) }
        let actorMembership = grant.flatMap { grant in members.first { $0.id == grant.memberID }?.membership }
        if let grant {
            // The server's early decision again, on the member row as it is now.
            if let refusal = WriteGrant.refusal(for: grant.actions, by: actorMembership, groupIsArchived: isArchived) {
                throw refusal
            }
        }
        let active = Set(members.filter(\.isActive).map(\.id))
        if let missing = Set(involving).subtracting(active).min(by: { $0.sortsBefore($1) }) {
            throw WriteRefusal.inactiveMember(missing)
        }
        let seq = try row.decode(column: "change_seq", as: Int64.self)
        PendingEvents.note(.group(groupID, seq: seq))
        return GroupLog(
            groupID: groupID, seq: seq, now: now,
            hasWebhooks: try flags.decode(column: "has_webhooks", as: Bool.self),
            hasBudget: try flags.decode(column: "has_budget", as: Bool.self),
            actorMembership: actorMembership, isArchived: isArchived,
            homeCurrency: try row.decode(column: "home_currency", as: String.self), activeMembers: active, readMembers: read)
    }

    /// Under the group's row lock, decides `grant` again, as `begin` does, for a write the change
    /// feed does not carry (a webhook's settings, a payment request's hold): no change number is
    /// taken and no event published. Refuses with the `WriteRefusal` of `WriteGrant.refusal`; an
    /// unknown group is `.notFound`.
    static func decide(_ sql: any SQLDatabase, groupID: UUID, grant: WriteGrant) async throws {
        guard
            let row = try await sql.raw(
                "UPDATE groups SET change_seq = change_seq WHERE id = \(bind: groupID.text) RETURNING is_archived"
            ).first()
        else { throw WriteRefusal.notFound }
        let member = try await sql.select().column(SQLLiteral.all).from("members")
            .where("group_id", .equal, groupID.text).where("id", .equal, grant.memberID.text).first()
            .map { try MemberRecord(row: $0) }
        if let refusal = WriteGrant.refusal(
            for: grant.actions, by: member?.membership,
            groupIsArchived: try row.decode(column: "is_archived", as: Bool.self))
        {
            throw refusal
        }
    }

    /// Decides `actions` for the actor `begin` was given, on its member row as `begin` read it
    /// under the group's lock: for a right that depends on what the write found after `begin`
    /// (whether the actor owes or paid the expense whose share is marked), which the server's
    /// early check could only guess from an older read.
    func require(_ actions: [GroupAction]) throws {
        if let refusal = WriteGrant.refusal(for: actions, by: actorMembership, groupIsArchived: isArchived) {
            throw refusal
        }
    }

    /// The same log for a write made at `now` (each of several creates in one transaction).
    func at(_ now: Int64) -> GroupLog {
        GroupLog(
            groupID: groupID, seq: seq, now: now, hasWebhooks: hasWebhooks, hasBudget: hasBudget,
            actorMembership: actorMembership, isArchived: isArchived, homeCurrency: homeCurrency,
            activeMembers: activeMembers, readMembers: readMembers)
    }

    /// Refuses (`inactiveMember`) the first of `ids` that was not an active member when `begin`
    /// read them under the group's lock (each must have been in its `involving` or `reading`).
    func requireActive(_ ids: [UUID]) throws {
        precondition(readMembers.isSuperset(of: ids), "begin read these members")
        if let missing = Set(ids).subtracting(activeMembers).min(by: { $0.sortsBefore($1) }) {
            throw WriteRefusal.inactiveMember(missing)
        }
    }

    /// Refuses (`inactiveMember`) the first of `ids` that is not an active member of the group:
    /// for checks that need a row read after `begin` (an edit may keep members removed since).
    static func requireActive(_ ids: [UUID], groupID: UUID, _ sql: any SQLDatabase) async throws {
        guard !ids.isEmpty else { return }
        let active = Set(
            try await sql.select().column("id").from("members")
                .where("group_id", .equal, groupID.text).where("id", .in, Set(ids).map(\.text))
                .where("is_active", .equal, true).all()
                .map { try $0.decodeUUID("id") })
        if let missing = Set(ids).subtracting(active).min(by: { $0.sortsBefore($1) }) {
            throw WriteRefusal.inactiveMember(missing)
        }
    }

    /// Records that an object changed (or was deleted) in this write.
    func changed(_ entity: ChangeEntity, _ id: UUID, isDeleted: Bool = false, _ sql: any SQLDatabase) async throws {
        try await sql.raw(change(entity, id, isDeleted: isDeleted)).run()
    }

    /// `changed`'s statement, for a `WriteBatch`.
    func change(_ entity: ChangeEntity, _ id: UUID, isDeleted: Bool = false) -> SQLQueryString {
        """
        INSERT INTO changes (group_id, entity, entity_id, seq, is_deleted)
        VALUES (\(bind: groupID.text), \(bind: entity.rawValue), \(bind: id.text), \(bind: seq), \(bind: isDeleted))
        ON CONFLICT (group_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, is_deleted = excluded.is_deleted
        """
    }

    /// `changed` for many objects of one kind at once: one statement per thousand (an import's
    /// thousands of expenses, issue 18).
    func changed(_ entity: ChangeEntity, _ ids: [UUID], _ sql: any SQLDatabase) async throws {
        for statement in changes(entity, ids) { try await sql.raw(statement).run() }
    }

    /// `changed`'s statements for many objects, for a `WriteBatch`.
    func changes(_ entity: ChangeEntity, _ ids: [UUID], isDeleted: Bool = false) -> [SQLQueryString] {
        MultiRowInsert.statements(
            "INSERT INTO changes (group_id, entity, entity_id, seq, is_deleted)",
            ids.map { [groupID.text, entity.rawValue, $0.text, seq, isDeleted] },
            then: "ON CONFLICT (group_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, is_deleted = excluded.is_deleted")
    }

    /// Appends one line to the activity list (append-only, DESIGN §6), and puts it in the
    /// notification inbox of every account it is for (issue 17): members whose setting is "all",
    /// and members `concerning` it (who owe or are owed in it, whose share or transfer it is, who
    /// was added, removed or given a role) whose setting is "mine", the default. Never the actor's
    /// own account.
    /// `outsider`: an account that is no member of the group, told as well (a claimant turned down).
    func activity(
        _ actor: Actor?, _ action: String, _ entity: ChangeEntity, _ id: UUID, _ event: ActivityEvent,
        concerning: [UUID] = [], outsider: UUID? = nil, _ sql: any SQLDatabase
    ) async throws {
        var batch = WriteBatch()
        let line = activity(
            actor, action, entity, id, event, concerning: concerning, outsider: outsider, into: &batch)
        try await line.deliver(try await batch.run(on: sql), sql)
    }

    /// `activity`'s two inserts, added to `batch`; `deliver` on the batch's result does the rest.
    /// `notifying` false: a line of the activity only, nobody's notification (a payment request's
    /// transfer, which its own line tells of: found by a new user, two for one payment).
    func activity(
        _ actor: Actor?, _ action: String, _ entity: ChangeEntity, _ id: UUID, _ event: ActivityEvent,
        concerning: [UUID] = [], outsider: UUID? = nil, notifying: Bool = true, into batch: inout WriteBatch
    ) -> ActivityLine {
        let activity = UUID.timeOrdered()
        let activityID = activity.text
        batch.add(
            """
            INSERT INTO activity (id, group_id, seq, actor_user_id, actor_name, action, entity, entity_id, details, at)
            VALUES (\(bind: activityID), \(bind: groupID.text), \(bind: seq), \(bind: actor?.userID.text),
                    \(bind: actor?.name ?? ""), \(bind: action), \(bind: entity.rawValue), \(bind: id.text),
                    \(bind: event.json), \(bind: now))
            """)
        // "" stands for nobody where a list must not be empty.
        let concerned = Set(concerning.map(\.text)).sorted()
        // A removed member hears of their removal, and of nothing after it.
        let inactiveToo = action == "member.removed" ? concerned : []
        let recipients = batch.addReturning(
            """
            INSERT INTO notifications (user_id, activity_id, group_id, created_at)
            SELECT m.user_id, \(bind: activityID), \(bind: groupID.text), \(bind: now) FROM members m
            LEFT JOIN notification_settings s ON s.user_id = m.user_id AND s.group_id = m.group_id
            WHERE m.group_id = \(bind: groupID.text) AND m.user_id IS NOT NULL AND \(bind: notifying ? 1 : 0) = 1
                  AND m.user_id <> \(bind: actor?.userID.text ?? "")
                  AND (m.is_active = \(bind: true) OR m.id IN (\(binds: inactiveToo.isEmpty ? [""] : inactiveToo)))
                  AND (COALESCE(s.level, 'mine') = 'all'
                       OR (COALESCE(s.level, 'mine') = 'mine' AND m.id IN (\(binds: concerned.isEmpty ? [""] : concerned))))
            \(unsafeRaw: outsider == nil ? "" : "UNION ")\(outsider.map { user in
                """
                SELECT \(bind: user.text), \(bind: activityID), \(bind: groupID.text), \(bind: now)
                WHERE NOT EXISTS (SELECT 1 FROM members WHERE group_id = \(bind: groupID.text) AND user_id = \(bind: user.text))
                """ as SQLQueryString
            } ?? "")
            RETURNING user_id AS value
            """)
        return ActivityLine(
            groupID: groupID, id: activity, action: action, now: now, hasWebhooks: hasWebhooks, recipients: recipients)
    }

    /// An activity line written by a `WriteBatch`, to hand on to those it is for.
    struct ActivityLine {
        let groupID: UUID
        let id: UUID
        let action: String
        let now: Int64
        let hasWebhooks: Bool
        let recipients: Int

        /// Tells each recipient's streams (the bell's count), queues their mail when this server
        /// sends mail, and queues a delivery for each of the group's webhooks that wants it: all
        /// in the transaction of the batch that wrote the line.
        func deliver(_ values: [[String]], _ sql: any SQLDatabase) async throws {
            let recipientIDs = try values[recipients].map { text in
                guard let user = UUID(text: text) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a user id: \(text)"))
                }
                return user
            }
            for user in recipientIDs {
                PendingEvents.note(.inbox(user))
            }
            if PendingEvents.current?.sendsMail == true {
                try await MailStore.queue(
                    recipients: recipientIDs, activityID: id, action: action, now: now, sql)
            }
            guard hasWebhooks else { return }
            try await WebhookStore.enqueueDeliveries(
                groupID: groupID, activityID: id.text, action: action, now: now, sql)
        }
    }
}

/// Reading the feed and the activity list.
public struct GroupLogStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Who made each change number in `(after, through]` of a group: the account of its
    /// activity line (a change made by the server itself, such as a recurring expense, or by an
    /// account since deleted, has none).
    public func actors(groupID: UUID, after: Int64, through: Int64) async throws -> [Int64: UUID] {
        let rows = try await database.read { sql in
            try await sql.raw(
                """
                SELECT DISTINCT seq, actor_user_id FROM activity
                WHERE group_id = \(bind: groupID.text) AND seq > \(bind: after) AND seq <= \(bind: through)
                AND actor_user_id IS NOT NULL
                """
            ).all()
        }
        var actors: [Int64: UUID] = [:]
        for row in rows {
            actors[try row.decode(column: "seq", as: Int64.self)] = try row.decodeUUID("actor_user_id")
        }
        return actors
    }

    /// Objects changed after `since`, oldest change first, at most `limit`; `hasMore` when
    /// another page follows.
    public func changes(groupID: UUID, since: Int64, limit: Int) async throws -> (
        changes: [ChangeRecord], hasMore: Bool
    ) {
        let rows = try await database.read { sql in
            try await sql.raw(
                """
                SELECT entity, entity_id, seq, is_deleted FROM changes
                WHERE group_id = \(bind: groupID.text) AND seq > \(bind: since)
                ORDER BY seq, entity, entity_id LIMIT \(bind: limit + 1)
                """
            ).all()
        }
        var changes = try rows.map { row in
            ChangeRecord(
                entity: ChangeEntity(rawValue: try row.decode(column: "entity", as: String.self)) ?? .group,
                entityID: try row.decodeUUID("entity_id"), seq: try row.decode(column: "seq", as: Int64.self),
                isDeleted: try row.decode(column: "is_deleted", as: Bool.self))
        }
        let hasMore = changes.count > limit
        if hasMore {
            changes.removeLast()
            // A page must not cut one change number in two: those objects were written together.
            if let last = changes.last?.seq, rows.count > limit,
                let next = try? rows[limit].decode(column: "seq", as: Int64.self), next == last
            {
                changes.removeAll { $0.seq == last }
                if changes.isEmpty {
                    // One write touched more objects than a page holds; hand out that whole write.
                    return try await self.changes(groupID: groupID, since: since, limit: limit * 2)
                }
            }
        }
        return (changes, hasMore)
    }

    /// The group's current change number.
    public func currentSeq(groupID: UUID) async throws -> Int64 {
        try await database.read { sql in
            try await sql.raw("SELECT change_seq FROM groups WHERE id = \(bind: groupID.text)").first()?
                .decode(column: "change_seq", as: Int64.self) ?? 0
        }
    }

    /// The current change numbers of several groups (a missing group is left out).
    public func currentSeqs(groupIDs: [UUID]) async throws -> [UUID: Int64] {
        guard !groupIDs.isEmpty else { return [:] }
        let rows = try await database.read { sql in
            try await sql.select().column("id").column("change_seq").from("groups")
                .where("id", .in, groupIDs.map(\.text)).all()
        }
        return Dictionary(
            uniqueKeysWithValues: try rows.map { (try $0.decodeUUID("id"), try $0.decode(column: "change_seq", as: Int64.self)) })
    }

    /// Newest first; `before` is the (seq, id) of the last entry of the previous page.
    public func activity(groupID: UUID, before: (seq: Int64, id: UUID)?, limit: Int) async throws -> [ActivityRecord] {
        let beforeSeq = before?.seq ?? Int64.max
        let beforeID = before?.id.text ?? "~"
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM activity
                WHERE group_id = \(bind: groupID.text)
                      AND (seq < \(bind: beforeSeq) OR (seq = \(bind: beforeSeq) AND id < \(bind: beforeID)))
                ORDER BY seq DESC, id DESC LIMIT \(bind: limit)
                """
            ).all()
        }.map(ActivityRecord.init(row:))
    }
}

extension ActivityRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), seq: try row.decode(column: "seq", as: Int64.self),
            actorUserID: try row.decode(column: "actor_user_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            actorName: try row.decode(column: "actor_name", as: String.self),
            action: try row.decode(column: "action", as: String.self),
            entity: ChangeEntity(rawValue: try row.decode(column: "entity", as: String.self)) ?? .group,
            entityID: try row.decodeUUID("entity_id"),
            event: try ActivityEvent.decode(try row.decode(column: "details", as: String.self)),
            at: try row.decode(column: "at", as: Int64.self))
    }
}
