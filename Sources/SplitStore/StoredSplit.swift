import Foundation
import SplitCore

/// The split rule as `expenses.split_json` holds it: our own versioned format (STYLE §13), never
/// the API's generated types, so renaming a field in openapi.yaml cannot break stored expenses.
///
/// Version 1 stores only what the rule's mode uses: member ids, amounts as integers in minor
/// units of the expense's currency, decimals (percentages, weights) as canonical text.
///
///     {"v":1,"mode":"equal","members":["…","…"]}
///     {"v":1,"mode":"exact","amounts":[{"m":"…","a":1250}]}
///     {"v":1,"mode":"percent","parts":[{"m":"…","d":"33.33"}]}          (also "shares")
///     {"v":1,"mode":"adjustment","members":[…],"amounts":[{"m":"…","a":-200}]}
///     {"v":1,"mode":"itemized","items":[{"text":"Beer","a":900,"split":{…}}],"extras":[{"text":"Tax","a":80}]}
///
/// Rows written before version 1 hold the wire encoding of that time (amounts as decimal strings
/// in major units, `memberIds`, `percents` …); `decode` still reads them, and migration
/// 0007_owned_split_format rewrites them all.
public enum StoredSplit {
    public static let currentVersion = 1

    public enum DecodingError: Error, Equatable, Sendable {
        case unreadable(String)
        case unknownVersion(Int)
    }

    public static func encode(_ rule: SplitRule) -> String {
        var node = Node(rule)
        node.version = currentVersion
        return node.text
    }

    /// `encode` through `JSONEncoder`, which `Node.text` matches to the byte (tests compare them).
    static func encodeWithFoundation(_ rule: SplitRule) -> String {
        var node = Node(rule)
        node.version = currentVersion
        // Sorted keys: the same rule is the same text (an idempotent retry compares rules, and
        // tests compare rows).
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain values cannot fail.
        return String(decoding: (try? encoder.encode(node)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// - Parameter currency: the expense's currency, which gives legacy rows' decimal amounts
    ///   their minor units.
    public static func decode(_ text: String, currency: String) throws -> SplitRule {
        // Version 1 as `encode` writes it, read by hand: JSONDecoder was a tenth of a change-feed
        // page's server time (issue 16). Anything else (escapes the reader leaves alone, a legacy
        // row, text that is no split) goes through JSONDecoder.
        try decode(text, currency: currency, node: Node.read(text) ?? foundationNode(text))
    }

    /// `decode` through `JSONDecoder` alone (tests compare the two).
    static func decodeWithFoundation(_ text: String, currency: String) throws -> SplitRule {
        try decode(text, currency: currency, node: foundationNode(text))
    }

    private static func foundationNode(_ text: String) -> Node? {
        try? JSONDecoder().decode(Node.self, from: Data(text.utf8))
    }

    /// The rule of `node` when it has a version; otherwise `text` read as the legacy format.
    private static func decode(_ text: String, currency: String, node: Node?) throws -> SplitRule {
        if let node, let version = node.version {
            guard version == currentVersion else { throw DecodingError.unknownVersion(version) }
            return try node.rule()
        }
        guard let legacy = try? JSONDecoder().decode(LegacyWireSplit.self, from: Data(text.utf8)) else {
            throw DecodingError.unreadable("split_json is neither version \(currentVersion) nor the legacy format")
        }
        return try legacy.rule(currency: try Currency(code: currency))
    }

    /// A rule as a JSON value inside a larger document (our group export, issue 18): version 1's
    /// object, the same text `encode` writes.
    public struct Value: Codable, Sendable {
        public var rule: SplitRule

        public init(_ rule: SplitRule) { self.rule = rule }

        public init(from decoder: any Decoder) throws {
            let node = try Node(from: decoder)
            guard node.version == currentVersion else {
                throw DecodingError.unknownVersion(node.version ?? 0)
            }
            rule = try node.rule()
        }

        public func encode(to encoder: any Encoder) throws {
            var node = Node(rule)
            node.version = currentVersion
            try node.encode(to: encoder)
        }
    }

    /// Version 1 on disk. The coding keys are the format: never rename them.
    struct Node: Codable {
        var version: Int?
        var mode: String
        var members: [String]?
        var amounts: [Amount]?
        var parts: [Part]?
        var items: [Item]?
        var extras: [Extra]?

        enum CodingKeys: String, CodingKey {
            case version = "v", mode, members, amounts, parts, items, extras
        }

        struct Amount: Codable {
            var member: String
            var amount: Int64
            enum CodingKeys: String, CodingKey { case member = "m", amount = "a" }
        }

        struct Part: Codable {
            var member: String
            var decimal: String
            enum CodingKeys: String, CodingKey { case member = "m", decimal = "d" }
        }

        struct Item: Codable {
            var text: String
            var amount: Int64
            var split: Node
            enum CodingKeys: String, CodingKey { case text, amount = "a", split }
        }

        struct Extra: Codable {
            var text: String
            var amount: Int64
            enum CodingKeys: String, CodingKey { case text, amount = "a" }
        }

        init(_ rule: SplitRule) {
            mode = rule.mode
            switch rule {
            case .equal(let members):
                self.members = members.map(\.description)
            case .exact(let amounts):
                self.amounts = amounts.map(Amount.init)
            case .percent(let parts), .shares(let parts):
                self.parts = parts.map { Part(member: $0.memberID.description, decimal: $0.value.description) }
            case .adjustment(let members, let adjustments):
                self.members = members.map(\.description)
                amounts = adjustments.map(Amount.init)
            case .itemized(let items, let extras):
                self.items = items.map { Item(text: $0.description, amount: $0.amount, split: Node($0.rule)) }
                self.extras = extras.map { Extra(text: $0.description, amount: $0.amount) }
            }
        }

        func rule() throws -> SplitRule {
            switch mode {
            case "equal": return .equal(try ids(members))
            case "exact": return .exact(try memberAmounts(amounts))
            case "percent": return .percent(try decimals(parts))
            case "shares": return .shares(try decimals(parts))
            case "adjustment":
                return .adjustment(members: try ids(members), adjustments: try memberAmounts(amounts ?? []))
            case "itemized":
                return .itemized(
                    items: try (items ?? []).map {
                        SplitItem(description: $0.text, amount: $0.amount, rule: try $0.split.rule())
                    },
                    extras: (extras ?? []).map { SplitExtra(description: $0.text, amount: $0.amount) })
            default: throw DecodingError.unreadable("unknown split mode \(mode)")
            }
        }

        private func ids(_ texts: [String]?) throws -> [MemberID] {
            try (texts ?? []).map { try member($0) }
        }

        private func memberAmounts(_ entries: [Amount]?) throws -> [MemberAmount] {
            try (entries ?? []).map { MemberAmount(try member($0.member), $0.amount) }
        }

        private func decimals(_ entries: [Part]?) throws -> [MemberDecimal] {
            try (entries ?? []).map { entry in
                guard let value = try? DecimalValue(parsing: entry.decimal, allowNegative: true) else {
                    throw DecodingError.unreadable("\(entry.decimal) is not a decimal")
                }
                return MemberDecimal(try member(entry.member), value)
            }
        }
    }

    static func member(_ text: String) throws -> MemberID {
        guard let id = MemberID(uuidString: text) else { throw DecodingError.unreadable("\(text) is not a member id") }
        return id
    }
}

extension StoredSplit.Node.Amount {
    init(_ entry: MemberAmount) { self.init(member: entry.memberID.description, amount: entry.amount) }
}

/// The shape `split_json` had before version 1: the API's split object of that time as it was
/// sent (decimal strings in major units). Frozen here, apart from the generated types, so old rows
/// stay readable whatever the API becomes.
struct LegacyWireSplit: Decodable {
    var mode: String
    var memberIds: [String]?
    var amounts: [MemberText]?
    var percents: [Percent]?
    var shares: [Weight]?
    var adjustments: [MemberText]?
    var items: [Item]?
    var extras: [Extra]?

    struct MemberText: Decodable {
        var memberId: String
        var amount: String
    }

    struct Percent: Decodable {
        var memberId: String
        var percent: String
    }

    struct Weight: Decodable {
        var memberId: String
        var shares: String
    }

    struct Item: Decodable {
        var description: String
        var amount: String
        var split: LegacyWireSplit
    }

    struct Extra: Decodable {
        var description: String
        var amount: String
    }

    func rule(currency: Currency) throws -> SplitRule {
        func minor(_ text: String) throws -> Int64 {
            do {
                return try Money(parsing: text, currency: currency, allowNegative: true).minorUnits
            } catch {
                throw StoredSplit.DecodingError.unreadable("\(text) is not an amount in \(currency.code)")
            }
        }
        func decimal(_ text: String) throws -> DecimalValue {
            do {
                return try DecimalValue(parsing: text, allowNegative: true)
            } catch {
                throw StoredSplit.DecodingError.unreadable("\(text) is not a decimal")
            }
        }
        // Only the fields the mode uses: old rows may hold others, never checked when they were sent.
        func members() throws -> [MemberID] { try (memberIds ?? []).map(StoredSplit.member) }
        switch mode {
        case "equal":
            return .equal(try members())
        case "exact":
            return .exact(
                try (amounts ?? []).map { MemberAmount(try StoredSplit.member($0.memberId), try minor($0.amount)) })
        case "percent":
            return .percent(
                try (percents ?? []).map { MemberDecimal(try StoredSplit.member($0.memberId), try decimal($0.percent)) }
            )
        case "shares":
            return .shares(
                try (shares ?? []).map { MemberDecimal(try StoredSplit.member($0.memberId), try decimal($0.shares)) })
        case "adjustment":
            return .adjustment(
                members: try members(),
                adjustments: try (adjustments ?? []).map {
                    MemberAmount(try StoredSplit.member($0.memberId), try minor($0.amount))
                })
        case "itemized":
            return .itemized(
                items: try (items ?? []).map {
                    SplitItem(
                        description: $0.description, amount: try minor($0.amount),
                        rule: try $0.split.rule(currency: currency))
                },
                extras: try (extras ?? []).map { SplitExtra(description: $0.description, amount: try minor($0.amount)) }
            )
        default:
            throw StoredSplit.DecodingError.unreadable("unknown split mode \(mode)")
        }
    }
}
