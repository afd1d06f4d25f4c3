import Foundation
import SplitCore

/// Text as entered → domain values (DESIGN §3): decimal strings in major units, exact or an
/// `AppError.invalid` that names the field; never a silent round. Every entry point (API, web
/// forms, later imports and quick entry) reads amounts, dates and ids through here.
public enum MoneyInput {
    public static func currency(_ code: String, field: String) throws -> Currency {
        do {
            return try Currency(code: code)
        } catch {
            throw AppError.invalid(field: field, message: "\"\(code.prefix(20))\" is not an ISO 4217 currency code.")
        }
    }

    /// The largest amount taken, in minor units (10 trillion yen, 100 billion dollars): far
    /// beyond any trip, and small enough that no sum of them in a group's ledger can overflow.
    public static let maximumMinorUnits: Int64 = 10_000_000_000_000

    public static func amount(_ text: String, _ currency: Currency, field: String, allowNegative: Bool = false) throws
        -> Int64
    {
        let minor: Int64
        do {
            minor = try Money(parsing: text, currency: currency, allowNegative: allowNegative).minorUnits
        } catch {
            throw AppError.invalid(field: field, message: "\(error)")
        }
        guard minor.magnitude <= maximumMinorUnits.magnitude else {
            throw AppError.invalid(field: field, message: "\(field) is larger than this server takes.")
        }
        return minor
    }

    public static func decimal(_ text: String, field: String) throws -> DecimalValue {
        do {
            return try DecimalValue(parsing: text)
        } catch {
            throw AppError.invalid(field: field, message: "\(error)")
        }
    }

    public static func member(_ text: String, field: String) throws -> MemberID {
        guard let id = MemberID(uuidString: text) else {
            throw AppError.invalid(field: field, message: "\(field) is not a member id.")
        }
        return id
    }

    /// A real calendar date written YYYY-MM-DD.
    public static func date(_ text: String, field: String) throws -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.days(inMonth: month, year: year)
        else { throw AppError.invalid(field: field, message: "\(field) must be a date written YYYY-MM-DD.") }
        return text
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A client-generated id, or a new one when none was sent.
    public static func clientID(_ text: String?) throws -> UUID {
        guard let text else { return UUID() }
        guard let id = UUID(uuidString: text) else { throw AppError.invalid(field: "id", message: "id is not a UUID.") }
        return id
    }

    public static func today(_ now: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(now) / 1_000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    public static func text(_ money: Int64, _ code: String) -> String {
        guard let currency = try? Currency(code: code) else { return String(money) }
        return Money(minorUnits: money, currency: currency).decimalString
    }
}
