import Foundation
internal import OpenAPIRuntime

/// Reads the server's timestamps (`2026-11-21T05:23:11Z`: ISO 8601, UTC, whole seconds; DESIGN
/// §5) with plain arithmetic. The runtime's transcoder goes through `ISO8601DateFormatter`, which
/// is ICU on Linux: parsing dates was a third of the SDK's time in a first sync of 10,000
/// expenses (docs/benchmarks.md). Any other form goes to that transcoder, which decides as before.
struct ServerDateTranscoder: DateTranscoder {
    let fallback = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String { try fallback.encode(date) }

    func decode(_ text: String) throws -> Date {
        if let date = Self.parseUTC(text) { return date }
        return try fallback.decode(text)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` with a real calendar date and time; nil for anything else.
    static func parseUTC(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                bytes[19] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
                second < 60
            else { return nil }
            let seconds =
                daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar
    /// (https://howardhinnant.github.io/date_algorithms.html#days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
