/// Largest-remainder apportionment: the one place where exact fractions become whole minor units.
///
/// DESIGN §3: leftover minor units go to the parts with the largest remainders; among equal
/// remainders the order rotates with a seed (the expense id), so the same person does not always
/// get the extra cent, and the same input gives the same output on every machine.
/// Splits by weight and currency conversion both reduce to this.
public enum Apportionment {
    /// Turns exact parts `numerators[i] / denominator` into integers that sum to `target`.
    ///
    /// Each result is the floor or the ceiling of its exact part, so it is within one minor unit
    /// of it. `target` must lie between the sum of the floors and that sum plus the number of
    /// parts (it does whenever it is the exact total or that total rounded).
    ///
    /// - Returns: nil when a result would not fit in Int64.
    static func distribute(
        numerators: [Int128],
        denominator: Int128,
        target: Int64,
        tieBreak: TieBreak
    ) -> [Int64]? {
        precondition(denominator > 0 && !numerators.isEmpty)
        var floors = [Int128](repeating: 0, count: numerators.count)
        var remainders = [Int128](repeating: 0, count: numerators.count)
        var floorSum: Int128 = 0
        for (index, numerator) in numerators.enumerated() {
            // Floor division, also for negative parts (a discount spread pro rata).
            var quotient = numerator / denominator
            var remainder = numerator % denominator
            if remainder < 0 {
                quotient -= 1
                remainder += denominator
            }
            floors[index] = quotient
            remainders[index] = remainder
            floorSum += quotient
        }
        let leftover = Int128(target) - floorSum
        precondition(leftover >= 0 && leftover <= Int128(numerators.count), "target outside the apportionable range")
        if leftover > 0 {
            let count = numerators.count
            let offset = tieBreak.offset(count: count)
            let order = (0..<count).sorted { left, right in
                if remainders[left] != remainders[right] { return remainders[left] > remainders[right] }
                return (left - offset + count) % count < (right - offset + count) % count
            }
            for index in order.prefix(Int(leftover)) {
                floors[index] += 1
            }
        }
        var results: [Int64] = []
        results.reserveCapacity(floors.count)
        for value in floors {
            guard let fitting = Int64(exactly: value) else { return nil }
            results.append(fitting)
        }
        return results
    }

    /// Splits `total` minor units in proportion to non-negative integer `weights`.
    ///
    /// - Returns: nil when every weight is zero (there is nothing to be proportional to).
    static func split(total: Int64, weights: [Int128], tieBreak: TieBreak) -> [Int64]? {
        let weightSum = weights.reduce(Int128(0), +)
        guard weightSum > 0 else { return nil }
        // Every part lies between 0 and the total, so distribute never reports overflow here.
        return distribute(
            numerators: weights.map { Int128(total) * $0 },
            denominator: weightSum,
            target: total,
            tieBreak: tieBreak
        )!
    }
}

/// Where the rotation of equal remainders starts, derived from a stable seed such as an expense id.
public struct TieBreak: Hashable, Sendable {
    let seed: UInt64

    /// Any stable text; the server uses the expense id. FNV-1a, not `Hasher`, which is randomized
    /// per process and would make results differ between runs.
    public init(seed: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        self.seed = hash
    }

    /// No rotation: the first part in canonical order wins ties.
    public static let none = TieBreak(rawSeed: 0)

    init(rawSeed: UInt64) { self.seed = rawSeed }

    func offset(count: Int) -> Int { Int(seed % UInt64(count)) }
}
