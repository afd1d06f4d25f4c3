import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Wire ⇄ domain for expenses, in one place (STYLE §9): the API's split object and requests as
/// the use cases' entered values, and stored expenses as the API's `Expense`.
extension EnteredSplit {
    init(wire: Components.Schemas.SplitInput) {
        self.init(
            mode: Mode(rawValue: wire.mode.rawValue) ?? .equal, memberIds: wire.memberIds,
            amounts: wire.amounts.map(EnteredAmount.list),
            percents: wire.percents.map { $0.map { EnteredAmount(memberId: $0.memberId, value: $0.percent) } },
            shares: wire.shares.map { $0.map { EnteredAmount(memberId: $0.memberId, value: $0.shares) } },
            adjustments: wire.adjustments.map(EnteredAmount.list),
            items: wire.items.map {
                $0.map { Item(description: $0.description, amount: $0.amount, split: EnteredSplit(wire: $0.split)) }
            },
            extras: wire.extras.map { $0.map { Extra(description: $0.description, amount: $0.amount) } })
    }
}

extension EnteredAmount {
    static func list(_ wire: [Components.Schemas.MemberAmount]) -> [EnteredAmount] {
        wire.map { EnteredAmount(memberId: $0.memberId, value: $0.amount) }
    }
}

extension Components.Schemas.SplitInput {
    init(_ split: EnteredSplit) {
        func amounts(_ entries: [EnteredAmount]?) -> [Components.Schemas.MemberAmount]? {
            entries.map { $0.map { .init(memberId: $0.memberId, amount: $0.value) } }
        }
        self.init(
            mode: ModePayload(rawValue: split.mode.rawValue) ?? .equal, memberIds: split.memberIds,
            amounts: amounts(split.amounts),
            percents: split.percents.map { $0.map { .init(memberId: $0.memberId, percent: $0.value) } },
            shares: split.shares.map { $0.map { .init(memberId: $0.memberId, shares: $0.value) } },
            adjustments: amounts(split.adjustments),
            items: split.items.map {
                $0.map { .init(description: $0.description, amount: $0.amount, split: .init($0.split)) }
            },
            extras: split.extras.map { $0.map { .init(description: $0.description, amount: $0.amount) } })
    }

    /// A stored rule as the API shows it: amounts in major units of the expense's currency.
    init(_ rule: SplitRule, currency: String) throws {
        self.init(EnteredSplit(rule, currency: try Currency(code: currency)))
    }
}

extension EnteredExpense {
    init(wire body: Components.Schemas.CreateExpenseRequest) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate, paidBy: body.paidBy.map(EnteredAmount.list),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits.map(EnteredAmount.list), homeAmount: body.homeAmount)
    }
}

extension Components.Schemas.CreateExpenseRequest {
    /// The API request that creates this entered expense.
    init(_ entered: EnteredExpense, id: String, groupID: String) {
        self.init(
            id: id, groupId: groupID, description: entered.description, amount: entered.amount,
            currency: entered.currency, category: entered.category, expenseDate: entered.expenseDate,
            paidBy: entered.paidBy.map { $0.map { .init(memberId: $0.memberId, amount: $0.value) } },
            paidByMemberId: entered.paidByMemberId, split: entered.split.map(Components.Schemas.SplitInput.init),
            splits: entered.splits.map { $0.map { .init(memberId: $0.memberId, amount: $0.value) } },
            homeAmount: entered.homeAmount)
    }
}

extension ExpensePatch {
    init(wire body: Components.Schemas.UpdateExpenseRequest) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate, paidBy: body.paidBy.map(EnteredAmount.list),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits.map(EnteredAmount.list), homeAmount: body.homeAmount)
    }
}

extension Components.Schemas.ExpenseShare {
    init(_ share: ShareRecord, currency: String) {
        self.init(
            id: share.id.text, memberId: share.memberID.text, amount: MoneyInput.text(share.amount, currency),
            isPaid: share.isPaid, paidAt: share.paidAt.map(Date.init(milliseconds:)))
    }
}

extension Components.Schemas.Expense {
    init(_ view: ExpenseView) throws {
        let expense = view.expense
        let currency = expense.currency
        self.init(
            id: expense.id.text, groupId: expense.groupID.text, description: expense.description,
            amount: MoneyInput.text(expense.amount, currency), currency: currency, category: expense.categoryID.text,
            categoryName: view.categoryNames[expense.categoryID] ?? "Other", expenseDate: expense.expenseDate,
            createdByUserId: expense.createdByUserID.text,
            payers: expense.payers.map {
                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
            },
            splits: expense.liveShares.map { .init($0, currency: currency) },
            split: try .init(expense.rule, currency: currency),
            homeAmount: expense.homeAmount.map { MoneyInput.text($0, expense.homeCurrency ?? view.homeCurrency) },
            version: expense.version,
            createdAt: Date(milliseconds: expense.createdAt),
            updatedAt: Date(milliseconds: expense.updatedAt), isDeleted: expense.isDeleted)
    }

    init(_ expense: ExpenseRecord, categories: [UUID: String], homeCurrency: String) throws {
        try self.init(ExpenseView(expense: expense, categoryNames: categories, homeCurrency: homeCurrency))
    }
}

extension Components.Schemas.ExpenseList {
    /// A page of expenses, and the cursor of the next page when more follow.
    init(_ page: [ExpenseView], hasMore: Bool) throws {
        let next = hasMore ? page.last.map { "\($0.expense.expenseDate)_\($0.expense.id.text)" } : nil
        self.init(expenses: try page.map { try .init($0) }, nextCursor: next)
    }
}

extension Components.Schemas.HistoryEntry {
    init(_ entry: PaymentHistoryRecord, withDetails: Bool) {
        self.init(
            id: entry.id.text, expenseSplitId: entry.splitID.text, action: entry.isPaid ? .markedPaid : .markedUnpaid,
            performedByUserId: entry.performedByUserID.text, performedByName: entry.performedByName,
            performedAt: Date(milliseconds: entry.performedAt), reason: entry.reason,
            ipAddress: withDetails ? entry.ipAddress : nil, deviceInfo: withDetails ? entry.deviceInfo : nil)
    }
}
