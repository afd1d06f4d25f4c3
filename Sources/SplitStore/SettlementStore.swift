import Foundation
import SQLKit
import SplitCore

/// Money that moved between two members (DESIGN §3): recorded by hand, or by marking a share
/// paid (then `expenseSplitID` links it and unmarking voids it).
public struct SettlementRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: UUID
    public var fromMemberID: UUID
    public var toMemberID: UUID
    public var amount: Int64
    public var currency: String
    public var date: String
    public var note: String
    public var expenseSplitID: UUID?
    /// The share a paid mark made this transfer for, when an edit of its expense voided that mark
    /// (the transfer stays, plain): marking the share again counts it (`ExpenseStore.setPaid`).
    public var voidedSplitID: UUID?
    public var createdByUserID: UUID
    public var isDeleted: Bool
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, groupID: UUID, fromMemberID: UUID, toMemberID: UUID, amount: Int64, currency: String, date: String,
        note: String = "", expenseSplitID: UUID? = nil, voidedSplitID: UUID? = nil, createdByUserID: UUID,
        isDeleted: Bool = false, version: Int64 = 1, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.groupID = groupID
        self.fromMemberID = fromMemberID
        self.toMemberID = toMemberID
        self.amount = amount
        self.currency = currency
        self.date = date
        self.note = note
        self.expenseSplitID = expenseSplitID
        self.voidedSplitID = voidedSplitID
        self.createdByUserID = createdByUserID
        self.isDeleted = isDeleted
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public enum SettlementStoreError: Error, Equatable, Sendable {
    /// A transfer recorded by a paid share is undone by unmarking the share, not deleted.
    case linkedToShare
    case idTaken
}

public struct SettlementStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Records a transfer; with a claim, once per idempotency key. As `ExpenseStore.create` does,
    /// it writes the row without looking for its id first (on PostgreSQL one round trip less): an
    /// id that exists already fails the transaction with a unique violation, and it runs again
    /// looking first, which tells a retry from a clash.
    public func create(
        _ settlement: SettlementRecord, actor: Actor, idempotency: IdempotencyClaim?,
        render: @escaping @Sendable (SettlementRecord) throws -> StoredResponse
    ) async throws -> IdempotencyOutcome<SettlementRecord>? {
        do {
            return try await create(settlement, actor: actor, idempotency: idempotency, render: render, looking: false)
        } catch where Database.isUniqueViolation(error) {
            return try await create(settlement, actor: actor, idempotency: idempotency, render: render, looking: true)
        }
    }

    /// `looking`: whether to look for a transfer with the id before writing it.
    private func create(
        _ settlement: SettlementRecord, actor: Actor, idempotency: IdempotencyClaim?,
        render: @escaping @Sendable (SettlementRecord) throws -> StoredResponse, looking: Bool
    ) async throws -> IdempotencyOutcome<SettlementRecord>? {
        try await database.transaction { sql in
            guard
                // Transfers to and from members removed from the group stay possible (issue 15):
                // their balance is still theirs to settle. Both are members of this group (checked
                // by the use case; members are never erased).
                let log = try await GroupLog.begin(sql, groupID: settlement.groupID, now: settlement.createdAt, actor: actor)
            else {
                return nil
            }
            return try await Idempotency.run(idempotency, now: settlement.createdAt, sql) {
                if looking, let existing = try await Self.load(settlement.id, sql) {
                    guard existing.groupID == settlement.groupID, existing.fromMemberID == settlement.fromMemberID,
                        existing.toMemberID == settlement.toMemberID, existing.amount == settlement.amount,
                        existing.currency == settlement.currency
                    else { throw SettlementStoreError.idTaken }
                    return (existing, try render(existing))
                }
                try await Self.record(settlement, log: log, actor: actor, sql)
                return (settlement, try render(settlement))
            }
        }
    }

    /// Members' names by id, for an activity line that names who paid whom (or whose share).
    static func memberNames(_ ids: [UUID], _ sql: any SQLDatabase) async throws -> [UUID: String] {
        let unique = Array(Set(ids.map(\.text))).sorted()
        return Dictionary(
            try await sql.raw("SELECT id, name FROM members WHERE id IN (\(binds: unique))").all().map {
                (try $0.decodeUUID("id"), try $0.decode(column: "name", as: String.self))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// A new transfer written inside a write's transaction: its row, the ledger, the change feed
    /// and the activity (a transfer entered by hand, or a payment request paid).
    /// One `WriteBatch`: on PostgreSQL one statement where there were five.
    static func record(
        _ settlement: SettlementRecord, log: GroupLog, actor: Actor, notifying: Bool = true, _ sql: any SQLDatabase
    ) async throws {
        let names = try await memberNames([settlement.fromMemberID, settlement.toMemberID], sql)
        var batch = WriteBatch()
        batch.add(insertion(settlement))
        let ledger = Ledger.write(Ledger.effect(of: settlement, sign: 1), groupID: settlement.groupID, into: &batch)
        batch.add(log.change(.settlement, settlement.id))
        let line = log.activity(
            actor, "settlement.recorded", .settlement, settlement.id,
            ActivityEvent(
                amount: settlement.amount, currency: settlement.currency, from: names[settlement.fromMemberID],
                to: names[settlement.toMemberID], fromID: settlement.fromMemberID, toID: settlement.toMemberID),
            concerning: [settlement.fromMemberID, settlement.toMemberID], notifying: notifying, into: &batch)
        let values = try await batch.run(on: sql)
        try ledger.check(values)
        try await line.deliver(values, sql)
    }

    public func settlement(id: UUID) async throws -> SettlementRecord? {
        try await database.read { try await Self.load(id, $0) }
    }

    /// Newest first.
    public func settlements(groupID: UUID, includeDeleted: Bool) async throws -> [SettlementRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM settlements WHERE group_id = \(bind: groupID.text)
                      AND (\(bind: includeDeleted) OR is_deleted = \(bind: false))
                ORDER BY created_at DESC, id DESC
                """
            ).all()
        }.map { try SettlementRecord(row: $0) }
    }

    public func settlements(ids: [UUID]) async throws -> [SettlementRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { sql in
            try await sql.select().column(SQLLiteral.all).from("settlements").where(OneOf("id", ids.map(\.text))).all()
        }.map { try SettlementRecord(row: $0) }
    }

    /// Soft-deletes a hand-recorded transfer and takes it out of the balances (audited); a payment
    /// request it paid is open again.
    public func delete(id: UUID, groupID: UUID, actor: Actor, now: Int64) async throws -> SettlementRecord? {
        let forUpdate = database.forUpdate
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            guard var settlement = try await Self.load(id, sql, lock: forUpdate), settlement.groupID == groupID else {
                return nil
            }
            guard settlement.expenseSplitID == nil else { throw SettlementStoreError.linkedToShare }
            guard !settlement.isDeleted else { return settlement }
            let names = try await Self.memberNames([settlement.fromMemberID, settlement.toMemberID], sql)
            // One `WriteBatch`: on PostgreSQL one statement where there were five.
            var batch = WriteBatch()
            batch.add(Self.deletion([id], now: now))
            let ledger = Ledger.write(Ledger.effect(of: settlement, sign: -1), groupID: groupID, into: &batch)
            batch.add(log.change(.settlement, id, isDeleted: true))
            // The transfer that paid a payment request: without it the request is not paid, so it
            // is open again (and expires when it would have), never "paid" with no transfer.
            batch.add(
                """
                UPDATE payment_requests
                SET status = 'open', paid_by_member_id = NULL, settlement_id = NULL, paid_at = NULL,
                    locked_by_member_id = NULL, locked_by_user_id = NULL, locked_until = NULL, updated_at = \(bind: now)
                WHERE group_id = \(bind: groupID.text) AND settlement_id = \(bind: id.text)
                """)
            let line = log.activity(
                actor, "settlement.deleted", .settlement, id,
                ActivityEvent(
                    amount: settlement.amount, currency: settlement.currency, from: names[settlement.fromMemberID],
                    to: names[settlement.toMemberID], fromID: settlement.fromMemberID, toID: settlement.toMemberID),
                concerning: [settlement.fromMemberID, settlement.toMemberID], into: &batch)
            let values = try await batch.run(on: sql)
            try ledger.check(values)
            try await line.deliver(values, sql)
            settlement.isDeleted = true
            settlement.version += 1
            settlement.updatedAt = now
            return settlement
        }
    }

    static func load(_ id: UUID, _ sql: any SQLDatabase, lock: String = "") async throws -> SettlementRecord? {
        try await sql.raw("SELECT * FROM settlements WHERE id = \(bind: id.text)\(unsafeRaw: lock)").first()
            .map { try SettlementRecord(row: $0) }
    }

    /// A transfer's row, for a `WriteBatch`.
    static func insertion(_ settlement: SettlementRecord) -> SQLQueryString {
        """
        INSERT INTO settlements (id, group_id, from_member_id, to_member_id, amount, currency, settled_on, note,
                                 expense_split_id, created_by_user_id, is_deleted, version, created_at, updated_at)
        VALUES (\(bind: settlement.id.text), \(bind: settlement.groupID.text), \(bind: settlement.fromMemberID.text),
                \(bind: settlement.toMemberID.text), \(bind: settlement.amount), \(bind: settlement.currency),
                \(bind: settlement.date), \(bind: settlement.note), \(bind: settlement.expenseSplitID?.text),
                \(bind: settlement.createdByUserID.text), \(bind: settlement.isDeleted), \(bind: settlement.version),
                \(bind: settlement.createdAt), \(bind: settlement.updatedAt))
        """
    }

    /// Soft-deletes transfers (a new version each), for a `WriteBatch`; the caller moves the ledger.
    static func deletion(_ ids: [UUID], now: Int64) -> SQLQueryString {
        """
        UPDATE settlements SET is_deleted = \(bind: true), version = version + 1, updated_at = \(bind: now)
        WHERE id IN (\(binds: ids.map(\.text)))
        """
    }
}

extension SettlementRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            fromMemberID: try row.decodeUUID("from_member_id"), toMemberID: try row.decodeUUID("to_member_id"),
            amount: try row.decode(column: "amount", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self),
            date: try row.decode(column: "settled_on", as: String.self),
            note: try row.decode(column: "note", as: String.self),
            expenseSplitID: try row.decode(column: "expense_split_id", as: String?.self).flatMap(
                UUID.init(uuidString:)),
            voidedSplitID: try row.decode(column: "voided_split_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            createdByUserID: try row.decodeUUID("created_by_user_id"),
            isDeleted: try row.decode(column: "is_deleted", as: Bool.self),
            version: try row.decode(column: "version", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}
