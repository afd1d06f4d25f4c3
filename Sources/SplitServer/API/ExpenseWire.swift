import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Wire ⇄ domain for expenses, in one place (STYLE §9): the API's split object and requests as
/// the use cases' entered values, and stored expenses as the API's `Expense`.
extension Components.Schemas.SplitInput {
    /// A stored rule as the API shows it: amounts in major units of the expense's currency.
    init(_ rule: SplitRule, currency: String) throws {
        self = EnteredSplit(rule, currency: try Currency(code: currency)).wire
    }
}

extension EnteredExpense {
    init(wire body: Components.Schemas.CreateExpenseRequest) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate, paidBy: body.paidBy?.map(EnteredAmount.init),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits?.map(EnteredAmount.init), homeAmount: body.homeAmount)
    }
}

extension Components.Schemas.CreateExpenseRequest {
    /// The API request that creates this entered expense.
    init(_ entered: EnteredExpense, id: String, groupID: String) {
        self.init(
            id: id, groupId: groupID, description: entered.description, amount: entered.amount,
            currency: entered.currency, category: entered.category, expenseDate: entered.expenseDate,
            paidBy: entered.paidBy?.map(\.wire), paidByMemberId: entered.paidByMemberId, split: entered.split?.wire,
            splits: entered.splits?.map(\.wire), homeAmount: entered.homeAmount)
    }
}

/// An expense without its group (a recurring expense's template, a pending or quick-entry one).
extension EnteredExpense {
    init(wire body: Components.Schemas.ExpenseDraft) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate ?? "", paidBy: body.paidBy?.map(EnteredAmount.init),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits?.map(EnteredAmount.init), homeAmount: body.homeAmount)
    }
}

extension Components.Schemas.ExpenseDraft {
    init(_ entered: EnteredExpense) {
        self.init(
            description: entered.description, amount: entered.amount, currency: entered.currency,
            category: entered.category, expenseDate: entered.expenseDate.isEmpty ? nil : entered.expenseDate,
            paidBy: entered.paidBy?.map(\.wire), paidByMemberId: entered.paidByMemberId, split: entered.split?.wire,
            splits: entered.splits?.map(\.wire), homeAmount: entered.homeAmount)
    }
}

extension ExpensePatch {
    init(wire body: Components.Schemas.UpdateExpenseRequest) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate, paidBy: body.paidBy?.map(EnteredAmount.init),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits?.map(EnteredAmount.init), homeAmount: body.homeAmount,
            confirmRemovedShares: body.confirmRemovedShares ?? false)
    }
}

extension Components.Schemas.ExpenseShare {
    /// `nothingToPay` is written only when true (`ExpenseRecord.nothingToPay`).
    init(_ share: ShareRecord, currency: String, nothingToPay: Bool) {
        self.init(
            id: share.id.text, memberId: share.memberID.text, amount: MoneyInput.text(share.amount, currency),
            isPaid: share.isPaid, paidAt: share.paidAt.map(Date.init(milliseconds:)), nothingToPay: nothingToPay ? true : nil)
    }
}

extension Components.Schemas.Expense {
    init(_ view: ExpenseView) throws {
        let expense = view.expense
        let currency = expense.currency
        self.init(
            id: expense.id.text, groupId: expense.groupID.text, description: expense.description,
            amount: MoneyInput.text(expense.amount, currency), currency: currency, category: expense.categoryID.text,
            categoryName: view.categoryName, expenseDate: expense.expenseDate,
            createdByUserId: expense.createdByUserID.text,
            payers: expense.payers.map {
                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
            },
            splits: expense.liveShares.map { .init($0, currency: currency, nothingToPay: expense.nothingToPay($0)) },
            split: try .init(expense.rule, currency: currency),
            homeAmount: view.shownHomeAmount.map { MoneyInput.text($0, view.homeAmountCurrency) },
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
        self.init(expenses: try page.map { try .init($0) }, nextCursor: Self.nextCursor(page, hasMore: hasMore))
    }

    /// The cursor of the page after `page`, when more follow.
    static func nextCursor(_ page: [ExpenseView], hasMore: Bool) -> String? {
        hasMore ? page.last.map { "\($0.expense.expenseDate)_\($0.expense.createdAt)_\($0.expense.id.text)" } : nil
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
