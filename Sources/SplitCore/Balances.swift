/// Each member's net position per currency: paid − owed + sent − received (DESIGN §3).
///
/// Positive means the group owes the member; negative means the member owes the group. In every
/// currency the nets sum to exactly zero, because every expense adds as much paid as owed and
/// every transfer as much sent as received. Zero nets are not stored, so two `Balances` built by
/// different routes (a running ledger, a full recomputation) compare equal when they agree.
public struct Balances: Hashable, Sendable {
    // A few currencies per group, each with its nets sorted by member id: updates are a binary
    // search with no hashing, which keeps a full recomputation over 100,000 expenses fast
    // (docs/benchmarks.md), and listing in member order needs no sort.
    private var ledgers: [CurrencyNets] = []

    public init() {}

    /// Balances from scratch: every expense and transfer, in any order.
    public init(expenses: some Sequence<ExpenseSplit>, transfers: some Sequence<Transfer> = []) throws(AmountError) {
        for expense in expenses { try add(expense) }
        for transfer in transfers { try add(transfer) }
    }

    public mutating func add(_ expense: ExpenseSplit) throws(AmountError) { try apply(expense, sign: 1) }

    /// Undoes `add(expense)`: for a deleted expense, or the old version of an edited one.
    public mutating func remove(_ expense: ExpenseSplit) throws(AmountError) { try apply(expense, sign: -1) }

    public mutating func add(_ transfer: Transfer) throws(AmountError) { try apply(transfer, sign: 1) }

    /// Undoes `add(transfer)`: for a voided paid mark or a deleted settlement.
    public mutating func remove(_ transfer: Transfer) throws(AmountError) { try apply(transfer, sign: -1) }

    /// The member's net in that currency (0 when they have none).
    public func net(of member: MemberID, in currency: Currency) -> Int64 {
        guard let ledger = ledgers.first(where: { $0.currency == currency }) else { return 0 }
        let (index, found) = ledger.position(of: member)
        return found ? ledger.nets[index] : 0
    }

    /// The non-zero nets in one currency.
    public func nets(in currency: Currency) -> [MemberID: Int64] {
        guard let ledger = ledgers.first(where: { $0.currency == currency }) else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(ledger.members, ledger.nets))
    }

    /// Currencies with at least one non-zero net, by code.
    public var currencies: [Currency] { ledgers.map(\.currency).sorted { $0.code < $1.code } }

    /// Every non-zero net, by currency code then member id.
    public var entries: [BalanceEntry] {
        ledgers.sorted { $0.currency.code < $1.currency.code }.flatMap { ledger in
            zip(ledger.members, ledger.nets).map {
                BalanceEntry(memberID: $0, net: Money(minorUnits: $1, currency: ledger.currency))
            }
        }
    }

    // Equal when the same non-zero nets are held, whatever order currencies first appeared in.
    public static func == (lhs: Balances, rhs: Balances) -> Bool {
        lhs.ledgers.sorted { $0.currency.code < $1.currency.code }
            == rhs.ledgers.sorted { $0.currency.code < $1.currency.code }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ledgers.sorted { $0.currency.code < $1.currency.code })
    }

    private mutating func apply(_ expense: ExpenseSplit, sign: Int64) throws(AmountError) {
        try apply(in: expense.currency) { body in
            Self.forEachDelta(expense) { member, amount in body(member, sign * amount) }
        }
    }

    private mutating func apply(_ transfer: Transfer, sign: Int64) throws(AmountError) {
        let amount = sign * transfer.amount.minorUnits
        try apply(in: transfer.amount.currency) { body in
            body(transfer.from, amount)
            body(transfer.to, -amount)
        }
    }

    /// Adds the deltas that `deltas` yields to one currency's nets in place. If one would
    /// overflow, those already added are taken back out, so a refused update changes nothing.
    /// (This runs once per expense in a full recomputation: it allocates nothing.)
    private mutating func apply(
        in currency: Currency,
        _ deltas: (_ body: (MemberID, Int64) -> Void) -> Void
    ) throws(AmountError) {
        let index =
            ledgers.firstIndex { $0.currency == currency }
            ?? {
                ledgers.append(CurrencyNets(currency: currency))
                return ledgers.count - 1
            }()
        defer { if ledgers[index].members.isEmpty { ledgers.remove(at: index) } }
        var applied = 0
        var failed = false
        deltas { member, amount in
            guard !failed else { return }
            if ledgers[index].add(amount, to: member) { applied += 1 } else { failed = true }
        }
        guard failed else { return }
        var undone = 0
        deltas { member, amount in
            guard undone < applied else { return }
            _ = ledgers[index].add(-amount, to: member)
            undone += 1
        }
        throw .overflow("balance in \(currency.code)")
    }

    private static func forEachDelta(_ expense: ExpenseSplit, _ body: (MemberID, Int64) -> Void) {
        let paid = expense.paid
        let owed = expense.owed
        var paidIndex = 0
        var owedIndex = 0
        while paidIndex < paid.count || owedIndex < owed.count {
            if owedIndex == owed.count
                || (paidIndex < paid.count && paid[paidIndex].memberID < owed[owedIndex].memberID)
            {
                body(paid[paidIndex].memberID, paid[paidIndex].amount)
                paidIndex += 1
            } else if paidIndex == paid.count || owed[owedIndex].memberID < paid[paidIndex].memberID {
                body(owed[owedIndex].memberID, -owed[owedIndex].amount)
                owedIndex += 1
            } else {
                body(paid[paidIndex].memberID, paid[paidIndex].amount - owed[owedIndex].amount)
                paidIndex += 1
                owedIndex += 1
            }
        }
    }
}

/// One currency's non-zero nets, in member-id order (parallel arrays).
private struct CurrencyNets: Hashable, Sendable {
    let currency: Currency
    var members: [MemberID] = []
    var nets: [Int64] = []

    init(currency: Currency) { self.currency = currency }

    /// Where `member` is, or where it would be inserted.
    func position(of member: MemberID) -> (index: Int, found: Bool) {
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle] < member { low = middle + 1 } else { high = middle }
        }
        return (low, low < members.count && members[low] == member)
    }

    /// Adds `amount` to the member's net; false (and nothing changed) on overflow.
    mutating func add(_ amount: Int64, to member: MemberID) -> Bool {
        guard amount != 0 else { return true }
        let (index, found) = position(of: member)
        guard found else {
            members.insert(member, at: index)
            nets.insert(amount, at: index)
            return true
        }
        let (next, overflow) = nets[index].addingReportingOverflow(amount)
        guard !overflow else { return false }
        if next == 0 {
            members.remove(at: index)
            nets.remove(at: index)
        } else {
            nets[index] = next
        }
        return true
    }
}

/// One member's net in one currency.
public struct BalanceEntry: Hashable, Sendable {
    public let memberID: MemberID
    public let net: Money
}
