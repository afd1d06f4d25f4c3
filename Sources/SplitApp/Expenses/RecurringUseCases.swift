import Foundation
import SplitCore
import SplitStore

/// A change to a series: each field given replaces the stored one.
public struct SeriesPatch: Sendable, Equatable {
    /// The template for future occurrences (its date is ignored).
    public var expense: EnteredExpense?
    public var rule: EnteredRecurrence?
    /// auto or confirm.
    public var mode: String?
    /// active (resume), paused or ended.
    public var state: String?
    /// Occurrences to skip, one by one (future ones of the rule).
    public var skip: [String]?

    public init(
        expense: EnteredExpense? = nil, rule: EnteredRecurrence? = nil, mode: String? = nil, state: String? = nil,
        skip: [String]? = nil
    ) {
        self.expense = expense
        self.rule = rule
        self.mode = mode
        self.state = state
        self.skip = skip
    }
}

/// A series as its group sees it: the record and its next dates.
public struct SeriesView: Sendable, Equatable {
    public var series: SeriesRecord
    /// The template as a form holds it, dated its next occurrence (or its start).
    public var draft: EnteredExpense
    /// The next occurrences still to be made (at most 5), skipped ones left out.
    public var upcoming: [String]
    public var categoryName: String?
    /// Why it cannot go on as it is (its maker may no longer add expenses, someone it names left
    /// the group), in its pause note's words; nil when it can. A page offers no Resume then.
    public var blocked: String? = nil
    /// Whether `blocked` was worked out (from the group's members): only then can a stop in the
    /// note be said to hold no more.
    public var checked = false

    /// What a page says under it: what stops it now, else its note, unless that note said what
    /// stopped it then and nothing does now (found by a new user: a restored member still blamed).
    public var reason: String? {
        if let blocked { return blocked }
        guard let note = series.note else { return nil }
        guard SeriesStop.isStop(note) else { return note }
        // What stopped it no longer does (the member is back): said, with what to do (found by a
        // new user: "Paused" with no reason once the member who left had come back).
        return checked && series.state == .paused
            ? "It was paused then (“\(note)”); that is no longer so: resuming it goes on with it." : nil
    }
}

/// An occurrence waiting in the queue, with the expense it would make as a form would hold it.
public struct PendingView: Sendable, Equatable {
    public var pending: PendingRecord
    public var draft: EnteredExpense
    public var categoryName: String?
    /// Members it names who are no longer in the group: it cannot be confirmed as it is.
    public var gone: [String] = []
}

/// Recurring expenses and the pending queue (issue 20). A series is an expense template and a
/// rule (SplitCore's `Recurrence`); `materializeDue` — run by every server, and right after a
/// series is made or resumed — makes each occurrence once the group's day has come: an expense
/// (`auto`) or a pending one (`confirm`) that a member with the add-expense right confirms
/// (optionally edited) or dismisses. Members with the add-expense right make series; the creator
/// or anyone who may edit all expenses changes them.
public struct RecurringUseCases: Sendable, UsesStores {
    let database: Database
    let expenseUseCases: ExpenseUseCases
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) {
        self.database = database
        expenseUseCases = ExpenseUseCases(database: database, now: now)
        self.now = now
    }

    /// Occurrences made at most for one series in one catch-up; older ones due beyond it are left
    /// out with a note on the series.
    public static let catchUpLimit = 400
    static let farFuture = CivilDate(year: 9999, month: 12, day: 31)!

    // MARK: Series

    /// The descriptions of the group's active series that would pause were `memberID` to leave
    /// or be removed: those naming them (a payer, or in the split) and those they made (found
    /// by a new user: leaving stopped the hotel's nightly expense for everyone, unsaid).
    public func pausedWithout(_ memberID: UUID, groupID: UUID, caller: Caller) async throws -> [String] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        guard var gone = try await groups.members(groupID: group.id).first(where: { $0.id == memberID }) else { return [] }
        gone.isActive = false
        return try await recurring.list(groupID: group.id).filter { series in
            series.state == .active && SeriesStop.reason(series, after: gone) != nil
        }.map(\.template.description)
    }

    public func list(groupID: UUID, caller: Caller) async throws -> [SeriesView] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let names = try await expenseUseCases.categoryNames(group.id)
        let members = try await groups.members(groupID: group.id)
        let deleted = try await deletedCategories(group.id)
        return try await recurring.list(groupID: group.id).map {
            view($0, names: names, home: group.homeCurrency, members: members, deleted: deleted)
        }
    }

    /// The group's deleted categories by id, with their names: a series in one cannot go on.
    func deletedCategories(_ groupID: UUID) async throws -> [UUID: String] {
        Dictionary(
            uniqueKeysWithValues: try await categories.allCategories(groupID: groupID).filter(\.isDeleted).map { ($0.id, $0.name) })
    }

    public func series(_ id: UUID, caller: Caller) async throws -> SeriesView {
        let (series, group, _) = try await seriesAccess(id, caller) { _ in .read }
        return view(
            series, names: try await expenseUseCases.categoryNames(group.id), home: group.homeCurrency,
            members: try await groups.members(groupID: group.id), deleted: try await deletedCategories(group.id))
    }

    /// Why `series` cannot go on as it is, with the field a change would fix; nil when it can:
    /// everyone it names is in the group, its maker may still add expenses (it adds as them), and
    /// its category is not deleted (`deleted`: the group's deleted ones, by id).
    /// The one reading of it: a pause note, a refused resume and a page's Resume button.
    static func blocker(
        _ series: SeriesRecord, members: [MemberRecord], deleted: [UUID: String]
    ) -> (field: String, note: String)? {
        let creator = members.first { $0.userID == series.createdByUserID }
        if Permissions.decide(.addExpense, for: creator?.membership) != .allowed {
            // A maker no member holds any more (their account deleted): the pause note named
            // them when it was written; nothing here can.
            if creator == nil, let note = series.note, SeriesStop.isStop(note) { return ("state", note) }
            return ("state", SeriesStop.makerStopped(creator?.name, inGroup: creator?.isActive == true))
        }
        if let gone = members.first(where: { series.template.members.contains($0.id) && !$0.isActive }) {
            return ("expense", SeriesStop.memberGone(gone.name))
        }
        if let category = deleted[series.template.categoryID] { return ("category", SeriesStop.categoryGone(category)) }
        return nil
    }

    func view(
        _ series: SeriesRecord, names: [UUID: String], home: String, members: [MemberRecord]? = nil,
        deleted: [UUID: String] = [:]
    ) -> SeriesView {
        var upcoming: [String] = []
        if series.state == .active, let next = series.nextDate.flatMap(CivilDate.init) {
            let skipped = Set(series.skipped)
            upcoming = series.recurrence.occurrences(from: next, through: Self.farFuture, limit: 5 + skipped.count)
                .map(\.description).filter { !skipped.contains($0) }.prefix(5).map { $0 }
        }
        var view = SeriesView(
            series: series, draft: Self.draft(series.template, date: series.nextDate ?? series.recurrence.start.description, homeCurrency: home),
            upcoming: upcoming, categoryName: names[series.template.categoryID],
            blocked: series.state == .ended ? nil : members.flatMap { Self.blocker(series, members: $0, deleted: deleted)?.note })
        view.checked = members != nil
        return view
    }

    /// A template as an entered expense of `date`, as a form shows it.
    static func draft(_ template: ExpenseTemplate, date: String, homeCurrency: String) -> EnteredExpense {
        let record = ExpenseRecord(
            id: UUID.random(), groupID: UUID.random(), description: template.description, amount: template.amount,
            currency: template.currency, categoryID: template.categoryID, expenseDate: date, rule: template.rule,
            homeAmount: template.homeAmount, homeCurrency: template.homeCurrency, createdByUserID: UUID.random(),
            createdAt: 0, updatedAt: 0, payers: template.payers, shares: [])
        guard var entered = try? ExpenseUseCases.entered(record, homeCurrency: homeCurrency) else {
            return EnteredExpense(
                description: template.description, amount: MoneyInput.text(template.amount, template.currency),
                currency: template.currency, expenseDate: date)
        }
        // One payer of the whole amount as the form's "paid by": a new amount keeps them paying it all.
        if template.payers.count == 1, template.payers[0].amount == template.amount {
            entered.paidBy = nil
            entered.paidByMemberId = template.payers[0].memberID.text
        }
        return entered
    }

    /// Makes a series and, when it starts today or earlier, its first occurrences. A retry with
    /// the same idempotency key gets its first answer (`render` makes it in the caller's wire
    /// format), even if the series could no longer be made; the key with another request is a
    /// 422, and nothing is made.
    public func create(
        _ expense: EnteredExpense, rule entered: EnteredRecurrence, mode: String?, groupID: UUID, caller: Caller,
        origin: RequestOrigin, idempotency request: IdempotencyRequest? = nil,
        render: (SeriesView) throws -> StoredResponse
    ) async throws -> IdempotencyOutcome<SeriesView> {
        let claim = try request.map { try $0.claim(for: caller) }
        if let claim, let stored = try await idempotency.lookup(claim) {
            guard case .replayed(let response) = stored else { throw AppError.idempotencyKeyReused }
            return .replayed(response)
        }
        let (group, me, members) = try await access.checkWithMembers(groupID, caller, for: .addExpense)
        var checks = FieldChecks()
        let recurrence = try checks.run { try Self.recurrence(entered) }
        let mode = try checks.run { try Self.mode(mode ?? "auto") }
        var dated = expense
        // A refused start is said once, as the rule's.
        dated.expenseDate = recurrence?.start.description ?? MoneyInput.today(now())
        let template = try await checks.run {
            Self.template(
                try await expenseUseCases.build(
                    dated, id: UUID.random(), group: group, me: me, members: members, createdBy: caller.user.id, now: now()
                ).0)
        }
        try checks.finish()
        guard let recurrence, let mode, let template else { throw AppError.invalid(field: "rule", message: "The rule is needed.") }
        let time = now()
        let series = SeriesRecord(
            id: UUID.random(), groupID: group.id, template: template, recurrence: recurrence, mode: mode,
            nextDate: recurrence.occurrences(through: Self.farFuture, limit: 1).first?.description,
            createdByUserID: caller.user.id, createdAt: time, updatedAt: time)
        // With a key, the answer as made is stored with it; once the first occurrences are made,
        // the answer with them (a retry in between gets the first).
        var made: StoredResponse?
        if claim != nil {
            made = try render(
                view(series, names: try await expenseUseCases.categoryNames(group.id), home: group.homeCurrency))
        }
        do {
            switch try await recurring.create(
                series, actor: GroupAccess.actor(caller, me, origin: origin, for: [.addExpense]), claim: claim,
                response: made)
            {
            case .created: break
            case .replayed(let stored): return .replayed(stored)
            case .keyReused: throw AppError.idempotencyKeyReused
            }
        } catch RecurringStoreError.tooMany {
            throw AppError.conflict(
                code: "too_many_series", field: nil,
                message: "A group has at most \(RecurringStore.seriesPerGroup) recurring expenses; end one first.")
        }
        // One starting today (or earlier) makes its first expenses now, not at the next pass; if
        // that fails, the series is saved all the same and the next pass makes them.
        _ = try? await materialize(groupIDs: [group.id])
        let shown = try await self.series(series.id, caller: caller)
        let response = try render(shown)
        if let claim, response != made { try await idempotency.answer(claim, with: response) }
        return .created(shown, response)
    }

    /// Changes a series if it is still at `basedOn`: its template or rule for future
    /// occurrences, its mode, pause, resume, end, or skip single dates.
    public func update(
        _ id: UUID, _ patch: SeriesPatch, basedOn readVersion: () throws -> Int64?, caller: Caller,
        origin: RequestOrigin
    ) async throws -> SeriesView {
        let (current, group, me) = try await seriesAccess(id, caller) { series in
            .editExpense(isOwn: series.createdByUserID == caller.user.id)
        }
        guard let basedOn = try readVersion() else {
            throw AppError.versionRequired("Send the version this change is based on, as \"version\" or If-Match.")
        }
        let names = try await expenseUseCases.categoryNames(group.id)
        if basedOn != current.version {
            throw AppError.staleSeries(view(current, names: names, home: group.homeCurrency))
        }
        let today = CivilDate(MoneyInput.today(now(), in: group.timeZone))!
        var next = current
        var action = "recurring.updated"
        var checks = FieldChecks()
        // An ended series stays as it ended (found by a new user: one took a new rule and showed
        // it, still ended).
        if current.state == .ended, patch.rule != nil || patch.expense != nil || patch.mode != nil || patch.skip != nil {
            throw AppError.invalid(field: "state", message: "This series has ended and cannot change; make a new one.")
        }
        if let entered = patch.rule, var recurrence = try checks.run({ try Self.recurrence(entered) }) {
            // From the first date not yet made, or tomorrow when that is later (found by new users:
            // monthly to weekly waited for the next monthly date, with no week between; and an
            // edit on a day the new rule falls on added that day's expense unsaid), or the new
            // start. A paused series from today, as its resume goes on (the dates it missed are
            // not made). Occurrences already made stay as they are, and a date already made is
            // never made twice (occurrences are keyed by date).
            // A series that has added nothing yet starts as a new one from its start would, past
            // dates included (found by a new user: a rent not yet begun, moved to start last
            // month, was taken and last month's rent never added).
            let started = !(try await recurring.madeDates(seriesID: current.id, from: "0000-01-01", limit: 1).isEmpty)
            let pending = current.nextDate.flatMap(CivilDate.init) ?? today
            let from =
                current.state == .paused
                ? max(today, recurrence.start)
                : started ? max(min(pending, today.adding(days: 1)), recurrence.start) : recurrence.start
            // One that has added expenses, its start moved earlier onto dates it never made, is
            // refused, saying which (found by a new user: a marina fee moved a day earlier said
            // "from 12-04" and never added it). Adding them would put a second January rent beside
            // the first when a monthly start moves from the 5th to the 4th (found by review).
            if started, recurrence.start < current.recurrence.start {
                let madeAll = Set(try await recurring.madeDates(seriesID: current.id, from: recurrence.start.description))
                let gained = recurrence.occurrences(
                    from: recurrence.start, through: min(current.recurrence.start.adding(days: -1), today), limit: 4
                ).map(\.description).filter { !madeAll.contains($0) }
                if !gained.isEmpty {
                    let listed = gained.prefix(3).joined(separator: ", ") + (gained.count > 3 ? " and more" : "")
                    checks.add(
                        field: "rule.startDate",
                        message: "This series has added expenses from \(current.recurrence.start) on, and a change adds "
                            + "none before them: starting it on \(recurrence.start) would not add \(listed). Add "
                            + "\(gained.count == 1 ? "that day as an expense" : "those days as expenses") of "
                            + "\(gained.count == 1 ? "its" : "their") own, or keep the start.")
                }
            }
            let made = Set(try await recurring.madeDates(seriesID: current.id, from: from.description))
            // A start moved past dates the series has still to add would drop them unsaid (found by
            // a new user: "--amount 1850 --start 2027-02-01", meant as "from February", lost
            // January's rent). Said, with the two ways on.
            // A series that has added nothing yet is only postponed (found by review: a trip pushed
            // back was refused); dates skipped in the same change are meant to go.
            if current.state == .active, started, let pendingFrom = current.nextDate.flatMap(CivilDate.init),
                recurrence.start > pendingFrom
            {
                let before = recurrence.start.adding(days: -1)
                let skipping = Set(current.skipped + (patch.skip ?? []))
                let dropped = current.recurrence.occurrences(from: min(pendingFrom, today.adding(days: 1)), through: before, limit: 4)
                    .map(\.description).filter { !skipping.contains($0) && !made.contains($0) }
                if !dropped.isEmpty {
                    let listed = dropped.prefix(3).joined(separator: ", ") + (dropped.count > 3 ? " and more" : "")
                    checks.add(
                        field: "rule.startDate",
                        message: "Starting it on \(recurrence.start) leaves out \(listed), not added yet. To add "
                            + "\(dropped.count == 1 ? "that one" : "those") as \(dropped.count == 1 ? "it is" : "they are") "
                            + "and change it from \(recurrence.start) on, give this series the last date \(before) and add "
                            + "a new one from \(recurrence.start); to leave \(dropped.count == 1 ? "it" : "them") out, "
                            + "skip \(dropped.count == 1 ? "it" : "them") first.")
                }
            }
            var countRefused = false
            // A count counts the rule's dates from its start (skipped ones too), as when the series
            // was made, while every date the series made is one of the rule's. When some were made
            // under other dates (monthly six times, three made, then weekly), it counts the
            // occurrences made instead, and the rest come from `from` on (found by review: the new
            // rule's six were counted from its start, all in the past).
            if let count = recurrence.count {
                let all = try await recurring.madeDates(seriesID: current.id, from: "0000-01-01", limit: 10_001)
                let onRule = all.allSatisfy { text in
                    guard let date = CivilDate(text) else { return false }
                    return recurrence.occurrences(from: date, through: date).first == date
                }
                if !onRule {
                    let left = count - all.count
                    if left <= 0 {
                        countRefused = true
                        checks.add(
                            field: "rule.count",
                            message: "This series has made \(all.count) already: give more times than that, or end it.")
                    } else {
                        recurrence = Self.counted(
                            recurrence, left, from: from, leavingOut: Set(current.skipped).union(made))
                    }
                }
            }
            next.recurrence = recurrence
            next.nextDate = recurrence.occurrences(from: from, through: Self.farFuture, limit: made.count + 1)
                .map(\.description).first { !made.contains($0) }
            // Dates skipped that the new rule still falls on stay skipped (found by review: a
            // new rule brought back a skipped holiday).
            next.skipped = current.skipped.filter { text in
                guard let date = CivilDate(text), date >= from else { return false }
                return recurrence.occurrences(from: date, through: date).first == date
            }
            // A rule with nothing left to add would end the series unsaid (found by a new user; and
            // by another, whose one date left was skipped: a start moved earlier, 8 times counted
            // from it, ended the series).
            if Self.firstUnskipped(next) == nil, !countRefused {
                let counted =
                    recurrence.count.map { count in
                        " Its \(count) \(count == 1 ? "time is" : "times are") counted from its start, \(recurrence.start), "
                            + "skipped dates too: give more times, a later end, or end the series instead."
                    } ?? " Give a later end, or end the series instead."
                checks.add(field: "rule", message: "With this rule nothing is left to add." + counted)
            }
        }
        if let expense = patch.expense {
            var dated = expense
            dated.expenseDate = next.nextDate ?? today.description
            if let record = try await checks.run({
                try await expenseUseCases.build(
                    dated, id: UUID.random(), group: group, me: me,
                    members: try await groups.members(groupID: group.id),
                    createdBy: current.createdByUserID, now: now()
                ).0
            }) {
                next.template = Self.template(record)
            }
        }
        if let mode = patch.mode, let parsed = try checks.run({ try Self.mode(mode) }) { next.mode = parsed }
        if let skip = patch.skip {
            if skip.count > 100 {
                checks.add(field: "skip", message: "Skip at most 100 dates at once.")
            }
            let first = next.nextDate.flatMap(CivilDate.init)
            for (index, text) in skip.prefix(100).enumerated() {
                guard let date = CivilDate(text), let first, date >= first,
                    next.recurrence.occurrences(from: date, through: date).first == date
                else {
                    checks.add(
                        field: "skip[\(index)]",
                        message: text.isEmpty
                            ? "Give the date to skip, like 2026-07-14." : "\(text.prefix(20)) is not a coming occurrence of this series.")
                    continue
                }
                if !next.skipped.contains(text) { next.skipped.append(text) }
            }
            next.skipped.sort()
            if next.skipped.count > 1_000 { checks.add(field: "skip", message: "A series skips at most 1,000 dates.") }
            action = "recurring.skipped"
        }
        if let state = patch.state {
            switch state {
            case "paused" where current.state == .active:
                next.state = .paused
                next.note = nil
                action = "recurring.paused"
            case "active" where current.state == .paused:
                // Resuming does not make what fell due while paused: from today on.
                next.state = .active
                next.note = nil
                next.nextDate = next.recurrence.occurrences(from: today, through: Self.farFuture, limit: 1).first?.description
                action = "recurring.resumed"
            case "ended":
                next.state = .ended
                next.nextDate = nil
                action = "recurring.ended"
            case "paused", "active":
                if current.state.rawValue != state {
                    checks.add(field: "state", message: "An ended series cannot start again; make a new one.")
                }
            default:
                checks.add(field: "state", message: "state is active, paused or ended.")
            }
        }
        try checks.finish()
        let members = try await groups.members(groupID: group.id)
        let blocker = Self.blocker(next, members: members, deleted: try await deletedCategories(group.id))
        if next.state == .active, let blocker {
            if blocker.field == "state", current.createdByUserID == caller.user.id {
                throw AppError.invalid(field: "state", message: SeriesStop.ownRefused(group.name, mayEnd: true))
            }
            let stop = blocker.field == "state" ? " It adds as them, so it cannot go on; end it instead." : ""
            throw AppError.invalid(field: blocker.field, message: blocker.note + stop)
        }
        // A change to a paused series says what still stops it, or nothing once it can go on
        // (found by a new user: the note kept naming a problem already mended).
        if next.state == .paused, current.state == .paused, patch.expense != nil || patch.rule != nil {
            next.note = blocker?.note
        }
        next.nextDate = Self.firstUnskipped(next)
        // Dates skipped that are past are done with. One still to come stays skipped even when the
        // next date is beyond it: a resume starts again from today (found by review: a skipped
        // date came back after pause and resume, and `skipped` read [] right after the skip).
        // (A series waiting behind today, for a removed member, still makes its past dates: those
        // from its next date on stay skipped too.)
        let kept = min(today.description, next.nextDate ?? today.description)
        next.skipped = next.skipped.filter { $0 >= kept }
        if next.nextDate == nil && next.state != .paused { next.state = .ended }
        let actor = GroupAccess.actor(
            caller, me, origin: origin, for: [.editExpense(isOwn: current.createdByUserID == caller.user.id)])
        switch try await recurring.update(next, expectedVersion: basedOn, action: action, actor: actor, now: now()) {
        case .written: break
        case .stale(let latest): throw AppError.staleSeries(view(latest, names: names, home: group.homeCurrency))
        case nil: throw AppError.notFound("recurring expense")
        }
        _ = try? await materialize(groupIDs: [group.id])
        return try await series(id, caller: caller)
    }

    /// Ends a series (DELETE): nothing more is made; what was made stays.
    public func end(_ id: UUID, caller: Caller, origin: RequestOrigin) async throws -> SeriesView {
        let current = try await series(id, caller: caller)
        return try await update(
            id, SeriesPatch(state: "ended"), basedOn: { current.series.version }, caller: caller, origin: origin)
    }

    /// An expense as a series' template: what a charged amount in the home currency was is not
    /// carried over (next time's charge is not known; guessing it would move money).
    static func template(_ expense: ExpenseRecord) -> ExpenseTemplate {
        var template = ExpenseTemplate(expense)
        template.homeAmount = nil
        template.homeCurrency = nil
        return template
    }

    /// `rule` adding `left` more from `from` on, dates in `leavingOut` (skipped, or made already)
    /// not among them: with an end on the last of them instead of its count (which counts from its
    /// own start). When it ends before giving them all, its end stands, without the count.
    static func counted(_ rule: Recurrence, _ left: Int, from: CivilDate, leavingOut: Set<String>) -> Recurrence {
        guard
            let open = try? Recurrence(
                unit: rule.unit, interval: rule.interval, weekdays: rule.weekdays, monthEnd: rule.monthEnd,
                start: rule.start, end: rule.end)
        else { return rule }
        let wanted = open.occurrences(from: from, through: farFuture, limit: left + leavingOut.count)
            .filter { !leavingOut.contains($0.description) }.prefix(left)
        guard let last = wanted.last else { return open }
        return
            (try? Recurrence(
                unit: rule.unit, interval: rule.interval, weekdays: rule.weekdays, monthEnd: rule.monthEnd,
                start: rule.start, end: last)) ?? open
    }

    /// The next date of the rule from the series' next date on that is not skipped.
    static func firstUnskipped(_ series: SeriesRecord) -> String? {
        guard let next = series.nextDate.flatMap(CivilDate.init) else { return nil }
        let skipped = Set(series.skipped)
        return series.recurrence.occurrences(from: next, through: farFuture, limit: skipped.count + 1)
            .map(\.description).first { !skipped.contains($0) }
    }

    func seriesAccess(_ id: UUID, _ caller: Caller, action: (SeriesRecord) -> GroupAction) async throws -> (
        SeriesRecord, GroupRecord, MemberRecord
    ) {
        guard let series = try await recurring.series(id: id), caller.reaches(series.groupID),
            let (group, me) = try await groups.groupAndMembership(groupID: series.groupID, userID: caller.user.id)
        else { throw AppError.notFound("recurring expense") }
        do {
            try GroupAccess.require([action(series)], me, in: group)
        } catch AppError.notFound {
            throw AppError.notFound("recurring expense")
        } catch AppError.forbidden
            where series.createdByUserID == caller.user.id
            && Permissions.decide(.addExpense, for: me.membership) != .allowed
        {
            // Its maker, who may no longer add expenses (a viewer now): say why their own series
            // is out of their hands (found by a new user: a viewer's resume said only "not allowed").
            // One who may add but not edit their own gets the role's refusal, which is true.
            throw AppError.forbiddenBecause(SeriesStop.ownRefused(group.name, mayEnd: false))
        }
        return (series, group, me)
    }

    // MARK: Pending

    public func pending(groupID: UUID, caller: Caller) async throws -> [PendingView] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let names = try await expenseUseCases.categoryNames(group.id)
        let members = try await groups.members(groupID: group.id)
        return try await recurring.pending(groupID: group.id).map {
            pendingView($0, group: group, names: names, members: members)
        }
    }

    /// One waiting occurrence, for a member of its group (nil for anyone else, or no such id).
    public func pendingItem(_ id: UUID, caller: Caller) async throws -> PendingView? {
        guard let item = try await recurring.pendingItem(id: id), caller.reaches(item.groupID),
            let (group, me) = try await groups.groupAndMembership(groupID: item.groupID, userID: caller.user.id),
            (try? GroupAccess.require([.read], me, in: group)) != nil
        else { return nil }
        return pendingView(
            item, group: group, names: try await expenseUseCases.categoryNames(group.id),
            members: try await groups.members(groupID: group.id))
    }

    /// How many dates wait, by series.
    public func waitingCounts(groupID: UUID, caller: Caller) async throws -> [UUID: Int] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await recurring.pendingCounts(groupID: group.id)
    }

    public func pendingCount(groupID: UUID, caller: Caller) async throws -> Int {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await recurring.pendingCount(groupID: group.id)
    }

    func pendingView(
        _ item: PendingRecord, group: GroupRecord, names: [UUID: String], members: [MemberRecord] = []
    ) -> PendingView {
        let named = Set(item.template.members)
        return PendingView(
            pending: item, draft: Self.draft(item.template, date: item.date, homeCurrency: group.homeCurrency),
            categoryName: names[item.template.categoryID],
            gone: members.filter { !$0.isActive && named.contains($0.id) }.map(\.name).sorted())
    }

    /// Confirms a waiting occurrence, as it is or as edited: it becomes an expense like any
    /// other, confirmed by the caller and, confirmed as it is, made by the series' maker, as the
    /// series adds it when it needs no confirmation (found by a new user: a flatmate's confirm made
    /// them its maker, and the one who pays the cleaner could no longer edit his own cleaning); by
    /// the caller when they changed it first, or the maker may no longer add expenses here.
    public func confirm(_ id: UUID, edited: EnteredExpense?, caller: Caller, origin: RequestOrigin) async throws
        -> ExpenseView
    {
        guard let item = try await recurring.pendingItem(id: id) else { throw AppError.notFound("pending expense") }
        let (group, me, members) = try await access.checkWithMembers(
            item.groupID, caller, for: .addExpense, asUnknown: "pending expense")
        let draft = pendingView(item, group: group, names: [:]).draft
        var entered = edited ?? draft
        // An edit without a date keeps the occurrence's.
        if entered.expenseDate.isEmpty { entered.expenseDate = item.date }
        // Confirmed as it is: the maker's; changed first, the confirmer's, who may then mend what
        // they typed (found by review: another's edit read as the maker's).
        let asItIs = entered == draft
        let maker = asItIs
            ? try await recurring.series(id: item.seriesID).flatMap { series in
                members.first { $0.userID == series.createdByUserID && $0.isActive }
            } : nil
        let createdBy =
            maker.flatMap { Permissions.decide(.addExpense, for: $0.membership) == .allowed ? $0.userID : nil } ?? caller.user.id
        // A fresh id: the pending row's is derived from its series and date, so anyone could
        // have used it for an expense of their own first.
        let (expense, names) = try await expenseUseCases.build(
            entered, id: UUID.random(), group: group, me: me, members: members, createdBy: createdBy, now: now())
        do {
            guard
                let stored = try await recurring.confirm(
                    item.id, expense: expense, actor: GroupAccess.actor(caller, me, origin: origin, for: [.addExpense]),
                    now: now())
            else { throw AppError.notFound("pending expense") }
            return ExpenseView(expense: stored, categoryNames: names, homeCurrency: group.homeCurrency)
        } catch RecurringStoreError.decided(let state) {
            throw AppError.conflict(
                code: "already_decided", field: nil, message: "This expense was \(state.rawValue) already.")
        } catch ExpenseStoreError.idTaken {
            throw AppError.conflict(code: "conflict", field: nil, message: "Try again: that id was just taken.")
        }
    }

    /// Dismisses every date of a series still waiting (a first date far back filled the queue);
    /// how many.
    public func dismissWaiting(_ seriesID: UUID, caller: Caller, origin: RequestOrigin) async throws -> Int {
        guard let series = try await recurring.series(id: seriesID), caller.reaches(series.groupID) else {
            throw AppError.notFound("recurring expense")
        }
        let (group, me) = try await access.check(series.groupID, caller, for: .addExpense, asUnknown: "recurring expense")
        guard
            let dismissed = try await recurring.dismissWaiting(
                seriesID: seriesID, groupID: group.id,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [.addExpense]), now: now())
        else { throw AppError.notFound("recurring expense") }
        return dismissed
    }

    public func dismiss(_ id: UUID, caller: Caller, origin: RequestOrigin) async throws {
        guard let item = try await recurring.pendingItem(id: id) else { throw AppError.notFound("pending expense") }
        let (group, me) = try await access.check(item.groupID, caller, for: .addExpense, asUnknown: "pending expense")
        do {
            guard
                try await recurring.dismiss(
                    item.id, groupID: group.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [.addExpense]),
                    now: now()) != nil
            else { throw AppError.notFound("pending expense") }
        } catch RecurringStoreError.decided(let state) {
            throw AppError.conflict(
                code: "already_decided", field: nil, message: "This expense was \(state.rawValue) already.")
        }
    }

    // MARK: Making occurrences

    /// Makes every occurrence that has come due, in every group (or only in `groupIDs`): the
    /// background pass each server runs. Safe to run on several servers at once: each (series,
    /// date) is made once. A series naming a member removed since is paused with a note instead.
    ///
    /// - Returns: how many occurrences this pass made.
    @discardableResult
    public func materializeDue(batchSize: Int = 500) async throws -> Int {
        try await materialize(groupIDs: nil, batchSize: batchSize)
    }

    @discardableResult
    func materialize(groupIDs: [UUID]?, batchSize: Int = 500) async throws -> Int {
        // Tomorrow in UTC is today or earlier everywhere (UTC+14 at most).
        let horizon = CivilDate(MoneyInput.today(now())).map { $0.adding(days: 1).description } ?? "9999-12-31"
        var made = 0
        var after: (String, UUID)?
        var firstFailure: (any Error)?
        while true {
            // Page by (next date, id): a series whose group's day has not come yet is passed over
            // once, not read again on each page.
            let due = try await recurring.due(through: horizon, after: after, groupIDs: groupIDs, limit: batchSize)
            guard let last = due.last else { break }
            after = (last.nextDate ?? "", last.id)
            for (groupID, series) in Dictionary(grouping: due, by: \.groupID) {
                // One group that cannot be written (a broken template, a database error) does not
                // hold up the others; the first failure is thrown once all are done.
                do {
                    made += try await materialize(groupID: groupID, series: series)
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
            if due.count < batchSize { break }
        }
        if let firstFailure { throw firstFailure }
        return made
    }

    /// Occurrences one group gets in one pass at most; the rest wait for the next pass (a minute
    /// later by default), so a group catching up on a thousand series is not one huge transaction.
    static let perGroupPass = 10_000

    /// One group's due series, in one transaction (or one per series when a member was removed
    /// since they were read, or one series would pass the ledger's bound).
    func materialize(groupID: UUID, series: [SeriesRecord]) async throws -> Int {
        guard let group = try await groups.group(id: groupID) else { return 0 }
        let today = CivilDate(MoneyInput.today(now(), in: group.timeZone))!
        let members = try await groups.members(groupID: groupID)
        let deleted = try await deletedCategories(groupID)
        var batches: [SeriesBatch] = []
        var occurrences = 0
        for item in series {
            guard let next = item.nextDate.flatMap(CivilDate.init), next <= today else { continue }
            // Nothing is added to an archived group, nor by someone who may no longer add expenses.
            if group.isArchived {
                try await pause(item, note: "The group is archived; resume this once it is back.")
                continue
            }
            if let blocker = Self.blocker(item, members: members, deleted: deleted) {
                try await pause(item, note: blocker.note)
                continue
            }
            guard occurrences < Self.perGroupPass, let batch = try batch(item, today: today, members: members) else {
                continue
            }
            occurrences += batch.occurrences.count
            batches.append(batch)
        }
        /// One series alone: refused for a member removed while this pass ran, it waits for the
        /// next pass, which pauses it; refused by the ledger's bound, it is paused now with a note
        /// saying so, and the group's other series go on.
        func alone(_ batch: SeriesBatch) async throws -> Int {
            do {
                return try await recurring.materialize(groupID: groupID, batches: [batch], now: now())
            } catch WriteRefusal.inactiveMember {
                return 0
            } catch WriteRefusal.ledgerBound(let code) {
                if let item = series.first(where: { $0.id == batch.seriesID }) {
                    try await pause(
                        item,
                        note: "Its occurrences would take a balance in \(code) past the most one group holds;"
                            + " lower its amount or keep it in another group.")
                }
                return 0
            }
        }
        if batches.count == 1 { return try await alone(batches[0]) }
        do {
            return try await recurring.materialize(groupID: groupID, batches: batches, now: now())
        } catch WriteRefusal.inactiveMember, WriteRefusal.ledgerBound {
            // One series in question: each alone, so only that one waits.
            var made = 0
            for batch in batches { made += try await alone(batch) }
            return made
        }
    }

    /// The occurrences of one series from its next date through `today` (skipped ones left out,
    /// at most `catchUpLimit`, the latest kept), and where it stands after them.
    func batch(_ series: SeriesRecord, today: CivilDate, members: [MemberRecord]) throws -> SeriesBatch? {
        guard let next = series.nextDate.flatMap(CivilDate.init) else { return nil }
        let skipped = Set(series.skipped)
        // Only the latest `catchUpLimit` are made, so the dates are looked for no further back
        // than they can be: a series started centuries ago costs what one started last year does
        // (every date since year 1 of a daily series was 740,000 dates, on the request's thread).
        let rule = series.recurrence
        let daysPerStep = switch rule.unit {
        case .day: 1
        case .week: 7
        case .month: 31
        case .year: 366
        }
        // The window ends at the series' last day that can be due: its end, or today. A series
        // with a count has at most 10,000 dates, so they are all looked at (found by review: three
        // days of 2025 fell before a window counted back from today, and none was made).
        let last = min(today, rule.end ?? today)
        let from =
            rule.count != nil
            ? next : max(next, last.adding(days: -(Self.catchUpLimit + skipped.count + 1) * rule.interval * daysPerStep))
        var dates = rule.occurrences(from: from, through: today).map(\.description).filter { !skipped.contains($0) }
        let earlier = from > next && !rule.occurrences(from: next, through: from.adding(days: -1), limit: 1).isEmpty
        var note = series.note
        if dates.count > Self.catchUpLimit || earlier {
            let kept = Array(dates.suffix(Self.catchUpLimit))
            let first = kept.first ?? today.description
            let missed = dates.count - kept.count
            let how =
                earlier ? "Occurrences were" : missed == 1 ? "1 occurrence was" : "\(missed) occurrences were"
            note = "\(how) not made before \(first): more than \(Self.catchUpLimit) were due at once."
            dates = kept
        }
        let after = series.recurrence.occurrences(
            from: today.adding(days: 1), through: Self.farFuture, limit: skipped.count + 1
        ).map(\.description).first { !skipped.contains($0) }
        let template = series.template
        let currency = try Currency(code: template.currency)
        var occurrences: [(date: String, expense: ExpenseRecord?)] = []
        let time = now()
        for date in dates {
            guard series.mode == .auto else {
                occurrences.append((date, nil))
                continue
            }
            // Shares the same on every server (a tie-break from series and date); the expense's
            // own id is fresh, so nobody can take it first (the (series, date) key is the guard).
            let seed = RecurringStore.occurrenceID(seriesID: series.id, date: date)
            let id = UUID.random()
            let split = try ExpenseSplit.compute(
                total: Money(minorUnits: template.amount, currency: currency),
                payers: template.payers.map { MemberAmount(MemberID($0.memberID), $0.amount) }, rule: template.rule,
                tieBreak: TieBreak(seed: seed.text))
            occurrences.append(
                (
                    date,
                    ExpenseRecord(
                        id: id, groupID: series.groupID, description: template.description, amount: template.amount,
                        currency: template.currency, categoryID: template.categoryID, expenseDate: date,
                        rule: template.rule, homeAmount: template.homeAmount, homeCurrency: template.homeCurrency,
                        createdByUserID: series.createdByUserID, createdAt: time, updatedAt: time,
                        payers: split.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
                        shares: split.owed.map { ShareRecord(id: UUID.timeOrdered(), memberID: $0.memberID.uuid, amount: $0.amount) })
                ))
        }
        let creator = members.first { $0.userID == series.createdByUserID }
        return SeriesBatch(
            seriesID: series.id, expectedVersion: series.version, mode: series.mode, description: template.description,
            occurrences: occurrences, template: template, nextDate: after, state: after == nil ? .ended : .active,
            note: note, actor: Actor(userID: series.createdByUserID, name: creator?.name ?? "Recurring"))
    }

    /// Pauses a series the server cannot go on with, saying why (its creator is told).
    func pause(_ series: SeriesRecord, note: String) async throws {
        var paused = series
        paused.state = .paused
        paused.note = note
        _ = try await recurring.update(
            paused, expectedVersion: series.version, action: "recurring.paused", actor: nil, now: now())
    }

    // MARK: Input

    static func mode(_ text: String) throws -> SeriesRecord.Mode {
        guard let mode = SeriesRecord.Mode(rawValue: text) else {
            throw AppError.invalid(field: "mode", message: "mode is auto (added at once) or confirm (waits in the pending queue).")
        }
        return mode
    }

    static func recurrence(_ entered: EnteredRecurrence) throws -> Recurrence {
        var checks = FieldChecks()
        let unit = Recurrence.Unit(rawValue: entered.every)
        if unit == nil { checks.add(field: "rule.every", message: "every is day, week, month or year.") }
        let monthEnd = Recurrence.MonthEnd(rawValue: entered.monthEnd ?? "clamp")
        if monthEnd == nil { checks.add(field: "rule.monthEnd", message: "monthEnd is clamp or skip.") }
        let start = try checks.run { try MoneyInput.date(entered.startDate, field: "rule.startDate") }
        // An end far off ("9999-12-31") is an end never reached: any year.
        let end = try checks.run { try entered.endDate.map { try MoneyInput.date($0, field: "rule.endDate", years: 1...9999) } } ?? nil
        try checks.finish()
        guard let unit, let monthEnd, let start = start.flatMap(CivilDate.init) else {
            throw AppError.invalid(field: "rule", message: "The rule is needed.")
        }
        let rule: Recurrence
        do {
            rule = try Recurrence(
                unit: unit, interval: entered.interval ?? 1, weekdays: Set(entered.weekdays ?? []), monthEnd: monthEnd,
                start: start, end: end.flatMap(CivilDate.init), count: entered.count)
        } catch {
            let field =
                switch error {
                case .interval: "rule.interval"
                case .weekdays: "rule.weekdays"
                case .endBeforeStart, .never: "rule.endDate"
                case .count: "rule.count"
                }
            throw AppError.invalid(field: field, message: "The rule is refused: \(error.description).")
        }
        guard !rule.occurrences(through: farFuture, limit: 1).isEmpty else {
            throw AppError.invalid(field: "rule", message: "The rule is refused: it never falls due.")
        }
        return rule
    }
}
