import Foundation

/// The API's timestamps (`2026-11-21T05:23:11Z`: ISO 8601, UTC, whole seconds; DESIGN §5) written
/// and read with plain arithmetic. Foundation's `ISO8601DateFormatter` is ICU on Linux: reading
/// dates was a third of the SDK's time in a first sync, and writing them a few percent of every
/// server answer that holds expenses (issue 16). Server and SDK use this one implementation.
public enum UTCTimestamp {
    /// `YYYY-MM-DDTHH:MM:SSZ`, the second rounded down; years 0 to 9999.
    public static func format(_ date: Date) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        guard append(date, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same 20 bytes as `format` appended to `bytes` (the change feed's writer); false, with
    /// nothing appended, when `format` would give nil.
    public static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        // Years 0 to 9999 lie well inside ±2^50 seconds; anything outside (or not a number) is nil, never a trap.
        guard let seconds = Int(exactly: date.timeIntervalSince1970.rounded(.down)), seconds.magnitude < 1 << 50 else {
            return false
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        guard (0...9999).contains(year) else { return false }
        func put(_ value: Int, _ count: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator { bytes.append(separator) }
        }
        put(year, 4, then: UInt8(ascii: "-"))
        put(month, 2, then: UInt8(ascii: "-"))
        put(day, 2, then: UInt8(ascii: "T"))
        put(secondOfDay / 3_600, 2, then: UInt8(ascii: ":"))
        put(secondOfDay % 3_600 / 60, 2, then: UInt8(ascii: ":"))
        put(secondOfDay % 60, 2, then: UInt8(ascii: "Z"))
        return true
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` with a real calendar date and time; nil for anything else.
    public static func parse(_ text: String) -> Date? {
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
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01 (the inverse, civil_from_days, same source).
    static func civil(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
