import Foundation
import SQLKit
import SplitCore

/// Groups and members: plain functions over the database (STYLE §8).
public struct GroupStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Creates the group and its first member, the creator as owner, in one transaction; a
    /// personal expense book (`personal`) gets everyday categories instead of a trip's.
    public func createGroup(_ group: GroupRecord, ownerName: String, personal: Bool = false) async throws -> (
        GroupRecord, MemberRecord
    ) {
        let owner = Self.owner(of: group, name: ownerName)
        try await database.transaction { sql in
            try await Self.insertGroup(
                group, owner: owner, categories: personal ? CategoryStore.personalDefaults : CategoryStore.defaults, sql)
        }
        return (group, owner)
    }

    /// The owner's member row of a new group.
    public static func owner(of group: GroupRecord, name: String) -> MemberRecord {
        MemberRecord(
            id: UUID.random(), groupID: group.id, userID: group.ownerUserID, name: name, role: .owner,
            canEditAllExpenses: true, createdAt: group.createdAt, updatedAt: group.createdAt)
    }

    /// Writes a new group, its owner and default categories, and logs them, in the caller's
    /// transaction (an import makes its group in the import's own, issue 18).
    static func insertGroup(
        _ group: GroupRecord, owner: MemberRecord,
        categories: [(name: String, icon: String, color: String)] = CategoryStore.defaults, _ sql: any SQLDatabase
    ) async throws {
        try await Self.checkRoom(forUser: group.ownerUserID, sql)
        try await sql.raw(
            """
            INSERT INTO groups (id, name, description, home_currency, time_zone, owner_user_id, invite_code,
                                is_archived, version, created_at, updated_at)
            VALUES (\(bind: group.id.text), \(bind: group.name), \(bind: group.description), \(bind: group.homeCurrency),
                    \(bind: group.timeZone), \(bind: group.ownerUserID.text), \(bind: group.inviteCode), \(bind: group.isArchived),
                    \(bind: group.version), \(bind: group.createdAt), \(bind: group.updatedAt))
            """
        ).run()
        try await Self.insert(owner, sql)
        try await CategoryStore.insertDefaults(groupID: group.id, now: group.createdAt, sql, set: categories)
        guard let log = try await GroupLog.begin(sql, groupID: group.id, now: group.createdAt) else { return }
        try await log.changed(.group, group.id, sql)
        try await log.changed(.member, owner.id, sql)
        for category in categories {
            try await log.changed(.category, CategoryStore.defaultID(groupID: group.id, name: category.name), sql)
        }
        try await log.activity(
            Actor(userID: group.ownerUserID, name: owner.name), "group.created", .group, group.id,
            ActivityEvent(subject: group.name), sql)
    }

    public func group(id: UUID) async throws -> GroupRecord? {
        try await database.read { try await $0.raw("SELECT * FROM groups WHERE id = \(bind: id.text)").first() }
            .map(GroupRecord.init(row:))
    }

    /// A member's columns prefixed `m_`, for reads that join `members m` to `groups g`.
    private static let memberColumns = MemberRecord.columns.map { "m.\($0) AS m_\($0)" }
        .joined(separator: ", ")

    /// The group and the user's member in it (active or not), in one read: the permission check
    /// of every request to a group (issue 16: it was two).
    public func groupAndMembership(groupID: UUID, userID: UUID) async throws -> (GroupRecord, MemberRecord)? {
        try await groupMembershipAndSeq(groupID: groupID, userID: userID).map { ($0.group, $0.member) }
    }

    /// `groupAndMembership`, with the group's change number from the same row: what a page of
    /// the change feed depends on (issue 16: it was a read of its own).
    public func groupMembershipAndSeq(groupID: UUID, userID: UUID) async throws
        -> (group: GroupRecord, member: MemberRecord, changeSeq: Int64)?
    {
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT g.*, \(unsafeRaw: Self.memberColumns) FROM groups g JOIN members m ON m.group_id = g.id
                WHERE g.id = \(bind: groupID.text) AND m.user_id = \(bind: userID.text)
                """
            ).first()
        }.map {
            (try GroupRecord(row: $0), try MemberRecord(row: $0, prefix: "m_"), try $0.decode(column: "change_seq", as: Int64.self))
        }
    }

    /// The group and all its members (removed ones too), in one read: for a permission check
    /// that needs the member list anyway (an expense's split names members). Sorted as `members`.
    public func groupWithMembers(groupID: UUID) async throws -> (GroupRecord, [MemberRecord])? {
        try await groupRead(groupID, withCategories: false).map { ($0.group, $0.members) }
    }

    /// `groupWithMembers` and every category of the group (deleted ones too, by position), in
    /// one read: on PostgreSQL one statement, the categories packed into it; on SQLite two in
    /// one snapshot. A create needs all three before its transaction (issue 16: two round trips
    /// on PostgreSQL, two reads on SQLite).
    public func groupWithMembersAndCategories(groupID: UUID) async throws
        -> (GroupRecord, [MemberRecord], [CategoryRecord])?
    {
        try await groupRead(groupID, withCategories: true).map { ($0.group, $0.members, $0.categories) }
    }

    /// The group with its members, and its categories when asked (none otherwise).
    private func groupRead(_ groupID: UUID, withCategories: Bool) async throws
        -> (group: GroupRecord, members: [MemberRecord], categories: [CategoryRecord])?
    {
        let (rows, categories) = try await database.read { sql -> ([any SQLRow], [CategoryRecord]?) in
            let packs = withCategories && sql.dialect.name == "postgresql"
            let rows = try await sql.raw(
                """
                SELECT g.*, \(unsafeRaw: Self.memberColumns)\(unsafeRaw: packs ? ", " + Self.packedCategories : "")
                FROM groups g LEFT JOIN members m ON m.group_id = g.id
                WHERE g.id = \(bind: groupID.text)
                """
            ).all()
            guard withCategories, !packs, !rows.isEmpty else { return (rows, nil) }
            return (rows, try await CategoryStore.list(groupID: groupID, includeDeleted: true, sql))
        }
        guard let first = rows.first else { return nil }
        let members = try rows.filter { try !$0.decodeNil(column: "m_id") }
            .map { try MemberRecord(row: $0, prefix: "m_") }
        var all = categories ?? []
        if withCategories, categories == nil {
            all = try first.decode(column: "packed_categories", as: PackedRecords.self).map { fields in
                CategoryRecord(
                    id: try fields.uuid(), groupID: groupID, name: try fields.text(), icon: try fields.text(),
                    color: try fields.text(), isDefault: try fields.bool(), position: try fields.int64(),
                    isDeleted: try fields.bool(), version: try fields.int64())
            }
        }
        return (try GroupRecord(row: first), Self.sorted(members), all)
    }

    /// The group's categories as one packed column (`PackedRecords`), in `CategoryStore`'s order.
    private static let packedCategories = """
        (SELECT array_agg(ROW(c.id, c.name, c.icon, c.color, c.is_default, c.position, c.is_deleted, c.version) \
        ORDER BY c.position, c.id) FROM categories c WHERE c.group_id = g.id) AS packed_categories
        """

    /// The groups where the user is an active member, with that membership, archived ones last,
    /// then by name.
    public func groups(ofUser userID: UUID) async throws -> [(group: GroupRecord, member: MemberRecord)] {
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT g.*, \(unsafeRaw: Self.memberColumns) FROM groups g JOIN members m ON m.group_id = g.id
                WHERE m.user_id = \(bind: userID.text) AND m.is_active = \(bind: true)
                """
            ).all()
        }.map { (group: try GroupRecord(row: $0), member: try MemberRecord(row: $0, prefix: "m_")) }
            // Sorted here, not by ORDER BY name: SQLite and PostgreSQL collate text differently.
            .sorted {
                ($0.group.isArchived ? 1 : 0, $0.group.name, $0.group.id.text) < (
                    $1.group.isArchived ? 1 : 0, $1.group.name, $1.group.id.text
                )
            }
    }

    /// Writes name, description, home currency and time zone when the stored version is `expectedVersion`
    /// (any version when nil); `version` goes up by one.
    /// - Returns: the stored group; `.stale(current)` when the version moved on; nil when unknown.
    public func updateGroup(
        id: UUID, name: String, description: String, homeCurrency: String, timeZone: String, expectedVersion: Int64?,
        actor: Actor? = nil, now: Int64
    ) async throws -> VersionedWrite<GroupRecord>? {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: id, now: now, actor: actor)
            try await log?.changed(.group, id, sql)
            let oldName = try await sql.raw("SELECT name FROM groups WHERE id = \(bind: id.text)").first()?
                .decode(column: "name", as: String.self)
            let updated = try await sql.raw(
                """
                UPDATE groups SET name = \(bind: name), description = \(bind: description),
                    home_currency = \(bind: homeCurrency), time_zone = \(bind: timeZone), version = version + 1,
                    updated_at = \(bind: now)
                WHERE id = \(bind: id.text) AND (\(bind: expectedVersion == nil) OR version = \(bind: expectedVersion ?? 0))
                RETURNING *
                """
            ).first()
            if let updated {
                if let log, log.homeCurrency != homeCurrency {
                    try await Spending.rehome(groupID: id, from: log.homeCurrency, to: homeCurrency, log: log, sql)
                }
                if let log, let oldName, oldName != name {
                    try await log.activity(actor, "group.renamed", .group, id, ActivityEvent(subject: name, from: oldName), sql)
                }
                return .written(try GroupRecord(row: updated))
            }
            let current = try await sql.raw("SELECT * FROM groups WHERE id = \(bind: id.text)").first()
            return try current.map { .stale(try GroupRecord(row: $0)) }
        }
    }

    /// Archives (read-only history, no joining) or brings back a group.
    public func setArchived(groupID: UUID, _ isArchived: Bool, actor: Actor? = nil, now: Int64) async throws
        -> GroupRecord?
    {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor)
            try await log?.changed(.group, groupID, sql)
            let wasArchived = log?.isArchived
            let row = try await sql.raw(
                """
                UPDATE groups SET is_archived = \(bind: isArchived), version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: groupID.text)
                RETURNING *
                """
            ).first()
            // Everyone in it is told: nobody may change it now, or everyone may again (found by a
            // new user: archiving was in nobody's activity).
            if let row, let log, wasArchived != isArchived {
                let everyone = try await sql.raw(
                    "SELECT id FROM members WHERE group_id = \(bind: groupID.text) AND is_active = \(bind: true)"
                ).all().map { try $0.decodeUUID("id") }
                try await log.activity(
                    actor, isArchived ? "group.archived" : "group.unarchived", .group, groupID,
                    ActivityEvent(subject: try row.decode(column: "name", as: String.self)), concerning: everyone, sql)
            }
            return row
        }.map(GroupRecord.init(row:))
    }

    /// The user's membership in a group, active or not (the permission check decides).
    public func membership(groupID: UUID, userID: UUID) async throws -> MemberRecord? {
        try await database.read { try await Self.member(groupID: groupID, userID: userID, $0) }
    }

    /// All members, removed ones included (history still shows their names), by name.
    public func members(groupID: UUID) async throws -> [MemberRecord] {
        let members = try await database.read { sql in
            try await sql.raw("SELECT * FROM members WHERE group_id = \(bind: groupID.text)").all()
        }.map { try MemberRecord(row: $0) }
        return Self.sorted(members)
    }

    /// Sorted here, not by ORDER BY name: SQLite and PostgreSQL collate text differently. As
    /// people read names, whatever their case and accents ("al", "Aki", "Élodie" among the A-E),
    /// not by code point (found by a new user: "al" and "Élodie" came after "Zoe").
    private static func sorted(_ members: [MemberRecord]) -> [MemberRecord] {
        members.map { (key: QuickEntry.folded($0.name), member: $0) }
            .sorted { ($0.key, $0.member.name, $0.member.id.text) < ($1.key, $1.member.name, $1.member.id.text) }
            .map(\.member)
    }

    /// Adds a name-only member (a friend without an account).
    public func addMember(_ member: MemberRecord, actor: Actor? = nil) async throws {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: member.groupID, now: member.createdAt, actor: actor)
            if member.isActive {
                try await Self.requireFreeName(member.name, groupID: member.groupID, except: member.id, sql)
            }
            try await Self.insert(member, sql)
            try await log?.changed(.member, member.id, sql)
            try await log?.activity(
                actor, "member.added", .member, member.id, ActivityEvent(subject: member.name), concerning: [member.id],
                sql)
        }
    }

    /// Joins the group behind an invite code: returns the existing membership when the user has
    /// one, links the user to `claimMemberID` ("I am Aki") when given, else adds a new member. A
    /// claimed member with expenses or transfers is not linked but asked for (see MemberClaims).
    public func join(
        inviteCode: String, userID: UUID, name: String, claimMemberID: UUID?, now: Int64
    ) async throws -> JoinOutcome {
        do {
            return try await database.transaction { sql in
                guard
                    let groupRow = try await sql.raw(
                        "SELECT * FROM groups WHERE invite_code = \(bind: inviteCode) AND is_archived = \(bind: false)"
                    ).first()
                else { throw GroupStoreError.notFound }
                let group = try GroupRecord(row: groupRow)
                // The group's change number first, as every write does (see GroupLog).
                let log = try await GroupLog.begin(sql, groupID: group.id, now: now)
                let actor = Actor(userID: userID, name: name)
                if let member = try await Self.member(groupID: group.id, userID: userID, sql) {
                    guard !member.isActive else { return .joined(group, member) }
                    // A removed member who has the code rejoins as themself, with their shares
                    // and balance (issue 15); an admin comes back as a plain member; not beside
                    // someone now of their name (found by review).
                    try await Self.checkRoom(forUser: userID, sql)
                    // Someone may have taken their name meanwhile: then they come back under the
                    // name they join with (found by a new user: the refusal said "join under
                    // another name", which was not read, so nobody could come back).
                    var comeBackAs = member.name
                    do {
                        try await Self.requireFreeName(member.name, groupID: group.id, except: member.id, sql)
                    } catch GroupStoreError.nameTaken(let taken), GroupStoreError.nameOfNameOnlyMember(let taken) {
                        guard !QuickEntry.sameName(name, member.name) else { throw GroupStoreError.nameTaken(taken) }
                        try await Self.requireFreeName(name, groupID: group.id, except: member.id, sql)
                        comeBackAs = name
                    }
                    guard
                        let row = try await sql.raw(
                            """
                            UPDATE members SET is_active = \(bind: true), has_left = \(bind: false), name = \(bind: comeBackAs),
                                version = version + 1,
                                updated_at = \(bind: now), role = CASE WHEN role = 'admin' THEN 'member' ELSE role END
                            WHERE id = \(bind: member.id.text) RETURNING *
                            """
                        ).first()
                    else { throw GroupStoreError.notFound }
                    let back = try MemberRecord(row: row)
                    PendingEvents.note(.account(userID))
                    try await log?.changed(.member, back.id, sql)
                    // The owner and admins hear that someone no longer in the group came back by
                    // its code (found by a new user: one removed was back unsaid).
                    let deciders = try await sql.raw(
                        """
                        SELECT id FROM members WHERE group_id = \(bind: group.id.text) AND is_active = \(bind: true)
                              AND role IN ('owner', 'admin')
                        """
                    ).all().map { try $0.decodeUUID("id") }
                    try await log?.activity(
                        actor, "member.joined", .member, back.id, ActivityEvent(), concerning: deciders, sql)
                    // Back under another name (theirs was taken meanwhile): said, so the lines
                    // under the old name read as theirs (found by review).
                    if comeBackAs != member.name {
                        try await log?.activity(
                            actor, "member.renamed", .member, back.id,
                            ActivityEvent(subject: comeBackAs, reason: "back", from: member.name, userID: userID), sql)
                    }
                    try await Self.dropClaims(groupID: group.id, userID: userID, sql)
                    return .joined(group, back)
                }
                try await Self.checkRoom(forUser: userID, sql)
                if let claimMemberID {
                    guard let target = try await Self.member(id: claimMemberID, groupID: group.id, sql),
                        target.isActive
                    else { throw GroupStoreError.notFound }
                    guard target.userID == nil else { throw GroupStoreError.memberAlreadyClaimed }
                    // Whoever holds the code may claim a name; a name that has paid or owed
                    // money waits for an owner or admin to say the claimant is that person.
                    if try await Self.hasHistory(memberID: claimMemberID, groupID: group.id, sql) {
                        return .pending(group, try await Self.requestClaim(target, by: actor, log: log, now: now, sql))
                    }
                    let member = try await Self.link(claimMemberID, in: group.id, to: actor, log: log, now: now, sql)
                    return .joined(group, member)
                }
                // A second "Ben" beside a Ben: the joiner is that Ben (claim a name-only one) or
                // someone else (another name).
                try await Self.requireFreeName(name, groupID: group.id, except: nil, sql)
                let member = MemberRecord(
                    id: UUID.random(), groupID: group.id, userID: userID, name: name, role: .member, createdAt: now,
                    updatedAt: now)
                try await Self.insert(member, sql)
                try await log?.changed(.member, member.id, sql)
                try await log?.activity(actor, "member.joined", .member, member.id, ActivityEvent(), sql)
                try await Self.dropClaims(groupID: group.id, userID: userID, sql)
                return .joined(group, member)
            }
        } catch  where Database.isUniqueViolation(error) {
            // The same user joining twice at once: the other request won; answer like it did.
            let group = try await database.read {
                try await $0.raw("SELECT * FROM groups WHERE invite_code = \(bind: inviteCode)").first()
            }.map(GroupRecord.init(row:))
            guard let group, let member = try await membership(groupID: group.id, userID: userID) else { throw error }
            return .joined(group, member)
        }
    }

    /// Refuses `name` for an active member of the group when another active member (not
    /// `except`) has it as a reader would take it (`QuickEntry.sameName`: any case or accents):
    /// two could not be told apart on any page. Run under the group's lock (after
    /// `GroupLog.begin`), so two writes cannot both pass. The one check for adding, renaming,
    /// restoring, joining and rejoining.
    static func requireFreeName(_ name: String, groupID: UUID, except: UUID?, _ sql: any SQLDatabase) async throws {
        let active = try await sql.raw(
            """
            SELECT id, name, user_id FROM members WHERE group_id = \(bind: groupID.text) AND is_active = \(bind: true)
            """
        ).all()
        for row in active where try row.decodeUUID("id") != except {
            let taken = try row.decode(column: "name", as: String.self)
            guard QuickEntry.sameName(taken, name) else { continue }
            throw try row.decodeNil(column: "user_id")
                ? GroupStoreError.nameOfNameOnlyMember(taken) : GroupStoreError.nameTaken(taken)
        }
    }

    /// The group a live invite code opens (not archived), for the page that offers to join it.
    public func group(inviteCode: String) async throws -> GroupRecord? {
        try await database.read {
            try await $0.raw(
                "SELECT * FROM groups WHERE invite_code = \(bind: inviteCode) AND is_archived = \(bind: false)"
            ).first()
        }.map(GroupRecord.init(row:))
    }

    /// Sets or clears (nil: joining disabled) the invite code.
    public func setInviteCode(groupID: UUID, code: String?, actor: Actor? = nil, now: Int64) async throws {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor)
            try await log?.changed(.group, groupID, sql)
            try await sql.raw(
                """
                UPDATE groups SET invite_code = \(bind: code), version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: groupID.text)
                """
            ).run()
        }
    }

    /// Writes a member's name, role, flags and active state when the stored version is
    /// `expectedVersion` (any when nil); `version` goes up by one.
    /// - Returns: the stored member, `.stale(current)`, or nil when it is not in that group.
    public func updateMember(
        _ member: MemberRecord, expectedVersion: Int64? = nil, actor: Actor? = nil, now: Int64
    ) async throws -> VersionedWrite<MemberRecord>? {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: member.groupID, now: now, actor: actor)
            let before = try await Self.member(id: member.id, groupID: member.groupID, sql)
            // Renamed, or back from removal: not beside someone of that name.
            if member.isActive, let before, !before.isActive || !QuickEntry.sameName(before.name, member.name) {
                try await Self.requireFreeName(member.name, groupID: member.groupID, except: member.id, sql)
            }
            let updated = try await sql.raw(
                """
                UPDATE members SET name = \(bind: member.name), role = \(bind: member.role.rawValue),
                    can_add_expenses = \(bind: member.canAddExpenses), can_edit_own_expenses = \(bind: member.canEditOwnExpenses),
                    can_edit_all_expenses = \(bind: member.canEditAllExpenses), can_mark_paid = \(bind: member.canMarkPaid),
                    is_active = \(bind: member.isActive), has_left = \(bind: !member.isActive && member.hasLeft),
                    version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: member.id.text) AND group_id = \(bind: member.groupID.text)
                      AND (\(bind: expectedVersion == nil) OR version = \(bind: expectedVersion ?? 0))
                RETURNING *
                """
            ).first()
            if let updated {
                let after = try MemberRecord(row: updated)
                // Their live streams end at once (issue 17).
                if before?.isActive == true, !after.isActive, let user = after.userID { PendingEvents.note(.account(user)) }
                // What they asked to be paid, or were asked alone to pay, can no longer be paid
                // (the pay pages find no such member): cancelled, not left "open" (found by a new
                // user, twice).
                if before?.isActive == true, !after.isActive {
                    // Their inbox keeps no lines of a group they can no longer open (found by a new
                    // user: each led to "not found"); the line of their removal comes after this.
                    if let user = after.userID {
                        try await sql.raw(
                            """
                            DELETE FROM notifications
                            WHERE user_id = \(bind: user.text) AND group_id = \(bind: member.groupID.text)
                            """
                        ).run()
                    }
                    try await sql.raw(
                        """
                        UPDATE payment_requests SET status = 'cancelled', updated_at = \(bind: now)
                        WHERE group_id = \(bind: member.groupID.text) AND status IN ('open', 'locked')
                              AND (payee_member_id = \(bind: member.id.text) OR payer_member_id = \(bind: member.id.text))
                        """
                    ).run()
                }
                // Series that can no longer go on pause now, saying why, not at their next date.
                if let before, let log,
                    before.isActive && !after.isActive
                        || Permissions.decide(.addExpense, for: before.membership) == .allowed
                            && Permissions.decide(.addExpense, for: after.membership) != .allowed
                {
                    try await RecurringStore.pause(after: after, log: log, now: now, sql)
                }
                // Webhooks they added stop when they may no longer manage them.
                if let user = after.userID, !after.isActive || ![.owner, .admin].contains(after.role) {
                    try await WebhookStore.disableCreated(by: user, groupID: member.groupID, now: now, sql)
                }
                try await log?.changed(.member, member.id, sql)
                // A new name is a line of its own (found by a new user: "Cho added…" then "Chiyo
                // added…", with nothing between to say they are one person).
                if let before, before.name != after.name {
                    try await log?.activity(
                        actor, "member.renamed", .member, member.id,
                        ActivityEvent(subject: after.name, from: before.name, userID: after.userID), concerning: [member.id], sql)
                }
                if let before, let action = Self.activityAction(before: before, after: after) {
                    try await log?.activity(
                        actor, action, .member, member.id,
                        ActivityEvent(subject: after.name, role: action == "member.role_changed" ? after.role.rawValue : nil),
                        concerning: [member.id], sql)
                }
                return .written(after)
            }
            return try await Self.member(id: member.id, groupID: member.groupID, sql).map { .stale($0) }
        }
    }

    /// What an update of a member did, for the activity list: removed, restored, a new role, or
    /// other rights; nil for a rename or nothing.
    static func activityAction(before: MemberRecord, after: MemberRecord) -> String? {
        if before.isActive != after.isActive { return after.isActive ? "member.restored" : "member.removed" }
        if before.role != after.role { return "member.role_changed" }
        if (before.canAddExpenses, before.canEditOwnExpenses, before.canEditAllExpenses, before.canMarkPaid)
            != (after.canAddExpenses, after.canEditOwnExpenses, after.canEditAllExpenses, after.canMarkPaid)
        {
            return "member.rights_changed"
        }
        return nil
    }

    /// The member with that id in that group; nil for an unknown id or another group's member.
    public func member(id: UUID, groupID: UUID) async throws -> MemberRecord? {
        try await database.read { try await Self.member(id: id, groupID: groupID, $0) }
    }

    /// Hands ownership from `currentOwner` (a user id) to another active member with an account:
    /// they become owner, the old owner becomes admin, in one transaction. Each step is a guarded
    /// UPDATE, so two transfers at once cannot leave two owners: the second finds the caller no
    /// longer owner (and the unique index of migration 0004 backs this up).
    public func transferOwnership(
        groupID: UUID, from currentOwner: UUID, to memberID: UUID, actor: Actor? = nil, now: Int64
    ) async throws {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor)
            guard try await Self.member(id: memberID, groupID: groupID, sql) != nil else {
                throw GroupStoreError.notFound
            }
            let demoted = try await sql.raw(
                """
                UPDATE members SET role = 'admin', version = version + 1, updated_at = \(bind: now)
                WHERE group_id = \(bind: groupID.text) AND role = 'owner' AND user_id = \(bind: currentOwner.text)
                RETURNING id
                """
            ).first()
            guard let demoted else { throw GroupStoreError.notOwner }
            try await log?.changed(.member, try demoted.decodeUUID("id"), sql)
            try await log?.changed(.member, memberID, sql)
            try await log?.changed(.group, groupID, sql)
            guard
                let promoted = try await sql.raw(
                    """
                    UPDATE members SET role = 'owner', version = version + 1, updated_at = \(bind: now)
                    WHERE id = \(bind: memberID.text) AND group_id = \(bind: groupID.text)
                          AND is_active = \(bind: true) AND user_id IS NOT NULL
                    RETURNING user_id
                    """
                ).first()
            else { throw GroupStoreError.ownerMustHaveAccount }  // rolls the demotion back too
            let newOwner = try promoted.decode(column: "user_id", as: String.self)
            try await sql.raw(
                """
                UPDATE groups SET owner_user_id = \(bind: newOwner), version = version + 1, updated_at = \(bind: now)
                WHERE id = \(bind: groupID.text)
                """
            ).run()
        }
    }

    /// The member with that id in that group (an id from another group is not found).
    static func member(id: UUID, groupID: UUID, _ sql: any SQLDatabase) async throws -> MemberRecord? {
        try await sql.raw("SELECT * FROM members WHERE id = \(bind: id.text) AND group_id = \(bind: groupID.text)")
            .first().map { try MemberRecord(row: $0) }
    }

    /// The user's membership in that group, active or not.
    static func member(groupID: UUID, userID: UUID, _ sql: any SQLDatabase) async throws -> MemberRecord? {
        try await sql.raw(
            "SELECT * FROM members WHERE group_id = \(bind: groupID.text) AND user_id = \(bind: userID.text)"
        ).first().map { try MemberRecord(row: $0) }
    }

    /// Refuses a new membership to an account already in `GroupBounds.groupsPerUser` groups.
    /// Two creates of one account racing on PostgreSQL may both pass: the bound holds to within
    /// the account's concurrent requests, which is all a ceiling against piling up needs.
    static func checkRoom(forUser userID: UUID, _ sql: any SQLDatabase) async throws {
        let count = try await sql.raw(
            "SELECT COUNT(*) AS n FROM members WHERE user_id = \(bind: userID.text) AND is_active = \(bind: true)"
        ).first()?.decode(column: "n", as: Int.self)
        guard (count ?? 0) < GroupBounds.groupsPerUser else { throw WriteRefusal.tooManyGroups }
    }

    /// Adds a member row, refusing the one past `GroupBounds.membersPerGroup` (every caller holds
    /// the group's lock from `GroupLog.begin` or is creating the group).
    static func insert(_ member: MemberRecord, _ sql: any SQLDatabase) async throws {
        let count = try await sql.raw(
            "SELECT COUNT(*) AS n FROM members WHERE group_id = \(bind: member.groupID.text)"
        ).first()?.decode(column: "n", as: Int.self)
        guard (count ?? 0) < GroupBounds.membersPerGroup else { throw WriteRefusal.groupFull }
        // The account's live streams take the new group in (issue 17).
        if let user = member.userID { PendingEvents.note(.account(user)) }
        try await sql.raw(
            """
            INSERT INTO members (id, group_id, user_id, name, role, can_add_expenses, can_edit_own_expenses,
                                 can_edit_all_expenses, can_mark_paid, is_active, has_left, version, created_at, updated_at)
            VALUES (\(bind: member.id.text), \(bind: member.groupID.text), \(bind: member.userID?.text), \(bind: member.name),
                    \(bind: member.role.rawValue), \(bind: member.canAddExpenses), \(bind: member.canEditOwnExpenses),
                    \(bind: member.canEditAllExpenses), \(bind: member.canMarkPaid), \(bind: member.isActive),
                    \(bind: !member.isActive && member.hasLeft),
                    \(bind: member.version), \(bind: member.createdAt), \(bind: member.updatedAt))
            """
        ).run()
    }
}
