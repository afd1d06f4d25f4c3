import Foundation

/// One member's owed share of a stored expense: its id survives edits, so its paid mark and its
/// history do (DESIGN §3).
public struct OwedShare: Hashable, Sendable {
    public var id: UUID
    public var memberID: MemberID
    public var amount: Int64
    public var isPaid: Bool
    public var paidAt: Int64?
    /// The member was dropped from the split by an edit; the share stays for its history.
    public var isRemoved: Bool

    public init(
        id: UUID, memberID: MemberID, amount: Int64, isPaid: Bool = false, paidAt: Int64? = nil,
        isRemoved: Bool = false
    ) {
        self.id = id
        self.memberID = memberID
        self.amount = amount
        self.isPaid = isPaid
        self.paidAt = paidAt
        self.isRemoved = isRemoved
    }
}

/// The money rules of paid marks (DESIGN §3): what marking a share paid records, and what an edit
/// of the expense does to the shares already marked. Pure; the store writes what these decide.
public enum PaidShares {
    /// Marking `debtor`'s share paid records the transfers debtor → payer(s) that settle it: the
    /// debtor's pairwise debts of this one expense (several payers: one transfer each, in
    /// proportion). A debtor who is also a payer owes only what they did not pay themselves.
    ///
    /// A refund's share is the other way round: marking it paid records the transfers from the
    /// payer(s), who received the money, to the member whose part it is.
    public static func transfers(settling debtor: MemberID, of split: ExpenseSplit) -> [PlannedTransfer] {
        let debts = PairwiseDebts.debts(of: split)
        return split.isRefund ? debts.filter { $0.to == debtor } : debts.filter { $0.from == debtor }
    }

    /// Whether marking a share paid would move no money (`transfers(settling:)` is empty, as the
    /// property tests check): its member paid at least the share themselves, or, on a refund,
    /// received at least their part; a share of 0 included. The store refuses such a mark
    /// (`nothing_to_pay`); the API says it of each share, and the web and the CLI read that.
    public static func nothingToPay(owed: Int64, paid: Int64, isRefund: Bool) -> Bool {
        isRefund ? paid <= owed : paid >= owed
    }

    /// Why such a share has nothing to settle, as the server refuses a mark of it and the CLI
    /// says it offline: `member` nil is the reader's own ("You paid at least your own share of
    /// Taxi: there is nothing to settle.").
    public static func nothingToPaySentence(member: String?, isZero: Bool, isRefund: Bool, expense: String) -> String {
        let whose = isRefund ? "part" : "share"
        return
            (isZero
            ? "\(member.map { "\($0)'s" } ?? "Your") \(whose) of \(expense) is 0"
            : "\(member ?? "You") \(isRefund ? "received" : "paid") at least \(member == nil ? "your" : "their") own \(whose) of \(expense)")
            + ": there is nothing to settle."
    }

    /// The shares of the edited expense: the new computed shares (with fresh ids) by member,
    /// keeping the old share's id and paid mark where the member had one; a member no longer in
    /// the split keeps a removed share of 0 so its history survives, and a member back in the
    /// split gets their old share back. Sorted by member.
    public static func merge(old: [OwedShare], new: [OwedShare]) -> [OwedShare] {
        var byMember = Dictionary(old.map { ($0.memberID, $0) }, uniquingKeysWith: { first, _ in first })
        var merged: [OwedShare] = []
        for share in new {
            if var existing = byMember.removeValue(forKey: share.memberID) {
                existing.amount = share.amount
                existing.isRemoved = false
                merged.append(existing)
            } else {
                merged.append(share)
            }
        }
        for var dropped in byMember.values {
            dropped.amount = 0
            dropped.isRemoved = true
            merged.append(dropped)
        }
        return merged.sorted { $0.memberID < $1.memberID }
    }

    /// The paid shares an edit voids: a paid mark stands for the transfers it recorded, of one
    /// amount, in one currency, to these payers; when the edit changes any of that (or drops the
    /// member), the share is no longer paid as recorded. That includes a share whose amount stays
    /// while the transfers marking it paid would record change: with several payers, a debtor's
    /// part of each payer depends on the other shares too (`PairwiseDebts`). Its transfers stay
    /// recorded as plain settlements (money that moved is never erased), so the balances show
    /// what is still owed either way.
    ///
    /// - Returns: the ids of the shares in `next` to unmark, in `next`'s order.
    public static func voidedByEdit(
        before: (payers: [MemberAmount], currency: Currency, shares: [OwedShare]),
        after: (payers: [MemberAmount], currency: Currency, shares: [OwedShare])
    ) -> [UUID] {
        let payersChanged =
            before.currency != after.currency
            || before.payers.sorted(by: { $0.memberID < $1.memberID })
                != after.payers.sorted(by: { $0.memberID < $1.memberID })
        let oldAmounts = Dictionary(before.shares.map { ($0.id, $0.amount) }, uniquingKeysWith: { first, _ in first })
        let recorded = settling(payers: before.payers, shares: before.shares)
        let now = settling(payers: after.payers, shares: after.shares)
        return after.shares.filter { share in
            share.isPaid
                && (payersChanged || share.isRemoved || oldAmounts[share.id] != share.amount
                    || recorded[share.memberID] != now[share.memberID])
        }.map(\.id)
    }

    /// What marking each member's share paid records (`transfers(settling:of:)`), from the
    /// payers and the live shares as stored.
    static func settling(payers: [MemberAmount], shares: [OwedShare]) -> [MemberID: [PlannedTransfer]] {
        let owed = shares.filter { !$0.isRemoved }.map { MemberAmount($0.memberID, $0.amount) }
        let refund = payers.contains { $0.amount < 0 }
        return Dictionary(grouping: PairwiseDebts.debts(owed: owed, paid: payers)) { refund ? $0.to : $0.from }
    }
}
