/// An expense in a foreign currency with what it cost in the home currency ("charged as"): in
/// the home view it counts at that amount, not at the group's rate (issue 15: one expense, one
/// conversion).
public struct ChargedExpense: Sendable {
    /// Paid − owed per member, in minor units of `original`'s currency; they sum to zero.
    public let effects: [(member: MemberID, amount: Int64)]
    public let original: Money
    public let charged: Money
    /// Who gets a leftover unit among equal remainders (the expense id).
    public let tieBreak: TieBreak

    public init(effects: [(member: MemberID, amount: Int64)], original: Money, charged: Money, tieBreak: TieBreak) {
        self.effects = effects
        self.original = original
        self.charged = charged
        self.tieBreak = tieBreak
    }
}

extension HomeBalances {
    /// `convert`, with the expenses that were charged in `home` at what was charged: their
    /// effects are taken out of their currency's nets and added in `home` at their own rate,
    /// apportioned so each still sums to zero; what is left of each currency goes at the group's
    /// rate. A currency left with nothing to convert needs no rate. An expense whose own rate
    /// cannot convert (overflow) counts at the group's rate.
    public static func convert(
        _ nets: [(member: MemberID, net: Money)], charged: [ChargedExpense], to home: Currency,
        rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency]) {
        var rest: [Currency: [MemberID: Int64]] = [:]
        // One net per member and currency, as the ledger keeps them.
        for entry in nets { rest[entry.net.currency, default: [:]][entry.member] = entry.net.minorUnits }
        var atOwnRate: [MemberID: Int64] = [:]
        for expense in charged where expense.original.currency != home && expense.charged.currency == home {
            guard let rate = try? ExchangeRate(charged: expense.original, as: expense.charged),
                let converted = try? rate.convert(
                    expense.effects.map(\.amount), currency: expense.original.currency, tieBreak: expense.tieBreak)
            else { continue }
            var next = atOwnRate
            var nextRest = rest[expense.original.currency, default: [:]]
            var fits = true
            for (effect, part) in zip(expense.effects, converted) {
                let (sum, over) = next[effect.member, default: 0].addingReportingOverflow(part)
                let (left, under) = nextRest[effect.member, default: 0].subtractingReportingOverflow(effect.amount)
                guard !over, !under else {
                    fits = false
                    break
                }
                next[effect.member] = sum
                nextRest[effect.member] = left
            }
            if fits {
                atOwnRate = next
                rest[expense.original.currency] = nextRest
            }
        }
        let remaining = rest.flatMap { currency, members in
            members.filter { $0.value != 0 }.map { (member: $0.key, net: Money(minorUnits: $0.value, currency: currency)) }
        }
        var (balances, missing) = convert(remaining, to: home, rates: rates, tieBreak: tieBreak)
        for (member, amount) in atOwnRate {
            let (sum, overflow) = balances[member, default: 0].addingReportingOverflow(amount)
            guard !overflow else { return (balances, missing + [home]) }
            balances[member] = sum
        }
        return (balances.filter { $0.value != 0 }, missing)
    }
}
