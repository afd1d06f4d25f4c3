import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Balances in the home currency")
struct HomeBalancesTests {
    static let myr = try! Currency(code: "MYR")

    static func rate(_ from: Currency, _ to: Currency, _ text: String, _ date: String) -> DatedRate {
        DatedRate(try! ExchangeRate(from: from, to: to, rate: try! DecimalValue(parsing: text)), date: date)
    }

    @Test("random nets in three currencies, each summing to zero, still sum to exactly zero converted")
    func convertedNetsSumToZero() async {
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 2...12)) { seed, count in
            // setup
            var builder = ScenarioBuilder(seed: seed)
            var nets: [(member: MemberID, net: Money)] = []
            for currency in [Self.myr, .jpy, .usd] {
                for (member, net) in builder.nets(count: count, magnitude: 5_000_000) {
                    nets.append((member, Money(minorUnits: net, currency: currency)))
                }
            }
            let rates = [
                Self.rate(.jpy, Self.myr, "0.0311", "2026-05-01"), Self.rate(Self.myr, .usd, "0.2137", "2026-05-02"),
            ]
            // act
            let (balances, missing) = HomeBalances.convert(
                nets, to: Self.myr, rates: rates, tieBreak: TieBreak(seed: String(seed)))
            // validate
            #expect(missing.isEmpty)
            #expect(balances.values.reduce(0, +) == 0)
        }
    }

    @Test("each member's home balance is within one minor unit of its exact value, rounded once over every currency")
    func roundedOnce() async {
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 2...12)) { seed, count in
            var builder = ScenarioBuilder(seed: seed)
            var nets: [(member: MemberID, net: Money)] = []
            for currency in [Self.myr, .jpy, .usd, .eur] {
                for (member, net) in builder.nets(count: count, magnitude: 5_000_000) {
                    nets.append((member, Money(minorUnits: net, currency: currency)))
                }
            }
            // Rates of several digits, one of them inverted (1/4.6523: not a decimal).
            let rates = [
                Self.rate(.jpy, Self.myr, "0.03117", "2026-05-01"), Self.rate(Self.myr, .usd, "0.2137", "2026-05-02"),
                Self.rate(.eur, Self.myr, "4.6523", "2026-05-02"),
            ]
            let (balances, missing) = HomeBalances.convert(
                nets, to: Self.myr, rates: rates, tieBreak: TieBreak(seed: String(seed)))
            #expect(missing.isEmpty)
            #expect(balances.values.reduce(0, +) == 0)
            // Exact: Σ net · rate, as a fraction of MYR sen per member, computed here on its own.
            let perUnit: [Currency: (Int128, Int128)] = [
                Self.myr: (1, 1), .jpy: (3_117 * 100, 100_000), .usd: (100 * 10_000, 2_137 * 100), .eur: (46_523 * 100, 10_000 * 100),
            ]
            var exact: [MemberID: (Int128, Int128)] = [:]
            func add(_ a: (Int128, Int128), _ b: (Int128, Int128)) -> (Int128, Int128) {
                var (n, d) = (a.0 * b.1 + b.0 * a.1, a.1 * b.1)
                var (x, y) = (n.magnitude, d.magnitude)
                while y != 0 { (x, y) = (y, x % y) }
                n /= Int128(x)
                d /= Int128(x)
                return (n, d)
            }
            for entry in nets {
                let (n, d) = perUnit[entry.net.currency]!
                exact[entry.member] = add(exact[entry.member] ?? (0, 1), (Int128(entry.net.minorUnits) * n, d))
            }
            for (member, value) in exact {
                let got = Int128(balances[member] ?? 0)
                // |got − n/d| < 1  ⇔  |got·d − n| < d
                #expect((got * value.1 - value.0).magnitude < value.1.magnitude, "\(member): \(got) for \(value.0)/\(value.1)")
            }
        }
        // A new user's trip (EUR home): each currency rounded on its own gave Ben −42.15 and Aki
        // −25.90 for exact −42.15744 and −25.8907.
        let (aki, ben, cho) = (member(1), member(2), member(3))
        func jpy(_ units: Int64) -> Money { Money(minorUnits: units, currency: .jpy) }
        let krw = try! Currency(code: "KRW")
        let thb = try! Currency(code: "THB")
        let nets: [(member: MemberID, net: Money)] = [
            (aki, jpy(8_667 - 334)), (ben, jpy(-8_667)), (cho, jpy(334)),
            (aki, Money(minorUnits: -98_986 - 10_007, currency: krw)), (ben, Money(minorUnits: 10_007, currency: krw)),
            (cho, Money(minorUnits: 98_986, currency: krw)),
            (aki, Money(minorUnits: -10_026, currency: thb)), (ben, Money(minorUnits: 15_025, currency: thb)),
            (cho, Money(minorUnits: -4_999, currency: thb)),
        ]
        let rates = [
            Self.rate(.jpy, .eur, "0.0061", "2026-12-01"), Self.rate(krw, .eur, "0.00068", "2026-12-01"),
            Self.rate(thb, .eur, "0.026", "2026-12-01"),
        ]
        for seed in ["R1", "R2", "another group"] {
            let (balances, _) = HomeBalances.convert(nets, to: .eur, rates: rates, tieBreak: TieBreak(seed: seed))
            #expect(balances == [aki: -2_589, ben: -4_216, cho: 6_805], "\(seed): \(balances)")
        }
    }

    @Test("the same nets in any order convert alike (found by review: a home balance read 15.07, then 15.08)")
    func orderDoesNotMatter() async {
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 2...12)) { seed, count in
            var builder = ScenarioBuilder(seed: seed)
            var nets: [(member: MemberID, net: Money)] = []
            for currency in [Self.myr, .jpy, .usd] {
                for (member, net) in builder.nets(count: count, magnitude: 5_000_000) {
                    nets.append((member, Money(minorUnits: net, currency: currency)))
                }
            }
            let rates = [Self.rate(.jpy, Self.myr, "0.0335", "2026-05-01"), Self.rate(.usd, Self.myr, "4.5", "2026-05-02")]
            var generator = SplitMix64(seed: seed)
            let first = HomeBalances.convert(nets, to: Self.myr, rates: rates, tieBreak: TieBreak(seed: "g"))
            let shuffled = HomeBalances.convert(
                nets.shuffled(using: &generator), to: Self.myr, rates: rates, tieBreak: TieBreak(seed: "g"))
            #expect(first.balances == shuffled.balances)
        }
        // The review's case: 3,000 JPY over 4 at 0.0067 USD, each share 5.025 USD.
        let usd = Currency.usd
        let members = (1...4).map(member)
        let nets: [(member: MemberID, net: Money)] =
            [(members[0], Money(minorUnits: 2_250, currency: .jpy))]
            + members.dropFirst().map { ($0, Money(minorUnits: -750, currency: .jpy)) }
        let rates = [Self.rate(.jpy, usd, "0.0067", "2026-05-01")]
        let expected = HomeBalances.convert(nets, to: usd, rates: rates, tieBreak: TieBreak(seed: "g")).balances
        for _ in 0..<20 {
            #expect(HomeBalances.convert(nets.shuffled(), to: usd, rates: rates, tieBreak: TieBreak(seed: "g")).balances == expected)
        }
    }

    @Test("the home currency is kept as it is; a currency without a rate is listed, not guessed")
    func homeKeptMissingListed() {
        let a = member(1)
        let b = member(2)
        let nets: [(member: MemberID, net: Money)] = [
            (a, Money(minorUnits: 1_000, currency: Self.myr)), (b, Money(minorUnits: -1_000, currency: Self.myr)),
            (a, Money(minorUnits: -500, currency: .eur)), (b, Money(minorUnits: 500, currency: .eur)),
        ]
        let (balances, missing) = HomeBalances.convert(nets, to: Self.myr, rates: [], tieBreak: TieBreak(seed: "g"))
        #expect(missing == [.eur])
        #expect(balances == [a: 1_000, b: -1_000])
    }

    @Test("the latest rate wins; the opposite pair's is inverted; on one date the direct rate wins")
    func latestRate() throws {
        let direct = Self.rate(.jpy, Self.myr, "0.03", "2026-05-01")
        let newerInverse = Self.rate(Self.myr, .jpy, "32", "2026-05-03")
        let sameDayInverse = Self.rate(Self.myr, .jpy, "40", "2026-05-01")
        #expect(HomeBalances.latestRate(from: .jpy, to: Self.myr, in: [direct]) == direct.rate)
        #expect(
            HomeBalances.latestRate(from: .jpy, to: Self.myr, in: [direct, newerInverse]) == newerInverse.rate.inverted)
        #expect(HomeBalances.latestRate(from: .jpy, to: Self.myr, in: [direct, sameDayInverse]) == direct.rate)
        #expect(HomeBalances.latestRate(from: .usd, to: Self.myr, in: [direct]) == nil)
    }

    @Test("the latest rate of each pair counts, and its same-day opposite: what converting either way reads")
    func counting() throws {
        var rng = SplitMix64(seed: 2026)
        let codes: [Currency] = [.jpy, Self.myr, .usd, try Currency(code: "EUR")]
        for _ in 0..<300 {
            var rates: [DatedRate] = []
            var seen = Set<String>()
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let from = codes[Int.random(in: 0..<4, using: &rng)]
                let to = codes[Int.random(in: 0..<4, using: &rng)]
                let date = "2026-05-0\(Int.random(in: 1...4, using: &rng))"
                guard from != to, seen.insert("\(from) \(to) \(date)").inserted else { continue }
                rates.append(Self.rate(from, to, "\(Int.random(in: 1...999, using: &rng))", date))
            }
            let counts = HomeBalances.counting(rates)
            let pairs = Dictionary(grouping: zip(rates, counts), by: { Set([$0.0.rate.from, $0.0.rate.to]) })
            for (pair, entries) in pairs {
                let counted = entries.filter(\.1).map(\.0)
                let latest = entries.map(\.0.date).max()
                // The latest of the pair counts; a second only as the opposite rate of that day.
                #expect((1...2).contains(counted.count) && counted.allSatisfy { $0.date == latest }, "\(pair)")
                if counted.count == 2 { #expect(counted[0].rate.from == counted[1].rate.to, "\(pair)") }
                // Whichever way a conversion goes, it reads a rate marked as counting.
                let (a, b) = (entries[0].0.rate.from, entries[0].0.rate.to)
                for (from, to) in [(a, b), (b, a)] {
                    let read = try #require(HomeBalances.latestDatedRate(from: from, to: to, in: rates))
                    #expect(counted.contains(read), "\(from)→\(to) in \(pair)")
                }
            }
        }
    }
}
