import Foundation
import SplitCore
import SplitStore

/// An expense as a person entered it, before any checking: text amounts in major units, member
/// ids as text. The API, the web form (and later imports and quick entry) all fill one of these;
/// `ExpenseUseCases` checks it once, naming the request's field in every refusal.
public struct EnteredExpense: Sendable, Equatable {
    public var description: String
    public var amount: String
    public var currency: String
    /// A category id or name (any case); none means "Other".
    public var category: String?
    public var expenseDate: String
    /// Several payers with what each paid; or `paidByMemberId` for one payer of the whole amount;
    /// neither: the caller's member paid.
    public var paidBy: [EnteredAmount]?
    public var paidByMemberId: String?
    public var split: EnteredSplit?
    /// The seed's `splits: [{memberId, amount}]`: an exact split.
    public var splits: [EnteredAmount]?
    /// What it cost in the group's home currency ("charged as").
    public var homeAmount: String?

    public init(
        description: String, amount: String, currency: String, category: String? = nil, expenseDate: String,
        paidBy: [EnteredAmount]? = nil, paidByMemberId: String? = nil, split: EnteredSplit? = nil,
        splits: [EnteredAmount]? = nil, homeAmount: String? = nil
    ) {
        self.description = description
        self.amount = amount
        self.currency = currency
        self.category = category
        self.expenseDate = expenseDate
        self.paidBy = paidBy
        self.paidByMemberId = paidByMemberId
        self.split = split
        self.splits = splits
        self.homeAmount = homeAmount
    }
}

/// The fields an edit changes; nil leaves the stored value.
public struct ExpensePatch: Sendable, Equatable {
    public var description: String?
    public var amount: String?
    public var currency: String?
    public var category: String?
    public var expenseDate: String?
    public var paidBy: [EnteredAmount]?
    public var paidByMemberId: String?
    public var split: EnteredSplit?
    public var splits: [EnteredAmount]?
    public var homeAmount: String?
    /// Change the part of a member no longer in the group all the same (else such an edit is a
    /// 409 `removed_share_changed` saying what it would change).
    public var confirmRemovedShares = false

    public init(
        description: String? = nil, amount: String? = nil, currency: String? = nil, category: String? = nil,
        expenseDate: String? = nil, paidBy: [EnteredAmount]? = nil, paidByMemberId: String? = nil,
        split: EnteredSplit? = nil, splits: [EnteredAmount]? = nil, homeAmount: String? = nil,
        confirmRemovedShares: Bool = false
    ) {
        self.description = description
        self.amount = amount
        self.currency = currency
        self.category = category
        self.expenseDate = expenseDate
        self.paidBy = paidBy
        self.paidByMemberId = paidByMemberId
        self.split = split
        self.splits = splits
        self.homeAmount = homeAmount
        self.confirmRemovedShares = confirmRemovedShares
    }
}

extension EnteredExpense {
    /// The edit laid over this expense. One payer of the whole amount follows a new amount unless
    /// payers are given too; a new split replaces the old whatever its form.
    func applying(_ patch: ExpensePatch, singlePayer: String?) -> EnteredExpense {
        var next = self
        if let description = patch.description { next.description = description }
        if let amount = patch.amount {
            if patch.paidBy == nil, patch.paidByMemberId == nil, let singlePayer {
                next.paidBy = nil
                next.paidByMemberId = singlePayer
            }
            next.amount = amount
        }
        if let currency = patch.currency { next.currency = currency }
        if let category = patch.category { next.category = category }
        if let date = patch.expenseDate { next.expenseDate = date }
        if let paidBy = patch.paidBy {
            next.paidBy = paidBy
            next.paidByMemberId = nil
        }
        if let payer = patch.paidByMemberId, patch.paidBy == nil {
            next.paidBy = nil
            next.paidByMemberId = payer
        }
        if let split = patch.split {
            next.split = split
            next.splits = nil
        }
        if let splits = patch.splits, patch.split == nil {
            next.split = nil
            next.splits = splits
        }
        if let home = patch.homeAmount { next.homeAmount = home }
        return next
    }
}

/// An entered split as a SplitCore rule, with every member it names and the field that named it,
/// so membership can be checked and reported by field.
struct EnteredSplitReader {
    let currency: Currency
    var members: [(MemberID, String)] = []

    mutating func rule(_ input: EnteredSplit, field: String) throws -> SplitRule {
        switch input.mode {
        case .equal:
            return .equal(try ids(input.memberIds, field: field + ".memberIds"))
        case .exact:
            // Any sign: a refund's amounts are below zero, and SplitCore says which sign fits.
            return .exact(try amounts(input.amounts, field: field + ".amounts", allowNegative: true))
        case .percent:
            return .percent(try decimals(input.percents, field: field, key: "percents", value: "percent"))
        case .shares:
            return .shares(try decimals(input.shares, field: field, key: "shares", value: "shares"))
        case .adjustment:
            return .adjustment(
                members: try ids(input.memberIds, field: field + ".memberIds"),
                adjustments: try amounts(input.adjustments ?? [], field: field + ".adjustments", allowNegative: true))
        case .itemized:
            guard let items = input.items else {
                throw AppError.invalid(field: field + ".items", message: "items is missing.")
            }
            try ExpenseLimits.checkCount(items.count, atMost: ExpenseLimits.items, field: field + ".items")
            try ExpenseLimits.checkCount(
                input.extras?.count ?? 0, atMost: ExpenseLimits.extras, field: field + ".extras")
            let splitItems = try items.enumerated().map { index, item in
                let path = "\(field).items[\(index)]"
                try ExpenseLimits.checkText(item.description, field: path + ".description")
                return SplitItem(
                    description: item.description,
                    amount: try MoneyInput.amount(item.amount, currency, field: path + ".amount", allowNegative: true),
                    rule: try rule(item.split, field: path + ".split"))
            }
            let extras = try (input.extras ?? []).enumerated().map { index, extra in
                try ExpenseLimits.checkText(extra.description, field: "\(field).extras[\(index)].description")
                return SplitExtra(
                    description: extra.description,
                    amount: try MoneyInput.amount(
                        extra.amount, currency, field: "\(field).extras[\(index)].amount", allowNegative: true))
            }
            return .itemized(items: splitItems, extras: extras)
        }
    }

    /// Percentages or weights: one decimal per member, each field named by its index.
    private mutating func decimals<Kind>(
        _ entries: [MemberEntry<Kind>]?, field: String, key: String, value: String
    ) throws -> [MemberDecimal] {
        guard let entries else { throw AppError.invalid(field: "\(field).\(key)", message: "\(key) is missing.") }
        try ExpenseLimits.checkCount(entries.count, atMost: ExpenseLimits.membersPerSplit, field: "\(field).\(key)")
        return try entries.enumerated().map { index, entry in
            let path = "\(field).\(key)[\(index)]"
            return MemberDecimal(
                try note(entry.memberId, path + ".memberId"),
                try MoneyInput.decimal(entry.value, field: path + "." + value))
        }
    }

    private mutating func note(_ text: String, _ field: String) throws -> MemberID {
        let id = try MoneyInput.member(text, field: field)
        members.append((id, field))
        return id
    }

    private mutating func ids(_ texts: [String]?, field: String) throws -> [MemberID] {
        guard let texts else { throw AppError.invalid(field: field, message: "\(field) is missing.") }
        try ExpenseLimits.checkCount(texts.count, atMost: ExpenseLimits.membersPerSplit, field: field)
        return try texts.enumerated().map { try note($1, "\(field)[\($0)]") }
    }

    private mutating func amounts(
        _ entries: [EnteredAmount]?, field: String, allowNegative: Bool
    ) throws -> [MemberAmount] {
        guard let entries else { throw AppError.invalid(field: field, message: "\(field) is missing.") }
        try ExpenseLimits.checkCount(entries.count, atMost: ExpenseLimits.membersPerSplit, field: field)
        return try entries.enumerated().map { index, entry in
            let path = "\(field)[\(index)]"
            return MemberAmount(
                try note(entry.memberId, path + ".memberId"),
                try MoneyInput.amount(entry.value, currency, field: path + ".amount", allowNegative: allowNegative))
        }
    }
}

extension EnteredSplit {
    /// The rule this entered split stands for, checked as saving would check it.
    public func rule(in currency: Currency) throws -> SplitRule {
        var reader = EnteredSplitReader(currency: currency)
        return try reader.rule(self, field: "split")
    }
}

extension ExpenseUseCases {
    /// Whether the stored expense already says what this entered edit would make it say, by value
    /// ("10" and "10.00" are one amount): a resent form whose change went through already.
    public static func says(_ current: ExpenseRecord, _ entered: EnteredExpense, payers: [EnteredAmount]) -> Bool {
        guard let currency = try? Currency(code: current.currency),
            entered.currency.uppercased() == current.currency,
            (try? MoneyInput.amount(entered.amount, currency, field: "amount")) == current.amount
        else { return false }
        func decimal(_ text: String?) -> DecimalValue? { text.flatMap { try? DecimalValue(parsing: $0) } }
        let home = current.homeAmount.map { MoneyInput.text($0, current.homeCurrency ?? current.currency) }
        let storedPayers = Set(
            current.payers.map { "\(MemberID($0.memberID))=\(MoneyInput.text($0.amount, current.currency))" })
        let enteredPayers = Set(
            payers.map { payer in
                let member = MemberID(uuidString: payer.memberId).map(\.description) ?? payer.memberId
                let amount = (try? MoneyInput.amount(payer.value, currency, field: "")).map {
                    MoneyInput.text($0, current.currency)
                }
                return "\(member)=\(amount ?? payer.value)"
            })
        return current.description == entered.description.trimmingCharacters(in: .whitespacesAndNewlines)
            && current.expenseDate == entered.expenseDate
            && (entered.category.map { $0 == current.categoryID.text } ?? true)
            && (entered.homeAmount == nil || (decimal(home) != nil && decimal(home) == decimal(entered.homeAmount)))
            && storedPayers == enteredPayers
            && (entered.split.map { (try? $0.rule(in: currency)) == current.rule } ?? true)
    }
}
