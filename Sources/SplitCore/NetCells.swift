/// A row of another app's export that gives each member only their net for it, paid − owed
/// (Splitwise's spreadsheet export, issue 18), turned back into what we store: payers and owed
/// shares for an expense, transfers for a payment. Exact: every member's net from the result
/// equals their cell to the minor unit.
public enum NetCells {
    /// The expense of `cost` whose nets are `cells` (non-zero entries, summing to zero).
    ///
    /// The members with a cell above zero paid; the cost is apportioned among them in proportion
    /// to their cells (largest remainder), and each one's own share is what they paid less their
    /// cell. The members below zero owe minus their cell. A negative cost (a refund) is the
    /// mirror: its payers are the members below zero, who received the money.
    public static func expense(
        cost: Int64, cells: [MemberAmount], tieBreak: TieBreak
    ) throws(NetCellsError) -> (payers: [MemberAmount], shares: [MemberAmount]) {
        let cells = cells.filter { $0.amount != 0 }
        guard cost != 0 else { throw cells.isEmpty ? .noEffect : .zeroCost }
        guard cost != .min, !cells.contains(where: { $0.amount == .min }) else { throw .overflow }
        if cost < 0 {
            let mirrored = try expense(cost: -cost, cells: cells.map(\.negated), tieBreak: tieBreak)
            return (mirrored.payers.map(\.negated), mirrored.shares.map(\.negated))
        }
        let sum = try checkedSum(cells.map(\.amount))
        guard sum == 0 else { throw .notBalanced(sum: sum) }
        let paying = cells.filter { $0.amount > 0 }.sorted { $0.memberID < $1.memberID }
        guard !paying.isEmpty else { throw .noEffect }
        let paidNet = try checkedSum(paying.map(\.amount))
        // Each payer's own share is paid − cell ≥ 0 only when the cost covers what the others owe.
        guard cost >= paidNet else { throw .costBelowNets(cost: cost, owedByOthers: paidNet) }
        guard
            let paid = Apportionment.split(total: cost, weights: paying.map { Int128($0.amount) }, tieBreak: tieBreak)
        else { throw .noEffect }
        var shares: [MemberAmount] = []
        for (payer, amount) in zip(paying, paid) where amount > payer.amount {
            shares.append(MemberAmount(payer.memberID, amount - payer.amount))
        }
        for cell in cells where cell.amount < 0 { shares.append(MemberAmount(cell.memberID, -cell.amount)) }
        return (
            zip(paying, paid).map { MemberAmount($0.memberID, $1) },
            shares.sorted { $0.memberID < $1.memberID }
        )
    }

    /// The transfers of a payment row: from the members above zero (who paid) to those below
    /// (who received), matched in member-id order, so each moves exactly its cell.
    /// `amount` is the row's cost, which must be what the payers sent.
    public static func transfers(amount: Int64, cells: [MemberAmount]) throws(NetCellsError) -> [PlannedTransfer] {
        let cells = cells.filter { $0.amount != 0 }
        guard !cells.isEmpty else { throw .noEffect }
        guard !cells.contains(where: { $0.amount == .min }) else { throw .overflow }
        let sum = try checkedSum(cells.map(\.amount))
        guard sum == 0 else { throw .notBalanced(sum: sum) }
        let sent = try checkedSum(cells.filter { $0.amount > 0 }.map(\.amount))
        guard sent == amount else { throw .paymentMismatch(amount: amount, moved: sent) }
        // A payment is an expense paid by the senders and owed by the receivers, with no own share:
        // its pairwise debts, turned round, are who sent whom what.
        return PairwiseDebts.matched(
            owed: cells.filter { $0.amount < 0 }.map { MemberAmount($0.memberID, -$0.amount) },
            paid: cells.filter { $0.amount > 0 }
        ).map { PlannedTransfer(from: $0.to, to: $0.from, amount: $0.amount) }
    }

    private static func checkedSum(_ values: [Int64]) throws(NetCellsError) -> Int64 {
        var sum: Int64 = 0
        for value in values {
            let (next, overflow) = sum.addingReportingOverflow(value)
            guard !overflow else { throw .overflow }
            sum = next
        }
        return sum
    }
}

/// Why a row of nets cannot be read as an expense or a payment.
public enum NetCellsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every cell is zero: the row moves no money.
    case noEffect
    /// The cells do not sum to zero: someone in the row is not in the file.
    case notBalanced(sum: Int64)
    /// A cost of zero with cells that move money.
    case zeroCost
    /// The payers' nets are more than the cost: a payer would owe less than nothing.
    case costBelowNets(cost: Int64, owedByOthers: Int64)
    /// A payment whose cost is not what its payers sent.
    case paymentMismatch(amount: Int64, moved: Int64)
    case overflow

    public var description: String {
        switch self {
        case .noEffect: "every member's cell is zero"
        case .notBalanced: "the members' cells do not add up to zero, so someone in it is not in the file"
        case .zeroCost: "the cost is zero but the members' cells are not"
        case .costBelowNets: "the cost is less than what the others owe the payers"
        case .paymentMismatch: "the payment's amount is not what its payers' cells say they sent"
        case .overflow: "an amount is too large"
        }
    }
}
