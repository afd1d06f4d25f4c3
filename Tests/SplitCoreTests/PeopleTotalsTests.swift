import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Who paid and spent what, in one currency")
struct PeopleTotalsTests {
    static let myr = try! Currency(code: "MYR")
    static let eur = try! Currency(code: "EUR")
    static let rates = [
        HomeBalancesTests.rate(.jpy, myr, "0.0311", "2026-05-01"), HomeBalancesTests.rate(myr, .usd, "0.2137", "2026-05-02"),
    ]

    /// Random expenses in JPY, USD, MYR and EUR (no rate): each split exactly between random
    /// members, paid by random members, some of them refunds; summed per member and currency as
    /// the store sums them.
    static func entries(seed: UInt64, members count: Int) -> [PeopleTotals.Entry] {
        var builder = ScenarioBuilder(seed: seed, memberCount: count)
        var sums: [PeopleTotals.Entry] = []
        func add(_ member: MemberID, _ currency: Currency, paid: Int64, share: Int64) {
            if let at = sums.firstIndex(where: { $0.member == member && $0.currency == currency }) {
                sums[at].paid += paid
                sums[at].share += share
            } else {
                sums.append(.init(member: member, currency: currency, paid: paid, share: share))
            }
        }
        for _ in 0..<Int.random(in: 1...30, using: &builder.rng) {
            let currency = [Currency.jpy, .usd, myr, eur].randomElement(using: &builder.rng)!
            let sign: Int64 = Int.random(in: 0..<8, using: &builder.rng) == 0 ? -1 : 1
            let size = Int64.random(in: 1...5_000_000, using: &builder.rng)
            let sharers = builder.members()
            for (member, share) in zip(sharers, builder.partition(size, into: sharers.count)) {
                add(member, currency, paid: 0, share: sign * share)
            }
            let payers = builder.members()
            for (member, amount) in zip(payers, builder.partition(size, into: payers.count)) {
                add(member, currency, paid: sign * amount, share: 0)
            }
        }
        return sums.shuffled(using: &builder.rng)
    }

    @Test("what was paid and what was shared both add up to the total, whatever the currencies and rates")
    func sumsAgree() async {
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 1...12)) { seed, count in
            // setup
            let entries = Self.entries(seed: seed, members: count)
            // act
            let result = PeopleTotals.convert(entries, to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: String(seed)))
            // validate
            #expect(result.people.map(\.paid).reduce(0, +) == result.total)
            #expect(result.people.map(\.share).reduce(0, +) == result.total)
            #expect(Set(result.people.map(\.member)).count == result.people.count)
            #expect(result.people.map(\.member) == result.people.map(\.member).sorted())
            // Euros have no rate: said, and nothing of them counted.
            let hasEuros = entries.contains { $0.currency == Self.eur }
            #expect(result.missing == (hasEuros ? [Self.eur] : []))
            let withoutEuros = PeopleTotals.convert(
                entries.filter { $0.currency != Self.eur }, to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: String(seed)))
            #expect(withoutEuros.total == result.total)
            // The home currency's own sums count as they are, in any order.
            let reordered = PeopleTotals.convert(
                entries.reversed(), to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: String(seed)))
            #expect(reordered == result)
            // Each member's figures are within one unit of their exact value: rounded once over
            // every currency (found by a new user: a share 2 cents off, each column rounded alone).
            // Exact sen per unit: JPY 0.0311 MYR → 3.11 sen per yen; USD = 1/0.2137 MYR.
            let perUnit: [Currency: (Int128, Int128)] = [Self.myr: (1, 1), .jpy: (311, 100), .usd: (10_000 * 100, 2_137 * 100)]
            for person in result.people {
                for (got, amount) in [(person.paid, \PeopleTotals.Entry.paid), (person.share, \PeopleTotals.Entry.share)] {
                    // Σ amount · n / d over the member's currencies, as one fraction over 100 · 213,700.
                    let denominator: Int128 = 100 * 213_700
                    var numerator: Int128 = 0
                    for entry in entries where entry.member == person.member && entry.currency != Self.eur {
                        let (n, d) = perUnit[entry.currency]!
                        numerator += Int128(entry[keyPath: amount]) * n * (denominator / d)
                    }
                    #expect((Int128(got) * denominator - numerator).magnitude < denominator.magnitude, "\(person)")
                }
            }
        }
    }

    @Test("hand-picked: 100/3 in JPY to MYR; one payer not among the sharers; a refund; a currency with no rate")
    func handPicked() {
        let (a, b, c) = (member(1), member(2), member(3))
        // 100 JPY paid by C, shared by A and B only, 50 each: C shares nothing.
        let entries: [PeopleTotals.Entry] = [
            .init(member: c, currency: .jpy, paid: 100, share: 0),
            .init(member: a, currency: .jpy, paid: 0, share: 50), .init(member: b, currency: .jpy, paid: 0, share: 50),
            // 10.00 MYR paid by A, thirds; then 3.00 MYR came back to B, thirds of it.
            .init(member: a, currency: Self.myr, paid: 1_000, share: 334 - 100),
            .init(member: b, currency: Self.myr, paid: -300, share: 333 - 100),
            .init(member: c, currency: Self.myr, paid: 0, share: 333 - 100),
            .init(member: a, currency: Self.eur, paid: 500, share: 500),
        ]
        let result = PeopleTotals.convert(
            entries, to: Self.myr, rates: [HomeBalancesTests.rate(.jpy, Self.myr, "0.03", "2026-05-01")],
            tieBreak: .none)
        // 100 JPY at 0.03 is 3.00 MYR: C paid it; A and B's 50 JPY each is 1.50 MYR.
        #expect(result.missing == [Self.eur])
        #expect(result.total == 300 + 700)
        #expect(result.people.map(\.member) == [a, b, c])
        #expect(result.people.map(\.paid) == [1_000, -300, 300])
        #expect(result.people.map(\.share) == [150 + 234, 150 + 233, 233])
    }
}
