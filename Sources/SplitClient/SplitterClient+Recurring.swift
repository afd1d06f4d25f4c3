import Foundation
import SplitCore
internal import OpenAPIRuntime
internal import SplitAPI

/// An expense without its group: a recurring expense's template, or a pending occurrence, in the
/// fields of `NewExpense`. `expenseDate` is the next date on output and ignored on input.
public struct ExpenseDraft: Codable, Hashable, Sendable {
    public var description: String
    public var amount: String
    public var currency: String
    public var category: String?
    public var expenseDate: String?
    public var paidBy: [MemberAmount]?
    public var paidByMemberId: String?
    public var split: SplitInput?
    public var splits: [MemberAmount]?
    public var homeAmount: String?

    public init(
        description: String, amount: String, currency: String, category: String? = nil, expenseDate: String? = nil,
        paidBy: [MemberAmount]? = nil, paidByMemberId: String? = nil, split: SplitInput? = nil,
        splits: [MemberAmount]? = nil, homeAmount: String? = nil
    ) {
        self.description = description
        self.amount = amount
        self.currency = currency
        self.category = category
        self.expenseDate = expenseDate
        self.paidBy = paidBy
        self.paidByMemberId = paidByMemberId
        self.split = split
        self.splits = splits
        self.homeAmount = homeAmount
    }
}

/// When a recurring expense falls due: every `interval` days, weeks (on `weekdays`, 1 = Monday),
/// months or years from `startDate`, until `endDate` or `count` times; `monthEnd` clamp (the 31st
/// on a shorter month's last day) or skip (SplitCore's `EnteredRecurrence`, which the server checks).
public typealias RecurrenceRule = EnteredRecurrence

/// A recurring expense (issue 20).
public struct RecurringExpense: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var expense: ExpenseDraft
    public var categoryName: String?
    public var rule: RecurrenceRule
    /// auto (an expense on each date) or confirm (each waits in the pending queue).
    public var mode: String
    /// active, paused or ended.
    public var state: String
    /// Why the server paused it, or what it could not catch up on.
    public var note: String?
    public var nextDate: String?
    /// The next (at most 5) dates still to be made.
    public var upcoming: [String]
    public var skipped: [String]
    public var createdByUserId: String
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date
}

/// A change to a recurring expense; nil fields stay. `state` active (resume), paused or ended.
public struct RecurringChanges: Codable, Hashable, Sendable {
    public var expense: ExpenseDraft?
    public var rule: RecurrenceRule?
    public var mode: String?
    public var state: String?
    public var skip: [String]?
    public var version: Int64?

    public init(
        expense: ExpenseDraft? = nil, rule: RecurrenceRule? = nil, mode: String? = nil, state: String? = nil,
        skip: [String]? = nil, version: Int64? = nil
    ) {
        self.expense = expense
        self.rule = rule
        self.mode = mode
        self.state = state
        self.skip = skip
        self.version = version
    }
}

/// An occurrence waiting to be confirmed or dismissed.
public struct PendingExpense: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var recurringId: String
    public var date: String
    public var expense: ExpenseDraft
    public var categoryName: String?
    public var createdAt: Date
}

extension SplitterClient {
    public func recurringExpenses(groupID: String) async throws -> [RecurringExpense] {
        try await call({ try await api.listRecurring(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.recurring.map(RecurringExpense.init)
        }
    }

    /// Makes a recurring expense; `mode` auto (default) or confirm.
    public func createRecurring(
        groupID: String, expense: ExpenseDraft, rule: RecurrenceRule, mode: String? = nil
    ) async throws -> RecurringExpense {
        let wireRule = try rule.wire()
        let wireMode = try Self.seriesMode(mode)
        return try await call({
            try await api.createRecurring(
                path: .init(groupId: groupID), body: .json(.init(expense: expense.wire, rule: wireRule, mode: wireMode)))
        }) { RecurringExpense(try $0.created.body.json.recurring) }
    }

    public func recurring(id: String) async throws -> RecurringExpense {
        try await call({ try await api.getRecurring(path: .init(recurringId: id)) }) {
            RecurringExpense(try $0.ok.body.json.recurring)
        }
    }

    /// Changes a recurring expense based on `changes.version`.
    public func updateRecurring(id: String, _ changes: RecurringChanges) async throws -> RecurringExpense {
        let wireRule = try changes.rule?.wire()
        let wireMode = try Self.seriesMode(changes.mode)
        var wireState: Components.Schemas.RecurringPatch.StatePayload?
        if let state = changes.state {
            guard let known = Components.Schemas.RecurringPatch.StatePayload(rawValue: state) else {
                throw SplitterError.validation(message: "state is active, paused or ended.", field: "state")
            }
            wireState = known
        }
        return try await call({
            try await api.updateRecurring(
                path: .init(recurringId: id),
                body: .json(
                    .init(
                        version: changes.version, expense: changes.expense?.wire, rule: wireRule,
                        mode: wireMode.flatMap { .init(rawValue: $0.rawValue) }, state: wireState, skip: changes.skip)))
        }) { RecurringExpense(try $0.ok.body.json.recurring) }
    }

    /// Ends a recurring expense; what it made stays.
    public func endRecurring(id: String) async throws -> RecurringExpense {
        try await call({ try await api.endRecurring(path: .init(recurringId: id)) }) {
            RecurringExpense(try $0.ok.body.json.recurring)
        }
    }

    static func seriesMode(_ mode: String?) throws -> Components.Schemas.RecurringInput.ModePayload? {
        guard let mode else { return nil }
        guard let known = Components.Schemas.RecurringInput.ModePayload(rawValue: mode) else {
            throw SplitterError.validation(message: "mode is auto or confirm.", field: "mode")
        }
        return known
    }

    public func pendingExpenses(groupID: String) async throws -> [PendingExpense] {
        try await call({ try await api.listPending(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.pending.map(PendingExpense.init)
        }
    }

    /// Confirms a waiting occurrence, as it is or as `edited`; it becomes an expense.
    public func confirmPending(id: String, edited: ExpenseDraft? = nil) async throws -> Expense {
        try await call({
            try await api.confirmPending(path: .init(pendingId: id), body: .json(.init(expense: edited?.wire)))
        }) { Expense(try $0.created.body.json.expense) }
    }

    public func dismissPending(id: String) async throws {
        try await call({ try await api.dismissPending(path: .init(pendingId: id)) }) { _ = try $0.noContent }
    }

    /// Dismisses every date of a recurring expense still waiting to be confirmed; how many.
    public func dismissWaiting(recurringID: String) async throws -> Int {
        try await call({ try await api.dismissWaiting(path: .init(recurringId: recurringID)) }) {
            try $0.ok.body.json.dismissed
        }
    }
}

extension ExpenseDraft {
    init(_ wire: Components.Schemas.ExpenseDraft) {
        self.init(
            description: wire.description, amount: wire.amount, currency: wire.currency, category: wire.category,
            expenseDate: wire.expenseDate, paidBy: wire.paidBy?.map(MemberAmount.init), paidByMemberId: wire.paidByMemberId,
            split: wire.split.map(SplitInput.init(wire:)), splits: wire.splits?.map(MemberAmount.init),
            homeAmount: wire.homeAmount)
    }

    var wire: Components.Schemas.ExpenseDraft {
        .init(
            description: description, amount: amount, currency: currency, category: category, expenseDate: expenseDate,
            paidBy: paidBy?.map(\.wire), paidByMemberId: paidByMemberId, split: split?.wire, splits: splits?.map(\.wire),
            homeAmount: homeAmount)
    }
}

extension RecurrenceRule {
    init(_ wire: Components.Schemas.RecurrenceRule) {
        self.init(
            every: wire.every.rawValue, interval: wire.interval, weekdays: wire.weekdays, monthEnd: wire.monthEnd?.rawValue,
            startDate: wire.startDate, endDate: wire.endDate, count: wire.count)
    }

    /// The wire form; a unit or month-end this API does not have is refused here, never sent as another.
    func wire() throws -> Components.Schemas.RecurrenceRule {
        guard let unit = Components.Schemas.RecurrenceRule.EveryPayload(rawValue: every) else {
            throw SplitterError.validation(message: "every is day, week, month or year, not \"\(every)\".", field: "rule.every")
        }
        var end: Components.Schemas.RecurrenceRule.MonthEndPayload?
        if let monthEnd {
            guard let known = Components.Schemas.RecurrenceRule.MonthEndPayload(rawValue: monthEnd) else {
                throw SplitterError.validation(message: "monthEnd is clamp or skip.", field: "rule.monthEnd")
            }
            end = known
        }
        return .init(
            every: unit, interval: interval, weekdays: weekdays, monthEnd: end, startDate: startDate, endDate: endDate,
            count: count)
    }
}

extension RecurringExpense {
    init(_ wire: Components.Schemas.RecurringExpense) {
        self.init(
            id: wire.id, groupId: wire.groupId, expense: ExpenseDraft(wire.expense), categoryName: wire.categoryName,
            rule: RecurrenceRule(wire.rule), mode: wire.mode.rawValue, state: wire.state.rawValue, note: wire.note,
            nextDate: wire.nextDate, upcoming: wire.upcoming, skipped: wire.skipped, createdByUserId: wire.createdByUserId,
            version: wire.version, createdAt: wire.createdAt, updatedAt: wire.updatedAt)
    }
}

extension PendingExpense {
    init(_ wire: Components.Schemas.PendingExpense) {
        self.init(
            id: wire.id, groupId: wire.groupId, recurringId: wire.recurringId, date: wire.date,
            expense: ExpenseDraft(wire.expense), categoryName: wire.categoryName, createdAt: wire.createdAt)
    }
}
