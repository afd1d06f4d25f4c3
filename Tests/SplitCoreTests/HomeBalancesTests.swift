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
}
