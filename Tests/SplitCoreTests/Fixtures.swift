import Foundation
import SplitCore
import SplitTestSupport

func usd(_ text: String) -> Money { try! Money(parsing: text, currency: .usd, allowNegative: true) }
func jpy(_ text: String) -> Money { try! Money(parsing: text, currency: .jpy, allowNegative: true) }
func decimal(_ text: String) -> DecimalValue { try! DecimalValue(parsing: text, allowNegative: true) }

/// Splits with the given payers (default: member 1 pays all) and a fixed tie-break.
func split(
    _ total: Money,
    _ rule: SplitRule,
    paidBy payers: [MemberAmount]? = nil,
    seed: String = "expense"
) throws(SplitError) -> ExpenseSplit {
    try ExpenseSplit.compute(
        total: total,
        payers: payers ?? [MemberAmount(member(1), total.minorUnits)],
        rule: rule,
        tieBreak: TieBreak(seed: seed)
    )
}

func amounts(_ shares: [MemberAmount]) -> [Int64] { shares.map(\.amount) }
