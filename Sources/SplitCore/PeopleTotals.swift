/// What each member paid for a group's expenses and what their shares came to, in one currency:
/// "who paid the most?", "how much did I spend?" (Spliit's and Splitwise's totals per person).
///
/// Each member's paid amounts are converted by the group's latest rates, added up and
/// apportioned over the members like a split, once over every currency, and the shares the same
/// way, so in the target currency the paid amounts still add up to the total and so do the
/// shares. A currency without a rate is returned in `missing` and left out of every figure,
/// never counted as zero without saying so. Transfers between members are not spending and are
/// not in the input.
public enum PeopleTotals {
    /// One member's sums in one currency.
    public struct Entry: Hashable, Sendable {
        public var member: MemberID
        public var currency: Currency
        public var paid: Int64
        public var share: Int64

        public init(member: MemberID, currency: Currency, paid: Int64, share: Int64) {
            self.member = member
            self.currency = currency
            self.paid = paid
            self.share = share
        }
    }

    /// One member's figures in the target currency.
    public struct Person: Hashable, Sendable {
        public var member: MemberID
        public var paid: Int64
        public var share: Int64
    }

    public struct Result: Hashable, Sendable {
        /// In member order (`MemberID`'s, the database's), none twice: every member of the input
        /// with a figure other than zero.
        public var people: [Person]
        /// What was spent in all: the paid amounts' sum, which is the shares' sum.
        public var total: Int64
        /// Currencies with no rate to the target, by code.
        public var missing: [Currency]
    }

    /// `tieBreak`: the group id, so a leftover unit of a conversion goes the same way each time.
    /// Each member's paid amounts in every currency are added up and rounded once, and so are
    /// their shares (`HomeBalances.totals`; found by a new user: each currency's column rounded
    /// on its own and added made a share 2 cents from its exact value, and two members with the
    /// same shares 2 cents apart); where that would overflow, each currency's column is
    /// converted on its own.
    public static func convert(
        _ entries: [Entry], to target: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> Result {
        let money = { (entry: Entry, amount: Int64) in (key: entry.member, money: Money(minorUnits: amount, currency: entry.currency)) }
        if let paid = HomeBalances.totals(entries.map { money($0, $0.paid) }, to: target, rates: rates, tieBreak: tieBreak),
            let share = HomeBalances.totals(entries.map { money($0, $0.share) }, to: target, rates: rates, tieBreak: tieBreak)
        {
            let people = Set(paid.totals.keys).union(share.totals.keys).sorted().map {
                Person(member: $0, paid: paid.totals[$0] ?? 0, share: share.totals[$0] ?? 0)
            }
            return Result(
                people: people, total: paid.totals.values.reduce(0, +),
                missing: Set(paid.missing + share.missing).sorted { $0.code < $1.code })
        }
        return convertEach(entries, to: target, rates: rates, tieBreak: tieBreak)
    }

    /// `convert` one currency's columns at a time: where the one sum would overflow.
    static func convertEach(
        _ entries: [Entry], to target: Currency, rates: [DatedRate], tieBreak: TieBreak
    ) -> Result {
        let members = Array(Set(entries.map(\.member))).sorted()
        let index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1, $0) })
        var paid = [Int128](repeating: 0, count: members.count)
        var share = [Int128](repeating: 0, count: members.count)
        var missing: [Currency] = []
        let byCurrency = Dictionary(grouping: entries, by: \.currency)
        for (currency, rows) in byCurrency.sorted(by: { $0.key.code < $1.key.code }) {
            var columns = ([Int64](repeating: 0, count: members.count), [Int64](repeating: 0, count: members.count))
            var fits = true
            for row in rows {
                let at = index[row.member]!
                let (p, o1) = columns.0[at].addingReportingOverflow(row.paid)
                let (s, o2) = columns.1[at].addingReportingOverflow(row.share)
                fits = fits && !o1 && !o2
                (columns.0[at], columns.1[at]) = (p, s)
            }
            let converted: ([Int64], [Int64])?
            if !fits {
                converted = nil
            } else if currency == target {
                converted = columns
            } else if let rate = HomeBalances.latestRate(from: currency, to: target, in: rates),
                let p = try? rate.convert(columns.0, currency: currency, tieBreak: tieBreak),
                let s = try? rate.convert(columns.1, currency: currency, tieBreak: tieBreak)
            {
                converted = (p, s)
            } else {
                converted = nil
            }
            guard let converted else {
                missing.append(currency)
                continue
            }
            for at in members.indices {
                paid[at] += Int128(converted.0[at])
                share[at] += Int128(converted.1[at])
            }
        }
        // A member whose figures are all in currencies without a rate has none here (found by
        // review: listed as paid 0, share 0); `byCurrency` keeps them.
        let people = members.indices.filter { paid[$0] != 0 || share[$0] != 0 }.map {
            Person(member: members[$0], paid: Int64(clamping: paid[$0]), share: Int64(clamping: share[$0]))
        }
        return Result(people: people, total: Int64(clamping: paid.reduce(0, +)), missing: missing)
    }
}
