import Foundation
import SQLKit
import SplitCore

/// Everything one imported file writes into a group (issue 18), made and checked by the import
/// use case before the store sees it.
public struct ImportBatch: Sendable {
    public var groupID: UUID
    /// The group to create first, with its owner, when the file starts a new group.
    public var newGroup: GroupRecord?
    public var owner: MemberRecord?
    /// The group's members the file names: each must still be active when it is written.
    public var involving: [UUID]
    /// Name-only members the file adds.
    public var members: [MemberRecord]
    /// Categories the file names that the group did not have.
    public var categories: [CategoryRecord]
    public var expenses: [ExpenseRecord]
    public var settlements: [SettlementRecord]
    /// A group's manual rates (our own format keeps them).
    public var rates: [RateRecord] = []
    /// Paid marks' history lines, as the file had them.
    public var history: [HistoryLine] = []
    /// The activity list as the file had it, before the import's own line.
    public var activity: [ActivityLine] = []
    /// Its budget, recurring expenses and the occurrences waiting in its queue (issue 20).
    public var budget: BudgetRecord?
    public var series: [SeriesRecord] = []
    public var pending: [PendingRecord] = []
    /// "splitwise", …
    public var format: String
    /// SHA-256 of the file, hex: the first is stored; a group that imported any of them before
    /// refuses it (the file's text with its line ends made alike, then the bytes as they came,
    /// which imports before 2026-12-07 stored).
    public var contentHashes: [String]
    public var contentHash: String { contentHashes[0] }
    /// Import even if this file was imported into the group before.
    public var forced: Bool

    public init(
        groupID: UUID, newGroup: GroupRecord?, owner: MemberRecord?, involving: [UUID] = [], members: [MemberRecord],
        categories: [CategoryRecord], expenses: [ExpenseRecord], settlements: [SettlementRecord], format: String,
        contentHashes: [String], forced: Bool
    ) {
        precondition(!contentHashes.isEmpty)
        self.groupID = groupID
        self.newGroup = newGroup
        self.owner = owner
        self.involving = involving
        self.members = members
        self.categories = categories
        self.expenses = expenses
        self.settlements = settlements
        self.format = format
        self.contentHashes = contentHashes
        self.forced = forced
    }
}

extension ImportBatch {
    /// A line of a share's payment history, by whom (a name: the file's people have no account
    /// here; the importer is recorded as the writer) and when.
    public struct HistoryLine: Sendable {
        public var splitID: UUID
        public var markedPaid: Bool
        public var byName: String
        public var at: Int64
        public var reason: String?

        public init(splitID: UUID, markedPaid: Bool, byName: String, at: Int64, reason: String?) {
            self.splitID = splitID
            self.markedPaid = markedPaid
            self.byName = byName
            self.at = at
            self.reason = reason
        }
    }

    /// A line of a group's activity list, as another copy of the group had it.
    public struct ActivityLine: Sendable {
        public var action: String
        public var entity: ChangeEntity
        public var entityID: UUID
        public var actorName: String
        public var at: Int64
        public var event: ActivityEvent

        public init(action: String, entity: ChangeEntity, entityID: UUID, actorName: String, at: Int64, event: ActivityEvent) {
            self.action = action
            self.entity = entity
            self.entityID = entityID
            self.actorName = actorName
            self.at = at
            self.event = event
        }
    }
}

public enum ImportStoreError: Error, Equatable, Sendable {
    /// This file was imported into this group before, at this time (ms); nothing was written.
    case alreadyImported(at: Int64)
    case groupNotFound
}

/// Writes an import in one transaction: all of it or nothing (issue 18). Rows go in statements
/// of a thousand, the ledger moves once per currency, and the activity list gets one line for
/// the whole file (not one per expense: nobody's inbox fills with a history they moved in).
public struct ImportStore: Sendable {
    /// When this group first imported a file of this content hash; nil when it never did.
    public func importedAt(groupID: UUID, contentHashes: [String]) async throws -> Int64? {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT created_at FROM imports
                WHERE group_id = \(bind: groupID.text) AND content_hash IN (\(binds: contentHashes))
                ORDER BY created_at LIMIT 1
                """
            ).first()?.decode(column: "created_at", as: Int64.self)
        }
    }

    let database: Database

    public init(database: Database) { self.database = database }

    /// Whether the group holds (or held: deleted ones too) an expense of these ids: a file of
    /// them is the group's own export.
    public func holdsAny(groupID: UUID, expenseIDs: [UUID]) async throws -> Bool {
        guard !expenseIDs.isEmpty else { return false }
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT 1 AS found FROM expenses
                WHERE group_id = \(bind: groupID.text) AND id IN (\(binds: expenseIDs.map(\.text))) LIMIT 1
                """
            ).first() != nil
        }
    }

    public func run(_ batch: ImportBatch, actor: Actor, now: Int64) async throws {
        try await database.longTransaction { sql in
            if let group = batch.newGroup, let owner = batch.owner {
                try await GroupStore.insertGroup(group, owner: owner, sql)
            }
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: batch.groupID, now: now, actor: actor, involving: batch.involving)
            else {
                throw ImportStoreError.groupNotFound
            }
            if !batch.forced,
                let earlier = try await sql.raw(
                    """
                    SELECT created_at FROM imports
                    WHERE group_id = \(bind: batch.groupID.text) AND content_hash IN (\(binds: batch.contentHashes))
                    ORDER BY created_at LIMIT 1
                    """
                ).first()
            {
                throw ImportStoreError.alreadyImported(at: try earlier.decode(column: "created_at", as: Int64.self))
            }
            for member in batch.members { try await GroupStore.insert(member, sql) }
            try await log.changed(.member, batch.members.map(\.id), sql)
            try await Self.insert(batch.categories, now: now, sql)
            try await log.changed(.category, batch.categories.map(\.id), sql)
            try await Self.insert(batch.expenses, sql)
            try await log.changed(.expense, batch.expenses.map(\.id), sql)
            try await Self.insert(batch.settlements, sql)
            try await log.changed(.settlement, batch.settlements.map(\.id), sql)
            for effect in Ledger.effects(expenses: batch.expenses, settlements: batch.settlements) { try await Ledger.apply(effect, groupID: batch.groupID, sql) }
            try await Spending.apply(
                batch.expenses.reduce(into: [:]) { parts, expense in
                    parts.merge(
                        Spending.parts(of: expense, sign: expense.isDeleted ? 0 : 1, home: log.homeCurrency),
                        uniquingKeysWith: +)
                }, groupID: batch.groupID, sql)
            if let budget = batch.budget {
                try await BudgetStore.write(budget, groupID: batch.groupID, by: actor.userID, now: now, sql)
            }
            try await RecurringStore.insert(batch.series, sql)
            try await RecurringStore.insert(batch.pending, sql)
            try await MultiRowInsert.run(
                "INSERT INTO rates (group_id, from_currency, to_currency, rate_date, rate, updated_by_user_id, updated_at)",
                batch.rates.map { [batch.groupID.text, $0.from, $0.to, $0.date, $0.rate, actor.userID.text, now] },
                then: " ON CONFLICT DO NOTHING", on: sql)
            try await MultiRowInsert.run(
                """
                INSERT INTO payment_history (id, expense_split_id, action, performed_by_user_id, performed_by_name,
                                             performed_at, seq, reason, ip_address, device_info)
                """,
                batch.history.enumerated().map { index, line in
                    [
                        Self.orderedID(index), line.splitID.text, line.markedPaid ? "marked_paid" : "marked_unpaid", actor.userID.text,
                        line.byName, line.at, log.seq, line.reason, String?.none, String?.none,
                    ]
                }, on: sql)
            // Another copy's activity comes before the import's own line (a change number below
            // it) and in its own order (ids that sort by position), with its people's names;
            // nobody hears of it again (no inbox lines): it is history, not news.
            try await MultiRowInsert.run(
                "INSERT INTO activity (id, group_id, seq, actor_user_id, actor_name, action, entity, entity_id, details, at)",
                batch.activity.enumerated().map { index, line in
                    [
                        Self.orderedID(index), batch.groupID.text, log.seq - 1, String?.none, line.actorName, line.action,
                        line.entity.rawValue, line.entityID.text, line.event.json, line.at,
                    ]
                }, on: sql)
            let id = UUID.random()
            try await sql.raw(
                """
                INSERT INTO imports (id, group_id, format, content_hash, forced, expenses, settlements,
                                     created_by_user_id, created_at)
                VALUES (\(bind: id.text), \(bind: batch.groupID.text), \(bind: batch.format), \(bind: batch.contentHash),
                        \(bind: batch.forced), \(bind: Int64(batch.expenses.count)), \(bind: Int64(batch.settlements.count)),
                        \(bind: actor.userID.text), \(bind: now))
                """
            ).run()
            // Heard by every member the file names, as each expense would be (found by review: an
            // import that moved balances told nobody).
            try await log.activity(
                actor, "import.completed", .group, batch.groupID,
                ActivityEvent(subject: batch.format, count: batch.expenses.count + batch.settlements.count),
                concerning: batch.involving, sql)
            // The budget's thresholds the imported spending passes, as each expense added would
            // (found by a new user: an import took a category to 168 % unsaid).
            try await BudgetAlerts.check(
                groupID: batch.groupID, spending: batch.expenses.map { ($0.expenseDate, $0.categoryID) }, log: log, sql)
        }
    }

    /// A fresh id whose text sorts by `index`: rows written with one change number keep their order.
    static func orderedID(_ index: Int) -> String {
        var bytes = UUID.random().uuid
        bytes.0 = UInt8(truncatingIfNeeded: index >> 24)
        bytes.1 = UInt8(truncatingIfNeeded: index >> 16)
        bytes.2 = UInt8(truncatingIfNeeded: index >> 8)
        bytes.3 = UInt8(truncatingIfNeeded: index)
        return UUID(uuid: bytes).text
    }

    private static func insert(_ categories: [CategoryRecord], now: Int64, _ sql: any SQLDatabase) async throws {
        try await MultiRowInsert.run(
            """
            INSERT INTO categories (id, group_id, name, icon, color, is_default, position, is_deleted, version,
                                    created_at, updated_at)
            """,
            categories.map {
                [$0.id.text, $0.groupID.text, $0.name, $0.icon, $0.color, false, $0.position, false, Int64(1), now, now]
            }, on: sql)
    }

    /// Many new expenses, payers and shares: one statement per thousand rows of each.
    static func insert(_ expenses: [ExpenseRecord], _ sql: any SQLDatabase) async throws {
        try await MultiRowInsert.run(
            """
            INSERT INTO expenses (id, group_id, description, amount, currency, category_id, expense_date, split_json,
                                  home_amount, home_currency, created_by_user_id, is_deleted, version, created_at,
                                  updated_at)
            """,
            expenses.map {
                [
                    $0.id.text, $0.groupID.text, $0.description, $0.amount, $0.currency, $0.categoryID.text,
                    $0.expenseDate, StoredSplit.encode($0.rule), $0.homeAmount, $0.homeCurrency,
                    $0.createdByUserID.text, $0.isDeleted, $0.version, $0.createdAt, $0.updatedAt,
                ]
            }, on: sql)
        try await MultiRowInsert.run(
            "INSERT INTO expense_payers (expense_id, member_id, amount)",
            expenses.flatMap { expense in expense.payers.map { [expense.id.text, $0.memberID.text, $0.amount] } },
            on: sql)
        try await MultiRowInsert.run(
            "INSERT INTO expense_splits (id, expense_id, member_id, amount, is_paid, paid_at, is_removed)",
            expenses.flatMap { expense in
                expense.shares.map {
                    [$0.id.text, expense.id.text, $0.memberID.text, $0.amount, $0.isPaid, $0.paidAt, $0.isRemoved]
                }
            }, on: sql)
    }

    private static func insert(_ settlements: [SettlementRecord], _ sql: any SQLDatabase) async throws {
        try await MultiRowInsert.run(
            """
            INSERT INTO settlements (id, group_id, from_member_id, to_member_id, amount, currency, settled_on, note,
                                     expense_split_id, voided_split_id, created_by_user_id, is_deleted, version,
                                     created_at, updated_at)
            """,
            settlements.map {
                [
                    $0.id.text, $0.groupID.text, $0.fromMemberID.text, $0.toMemberID.text, $0.amount, $0.currency,
                    $0.date, $0.note, $0.expenseSplitID?.text, $0.voidedSplitID?.text, $0.createdByUserID.text,
                    $0.isDeleted, $0.version,
                    $0.createdAt, $0.updatedAt,
                ]
            }, on: sql)
    }
}
