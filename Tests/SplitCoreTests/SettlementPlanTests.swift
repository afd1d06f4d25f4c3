import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Settlement plans")
struct SettlementPlanTests {
    let a = member(1), b = member(2), c = member(3), d = member(4)

    /// Applies a plan to the nets; a correct plan leaves nothing.
    func settle(_ nets: [MemberID: Int64], with plan: [PlannedTransfer]) -> [MemberID: Int64] {
        var remaining = nets
        for transfer in plan {
            remaining[transfer.from, default: 0] += transfer.amount
            remaining[transfer.to, default: 0] -= transfer.amount
        }
        return remaining.filter { $0.value != 0 }
    }

    /// The optimum by a different route: try every way to peel off a zero-sum group containing
    /// the first member, recursively (n − the most zero-sum groups).
    func bruteForceMinimum(_ values: [Int64]) -> Int {
        func mostZeroGroups(_ values: [Int64]) -> Int {
            guard let first = values.first else { return 0 }
            let rest = Array(values.dropFirst())
            var best = 0
            for subset in 0..<(1 << rest.count) {
                var sum = first
                var remaining: [Int64] = []
                for (index, value) in rest.enumerated() {
                    if subset & (1 << index) != 0 { sum += value } else { remaining.append(value) }
                }
                if sum == 0 { best = max(best, 1 + mostZeroGroups(remaining)) }
            }
            return best
        }
        let nonZero = values.filter { $0 != 0 }
        return nonZero.count - mostZeroGroups(nonZero)
    }

    @Test("a circular debt A→B→C→A leaves nothing to pay")
    func circularDebt() throws {
        let balances = try Balances(
            expenses: [],
            transfers: [
                try Transfer(from: a, to: b, amount: usd("10")),
                try Transfer(from: b, to: c, amount: usd("10")),
                try Transfer(from: c, to: a, amount: usd("10")),
            ])
        #expect(balances.nets(in: .usd).isEmpty)
        #expect(try SettlementPlan.plan(balances.nets(in: .usd)).isEmpty)
    }

    @Test("two pairs that cancel need two transfers, not three")
    func twoPairs() throws {
        let nets: [MemberID: Int64] = [a: -500, b: -300, c: 300, d: 500]
        let plan = try SettlementPlan.plan(nets)
        #expect(
            Set(plan) == [PlannedTransfer(from: b, to: c, amount: 300), PlannedTransfer(from: a, to: d, amount: 500)])
        #expect(plan.count == 2)
    }

    @Test("the plan is the same every time, whatever order the balances come in")
    func reproducible() throws {
        var builder = ScenarioBuilder(seed: 42, memberCount: 12)
        let nets = builder.nets(count: 12)
        let first = try SettlementPlan.plan(nets)
        for _ in 0..<5 {
            #expect(try SettlementPlan.plan(Dictionary(uniqueKeysWithValues: nets.shuffled())) == first)
        }
    }

    @Test("unbalanced or oversized input is refused")
    func refused() {
        #expect(throws: PlanError.unbalanced(sum: 1)) { try SettlementPlan.plan([a: 1]) }
        #expect(throws: PlanError.overflow) { try SettlementPlan.plan([a: .max, b: .max, c: 2]) }
        #expect(throws: PlanError.overflow) { try SettlementPlan.plan([a: .min]) }
    }

    @Test("21 and 25 non-zero balances fall back to the greedy plan and still settle", arguments: [21, 25])
    func fallback(count: Int) throws {
        var builder = ScenarioBuilder(seed: UInt64(count), memberCount: count)
        let nets = builder.nets(count: count)
        #expect(nets.count == count)
        let plan = try SettlementPlan.plan(nets)
        #expect(plan == (try SettlementPlan.greedyPlan(nets)))
        #expect(settle(nets, with: plan).isEmpty)
        #expect(plan.count <= count - 1)
        #expect(plan.allSatisfy { $0.amount > 0 })
    }

    @Test("the plan settles every balance to exactly zero, in at most n − 1 positive transfers")
    func settlesEverything() async {
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 0...30), Gen.int64(in: 1...1_000_000_000)) {
            seed, count, magnitude in
            var builder = ScenarioBuilder(seed: seed, memberCount: max(count, 1))
            let nets = builder.nets(count: count, magnitude: magnitude)
            let plan = try SettlementPlan.plan(nets)
            #expect(settle(nets, with: plan).isEmpty)
            #expect(plan.count <= max(nets.count - 1, 0))
            #expect(plan.allSatisfy { $0.amount > 0 && $0.from != $0.to })
        }
    }

    @Test("up to 8 members the plan is as short as a brute-force optimum")
    func optimalForSmallGroups() async {
        // Small magnitudes so that zero-sum subgroups (the interesting case) are common.
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 2...8), Gen.int64(in: 1...6)) {
            seed, count, magnitude in
            var builder = ScenarioBuilder(seed: seed, memberCount: count)
            let nets = builder.nets(count: count, magnitude: magnitude)
            let plan = try SettlementPlan.plan(nets)
            #expect(settle(nets, with: plan).isEmpty)
            #expect(plan.count == bruteForceMinimum(nets.sorted { $0.key < $1.key }.map(\.value)))
        }
    }

    @Test("the exact plan is never longer than the greedy one")
    func exactBeatsGreedy() async {
        await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 2...16)) { seed, count in
            var builder = ScenarioBuilder(seed: seed, memberCount: count)
            let nets = builder.nets(count: count, magnitude: 20)
            let exact = try SettlementPlan.plan(nets)
            let greedy = try SettlementPlan.greedyPlan(nets)
            #expect(exact.count <= greedy.count)
        }
    }
}
