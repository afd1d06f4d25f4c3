/// How an expense's total is divided into owed shares (DESIGN §3). The rule is input only: it is
/// kept so the expense can be edited as it was entered; what counts is the computed shares.
public indirect enum SplitRule: Hashable, Sendable {
    /// Equal among the chosen members; leftover minor units by largest remainder.
    case equal([MemberID])
    /// Exact amounts in minor units, which must sum to the total.
    case exact([MemberAmount])
    /// Percentages, which must sum to exactly 100.
    case percent([MemberDecimal])
    /// Weights ("2 shares for Aki, 1 for Ben"); any non-negative decimals, not all zero.
    case shares([MemberDecimal])
    /// Equal among `members`, then each adjustment (minor units, ±) added to that member's part.
    case adjustment(members: [MemberID], adjustments: [MemberAmount])
    /// Lines that each have their own rule, plus extras (tax, tip: positive; discount: negative)
    /// spread over members in proportion to their line subtotals.
    case itemized(items: [SplitItem], extras: [SplitExtra])

    /// The name used on the wire and in the database ("equal", "exact", …).
    public var mode: String {
        switch self {
        case .equal: "equal"
        case .exact: "exact"
        case .percent: "percent"
        case .shares: "shares"
        case .adjustment: "adjustment"
        case .itemized: "itemized"
        }
    }
}

extension SplitRule {
    /// The same rule with every amount negated (weights and percents stay): what a refund of
    /// the opposite total is split by (`ExpenseSplit` mirrors refunds onto expenses). Negation
    /// wraps at Int64.min, which the checks then refuse as an amount of the wrong sign.
    public var negated: SplitRule {
        switch self {
        case .equal, .percent, .shares: self
        case .exact(let amounts): .exact(amounts.map(\.negated))
        case .adjustment(let members, let adjustments): .adjustment(members: members, adjustments: adjustments.map(\.negated))
        case .itemized(let items, let extras):
            .itemized(
                items: items.map { SplitItem(description: $0.description, amount: 0 &- $0.amount, rule: $0.rule.negated) },
                extras: extras.map { SplitExtra(description: $0.description, amount: 0 &- $0.amount) })
        }
    }
}

extension SplitRule {
    /// The same rule with its members in one order (an itemized bill's lines keep theirs): two
    /// rules that say the same of the same members, whatever order they were typed in, are equal.
    public var inMemberOrder: SplitRule {
        switch self {
        case .equal(let members): .equal(members.sorted())
        case .exact(let amounts): .exact(amounts.sorted { $0.memberID < $1.memberID })
        case .percent(let parts): .percent(parts.sorted { $0.memberID < $1.memberID })
        case .shares(let parts): .shares(parts.sorted { $0.memberID < $1.memberID })
        case .adjustment(let members, let adjustments):
            .adjustment(members: members.sorted(), adjustments: adjustments.sorted { $0.memberID < $1.memberID })
        case .itemized(let items, let extras):
            .itemized(
                items: items.map { SplitItem(description: $0.description, amount: $0.amount, rule: $0.rule.inMemberOrder) },
                extras: extras)
        }
    }
}

/// One line of an itemized bill: its amount (minor units, > 0) and who shares it.
public struct SplitItem: Hashable, Sendable {
    public let description: String
    public let amount: Int64
    public let rule: SplitRule

    public init(description: String, amount: Int64, rule: SplitRule) {
        self.description = description
        self.amount = amount
        self.rule = rule
    }
}

/// Tax, tip, service charge (positive) or discount (negative) on an itemized bill.
public struct SplitExtra: Hashable, Sendable {
    public let description: String
    public let amount: Int64

    public init(description: String, amount: Int64) {
        self.description = description
        self.amount = amount
    }
}
