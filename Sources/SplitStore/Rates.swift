import Foundation
import SQLKit
import SplitCore

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

extension RateRecord {
    /// The rate as a SplitCore value; nil for a row that no longer reads.
    public var datedRate: DatedRate? {
        guard let from = try? Currency(code: from), let to = try? Currency(code: to),
            let value = try? DecimalValue(parsing: rate),
            let rate = try? ExchangeRate(from: from, to: to, rate: value)
        else { return nil }
        return DatedRate(rate, date: date)
    }
}

/// A group's manual exchange rates.
extension BalanceStore {
    public func rates(groupID: UUID) async throws -> [RateRecord] {
        try await database.read { try await Self.rates(groupID: groupID, $0) }
    }

    /// The group's rates as SplitCore values, read in a running transaction.
    static func datedRates(groupID: UUID, _ sql: any SQLDatabase) async throws -> [DatedRate] {
        try await rates(groupID: groupID, sql).compactMap(\.datedRate)
    }

    static func rates(groupID: UUID, _ sql: any SQLDatabase) async throws -> [RateRecord] {
        try await sql.raw(
            "SELECT from_currency, to_currency, rate_date, rate FROM rates WHERE group_id = \(bind: groupID.text)"
        ).all().map {
            RateRecord(
                from: try $0.decode(column: "from_currency", as: String.self),
                to: try $0.decode(column: "to_currency", as: String.self),
                date: try $0.decode(column: "rate_date", as: String.self),
                rate: try $0.decode(column: "rate", as: String.self))
        }.sorted { ($0.from, $0.to, $0.date) < ($1.from, $1.to, $1.date) }
    }

    /// Sets each rate (a pair and date already present gets the new rate), in one transaction.
    /// A rate can take the budget past a threshold (spending in another currency counts once it
    /// converts): what the period of `today` has reached is alerted in this write (found by a new
    /// user: the alert came only with the next expense).
    public func putRates(_ rates: [RateRecord], groupID: UUID, actor: Actor, now: Int64, today: String? = nil) async throws {
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
                actor, "rates.updated", .group, groupID,
                // Which, up to three (found by a new user: "Aki set 1 exchange rate" said not which).
                ActivityEvent(
                    subject: rates.count <= 3
                        ? rates.map { "1 \($0.from) = \($0.rate) \($0.to) from \($0.date)" }.joined(separator: "; ") : nil,
                    count: rates.count), sql)
            if let today, log.hasBudget { try await BudgetAlerts.checkSet(groupID: groupID, today: today, log: log, sql) }
        }
    }

    /// Deletes the group's rate of `from` → `to` on `date`. Returns it, or nil when the group has
    /// no such rate (nothing written).
    public func deleteRate(
        from: String, to: String, date: String, groupID: UUID, actor: Actor, now: Int64
    ) async throws -> RateRecord? {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            guard
                let row = try await sql.raw(
                    """
                    DELETE FROM rates WHERE group_id = \(bind: groupID.text) AND from_currency = \(bind: from)
                        AND to_currency = \(bind: to) AND rate_date = \(bind: date)
                    RETURNING rate
                    """
                ).first()
            else { return nil }
            let deleted = RateRecord(from: from, to: to, date: date, rate: try row.decode(column: "rate", as: String.self))
            try await log.changed(.group, groupID, sql)
            try await log.activity(
                actor, "rates.deleted", .group, groupID,
                ActivityEvent(subject: "1 \(from) = \(deleted.rate) \(to) from \(date)"), sql)
            return deleted
        }
    }
}
