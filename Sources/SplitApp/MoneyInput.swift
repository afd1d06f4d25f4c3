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
            if let readings = ambiguous(text, currency) {
                throw AppError.invalid(
                    field: field,
                    message: "“\(text.trimmingCharacters(in: .whitespaces))” could be \(readings.whole) or \(readings.decimal): "
                        + "write \(readings.whole), or use a “.” before the decimals (\(readings.decimal)).")
            }
            // "1.200" in euros: 1200 as much of Europe writes it, or 1.20? Asked, as quick entry asks.
            if let readings = QuickEntry.pointReadings(unmarked(text, currency).rest, currency) {
                throw AppError.invalid(
                    field: field,
                    message: "“\(text.trimmingCharacters(in: .whitespaces))” could be \(readings.whole) or \(readings.decimal): "
                        + "write \(readings.whole), or \(readings.written).")
            }
            throw AppError.invalid(field: field, message: message(error, field: field, currency: currency))
        }
        guard minor.magnitude <= maximumMinorUnits.magnitude else {
            throw AppError.invalid(field: field, message: "\(noun(field)) is larger than this server takes.")
        }
        return minor
    }

    public static func decimal(_ text: String, field: String) throws -> DecimalValue {
        do {
            return try DecimalValue(parsing: text)
        } catch {
            throw AppError.invalid(field: field, message: message(error, field: field, currency: nil))
        }
    }

    /// A refused number said plainly, with an example of what is taken (issue 15: "Write the
    /// amount like 12.50", not the parser's grammar).
    static func message(_ error: AmountError, field: String, currency: Currency?) -> String {
        let what = noun(field)
        let example = currency.map(Self.example) ?? "12.5"
        switch error {
        case .empty:
            return "\(what) is missing: write it like \(example)."
        case .malformed:
            return "Write \(what.lowercasedFirst) as a number like \(example), with a “.” before any decimals."
        case .tooManyDecimals(_, _, let allowed, let code):
            if let code, allowed == 0 {
                return "\(code) has no cents: write \(what.lowercasedFirst) as a whole number like \(example)."
            }
            if let code { return "\(code) has \(allowed) decimals at most: write \(what.lowercasedFirst) like \(example)." }
            return "\(what) has too many decimals (\(allowed) at most)."
        case .overflow:
            return "\(what) is larger than this server takes."
        case .negativeNotAllowed:
            return "\(what) cannot be negative."
        case .currencyMismatch:
            return "\(what) is in another currency."
        }
    }

    /// An amount written the way this currency takes it: "1200" yen, "12.50" dollars, "12.500" dinars.
    public static func example(_ currency: Currency) -> String {
        guard currency.minorUnits > 0 else { return "1200" }
        var unit: Int64 = 1
        for _ in 1..<currency.minorUnits { unit *= 10 }
        return Money(minorUnits: 125 * unit, currency: currency).decimalString
    }

    /// The entry a wire field name stands for, in words ("paidBy[1].amount" → "A payer's amount").
    static func noun(_ field: String) -> String {
        if field == "amount" { return "The amount" }
        if field.hasPrefix("homeAmount") { return "What you were charged" }
        if field.hasPrefix("paidBy") { return "A payer's amount" }
        if field.contains(".extras[") { return "A tax or tip" }
        if field.contains(".items[") && field.hasSuffix("].amount") { return "An item's amount" }
        if field.contains("adjustments") { return "An adjustment" }
        if field.contains("percent") { return "A percentage" }
        if field.contains("shares") { return "A number of shares" }
        if field.contains("rate") { return "The rate" }
        if field.contains("amounts") || field.contains("splits") { return "A share" }
        return "The amount"
    }

    public static func member(_ text: String, field: String) throws -> MemberID {
        guard let id = MemberID(uuidString: text) else {
            throw AppError.invalid(field: field, message: "\(field) is not a member id.")
        }
        return id
    }

    /// The years a date may be in (`CivilDate.storedYears`).
    public static let years = CivilDate.storedYears

    /// A real calendar date written YYYY-MM-DD, in `years` (a filter's bound takes any year).
    public static func date(_ text: String, field: String, years: ClosedRange<Int> = years) throws -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.days(inMonth: month, year: year)
        else {
            throw AppError.invalid(field: field, message: "Pick a date, or write it like 2026-07-14 (year-month-day).")
        }
        guard years.contains(year) else {
            throw AppError.invalid(
                field: field,
                message: "“\(text)” is in the year \(year): write a date from \(years.lowerBound) to \(years.upperBound), like 2026-07-14.")
        }
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
        guard let text else { return UUID.timeOrdered() }
        guard let id = UUID(uuidString: text) else { throw AppError.invalid(field: "id", message: "id is not a UUID.") }
        return id
    }

    /// An IANA time zone name this server knows ("Asia/Tokyo", "UTC"), as it names it.
    public static func timeZone(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.utf8.count), let zone = TimeZone(identifier: name) else {
            throw AppError.invalid(
                field: "timeZone", message: "Give the time zone as its name, like Asia/Tokyo or Europe/Paris.")
        }
        return zoneName(zone.identifier)
    }

    /// A stored zone as people read it: Foundation names UTC "GMT" (found by a new user: the
    /// settings said "time zone GMT" where every page said UTC).
    public static func zoneName(_ identifier: String) -> String { ["GMT", "UTC"].contains(identifier) ? "UTC" : identifier }

    /// The date it is at `now` in a time zone (UTC when it is unknown).
    public static func today(_ now: Int64, in timeZone: String = "UTC") -> String {
        let date = Date(timeIntervalSince1970: Double(now) / 1_000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    public static func text(_ money: Int64, _ code: String) -> String {
        guard let currency = try? Currency(code: code) else { return String(money) }
        return Money(minorUnits: money, currency: currency).decimalString
    }
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

extension MoneyInput {
    /// An amount as a person types it into a form, made into the decimal the parser takes when
    /// that is unambiguous (issue 15): spaces trimmed; the currency's code or symbol before or
    /// after it ("RM 12", "¥1200", "12 EUR"); thousands separated by commas ("1,000",
    /// "12,345.50"); a decimal comma ("12,50"). Anything else — a symbol of another currency, a
    /// comma that could be either ("1,000" for a currency with three decimals) — comes back as
    /// typed, for the parser to refuse with its plain message. The API takes only the plain form.
    public static func typed(_ text: String, _ currency: Currency) -> String {
        let (sign, marked) = unmarked(text, currency)
        var rest = marked
        // As Europe writes it (found by a new user: the form refused "1.234,56" in euros, which
        // quick entry reads): "84,-" and "84.-" have no cents; apostrophes group thousands
        // ("1'234.50"); points before a decimal comma, or two or more of them, can only group
        // thousands ("1.234,56", "1.234.567"). Anything else goes on as before.
        var commaWhole = false
        if rest.wholeMatch(of: /[0-9][0-9'’.,]*[.,][-–]/) != nil {
            commaWhole = rest.dropLast().hasSuffix(",")
            rest = String(rest.dropLast(2))
        }
        if rest.contains("'") || rest.contains("’") {
            guard rest.wholeMatch(of: /[1-9][0-9]{0,2}(['’][0-9]{3})+(\.[0-9]+)?/) != nil else { return text }
            rest = rest.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "’", with: "")
        }
        if rest.wholeMatch(of: /[1-9][0-9]{0,2}(\.[0-9]{3})+,[0-9]+/) != nil
            || rest.wholeMatch(of: /[1-9][0-9]{0,2}(\.[0-9]{3}){2,}/) != nil
            || (commaWhole && rest.wholeMatch(of: /[1-9][0-9]{0,2}(\.[0-9]{3})+/) != nil)
        {
            rest = rest.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
        }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }) else {
            return text
        }
        let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 1 { return sign + rest }
        // "12,50": a decimal comma (a thousands group always has three digits).
        if parts.count == 2, !rest.contains("."), (1...2).contains(parts[1].count), !parts[0].isEmpty {
            return sign + parts[0] + "." + parts[1]
        }
        // "1,000" or "12,345.50": groups of three after one to three digits.
        let last = parts[parts.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        let groups = parts.dropFirst().dropLast().map(Substring.init) + [last[0]]
        guard (1...3).contains(parts[0].count), parts[0].first != "0", groups.allSatisfy({ $0.count == 3 }),
            last.count <= 2,
            // "1,500" in a currency with decimals could be 1500 or 1.5 (a decimal comma before
            // three digits): refused, saying both (found by review: euros read it as 1500). Not
            // "1,234" in euros, which cannot be 1.234.
            !(last.count == 1 && parts.count == 2 && QuickEntry.commaReadings(rest, currency) != nil)
        else { return text }
        return sign + rest.replacingOccurrences(of: ",", with: "")
    }

    /// A rate as a person types it into a form: "1,17" is 1.17 (a decimal comma, as much of
    /// Europe writes it; found by review: it was refused); "0,085" is a decimal. A comma before
    /// three digits ("1,170": 1170 or 1.17?) is refused on `field`, saying both; any other comma
    /// comes back as typed, for the parser to refuse.
    public static func typedRate(_ text: String, field: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts[1].count == 3, !parts[0].isEmpty, parts[0] != "0",
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        {
            throw AppError.invalid(
                field: field,
                message: "“\(trimmed)” could be \(parts[0] + parts[1]) or \(parts[0]).\(parts[1]): write the rate "
                    + "without a thousands comma (\(parts[0] + parts[1])) or with a “.” for decimals (\(parts[0]).\(parts[1])).")
        }
        // "0,085" cannot be thousands (a thousands group never follows a lone 0; found by review).
        guard parts.count == 2, !trimmed.contains("."), !parts[0].isEmpty, !parts[1].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return trimmed }
        return parts[0] + "." + parts[1]
    }

    /// The text without the currency's code or symbol before or after it, and its sign apart.
    private static func unmarked(_ text: String, _ currency: Currency) -> (sign: String, rest: String) {
        var rest = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let markers = ([currency.code] + (symbols[currency.code] ?? [])).sorted { $0.count > $1.count }
        for marker in markers {
            if rest.uppercased().hasPrefix(marker.uppercased()) {
                rest = String(rest.dropFirst(marker.count))
                break
            }
            if rest.uppercased().hasSuffix(marker.uppercased()) {
                rest = String(rest.dropLast(marker.count))
                break
            }
        }
        rest = rest.trimmingCharacters(in: .whitespaces)
        var sign = ""
        if rest.hasPrefix("-") || rest.hasPrefix("−") {
            sign = "-"
            rest = String(rest.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        return (sign, rest)
    }

    /// "1,500" in a currency with decimals: both readings (`QuickEntry.commaReadings`), or nil.
    static func ambiguous(_ text: String, _ currency: Currency) -> (whole: String, decimal: String)? {
        QuickEntry.commaReadings(unmarked(text, currency).rest, currency)
    }

    /// Symbols people type for a currency, besides its code.
    static let symbols: [String: [String]] = [
        "MYR": ["RM"], "JPY": ["¥", "円", "JP¥"], "CNY": ["¥", "元", "CN¥", "RMB"], "USD": ["$", "US$"],
        "SGD": ["S$", "$"], "AUD": ["A$", "$"], "NZD": ["NZ$", "$"], "CAD": ["C$", "CA$", "$"],
        "HKD": ["HK$", "$"], "TWD": ["NT$", "$"], "MXN": ["MX$", "$"], "EUR": ["€"], "GBP": ["£"],
        "KRW": ["₩", "원"], "THB": ["฿"], "INR": ["₹", "Rs"], "IDR": ["Rp"], "PHP": ["₱"], "VND": ["₫"],
        "CHF": ["Fr."], "TRY": ["₺"], "ILS": ["₪"], "PLN": ["zł"], "BRL": ["R$"], "ZAR": ["R"],
        "SEK": ["kr"], "NOK": ["kr"], "DKK": ["kr"], "RUB": ["₽"], "UAH": ["₴"], "NGN": ["₦"],
    ]
}
