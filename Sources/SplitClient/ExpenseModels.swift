import Foundation
import SplitCore

// The SDK's own types for expenses: how they are split, what is sent to create or change one,
// what comes back, and the history of paid shares. Their JSON is the API's (the offline queue
// keeps new expenses and edits as this JSON; see GroupModels.swift).
//
// Amounts are decimal strings in the currency's major unit ("1200" JPY, "12.50" USD), exactly as
// the server writes them; dates of expenses are `YYYY-MM-DD`.

/// An amount for one member: a payer's part, an exact share, or an adjustment
/// (`MemberAmount(memberId:amount:)`, JSON `{"memberId", "amount"}`).
public typealias MemberAmount = EnteredAmount
/// One member's percentage in a `.percent` split (`MemberPercent(memberId:percent:)`).
public typealias MemberPercent = EnteredPercent
/// One member's weight in a `.shares` split (`MemberShares(memberId:shares:)`).
public typealias MemberShares = EnteredShares
/// How an expense's amount is divided, kept as entered so it can be edited as it was (SplitCore's
/// `EnteredSplit`, the one definition the server checks).
public typealias SplitInput = EnteredSplit
/// A line of an itemized bill, with its own split.
public typealias SplitItemInput = EnteredSplit.Item
/// Tax, tip or a discount on an itemized bill, spread over the items in proportion.
public typealias SplitExtraInput = EnteredSplit.Extra

/// A new expense, for `SplitterClient.addExpense` (and, as JSON, the offline queue).
public struct NewExpense: Codable, Hashable, Sendable {
    /// A client-generated id (a UUID, lower case): sending the same expense twice then creates it once.
    public var id: String?
    public var groupId: String
    public var description: String
    public var amount: String
    /// An ISO 4217 code, any case.
    public var currency: String
    /// A category id, or a category name of the group; nil means Other.
    public var category: String?
    /// `YYYY-MM-DD`.
    public var expenseDate: String
    /// Several payers with their amounts (they add up to `amount`).
    public var paidBy: [MemberAmount]?
    /// One payer of the whole amount (instead of `paidBy`).
    public var paidByMemberId: String?
    public var split: SplitInput?
    /// Exact shares per member (instead of `split`).
    public var splits: [MemberAmount]?
    /// What it cost in the group's home currency ("charged as"); sets the expense's own rate.
    public var homeAmount: String?

    public init(
        id: String? = nil, groupId: String, description: String, amount: String, currency: String,
        category: String? = nil, expenseDate: String, paidBy: [MemberAmount]? = nil, paidByMemberId: String? = nil,
        split: SplitInput? = nil, splits: [MemberAmount]? = nil, homeAmount: String? = nil
    ) {
        self.id = id
        self.groupId = groupId
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

/// An edit of an expense: the fields set are changed, the others stay as they are. For
/// `SplitterClient.updateExpense`, which sets `version` to the one the edit is based on.
public struct ExpenseChanges: Codable, Hashable, Sendable {
    public var description: String?
    public var amount: String?
    public var currency: String?
    /// A category id or name of the group.
    public var category: String?
    /// `YYYY-MM-DD`.
    public var expenseDate: String?
    public var paidBy: [MemberAmount]?
    public var paidByMemberId: String?
    public var split: SplitInput?
    public var splits: [MemberAmount]?
    public var homeAmount: String?
    /// Change the part of members no longer in the group all the same (else the edit is refused,
    /// `SplitterError.conflict` on `confirmRemovedShares`, saying what it would change).
    public var confirmRemovedShares: Bool?
    /// The version this edit is based on.
    public var version: Int64?

    public init(
        description: String? = nil, amount: String? = nil, currency: String? = nil, category: String? = nil,
        expenseDate: String? = nil, paidBy: [MemberAmount]? = nil, paidByMemberId: String? = nil,
        split: SplitInput? = nil, splits: [MemberAmount]? = nil, homeAmount: String? = nil,
        confirmRemovedShares: Bool? = nil, version: Int64? = nil
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
        self.confirmRemovedShares = confirmRemovedShares
        self.version = version
    }
}

/// What one member owes of an expense, and whether it is paid.
public struct ExpenseShare: Codable, Hashable, Sendable {
    /// The share's id: what `setPaid(shareID:)` and `shareHistory(shareID:)` take.
    public var id: String
    public var memberId: String
    public var amount: String
    public var isPaid: Bool
    /// When it was marked paid, while it is.
    public var paidAt: Date?
    /// Its member paid (on a refund, received) at least this share themselves, or it is 0: a mark
    /// of it paid would move no money, and the server refuses it (`nothing_to_pay`). False when
    /// not said (a server or an offline copy from before it was).
    public var nothingToPay: Bool

    public init(id: String, memberId: String, amount: String, isPaid: Bool, paidAt: Date? = nil, nothingToPay: Bool = false) {
        self.id = id
        self.memberId = memberId
        self.amount = amount
        self.isPaid = isPaid
        self.paidAt = paidAt
        self.nothingToPay = nothingToPay
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        memberId = try container.decode(String.self, forKey: .memberId)
        amount = try container.decode(String.self, forKey: .amount)
        isPaid = try container.decode(Bool.self, forKey: .isPaid)
        paidAt = try container.decodeIfPresent(Date.self, forKey: .paidAt)
        nothingToPay = try container.decodeIfPresent(Bool.self, forKey: .nothingToPay) ?? false
    }

    private enum CodingKeys: String, CodingKey {
        case id, memberId, amount, isPaid, paidAt, nothingToPay
    }

    /// As the server writes it: `nothingToPay` only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(memberId, forKey: .memberId)
        try container.encode(amount, forKey: .amount)
        try container.encode(isPaid, forKey: .isPaid)
        try container.encodeIfPresent(paidAt, forKey: .paidAt)
        if nothingToPay { try container.encode(true, forKey: .nothingToPay) }
    }
}

/// An expense as the server keeps it: who paid, each member's share, the split as entered.
public struct Expense: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var description: String
    public var amount: String
    /// An ISO 4217 code, upper case.
    public var currency: String
    /// The category's id.
    public var category: String
    public var categoryName: String
    /// `YYYY-MM-DD`.
    public var expenseDate: String
    public var createdByUserId: String
    /// Who paid how much; the amounts add up to `amount`.
    public var payers: [MemberAmount]
    /// What each member owes; the amounts add up to `amount`.
    public var splits: [ExpenseShare]
    /// The split as it was entered.
    public var split: SplitInput
    /// What it cost in the group's home currency, when given.
    public var homeAmount: String?
    /// Grows by one with every change; edits are based on it.
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date
    public var isDeleted: Bool

    public init(
        id: String, groupId: String, description: String, amount: String, currency: String, category: String,
        categoryName: String, expenseDate: String, createdByUserId: String, payers: [MemberAmount],
        splits: [ExpenseShare], split: SplitInput, homeAmount: String? = nil, version: Int64, createdAt: Date,
        updatedAt: Date, isDeleted: Bool
    ) {
        self.id = id
        self.groupId = groupId
        self.description = description
        self.amount = amount
        self.currency = currency
        self.category = category
        self.categoryName = categoryName
        self.expenseDate = expenseDate
        self.createdByUserId = createdByUserId
        self.payers = payers
        self.splits = splits
        self.split = split
        self.homeAmount = homeAmount
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isDeleted = isDeleted
    }
}

/// One line of a share's payment history: who marked it paid or unpaid, when and why.
public struct HistoryEntry: Codable, Hashable, Sendable {
    /// What was done to the share.
    public enum Action: String, Codable, Hashable, Sendable, CaseIterable {
        case markedPaid = "marked_paid"
        case markedUnpaid = "marked_unpaid"
    }

    public var id: String
    /// The share's id.
    public var expenseSplitId: String
    public var action: Action
    public var performedByUserId: String
    public var performedByName: String
    public var performedAt: Date
    public var reason: String?
    public var ipAddress: String?
    public var deviceInfo: String?

    public init(
        id: String, expenseSplitId: String, action: Action, performedByUserId: String, performedByName: String,
        performedAt: Date, reason: String? = nil, ipAddress: String? = nil, deviceInfo: String? = nil
    ) {
        self.id = id
        self.expenseSplitId = expenseSplitId
        self.action = action
        self.performedByUserId = performedByUserId
        self.performedByName = performedByName
        self.performedAt = performedAt
        self.reason = reason
        self.ipAddress = ipAddress
        self.deviceInfo = deviceInfo
    }
}
