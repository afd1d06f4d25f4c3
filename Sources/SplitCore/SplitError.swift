/// Why an expense cannot be split as asked. Each case names the field at fault (`field`, as on
/// the wire) and says exactly what is wrong (`description`), so the API can answer 422 with both.
public indirect enum SplitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A total of zero: nothing to split (a refund is a negative total, an expense a positive one).
    case zeroTotal(Money)
    case noPayers
    case payerAmountNotPositive(MemberID, Money)
    case payersDoNotSum(sum: Money, total: Money)
    case duplicateMember(MemberID, field: String)
    case noParticipants(field: String)
    case exactAmountsDoNotSum(sum: Money, total: Money)
    case negativeAmount(MemberID, Money, field: String)
    case percentagesDoNotSum(DecimalValue)
    case negativeWeight(MemberID, DecimalValue, field: String)
    case weightsAllZero
    case adjustmentForNonParticipant(MemberID)
    case adjustmentsExceedTotal(base: Money)
    case negativeShare(MemberID, Money)
    case noItems
    case itemAmountNotPositive(index: Int, Money)
    case nestedItemized(index: Int)
    case itemsDoNotSum(sum: Money, total: Money)
    /// An error inside line `index` of an itemized split.
    case inItem(index: Int, SplitError)
    case amount(AmountError)
    /// An error in the mirrored expense a refund is computed as (`ExpenseSplit`): its amounts
    /// have the opposite sign of what was entered, and its description turns them back.
    case inRefund(SplitError)

    /// The request field at fault, as on the wire ("paidBy", "split.percents",
    /// "split.items[2].split.amounts").
    public var field: String {
        switch self {
        case .zeroTotal, .amount: "amount"
        case .noPayers, .payerAmountNotPositive, .payersDoNotSum: "paidBy"
        case .duplicateMember(_, let field), .noParticipants(let field), .negativeAmount(_, _, let field),
            .negativeWeight(_, _, let field):
            field
        case .exactAmountsDoNotSum: "split.amounts"
        case .percentagesDoNotSum: "split.percents"
        case .weightsAllZero: "split.shares"
        case .adjustmentForNonParticipant, .adjustmentsExceedTotal, .negativeShare: "split.adjustments"
        case .noItems, .itemsDoNotSum: "split.items"
        case .itemAmountNotPositive(let index, _), .nestedItemized(let index): "split.items[\(index)]"
        case .inItem(let index, let inner): "split.items[\(index)]." + inner.field
        case .inRefund(let inner): inner.field
        }
    }

    public var description: String { description(naming: { _ in nil }) }

    /// The description with each member said by `name` where it knows them ("Bo appears
    /// twice"), else by id: the API's messages carry names, never a raw id (DESIGN §4).
    public func description(naming name: (MemberID) -> String?) -> String {
        func who(_ member: MemberID) -> String { name(member) ?? "member \(member)" }
        func payer(_ member: MemberID) -> String { "payer " + (name(member) ?? "\(member)") }
        return switch self {
        case .zeroTotal:
            "the amount cannot be zero"
        case .noPayers:
            "at least one payer is needed"
        case .payerAmountNotPositive(let member, let amount):
            "\(payer(member)) paid \(amount); each payer's amount must be more than zero"
        case .payersDoNotSum(let sum, let total):
            "payers' amounts sum to \(sum), the total is \(total)"
        case .duplicateMember(let member, _):
            "\(who(member)) appears twice"
        case .noParticipants:
            "choose at least one member to split between"
        case .exactAmountsDoNotSum(let sum, let total):
            "exact amounts sum to \(sum), the total is \(total)"
        case .negativeAmount(let member, let amount, _):
            "the amount for \(who(member)) is \(amount); it cannot be negative"
        case .percentagesDoNotSum(let sum):
            "percentages sum to \(sum)%, need 100%"
        case .negativeWeight(let member, let value, _):
            "\(who(member)) has \(value); it cannot be negative"
        case .weightsAllZero:
            "every share is zero; give at least one member a share"
        case .adjustmentForNonParticipant(let member):
            "\(who(member)) has an adjustment but is not among the members splitting"
        case .adjustmentsExceedTotal(let base):
            "the adjustments add up to more than the total, leaving \(base) to split equally"
        case .negativeShare(let member, let share):
            "the adjustments leave \(who(member)) owing \(share); a share cannot be negative"
        case .noItems:
            "an itemized split needs at least one item"
        case .itemAmountNotPositive(let index, let amount):
            "item \(index + 1) is \(amount); each item must be more than zero"
        case .nestedItemized(let index):
            "item \(index + 1) is itself itemized; split an item equally, exactly, by percent or by shares"
        case .itemsDoNotSum(let sum, let total):
            "items and extras sum to \(sum), the total is \(total)"
        case .inItem(let index, let inner):
            "item \(index + 1): \(inner.description(naming: name))"
        case .amount(let error):
            error.description
        case .inRefund(let inner):
            inner.refundDescription(naming: name)
        }
    }

    /// The description of an error of the mirrored expense a refund is computed as, in the
    /// refund's own terms: amounts turned back to their entered sign, rules said for a refund.
    private func refundDescription(naming name: (MemberID) -> String?) -> String {
        let back = { (money: Money) in Money(minorUnits: 0 &- money.minorUnits, currency: money.currency) }
        func who(_ member: MemberID) -> String { name(member) ?? "member \(member)" }
        func payer(_ member: MemberID) -> String { "payer " + (name(member) ?? "\(member)") }
        return switch self {
        case .payerAmountNotPositive(let member, let amount):
            "\(payer(member)) has \(back(amount)); on a refund each payer's amount is below zero (what they received)"
        case .payersDoNotSum(let sum, let total):
            "payers' amounts sum to \(back(sum)), the refund is \(back(total))"
        case .exactAmountsDoNotSum(let sum, let total):
            "exact amounts sum to \(back(sum)), the refund is \(back(total))"
        case .negativeAmount(let member, let amount, _):
            "the amount for \(who(member)) is \(back(amount)); on a refund it cannot be more than zero"
        case .adjustmentsExceedTotal(let base):
            "the adjustments add up to more than the refund, leaving \(back(base)) to split equally"
        case .negativeShare(let member, let share):
            "the adjustments leave \(who(member)) with \(back(share)); on a refund no share can be more than zero"
        case .itemAmountNotPositive(let index, let amount):
            "item \(index + 1) is \(back(amount)); on a refund each item is below zero"
        case .itemsDoNotSum(let sum, let total):
            "items and extras sum to \(back(sum)), the refund is \(back(total))"
        case .inItem(let index, let inner):
            "item \(index + 1): \(inner.refundDescription(naming: name))"
        default:
            description(naming: name)
        }
    }
}
