import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Split rules: properties")
struct SplitPropertyTests {
    /// Random totals, member counts, weights and rules; 1,000 cases each.
    static let cases = 1_000

    @Test("shares sum to the total and each is within one minor unit of its exact value (weights)")
    func weightedSharesAreExact() async {
        await propertyCheck(
            count: Self.cases,
            input: Gen.int64(in: 1...1_000_000_000_000),
            Gen.int64(in: 0...1_000).array(of: 1...12),
            Gen.uint64()
        ) { total, rawWeights, seed in
            let weights = rawWeights.allSatisfy { $0 == 0 } ? [1] + rawWeights.dropFirst() : rawWeights
            let members = weights.indices.map { member($0 + 1) }
            let rule = SplitRule.shares(zip(members, weights).map { MemberDecimal($0, DecimalValue(significand: $1)) })
            let result = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: .usd), payers: [MemberAmount(members[0], total)],
                rule: rule, tieBreak: TieBreak(seed: String(seed)))
            #expect(amounts(result.owed).reduce(0, +) == total)
            let weightSum = Int128(weights.reduce(0, +))
            for (share, weight) in zip(result.owed, weights) {
                // |share − total·w/W| < 1  ⇔  |share·W − total·w| < W
                let error = Int128(share.amount) * weightSum - Int128(total) * Int128(weight)
                #expect(error.magnitude < weightSum.magnitude)
            }
        }
    }

    @Test("equal splits differ by at most one minor unit and sum to the total")
    func equalSplitsAreFair() async {
        await propertyCheck(count: Self.cases, input: Gen.int64(in: 1...10_000_000), Gen.int(in: 1...40), Gen.uint64())
        {
            total, count, seed in
            let members = (1...count).map(member)
            let result = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: .jpy), payers: [MemberAmount(members[0], total)],
                rule: .equal(members), tieBreak: TieBreak(seed: String(seed)))
            let shares = amounts(result.owed)
            #expect(shares.reduce(0, +) == total)
            #expect(shares.max()! - shares.min()! <= 1)
            #expect(shares.min()! == total / Int64(count))
        }
    }

    @Test("every rule, random, expenses and refunds: owed and paid each sum to the total, no share has the other sign")
    func everyRuleSumsToTotal() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let expense = builder.expense()
            #expect(amounts(expense.owed).reduce(0, +) == expense.total.minorUnits)
            #expect(amounts(expense.paid).reduce(0, +) == expense.total.minorUnits)
            #expect(expense.owed.allSatisfy { expense.isRefund ? $0.amount <= 0 : $0.amount >= 0 })
            #expect(expense.paid.allSatisfy { expense.isRefund ? $0.amount < 0 : $0.amount > 0 })
            #expect(expense.owed.map(\.memberID) == expense.owed.map(\.memberID).sorted())
        }
    }

    @Test("same input, same output; member order in the input does not matter")
    func deterministic() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let total = builder.total()
            let rule = builder.rule(total: total, allowItemized: true)
            let money = Money(minorUnits: total, currency: .eur)
            let payers = [MemberAmount(member(1), total)]
            let tie = TieBreak(seed: "e-\(seed)")
            let first = try ExpenseSplit.compute(total: money, payers: payers, rule: rule, tieBreak: tie)
            let second = try ExpenseSplit.compute(total: money, payers: payers, rule: rule, tieBreak: tie)
            #expect(first == second)
            let reordered = try ExpenseSplit.compute(
                total: money, payers: payers, rule: rule.reversedLists, tieBreak: tie)
            #expect(first == reordered)
        }
    }

    @Test("percentages with two decimals that sum to 100 split exactly")
    func percentSplits() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64(), Gen.int64(in: 1...100_000_000)) { seed, total in
            var builder = ScenarioBuilder(seed: seed)
            let members = builder.members()
            let parts = builder.partition(10_000, into: members.count)
            let percents = zip(members, parts).map { MemberDecimal($0, DecimalValue(significand: $1, scale: 2)) }
            let result = try split(Money(minorUnits: total, currency: .usd), .percent(percents))
            #expect(amounts(result.owed).reduce(0, +) == total)
            for share in result.owed {
                let percent = Int128(percents.first { $0.memberID == share.memberID }!.value.significand)
                let error = Int128(share.amount) * 10_000 - Int128(total) * percent
                #expect(error.magnitude < 10_000)
            }
        }
    }
}

extension SplitRule {
    /// The same rule with every list reversed: a different input order for the same meaning.
    var reversedLists: SplitRule {
        switch self {
        case .equal(let members): .equal(members.reversed())
        case .exact(let amounts): .exact(amounts.reversed())
        case .percent(let percents): .percent(percents.reversed())
        case .shares(let shares): .shares(shares.reversed())
        case .adjustment(let members, let adjustments):
            .adjustment(members: members.reversed(), adjustments: adjustments.reversed())
        case .itemized(let items, let extras):
            .itemized(
                items: items.map {
                    SplitItem(description: $0.description, amount: $0.amount, rule: $0.rule.reversedLists)
                },
                extras: extras)
        }
    }
}
