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
    /// Each member's nets are added up exactly, as fractions, and rounded once, so each balance is
    /// within one minor unit of its exact value at the rates (an expense charged in the home
    /// currency counts at its own charge, rounded with that expense: `convert(_:charged:…)`) (found by a new user: rounding each currency on its
    /// own and adding the results made a balance 2 cents off, and which member's depended on the
    /// group). Where the exact sum would overflow, each currency is converted and rounded on its
    /// own instead.
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
        var missing: [Currency] = []
        // Each currency's nets as numerators over its own divisor, in home minor units:
        // minor_home = minor · n · 10^e_home / (d · 10^e_from).
        var terms: [(entries: [(member: MemberID, net: Money)], scaleUp: Int128, divisor: Int128)] = []
        for (currency, entries) in Dictionary(grouping: nets, by: \.net.currency).sorted(by: { $0.key.code < $1.key.code }) {
            if currency == home {
                terms.append((entries, 1, 1))
            } else if let rate = latestRate(from: currency, to: home, in: rates) {
                let (up, upOverflow) = rate.numerator.multipliedReportingOverflow(by: Int128(home.minorUnitsPerMajor))
                let (down, downOverflow) = rate.denominator.multipliedReportingOverflow(by: Int128(currency.minorUnitsPerMajor))
                guard !upOverflow, !downOverflow else { return nil }
                // Reduced, so the common denominator grows no more than it must (an inverted rate's
                // is not a power of ten).
                var (x, y) = (up.magnitude, down.magnitude)
                while y != 0 { (x, y) = (y, x % y) }
                terms.append((entries, up / Int128(x), down / Int128(x)))
            } else {
                missing.append(currency)
            }
        }
        var denominator: Int128 = 1
        for term in terms {
            let (a, b) = (denominator, term.divisor)
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            let (lcm, overflow) = (a / x).multipliedReportingOverflow(by: b)
            guard !overflow else { return nil }
            denominator = lcm
        }
        var totals: [MemberID: Int128] = [:]
        for term in terms {
            let (scale, overflow) = term.scaleUp.multipliedReportingOverflow(by: denominator / term.divisor)
            guard !overflow else { return nil }
            for entry in term.entries {
                let (part, partOverflow) = Int128(entry.net.minorUnits).multipliedReportingOverflow(by: scale)
                let (sum, sumOverflow) = totals[entry.member, default: 0].addingReportingOverflow(part)
                guard !partOverflow, !sumOverflow else { return nil }
                totals[entry.member] = sum
            }
        }
        // In member order: which member a leftover unit goes to among equal remainders depends
        // on the order (found by review: a home balance read 15.07, then 15.08).
        let members = totals.keys.sorted()
        guard !members.isEmpty else { return ([:], missing) }
        let numerators = members.map { totals[$0]! }
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
        var balances: [MemberID: Int64] = [:]
        for (member, part) in zip(members, parts) where part != 0 { balances[member] = part }
        return (balances, missing)
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
