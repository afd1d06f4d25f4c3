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
}
