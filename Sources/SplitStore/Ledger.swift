import Foundation
import SQLKit

/// The running balances (DESIGN §3: net = paid − owed + sent − received), changed in the same
/// transaction as the write that moves them, so a read costs the same at any number of expenses.
enum Ledger {
    /// Adds `deltas` (minor units per member) to the nets in `currency`.
    static func apply(
        _ deltas: [UUID: Int64], currency: String, groupID: UUID, _ sql: any SQLDatabase
    ) async throws {
        // One statement for all members: each is one row, so no row is hit twice.
        let rows = deltas.filter { $0.value != 0 }.sorted { $0.key.text < $1.key.text }
        guard !rows.isEmpty else { return }
        var query = SQLQueryString("INSERT INTO balances (group_id, member_id, currency, net) VALUES ")
        for (index, (member, delta)) in rows.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            query.appendInterpolation(bind: groupID.text)
            query.appendLiteral(", ")
            query.appendInterpolation(bind: member.text)
            query.appendLiteral(", ")
            query.appendInterpolation(bind: currency)
            query.appendLiteral(", ")
            query.appendInterpolation(bind: delta)
            query.appendLiteral(")")
        }
        query.appendLiteral(
            " ON CONFLICT (group_id, member_id, currency) DO UPDATE SET net = balances.net + excluded.net")
        try await sql.raw(query).run()
    }

    /// An expense's effect: +paid for payers, −owed for shares; `sign` −1 takes it back.
    static func deltas(of expense: ExpenseRecord, sign: Int64) -> [UUID: Int64] {
        var deltas: [UUID: Int64] = [:]
        for payer in expense.payers { deltas[payer.memberID, default: 0] += sign * payer.amount }
        for share in expense.shares where !share.isRemoved { deltas[share.memberID, default: 0] -= sign * share.amount }
        return deltas
    }

    /// A transfer's effect: +amount for the sender, −amount for the receiver.
    static func deltas(of settlement: SettlementRecord, sign: Int64) -> [UUID: Int64] {
        [settlement.fromMemberID: sign * settlement.amount, settlement.toMemberID: -sign * settlement.amount]
    }
}

public struct BalanceRecord: Sendable, Equatable, Hashable {
    public var memberID: UUID
    public var currency: String
    public var net: Int64

    public init(memberID: UUID, currency: String, net: Int64) {
        self.memberID = memberID
        self.currency = currency
        self.net = net
    }
}

/// A manual exchange rate of a group: 1 `from` = `rate` `to`, from `date` on.
public struct RateRecord: Sendable, Equatable {
    public var from: String
    public var to: String
    public var date: String
    public var rate: String

    public init(from: String, to: String, date: String, rate: String) {
        self.from = from
        self.to = to
        self.date = date
        self.rate = rate
    }
}

/// Balances, rates: plain functions over the database (STYLE §8).
public struct BalanceStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The ledger's non-zero nets, by currency then member.
    public func balances(groupID: UUID) async throws -> [BalanceRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT member_id, currency, net FROM balances
                WHERE group_id = \(bind: groupID.text) AND net <> 0
                """
            ).all()
        }.map {
            BalanceRecord(
                memberID: try $0.decodeUUID("member_id"), currency: try $0.decode(column: "currency", as: String.self),
                net: try $0.decode(column: "net", as: Int64.self))
        }.sorted { ($0.currency, $0.memberID.text) < ($1.currency, $1.memberID.text) }
    }

    /// The same nets computed from every live expense and settlement, for tests that prove the
    /// ledger right (and for repairing one, should that ever be needed).
    public func recomputedBalances(groupID: UUID) async throws -> [BalanceRecord] {
        let rows = try await database.read { sql in
            try await sql.raw(
                """
                SELECT p.member_id AS member_id, e.currency AS currency, CAST(SUM(p.amount) AS BIGINT) AS net
                FROM expense_payers p JOIN expenses e ON e.id = p.expense_id
                WHERE e.group_id = \(bind: groupID.text) AND e.is_deleted = \(bind: false)
                GROUP BY p.member_id, e.currency
                UNION ALL
                SELECT s.member_id, e.currency, CAST(-SUM(s.amount) AS BIGINT)
                FROM expense_splits s JOIN expenses e ON e.id = s.expense_id
                WHERE e.group_id = \(bind: groupID.text) AND e.is_deleted = \(bind: false) AND s.is_removed = \(bind: false)
                GROUP BY s.member_id, e.currency
                UNION ALL
                SELECT from_member_id, currency, CAST(SUM(amount) AS BIGINT) FROM settlements
                WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false) GROUP BY from_member_id, currency
                UNION ALL
                SELECT to_member_id, currency, CAST(-SUM(amount) AS BIGINT) FROM settlements
                WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false) GROUP BY to_member_id, currency
                """
            ).all()
        }
        var nets: [BalanceRecord: Int64] = [:]
        for row in rows {
            let key = BalanceRecord(
                memberID: try row.decodeUUID("member_id"),
                currency: try row.decode(column: "currency", as: String.self),
                net: 0)
            nets[key, default: 0] += try row.decode(column: "net", as: Int64.self)
        }
        return nets.filter { $0.value != 0 }.map {
            BalanceRecord(memberID: $0.key.memberID, currency: $0.key.currency, net: $0.value)
        }
        .sorted { ($0.currency, $0.memberID.text) < ($1.currency, $1.memberID.text) }
    }

    public func rates(groupID: UUID) async throws -> [RateRecord] {
        try await database.read { sql in
            try await sql.raw(
                "SELECT from_currency, to_currency, rate_date, rate FROM rates WHERE group_id = \(bind: groupID.text)"
            ).all()
        }.map {
            RateRecord(
                from: try $0.decode(column: "from_currency", as: String.self),
                to: try $0.decode(column: "to_currency", as: String.self),
                date: try $0.decode(column: "rate_date", as: String.self),
                rate: try $0.decode(column: "rate", as: String.self))
        }.sorted { ($0.from, $0.to, $0.date) < ($1.from, $1.to, $1.date) }
    }

    /// Sets each rate (a pair and date already present gets the new rate), in one transaction.
    public func putRates(_ rates: [RateRecord], groupID: UUID, actor: Actor, now: Int64) async throws {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return }
            for rate in rates {
                try await sql.raw(
                    """
                    INSERT INTO rates (group_id, from_currency, to_currency, rate_date, rate, updated_by_user_id, updated_at)
                    VALUES (\(bind: groupID.text), \(bind: rate.from), \(bind: rate.to), \(bind: rate.date), \(bind: rate.rate),
                            \(bind: actor.userID.text), \(bind: now))
                    ON CONFLICT (group_id, from_currency, to_currency, rate_date)
                    DO UPDATE SET rate = excluded.rate, updated_by_user_id = excluded.updated_by_user_id,
                                  updated_at = excluded.updated_at
                    """
                ).run()
            }
            try await log.changed(.group, groupID, sql)
            try await log.activity(
                actor, "rates.updated", .group, groupID, "\(actor.name) set \(rates.count) exchange rate(s)", sql)
        }
    }
}
