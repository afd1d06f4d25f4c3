import Foundation
import SQLKit
import SplitCore

/// A group's budget (issue 20): a total and caps per category, in `currency` (the group's home
/// currency when it was set), for each calendar month or for a trip's dates.
public struct BudgetRecord: Sendable, Equatable {
    public enum Period: String, Sendable, CaseIterable {
        case month, trip
    }

    public var groupID: UUID
    public var period: Period
    /// The trip's first and last day (YYYY-MM-DD); nil for a monthly budget.
    public var startDate: String?
    public var endDate: String?
    public var currency: String
    /// The whole budget, when one is set (caps alone are fine too).
    public var total: Int64?
    /// Caps by category id, in minor units of `currency`.
    public var caps: [UUID: Int64]
    /// Percentages of a cap at which members are told (80 and 100 by default).
    public var thresholds: [Int]
    public var updatedAt: Int64

    public init(
        groupID: UUID, period: Period, startDate: String? = nil, endDate: String? = nil, currency: String,
        total: Int64?, caps: [UUID: Int64], thresholds: [Int], updatedAt: Int64
    ) {
        self.groupID = groupID
        self.period = period
        self.startDate = startDate
        self.endDate = endDate
        self.currency = currency
        self.total = total
        self.caps = caps
        self.thresholds = thresholds
        self.updatedAt = updatedAt
    }
}

/// A member's own monthly budget over their shares in all their groups; caps by category name,
/// matched in any case across groups.
public struct PersonalBudgetRecord: Sendable, Equatable {
    public struct Cap: Sendable, Equatable {
        public var name: String
        public var amount: Int64

        public init(name: String, amount: Int64) {
            self.name = name
            self.amount = amount
        }
    }

    public var userID: UUID
    public var currency: String
    public var total: Int64?
    public var caps: [Cap]
    public var updatedAt: Int64

    public init(userID: UUID, currency: String, total: Int64?, caps: [Cap], updatedAt: Int64) {
        self.userID = userID
        self.currency = currency
        self.total = total
        self.caps = caps
        self.updatedAt = updatedAt
    }
}

/// Spent in a period, per category and currency (from `spending`).
public struct SpentRecord: Sendable, Equatable {
    public var groupID: UUID
    public var categoryID: UUID
    public var currency: String
    public var amount: Int64
}

/// What one member paid and what their shares came to in one currency (`BudgetStore.people`).
public struct PersonSumRecord: Sendable, Equatable {
    struct Key: Hashable {
        var memberID: UUID
        var currency: String
    }

    public var memberID: UUID
    public var currency: String
    public var paid: Int64
    public var share: Int64
}

/// An expense (or, for a personal budget, one's share of it) that a budget could not convert.
public struct UncountedExpense: Sendable, Equatable {
    public var expenseID: UUID
    public var groupID: UUID
    public var description: String
    public var date: String
    public var amount: Int64
    public var currency: String
}

extension UncountedExpense {
    /// An expense row read with its id, description, date, amount and currency.
    init(row: any SQLRow, groupID: UUID) throws {
        self.init(
            expenseID: try row.decodeUUID("id"), groupID: groupID,
            description: try row.decode(column: "description", as: String.self),
            date: try row.decode(column: "expense_date", as: String.self),
            amount: try row.decode(column: "amount", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self))
    }
}

public struct BudgetStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The default alert thresholds, in percent of a cap.
    public static let defaultThresholds = [80, 100]

    public func budget(groupID: UUID) async throws -> BudgetRecord? {
        try await database.read { try await Self.load(groupID: groupID, $0) }
    }

    static func load(groupID: UUID, _ sql: any SQLDatabase) async throws -> BudgetRecord? {
        guard
            let row = try await sql.raw("SELECT * FROM budgets WHERE group_id = \(bind: groupID.text)").first()
        else { return nil }
        var caps: [UUID: Int64] = [:]
        for cap in try await sql.raw(
            "SELECT category_id, amount FROM budget_caps WHERE group_id = \(bind: groupID.text)"
        ).all() {
            caps[try cap.decodeUUID("category_id")] = try cap.decode(column: "amount", as: Int64.self)
        }
        return BudgetRecord(
            groupID: groupID,
            period: BudgetRecord.Period(rawValue: try row.decode(column: "period", as: String.self)) ?? .month,
            startDate: try row.decode(column: "start_date", as: String?.self),
            endDate: try row.decode(column: "end_date", as: String?.self),
            currency: try row.decode(column: "currency", as: String.self),
            total: try row.decode(column: "total", as: Int64?.self), caps: caps,
            thresholds: try row.decode(column: "thresholds", as: String.self).split(separator: ",").compactMap { Int($0) },
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }

    /// Sets the whole budget (total, period, every cap) in one write. The alerts already sent
    /// for a cap that changed (or all of them, for new thresholds or another period) start over,
    /// and what the period of `today` (the group's day) has reached already is alerted in this
    /// write; a cap saved again as it was is not told of twice (found by review: each save said
    /// "Meal passed 100 %" again). `budget` nil removes it.
    public func put(_ budget: BudgetRecord?, groupID: UUID, actor: Actor, now: Int64, today: String? = nil) async throws {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else {
                throw WriteRefusal.notFound
            }
            let before = try await Self.load(groupID: groupID, sql)
            try await sql.raw("DELETE FROM budget_caps WHERE group_id = \(bind: groupID.text)").run()
            if let before, let budget, before.period == budget.period, before.startDate == budget.startDate,
                before.endDate == budget.endDate, before.currency == budget.currency, before.thresholds == budget.thresholds
            {
                let changed =
                    Set(before.caps.keys).union(budget.caps.keys).filter { before.caps[$0] != budget.caps[$0] }
                    .map(\.text) + (before.total != budget.total ? ["total"] : [])
                if !changed.isEmpty {
                    try await sql.raw(
                        """
                        DELETE FROM budget_alerts
                        WHERE group_id = \(bind: groupID.text) AND scope IN (\(binds: changed.sorted()))
                        """
                    ).run()
                }
            } else {
                try await sql.raw("DELETE FROM budget_alerts WHERE group_id = \(bind: groupID.text)").run()
            }
            guard let budget else {
                try await sql.raw("DELETE FROM budgets WHERE group_id = \(bind: groupID.text)").run()
                try await log.changed(.group, groupID, sql)
                try await log.activity(actor, "budget.removed", .group, groupID, ActivityEvent(), sql)
                return
            }
            try await Self.write(budget, groupID: groupID, by: actor.userID, now: now, sql)
            try await log.changed(.group, groupID, sql)
            try await log.activity(
                actor, "budget.updated", .group, groupID,
                ActivityEvent(amount: budget.total, currency: budget.currency, count: budget.caps.count), sql)
            if let today { try await BudgetAlerts.checkSet(groupID: groupID, today: today, log: log, sql) }
        }
    }

    /// The budget row (new or replacing one) and its caps (the caller removed the old ones).
    static func write(_ budget: BudgetRecord, groupID: UUID, by userID: UUID, now: Int64, _ sql: any SQLDatabase)
        async throws
    {
        try await sql.raw(
            """
            INSERT INTO budgets (group_id, period, start_date, end_date, currency, total, thresholds,
                                 updated_by_user_id, updated_at)
            VALUES (\(bind: groupID.text), \(bind: budget.period.rawValue), \(bind: budget.startDate),
                    \(bind: budget.endDate), \(bind: budget.currency), \(bind: budget.total),
                    \(bind: budget.thresholds.map(String.init).joined(separator: ",")), \(bind: userID.text), \(bind: now))
            ON CONFLICT (group_id) DO UPDATE SET period = excluded.period, start_date = excluded.start_date,
                end_date = excluded.end_date, currency = excluded.currency, total = excluded.total,
                thresholds = excluded.thresholds, updated_by_user_id = excluded.updated_by_user_id,
                updated_at = excluded.updated_at
            """
        ).run()
        try await MultiRowInsert.run(
            "INSERT INTO budget_caps (group_id, category_id, amount)",
            budget.caps.sorted { $0.key.sortsBefore($1.key) }.map { [groupID.text, $0.key.text, $0.value] }, on: sql)
    }

    /// What the group's members spent from `from` through `through` (YYYY-MM-DD), per category
    /// and currency: one indexed range read of the running totals. A currency whose sum there is 0
    /// (its expenses deleted) is left out, so no budget asks for its rate (found by review).
    public func spent(groupID: UUID, from: String, through: String) async throws -> [SpentRecord] {
        try await database.read { try await Self.spent(groupID: groupID, from: from, through: through, $0) }
    }

    static func spent(groupID: UUID, from: String, through: String, _ sql: any SQLDatabase) async throws
        -> [SpentRecord]
    {
        try await sql.raw(
            """
            SELECT category_id, currency, CAST(SUM(amount) AS BIGINT) AS total FROM spending
            WHERE group_id = \(bind: groupID.text) AND day >= \(bind: from) AND day <= \(bind: through)
            GROUP BY category_id, currency
            HAVING SUM(amount) <> 0
            """
        ).all().map {
            SpentRecord(
                groupID: groupID, categoryID: try $0.decodeUUID("category_id"),
                currency: try $0.decode(column: "currency", as: String.self),
                amount: try $0.decode(column: "total", as: Int64.self))
        }
    }

    /// What each member's shares of the group's live expenses came to, per currency, since the
    /// group began (`PersonSumRecord.paid` is 0): one grouped read of the running totals, the same
    /// cost at any number of expenses (issue 16: the overview read every expense to draw it).
    public func shares(groupID: UUID) async throws -> [PersonSumRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT member_id, currency, CAST(SUM(amount) AS BIGINT) AS total FROM spending
                WHERE group_id = \(bind: groupID.text)
                GROUP BY member_id, currency
                HAVING SUM(amount) <> 0
                """
            ).all().map {
                PersonSumRecord(
                    memberID: try $0.decodeUUID("member_id"), currency: try $0.decode(column: "currency", as: String.self),
                    paid: 0, share: try $0.decode(column: "total", as: Int64.self))
            }
        }
    }

    /// What each member paid for the group's live expenses dated `from` through `through`
    /// (YYYY-MM-DD; all of them when nil) and what their shares came to, per currency, in the
    /// currency each counts in for a budget: an expense charged in the home currency counts there,
    /// its payers' amounts apportioned like its shares (`Spending.parts`). One grouped read of the
    /// running totals, the same cost at any number of expenses.
    public func people(groupID: UUID, from: String?, through: String?) async throws -> [PersonSumRecord] {
        try await database.read { sql in
            let (start, end) = (from ?? "0000-01-01", through ?? "9999-12-31")
            return try await sql.raw(
                """
                SELECT member_id, currency, CAST(SUM(amount) AS BIGINT) AS share, CAST(SUM(paid) AS BIGINT) AS paid
                FROM spending
                WHERE group_id = \(bind: groupID.text) AND day >= \(bind: start) AND day <= \(bind: end)
                GROUP BY member_id, currency
                HAVING SUM(amount) <> 0 OR SUM(paid) <> 0
                """
            ).all().map {
                PersonSumRecord(
                    memberID: try $0.decodeUUID("member_id"), currency: try $0.decode(column: "currency", as: String.self),
                    paid: try $0.decode(column: "paid", as: Int64.self), share: try $0.decode(column: "share", as: Int64.self))
            }.sorted { ($0.memberID.text, $0.currency) < ($1.memberID.text, $1.currency) }
        }
    }

    /// The group's live expenses in the dates whose counted currency is one of `currencies`:
    /// those a budget could not convert, at most `limit`.
    public func uncounted(
        groupID: UUID, home: String, from: String, through: String, currencies: [String], limit: Int = 100
    ) async throws -> [UncountedExpense] {
        guard !currencies.isEmpty else { return [] }
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT id, description, expense_date, amount, currency FROM expenses
                WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false)
                      AND expense_date >= \(bind: from) AND expense_date <= \(bind: through)
                      AND (CASE WHEN home_amount IS NOT NULL AND home_currency = \(bind: home) THEN home_currency
                           ELSE currency END) IN (\(binds: currencies))
                ORDER BY expense_date, id LIMIT \(bind: limit)
                """
            ).all()
        }.map { try UncountedExpense(row: $0, groupID: groupID) }
    }

    // MARK: Personal budgets

    public func personalBudget(userID: UUID) async throws -> PersonalBudgetRecord? {
        try await database.read { sql in
            guard
                let row = try await sql.raw(
                    "SELECT currency, total, updated_at FROM personal_budgets WHERE user_id = \(bind: userID.text)"
                ).first()
            else { return nil }
            let caps = try await sql.raw(
                "SELECT name, amount FROM personal_budget_caps WHERE user_id = \(bind: userID.text) ORDER BY name_key"
            ).all().map {
                PersonalBudgetRecord.Cap(
                    name: try $0.decode(column: "name", as: String.self),
                    amount: try $0.decode(column: "amount", as: Int64.self))
            }
            return PersonalBudgetRecord(
                userID: userID, currency: try row.decode(column: "currency", as: String.self),
                total: try row.decode(column: "total", as: Int64?.self), caps: caps,
                updatedAt: try row.decode(column: "updated_at", as: Int64.self))
        }
    }

    /// Sets (or with nil removes) an account's personal budget, caps and all.
    public func putPersonal(_ budget: PersonalBudgetRecord?, userID: UUID, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw("DELETE FROM personal_budget_caps WHERE user_id = \(bind: userID.text)").run()
            guard let budget else {
                try await sql.raw("DELETE FROM personal_budgets WHERE user_id = \(bind: userID.text)").run()
                return
            }
            try await sql.raw(
                """
                INSERT INTO personal_budgets (user_id, currency, total, updated_at)
                VALUES (\(bind: userID.text), \(bind: budget.currency), \(bind: budget.total), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET currency = excluded.currency, total = excluded.total,
                    updated_at = excluded.updated_at
                """
            ).run()
            try await MultiRowInsert.run(
                "INSERT INTO personal_budget_caps (user_id, name_key, name, amount)",
                budget.caps.map { [userID.text, $0.name.lowercased(), $0.name, $0.amount] }, on: sql)
        }
    }

    /// My shares from `from` through `through`, per group, category and currency, in every group
    /// I am or was a member of.
    public func personalSpent(userID: UUID, from: String, through: String) async throws -> [SpentRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT s.group_id, s.category_id, s.currency, CAST(SUM(s.amount) AS BIGINT) AS total
                FROM members m JOIN spending s ON s.member_id = m.id
                WHERE m.user_id = \(bind: userID.text) AND s.day >= \(bind: from) AND s.day <= \(bind: through)
                GROUP BY s.group_id, s.category_id, s.currency
                HAVING SUM(s.amount) <> 0
                """
            ).all()
        }.map {
            SpentRecord(
                groupID: try $0.decodeUUID("group_id"), categoryID: try $0.decodeUUID("category_id"),
                currency: try $0.decode(column: "currency", as: String.self),
                amount: try $0.decode(column: "total", as: Int64.self))
        }
    }

    /// My shares in the dates of expenses of `groupID` counted in one of `currencies`: the
    /// group's expenses in those dates, each with my share looked up by its key (shares have no
    /// index by member, migration 0030; a scalar subquery, which PostgreSQL runs for each
    /// expense rather than joining every share of the table).
    public func personalUncounted(
        userID: UUID, groupID: UUID, from: String, through: String, currencies: [String], limit: Int = 100
    ) async throws -> [UncountedExpense] {
        guard !currencies.isEmpty else { return [] }
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT id, description, expense_date, currency, amount FROM (
                    SELECT e.id, e.description, e.expense_date, e.currency,
                           (SELECT s.amount FROM expense_splits s
                            WHERE s.expense_id = e.id AND s.member_id = m.id AND s.is_removed = \(bind: false)) AS amount
                    FROM members m JOIN expenses e ON e.group_id = m.group_id JOIN groups g ON g.id = e.group_id
                    WHERE m.user_id = \(bind: userID.text) AND m.group_id = \(bind: groupID.text)
                          AND e.group_id = \(bind: groupID.text) AND e.is_deleted = \(bind: false)
                          AND e.expense_date >= \(bind: from) AND e.expense_date <= \(bind: through)
                          AND (CASE WHEN e.home_amount IS NOT NULL AND e.home_currency = g.home_currency THEN e.home_currency
                               ELSE e.currency END) IN (\(binds: currencies))
                ) mine
                WHERE amount IS NOT NULL
                ORDER BY expense_date, id LIMIT \(bind: limit)
                """
            ).all()
        }.map { try UncountedExpense(row: $0, groupID: groupID) }
    }
}

/// Alerts at a budget's thresholds (issue 20), decided in the transaction of the expense write
/// that crossed one, so each is sent once per period, cap and threshold whatever servers run:
/// `budget_alerts` has that as its key. The line goes to the activity list and, through it, to
/// every member's inbox (and mail and webhooks, like any activity).
enum BudgetAlerts {
    static func check(
        groupID: UUID, day: String, categoryID: UUID, log: GroupLog, _ sql: any SQLDatabase
    ) async throws {
        try await check(groupID: groupID, spending: [(day, categoryID)], log: log, sql)
    }

    /// One write's new spending, each day and category of it: checked once per budget period
    /// and category. The period is the budget's (a month, or the trip when the day is in it),
    /// so a recurring pass that makes dates on both sides of a trip's start still checks the
    /// trip.
    static func check(
        groupID: UUID, spending: [(day: String, categoryID: UUID)], log: GroupLog, _ sql: any SQLDatabase
    ) async throws {
        // Nothing to read for the common case, a group without a budget.
        guard log.hasBudget, !spending.isEmpty, let budget = try await Budget.read(groupID: groupID, log: log, sql)
        else { return }
        // Each period once, with the categories spent in it, in the order first met.
        var periods: [(period: BudgetPeriod, key: String, categories: [UUID])] = []
        for (day, categoryID) in spending {
            guard let (period, periodKey) = budget.period(of: day) else { continue }
            if let index = periods.firstIndex(where: { $0.key == periodKey }) {
                if !periods[index].categories.contains(categoryID) { periods[index].categories.append(categoryID) }
            } else {
                periods.append((period, periodKey, [categoryID]))
            }
        }
        for entry in periods {
            try await check(
                groupID: groupID, budget: budget.row, currency: budget.currency, period: entry.period,
                periodKey: entry.key, categoryIDs: entry.categories, log: log, sql)
        }
    }

    /// A budget just set, or new rates: what the period of `today` has reached already is
    /// alerted now, once, for every cap and the total (found by a new user: "passed 100 %" came
    /// with the next expense, for a cap that was over before the budget was set).
    static func checkSet(groupID: UUID, today: String, log: GroupLog, _ sql: any SQLDatabase) async throws {
        guard let budget = try await Budget.read(groupID: groupID, log: log, sql) else { return }
        // A trip already over is looked at on its last day; one not begun has nothing yet.
        let day = budget.trip.map { today > $0.end.description ? $0.end.description : today } ?? today
        guard let (period, periodKey) = budget.period(of: day) else { return }
        let capped = try await sql.raw(
            "SELECT category_id FROM budget_caps WHERE group_id = \(bind: groupID.text) ORDER BY category_id"
        ).all().map { try $0.decodeUUID("category_id") }
        try await check(
            groupID: groupID, budget: budget.row, currency: budget.currency, period: period, periodKey: periodKey,
            categoryIDs: capped, log: log, sql)
    }

    /// The group's budget as alerts read it.
    struct Budget {
        let row: any SQLRow
        let currency: Currency
        let kind: BudgetRecord.Period
        let trip: BudgetPeriod?
        /// Alerts are news: spending dated in a period that ended more than a week ago (a series
        /// catching up, an old receipt) tells nobody.
        let weekAgo: CivilDate

        static func read(groupID: UUID, log: GroupLog, _ sql: any SQLDatabase) async throws -> Budget? {
            guard
                let row = try await sql.raw(
                    """
                    SELECT period, start_date, end_date, currency, total, thresholds FROM budgets
                    WHERE group_id = \(bind: groupID.text)
                    """
                ).first(),
                let currency = try? Currency(code: try row.decode(column: "currency", as: String.self))
            else { return nil }
            let trip = try row.decode(column: "start_date", as: String?.self).flatMap(CivilDate.init).flatMap { start in
                try row.decode(column: "end_date", as: String?.self).flatMap(CivilDate.init)
                    .flatMap { BudgetPeriod(start: start, end: $0) }
            }
            return Budget(
                row: row, currency: currency,
                kind: BudgetRecord.Period(rawValue: try row.decode(column: "period", as: String.self)) ?? .month,
                trip: trip, weekAgo: CivilDate(daysSinceEpoch: Int(log.now / 86_400_000) - 7))
        }

        /// The budget period a day is in, and its key in `budget_alerts`; nil outside a trip, or
        /// for a period that ended more than a week ago.
        func period(of day: String) -> (BudgetPeriod, String)? {
            guard let date = CivilDate(day) else { return nil }
            let found: (BudgetPeriod, String)
            switch kind {
            case .month:
                found = (.month(of: date), String(day.prefix(7)))
            case .trip:
                guard let trip, trip.contains(date) else { return nil }
                found = (trip, "trip")
            }
            return found.0.end >= weekAgo ? found : nil
        }
    }

    /// One period's alerts: its spending read once, each category's cap and the total checked.
    private static func check(
        groupID: UUID, budget row: any SQLRow, currency: Currency, period: BudgetPeriod, periodKey: String,
        categoryIDs: [UUID], log: GroupLog, _ sql: any SQLDatabase
    ) async throws {
        var watched: [(scope: String, category: UUID?, cap: Int64)] = []
        for categoryID in categoryIDs {
            if let cap = try await sql.raw(
                """
                SELECT amount FROM budget_caps
                WHERE group_id = \(bind: groupID.text) AND category_id = \(bind: categoryID.text)
                """
            ).first()?.decode(column: "amount", as: Int64.self) {
                watched.append((categoryID.text, categoryID, cap))
            }
        }
        if let total = try row.decode(column: "total", as: Int64?.self) { watched.append(("total", nil, total)) }
        guard !watched.isEmpty else { return }
        let thresholds = try row.decode(column: "thresholds", as: String.self).split(separator: ",").compactMap { Int($0) }
        let spent = try await BudgetStore.spent(
            groupID: groupID, from: period.start.description, through: period.end.description, sql)
        // Rates only when something is in another currency.
        let rates =
            spent.contains { $0.currency != currency.code } ? try await BalanceStore.datedRates(groupID: groupID, sql) : []
        func sum(_ rows: [SpentRecord]) -> Int64 {
            BudgetConversion.total(
                rows.compactMap { row in (try? Currency(code: row.currency)).map { ($0, row.amount) } }, to: currency,
                rates: rates
            ).total
        }
        for (scope, category, cap) in watched {
            let amount = sum(category.map { id in spent.filter { $0.categoryID == id } } ?? spent)
            let reached = BudgetFigures.reached(thresholds, cap: cap, spent: amount)
            var fresh: [Int] = []
            for threshold in reached {
                let inserted = try await sql.raw(
                    """
                    INSERT INTO budget_alerts (group_id, period, scope, threshold, at)
                    VALUES (\(bind: groupID.text), \(bind: periodKey), \(bind: scope), \(bind: threshold), \(bind: log.now))
                    ON CONFLICT DO NOTHING RETURNING threshold
                    """
                ).first()
                if inserted != nil { fresh.append(threshold) }
            }
            // One line for the highest threshold this write crossed.
            guard let highest = fresh.max() else { continue }
            let categoryName =
                scope == "total"
                ? nil
                : try await sql.raw("SELECT name FROM categories WHERE id = \(bind: scope)").first()?
                    .decode(column: "name", as: String.self)
            let everyone = try await sql.raw(
                "SELECT id FROM members WHERE group_id = \(bind: groupID.text) AND is_active = \(bind: true)"
            ).all().map { try $0.decodeUUID("id") }
            try await log.activity(
                nil, "budget.alert", .group, groupID,
                ActivityEvent(
                    subject: categoryName, amount: amount, currency: currency.code, limit: cap, percent: highest,
                    period: periodKey == "trip" ? nil : periodKey),
                concerning: everyone, sql)
        }
    }
}
