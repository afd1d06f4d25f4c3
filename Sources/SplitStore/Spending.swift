import Foundation
import SQLKit
import SplitCore

/// What each member's shares came to, day by day, per category and currency (issue 20): the
/// running totals budgets read, changed in the same transaction as every expense write, like the
/// ledger, so a budget's status reads a few hundred rows however many expenses the group has.
///
/// A share counts on its expense's date, in its expense's currency; when the expense says what it
/// was charged in the home currency, the shares count in that currency instead (the charged
/// amount apportioned over them exactly, like a conversion), so a budget uses "the expense's own
/// home amount" before any rate. A charge in a former home currency does not count (found by a
/// new user: after EUR → GBP, 50 GBP charged 58.37 EUR went on counting as 58.37 EUR), and a
/// change of the home currency moves the rows of the expenses it concerns (`rehome`).
enum Spending {
    struct Key: Hashable {
        var member: UUID
        var day: String
        var category: UUID
        var currency: String
    }

    /// One expense's rows, each signed by `sign` (−1 takes the expense back), in a group whose
    /// home currency is `home`.
    static func parts(of expense: ExpenseRecord, sign: Int64, home: String) -> [Key: Int64] {
        // In member order, as a split makes them and a read gives them: a leftover unit of the
        // conversion goes by position, and the parts added when an expense is written must be the
        // ones taken away when it changes (`ExpenseSplit` sorts already; this keeps it so).
        let shares = expense.liveShares.sorted { $0.memberID.sortsBefore($1.memberID) }
        var amounts = shares.map(\.amount)
        var currency = expense.currency
        if let charged = expense.homeAmount, let homeCode = expense.homeCurrency, homeCode != expense.currency,
            homeCode == home,
            let from = try? Currency(code: expense.currency), let to = try? Currency(code: homeCode),
            let rate = try? ExchangeRate(
                charged: Money(minorUnits: expense.amount, currency: from), as: Money(minorUnits: charged, currency: to)),
            let converted = try? rate.convert(amounts, currency: from, tieBreak: TieBreak(seed: expense.id.text))
        {
            amounts = converted
            currency = homeCode
        }
        var parts: [Key: Int64] = [:]
        for (share, amount) in zip(shares, amounts) {
            parts[
                Key(member: share.memberID, day: expense.expenseDate, category: expense.categoryID, currency: currency),
                default: 0] += sign * amount
        }
        return parts
    }

    /// Adds an expense (`sign` 1) or takes it back (−1), whatever its deleted flag says: the
    /// caller knows whether it counts (a restore adds one still marked deleted).

    /// Adds many rows at once, one statement per thousand, each key once, in key order (no
    /// deadlock between two writers).
    static func apply(_ parts: [Key: Int64], groupID: UUID, _ sql: any SQLDatabase) async throws {
        var batch = WriteBatch()
        write(parts, groupID: groupID, into: &batch)
        _ = try await batch.run(on: sql)
    }

    /// `apply`'s statements, added to `batch` (which holds no other write of these rows).
    static func write(_ parts: [Key: Int64], groupID: UUID, into batch: inout WriteBatch) {
        let rows = parts.filter { $0.value != 0 }.sorted {
            ($0.key.member.text, $0.key.day, $0.key.category.text, $0.key.currency)
                < ($1.key.member.text, $1.key.day, $1.key.category.text, $1.key.currency)
        }
        batch.add(
            MultiRowInsert.statements(
                "INSERT INTO spending (member_id, day, category_id, currency, group_id, amount)",
                rows.map { [$0.key.member.text, $0.key.day, $0.key.category.text, $0.key.currency, groupID.text, $0.value] },
                then: "ON CONFLICT (member_id, day, category_id, currency) DO UPDATE SET amount = spending.amount + excluded.amount"
            ))
    }

    /// Every live expense of a group, for filling the table (migration 0025) and for tests that
    /// prove the running totals right.
    static func recomputed(groupID: UUID, _ sql: any SQLDatabase) async throws -> [Key: Int64] {
        var parts: [Key: Int64] = [:]
        let home = try await sql.raw("SELECT home_currency FROM groups WHERE id = \(bind: groupID.text)").first()?
            .decode(column: "home_currency", as: String.self) ?? ""
        let ids = try await sql.raw(
            "SELECT id FROM expenses WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false)"
        ).all().map { try $0.decodeUUID("id") }
        for id in ids {
            guard let expense = try await ExpenseStore.load(id, sql) else { continue }
            parts.merge(Self.parts(of: expense, sign: 1, home: home), uniquingKeysWith: +)
        }
        return parts
    }

    /// The group's home currency went from `old` to `new`: the live expenses charged in either
    /// count otherwise now (a charge in `old` no longer, one in `new` again), so their rows move
    /// by the difference, and the change feed carries them (what they show changed too).
    static func rehome(groupID: UUID, from old: String, to new: String, log: GroupLog, _ sql: any SQLDatabase)
        async throws
    {
        let ids = try await sql.raw(
            """
            SELECT id FROM expenses
            WHERE group_id = \(bind: groupID.text) AND home_amount IS NOT NULL AND is_deleted = \(bind: false)
                  AND home_currency IN (\(binds: [old, new]))
            """
        ).all().map { try $0.decodeUUID("id") }
        guard !ids.isEmpty else { return }
        var parts: [Key: Int64] = [:]
        for id in ids {
            guard let expense = try await ExpenseStore.load(id, sql) else { continue }
            parts.merge(Self.parts(of: expense, sign: -1, home: old), uniquingKeysWith: +)
            parts.merge(Self.parts(of: expense, sign: 1, home: new), uniquingKeysWith: +)
        }
        try await apply(parts, groupID: groupID, sql)
        try await log.changed(.expense, ids, sql)
    }
}
