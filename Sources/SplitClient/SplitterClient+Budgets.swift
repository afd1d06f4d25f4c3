import Foundation
internal import OpenAPIRuntime
internal import SplitAPI

/// One line of a budget's status, in the budget's currency (decimal text): the cap (nil when
/// none), spent, what is left, whole percent of the cap, a day's average and the projection to
/// the period's end.
public struct BudgetFigures: Codable, Hashable, Sendable {
    public var cap: String?
    public var spent: String
    public var remaining: String?
    public var percent: Int?
    public var dailyAverage: String
    public var projected: String
}

/// Who paid and who spent what in a group (`spendingByPerson`): amounts are decimal text.
public struct SpendingByPerson: Codable, Hashable, Sendable {
    public struct Person: Codable, Hashable, Sendable {
        public var memberId: String
        /// One no longer in the group ends in " (left)" or " (removed)".
        public var name: String
        public var paid: String
        public var share: String
    }
    public struct Sum: Codable, Hashable, Sendable {
        public var memberId: String
        public var name: String
        public var currency: String
        public var paid: String
        public var share: String
    }

    /// The group's home currency, which `people` and `total` are in.
    public var currency: String
    /// The month asked for; nil: since the group began.
    public var month: String?
    public var people: [Person]
    public var total: String
    /// Currencies with no rate to `currency`: not in `people` or `total`, still in `byCurrency`.
    public var uncountedCurrencies: [String]
    public var byCurrency: [Sum]
}

/// Where a budget stands (issue 20): a group's, or my own over my shares in all my groups.
public struct BudgetStatus: Codable, Hashable, Sendable {
    public struct Settings: Codable, Hashable, Sendable {
        /// month or trip.
        public var period: String
        public var startDate: String?
        public var endDate: String?
        public var currency: String
        public var total: String?
        public var thresholds: [Int]
        public var updatedAt: Date
    }
    public struct Line: Codable, Hashable, Sendable {
        public var categoryId: String?
        public var name: String
        public var icon: String?
        public var figures: BudgetFigures
        /// A deleted category's line (a new category may have its name).
        public var isDeleted: Bool?
    }
    public struct Uncounted: Codable, Hashable, Sendable {
        public var expenseId: String
        public var groupId: String
        public var groupName: String?
        public var description: String
        public var date: String
        public var amount: String
        public var currency: String
    }

    /// The group's budget as set; nil when none is (then spending only).
    public var budget: Settings?
    public var currency: String
    public var period: String
    /// The month shown (2026-11), for a monthly status.
    public var month: String?
    public var startDate: String
    public var endDate: String
    public var today: String
    public var lines: [Line]
    public var total: BudgetFigures
    /// Currencies spent that no rate converts: their expenses are in `uncounted`, not in the sums.
    public var uncountedCurrencies: [String]
    public var uncounted: [Uncounted]
}

/// A group budget to set, all at once: `period` month or trip (with its dates), a total and caps
/// per category id (decimal text in the group's home currency), alert percentages.
public struct BudgetSettings: Codable, Hashable, Sendable {
    public var period: String
    public var startDate: String?
    public var endDate: String?
    public var total: String?
    /// Category id → cap.
    public var caps: [String: String]
    public var thresholds: [Int]?

    public init(
        period: String = "month", startDate: String? = nil, endDate: String? = nil, total: String? = nil,
        caps: [String: String] = [:], thresholds: [Int]? = nil
    ) {
        self.period = period
        self.startDate = startDate
        self.endDate = endDate
        self.total = total
        self.caps = caps
        self.thresholds = thresholds
    }
}

extension SplitterClient {
    /// The group's live categories in their order (their ids are what a budget's caps name).
    public func categories(groupID: String) async throws -> [Category] {
        try await call({ try await api.listCategories(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.categories.map(Category.init)
        }
    }

    /// The group's budget for `month` (YYYY-MM; this month in the group's time zone when nil).
    public func budget(groupID: String, month: String? = nil) async throws -> BudgetStatus {
        try await call({
            try await api.getBudget(path: .init(groupId: groupID), query: .init(month: month))
        }) { BudgetStatus(try $0.ok.body.json) }
    }

    /// Sets the group's whole budget (owner and admins).
    public func setBudget(groupID: String, _ settings: BudgetSettings) async throws -> BudgetStatus {
        guard let period = Components.Schemas.BudgetInput.PeriodPayload(rawValue: settings.period) else {
            throw SplitterError.validation(message: "period is month or trip, not \"\(settings.period)\".", field: "period")
        }
        return try await call({
            try await api.putBudget(
                path: .init(groupId: groupID),
                body: .json(
                    .init(
                        period: period, startDate: settings.startDate,
                        endDate: settings.endDate, total: settings.total,
                        caps: settings.caps.sorted { $0.key < $1.key }.map { .init(categoryId: $0.key, amount: $0.value) },
                        thresholds: settings.thresholds)))
        }) { BudgetStatus(try $0.ok.body.json) }
    }

    /// Replaces every cap at once (category id → amount), keeping the rest of the budget.
    public func setBudgetCaps(groupID: String, _ caps: [String: String]) async throws -> BudgetStatus {
        try await call({
            try await api.bulkUpdateBudgetCaps(
                path: .init(groupId: groupID),
                body: .json(.init(caps: caps.sorted { $0.key < $1.key }.map { .init(categoryId: $0.key, amount: $0.value) })))
        }) { BudgetStatus(try $0.ok.body.json) }
    }

    public func removeBudget(groupID: String) async throws {
        try await call({ try await api.deleteBudget(path: .init(groupId: groupID)) }) { _ = try $0.noContent }
    }

    /// What each member paid for the group's expenses and what their shares came to, in the home
    /// currency, for `month` (YYYY-MM) or since the group began (nil).
    public func spendingByPerson(groupID: String, month: String? = nil) async throws -> SpendingByPerson {
        try await call({
            try await api.getSpendingByPerson(path: .init(groupId: groupID), query: .init(month: month))
        }) { SpendingByPerson(try $0.ok.body.json) }
    }

    /// My own budget over my shares in all my groups, for `month` (this month, UTC, when nil).
    public func myBudget(month: String? = nil) async throws -> BudgetStatus {
        try await call({ try await api.getMyBudget(query: .init(month: month)) }) { BudgetStatus(try $0.ok.body.json) }
    }

    /// Sets my budget: its currency, an optional total, caps by category name (any case).
    public func setMyBudget(currency: String, total: String? = nil, caps: [String: String] = [:]) async throws
        -> BudgetStatus
    {
        return try await call({
            try await api.putMyBudget(
                body: .json(
                    .init(
                        currency: currency, total: total,
                        caps: caps.sorted { $0.key < $1.key }.map { .init(category: $0.key, amount: $0.value) })))
        }) { BudgetStatus(try $0.ok.body.json) }
    }

    public func removeMyBudget() async throws {
        try await call({ try await api.deleteMyBudget() }) { _ = try $0.noContent }
    }
}

extension BudgetFigures {
    init(_ wire: Components.Schemas.BudgetFigures) {
        self.init(
            cap: wire.cap, spent: wire.spent, remaining: wire.remaining, percent: wire.percent,
            dailyAverage: wire.dailyAverage, projected: wire.projected)
    }
}

extension BudgetStatus {
    init(_ wire: Components.Schemas.BudgetStatus) {
        self.init(
            budget: wire.budget.map {
                .init(
                    period: $0.period.rawValue, startDate: $0.startDate, endDate: $0.endDate, currency: $0.currency,
                    total: $0.total, thresholds: $0.thresholds, updatedAt: $0.updatedAt)
            }, currency: wire.currency, period: wire.period.rawValue, month: wire.month, startDate: wire.startDate,
            endDate: wire.endDate, today: wire.today,
            lines: wire.lines.map {
                .init(
                    categoryId: $0.categoryId, name: $0.name, icon: $0.icon, figures: BudgetFigures($0.figures),
                    isDeleted: $0.isDeleted)
            }, total: BudgetFigures(wire.total), uncountedCurrencies: wire.uncountedCurrencies,
            uncounted: wire.uncounted.map {
                .init(
                    expenseId: $0.expenseId, groupId: $0.groupId, groupName: $0.groupName, description: $0.description,
                    date: $0.date, amount: $0.amount, currency: $0.currency)
            })
    }
}

extension SpendingByPerson {
    init(_ wire: Components.Schemas.SpendingByPerson) {
        self.init(
            currency: wire.currency, month: wire.month,
            people: wire.people.map { .init(memberId: $0.memberId, name: $0.name, paid: $0.paid, share: $0.share) },
            total: wire.total, uncountedCurrencies: wire.uncountedCurrencies,
            byCurrency: wire.byCurrency.map {
                .init(memberId: $0.memberId, name: $0.name, currency: $0.currency, paid: $0.paid, share: $0.share)
            })
    }
}
