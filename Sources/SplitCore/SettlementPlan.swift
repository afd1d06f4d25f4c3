/// One transfer of a settle-up plan: `from` pays `to` `amount` minor units of the plan's currency.
public struct PlannedTransfer: Hashable, Sendable {
    public let from: MemberID
    public let to: MemberID
    public let amount: Int64

    public init(from: MemberID, to: MemberID, amount: Int64) {
        self.from = from
        self.to = to
        self.amount = amount
    }
}

/// Who pays whom to bring every net in one currency to zero (DESIGN §3).
///
/// Up to `exactLimit` non-zero balances the plan has the minimum number of transfers: n − k,
/// where k is the largest number of groups the balances can be split into that each sum to
/// zero, found by a dynamic programme over subsets. Above that, largest debtor pays largest
/// creditor. Members are taken in id order and ties go to the lower id, so a plan is reproducible.
public enum SettlementPlan {
    /// The largest number of non-zero balances solved exactly (2^n states, about 10 ms at 20).
    public static let exactLimit = 20

    /// The plan for one currency's nets (as from `Balances.nets(in:)`).
    ///
    /// - Throws: `.unbalanced` when the nets do not sum to zero, `.overflow` when they are too
    ///   large to add up.
    public static func plan(_ nets: [MemberID: Int64]) throws(PlanError) -> [PlannedTransfer] {
        let balances = try validated(nets)
        return balances.count <= exactLimit ? minimal(balances) : greedy(balances)
    }

    /// The exact minimum, whatever the size (exponential: for tests and benchmarks).
    public static func minimalPlan(_ nets: [MemberID: Int64]) throws(PlanError) -> [PlannedTransfer] {
        let balances = try validated(nets)
        // 2^n bytes of state: 24 balances is 16 MB, beyond that the memory is not worth it.
        guard balances.count <= 24 else { throw .tooManyForExactPlan(balances.count) }
        return minimal(balances)
    }

    /// Largest debtor pays largest creditor until everyone is at zero (at most n − 1 transfers).
    public static func greedyPlan(_ nets: [MemberID: Int64]) throws(PlanError) -> [PlannedTransfer] {
        greedy(try validated(nets))
    }

    private struct Balance {
        let member: MemberID
        var net: Int64
    }

    private static func validated(_ nets: [MemberID: Int64]) throws(PlanError) -> [Balance] {
        var absoluteSum: Int64 = 0
        var sum: Int64 = 0
        for net in nets.values {
            // Bounding the sum of magnitudes makes every partial sum below safe from overflow.
            let (nextAbsolute, overflow) = absoluteSum.addingReportingOverflow(Int64(exactly: net.magnitude) ?? .max)
            guard !overflow, net != .min else { throw .overflow }
            absoluteSum = nextAbsolute
            sum += net
        }
        guard sum == 0 else { throw .unbalanced(sum: sum) }
        return nets.filter { $0.value != 0 }.map { Balance(member: $0.key, net: $0.value) }.sorted {
            $0.member < $1.member
        }
    }

    /// The exact minimum. `groups[mask]` is the largest number of zero-sum blocks that the members
    /// in `mask` can be ordered into (counted as zero-sum prefixes of the best ordering); the plan
    /// then settles each block on its own with one transfer fewer than its size.
    private static func minimal(_ balances: [Balance]) -> [PlannedTransfer] {
        let count = balances.count
        guard count > 0 else { return [] }
        let full = (1 << count) - 1
        var isZeroSum = [Bool](repeating: false, count: full + 1)
        // Gray-code walk: each step adds or removes one member, so each subset sum is O(1).
        var sum: Int64 = 0
        for step in 1...full {
            let bit = step.trailingZeroBitCount
            let gray = step ^ (step >> 1)
            sum += gray & (1 << bit) != 0 ? balances[bit].net : -balances[bit].net
            isZeroSum[gray] = sum == 0
        }
        var groups = [UInt8](repeating: 0, count: full + 1)
        // The hot loop (n·2^(n−1) steps): unchecked buffers, about twice as fast as indexing.
        groups.withUnsafeMutableBufferPointer { groups in
            isZeroSum.withUnsafeBufferPointer { isZeroSum in
                for mask in 1...full {
                    var best: UInt8 = 0
                    var rest = mask
                    while rest != 0 {
                        let lowest = rest & -rest
                        best = max(best, groups[mask ^ lowest])
                        rest ^= lowest
                    }
                    groups[mask] = best &+ (isZeroSum[mask] ? 1 : 0)
                }
            }
        }
        // Walk back from the full set, removing a member that keeps the optimum (lowest index
        // first), and cut a block wherever the remaining set sums to zero.
        var blocks: [[Balance]] = []
        var mask = full
        var block: [Balance] = []
        while mask != 0 {
            let needed = groups[mask] - (isZeroSum[mask] ? 1 : 0)
            if isZeroSum[mask], !block.isEmpty {
                blocks.append(block)
                block = []
            }
            var index = 0
            while mask & (1 << index) == 0 || groups[mask ^ (1 << index)] != needed { index += 1 }
            block.append(balances[index])
            mask ^= 1 << index
        }
        blocks.append(block)
        return blocks.flatMap { greedy($0.sorted { $0.member < $1.member }) }
    }

    /// Largest debtor pays largest creditor; equal amounts go to the lower member id.
    private static func greedy(_ balances: [Balance]) -> [PlannedTransfer] {
        // Both queues are kept sorted so that the last element is the largest (lowest id on ties).
        let isBelow = { (left: Balance, right: Balance) in
            left.net != right.net ? left.net < right.net : left.member > right.member
        }
        var debtors = balances.filter { $0.net < 0 }.map { Balance(member: $0.member, net: -$0.net) }.sorted(
            by: isBelow)
        var creditors = balances.filter { $0.net > 0 }.sorted(by: isBelow)
        var transfers: [PlannedTransfer] = []
        while var debtor = debtors.popLast(), var creditor = creditors.popLast() {
            let amount = min(debtor.net, creditor.net)
            transfers.append(PlannedTransfer(from: debtor.member, to: creditor.member, amount: amount))
            debtor.net -= amount
            creditor.net -= amount
            if debtor.net > 0 { insert(debtor, into: &debtors, isBelow) }
            if creditor.net > 0 { insert(creditor, into: &creditors, isBelow) }
        }
        return transfers
    }

    private static func insert(_ balance: Balance, into queue: inout [Balance], _ isBelow: (Balance, Balance) -> Bool) {
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if isBelow(queue[middle], balance) { low = middle + 1 } else { high = middle }
        }
        queue.insert(balance, at: low)
    }
}

public enum PlanError: Error, Hashable, Sendable, CustomStringConvertible {
    case unbalanced(sum: Int64)
    case overflow
    case tooManyForExactPlan(Int)

    public var description: String {
        switch self {
        case .unbalanced(let sum): "the balances sum to \(sum) minor units instead of zero"
        case .overflow: "the balances are too large to settle"
        case .tooManyForExactPlan(let count): "\(count) balances are too many for an exact plan (24 at most)"
        }
    }
}
