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
