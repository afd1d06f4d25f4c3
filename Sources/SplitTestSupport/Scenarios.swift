import Foundation
import SplitCore

// Deterministic fixtures shared by the tests and the benchmarks: member ids that sort by number,
// a seeded random generator, and builders of random expenses, transfers and balances.

/// Member n, with an id that sorts by n ("00000000-0000-0000-0000-000000000007").
public func member(_ number: Int) -> MemberID {
    MemberID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!
}

/// A small deterministic generator for building whole random scenarios from one property-test
/// seed (SplitMix64), so a failing case is reproduced from the seed the test prints.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random split rules and expenses over members 1…memberCount.
public struct ScenarioBuilder {
    public var rng: SplitMix64
    public let memberCount: Int

    public init(seed: UInt64, memberCount: Int = 8) {
        rng = SplitMix64(seed: seed)
        self.memberCount = memberCount
    }

    public mutating func members(atLeast minimum: Int = 1) -> [MemberID] {
        let count = Int.random(in: minimum...memberCount, using: &rng)
        return (1...memberCount).shuffled(using: &rng).prefix(count).map(member)
    }

    public mutating func currency() -> Currency {
        [Currency.jpy, .usd, .kwd, .eur, Currency.all.randomElement(using: &rng)!].randomElement(using: &rng)!
    }

    public mutating func total() -> Int64 {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: Int64.random(in: 1...10, using: &rng)
        case 1: Int64.random(in: 1...1_000, using: &rng)
        case 2: Int64.random(in: 1...10_000_000, using: &rng)
        default: Int64.random(in: 1...1_000_000_000_000, using: &rng)
        }
    }

    /// Amounts ≥ `minimum` that sum to `total` (fewer parts when the total is too small).
    public mutating func partition(_ total: Int64, into parts: Int, minimum: Int64 = 0) -> [Int64] {
        let count = max(1, min(parts, Int(total / max(minimum, 1))))
        var cuts = (0..<(count - 1)).map { _ in Int64.random(in: 0...(total - Int64(count) * minimum), using: &rng) }
        cuts.sort()
        let bounds = [0] + cuts + [total - Int64(count) * minimum]
        return (0..<count).map { bounds[$0 + 1] - bounds[$0] + minimum }
    }

    public mutating func rule(total: Int64, allowItemized: Bool = true) -> SplitRule {
        let members = members()
        switch Int.random(in: 0..<(allowItemized ? 6 : 5), using: &rng) {
        case 0:
            return .equal(members)
        case 1:
            let parts = partition(total, into: members.count)
            return .exact(zip(members, parts).map { MemberAmount($0, $1) })
        case 2:
            // Percentages with two decimals that sum to exactly 100.
            let parts = partition(10_000, into: members.count)
            return .percent(zip(members, parts).map { MemberDecimal($0, DecimalValue(significand: $1, scale: 2)) })
        case 3:
            var weights = members.map { _ in
                DecimalValue(
                    significand: Int64.random(in: 0...40, using: &rng), scale: Int.random(in: 0...2, using: &rng))
            }
            if weights.allSatisfy(\.isZero) { weights[0] = DecimalValue(significand: 1) }
            return .shares(zip(members, weights).map { MemberDecimal($0, $1) })
        case 4:
            // Adjustments that leave a non-negative base; each within what the base can absorb.
            let adjusted = members.prefix(Int.random(in: 0...members.count, using: &rng))
            let room = total / Int64(members.count * 2 + 1)
            let adjustments = adjusted.map { MemberAmount($0, Int64.random(in: 0...max(room, 0), using: &rng)) }
            return .adjustment(members: members, adjustments: adjustments)
        default:
            let itemCount = Int.random(in: 1...4, using: &rng)
            let extra = Int64.random(in: 0...(total / 3), using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
            let itemsTotal = total - extra
            guard itemsTotal >= Int64(itemCount) else { return .equal(members) }
            let itemAmounts = partition(itemsTotal, into: itemCount, minimum: 1)
            let items = itemAmounts.enumerated().map { index, amount in
                SplitItem(description: "item \(index)", amount: amount, rule: rule(total: amount, allowItemized: false))
            }
            return .itemized(items: items, extras: extra == 0 ? [] : [SplitExtra(description: "tax", amount: extra)])
        }
    }

    /// A random expense, or one time in four a refund (issue 18: the same random inputs with
    /// every amount negated), so every property over expenses also holds with mixed signs.
    public mutating func expense() -> ExpenseSplit {
        let currency = currency()
        let total = total()
        let payers = members()
        let paid = partition(total, into: payers.count, minimum: 1)
        let payerAmounts = zip(payers, paid).map { MemberAmount($0, $1) }
        let rule = rule(total: total)
        let refund = Int.random(in: 0..<4, using: &rng) == 0
        return try! ExpenseSplit.compute(
            total: Money(minorUnits: refund ? -total : total, currency: currency),
            payers: refund ? payerAmounts.map(\.negated) : payerAmounts,
            rule: refund ? rule.negated : rule,
            tieBreak: TieBreak(seed: String(rng.next()))
        )
    }

    public mutating func transfer() -> Transfer {
        let pair = members(atLeast: 2)
        let amount = Money(minorUnits: Int64.random(in: 1...1_000_000, using: &rng), currency: currency())
        return try! Transfer(from: pair[0], to: pair[1], amount: amount)
    }

    /// Random nets over `count` members that sum to zero, none zero.
    public mutating func nets(count: Int, magnitude: Int64 = 10_000) -> [MemberID: Int64] {
        guard count >= 2 else { return [:] }
        var values = (0..<(count - 1)).map { _ in
            Int64.random(in: 1...magnitude, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
        }
        var last = -values.reduce(0, +)
        // Keep the last one non-zero by nudging the first when the others happen to cancel.
        if last == 0 {
            values[0] += values[0] > 0 ? 1 : -1
            last = -values.reduce(0, +)
        }
        values.append(last)
        return Dictionary(uniqueKeysWithValues: values.enumerated().map { (member($0.offset + 1), $0.element) })
    }
}
