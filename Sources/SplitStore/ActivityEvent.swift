import Foundation
import SplitCore

/// What an activity line records besides its kind (`action`), actor and object: data, never
/// words (STYLE §13). The edge renders it in the reader's language; `activity.details` holds it as
/// versioned JSON.
///
///     {"v":1,"subject":"Ramen","amount":1200,"currency":"JPY"}
public struct ActivityEvent: Sendable, Equatable, Codable {
    /// The name of the object when it happened: an expense's description, a member's, a
    /// category's or the group's name.
    public var subject: String?
    /// The amount involved, in minor units of `currency` (an expense's total, a transfer).
    public var amount: Int64?
    public var currency: String?
    /// How many things changed at once (exchange rates set).
    public var count: Int?
    /// `member.joined`, `member.claim_requested`, `member.claim_approved`, `member.claim_rejected`:
    /// the name-only member the user claimed, or asked to be (`subject`: who asked, for the
    /// decision).
    public var asMember: String?
    /// `member.role_changed`: the new role.
    public var role: String?
    /// `share.marked_paid`/`marked_unpaid`: the reason given.
    public var reason: String?
    /// `budget.alert`: the cap (in minor units of `currency`; `amount` is what was spent), the
    /// threshold reached in percent, and the month (YYYY-MM; nil for a trip's budget).
    /// `recurring.skipped`: `period` is the days skipped (YYYY-MM-DD, comma-separated; none in a
    /// line written before they were kept); `pending.dismissed`: the day of the one dismissed.
    public var limit: Int64?
    public var percent: Int?
    public var period: String?
    /// A line written before events were structured whose words could not be read back into
    /// data: kept exactly as written, shown as is.
    public var legacyText: String?
    /// `settlement.*`: who paid whom, by name when it happened (found by a new user: "Aki
    /// recorded a transfer of 12.50 GBP" for one from Dan to Cho). `category.updated`,
    /// `member.renamed`, `group.renamed`: the name before the rename. `expense.updated`: the
    /// amount before ("2,400.00 CHF"), when the edit changed it.
    public var from: String?
    public var to: String?
    /// `share.*`: whose share.
    public var member: String?
    /// The members `from`, `to` and `member` name, by id (a name may change, or be taken by
    /// someone new after its member left): a notification says "you" by these, never by a name.
    /// A line written before they were kept, or copied from another group, has none.
    public var fromID: UUID?
    public var toID: UUID?
    public var memberID: UUID?
    /// `member.claim_*`: the account that asked (no member when turned down). `member.renamed`:
    /// the renamed member's account, if any (a rename of oneself is told by it).
    public var userID: UUID?
    /// `payment_request.created`/`cancelled`: the request (`to`: whom it asks, when one member).
    public var requestID: UUID?

    public init(
        subject: String? = nil, amount: Int64? = nil, currency: String? = nil, count: Int? = nil,
        asMember: String? = nil, role: String? = nil, reason: String? = nil, limit: Int64? = nil, percent: Int? = nil,
        period: String? = nil, legacyText: String? = nil, from: String? = nil, to: String? = nil, member: String? = nil,
        fromID: UUID? = nil, toID: UUID? = nil, memberID: UUID? = nil, userID: UUID? = nil, requestID: UUID? = nil
    ) {
        self.requestID = requestID
        self.fromID = fromID
        self.toID = toID
        self.memberID = memberID
        self.userID = userID
        self.from = from
        self.to = to
        self.member = member
        self.limit = limit
        self.percent = percent
        self.period = period
        self.role = role
        self.reason = reason
        self.subject = subject
        self.amount = amount
        self.currency = currency
        self.count = count
        self.asMember = asMember
        self.legacyText = legacyText
    }

    public static let currentVersion = 1

    enum CodingKeys: String, CodingKey {
        case version = "v", subject, amount, currency, count, asMember, role, reason, limit, percent, period, legacyText
        case from, to, member, fromID = "fromId", toID = "toId", memberID = "memberId", userID = "userId"
        case requestID = "requestId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "unknown activity version \(version)")
        }
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        amount = try container.decodeIfPresent(Int64.self, forKey: .amount)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        asMember = try container.decodeIfPresent(String.self, forKey: .asMember)
        role = try container.decodeIfPresent(String.self, forKey: .role)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        limit = try container.decodeIfPresent(Int64.self, forKey: .limit)
        percent = try container.decodeIfPresent(Int.self, forKey: .percent)
        period = try container.decodeIfPresent(String.self, forKey: .period)
        legacyText = try container.decodeIfPresent(String.self, forKey: .legacyText)
        from = try container.decodeIfPresent(String.self, forKey: .from)
        to = try container.decodeIfPresent(String.self, forKey: .to)
        member = try container.decodeIfPresent(String.self, forKey: .member)
        // An id that does not read (a file edited by hand) is as if none were kept.
        func id(_ key: CodingKeys) -> UUID? {
            guard let text = try? container.decodeIfPresent(String.self, forKey: key) else { return nil }
            return UUID(uuidString: text)
        }
        fromID = id(.fromID)
        toID = id(.toID)
        memberID = id(.memberID)
        userID = id(.userID)
        requestID = id(.requestID)
    }


    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(count, forKey: .count)
        try container.encodeIfPresent(asMember, forKey: .asMember)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(limit, forKey: .limit)
        try container.encodeIfPresent(percent, forKey: .percent)
        try container.encodeIfPresent(period, forKey: .period)
        try container.encodeIfPresent(legacyText, forKey: .legacyText)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(to, forKey: .to)
        try container.encodeIfPresent(member, forKey: .member)
        try container.encodeIfPresent(fromID?.text, forKey: .fromID)
        try container.encodeIfPresent(toID?.text, forKey: .toID)
        try container.encodeIfPresent(memberID?.text, forKey: .memberID)
        try container.encodeIfPresent(userID?.text, forKey: .userID)
        try container.encodeIfPresent(requestID?.text, forKey: .requestID)
    }

    /// The stored text: what `JSONEncoder` writes with sorted keys and unescaped slashes
    /// (`jsonWithFoundation`), written field by field. Every write to a group stores one, and
    /// the encoder was 1.6 % of a create's CPU (issue 16).
    public var json: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + (subject?.utf8.count ?? 0))
        func key(_ name: StaticString) {
            bytes.append(bytes.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func text(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            JSONText.appendString(value, to: &bytes, escapingSlashes: false)
        }
        func number(_ name: StaticString, _ value: Int64?) {
            guard let value else { return }
            key(name)
            JSONText.appendInteger(value, to: &bytes)
        }
        // In the order of the keys' names, as `.sortedKeys` writes them.
        number("amount", amount)
        text("asMember", asMember)
        number("count", count.map(Int64.init))
        text("currency", currency)
        text("from", from)
        text("fromId", fromID?.text)
        text("legacyText", legacyText)
        number("limit", limit)
        text("member", member)
        text("memberId", memberID?.text)
        number("percent", percent.map(Int64.init))
        text("period", period)
        text("reason", reason)
        text("requestId", requestID?.text)
        text("role", role)
        text("subject", subject)
        text("to", to)
        text("toId", toID?.text)
        text("userId", userID?.text)
        number("v", Int64(Self.currentVersion))
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `json` as `JSONEncoder` writes it, for tests to compare.
    var jsonWithFoundation: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> ActivityEvent {
        try JSONDecoder().decode(ActivityEvent.self, from: Data(text.utf8))
    }
}

extension ActivityEvent {
    /// Reads back the English sentence a line stored before migration 0008 (`summary`), written
    /// by this code's earlier versions with one template per action. A sentence that does not
    /// match its template is kept whole in `legacyText`; nothing is dropped.
    static func fromLegacy(action: String, actorName: String, summary: String) -> ActivityEvent {
        let actor = actorName.isEmpty ? "Someone" : actorName
        func after(_ prefix: String) -> String? {
            summary.hasPrefix(prefix) ? String(summary.dropFirst(prefix.count)) : nil
        }
        /// "Ramen (1,200 JPY)" → ("Ramen", 1200, "JPY").
        func subjectAndMoney(_ rest: String) -> ActivityEvent? {
            guard rest.hasSuffix(")"), let open = rest.range(of: " (", options: .backwards) else { return nil }
            let subject = String(rest[..<open.lowerBound])
            let moneyText = String(rest[open.upperBound..<rest.index(before: rest.endIndex)])
            guard let (amount, currency) = Self.parseMoney(moneyText) else { return nil }
            return ActivityEvent(subject: subject, amount: amount, currency: currency)
        }
        func money(_ text: String) -> ActivityEvent? {
            guard let (amount, currency) = Self.parseMoney(text) else { return nil }
            return ActivityEvent(amount: amount, currency: currency)
        }
        let parsed: ActivityEvent? =
            switch action {
            case "group.created": after("\(actor) created ").map { ActivityEvent(subject: $0) }
            case "member.added": after("\(actor) added ").map { ActivityEvent(subject: $0) }
            case "member.joined":
                summary == "\(actor) joined"
                    ? ActivityEvent() : after("\(actor) joined as ").map { ActivityEvent(asMember: $0) }
            case "expense.created": after("\(actor) added ").flatMap(subjectAndMoney)
            case "expense.updated": after("\(actor) changed ").flatMap(subjectAndMoney)
            case "expense.deleted": after("\(actor) deleted ").map { ActivityEvent(subject: $0) }
            case "expense.restored": after("\(actor) restored ").map { ActivityEvent(subject: $0) }
            case "share.marked_paid":
                after("\(actor) marked a share of ").flatMap { rest in
                    rest.hasSuffix(" paid") ? ActivityEvent(subject: String(rest.dropLast(" paid".count))) : nil
                }
            case "share.marked_unpaid":
                after("\(actor) marked a share of ").flatMap { rest in
                    rest.hasSuffix(" unpaid") ? ActivityEvent(subject: String(rest.dropLast(" unpaid".count))) : nil
                }
            case "settlement.recorded": after("\(actor) recorded a transfer of ").flatMap(money)
            case "settlement.deleted": after("\(actor) deleted a transfer of ").flatMap(money)
            case "rates.updated":
                after("\(actor) set ").flatMap { rest in
                    rest.hasSuffix(" exchange rate(s)")
                        ? Int(rest.dropLast(" exchange rate(s)".count)).map { ActivityEvent(count: $0) } : nil
                }
            case "category.created": after("\(actor) added category ").map { ActivityEvent(subject: $0) }
            case "category.updated": after("\(actor) changed category ").map { ActivityEvent(subject: $0) }
            case "category.deleted": after("\(actor) deleted category ").map { ActivityEvent(subject: $0) }
            case "category.reordered": summary == "\(actor) reordered the categories" ? ActivityEvent() : nil
            default: nil
            }
        return parsed ?? ActivityEvent(legacyText: summary)
    }

    /// "1,234.50 USD" → (123450, "USD"): the inverse of `Money.description` for known codes.
    static func parseMoney(_ text: String) -> (Int64, String)? {
        guard let space = text.lastIndex(of: " ") else { return nil }
        let code = String(text[text.index(after: space)...])
        let number = text[..<space].replacingOccurrences(of: ",", with: "")
        guard let currency = try? Currency(code: code),
            let money = try? Money(parsing: number, currency: currency, allowNegative: true)
        else { return nil }
        return (money.minorUnits, code)
    }
}
