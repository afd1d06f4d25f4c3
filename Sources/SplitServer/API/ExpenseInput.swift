import Foundation
import HTTPTypes
import SplitAPI
import SplitCore
import SplitStore

/// Wire → domain for money (DESIGN §3): decimal strings in major units, exact or a 422 that
/// names the field; never a silent round.
enum MoneyInput {
    static func currency(_ code: String, field: String) throws -> Currency {
        do {
            return try Currency(code: code)
        } catch {
            throw APIError.invalid(field: field, "\"\(code.prefix(20))\" is not an ISO 4217 currency code.")
        }
    }

    /// The largest amount taken, in minor units (10 trillion yen, 100 billion dollars): far
    /// beyond any trip, and small enough that no sum of them in a group's ledger can overflow.
    static let maximumMinorUnits: Int64 = 10_000_000_000_000

    static func amount(_ text: String, _ currency: Currency, field: String, allowNegative: Bool = false) throws -> Int64
    {
        let minor: Int64
        do {
            minor = try Money(parsing: text, currency: currency, allowNegative: allowNegative).minorUnits
        } catch {
            throw APIError.invalid(field: field, "\(error)")
        }
        guard minor.magnitude <= maximumMinorUnits.magnitude else {
            throw APIError.invalid(field: field, "\(field) is larger than this server takes.")
        }
        return minor
    }

    static func decimal(_ text: String, field: String) throws -> DecimalValue {
        do {
            return try DecimalValue(parsing: text)
        } catch {
            throw APIError.invalid(field: field, "\(error)")
        }
    }

    static func member(_ text: String, field: String) throws -> MemberID {
        guard let id = MemberID(uuidString: text) else {
            throw APIError.invalid(field: field, "\(field) is not a member id.")
        }
        return id
    }

    /// A real calendar date written YYYY-MM-DD.
    static func date(_ text: String, field: String) throws -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.days(inMonth: month, year: year)
        else { throw APIError.invalid(field: field, "\(field) must be a date written YYYY-MM-DD.") }
        return text
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func today(_ now: Int64) -> String {
        let date = Date(milliseconds: now)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    static func text(_ money: Int64, _ code: String) -> String {
        guard let currency = try? Currency(code: code) else { return String(money) }
        return Money(minorUnits: money, currency: currency).decimalString
    }
}

/// The wire split (`SplitInput`) as a SplitCore rule, with every member it names and the field
/// that named it, so membership can be checked and reported by field.
struct SplitInputReader {
    let currency: Currency
    var members: [(MemberID, String)] = []

    mutating func rule(_ input: Components.Schemas.SplitInput, field: String) throws -> SplitRule {
        switch input.mode {
        case .equal:
            return .equal(try ids(input.memberIds, field: field + ".memberIds"))
        case .exact:
            return .exact(try amounts(input.amounts, field: field + ".amounts", allowNegative: false))
        case .percent:
            return .percent(
                try decimals(
                    input.percents.map { $0.map { ($0.memberId, $0.percent) } }, field: field, key: "percents",
                    value: "percent"))
        case .shares:
            return .shares(
                try decimals(
                    input.shares.map { $0.map { ($0.memberId, $0.shares) } }, field: field, key: "shares",
                    value: "shares"))
        case .adjustment:
            return .adjustment(
                members: try ids(input.memberIds, field: field + ".memberIds"),
                adjustments: try amounts(input.adjustments ?? [], field: field + ".adjustments", allowNegative: true))
        case .itemized:
            guard let items = input.items else { throw APIError.invalid(field: field + ".items", "items is missing.") }
            let splitItems = try items.enumerated().map { index, item in
                let path = "\(field).items[\(index)]"
                return SplitItem(
                    description: item.description,
                    amount: try MoneyInput.amount(item.amount, currency, field: path + ".amount"),
                    rule: try rule(item.split, field: path + ".split"))
            }
            let extras = try (input.extras ?? []).enumerated().map { index, extra in
                SplitExtra(
                    description: extra.description,
                    amount: try MoneyInput.amount(
                        extra.amount, currency, field: "\(field).extras[\(index)].amount", allowNegative: true))
            }
            return .itemized(items: splitItems, extras: extras)
        }
    }

    /// Percentages or weights: one decimal per member, each field named by its index.
    private mutating func decimals(
        _ entries: [(memberId: String, value: String)]?, field: String, key: String, value: String
    ) throws -> [MemberDecimal] {
        guard let entries else { throw APIError.invalid(field: "\(field).\(key)", "\(key) is missing.") }
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
        guard let texts else { throw APIError.invalid(field: field, "\(field) is missing.") }
        return try texts.enumerated().map { try note($1, "\(field)[\($0)]") }
    }

    private mutating func amounts(
        _ entries: [Components.Schemas.MemberAmount]?, field: String, allowNegative: Bool
    ) throws -> [MemberAmount] {
        guard let entries else { throw APIError.invalid(field: field, "\(field) is missing.") }
        return try entries.enumerated().map { index, entry in
            let path = "\(field)[\(index)]"
            return MemberAmount(
                try note(entry.memberId, path + ".memberId"),
                try MoneyInput.amount(entry.amount, currency, field: path + ".amount", allowNegative: allowNegative))
        }
    }
}
