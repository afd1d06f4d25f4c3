/// A manual exchange rate that holds from `date` (YYYY-MM-DD) on.
public struct DatedRate: Hashable, Sendable {
    public let rate: ExchangeRate
    public let date: String

    public init(_ rate: ExchangeRate, date: String) {
        self.rate = rate
        self.date = date
    }
}

/// Balances in the group's home currency (DESIGN §3: conversion is explicit and apportioned
/// like a split). Pure; the ledger's nets and the group's rates come in, nothing is stored.
public enum HomeBalances {
    /// The rate for `from → to` with the latest date, or the inverse of the opposite pair's
    /// latest one; on the same date the direct rate wins.
    public static func latestRate(from: Currency, to: Currency, in rates: [DatedRate]) -> ExchangeRate? {
        latestDatedRate(from: from, to: to, in: rates).map { $0.rate.from == from ? $0.rate : $0.rate.inverted }
    }

    /// The entry `latestRate` reads: the pair's own latest, or the opposite pair's when newer.
    public static func latestDatedRate(from: Currency, to: Currency, in rates: [DatedRate]) -> DatedRate? {
        let direct = rates.filter { $0.rate.from == from && $0.rate.to == to }.max { $0.date < $1.date }
        let inverse = rates.filter { $0.rate.from == to && $0.rate.to == from }.max { $0.date < $1.date }
        if let direct, direct.date >= (inverse?.date ?? "") { return direct }
        return inverse
    }

    /// For each of `rates`, whether converting its pair reads it now, one way or the other
    /// (`latestDatedRate` from each side: the home balances read toward the home currency, a personal
    /// budget in another currency may read the other way): the pair's latest, and when its
    /// opposite was set on that same day, both, each for its own direction (found by a new user:
    /// marking one of the two, a budget read the other). Shown beside the rates so nobody guesses.
    public static func counting(_ rates: [DatedRate]) -> [Bool] {
        var read: Set<DatedRate> = []
        for pair in Dictionary(grouping: rates, by: { Set([$0.rate.from, $0.rate.to]) }).values {
            let (a, b) = (pair[0].rate.from, pair[0].rate.to)
            for (from, to) in [(a, b), (b, a)] {
                if let chosen = latestDatedRate(from: from, to: to, in: pair) { read.insert(chosen) }
            }
        }
        return rates.map { read.contains($0) }
    }

    /// Each member's nets in every currency, added up in `home`: nets in other currencies are
    /// converted by their latest rate, apportioned so the converted nets of a currency still sum to
    /// exactly zero. A currency without a rate (or whose sum would overflow) is listed in
    /// `missing` and left out: then the home view is incomplete and should not be shown as a total.
    ///
    /// - Parameter nets: by currency, each currency's nets summing to zero.
    ///
    /// Each member's nets are added up, as fractions (exactly where their common denominator
    /// fits, else to a trillionth of a unit), and rounded once (`sumOnce`), so each balance is
    /// within one minor unit of its exact value at the rates (an expense charged
    /// in the home currency counts at its own charge: `convert(_:charged:…)`) (found by a new
    /// user: rounding each currency on its own and adding the results made a balance 2 cents
    /// off, and which member's depended on the group). Where the sum would overflow, each
    /// currency is converted and rounded on its own instead.
    public static func convert(
        _ nets: [(member: MemberID, net: Money)], to home: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency]) {
        if let exact = convertExactly(nets, to: home, rates: rates, tieBreak: tieBreak) { return exact }
        return convertEach(nets, to: home, rates: rates, tieBreak: tieBreak)
    }

    /// `convert` by exact fractions over one common denominator, rounded once; nil on overflow.
    static func convertExactly(
        _ nets: [(member: MemberID, net: Money)], to home: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency])? {
        totals(nets.map { (key: $0.member, money: $0.net) }, to: home, rates: rates, tieBreak: tieBreak)
            .map { (balances: $0.totals, missing: $0.missing) }
    }

    /// Amounts in one currency, by key (a member, a category), and what turns them into home
    /// minor units: minor_home = minor · scaleUp / divisor.
    struct Term<Key> {
        var entries: [(key: Key, amount: Int64)]
        var scaleUp: Int128
        var divisor: Int128

        init(entries: [(key: Key, amount: Int64)], scaleUp: Int128, divisor: Int128) {
            self.entries = entries
            self.scaleUp = scaleUp
            self.divisor = divisor
        }

        /// Amounts of `rate.from` at `rate` (minor_home = minor · n · 10^e_home / (d · 10^e_from)),
        /// reduced, so a common denominator grows no more than it must (an inverted rate's is not a
        /// power of ten); nil on overflow.
        init?(_ entries: [(key: Key, amount: Int64)], at rate: ExchangeRate) {
            let (up, upOverflow) = rate.numerator.multipliedReportingOverflow(by: Int128(rate.to.minorUnitsPerMajor))
            let (down, downOverflow) = rate.denominator.multipliedReportingOverflow(by: Int128(rate.from.minorUnitsPerMajor))
            guard !upOverflow, !downOverflow else { return nil }
            var (x, y) = (up.magnitude, down.magnitude)
            while y != 0 { (x, y) = (y, x % y) }
            self.init(entries: entries, scaleUp: up / Int128(x), divisor: down / Int128(x))
        }
    }

    /// Each key's amounts, in any currencies, added up in `home` at the latest rates and rounded
    /// once, apportioned so the totals add up to their sum rounded (what a chart's bars or a
    /// table's column show beside their total). A currency without a rate is `missing` and left
    /// out; nil where the sum would overflow.
    public static func totals<Key: Hashable & Comparable>(
        _ amounts: [(key: Key, money: Money)], to home: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> (totals: [Key: Int64], missing: [Currency])? {
        guard let (terms, missing) = terms(amounts, to: home, rates: rates) else { return nil }
        return sumOnce(terms, tieBreak: tieBreak).map { ($0, missing) }
    }

    /// Each currency's amounts as a term at its latest rate to `home` (the home currency's as
    /// they are), and the currencies without a rate; nil where a rate's scale would overflow.
    static func terms<Key>(_ amounts: [(key: Key, money: Money)], to home: Currency, rates: [DatedRate])
        -> (terms: [Term<Key>], missing: [Currency])?
    {
        var missing: [Currency] = []
        var terms: [Term<Key>] = []
        for (currency, entries) in Dictionary(grouping: amounts, by: \.money.currency).sorted(by: { $0.key.code < $1.key.code }) {
            let parts = entries.map { (key: $0.key, amount: $0.money.minorUnits) }
            if currency == home {
                terms.append(Term(entries: parts, scaleUp: 1, divisor: 1))
            } else if let rate = latestRate(from: currency, to: home, in: rates) {
                guard let term = Term(parts, at: rate) else { return nil }
                terms.append(term)
            } else {
                missing.append(currency)
            }
        }
        return (terms, missing)
    }

    /// How finely `sumOnce` counts where the terms' common denominator would overflow: a
    /// trillionth of a minor unit.
    static let fixedPoint: Int128 = 1_000_000_000_000

    /// Each member's terms added up and rounded once, apportioned so the balances sum to the
    /// total rounded. Exact over the terms' common denominator where it fits; else each term is
    /// counted to `fixedPoint` of a minor unit (found by a new user: an expense charged in the
    /// home currency rounded on its own beside the rest gave two members of the same exact
    /// balance amounts 2 cents apart, one of them 1.2 cents off); nil on overflow.
    static func sumOnce<Key: Hashable & Comparable>(_ terms: [Term<Key>], tieBreak: TieBreak) -> [Key: Int64]? {
        var denominator: Int128 = 1
        for term in terms {
            let (a, b) = (denominator, term.divisor)
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            let (lcm, overflow) = (a / x).multipliedReportingOverflow(by: b)
            guard !overflow, lcm <= fixedPoint * 1_000_000 else {
                denominator = fixedPoint
                break
            }
            denominator = lcm
        }
        var totals: [Key: Int128] = [:]
        for term in terms {
            let exact = denominator % term.divisor == 0
            for entry in term.entries {
                let (scaled, scaledOverflow) = Int128(entry.amount).multipliedReportingOverflow(by: term.scaleUp)
                guard !scaledOverflow else { return nil }
                let (product, productOverflow) =
                    exact
                    ? scaled.multipliedReportingOverflow(by: denominator / term.divisor)
                    : scaled.multipliedReportingOverflow(by: denominator)
                guard !productOverflow else { return nil }
                let part = exact ? product : ExchangeRate.roundHalfEven(product, term.divisor)
                let (sum, sumOverflow) = totals[entry.key, default: 0].addingReportingOverflow(part)
                guard !sumOverflow else { return nil }
                totals[entry.key] = sum
            }
        }
        // In key order: which member a leftover unit goes to among equal remainders depends on
        // the order (found by review: a home balance read 15.07, then 15.08).
        let keys = totals.keys.sorted()
        guard !keys.isEmpty else { return [:] }
        let numerators = keys.map { totals[$0]! }
        var sum: Int128 = 0
        for numerator in numerators {
            let (next, overflow) = sum.addingReportingOverflow(numerator)
            guard !overflow else { return nil }
            sum = next
        }
        guard let target = Int64(exactly: ExchangeRate.roundHalfEven(sum, denominator)),
            let parts = Apportionment.distribute(
                numerators: numerators, denominator: denominator, target: target, tieBreak: tieBreak)
        else { return nil }
        var balances: [Key: Int64] = [:]
        for (key, part) in zip(keys, parts) where part != 0 { balances[key] = part }
        return balances
    }

    /// `convert` one currency at a time, each apportioned on its own: what is left when the exact
    /// sum would overflow. A currency whose sum would overflow is `missing`.
    static func convertEach(
        _ nets: [(member: MemberID, net: Money)], to home: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> (balances: [MemberID: Int64], missing: [Currency]) {
        var converted: [MemberID: Int64] = [:]
        var missing: [Currency] = []
        let byCurrency = Dictionary(grouping: nets, by: \.net.currency).sorted { $0.key.code < $1.key.code }
        for (currency, unordered) in byCurrency {
            // In member order: which member a leftover unit goes to among equal remainders depends
            // on the order, and the callers' order comes from dictionaries, which differ from one
            // read to the next (found by review: a home balance read 15.07, then 15.08).
            let entries = unordered.sorted { $0.member < $1.member }
            let parts: [Int64]
            if currency == home {
                parts = entries.map(\.net.minorUnits)
            } else if let rate = latestRate(from: currency, to: home, in: rates),
                let apportioned = try? rate.convert(
                    entries.map(\.net.minorUnits), currency: currency, tieBreak: tieBreak)
            {
                parts = apportioned
            } else {
                missing.append(currency)
                continue
            }
            var next = converted
            var overflowed = false
            for (entry, part) in zip(entries, parts) {
                let (sum, overflow) = next[entry.member, default: 0].addingReportingOverflow(part)
                if overflow {
                    overflowed = true
                    break
                }
                next[entry.member] = sum
            }
            if overflowed {
                missing.append(currency)
            } else {
                converted = next
            }
        }
        return (converted.filter { $0.value != 0 }, missing)
    }
}
