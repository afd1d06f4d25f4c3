import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitApp
@testable import SplitStore

/// Recurring expenses and the pending queue (issue 20) with a clock the test moves: month ends,
/// February 29, a clock change, pause and resume over several periods, skips, a removed member,
/// catching up after downtime, and two passes racing.
@Suite("Recurring expenses")
struct RecurringUseCaseTests {
    final class TestClock: Sendable {
        let value: Mutex<Int64>
        init(_ text: String) { value = Mutex(Self.milliseconds(text)) }
        var now: Int64 { value.withLock { $0 } }
        func set(_ text: String) { value.withLock { $0 = Self.milliseconds(text) } }

        /// "2026-01-31T12:00:00Z" as epoch milliseconds.
        static func milliseconds(_ text: String) -> Int64 {
            Int64(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1_000)
        }
    }

    struct Setup {
        let trip: Trip
        let clock: TestClock
        let recurring: RecurringUseCases

        func rent(_ amount: String = "900.00", members: [MemberID]? = nil) -> EnteredExpense {
            EnteredExpense(
                description: "Rent", amount: amount, currency: "MYR", expenseDate: "",
                paidByMemberId: trip.akiMember.description,
                split: EnteredSplit(
                    mode: .equal, memberIds: (members ?? [trip.akiMember, trip.boMember, trip.deeMember]).map(\.description)))
        }

        func create(_ rule: EnteredRecurrence, mode: String = "auto", expense: EnteredExpense? = nil) async throws -> SeriesView {
            try await recurring.create(
                expense ?? rent(), rule: rule, mode: mode, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
        }

        /// The dates of the group's live expenses named `description`, in order.
        func dates(_ description: String = "Rent") async throws -> [String] {
            try await trip.expenses.liveExpenses(groupID: trip.groupID, caller: trip.aki).0
                .filter { $0.description == description }.map(\.expenseDate).sorted()
        }

        /// `patch` on `series` by Aki, based on its version as it is now.
        func update(_ series: SeriesView, _ patch: SeriesPatch) async throws -> SeriesView {
            let version = try await recurring.series(series.series.id, caller: trip.aki).series.version
            return try await recurring.update(series.series.id, patch, basedOn: { version }, caller: trip.aki, origin: trip.origin)
        }

        func run(at time: String) async throws -> Int {
            clock.set(time)
            return try await recurring.materializeDue()
        }
    }

    static func with(_ backend: Database.Backend, at time: String, _ body: (Setup) async throws -> Void) async throws {
        try await Trip.with(backend) { trip in
            let clock = TestClock(time)
            try await body(Setup(trip: trip, clock: clock, recurring: RecurringUseCases(database: trip.database, now: { clock.now })))
        }
    }

    @Test(
        "a series sent again with its key is answered as made, with its first expenses, and made once: no second series, no expense twice; the key with another series is refused",
        arguments: TestDatabases.all)
    func sentAgain(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-03-15T12:00:00Z") { setup in
            let rule = EnteredRecurrence(every: "month", startDate: "2026-01-31")
            func create(_ expense: EnteredExpense, key: String) async throws -> IdempotencyOutcome<SeriesView> {
                try await setup.recurring.create(
                    expense, rule: rule, mode: "auto", groupID: setup.trip.groupID, caller: setup.trip.aki,
                    origin: setup.trip.origin, idempotency: IdempotencyRequest(key: key, requestHash: "\(expense)")
                ) { view in
                    StoredResponse(status: 201, body: Data("\(view.series.id.text) \(view.upcoming)".utf8))
                }
            }
            // act: a series starting in January (it catches up at once), then the same request again
            guard case .created(let made, let first) = try await create(setup.rent(), key: "s1") else {
                Issue.record("not made")
                return
            }
            // validate: the answer is the series after its catch-up, and the retry gets it
            #expect(made.upcoming.first == "2026-03-31")
            #expect(first.body == Data("\(made.series.id.text) \(made.upcoming)".utf8))
            guard case .replayed(let again) = try await create(setup.rent(), key: "s1") else {
                Issue.record("made again")
                return
            }
            #expect(again == first)
            // act: the key with another amount
            await #expect(throws: AppError.idempotencyKeyReused) { _ = try await create(setup.rent("800.00"), key: "s1") }
            // validate: one series, and January and February made once each
            let listed = try await setup.recurring.list(groupID: setup.trip.groupID, caller: setup.trip.aki)
            #expect(listed.map(\.series.id) == [made.series.id])
            _ = try await setup.run(at: "2026-03-16T12:00:00Z")
            #expect(try await setup.dates() == ["2026-01-31", "2026-02-28"])
        }
    }

    @Test(
        "a new rule starts tomorrow when its next date was later, never makes a date twice, may not leave nothing to add; an ended series cannot change",
        arguments: TestDatabases.all)
    func newRule(backend: Database.Backend) async throws {
        // Found by a new user: monthly to weekly waited for the next monthly date; an end before
        // it ended the series unsaid; an ended series took a new rule.
        try await Self.with(backend, at: "2026-05-10T12:00:00Z") { setup in
            let trip = setup.trip
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-05-01"))
            #expect(try await setup.dates() == ["2026-05-01"] && series.series.nextDate == "2026-06-01")
            func update(_ patch: SeriesPatch) async throws -> SeriesView { try await setup.update(series, patch) }
            // Weekly (Fridays, as May 1): from tomorrow, so May 15, not June 1's week.
            let weekly = try await update(SeriesPatch(rule: EnteredRecurrence(every: "week", startDate: "2026-05-01")))
            #expect(weekly.series.nextDate == "2026-05-15" && weekly.upcoming.prefix(2) == ["2026-05-15", "2026-05-22"], "\(weekly.upcoming)")
            // On the 15th, made; a change the same day does not make the 15th again.
            #expect(try await setup.run(at: "2026-05-15T12:00:00Z") == 1)
            let later = try await update(
                SeriesPatch(rule: EnteredRecurrence(every: "week", startDate: "2026-05-01", endDate: "2026-12-31")))
            #expect(later.series.nextDate == "2026-05-22", "\(later.series)")
            _ = try await setup.run(at: "2026-05-16T12:00:00Z")
            #expect(try await setup.dates() == ["2026-05-01", "2026-05-15"])
            // An end before the next date would leave nothing: refused, the series as it was.
            do {
                _ = try await update(SeriesPatch(rule: EnteredRecurrence(every: "week", startDate: "2026-05-01", endDate: "2026-05-20")))
                Issue.record("a rule with nothing left was taken")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "rule" && message.hasPrefix("With this rule nothing is left to add"), "\(message)")
            }
            let kept = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(kept.series.state == .active && kept.series.nextDate == "2026-05-22")
            // Ended: no change is taken.
            _ = try await update(SeriesPatch(state: "ended"))
            do {
                _ = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-05-01")))
                Issue.record("an ended series took a new rule")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "state" && message == "This series has ended and cannot change; make a new one.")
            }
        }
    }

    @Test("a start moved later past dates still to add is refused, saying which and the ways on; skipped first, it goes through", arguments: TestDatabases.all)
    func startMovedLater(backend: Database.Backend) async throws {
        // Found by a new user: "--amount 1850 --start 2027-02-01", meant as "from February on",
        // lost January's rent without a word.
        try await Self.with(backend, at: "2026-12-07T12:00:00Z") { setup in
            let trip = setup.trip
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-12-01"))
            func update(_ patch: SeriesPatch) async throws -> SeriesView { try await setup.update(series, patch) }
            do {
                _ = try await update(
                    SeriesPatch(expense: setup.rent("1850.00"), rule: EnteredRecurrence(every: "month", startDate: "2027-02-01")))
                Issue.record("a later start dropped January unsaid")
            } catch AppError.invalid(let field, let message) {
                #expect(
                    field == "rule.startDate"
                        && message == "Starting it on 2027-02-01 leaves out 2027-01-01, not added yet. To add that one as it is "
                            + "and change it from 2027-02-01 on, give this series the last date 2027-01-31 and add a new one "
                            + "from 2027-02-01; to leave it out, skip it first.",
                    "\(message)")
            }
            let kept = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(kept.series.nextDate == "2027-01-01" && kept.series.recurrence.start.description == "2026-12-01")
            // January skipped first: the later start leaves nothing out, and is taken.
            _ = try await update(SeriesPatch(skip: ["2027-01-01"]))
            let moved = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2027-02-01")))
            #expect(moved.series.nextDate == "2027-02-01", "\(moved.series)")
            // A series that has added nothing yet is only postponed (found by review: refused).
            var hotel = setup.rent("80.00")
            hotel.description = "Hotel"
            let later = try await setup.recurring.create(
                hotel, rule: EnteredRecurrence(every: "day", startDate: "2027-03-01"), mode: "auto", groupID: trip.groupID,
                caller: trip.aki, origin: trip.origin)
            let postponed = try await setup.update(later, SeriesPatch(rule: EnteredRecurrence(every: "day", startDate: "2027-03-05")))
            #expect(postponed.series.nextDate == "2027-03-05", "\(postponed.series)")
            // Moved back to start two days ago, it adds those days and today as a new series from
            // then would (found by a new user: the past dates were never added, without a word).
            let backdated = try await setup.update(later, SeriesPatch(rule: EnteredRecurrence(every: "day", startDate: "2026-12-05")))
            #expect(try await setup.dates("Hotel") == ["2026-12-05", "2026-12-06", "2026-12-07"])
            #expect(backdated.series.nextDate == "2026-12-08", "\(backdated.series)")
        }
    }

    @Test(
        "a start moved earlier onto dates never made is refused, saying which; a count that leaves only a skipped date is refused, saying how the count counts",
        arguments: TestDatabases.all)
    func startMovedEarlier(backend: Database.Backend) async throws {
        // Found by new users: monthly from July, 8 times, January skipped; a count that now ends
        // with the skipped January ended the series unsaid, and February's rent was lost. And a
        // start moved earlier said "from June" and never added June.
        try await Self.with(backend, at: "2026-12-07T12:00:00Z") { setup in
            let trip = setup.trip
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-07-01", count: 8))
            func update(_ patch: SeriesPatch) async throws -> SeriesView { try await setup.update(series, patch) }
            let skipped = try await update(SeriesPatch(skip: ["2027-01-01"]))
            #expect(try await setup.dates().count == 6 && skipped.upcoming == ["2027-02-01"], "\(skipped.upcoming)")
            do {
                _ = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-07-01", count: 7)))
                Issue.record("a rule leaving only a skipped date was taken")
            } catch AppError.invalid(let field, let message) {
                #expect(
                    field == "rule"
                        && message == "With this rule nothing is left to add. Its 7 times are counted from its start, "
                            + "2026-07-01, skipped dates too: give more times, a later end, or end the series instead.",
                    "\(message)")
            }
            let kept = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(kept.series.state == .active && kept.upcoming == ["2027-02-01"], "\(kept.series)")
            // From June: June was never made, and a change adds nothing before what was made (a
            // second rent would sit beside July's were the day moved instead): refused, saying so.
            do {
                _ = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-06-01", count: 9)))
                Issue.record("a start moved before the dates made was taken")
            } catch AppError.invalid(let field, let message) {
                #expect(
                    field == "rule.startDate"
                        && message == "This series has added expenses from 2026-07-01 on, and a change adds none before "
                            + "them: starting it on 2026-06-01 would not add 2026-06-01. Add that day as an expense of its "
                            + "own, or keep the start.",
                    "\(message)")
            }
            // With 9 times from July, February and March are still to come; the dates made stay once each.
            let more = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-07-01", count: 9)))
            #expect(more.series.state == .active && more.upcoming == ["2027-02-01", "2027-03-01"], "\(more.upcoming)")
            #expect(try await setup.dates().count == 6)
        }
    }

    @Test(
        "a count with new dates counts the occurrences made before, not the dates skipped; the same dates keep their count; a skipped date the new rule falls on stays skipped; an edit adds nothing today",
        arguments: TestDatabases.all)
    func newRuleKeepsCount(backend: Database.Backend) async throws {
        // Found by review: monthly eight times, four made, then weekly counted the weekly rule's
        // eight from January (all past: "nothing is left"), and the new rule forgot skipped dates.
        try await Self.with(backend, at: "2026-04-10T12:00:00Z") { setup in
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-01-01", count: 8))
            #expect(try await setup.dates() == ["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"])
            func update(_ patch: SeriesPatch) async throws -> SeriesView { try await setup.update(series, patch) }
            // The same dates with the count sent again: the count stays a count.
            let same = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-01-01", count: 8)))
            #expect(same.series.recurrence.count == 8 && same.series.recurrence.end == nil)
            _ = try await update(SeriesPatch(skip: ["2026-05-01"]))
            // Sent again with a date skipped, still a count from the start (the skip one of the 8).
            let resent = try await update(SeriesPatch(rule: EnteredRecurrence(every: "month", startDate: "2026-01-01", count: 8)))
            #expect(resent.series.recurrence.count == 8 && resent.series.skipped == ["2026-05-01"], "\(resent.series)")
            // Fewer times than were made is refused, saying how many were.
            do {
                _ = try await update(
                    SeriesPatch(rule: EnteredRecurrence(every: "week", weekdays: [5], startDate: "2026-01-01", count: 4)))
                Issue.record("a count below what was made was taken")
            } catch AppError.invalid(let field, let message) {
                // Said alone: not also "nothing is left to add".
                #expect(field == "rule.count" && message.contains("made 4 already"), "\(field) \(message)")
            }
            // act: weekly on Fridays, eight times in all
            let weekly = try await update(
                SeriesPatch(rule: EnteredRecurrence(every: "week", weekdays: [5], startDate: "2026-01-01", count: 8)))
            // validate: four more Fridays from tomorrow (today, a Friday, is not added by the edit),
            // May 1 left out and still skipped, so the last is May 15
            #expect(weekly.series.recurrence.end?.description == "2026-05-15", "\(weekly.series.recurrence)")
            #expect(weekly.series.recurrence.count == nil)
            #expect(weekly.series.skipped == ["2026-05-01"], "\(weekly.series.skipped)")
            #expect(weekly.upcoming == ["2026-04-17", "2026-04-24", "2026-05-08", "2026-05-15"], "\(weekly.upcoming)")
            #expect(try await setup.dates().count == 4)
            // The count given again alone (the rule as it now is, with 10): two more after May 15.
            let more = try await update(
                SeriesPatch(rule: EnteredRecurrence(every: "week", weekdays: [5], startDate: "2026-01-01", count: 10)))
            #expect(more.series.recurrence.end?.description == "2026-05-29", "\(more.series.recurrence)")
            _ = try await setup.run(at: "2026-06-01T12:00:00Z")
            #expect(
                try await setup.dates() == [
                    "2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-04-17", "2026-04-24", "2026-05-08",
                    "2026-05-15", "2026-05-22", "2026-05-29",
                ])
        }
    }

    @Test("a paused series given a new rule with a count counts from today, as its resume goes on", arguments: TestDatabases.all)
    func pausedNewRuleCount(backend: Database.Backend) async throws {
        // Found by review: the dates missed while paused took the count, and the resume had
        // nothing left to add.
        try await Self.with(backend, at: "2026-03-15T12:00:00Z") { setup in
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-01-01", count: 12))
            func update(_ patch: SeriesPatch) async throws -> SeriesView { try await setup.update(series, patch) }
            _ = try await update(SeriesPatch(state: "paused"))
            setup.clock.set("2026-06-15T12:00:00Z")
            // act: weekly on Mondays, 12 in all (3 made), while paused
            let weekly = try await update(
                SeriesPatch(rule: EnteredRecurrence(every: "week", weekdays: [1], startDate: "2026-01-01", count: 12)))
            let resumed = try await update(SeriesPatch(state: "active"))
            // validate: nine Mondays from June 15 on, none from the paused months
            #expect(weekly.series.recurrence.end?.description == "2026-08-10", "\(weekly.series.recurrence)")
            #expect(resumed.series.nextDate == "2026-06-15" || resumed.series.nextDate == "2026-06-22", "\(resumed.series)")
            _ = try await setup.run(at: "2026-09-01T12:00:00Z")
            let dates = try await setup.dates()
            #expect(dates.count == 12 && dates.last == "2026-08-10", "\(dates)")
        }
    }

    @Test("monthly on the 31st: clamped to February 28, then the 31st again; each date once however often the pass runs", arguments: TestDatabases.all)
    func monthEnds(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-30T12:00:00Z") { setup in
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-01-31"))
            #expect(series.upcoming == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
            #expect(try await setup.dates().isEmpty)
            #expect(try await setup.run(at: "2026-01-31T00:00:01Z") == 1)
            #expect(try await setup.run(at: "2026-01-31T23:00:00Z") == 0)
            _ = try await setup.run(at: "2026-03-01T08:00:00Z")
            _ = try await setup.run(at: "2026-03-01T09:00:00Z")
            #expect(try await setup.dates() == ["2026-01-31", "2026-02-28"])
            _ = try await setup.run(at: "2026-04-01T08:00:00Z")
            #expect(try await setup.dates() == ["2026-01-31", "2026-02-28", "2026-03-31"])
            // Each made expense is a normal one: exact shares summing to the total.
            let made = try await setup.trip.expenses.liveExpenses(groupID: setup.trip.groupID, caller: setup.trip.bo).0
            for expense in made { #expect(expense.liveShares.map(\.amount).reduce(0, +) == 90_000) }
        }
    }

    @Test("skip short months leaves February out; February 29 yearly falls on the 28th in common years", arguments: TestDatabases.all)
    func leapYears(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2028-01-01T12:00:00Z") { setup in
            _ = try await setup.create(EnteredRecurrence(every: "month", monthEnd: "skip", startDate: "2028-01-31"))
            _ = try await setup.create(
                EnteredRecurrence(every: "year", startDate: "2028-02-29"),
                expense: EnteredExpense(
                    description: "Insurance", amount: "120", currency: "MYR", expenseDate: "",
                    paidByMemberId: setup.trip.akiMember.description))
            _ = try await setup.run(at: "2030-03-05T12:00:00Z")
            let rent = try await setup.dates()
            #expect(!rent.contains { $0.hasPrefix("2028-02") || $0.hasPrefix("2029-02") || $0.hasPrefix("2030-02") })
            #expect(rent.first == "2028-01-31" && rent.contains("2028-03-31") && !rent.contains("2028-04-30"))
            #expect(try await setup.dates("Insurance") == ["2028-02-29", "2029-02-28", "2030-02-28"])
        }
    }

    @Test("the group's day decides, across a clock change (New York, March 8, 2026)", arguments: TestDatabases.all)
    func timeZones(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-03-07T12:00:00Z") { setup in
            try await setup.trip.database.transaction { sql in
                try await sql.raw(
                    "UPDATE groups SET time_zone = 'America/New_York' WHERE id = \(bind: setup.trip.groupID.uuidString.lowercased())"
                ).run()
            }
            _ = try await setup.create(EnteredRecurrence(every: "day", startDate: "2026-03-08"))
            // 04:30 UTC is 23:30 on the 7th in New York (EST): not yet.
            #expect(try await setup.run(at: "2026-03-08T04:30:00Z") == 0)
            // 05:30 UTC is 00:30 on the 8th.
            #expect(try await setup.run(at: "2026-03-08T05:30:00Z") == 1)
            // The clocks went forward at 2:00 on the 8th (EDT, UTC−4): 00:30 on the 10th is 04:30 UTC.
            #expect(try await setup.run(at: "2026-03-10T04:30:00Z") == 2)
            #expect(try await setup.dates() == ["2026-03-08", "2026-03-09", "2026-03-10"])
        }
    }

    @Test("pause and resume over several weeks: nothing made for the paused weeks; skip one date; end", arguments: TestDatabases.all)
    func pauseResumeSkip(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-06-01T12:00:00Z") { setup in
            // Mondays and Thursdays.
            var series = try await setup.create(EnteredRecurrence(every: "week", weekdays: [1, 4], startDate: "2026-06-01"))
            #expect(try await setup.dates() == ["2026-06-01"])
            series = try await setup.recurring.update(
                series.series.id, SeriesPatch(state: "paused"), basedOn: { series.series.version }, caller: setup.trip.aki,
                origin: setup.trip.origin)
            #expect(series.series.state == .paused)
            _ = try await setup.run(at: "2026-06-20T12:00:00Z")
            #expect(try await setup.dates() == ["2026-06-01"])
            // Resumed on Monday the 22nd: from that day on, not the three weeks before.
            setup.clock.set("2026-06-22T12:00:00Z")
            series = try await setup.recurring.update(
                series.series.id, SeriesPatch(state: "active"), basedOn: { series.series.version }, caller: setup.trip.aki,
                origin: setup.trip.origin)
            #expect(try await setup.dates() == ["2026-06-01", "2026-06-22"])
            // Skip Thursday the 25th.
            series = try await setup.recurring.update(
                series.series.id, SeriesPatch(skip: ["2026-06-25"]), basedOn: { series.series.version },
                caller: setup.trip.aki, origin: setup.trip.origin)
            #expect(series.upcoming.first == "2026-06-29")
            #expect(series.series.skipped == ["2026-06-25"])
            // Its activity line keeps the day skipped (it said only "skipped a date").
            let skipLine = try await GroupLogStore(database: setup.trip.database)
                .activity(groupID: setup.trip.groupID, before: nil, limit: 5).first { $0.action == "recurring.skipped" }
            #expect(skipLine?.event.period == "2026-06-25", "\(String(describing: skipLine))")
            // Paused and resumed the same day, the Thursday stays skipped (found by review: the
            // skip was forgotten once the next date passed it, and a resume brought it back).
            for state in ["paused", "active"] {
                series = try await setup.recurring.update(
                    series.series.id, SeriesPatch(state: state), basedOn: { series.series.version },
                    caller: setup.trip.aki, origin: setup.trip.origin)
            }
            #expect(series.upcoming.first == "2026-06-29", "\(series.upcoming)")
            // A date that is not an occurrence, or one already past, is refused.
            await #expect(throws: AppError.self) {
                try await setup.recurring.update(
                    series.series.id, SeriesPatch(skip: ["2026-06-30"]), basedOn: { series.series.version },
                    caller: setup.trip.aki, origin: setup.trip.origin)
            }
            _ = try await setup.run(at: "2026-07-03T12:00:00Z")
            #expect(try await setup.dates() == ["2026-06-01", "2026-06-22", "2026-06-29", "2026-07-02"])
            // A stale version is refused with the current series; Bo (not its creator) may not change it.
            await #expect(throws: AppError.self) {
                try await setup.recurring.update(
                    series.series.id, SeriesPatch(state: "paused"), basedOn: { 1 }, caller: setup.trip.aki,
                    origin: setup.trip.origin)
            }
            await #expect(throws: AppError.forbidden) {
                try await setup.recurring.update(
                    series.series.id, SeriesPatch(state: "paused"), basedOn: { series.series.version },
                    caller: setup.trip.bo, origin: setup.trip.origin)
            }
            let latest = try await setup.recurring.series(series.series.id, caller: setup.trip.aki)
            let ended = try await setup.recurring.end(series.series.id, caller: setup.trip.aki, origin: setup.trip.origin)
            #expect(ended.series.state == .ended && ended.upcoming.isEmpty && latest.series.state == .active)
            _ = try await setup.run(at: "2026-08-01T12:00:00Z")
            #expect(try await setup.dates().count == 4)
        }
    }

    @Test("confirm mode: occurrences wait in the queue; confirm (edited) once, dismiss once; roles", arguments: TestDatabases.all)
    func pendingQueue(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-05-01T12:00:00Z") { setup in
            let trip = setup.trip
            _ = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-03-01"), mode: "confirm")
            let queue = try await setup.recurring.pending(groupID: trip.groupID, caller: trip.vic)
            #expect(queue.map(\.pending.date) == ["2026-03-01", "2026-04-01", "2026-05-01"])
            #expect(try await setup.recurring.pendingCount(groupID: trip.groupID, caller: trip.bo) == 3)
            #expect(try await setup.dates().isEmpty)
            #expect(queue[0].draft.amount == "900.00" && queue[0].draft.expenseDate == "2026-03-01")
            // A viewer may not confirm; a stranger does not see it.
            await #expect(throws: AppError.forbidden) {
                try await setup.recurring.confirm(queue[0].pending.id, edited: nil, caller: trip.vic, origin: trip.origin)
            }
            await #expect(throws: AppError.notFound("pending expense")) {
                try await setup.recurring.confirm(queue[0].pending.id, edited: nil, caller: trip.stranger, origin: trip.origin)
            }
            var edited = queue[0].draft
            edited.amount = "870.00"
            let confirmed = try await setup.recurring.confirm(queue[0].pending.id, edited: edited, caller: trip.bo, origin: trip.origin)
            #expect(confirmed.expense.amount == 87_000 && confirmed.expense.expenseDate == "2026-03-01")
            // Changed first, it is Bo's, who may mend what he typed (found by review).
            #expect(confirmed.expense.createdByUserID == trip.bo.user.id)
            do {
                _ = try await setup.recurring.confirm(queue[0].pending.id, edited: nil, caller: trip.aki, origin: trip.origin)
                Issue.record("confirmed twice")
            } catch AppError.conflict(let code, _, _) {
                #expect(code == "already_decided")
            }
            try await setup.recurring.dismiss(queue[1].pending.id, caller: trip.bo, origin: trip.origin)
            await #expect(throws: AppError.self) {
                try await setup.recurring.dismiss(queue[1].pending.id, caller: trip.bo, origin: trip.origin)
            }
            // Confirmed as it is, it is the series' maker's, Aki's, as an automatic one would be
            // (found by a new user: Bo's confirm made it Bo's, and Aki, who may edit only her own,
            // could not edit it).
            let asIs = try await setup.recurring.confirm(queue[2].pending.id, edited: nil, caller: trip.bo, origin: trip.origin)
            #expect(asIs.expense.createdByUserID == trip.aki.user.id)
            #expect(try await setup.dates() == ["2026-03-01", "2026-05-01"])
            #expect(try await setup.recurring.pending(groupID: trip.groupID, caller: trip.aki).isEmpty)
            // The next month waits again.
            _ = try await setup.run(at: "2026-06-01T12:00:00Z")
            #expect(try await setup.recurring.pending(groupID: trip.groupID, caller: trip.aki).map(\.pending.date) == ["2026-06-01"])
        }
    }

    @Test(
        "a member removed or leaving pauses at once the series that name them or that they made; resuming says why not until it can go on",
        arguments: TestDatabases.all)
    func removedMember(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-05-01T12:00:00Z") { setup in
            let trip = setup.trip
            let members = MemberUseCases(database: trip.database, now: { milliseconds() })
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-05-01"))
            var wifi = setup.rent("60.00", members: [trip.akiMember, trip.boMember])
            wifi.description = "Wifi"
            let other = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-05-01"), expense: wifi)
            #expect(try await setup.dates() == ["2026-05-01"])
            // What the web warns of before the removal is what it pauses.
            #expect(
                try await setup.recurring.pausedWithout(trip.deeMember.uuid, groupID: trip.groupID, caller: trip.aki)
                    == [series.series.template.description])
            // Dee's balance is not zero (she owes her share): removing her needs the confirmation.
            _ = try await members.remove(
                trip.deeMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki, origin: trip.origin)
            // validate: paused by the removal itself, before any date falls due; the other goes on
            let paused = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(paused.series.state == .paused)
            #expect(paused.series.note?.hasPrefix("Dee is no longer in the group; take them out of this series") == true)
            #expect(try await setup.recurring.series(other.series.id, caller: trip.aki).series.state == .active)
            #expect(try await setup.run(at: "2026-06-02T12:00:00Z") == 1)
            #expect(try await setup.dates() == ["2026-05-01"])
            #expect(try await setup.dates("Wifi") == ["2026-05-01", "2026-06-01"])
            // Its creator hears of it.
            let inbox = try await NotificationUseCases(database: trip.database, now: { milliseconds() })
                .inbox(caller: trip.aki, cursor: nil, limit: 50)
            #expect(inbox.notifications.contains { $0.activity.action == "recurring.paused" })

            // Resuming it as it is says who is missing (it was "removed meanwhile; reload").
            func update(_ id: UUID, _ patch: SeriesPatch, by caller: Caller) async throws -> SeriesView {
                let version = try await setup.recurring.series(id, caller: caller).series.version
                return try await setup.recurring.update(id, patch, basedOn: { version }, caller: caller, origin: trip.origin)
            }
            do {
                _ = try await update(series.series.id, SeriesPatch(state: "active"), by: trip.aki)
                Issue.record("resumed with Dee in it")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "expense" && message.hasPrefix("Dee is no longer in the group"), "\(message)")
            }
            // A change while paused is taken; the view says what stops it (a page offers no Resume).
            let moded = try await update(series.series.id, SeriesPatch(mode: "confirm"), by: trip.aki)
            #expect(moded.blocked?.hasPrefix("Dee is no longer in the group") == true && moded.series.note == paused.series.note)
            #expect(moded.reason == moded.blocked)
            // Dee back: nothing stops it; the old note is said as what paused it then, with the way
            // on (nor is a Resume refused).
            _ = try await MemberUseCases(database: trip.database, now: { milliseconds() }).update(
                trip.deeMember.description, MemberPatch(active: true), groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            let back = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(back.blocked == nil && back.series.note != nil, "\(back)")
            #expect(back.reason?.hasPrefix("It was paused then (“Dee is no longer in the group") == true, "\(back)")
            #expect(back.reason?.hasSuffix("that is no longer so: resuming it goes on with it.") == true, "\(back)")
            _ = try await MemberUseCases(database: trip.database, now: { milliseconds() }).remove(
                trip.deeMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki, origin: trip.origin)
            // Taking Dee out mends it: still paused, its note and the view say nothing stops it now.
            let mended = try await update(
                series.series.id, SeriesPatch(expense: setup.rent(members: [trip.akiMember, trip.boMember])), by: trip.aki)
            #expect(mended.series.state == .paused && mended.series.note == nil && mended.blocked == nil, "\(mended)")
            let resumed = try await update(series.series.id, SeriesPatch(state: "active"), by: trip.aki)
            #expect(resumed.series.state == .active && resumed.series.note == nil)

            // Vic, made a member who may add expenses, makes a series; once Vic may no longer
            // add expenses, it pauses at once, saying so; the others go on.
            let store = GroupStore(database: trip.database)
            var vic = try #require(try await store.members(groupID: trip.groupID).first { $0.userID == trip.vic.user.id })
            vic.role = .member
            vic.canAddExpenses = true
            _ = try await store.updateMember(vic, now: milliseconds())
            var pool = setup.rent("40.00", members: [trip.akiMember, MemberID(vic.id)])
            pool.description = "Pool"
            pool.paidByMemberId = vic.id.text
            let vics = try await setup.recurring.create(
                pool, rule: EnteredRecurrence(every: "month", startDate: "2026-07-01"), mode: "auto", groupID: trip.groupID,
                caller: trip.vic, origin: trip.origin)
            vic = try #require(try await store.member(id: vic.id, groupID: trip.groupID))
            vic.canAddExpenses = false
            _ = try await store.updateMember(vic, now: milliseconds())
            let stopped = try await setup.recurring.series(vics.series.id, caller: trip.aki)
            #expect(
                stopped.series.state == .paused && stopped.series.note?.hasPrefix("Vic, who made it, may no longer add expenses") == true,
                "\(stopped.series)")
            #expect(try await setup.recurring.series(series.series.id, caller: trip.aki).series.state == .active)
            // Vic's own resume is said to Vic; as a viewer too (that said only "not allowed").
            do {
                _ = try await update(vics.series.id, SeriesPatch(state: "active"), by: trip.vic)
                Issue.record("Vic resumed a series without the right to add expenses")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "state" && message.hasPrefix("You may no longer add expenses in") && message.contains("end it, or ask"), "\(message)")
            }
            vic.role = .viewer
            _ = try await store.updateMember(vic, now: milliseconds())
            do {
                _ = try await update(vics.series.id, SeriesPatch(state: "active"), by: trip.vic)
                Issue.record("a viewer resumed a series")
            } catch AppError.forbiddenBecause(let message) {
                #expect(message.hasPrefix("You may no longer add expenses in") && message.hasSuffix("an admin can end it, or give you back the right to add expenses."), "\(message)")
            }
            vic.role = .member
            _ = try await store.updateMember(vic, now: milliseconds())

            // Bo's own series pauses when Bo leaves, and nobody can resume it: it adds as Bo.
            var gym = setup.rent("100.00", members: [trip.akiMember, trip.boMember])
            gym.description = "Gym"
            gym.paidByMemberId = trip.boMember.description
            let bos = try await setup.recurring.create(
                gym, rule: EnteredRecurrence(every: "month", startDate: "2026-07-01"), mode: "auto", groupID: trip.groupID,
                caller: trip.bo, origin: trip.origin)
            let activeBefore = try await setup.recurring.list(groupID: trip.groupID, caller: trip.aki)
                .filter { $0.series.state == .active }.map(\.series.id)
            let foretold = try await setup.recurring.pausedWithout(trip.boMember.uuid, groupID: trip.groupID, caller: trip.bo)
            _ = try await members.remove(
                trip.boMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.bo, origin: trip.origin)
            // What the leave page warned of (Bo's own, and those naming Bo) is what paused.
            let pausedNow = try await setup.recurring.list(groupID: trip.groupID, caller: trip.aki)
                .filter { $0.series.state == .paused && activeBefore.contains($0.series.id) }.map(\.series.template.description)
            #expect(foretold.sorted() == pausedNow.sorted() && foretold.contains("Gym") && foretold.contains("Wifi"), "\(foretold)")
            let left = try await setup.recurring.series(bos.series.id, caller: trip.aki)
            #expect(
                left.series.state == .paused && left.series.note?.hasPrefix("Bo, who made it, is no longer in the group") == true,
                "\(left.series)")
            for (id, who) in [(bos.series.id, "Bo, who made it, is no longer in the group"), (vics.series.id, "Vic, who made it, may no longer")] {
                do {
                    _ = try await update(id, SeriesPatch(state: "active"), by: trip.aki)
                    Issue.record("resumed a series whose maker may not add expenses")
                } catch AppError.invalid(let field, let message) {
                    #expect(field == "state" && message.hasPrefix(who) && message.hasSuffix("end it instead."), "\(message)")
                }
            }
            // Aki's series that name Bo paused too; nothing is made for any of them.
            #expect(try await setup.recurring.series(other.series.id, caller: trip.aki).series.state == .paused)
            #expect(try await setup.run(at: "2026-07-02T12:00:00Z") == 0)
        }
    }

    @Test("deleting a series' category pauses it at once, saying so; another category lets it resume", arguments: TestDatabases.all)
    func deletedCategory(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-05-01T12:00:00Z") { setup in
            let trip = setup.trip
            let categories = CategoryUseCases(database: trip.database, now: { milliseconds() })
            let utilities = try await categories.create(
                EnteredCategory(name: "Utilities"), groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            var power = setup.rent("80.00")
            power.description = "Power"
            power.category = utilities.id.text
            let series = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-06-01"), expense: power)
            try await categories.delete(utilities.id, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            // validate: paused by the deletion, why said, and no expense goes into it
            let paused = try await setup.recurring.series(series.series.id, caller: trip.aki)
            #expect(paused.series.state == .paused && paused.series.note == "Its category Utilities was deleted; choose another, then resume it.")
            #expect(paused.blocked == paused.series.note)
            #expect(try await setup.run(at: "2026-06-02T12:00:00Z") == 0)
            let version = { try await setup.recurring.series(series.series.id, caller: trip.aki).series.version }
            do {
                let base = try await version()
                _ = try await setup.recurring.update(
                    series.series.id, SeriesPatch(state: "active"), basedOn: { base }, caller: trip.aki, origin: trip.origin)
                Issue.record("resumed into a deleted category")
            } catch AppError.invalid(let field, _) {
                #expect(field == "category")
            }
            // Another category mends it; it resumes from today.
            power.category = nil
            let base = try await version()
            let mended = try await setup.recurring.update(
                series.series.id, SeriesPatch(expense: power), basedOn: { base }, caller: trip.aki, origin: trip.origin)
            #expect(mended.series.note == nil && mended.blocked == nil, "\(mended)")
            let again = try await version()
            let resumed = try await setup.recurring.update(
                series.series.id, SeriesPatch(state: "active"), basedOn: { again }, caller: trip.aki, origin: trip.origin)
            #expect(resumed.series.state == .active)
        }
    }

    @Test("after downtime the pass catches up every missed date, at most 400, with a note past that", arguments: TestDatabases.all)
    func catchUp(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2025-01-01T12:00:00Z") { setup in
            let series = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "2025-01-02"),
                expense: EnteredExpense(
                    description: "Coffee", amount: "4.50", currency: "MYR", expenseDate: "",
                    paidByMemberId: setup.trip.akiMember.description))
            _ = try await setup.run(at: "2025-01-10T12:00:00Z")
            #expect(try await setup.dates("Coffee").count == 9)
            // Down for 500 days.
            #expect(try await setup.run(at: "2026-05-25T12:00:00Z") == 400)
            let dates = try await setup.dates("Coffee")
            #expect(dates.count == 409 && dates.last == "2026-05-25")
            let after = try await setup.recurring.series(series.series.id, caller: setup.trip.aki)
            #expect(after.series.note?.contains("were not made") == true)
            #expect(after.series.nextDate == "2026-05-26")
            // Found by review: a series started in year 1 built every date since then (740,000)
            // to keep the last 400, on the request that made it. Now only what can be kept (and a
            // date is from 1900 on: year 1 is refused).
            let ancient = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "1900-01-01"),
                expense: EnteredExpense(
                    description: "Tea", amount: "3", currency: "MYR", expenseDate: "",
                    paidByMemberId: setup.trip.akiMember.description))
            let tea = try await setup.dates("Tea")
            #expect(tea.count == 400 && tea.last == "2026-05-25", "\(tea.count) \(tea.last ?? "")")
            let ancientAfter = try await setup.recurring.series(ancient.series.id, caller: setup.trip.aki)
            #expect(ancientAfter.series.note?.contains("were not made") == true)
            // Found by review: three days long ago, all before the window counted back from today,
            // made nothing and were said to be more than 400.
            let short = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "2024-01-01", count: 3),
                expense: EnteredExpense(
                    description: "Juice", amount: "2", currency: "MYR", expenseDate: "",
                    paidByMemberId: setup.trip.akiMember.description))
            #expect(try await setup.dates("Juice") == ["2024-01-01", "2024-01-02", "2024-01-03"])
            #expect(try await setup.recurring.series(short.series.id, caller: setup.trip.aki).series.note == nil)
            // An end long ago: the dates before it, the latest 400 of them past that.
            let ended = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "2020-01-01", endDate: "2024-01-10"),
                expense: EnteredExpense(
                    description: "Milk", amount: "1", currency: "MYR", expenseDate: "",
                    paidByMemberId: setup.trip.akiMember.description))
            let milk = try await setup.dates("Milk")
            #expect(milk.count == 400 && milk.last == "2024-01-10", "\(milk.count) \(milk.last ?? "")")
            #expect(try await setup.recurring.series(ended.series.id, caller: setup.trip.aki).series.note?.contains("were not made") == true)
        }
    }

    @Test("a series refused by the ledger's bound is paused with a note; the group's other series go on", arguments: TestDatabases.all)
    func ledgerBoundPausesOneSeries(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-01T12:00:00Z") { setup in
            let trip = setup.trip
            // 306 daily dates of the largest amount: Bo would owe about 1.5 · 10^15, past the bound.
            let huge = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "2025-03-01"),
                expense: EnteredExpense(
                    description: "Huge", amount: "99999999999.99", currency: "MYR", expenseDate: "",
                    paidByMemberId: trip.akiMember.description,
                    split: EnteredSplit(mode: .equal, memberIds: [trip.akiMember, trip.boMember].map(\.description))))
            #expect(huge.series.state == .paused)
            #expect(huge.series.note?.contains("past the most one group holds") == true, "\(huge.series.note ?? "")")
            _ = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-01-01"))
            _ = try await setup.run(at: "2026-02-02T12:00:00Z")
            // Found by review: the refused series failed its whole group's pass, every pass, and
            // said nothing; the rent was never made.
            #expect(try await setup.dates() == ["2026-01-01", "2026-02-01"])
            #expect(try await setup.dates("Huge").isEmpty)
        }
    }

    @Test("a pass whose dates start before a trip's budget still checks the trip: the alert is sent", arguments: TestDatabases.all)
    func tripAlertAcrossTheTripStart(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-05-01T12:00:00Z") { setup in
            let trip = setup.trip
            _ = try await BudgetUseCases(database: trip.database, now: { setup.clock.now }).put(
                EnteredBudget(period: "trip", startDate: "2026-05-05", endDate: "2026-05-20", total: "100.00"),
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            _ = try await setup.create(
                EnteredRecurrence(every: "day", startDate: "2026-05-01"),
                expense: EnteredExpense(
                    description: "Coffee", amount: "30.00", currency: "MYR", expenseDate: "",
                    paidByMemberId: trip.akiMember.description))
            // One pass makes May 2 to 8: the first of them before the trip, four in it (120.00).
            #expect(try await setup.run(at: "2026-05-08T12:00:00Z") == 7)
            let alerts = try await NotificationUseCases(database: trip.database, now: { milliseconds() })
                .inbox(caller: trip.bo, cursor: nil, limit: 50).notifications
                .filter { $0.activity.action == "budget.alert" }.map(\.activity.event)
            // Found by review: the pass checked the trip with its first date only (May 2, before
            // the trip), so the overspent trip went unsaid.
            #expect(alerts.map(\.percent) == [100] && alerts.first?.amount == 12_000, "\(alerts)")
        }
    }

    @Test(
        "a pass that read its series before the group was archived or its creator lost the right makes nothing",
        arguments: TestDatabases.all)
    func decidedAgain(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-01T12:00:00Z") { setup in
            // Found by review: the pass checked the group and the creator before its transaction
            // only, so one that read them just before a change still wrote in the creator's name.
            let groups = GroupStore(database: setup.trip.database)
            let bos = try await setup.recurring.create(
                setup.rent(), rule: EnteredRecurrence(every: "day", startDate: "2026-01-02"), mode: "auto",
                groupID: setup.trip.groupID, caller: setup.trip.bo, origin: setup.trip.origin)
            let akis = try await setup.create(EnteredRecurrence(every: "day", startDate: "2026-01-02"))
            setup.clock.set("2026-01-05T12:00:00Z")
            let today = CivilDate("2026-01-05")!
            func batch(_ id: UUID) async throws -> SeriesBatch {
                let series = try await setup.recurring.series(id, caller: setup.trip.aki).series
                let members = try await groups.members(groupID: setup.trip.groupID)
                return try #require(try setup.recurring.batch(series, today: today, members: members))
            }
            let read = try await batch(bos.series.id)
            let readBeforeArchive = try await batch(akis.series.id)
            #expect(read.occurrences.count == 4 && readBeforeArchive.occurrences.count == 4)
            // Bo is made a viewer after the pass read his series.
            var bo = try #require(try await groups.members(groupID: setup.trip.groupID).first { $0.id == setup.trip.boMember.uuid })
            bo.role = .viewer
            _ = try await groups.updateMember(bo, now: setup.clock.now)
            let store = RecurringStore(database: setup.trip.database)
            #expect(try await store.materialize(groupID: setup.trip.groupID, batches: [read], now: setup.clock.now) == 0)
            #expect(try await setup.dates().isEmpty)
            // Aki's series, read before the group was archived.
            _ = try await groups.setArchived(groupID: setup.trip.groupID, true, now: setup.clock.now)
            #expect(
                try await store.materialize(groupID: setup.trip.groupID, batches: [readBeforeArchive], now: setup.clock.now)
                    == 0)
            _ = try await groups.setArchived(groupID: setup.trip.groupID, false, now: setup.clock.now)
            #expect(try await setup.dates().isEmpty)
        }
    }

    @Test("ended series do not count toward the 1,000 a group may have", arguments: [Database.Backend.sqlite])
    func endedMakeRoom(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-01T12:00:00Z") { setup in
            // Found by review: series are never deleted and ended ones counted, so a group that
            // had ever made 1,000 could make no more, while the refusal said to end one.
            let first = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-02-01"))
            let live = (0..<999).map { _ in
                var copy = first.series
                copy.id = UUID()
                return copy
            }
            try await setup.trip.database.transaction { sql in try await RecurringStore.insert(live, sql) }
            await #expect(throws: AppError.self) {
                try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-02-01"))
            }
            try await setup.trip.database.transaction { sql in
                try await sql.raw("UPDATE recurring_series SET state = 'ended' WHERE id = \(bind: live[0].id.text)").run()
            }
            _ = try await setup.create(EnteredRecurrence(every: "month", startDate: "2026-02-01"))
        }
    }

    @Test("two passes at once make each occurrence once", arguments: TestDatabases.all)
    func racingPasses(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-01T12:00:00Z") { setup in
            for index in 0..<20 {
                _ = try await setup.create(
                    EnteredRecurrence(every: "week", startDate: "2026-01-05"),
                    expense: EnteredExpense(
                        description: "S\(index)", amount: "10", currency: "MYR", expenseDate: "",
                        paidByMemberId: setup.trip.akiMember.description))
            }
            setup.clock.set("2026-03-01T12:00:00Z")
            let other = RecurringUseCases(database: setup.trip.database, now: { setup.clock.now })
            async let first = setup.recurring.materializeDue(batchSize: 7)
            async let second = other.materializeDue(batchSize: 5)
            let made = try await first + second
            // Mondays from January 5 through February 23: 8 each.
            #expect(made == 160)
            let all = try await setup.trip.expenses.liveExpenses(groupID: setup.trip.groupID, caller: setup.trip.aki).0
            #expect(all.count == 160)
            #expect(Set(all.map { "\($0.description)|\($0.expenseDate)" }).count == 160)
        }
    }

    @Test("bad rules and templates are refused field by field, and nothing is stored", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await Self.with(backend, at: "2026-01-01T12:00:00Z") { setup in
            func fields(_ rule: EnteredRecurrence, mode: String = "auto", expense: EnteredExpense? = nil) async -> [String] {
                do {
                    _ = try await setup.create(rule, mode: mode, expense: expense)
                    return []
                } catch let error as AppError {
                    return error.fieldProblems.map(\.field)
                } catch {
                    return ["\(error)"]
                }
            }
            #expect(await fields(EnteredRecurrence(every: "fortnight", startDate: "2026-01-01")) == ["rule.every"])
            #expect(await fields(EnteredRecurrence(every: "day", interval: 0, startDate: "2026-01-01")) == ["rule.interval"])
            #expect(await fields(EnteredRecurrence(every: "month", weekdays: [1], startDate: "2026-01-01")) == ["rule.weekdays"])
            #expect(await fields(EnteredRecurrence(every: "day", startDate: "2026-01-05", endDate: "2026-01-01")) == ["rule.endDate"])
            #expect(await fields(EnteredRecurrence(every: "day", startDate: "2026-01-05", count: 0)) == ["rule.count"])
            #expect(await fields(EnteredRecurrence(every: "day", startDate: "2026-02-30")) == ["rule.startDate"])
            // The 31st, skipping short months, between February 1 and 28: never due.
            #expect(
                await fields(EnteredRecurrence(every: "month", interval: 12, monthEnd: "skip", startDate: "2026-01-31", endDate: "2026-01-30"))
                    == ["rule.endDate"])
            // Monday only, in a window holding no Monday.
            #expect(await fields(EnteredRecurrence(every: "week", weekdays: [1], startDate: "2026-01-06", endDate: "2026-01-11")) == ["rule.endDate"])
            #expect(await fields(EnteredRecurrence(every: "day", startDate: "2026-01-01"), mode: "sometimes") == ["mode"])
            var bad = setup.rent("12.345")
            bad.description = ""
            #expect(await fields(EnteredRecurrence(every: "day", startDate: "2026-01-01"), expense: bad) == ["description", "amount"])
            let stored = try await setup.recurring.list(groupID: setup.trip.groupID, caller: setup.trip.aki)
            #expect(stored.isEmpty)
            // A viewer may not make one.
            await #expect(throws: AppError.forbidden) {
                try await setup.recurring.create(
                    setup.rent(), rule: EnteredRecurrence(every: "day", startDate: "2026-01-01"), mode: nil,
                    groupID: setup.trip.groupID, caller: setup.trip.vic, origin: setup.trip.origin)
            }
        }
    }
}

extension RecurringUseCases {
    /// `create` without an idempotency key: the series made.
    func create(
        _ expense: EnteredExpense, rule: EnteredRecurrence, mode: String?, groupID: UUID, caller: Caller,
        origin: RequestOrigin
    ) async throws -> SeriesView {
        let outcome = try await create(expense, rule: rule, mode: mode, groupID: groupID, caller: caller, origin: origin) {
            _ in StoredResponse(status: 201, body: Data())
        }
        guard case .created(let view, _) = outcome else { throw AppError.notFound("recurring expense") }
        return view
    }
}
