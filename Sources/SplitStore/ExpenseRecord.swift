import Foundation
import SQLKit
import SplitCore

public struct PayerRecord: Sendable, Equatable {
    public var memberID: UUID
    public var amount: Int64

    public init(memberID: UUID, amount: Int64) {
        self.memberID = memberID
        self.amount = amount
    }
}

/// One member's owed share of an expense. Its id survives edits, so paid state and history do.
public struct ShareRecord: Sendable, Equatable {
    public var id: UUID
    public var memberID: UUID
    public var amount: Int64
    public var isPaid: Bool
    public var paidAt: Int64?
    /// The member was dropped from the split by an edit; kept for its history.
    public var isRemoved: Bool

    public init(
        id: UUID, memberID: UUID, amount: Int64, isPaid: Bool = false, paidAt: Int64? = nil, isRemoved: Bool = false
    ) {
        self.id = id
        self.memberID = memberID
        self.amount = amount
        self.isPaid = isPaid
        self.paidAt = paidAt
        self.isRemoved = isRemoved
    }
}

/// An expense with its payers and shares; amounts in minor units of `currency`.
public struct ExpenseRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: UUID
    public var description: String
    public var amount: Int64
    public var currency: String
    public var categoryID: UUID
    /// YYYY-MM-DD.
    public var expenseDate: String
    /// The split rule as entered, kept for re-editing (stored as `StoredSplit`).
    public var rule: SplitRule
    /// What it cost in the home currency, when given ("charged as").
    public var homeAmount: Int64?
    /// The currency of `homeAmount`: the group's home currency when it was given.
    public var homeCurrency: String?
    public var createdByUserID: UUID
    public var isDeleted: Bool
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64
    public var payers: [PayerRecord]
    public var shares: [ShareRecord]

    public init(
        id: UUID, groupID: UUID, description: String, amount: Int64, currency: String, categoryID: UUID,
        expenseDate: String, rule: SplitRule, homeAmount: Int64? = nil, homeCurrency: String? = nil,
        createdByUserID: UUID,
        isDeleted: Bool = false, version: Int64 = 1, createdAt: Int64, updatedAt: Int64, payers: [PayerRecord],
        shares: [ShareRecord]
    ) {
        self.id = id
        self.groupID = groupID
        self.description = description
        self.amount = amount
        self.currency = currency
        self.categoryID = categoryID
        self.expenseDate = expenseDate
        self.rule = rule
        self.homeAmount = homeAmount
        self.homeCurrency = homeCurrency
        self.createdByUserID = createdByUserID
        self.isDeleted = isDeleted
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.payers = payers
        self.shares = shares
    }

    /// The shares that count (members still in the split).
    public var liveShares: [ShareRecord] { shares.filter { !$0.isRemoved } }

    /// Whether marking `share` paid would move no money: its member paid (on a refund, received)
    /// at least the share themselves, or it is 0 (SplitCore `PaidShares.nothingToPay`). The one
    /// answer the store's refusal, the API's `nothingToPay`, the web and the CLI all read.
    public func nothingToPay(_ share: ShareRecord) -> Bool {
        PaidShares.nothingToPay(
            owed: share.amount, paid: payers.first { $0.memberID == share.memberID }?.amount ?? 0, isRefund: amount < 0)
    }

    /// As SplitCore sees it, for the pairwise view and the transfers of a paid share.
    public func split() throws -> ExpenseSplit {
        let currency = try Currency(code: currency)
        return try ExpenseSplit.compute(
            total: Money(minorUnits: amount, currency: currency),
            payers: payers.map { MemberAmount(MemberID($0.memberID), $0.amount) },
            rule: .exact(liveShares.map { MemberAmount(MemberID($0.memberID), $0.amount) }),
            tieBreak: TieBreak(seed: id.text))
    }
}

public struct PaymentHistoryRecord: Sendable, Equatable {
    public var id: UUID
    public var splitID: UUID
    public var isPaid: Bool
    public var performedByUserID: UUID
    public var performedByName: String
    public var performedAt: Int64
    public var reason: String?
    public var ipAddress: String?
    public var deviceInfo: String?
}

/// A filter for the expense list; nil fields do not filter.
public struct ExpenseFilter: Sendable {
    public var categoryID: UUID?
    public var memberID: UUID?
    public var from: String?
    public var to: String?
    public var text: String?
    public var includeDeleted: Bool = false
    /// The (date, creation time, id) of the last expense of the previous page.
    public var after: (date: String, createdAt: Int64, id: UUID)?
    public var limit: Int = 50

    public init() {}
}

/// A write based on a version of the expense it no longer has; nothing was written. Holds the
/// expense as it is.
public struct StaleExpenseError: Error, Sendable {
    public let current: ExpenseRecord
}

public enum ExpenseStoreError: Error, Equatable, Sendable {
    case notFound
    /// The expense is deleted: restore it before changing its shares.
    case expenseDeleted
    /// The share is covered by what its member paid (or received) themselves: marking it paid
    /// would record nothing, and a "paid" share with no transfer would read as money that moved.
    case nothingToPay
    /// A create reused a client id that holds something else.
    case idTaken
    /// The write would move the part of a member no longer active, found so under the group's
    /// lock, and it was not confirmed: the caller asks first (someone was removed meanwhile).
    case removedPartMoves
}

extension ExpenseRecord {
    init(row: any SQLRow, payers: [PayerRecord], shares: [ShareRecord]) throws {
        let currency = try row.decode(column: "currency", as: String.self)
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            description: try row.decode(column: "description", as: String.self),
            amount: try row.decode(column: "amount", as: Int64.self), currency: currency,
            categoryID: try row.decodeUUID("category_id"),
            expenseDate: try row.decode(column: "expense_date", as: String.self),
            rule: try StoredSplit.decode(try row.decode(column: "split_json", as: String.self), currency: currency),
            homeAmount: try row.decode(column: "home_amount", as: Int64?.self),
            homeCurrency: try row.decode(column: "home_currency", as: String?.self),
            createdByUserID: try row.decodeUUID("created_by_user_id"),
            isDeleted: try row.decode(column: "is_deleted", as: Bool.self),
            version: try row.decode(column: "version", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self),
            payers: payers.sorted { $0.memberID.sortsBefore($1.memberID) },
            shares: shares.sorted { $0.memberID.sortsBefore($1.memberID) })
    }
}

extension PayerRecord {
    init(row: any SQLRow) throws {
        self.init(memberID: try row.decodeUUID("member_id"), amount: try row.decode(column: "amount", as: Int64.self))
    }
}

extension ShareRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), memberID: try row.decodeUUID("member_id"),
            amount: try row.decode(column: "amount", as: Int64.self),
            isPaid: try row.decode(column: "is_paid", as: Bool.self),
            paidAt: try row.decode(column: "paid_at", as: Int64?.self),
            isRemoved: try row.decode(column: "is_removed", as: Bool.self))
    }
}

extension ExpenseRecord {
    /// Every member the expense names, as payer or debtor.
    public var memberIDs: [UUID] { payers.map(\.memberID) + shares.map(\.memberID) }

    /// The members the expense counts now: its payers and its live shares (not a share an edit
    /// removed, kept only for its history). A member removed from the group keeps these through
    /// an edit; coming back into the split takes an active member, like a new one.
    public var countedMemberIDs: [UUID] { payers.map(\.memberID) + liveShares.map(\.memberID) }

    /// The members whose balance changes from this expense to `after`: what they paid less what
    /// they owe, in the expense's currency, or, for one whose balance it moves, what it counts
    /// in the home currency (the charged amount) or the currency itself. One who paid exactly
    /// their own share is not moved by a delete (found by review: asked about all the same).
    /// `after` nil: the expense deleted.
    public func membersWhosePartMoves(to after: ExpenseRecord?) -> Set<UUID> {
        func parts(_ expense: ExpenseRecord?) -> [UUID: (share: Int64, paid: Int64)] {
            var parts: [UUID: (share: Int64, paid: Int64)] = [:]
            for share in expense?.shares ?? [] { parts[share.memberID, default: (0, 0)].share += share.amount }
            for payer in expense?.payers ?? [] { parts[payer.memberID, default: (0, 0)].paid += payer.amount }
            return parts
        }
        let (old, new) = (parts(self), parts(after))
        let chargedMoves = after.map { $0.homeAmount != homeAmount || $0.homeCurrency != homeCurrency } ?? true
        return Set(
            Set(old.keys).union(new.keys).filter { member in
                let (was, now) = (old[member] ?? (0, 0), new[member] ?? (0, 0))
                let (before, then) = (was.paid - was.share, now.paid - now.share)
                return before != then || (before != 0 && (after?.currency != currency || chargedMoves))
            })
    }

    /// Whether `other` says the same as this expense: every field but its version and times, its
    /// payers and shares in any order. An edit that says the same is no edit.
    public func saysTheSame(as other: ExpenseRecord) -> Bool { whatItSays == other.whatItSays }

    /// The expense without its version and times, its payers, shares and split in one order.
    private var whatItSays: ExpenseRecord {
        var said = self
        (said.version, said.createdAt, said.updatedAt) = (0, 0, 0)
        said.payers.sort { ($0.memberID.uuidString, $0.amount) < ($1.memberID.uuidString, $1.amount) }
        said.shares.sort { ($0.memberID.uuidString, $0.id.uuidString) < ($1.memberID.uuidString, $1.id.uuidString) }
        said.rule = rule.inMemberOrder
        return said
    }
}

extension ShareRecord {
    /// As SplitCore's paid-share rules see it.
    var owed: OwedShare {
        OwedShare(
            id: id, memberID: MemberID(memberID), amount: amount, isPaid: isPaid, paidAt: paidAt, isRemoved: isRemoved)
    }

    init(_ share: OwedShare) {
        self.init(
            id: share.id, memberID: share.memberID.uuid, amount: share.amount, isPaid: share.isPaid,
            paidAt: share.paidAt, isRemoved: share.isRemoved)
    }
}

extension ExpenseRecord {
    var memberPayers: [MemberAmount] { payers.map { MemberAmount(MemberID($0.memberID), $0.amount) } }
}
