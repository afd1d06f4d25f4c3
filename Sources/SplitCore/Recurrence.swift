import Foundation

/// A day on the calendar, wherever it is (a group's "today" in its own time zone): no hours, so
/// no daylight-saving jumps. Ordered; counted in days since 1970-01-01.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The years a stored date may be in: a shared cost of the year 26 is 2026 mistyped (found
    /// by review: 0026-07-14 was taken, and sorted before everything).
    public static let storedYears = 1900...2199

    public let year: Int
    public let month: Int
    public let day: Int

    /// A real date (years 1 to 9999), or nil.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CivilDate.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// "2026-11-25", or nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public init(daysSinceEpoch days: Int) {
        let (year, month, day) = UTCTimestamp.civil(daysSinceEpoch: days)
        self.year = year
        self.month = month
        self.day = day
    }

    public var daysSinceEpoch: Int { UTCTimestamp.daysSinceEpoch(year: year, month: month, day: day) }

    /// 1 = Monday … 7 = Sunday (ISO 8601); 1970-01-01 was a Thursday.
    public var weekday: Int { ((daysSinceEpoch % 7 + 7) % 7 + 3) % 7 + 1 }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// When a recurring expense falls due (issue 20): every `interval` days, weeks (on chosen
/// weekdays), months or years from `start`, until `end` or for `count` occurrences. A monthly or
/// yearly rule on a day a month lacks (the 31st, February 29) falls on that month's last day
/// (`clamp`) or not at all that month (`skip`). Pure: the same rule gives the same dates anywhere.
public struct Recurrence: Hashable, Sendable {
    public enum Unit: String, Sendable, CaseIterable { case day, week, month, year }
    public enum MonthEnd: String, Sendable, CaseIterable { case clamp, skip }

    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case interval
        case weekdays
        case endBeforeStart
        case count
        case never

        public var description: String {
            switch self {
            case .interval: "the interval is from 1 to 1,000"
            case .weekdays: "weekdays are 1 (Monday) to 7 (Sunday), and only for a weekly rule"
            case .endBeforeStart: "the end comes before the start"
            case .count: "the number of occurrences is from 1 to 10,000"
            case .never: "this rule never falls due between its start and its end"
            }
        }
    }

    public let unit: Unit
    public let interval: Int
    /// For a weekly rule: the weekdays (1 = Monday … 7 = Sunday); empty means the start's.
    public let weekdays: Set<Int>
    public let monthEnd: MonthEnd
    public let start: CivilDate
    public let end: CivilDate?
    public let count: Int?

    public init(
        unit: Unit, interval: Int = 1, weekdays: Set<Int> = [], monthEnd: MonthEnd = .clamp, start: CivilDate,
        end: CivilDate? = nil, count: Int? = nil
    ) throws(Problem) {
        guard (1...1_000).contains(interval) else { throw .interval }
        guard weekdays.isEmpty || (unit == .week && weekdays.allSatisfy({ (1...7).contains($0) })) else { throw .weekdays }
        if let end, end < start { throw .endBeforeStart }
        if let count, !(1...10_000).contains(count) { throw .count }
        self.unit = unit
        self.interval = interval
        self.weekdays = unit == .week && weekdays.isEmpty ? [start.weekday] : weekdays
        self.monthEnd = monthEnd
        self.start = start
        self.end = end
        self.count = count
        if let end, firstCandidate > end { throw .never }
    }

    /// The rule's first date, ignoring its end: the start, or for a weekly rule the first of its
    /// weekdays on or after the start.
    var firstCandidate: CivilDate {
        guard unit == .week else { return start }
        let days = weekdays.sorted()
        if let later = days.first(where: { $0 >= start.weekday }) { return start.adding(days: later - start.weekday) }
        // None left in the start's week: the first weekday, `interval` weeks on.
        let monday = start.adding(days: 1 - start.weekday)
        return monday.adding(days: 7 * interval + days[0] - 1)
    }

    /// The occurrences in order, from the first on or after `from` (default: the start) up to
    /// and including `through`, at most `limit` of them; the count and the end hold. Asking from
    /// a late day costs no more than asking from the start: the steps before `from` are counted,
    /// not walked (a daily rule from year 1 would be millions of them).
    public func occurrences(from: CivilDate? = nil, through: CivilDate, limit: Int = .max) -> [CivilDate] {
        var result: [CivilDate] = []
        guard limit > 0 else { return result }
        var seen = 0
        // Never past the calendar's end, whatever `through` says.
        let last = Swift.min(end.map { Swift.min($0, through) } ?? through, CivilDate(year: 9999, month: 12, day: 31)!)
        // Takes a date in order; false once nothing more can come.
        func take(_ date: CivilDate) -> Bool {
            guard date <= last else { return false }
            seen += 1
            if let count, seen > count { return false }
            if let from, date < from { return true }
            result.append(date)
            return result.count < limit
        }
        switch unit {
        case .day:
            var index = 0
            if let from, from > start {
                index = (from.daysSinceEpoch - start.daysSinceEpoch + interval - 1) / interval
                seen = index
            }
            var day = start.daysSinceEpoch + index * interval
            while take(CivilDate(daysSinceEpoch: day)) { day += interval }
        case .week:
            let monday = start.adding(days: 1 - start.weekday).daysSinceEpoch
            let days = weekdays.sorted()
            var week = 0
            // Every date of the blocks of weeks before the one holding `from` is before it.
            if let from, from > start {
                let blocks = (from.daysSinceEpoch - monday) / (7 * interval)
                if blocks > 0 {
                    let inFirstWeek = days.filter { monday + $0 - 1 >= start.daysSinceEpoch }.count
                    seen = inFirstWeek + (blocks - 1) * days.count
                    week = blocks
                }
            }
            weeks: while true {
                for weekday in days {
                    let date = CivilDate(daysSinceEpoch: monday + week * 7 * interval + weekday - 1)
                    if date < start { continue }
                    if !take(date) { break weeks }
                }
                week += 1
            }
        case .month, .year:
            let step = unit == .month ? interval : interval * 12
            var months = start.month - 1
            // The steps whose month is before `from`'s: each an occurrence, unless its month
            // lacks the day and they are skipped.
            if let from, from > start {
                let steps = max(0, ((from.year - start.year) * 12 + from.month - start.month) / step)
                if monthEnd == .clamp || start.day <= 28 {
                    seen = steps
                } else {
                    var counted = 0
                    var month = start.month - 1
                    for _ in 0..<steps {
                        if start.day <= CivilDate.days(inMonth: month % 12 + 1, year: start.year + month / 12) { counted += 1 }
                        month += step
                    }
                    seen = counted
                }
                months += steps * step
            }
            while true {
                let year = start.year + months / 12
                let month = months % 12 + 1
                guard year <= 9999 else { break }
                let length = CivilDate.days(inMonth: month, year: year)
                let day = start.day <= length ? start.day : monthEnd == .clamp ? length : nil
                if let day, let date = CivilDate(year: year, month: month, day: day), !take(date) { break }
                if year == last.year && month >= last.month || year > last.year { break }
                months += step
            }
        }
        return result
    }
}
