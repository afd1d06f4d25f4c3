import Foundation

// A split as a person enters it, before any checking: member ids as text, amounts as decimal
// text in the currency's major unit ("1200" JPY, "12.50" USD). One definition serves the server's
// use cases (which check it, naming the request's field in every refusal) and the SDK (which sends
// it); its JSON is the API's split object, so the SDK's offline queue keeps it as the API's JSON.

/// What the number of a `MemberEntry` is called in JSON.
public protocol MemberEntryKind: Sendable {
    static var key: String { get }
}

/// `{"memberId", "amount"}`: a payer's part, an exact share, an adjustment.
public enum AmountEntry: MemberEntryKind { public static let key = "amount" }
/// `{"memberId", "percent"}`: a percentage of a `.percent` split.
public enum PercentEntry: MemberEntryKind { public static let key = "percent" }
/// `{"memberId", "shares"}`: a weight of a `.shares` split.
public enum SharesEntry: MemberEntryKind { public static let key = "shares" }

/// A member and a number as entered: an amount, a percentage or a weight (which one is `Kind`).
public struct MemberEntry<Kind: MemberEntryKind>: Codable, Hashable, Sendable {
    public var memberId: String
    /// A decimal string, e.g. `"1200"` or `"12.50"` (negative only for adjustments).
    public var value: String

    public init(memberId: String, value: String) {
        self.memberId = memberId
        self.value = value
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        memberId = try container.decode(String.self, forKey: Key(stringValue: "memberId"))
        value = try container.decode(String.self, forKey: Key(stringValue: Kind.key))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(memberId, forKey: Key(stringValue: "memberId"))
        try container.encode(value, forKey: Key(stringValue: Kind.key))
    }
}

public typealias EnteredAmount = MemberEntry<AmountEntry>
public typealias EnteredPercent = MemberEntry<PercentEntry>
public typealias EnteredShares = MemberEntry<SharesEntry>

extension MemberEntry where Kind == AmountEntry {
    public init(memberId: String, amount: String) { self.init(memberId: memberId, value: amount) }
    /// The decimal string amount.
    public var amount: String {
        get { value }
        set { value = newValue }
    }
}

extension MemberEntry where Kind == PercentEntry {
    public init(memberId: String, percent: String) { self.init(memberId: memberId, value: percent) }
    /// A decimal string; all percents of a split add up to exactly 100.
    public var percent: String {
        get { value }
        set { value = newValue }
    }
}

extension MemberEntry where Kind == SharesEntry {
    public init(memberId: String, shares: String) { self.init(memberId: memberId, value: shares) }
    /// A non-negative decimal string weight.
    public var shares: String {
        get { value }
        set { value = newValue }
    }
}

/// How an expense's amount is divided, kept as entered so it can be edited as it was (DESIGN §3):
/// equal (`memberIds`), exact (`amounts`), percent (`percents`), shares (`shares`), adjustment
/// (`memberIds` and `adjustments`, ± amounts on top of an equal split), itemized (`items`, each
/// with its own split, and `extras` such as tax and tip spread in proportion).
public struct EnteredSplit: Codable, Hashable, Sendable {
    /// Which way the amount is divided.
    public enum Mode: String, Codable, Hashable, Sendable, CaseIterable {
        case equal, exact, percent, shares, adjustment, itemized
    }

    /// A line of an itemized bill, with its own split.
    public struct Item: Codable, Hashable, Sendable {
        public var description: String
        public var amount: String
        public var split: EnteredSplit

        public init(description: String, amount: String, split: EnteredSplit) {
            self.description = description
            self.amount = amount
            self.split = split
        }
    }

    /// Tax, tip or a discount on an itemized bill, spread over the items in proportion.
    public struct Extra: Codable, Hashable, Sendable {
        public var description: String
        public var amount: String

        public init(description: String, amount: String) {
            self.description = description
            self.amount = amount
        }
    }

    public var mode: Mode
    public var memberIds: [String]?
    public var amounts: [EnteredAmount]?
    public var percents: [EnteredPercent]?
    public var shares: [EnteredShares]?
    public var adjustments: [EnteredAmount]?
    public var items: [Item]?
    public var extras: [Extra]?

    public init(
        mode: Mode, memberIds: [String]? = nil, amounts: [EnteredAmount]? = nil, percents: [EnteredPercent]? = nil,
        shares: [EnteredShares]? = nil, adjustments: [EnteredAmount]? = nil, items: [Item]? = nil,
        extras: [Extra]? = nil
    ) {
        self.mode = mode
        self.memberIds = memberIds
        self.amounts = amounts
        self.percents = percents
        self.shares = shares
        self.adjustments = adjustments
        self.items = items
        self.extras = extras
    }

    /// A stored rule as it would be entered again: amounts as decimal text in `currency`, with
    /// the currency's decimals ("10.00") or, with `shortestAmounts`, without trailing zeros ("10").
    public init(_ rule: SplitRule, currency: Currency, shortestAmounts: Bool = false) {
        func amount(_ minor: Int64) -> String {
            let text = Money(minorUnits: minor, currency: currency).decimalString
            guard shortestAmounts, let value = try? DecimalValue(parsing: text, allowNegative: true) else {
                return text
            }
            return value.description
        }
        func text(_ amounts: [MemberAmount]) -> [EnteredAmount] {
            amounts.map { EnteredAmount(memberId: $0.memberID.description, value: amount($0.amount)) }
        }
        func decimals<Kind>(_ parts: [MemberDecimal]) -> [MemberEntry<Kind>] {
            parts.map { MemberEntry(memberId: $0.memberID.description, value: $0.value.description) }
        }
        switch rule {
        case .equal(let members):
            self.init(mode: .equal, memberIds: members.map(\.description))
        case .exact(let amounts):
            self.init(mode: .exact, amounts: text(amounts))
        case .percent(let parts):
            self.init(mode: .percent, percents: decimals(parts))
        case .shares(let parts):
            self.init(mode: .shares, shares: decimals(parts))
        case .adjustment(let members, let adjustments):
            self.init(mode: .adjustment, memberIds: members.map(\.description), adjustments: text(adjustments))
        case .itemized(let items, let extras):
            self.init(
                mode: .itemized,
                items: items.map {
                    Item(
                        description: $0.description, amount: amount($0.amount),
                        split: EnteredSplit($0.rule, currency: currency, shortestAmounts: shortestAmounts))
                },
                extras: extras.map { Extra(description: $0.description, amount: amount($0.amount)) })
        }
    }
}
