import Foundation
import SQLKit
import SplitCore

/// What each member's shares came to and what they paid, day by day, per category and currency
/// (issue 20): the running totals budgets and "Who paid what" read, changed in the same
/// transaction as every expense write, like the ledger, so a budget's status reads a few hundred
/// rows however many expenses the group has.
///
/// A share counts on its expense's date, in its expense's currency; when the expense says what it
/// was charged in the home currency, the shares count in that currency instead (the charged
/// amount apportioned over them exactly, like a conversion), so a budget uses "the expense's own
/// home amount" before any rate. A charge in a former home currency does not count (found by a
/// new user: after EUR → GBP, 50 GBP charged 58.37 EUR went on counting as 58.37 EUR), and a
/// change of the home currency moves the rows of the expenses it concerns (`rehome`). What the
/// payers paid counts the same way: the charged amount apportioned over them.
enum Spending {
    struct Key: Hashable {
        var member: UUID
        var day: String
        var category: UUID
        var currency: String
    }

    /// A row's two running totals: the member's shares (`amount`) and what they paid (`paid`).
    struct Sums: Equatable {
        var share: Int64 = 0
        var paid: Int64 = 0

        static func + (left: Sums, right: Sums) -> Sums {
            Sums(share: left.share + right.share, paid: left.paid + right.paid)
        }

        var isZero: Bool { share == 0 && paid == 0 }
    }

    /// One expense's rows, each signed by `sign` (−1 takes the expense back), in a group whose
    /// home currency is `home`.
    static func parts(of expense: ExpenseRecord, sign: Int64, home: String) -> [Key: Sums] {
        // In member order, as a split makes them and a read gives them: a leftover unit of the
        // conversion goes by position, and the parts added when an expense is written must be the
        // ones taken away when it changes (`ExpenseSplit` sorts already; this keeps it so).
        let shares = expense.liveShares.sorted { $0.memberID.sortsBefore($1.memberID) }
        let payers = expense.payers.sorted { $0.memberID.sortsBefore($1.memberID) }
        var shareAmounts = shares.map(\.amount)
        var paidAmounts = payers.map(\.amount)
        var currency = expense.currency
        if let charged = expense.homeAmount, let homeCode = expense.homeCurrency, homeCode != expense.currency,
            homeCode == home,
            let from = try? Currency(code: expense.currency), let to = try? Currency(code: homeCode),
            let rate = try? ExchangeRate(
                charged: Money(minorUnits: expense.amount, currency: from), as: Money(minorUnits: charged, currency: to)),
            let convertedShares = try? rate.convert(shareAmounts, currency: from, tieBreak: TieBreak(seed: expense.id.text)),
            let convertedPaid = try? rate.convert(paidAmounts, currency: from, tieBreak: TieBreak(seed: expense.id.text))
        {
            shareAmounts = convertedShares
            paidAmounts = convertedPaid
            currency = homeCode
        }
        var parts: [Key: Sums] = [:]
        func key(_ member: UUID) -> Key {
            Key(member: member, day: expense.expenseDate, category: expense.categoryID, currency: currency)
        }
        for (share, amount) in zip(shares, shareAmounts) { parts[key(share.memberID), default: Sums()].share += sign * amount }
        for (payer, amount) in zip(payers, paidAmounts) { parts[key(payer.memberID), default: Sums()].paid += sign * amount }
        return parts
    }

    /// Adds an expense (`sign` 1) or takes it back (−1), whatever its deleted flag says: the
    /// caller knows whether it counts (a restore adds one still marked deleted).

    /// Adds many rows at once, one statement per thousand, each key once, in key order (no
    /// deadlock between two writers).
    /// `paid`: false for the migrations from before the table had that column (0025, 0032),
    /// which write the shares only (0033 adds what was paid).
    static func apply(_ parts: [Key: Sums], groupID: UUID, paid: Bool = true, _ sql: any SQLDatabase) async throws {
        var batch = WriteBatch()
        write(parts, groupID: groupID, paid: paid, into: &batch)
        _ = try await batch.run(on: sql)
    }

    /// `apply`'s statements, added to `batch` (which holds no other write of these rows).
    static func write(_ parts: [Key: Sums], groupID: UUID, paid: Bool = true, into batch: inout WriteBatch) {
        let rows = parts.filter { paid ? !$0.value.isZero : $0.value.share != 0 }.sorted {
            ($0.key.member.text, $0.key.day, $0.key.category.text, $0.key.currency)
                < ($1.key.member.text, $1.key.day, $1.key.category.text, $1.key.currency)
        }
        func values(_ row: (key: Key, value: Sums)) -> [any Encodable & Sendable] {
            [row.key.member.text, row.key.day, row.key.category.text, row.key.currency, groupID.text, row.value.share]
        }
        batch.add(
            paid
                ? MultiRowInsert.statements(
                    "INSERT INTO spending (member_id, day, category_id, currency, group_id, amount, paid)",
                    rows.map { values($0) + [$0.value.paid] },
                    then: """
                        ON CONFLICT (member_id, day, category_id, currency) DO UPDATE
                        SET amount = spending.amount + excluded.amount, paid = spending.paid + excluded.paid
                        """)
                : MultiRowInsert.statements(
                    "INSERT INTO spending (member_id, day, category_id, currency, group_id, amount)", rows.map(values),
                    then: "ON CONFLICT (member_id, day, category_id, currency) DO UPDATE SET amount = spending.amount + excluded.amount"
                ))
    }

    /// Every live expense of a group, for filling the table (migration 0025) and for tests that
    /// prove the running totals right.
    static func recomputed(groupID: UUID, _ sql: any SQLDatabase) async throws -> [Key: Sums] {
        var parts: [Key: Sums] = [:]
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

    /// Migration 0033: what every live expense's payers paid, added to the rows (their `paid`
    /// is 0 before). An expense counts in its own currency unless charged in the group's home
    /// currency of today (as in `parts`).
    static func fillPaid(_ sql: any SQLDatabase) async throws {
        let charged = SQLQueryString(
            "e.home_amount IS NOT NULL AND e.home_currency = g.home_currency AND e.currency <> g.home_currency")
        try await sql.raw(
            """
            INSERT INTO spending (member_id, day, category_id, currency, group_id, amount, paid)
            SELECT p.member_id, e.expense_date, e.category_id, e.currency, e.group_id, 0, CAST(SUM(p.amount) AS BIGINT)
            FROM expenses e JOIN expense_payers p ON p.expense_id = e.id JOIN groups g ON g.id = e.group_id
            WHERE e.is_deleted = \(bind: false) AND NOT (\(charged))
            GROUP BY p.member_id, e.expense_date, e.category_id, e.currency, e.group_id
            ON CONFLICT (member_id, day, category_id, currency) DO UPDATE SET paid = spending.paid + excluded.paid
            """
        ).run()
        let chargedExpenses = try await sql.raw(
            """
            SELECT e.id, e.group_id, g.home_currency FROM expenses e JOIN groups g ON g.id = e.group_id
            WHERE e.is_deleted = \(bind: false) AND \(charged)
            """
        ).all()
        for row in chargedExpenses {
            guard let expense = try await ExpenseStore.load(try row.decodeUUID("id"), sql) else { continue }
            let home = try row.decode(column: "home_currency", as: String.self)
            let paid = parts(of: expense, sign: 1, home: home).mapValues { Sums(paid: $0.paid) }
            try await apply(paid, groupID: try row.decodeUUID("group_id"), sql)
        }
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
        var parts: [Key: Sums] = [:]
        for id in ids {
            guard let expense = try await ExpenseStore.load(id, sql) else { continue }
            parts.merge(Self.parts(of: expense, sign: -1, home: old), uniquingKeysWith: +)
            parts.merge(Self.parts(of: expense, sign: 1, home: new), uniquingKeysWith: +)
        }
        try await apply(parts, groupID: groupID, sql)
        try await log.changed(.expense, ids, sql)
    }
}
