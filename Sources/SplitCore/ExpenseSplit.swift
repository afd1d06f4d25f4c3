/// An expense's total, who paid it and who owes what: the result of applying a `SplitRule`.
///
/// DESIGN §3: one or more payers whose amounts sum to the total, and owed shares that sum to the
/// total, each in minor units. Both lists are in member-id order, so equal inputs give equal values.
public struct ExpenseSplit: Hashable, Sendable {
    public let total: Money
    public let paid: [MemberAmount]
    public let owed: [MemberAmount]

    public var currency: Currency { total.currency }

    /// Validates the payers and applies the rule.
    ///
    /// - Parameter tieBreak: where the rotation of leftover minor units starts; pass
    ///   `TieBreak(seed: expenseID)` so the extra cent moves around between expenses.
    public static func compute(
        total: Money,
        payers: [MemberAmount],
        rule: SplitRule,
        tieBreak: TieBreak
    ) throws(SplitError) -> ExpenseSplit {
        guard !total.isZero else { throw .zeroTotal(total) }
        if total.minorUnits < 0 { return try refund(total: total, payers: payers, rule: rule, tieBreak: tieBreak) }
        let paid = try validatedPayers(payers, total: total)
        let owed = try owedShares(total: total.minorUnits, currency: total.currency, rule: rule, tieBreak: tieBreak)
        return ExpenseSplit(total: total, paid: paid, owed: owed)
    }

    /// A negative total: a refund or income the payers received and share out (issue 18). It is
    /// the exact mirror of the expense of the opposite amount: every entered amount (payers,
    /// exact amounts, items, extras, adjustments) is negated, the split computed as for an
    /// expense, and the result negated back. So all the rules and checks of an expense hold with
    /// the signs turned (payers' amounts and items below zero, no share above zero), shares
    /// still sum to the total exactly, and a refund of an expense's amount undoes it share by
    /// share.
    private static func refund(
        total: Money, payers: [MemberAmount], rule: SplitRule, tieBreak: TieBreak
    ) throws(SplitError) -> ExpenseSplit {
        // Int64.min has no opposite; no real amount comes near it (the API caps at 10^13).
        guard total.minorUnits != .min else { throw .amount(.overflow("amount")) }
        let mirrored: ExpenseSplit
        do {
            mirrored = try compute(
                total: Money(minorUnits: -total.minorUnits, currency: total.currency),
                payers: payers.map(\.negated), rule: rule.negated, tieBreak: tieBreak)
        } catch {
            throw .inRefund(error)
        }
        return ExpenseSplit(total: total, paid: mirrored.paid.map(\.negated), owed: mirrored.owed.map(\.negated))
    }

    /// Whether this is a refund or income (a negative total) rather than an expense.
    public var isRefund: Bool { total.minorUnits < 0 }

    /// What `member` owes of this expense (0 when not among the debtors).
    public func owed(by member: MemberID) -> Int64 { owed.first { $0.memberID == member }?.amount ?? 0 }

    /// What `member` paid of this expense (0 when not a payer).
    public func paid(by member: MemberID) -> Int64 { paid.first { $0.memberID == member }?.amount ?? 0 }

    private static func validatedPayers(_ payers: [MemberAmount], total: Money) throws(SplitError) -> [MemberAmount] {
        guard !payers.isEmpty else { throw .noPayers }
        try requireUnique(payers.map(\.memberID), field: "paidBy")
        for payer in payers where payer.amount <= 0 {
            throw .payerAmountNotPositive(payer.memberID, Money(minorUnits: payer.amount, currency: total.currency))
        }
        let sum = try checkedSum(payers.map(\.amount), currency: total.currency)
        guard sum == total else { throw .payersDoNotSum(sum: sum, total: total) }
        return payers.sorted { $0.memberID < $1.memberID }
    }

    /// The owed shares for `total` minor units under `rule`, in member-id order.
    static func owedShares(
        total: Int64,
        currency: Currency,
        rule: SplitRule,
        tieBreak: TieBreak
    ) throws(SplitError) -> [MemberAmount] {
        let money = { (minor: Int64) in Money(minorUnits: minor, currency: currency) }
        switch rule {
        case .equal(let members):
            guard !members.isEmpty else { throw .noParticipants(field: "split.memberIds") }
            try requireUnique(members, field: "split.memberIds")
            let sorted = members.sorted()
            return try apportion(total, over: sorted, weights: sorted.map { _ in 1 }, tieBreak: tieBreak)

        case .exact(let amounts):
            guard !amounts.isEmpty else { throw .noParticipants(field: "split.amounts") }
            try requireUnique(amounts.map(\.memberID), field: "split.amounts")
            for entry in amounts where entry.amount < 0 {
                throw .negativeAmount(entry.memberID, money(entry.amount), field: "split.amounts")
            }
            let sum = try checkedSum(amounts.map(\.amount), currency: currency)
            guard sum.minorUnits == total else { throw .exactAmountsDoNotSum(sum: sum, total: money(total)) }
            return amounts.sorted { $0.memberID < $1.memberID }

        case .percent(let percents):
            let (members, units, scale) = try weights(percents, field: "split.percents")
            let hundred = Int128(100) * Int128(Decimal10.power(scale))
            guard units.reduce(0, +) == hundred else {
                let sum = DecimalValue(significand: Int64(units.reduce(0, +)), scale: scale)
                throw .percentagesDoNotSum(sum)
            }
            return try apportion(total, over: members, weights: units, tieBreak: tieBreak)

        case .shares(let shares):
            let (members, units, _) = try weights(shares, field: "split.shares")
            guard units.contains(where: { $0 > 0 }) else { throw .weightsAllZero }
            return try apportion(total, over: members, weights: units, tieBreak: tieBreak)

        case .adjustment(let members, let adjustments):
            guard !members.isEmpty else { throw .noParticipants(field: "split.memberIds") }
            try requireUnique(members, field: "split.memberIds")
            try requireUnique(adjustments.map(\.memberID), field: "split.adjustments")
            let participants = Set(members)
            for entry in adjustments where !participants.contains(entry.memberID) {
                throw .adjustmentForNonParticipant(entry.memberID)
            }
            let adjustmentSum = try checkedSum(adjustments.map(\.amount), currency: currency)
            let (base, overflow) = total.subtractingReportingOverflow(adjustmentSum.minorUnits)
            guard !overflow else { throw .amount(.overflow("adjustments")) }
            guard base >= 0 else { throw .adjustmentsExceedTotal(base: money(base)) }
            let equalParts = try owedShares(total: base, currency: currency, rule: .equal(members), tieBreak: tieBreak)
            let adjustmentByMember = Dictionary(uniqueKeysWithValues: adjustments.map { ($0.memberID, $0.amount) })
            return try equalParts.map { part throws(SplitError) in
                let (share, overflow) = part.amount.addingReportingOverflow(adjustmentByMember[part.memberID] ?? 0)
                guard !overflow else { throw .amount(.overflow("adjustments")) }
                guard share >= 0 else { throw .negativeShare(part.memberID, money(share)) }
                return MemberAmount(part.memberID, share)
            }

        case .itemized(let items, let extras):
            return try itemizedShares(
                total: total, currency: currency, items: items, extras: extras, tieBreak: tieBreak)
        }
    }

    private static func itemizedShares(
        total: Int64,
        currency: Currency,
        items: [SplitItem],
        extras: [SplitExtra],
        tieBreak: TieBreak
    ) throws(SplitError) -> [MemberAmount] {
        let money = { (minor: Int64) in Money(minorUnits: minor, currency: currency) }
        guard !items.isEmpty else { throw .noItems }
        for (index, item) in items.enumerated() {
            guard item.amount > 0 else { throw .itemAmountNotPositive(index: index, money(item.amount)) }
            if case .itemized = item.rule { throw .nestedItemized(index: index) }
        }
        let sum = try checkedSum(items.map(\.amount) + extras.map(\.amount), currency: currency)
        guard sum.minorUnits == total else { throw .itemsDoNotSum(sum: sum, total: money(total)) }
        // Items are positive and, with the extras, sum to the total, so no subtotal below can overflow.
        _ = try checkedSum(items.map(\.amount), currency: currency)

        var subtotals: [MemberID: Int64] = [:]
        for (index, item) in items.enumerated() {
            // Each line rotates from its own point, so one person does not collect every line's extra cent.
            let lineTieBreak = TieBreak(rawSeed: tieBreak.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let lineShares: [MemberAmount]
            do {
                lineShares = try owedShares(
                    total: item.amount, currency: currency, rule: item.rule, tieBreak: lineTieBreak)
            } catch {
                throw .inItem(index: index, error)
            }
            for share in lineShares { subtotals[share.memberID, default: 0] += share.amount }
        }

        // Extras are spread pro rata to the line subtotals (DESIGN §3); a negative extra (a
        // discount) is apportioned the same way, floor division handles the sign.
        let members = subtotals.keys.sorted()
        let itemSum = members.reduce(Int128(0)) { $0 + Int128(subtotals[$1]!) }
        let extraSum = Int64(Int128(total) - itemSum)
        // Each part lies between 0 and the extras' sum, so it always fits.
        let extraParts =
            extraSum == 0
            ? members.map { _ in Int64(0) }
            : Apportionment.distribute(
                numerators: members.map { Int128(extraSum) * Int128(subtotals[$0]!) },
                denominator: itemSum,
                target: extraSum,
                tieBreak: tieBreak
            )!
        return try zip(members, extraParts).map { member, extra throws(SplitError) in
            let share = subtotals[member]! + extra
            guard share >= 0 else { throw .negativeShare(member, money(share)) }
            return MemberAmount(member, share)
        }
    }

    /// Member-ordered weights at one common scale, so "1.5" and "2" compare as 15 and 20.
    private static func weights(
        _ entries: [MemberDecimal],
        field: String
    ) throws(SplitError) -> (members: [MemberID], units: [Int128], scale: Int) {
        guard !entries.isEmpty else { throw .noParticipants(field: field) }
        try requireUnique(entries.map(\.memberID), field: field)
        for entry in entries where entry.value.isNegative {
            throw .negativeWeight(entry.memberID, entry.value, field: field)
        }
        let sorted = entries.sorted { $0.memberID < $1.memberID }
        let scale = sorted.map(\.value.scale).max() ?? 0
        let units = sorted.map { Int128($0.value.significand) * Int128(Decimal10.power(scale - $0.value.scale)) }
        // Sums are formed in Int128; a sum beyond Int64 could not be 100% nor a sensible weight.
        guard units.reduce(Int128(0), +) <= Int128(Int64.max) else { throw .amount(.overflow(field)) }
        return (sorted.map(\.memberID), units, scale)
    }

    private static func apportion(
        _ total: Int64,
        over members: [MemberID],
        weights: [Int128],
        tieBreak: TieBreak
    ) throws(SplitError) -> [MemberAmount] {
        guard let parts = Apportionment.split(total: total, weights: weights, tieBreak: tieBreak) else {
            throw .weightsAllZero
        }
        return zip(members, parts).map { MemberAmount($0, $1) }
    }

    private static func requireUnique(_ members: [MemberID], field: String) throws(SplitError) {
        var seen = Set<MemberID>()
        for member in members where !seen.insert(member).inserted {
            throw .duplicateMember(member, field: field)
        }
    }

    private static func checkedSum(_ amounts: [Int64], currency: Currency) throws(SplitError) -> Money {
        do {
            return try Money.sum(amounts, currency: currency)
        } catch {
            throw .amount(error)
        }
    }
}
