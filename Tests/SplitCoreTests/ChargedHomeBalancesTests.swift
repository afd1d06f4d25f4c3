import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

/// Issue 15: an expense entered with what it cost in the home currency counts at that amount in
/// the home view, not at the group's rate; everything else still goes at the rate.
@Suite("Home balances with charged amounts")
struct ChargedHomeBalancesTests {
    static let myr = try! Currency(code: "MYR")
    static let rates = [HomeBalancesTests.rate(.jpy, myr, "0.0300", "2026-05-01")]

    static func ramen(_ aki: MemberID, _ bo: MemberID) -> ChargedExpense {
        // 4000 JPY paid by Aki, shared equally by Aki and Bo, charged 180.00 MYR on Aki's card.
        ChargedExpense(
            effects: [(aki, 2000), (bo, -2000)], original: jpy("4000"),
            charged: try! Money(parsing: "180.00", currency: myr), tieBreak: TieBreak(seed: "ramen"))
    }

    @Test("the charged amount, not the rate: Bo owes 90.00 MYR, not 60.00; no JPY rate is needed for it")
    func chargedNotRate() {
        let (aki, bo) = (member(1), member(2))
        let nets = [(member: aki, net: jpy("2000")), (member: bo, net: jpy("-2000"))]
        let atRate = HomeBalances.convert(nets, to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: "g"))
        #expect(atRate.balances[bo] == -6000)
        let charged = HomeBalances.convert(
            nets, charged: [Self.ramen(aki, bo)], to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: "g"))
        #expect(charged.balances == [aki: 9000, bo: -9000] && charged.missing.isEmpty)
        let noRates = HomeBalances.convert(
            nets, charged: [Self.ramen(aki, bo)], to: Self.myr, rates: [], tieBreak: TieBreak(seed: "g"))
        #expect(noRates.balances == [aki: 9000, bo: -9000] && noRates.missing.isEmpty)
    }

    @Test("what else moved in that currency (a transfer) still goes at the rate")
    func restAtRate() {
        let (aki, bo) = (member(1), member(2))
        // The ramen, then Bo paid Aki 1000 JPY: nets Aki +1000, Bo −1000.
        let nets = [(member: aki, net: jpy("1000")), (member: bo, net: jpy("-1000"))]
        let result = HomeBalances.convert(
            nets, charged: [Self.ramen(aki, bo)], to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: "g"))
        #expect(result.balances == [aki: 6000, bo: -6000])
        // Without a JPY rate that part cannot be converted: the home view is incomplete.
        let missing = HomeBalances.convert(
            nets, charged: [Self.ramen(aki, bo)], to: Self.myr, rates: [], tieBreak: TieBreak(seed: "g"))
        #expect(missing.missing == [.jpy])
    }

    @Test("random nets and charged expenses still sum to exactly zero in the home currency")
    func sumsToZero() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 2...8)) { seed, count in
            var builder = ScenarioBuilder(seed: seed)
            var nets: [MemberID: Int64] = [:]
            var charged: [ChargedExpense] = []
            for (index, chunk) in (0..<3).map({ _ in builder.nets(count: count, magnitude: 2_000_000) }).enumerated() {
                // Each chunk is one charged expense's effects (summing to zero), charged at some amount.
                let spent = chunk.map(\.1).filter { $0 > 0 }.reduce(0, +)
                guard spent > 0 else { continue }
                for (member, amount) in chunk { nets[member, default: 0] += amount }
                charged.append(
                    ChargedExpense(
                        effects: chunk.map { (member: $0.0, amount: $0.1) },
                        original: Money(minorUnits: spent, currency: .jpy),
                        charged: Money(minorUnits: spent / 37 + Int64(index) + 1, currency: Self.myr),
                        tieBreak: TieBreak(seed: "\(seed)-\(index)")))
            }
            for (member, amount) in builder.nets(count: count, magnitude: 2_000_000) { nets[member, default: 0] += amount }
            let entries = nets.map { (member: $0.key, net: Money(minorUnits: $0.value, currency: .jpy)) }
            let result = HomeBalances.convert(
                entries, charged: charged, to: Self.myr, rates: Self.rates, tieBreak: TieBreak(seed: String(seed)))
            #expect(result.missing.isEmpty)
            #expect(result.balances.values.reduce(0, +) == 0)
        }
    }

    @Test("with charged expenses too, each member is within one minor unit of their exact balance, rounded once")
    func roundedOnceWithCharged() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 2...8)) { seed, count in
            var builder = ScenarioBuilder(seed: seed)
            let eur = Currency.eur
            let chf = try! Currency(code: "CHF")
            var nets: [MemberID: Int64] = [:]
            var charged: [ChargedExpense] = []
            // Exact CHF rappen per member, as fractions (n, d).
            var exact: [MemberID: (Int128, Int128)] = [:]
            func add(_ member: MemberID, _ b: (Int128, Int128)) {
                let a = exact[member] ?? (0, 1)
                var (n, d) = (a.0 * b.1 + b.0 * a.1, a.1 * b.1)
                var (x, y) = (n.magnitude, d.magnitude)
                while y != 0 { (x, y) = (y, x % y) }
                n /= Int128(x)
                d /= Int128(x)
                exact[member] = (n, d)
            }
            // Four charged expenses, each at its own odd rate: their common denominator is mostly
            // past what `sumOnce` counts exactly, so both of its ways are taken (the check's own
            // fractions stay within Int128 at these sizes).
            for index in 0..<4 {
                let chunk = builder.nets(count: count, magnitude: 20_000)
                let spent = chunk.map(\.1).filter { $0 > 0 }.reduce(0, +)
                guard spent > 0 else { continue }
                let paid = spent * 93 / 100 + Int64(index) * 7 + 1
                for (member, amount) in chunk {
                    nets[member, default: 0] += amount
                    add(member, (Int128(amount) * Int128(paid), Int128(spent)))
                }
                charged.append(
                    ChargedExpense(
                        effects: chunk.map { (member: $0.0, amount: $0.1) }, original: Money(minorUnits: spent, currency: eur),
                        charged: Money(minorUnits: paid, currency: chf), tieBreak: TieBreak(seed: "\(seed)-\(index)")))
            }
            // The rest at 0.9347.
            for (member, amount) in builder.nets(count: count, magnitude: 2_000_000) {
                nets[member, default: 0] += amount
                add(member, (Int128(amount) * 9_347, 10_000))
            }
            let entries = nets.map { (member: $0.key, net: Money(minorUnits: $0.value, currency: eur)) }
            let result = HomeBalances.convert(
                entries, charged: charged, to: chf, rates: [HomeBalancesTests.rate(eur, chf, "0.9347", "2026-12-01")],
                tieBreak: TieBreak(seed: String(seed)))
            #expect(result.missing.isEmpty)
            #expect(result.balances.values.reduce(0, +) == 0)
            for (member, value) in exact {
                let got = Int128(result.balances[member] ?? 0)
                #expect((got * value.1 - value.0).magnitude < value.1.magnitude, "\(member): \(got) for \(value.0)/\(value.1)")
            }
        }
        // A new user's ski trip (CHF home, 1 EUR = 0.9347 CHF): Fuel 71.00 EUR charged 66.53 CHF,
        // paid by Cal, and Passes 786.78 EUR paid by Dov, each split equally among four. Bea and
        // Lena, the same exact −200.48799, read −200.50 and −200.48.
        let (lena, bea, cal, dov) = (member(1), member(2), member(3), member(4))
        let eur = Currency.eur
        let chf = try! Currency(code: "CHF")
        for seed in ["fuel", "other", "g"] {
            // The passes' cent goes to someone by the expense's id: Dov's share 196.69 here.
            let fuel = ChargedExpense(
                effects: [(lena, -1_775), (bea, -1_775), (cal, 5_325), (dov, -1_775)],
                original: Money(minorUnits: 7_100, currency: eur), charged: Money(minorUnits: 6_653, currency: chf),
                tieBreak: TieBreak(seed: seed))
            let nets: [(member: MemberID, net: Money)] = [
                (lena, Money(minorUnits: -1_775 - 19_670, currency: eur)), (bea, Money(minorUnits: -1_775 - 19_670, currency: eur)),
                (cal, Money(minorUnits: 5_325 - 19_669, currency: eur)), (dov, Money(minorUnits: -1_775 + 78_678 - 19_669, currency: eur)),
            ]
            let result = HomeBalances.convert(
                nets, charged: [fuel], to: chf, rates: [HomeBalancesTests.rate(eur, chf, "0.9347", "2026-12-01")],
                tieBreak: TieBreak(seed: seed))
            // Exact: Lena and Bea −200.48799, Cal −133.948643, Dov 534.924623: the unit the total
            // needs goes to Dov, the largest remainder.
            #expect(result.balances == [lena: -20_049, bea: -20_049, cal: -13_395, dov: 53_493], "\(seed): \(result.balances)")
            #expect(result.balances.values.reduce(0, +) == 0)
        }
    }
}
