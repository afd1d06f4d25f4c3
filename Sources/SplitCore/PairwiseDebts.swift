/// The "don't simplify" view: who owes whom, pair by pair, straight from the expenses and
/// transfers, netted per pair (A owes B 10 and B owes A 4 → A owes B 6).
///
/// Each expense's debts are an exact allocation of owed shares to payers: a member who both
/// paid and owes covers their own share first, then each debtor owes every payer in proportion
/// to what that payer is still owed (DESIGN: "with several payers, one transfer each, in
/// proportion"), in whole minor units. So every row sums to what that member owes, every column
/// to what that payer paid, and each member's pairwise nets add up to their balance.
public struct PairwiseDebts: Hashable, Sendable {
    private var owedByPair: [Currency: [Pair: Int64]] = [:]

    private struct Pair: Hashable {
        let debtor: MemberID
        let creditor: MemberID
    }

    public init() {}

    public init(expenses: some Sequence<ExpenseSplit>, transfers: some Sequence<Transfer> = []) throws(AmountError) {
        for expense in expenses { try add(expense) }
        for transfer in transfers { try add(transfer) }
    }

    /// Who owes whom because of one expense, before netting against anything else.
    public static func debts(of expense: ExpenseSplit) -> [PlannedTransfer] {
        debts(owed: expense.owed, paid: expense.paid)
    }

    /// The same from an expense's owed shares and payments as stored (each taken in member-id
    /// order, whatever order they come in), for a ledger kept in the database.
    public static func debts(owed: [MemberAmount], paid: [MemberAmount]) -> [PlannedTransfer] {
        allocate(owed: owed, paid: paid, inProportion: true)
    }

    /// Money that moved between several senders and receivers at once (another app's payment
    /// row): the fewest transfers that move it, matched in member-id order (north-west corner),
    /// rather than every sender to every receiver.
    public static func matched(owed: [MemberAmount], paid: [MemberAmount]) -> [PlannedTransfer] {
        allocate(owed: owed, paid: paid, inProportion: false)
    }

    private static func allocate(owed: [MemberAmount], paid: [MemberAmount], inProportion: Bool) -> [PlannedTransfer] {
        // A refund (payers received money): the mirror of the expense of the opposite amounts,
        // with each debt turned round: the payers owe the sharers their parts.
        if paid.contains(where: { $0.amount < 0 }) {
            return allocate(owed: owed.map(\.negated), paid: paid.map(\.negated), inProportion: inProportion).map {
                PlannedTransfer(from: $0.to, to: $0.from, amount: $0.amount)
            }
        }
        var owing = owed.sorted { $0.memberID < $1.memberID }
        var paying = paid.sorted { $0.memberID < $1.memberID }
        // A payer's own share is covered by their own payment first.
        for (index, share) in owing.enumerated() {
            guard let payerIndex = paying.firstIndex(where: { $0.memberID == share.memberID }) else { continue }
            let covered = min(share.amount, paying[payerIndex].amount)
            owing[index] = MemberAmount(share.memberID, share.amount - covered)
            paying[payerIndex] = MemberAmount(share.memberID, paying[payerIndex].amount - covered)
        }
        owing.removeAll { $0.amount == 0 }
        paying.removeAll { $0.amount == 0 }
        // Debtor by debtor, their debt split over the payers in proportion to what each is still
        // owed (largest remainder, ties to the lower member id). A part is at most what its payer
        // is still owed (below it, rounded up, while the debt is less than all still owed; exactly
        // it for the last debtor), so the last debtor takes what is left and every column comes out
        // exact (found by a new user: Aki paid 60 and Ben 40 of a dinner Cho and Dan shared, and
        // Cho's paid mark sent Aki 10 and Ben 40, where "in proportion" is 30 and 20).
        var debts: [PlannedTransfer] = []
        guard inProportion else {
            // North-west corner: exact, deterministic, every row and column sum respected.
            var (debtorIndex, payerIndex) = (0, 0)
            while debtorIndex < owing.count, payerIndex < paying.count {
                let amount = min(owing[debtorIndex].amount, paying[payerIndex].amount)
                debts.append(
                    PlannedTransfer(from: owing[debtorIndex].memberID, to: paying[payerIndex].memberID, amount: amount))
                owing[debtorIndex] = MemberAmount(owing[debtorIndex].memberID, owing[debtorIndex].amount - amount)
                paying[payerIndex] = MemberAmount(paying[payerIndex].memberID, paying[payerIndex].amount - amount)
                if owing[debtorIndex].amount == 0 { debtorIndex += 1 }
                if paying[payerIndex].amount == 0 { payerIndex += 1 }
            }
            return debts
        }
        for debtor in owing {
            let weights = paying.map { Int128(max($0.amount, 0)) }
            guard let parts = Apportionment.split(total: debtor.amount, weights: weights, tieBreak: .none) else { break }
            for (index, part) in parts.enumerated() where part != 0 {
                debts.append(PlannedTransfer(from: debtor.memberID, to: paying[index].memberID, amount: part))
                paying[index] = MemberAmount(paying[index].memberID, paying[index].amount - part)
            }
        }
        return debts
    }

    public mutating func add(_ expense: ExpenseSplit) throws(AmountError) {
        try record(Self.debts(of: expense), expense.currency)
    }

    /// Debts worked out elsewhere (a stored ledger of them), netted in like any others; an
    /// amount below zero is owed the other way.
    public mutating func add(_ debts: [PlannedTransfer], in currency: Currency) throws(AmountError) {
        try record(debts, currency)
    }

    /// A transfer from A to B pays down what A owes B (or makes B owe A).
    public mutating func add(_ transfer: Transfer) throws(AmountError) {
        try record(
            [PlannedTransfer(from: transfer.to, to: transfer.from, amount: transfer.amount.minorUnits)],
            transfer.amount.currency)
    }

    /// The netted debts in one currency, by debtor then creditor id.
    public func debts(in currency: Currency) -> [PlannedTransfer] {
        (owedByPair[currency] ?? [:]).compactMap { pair, amount in
            switch amount {
            case 0: nil
            case 1...: PlannedTransfer(from: pair.debtor, to: pair.creditor, amount: amount)
            default: PlannedTransfer(from: pair.creditor, to: pair.debtor, amount: -amount)
            }
        }.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    public var currencies: [Currency] { owedByPair.keys.sorted { $0.code < $1.code } }

    // Stored once per unordered pair, lower id first, as a signed amount (negative: the other
    // way). Every new amount is checked before any is written, so a refused update changes nothing.
    private mutating func record(_ debts: [PlannedTransfer], _ currency: Currency) throws(AmountError) {
        var pairs = owedByPair[currency] ?? [:]
        for debt in debts {
            let (key, signed) =
                debt.from < debt.to
                ? (Pair(debtor: debt.from, creditor: debt.to), debt.amount)
                : (Pair(debtor: debt.to, creditor: debt.from), -debt.amount)
            let (next, overflow) = (pairs[key] ?? 0).addingReportingOverflow(signed)
            guard !overflow, next != .min else { throw .overflow("debts in \(currency.code)") }
            pairs[key] = next == 0 ? nil : next
        }
        owedByPair[currency] = pairs.isEmpty ? nil : pairs
    }
}
