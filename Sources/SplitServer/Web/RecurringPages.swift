import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// A group's recurring expenses and its pending queue (issue 20): the queue first (confirm, edit
/// then confirm, dismiss), then each series with its next dates and its controls (pause, resume,
/// skip the next date, change, end); the series form is the expense form with a "Repeats" part.
extension WebApp {
    var recurringUseCases: RecurringUseCases { api.recurringUseCases }

    struct RecurringBody: Sendable {
        struct Pending: Sendable {
            let id: String
            let text: String
            let date: String
            /// Why it cannot be confirmed as it is: "Dee is no longer in the group: change it to
            /// leave them out."
            let note: String?
        }
        struct Series: Sendable {
            let id: String
            let version: String
            let text: String
            let rule: String
            let state: String
            let note: String?
            let upcoming: String?
            /// Coming dates skipped one by one ("2026-12-24, 2026-12-31"; found by a new user: a
            /// skip could not be seen, nor told from a date the rule does not fall on).
            let skipped: String?
            let nextDate: String?
            let active: Bool
            let paused: Bool
            /// Paused, and nothing stops it going on.
            let canResume: Bool
            let ended: Bool
            let canChange: Bool
            /// End was pressed: asked once more beside it (found by a new user: one tap, next to
            /// Skip, ended it for good).
            var confirmEnd = false
            /// Why the action just tried on it was refused, said beside it.
            var error: String? = nil
        }
        /// A series with several dates waiting: all of them dismissed at once (found by a new user:
        /// a first date years back left 400, dismissed one by one).
        struct Waiting: Sendable {
            let seriesID: String
            let text: String
            let count: Int
        }
        let groupID: String
        let pending: [Pending]
        let hasPending: Bool
        let waiting: [Waiting]
        let canConfirm: Bool
        let series: [Series]
        let canAdd: Bool
    }

    func recurringPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await recurringPage(groupID: try context.parameters.require("groupId"))
    }

    /// `refused`: a series whose action was refused, and why (said beside it, with the status).
    private func recurringPage(
        groupID: String, refused: (id: UUID, message: String, status: HTTPResponse.Status)? = nil, confirmEnd: UUID? = nil
    ) async throws -> Response {
        let scope = try await scope(groupID)
        let id = try APIHandler.id(groupID, "group")
        let caller = try caller()
        async let pendingList = recurringUseCases.pending(groupID: id, caller: caller)
        async let seriesList = recurringUseCases.list(groupID: id, caller: caller)
        async let countList = recurringUseCases.waitingCounts(groupID: id, caller: caller)
        let (pending, series, counts) = try await (pendingList, seriesList, countList)
        func money(_ amount: String, _ currency: String) -> String { WebFormat.grouped(amount) + " " + currency }
        // Skipped dates still to come (a past one is kept until the series changes; found by review).
        let today = today(in: scope)
        let body = RecurringBody(
            groupID: groupID,
            pending: pending.map { item in
                .init(
                    id: item.pending.id.text,
                    text: "\(item.draft.description) · \(money(item.draft.amount, item.draft.currency))",
                    date: item.pending.date,
                    note: item.gone.isEmpty
                        ? nil
                        : WebFormat.listed(item.gone) + (item.gone.count == 1 ? " is" : " are")
                            + " no longer in the group: change it to leave them out, then confirm.")
            }, hasPending: !pending.isEmpty,
            // Counted in full (the queue shown stops at 500).
            waiting: series.compactMap { view in
                guard let count = counts[view.series.id], count > 1 else { return nil }
                return .init(seriesID: view.series.id.text, text: view.draft.description, count: count)
            }.sorted { $0.text < $1.text },
            canConfirm: scope.may(.addExpense),
            series: series.map { view in
                let series = view.series
                var row = RecurringBody.Series(
                    id: series.id.text, version: String(series.version),
                    text: "\(view.draft.description) · \(money(view.draft.amount, view.draft.currency))",
                    rule: Self.ruleText(series.recurrence) + (series.mode == .confirm ? ", confirmed one by one" : ""),
                    // What stops it now, if anything, over the note it was paused with.
                    state: series.state.rawValue, note: view.reason,
                    upcoming: view.upcoming.isEmpty ? nil : view.upcoming.joined(separator: ", "),
                    skipped: series.state == .ended || !series.skipped.contains(where: { $0 >= today })
                        ? nil : series.skipped.filter { $0 >= today }.joined(separator: ", "),
                    nextDate: view.upcoming.first, active: series.state == .active, paused: series.state == .paused,
                    canResume: series.state == .paused && view.blocked == nil, ended: series.state == .ended,
                    canChange: scope.may(.editExpense(isOwn: series.createdByUserID.text == scope.me?.userId)))
                if refused?.id == series.id { row.error = refused?.message }
                row.confirmEnd = confirmEnd == series.id && row.canChange && !row.ended
                return row
            }, canAdd: scope.may(.addExpense))
        return try await render(
            "recurring", title: "Recurring · \(scope.group.name)", body: body, nav: scope.nav("recurring"),
            status: refused?.status)
    }

    /// "Every 2 weeks on Mon, Thu from 2026-06-01, 10 times".
    static func ruleText(_ rule: Recurrence) -> String {
        let units = ["day": "day", "week": "week", "month": "month", "year": "year"]
        let unit = units[rule.unit.rawValue] ?? rule.unit.rawValue
        var text = rule.interval == 1 ? "Every \(unit)" : "Every \(rule.interval) \(unit)s"
        if rule.unit == .week {
            let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            text += " on " + rule.weekdays.sorted().map { names[$0 - 1] }.joined(separator: ", ")
        }
        if (rule.unit == .month || rule.unit == .year) && rule.start.day > 28 {
            text += rule.monthEnd == .clamp ? " (a shorter month's last day)" : " (not in shorter months)"
        }
        text += " from \(rule.start)"
        if let end = rule.end { text += " to \(end)" }
        if let count = rule.count { text += ", \(count) times" }
        return text
    }

    // MARK: The series form

    func newRecurringPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scope = try await scope(try context.parameters.require("groupId"))
        try scope.require(.addExpense)
        let form = ExpenseForm(newIn: scope.group, members: scope.activeMembers, today: today(in: scope))
        return try await renderExpenseForm(
            form, scope: scope, clientID: UUID.random().uuidString, version: "", preview: nil, errors: [:],
            target: seriesTarget(scope, form: nil, rule: nil, mode: nil, seriesID: nil))
    }

    func seriesTarget(
        _ scope: GroupScope, form: WebForm?, rule: EnteredRecurrence?, mode: String?, seriesID: String?
    ) -> ExpenseFormTarget {
        ExpenseFormTarget(
            heading: seriesID == nil ? "Add a recurring expense" : "Change a recurring expense",
            action: seriesID.map { "/recurring/\($0)/edit" } ?? "/groups/\(scope.group.id)/recurring",
            cancelURL: "/groups/\(scope.group.id)/recurring",
            submitLabel: seriesID == nil ? "Save" : "Save changes", tab: "recurring",
            recurrence: RecurrenceFields(form: form, rule: rule, mode: mode, editing: seriesID != nil))
    }

    func createRecurring(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        let draft = form.draft(
            members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency)
        let clientID = UUID(uuidString: web.form["_id"] ?? "") ?? UUID.random()
        let target = seriesTarget(scope, form: web.form, rule: nil, mode: nil, seriesID: nil)
        do {
            if web.form["intent"] == "preview" {
                let preview = try await expenses.preview(
                    draft, id: clientID, groupID: try APIHandler.id(groupID, "group"), caller: try caller())
                return try await renderExpenseForm(
                    form, scope: scope, clientID: clientID.uuidString, version: "", preview: preview, errors: [:],
                    target: target)
            }
            try form.refuseMinusWithoutRefund()
            // The form's id is also the idempotency key: a double click makes one series.
            let rule = RecurrenceFields.rule(web.form, start: form.expenseDate)
            let outcome = try await recurringUseCases.create(
                draft, rule: rule, mode: web.form["seriesMode"], groupID: try APIHandler.id(groupID, "group"),
                caller: try caller(), origin: try origin(),
                idempotency: UUID(uuidString: web.form["_id"] ?? "").map { id in
                    IdempotencyRequest(
                        key: "web-series-\(id.uuidString.lowercased())",
                        requestHash: IdempotencyRequest.hash(
                            Data("web series \(groupID) \(draft) \(rule) \(web.form["seriesMode"] ?? "")".utf8)))
                },
                render: { view in StoredResponse(status: 303, body: Data(view.series.id.text.utf8)) })
            if case .keyReused = outcome { throw AppError.idempotencyKeyReused }
            // A start in the past makes its dates up to today at once: said so (found by review:
            // two months of rent were added under "added on their dates").
            let past = rule.startDate < MoneyInput.today(api.now(), in: scope.group.timeZone)
            let done = (web.form["seriesMode"] == "confirm" ? "series-saved-confirm" : "series-saved") + (past ? "-past" : "")
            return Self.redirect("/groups/\(groupID)/recurring", done: done)
        } catch {
            return try await renderExpenseForm(
                form, scope: scope, clientID: clientID.uuidString, version: "", preview: nil,
                errors: try Self.seriesErrors(error), target: target)
        }
    }

    /// The use case's `rule.*` and `mode` refusals are said by the "Repeats" part; a refused
    /// start as the date's.
    static func seriesErrors(_ error: any Error) throws -> [String: String] {
        var errors = try formErrors(error, shown: ExpenseForm.fieldsWithErrors.union(["rule", "mode"]))
        if let mode = errors.removeValue(forKey: "mode") { errors["rule", default: ""] += (errors["rule"] == nil ? "" : " ") + mode }
        if let rule = errors["rule"], rule.contains("Pick a date") || rule.contains("year-month-day") {
            errors["expenseDate"] = rule
            errors["rule"] = nil
        }
        return errors
    }

    func editSeriesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let view = try await recurringUseCases.series(
            try APIHandler.id(try context.parameters.require("recurringId"), "recurring expense"), caller: try caller())
        let scope = try await scope(view.series.groupID.text)
        guard scope.may(.editExpense(isOwn: view.series.createdByUserID.text == scope.me?.userId)) else {
            throw APIError.forbidden()
        }
        let rule = view.series.recurrence
        return try await renderExpenseForm(
            ExpenseForm(entered: view.draft), scope: scope, clientID: UUID.random().uuidString,
            version: String(view.series.version), preview: nil, errors: [:],
            target: seriesTarget(
                scope, form: nil,
                rule: EnteredRecurrence(
                    every: rule.unit.rawValue, interval: rule.interval, weekdays: rule.weekdays.sorted(),
                    monthEnd: rule.monthEnd.rawValue, startDate: rule.start.description, endDate: rule.end?.description,
                    count: rule.count), mode: view.series.mode.rawValue, seriesID: view.series.id.text))
    }

    func updateSeries(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("recurringId"), "recurring expense")
        let view = try await recurringUseCases.series(id, caller: try caller())
        let scope = try await scope(view.series.groupID.text)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        let draft = form.draft(
            members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency)
        let target = seriesTarget(scope, form: web.form, rule: nil, mode: nil, seriesID: id.text)
        let version = web.form["version"] ?? ""
        do {
            if web.form["intent"] == "preview" {
                let preview = try await expenses.preview(
                    draft, id: UUID.random(), groupID: view.series.groupID, caller: try caller())
                return try await renderExpenseForm(
                    form, scope: scope, clientID: UUID.random().uuidString, version: version, preview: preview, errors: [:],
                    target: target)
            }
            try form.refuseMinusWithoutRefund()
            // The rule changes only when it says something else than before: a new start date
            // moves it, the same one keeps the dates already skipped. The date field shows the
            // next date; left as it is, the rule keeps its own start, so that a count stays the
            // count of every occurrence and a month-end day stays the one it was started on.
            let old = view.series.recurrence
            let start = form.expenseDate == view.series.nextDate ? old.start.description : form.expenseDate
            let rule = RecurrenceFields.rule(web.form, start: start)
            let same =
                rule.every == old.unit.rawValue && (rule.interval ?? 1) == old.interval
                && (old.unit != .week || Set(rule.weekdays ?? []).isEmpty || Set(rule.weekdays ?? []) == old.weekdays)
                && (rule.monthEnd ?? "clamp") == old.monthEnd.rawValue && rule.endDate == old.end?.description
                && rule.count == old.count && (rule.startDate == view.series.nextDate || rule.startDate == old.start.description)
            let saved = try await recurringUseCases.update(
                id, SeriesPatch(expense: draft, rule: same ? nil : rule, mode: web.form["seriesMode"]),
                basedOn: { Int64(version) }, caller: try caller(), origin: try origin())
            // A paused one stays paused: said so, not "added on their dates".
            return Self.redirect(
                "/groups/\(scope.group.id)/recurring",
                done: saved.series.state == .paused
                    ? "series-saved-paused" : web.form["seriesMode"] == "confirm" ? "series-saved-confirm" : "series-saved")
        } catch {
            return try await renderExpenseForm(
                form, scope: scope, clientID: UUID.random().uuidString, version: version, preview: nil,
                errors: try Self.seriesErrors(error), target: target)
        }
    }

    /// Pause, resume, skip the next date, end: one POST with an `action`.
    func seriesAction(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("recurringId"), "recurring expense")
        let form = try WebRequest.get().form
        let view = try await recurringUseCases.series(id, caller: try caller())
        let groupID = view.series.groupID.text
        // The version the page showed: a change since is a stale-version refusal, not overwritten.
        let version = { Int64(form["version"] ?? "") }
        let patch: SeriesPatch
        let done: String
        switch form["action"] {
        case "pause": (patch, done) = (SeriesPatch(state: "paused"), "series-paused")
        case "resume": (patch, done) = (SeriesPatch(state: "active"), "series-resumed")
        case "end":
            // Asked first where it can be done; anything else goes on to the refusal that says why.
            let scope = try await scope(groupID)
            let mayEnd =
                view.series.state != .ended
                && scope.may(.editExpense(isOwn: view.series.createdByUserID.text == scope.me?.userId))
            if form["confirm"] != "1", mayEnd { return try await recurringPage(groupID: groupID, confirmEnd: id) }
            (patch, done) = (SeriesPatch(state: "ended"), "series-ended")
        case "skip": (patch, done) = (SeriesPatch(skip: [form["date"] ?? ""]), "series-skipped")
        default: throw APIError.badRequest("Unknown action.")
        }
        do {
            _ = try await recurringUseCases.update(id, patch, basedOn: version, caller: try caller(), origin: try origin())
        } catch {
            // Refused (changed meanwhile, cannot go on, not for this member): the page again, as
            // it is now, saying why beside the series (found by a new user: a page of its own
            // whose only link led to the group list).
            let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
            guard [403, 409, 412, 422].contains(apiError.status.code) else { throw error }
            let message =
                apiError.status.code == 409 || apiError.status.code == 412
                ? "It changed meanwhile; here it is as it is now." : Self.sentence(apiError.message)
            return try await recurringPage(groupID: groupID, refused: (id, message, apiError.status))
        }
        return Self.redirect("/groups/\(groupID)/recurring", done: done)
    }

    // MARK: The pending queue

    func confirmPendingAction(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("pendingId"), "pending expense")
        do {
            let view = try await recurringUseCases.confirm(id, edited: nil, caller: try caller(), origin: try origin())
            return Self.redirect("/groups/\(view.expense.groupID.text)/recurring", done: "pending-confirmed")
        } catch let error as AppError {
            // It cannot go in as it is (one it names left the group since): its form, saying why,
            // where it can be changed (found by a new user: a page whose only link led away).
            guard case .invalid = error, let item = try await pendingItem(id) else { throw error }
            let scope = try await scope(item.pending.groupID.text)
            return try await renderExpenseForm(
                ExpenseForm(entered: item.draft), scope: scope, clientID: id.text, version: "", preview: nil,
                errors: try Self.formErrors(error, shown: ExpenseForm.fieldsWithErrors),
                target: pendingTarget(scope, id: id.text))
        }
    }

    func dismissWaitingAction(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("recurringId"), "recurring expense")
        let view = try await recurringUseCases.series(id, caller: try caller())
        _ = try await recurringUseCases.dismissWaiting(id, caller: try caller(), origin: try origin())
        return Self.redirect("/groups/\(view.series.groupID.text)/recurring", done: "pending-dismissed")
    }

    func dismissPendingAction(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("pendingId"), "pending expense")
        guard let item = try await pendingItem(id) else { throw APIError.notFound("pending expense") }
        try await recurringUseCases.dismiss(id, caller: try caller(), origin: try origin())
        return Self.redirect("/groups/\(item.pending.groupID.text)/recurring", done: "pending-dismissed")
    }

    /// The queue's item by id, as the caller may see it (nil when not in their groups' queues).
    func pendingItem(_ id: UUID) async throws -> PendingView? {
        try await recurringUseCases.pendingItem(id, caller: try caller())
    }

    func editPendingPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("pendingId"), "pending expense")
        guard let item = try await pendingItem(id) else { throw APIError.notFound("pending expense") }
        let scope = try await scope(item.pending.groupID.text)
        try scope.require(.addExpense)
        return try await renderExpenseForm(
            ExpenseForm(entered: item.draft), scope: scope, clientID: id.text, version: "", preview: nil, errors: [:],
            target: pendingTarget(scope, id: id.text))
    }

    func pendingTarget(_ scope: GroupScope, id: String) -> ExpenseFormTarget {
        ExpenseFormTarget(
            heading: "Confirm a recurring expense", action: "/pending/\(id)/edit",
            cancelURL: "/groups/\(scope.group.id)/recurring", submitLabel: "Confirm", tab: "recurring",
            recurrence: nil, freesRemoved: true)
    }

    func confirmEditedPending(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try APIHandler.id(try context.parameters.require("pendingId"), "pending expense")
        guard let item = try await pendingItem(id) else { throw APIError.notFound("pending expense") }
        let scope = try await scope(item.pending.groupID.text)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        let draft = form.draft(
            members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency)
        do {
            if web.form["intent"] == "preview" {
                let preview = try await expenses.preview(draft, id: id, groupID: item.pending.groupID, caller: try caller())
                return try await renderExpenseForm(
                    form, scope: scope, clientID: id.text, version: "", preview: preview, errors: [:],
                    target: pendingTarget(scope, id: id.text))
            }
            try form.refuseMinusWithoutRefund()
            let view = try await recurringUseCases.confirm(id, edited: draft, caller: try caller(), origin: try origin())
            return Self.redirect("/expenses/\(view.expense.id.text)", done: "pending-confirmed")
        } catch {
            return try await renderExpenseForm(
                form, scope: scope, clientID: id.text, version: "", preview: nil,
                errors: try Self.formErrors(error, shown: ExpenseForm.fieldsWithErrors),
                target: pendingTarget(scope, id: id.text))
        }
    }
}
