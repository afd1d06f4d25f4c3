import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
import Testing

/// The occurrence calendar of recurring expenses (issue 20): a pure function, checked against a
/// plain reference that looks at every day in turn.
@Suite("Recurrence: when a recurring expense falls due")
struct RecurrenceTests {
    static func date(_ text: String) -> CivilDate { CivilDate(text)! }

    /// Does the rule fall on `date`? Asked of each day, without the generator's arithmetic.
    static func falls(_ rule: Recurrence, on date: CivilDate) -> Bool {
        guard date >= rule.start else { return false }
        switch rule.unit {
        case .day:
            return (date.daysSinceEpoch - rule.start.daysSinceEpoch) % rule.interval == 0
        case .week:
            let week = { (day: CivilDate) in (day.daysSinceEpoch - (day.weekday - 1) + 3) / 7 }
            return rule.weekdays.contains(date.weekday) && (week(date) - week(rule.start)) % rule.interval == 0
        case .month, .year:
            let months = (date.year - rule.start.year) * 12 + date.month - rule.start.month
            let step = rule.unit == .month ? rule.interval : rule.interval * 12
            guard months % step == 0 else { return false }
            let last = CivilDate.days(inMonth: date.month, year: date.year)
            if rule.start.day <= last { return date.day == rule.start.day }
            return rule.monthEnd == .clamp && date.day == last
        }
    }

    static func reference(_ rule: Recurrence, through: CivilDate) -> [CivilDate] {
        var result: [CivilDate] = []
        var day = rule.start
        while day <= through, rule.end.map({ day <= $0 }) ?? true {
            if falls(rule, on: day) {
                result.append(day)
                if let count = rule.count, result.count == count { break }
            }
            day = day.adding(days: 1)
        }
        return result
    }

    static func randomRule(_ rng: inout SplitMix64) -> Recurrence {
        let unit = Recurrence.Unit.allCases.randomElement(using: &rng)!
        // Starts on the days that matter most: month ends, February 29, around DST changes.
        let starts = ["2024-01-31", "2024-02-29", "2025-03-30", "2025-10-26", "2026-03-08", "2026-05-31", "2026-11-01", "2027-12-31"]
        let start = rng.next() % 2 == 0 ? date(starts.randomElement(using: &rng)!)
            : date("2024-01-01").adding(days: Int.random(in: 0..<1500, using: &rng))
        let interval = [1, 1, 2, 3, 5, 12].randomElement(using: &rng)!
        let weekdays: Set<Int> = unit == .week ? Set((0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...7, using: &rng) }) : []
        let end: CivilDate? = rng.next() % 3 == 0 ? start.adding(days: Int.random(in: 0...2000, using: &rng)) : nil
        let count: Int? = rng.next() % 3 == 0 ? Int.random(in: 1...40, using: &rng) : nil
        return (try? Recurrence(
            unit: unit, interval: interval, weekdays: weekdays, monthEnd: rng.next() % 2 == 0 ? .clamp : .skip,
            start: start, end: end, count: count)) ?? (try! Recurrence(unit: .day, start: start))
    }

    @Test("random rules: the occurrences are the reference's, in order, without duplicates, within the end and count")
    func matchesReference() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            Self.check(seed: seed)
        }
    }

    static func check(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let rule = randomRule(&rng)
        let through = rule.start.adding(days: 1_000)
        let dates = rule.occurrences(through: through)
        #expect(dates == reference(rule, through: through), "seed \(seed): \(rule)")
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed)")
        if let count = rule.count { #expect(dates.count <= count) }
        if let end = rule.end { #expect(dates.allSatisfy { $0 <= end }) }
        // From any day: the same dates from that day on (the steps before it are counted, not walked).
        let from = rule.start.adding(days: Int.random(in: -10...1_010, using: &rng))
        #expect(rule.occurrences(from: from, through: through) == dates.filter { $0 >= from }, "seed \(seed) from \(from)")
        // Asking from a later day gives the tail, and a limit its head.
        if dates.count > 2 {
            #expect(rule.occurrences(from: dates[1], through: through) == Array(dates.dropFirst()))
            #expect(rule.occurrences(through: through, limit: 2) == Array(dates.prefix(2)))
        }
    }

    @Test("a daily rule from year 1, asked about year 9999, answers at once")
    func farFrom() throws {
        let rule = try Recurrence(unit: .day, start: Self.date("0001-01-01"))
        let clock = ContinuousClock()
        let took = clock.measure {
            #expect(rule.occurrences(from: Self.date("9999-12-30"), through: Self.date("9999-12-31")).map(\.description)
                == ["9999-12-30", "9999-12-31"])
        }
        #expect(took < .milliseconds(50))
        let weekly = try Recurrence(unit: .week, interval: 3, weekdays: [2, 6], start: Self.date("0001-01-01"), count: 1_000_000 / 100)
        #expect(weekly.occurrences(from: Self.date("9000-01-01"), through: Self.date("9999-12-31")).isEmpty)
        let skip = try Recurrence(unit: .month, monthEnd: .skip, start: Self.date("0001-01-31"), count: 7)
        #expect(skip.occurrences(from: Self.date("0001-06-01"), through: Self.date("0002-12-31")).map(\.description)
            == ["0001-07-31", "0001-08-31", "0001-10-31", "0001-12-31"])
    }

    @Test("the 31st: the last day of shorter months (clamp), or not in them (skip); February 29 in leap years")
    func monthEnds() throws {
        let clamp = try Recurrence(unit: .month, start: Self.date("2026-01-31"))
        #expect(clamp.occurrences(through: Self.date("2026-05-31")).map(\.description)
            == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
        let skip = try Recurrence(unit: .month, monthEnd: .skip, start: Self.date("2026-01-31"))
        #expect(skip.occurrences(through: Self.date("2026-05-31")).map(\.description) == ["2026-01-31", "2026-03-31", "2026-05-31"])
        let leap = try Recurrence(unit: .year, start: Self.date("2024-02-29"))
        #expect(leap.occurrences(through: Self.date("2028-12-31")).map(\.description)
            == ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"])
        let leapOnly = try Recurrence(unit: .year, monthEnd: .skip, start: Self.date("2024-02-29"))
        #expect(leapOnly.occurrences(through: Self.date("2032-12-31")).map(\.description)
            == ["2024-02-29", "2028-02-29", "2032-02-29"])
        // Across the clock change (Europe, 2026-03-29): dates, not hours, so nothing moves.
        let weekly = try Recurrence(unit: .week, weekdays: [1, 5], start: Self.date("2026-03-23"), count: 4)
        #expect(weekly.occurrences(through: Self.date("2026-12-31")).map(\.description)
            == ["2026-03-23", "2026-03-27", "2026-03-30", "2026-04-03"])
    }

    @Test("bad rules are refused saying why")
    func refusals() {
        #expect(throws: Recurrence.Problem.interval) { try Recurrence(unit: .day, interval: 0, start: Self.date("2026-01-01")) }
        #expect(throws: Recurrence.Problem.endBeforeStart) {
            try Recurrence(unit: .day, start: Self.date("2026-01-02"), end: Self.date("2026-01-01"))
        }
        #expect(throws: Recurrence.Problem.weekdays) { try Recurrence(unit: .month, weekdays: [1], start: Self.date("2026-01-01")) }
        #expect(throws: Recurrence.Problem.never) {
            try Recurrence(unit: .week, weekdays: [1], start: Self.date("2026-01-02"), end: Self.date("2026-01-04"))
        }
        #expect(throws: Recurrence.Problem.count) { try Recurrence(unit: .day, start: Self.date("2026-01-01"), count: 0) }
        #expect(CivilDate("2026-02-29") == nil && CivilDate("2026-13-01") == nil && CivilDate("2024-02-29") != nil)
        #expect(Self.date("2026-11-23").weekday == 1 && Self.date("1970-01-01").weekday == 4)
    }
}
