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
    /// effects are taken out of their currency's nets and count in `home` at their own rate;
    /// what is left of each currency goes at the group's rate. A currency left with nothing to
    /// convert needs no rate. Each member's parts are added up and rounded once (`sumOnce`), so
    /// two members with the same exact balance read the same to within the one unit the total
    /// needs. An expense whose own rate cannot convert (overflow) counts at the group's rate;
    /// where the sum would overflow, each charged expense is rounded on its own, then the rest.
    public static func convert(
        _ nets: [(member: MemberID, net: Money)], charged: [ChargedExpense], to home: Currency,
        rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency]) {
        var rest: [Currency: [MemberID: Int64]] = [:]
        // One net per member and currency, as the ledger keeps them.
        for entry in nets { rest[entry.net.currency, default: [:]][entry.member] = entry.net.minorUnits }
        var own: [(expense: ChargedExpense, term: Term<MemberID>)] = []
        for expense in charged where expense.original.currency != home && expense.charged.currency == home {
            guard let rate = try? ExchangeRate(charged: expense.original, as: expense.charged),
                let term = Term(expense.effects.map { ($0.member, $0.amount) }, at: rate)
            else { continue }
            var nextRest = rest[expense.original.currency, default: [:]]
            var fits = true
            for effect in expense.effects {
                let (left, under) = nextRest[effect.member, default: 0].subtractingReportingOverflow(effect.amount)
                guard !under else {
                    fits = false
                    break
                }
                nextRest[effect.member] = left
            }
            if fits {
                own.append((expense, term))
                rest[expense.original.currency] = nextRest
            }
        }
        let remaining = rest.flatMap { currency, members in
            members.filter { $0.value != 0 }.map { (member: $0.key, net: Money(minorUnits: $0.value, currency: currency)) }
        }
        if let (rest, missing) = terms(remaining.map { (key: $0.member, money: $0.net) }, to: home, rates: rates),
            let once = sumOnce(own.map(\.term) + rest, tieBreak: tieBreak)
        {
            return (once, missing)
        }
        return convertEach(remaining, charged: own.map(\.expense), to: home, rates: rates, tieBreak: tieBreak)
    }

    /// What `convert` falls back on where one sum would overflow: each charged expense converted
    /// and rounded on its own, then the rest.
    static func convertEach(
        _ remaining: [(member: MemberID, net: Money)], charged: [ChargedExpense], to home: Currency,
        rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency]) {
        var (balances, missing) = convert(remaining, to: home, rates: rates, tieBreak: tieBreak)
        for expense in charged {
            guard let rate = try? ExchangeRate(charged: expense.original, as: expense.charged),
                let converted = try? rate.convert(
                    expense.effects.map(\.amount), currency: expense.original.currency, tieBreak: expense.tieBreak)
            else { return (balances, missing + [home]) }
            for (effect, part) in zip(expense.effects, converted) {
                let (sum, overflow) = balances[effect.member, default: 0].addingReportingOverflow(part)
                guard !overflow else { return (balances, missing + [home]) }
                balances[effect.member] = sum
            }
        }
        return (balances.filter { $0.value != 0 }, missing)
    }
}
