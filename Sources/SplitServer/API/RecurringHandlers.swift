import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Recurring expenses and the pending queue (issue 20).
extension APIHandler {
    func listRecurring(_ input: Operations.ListRecurring.Input) async throws -> Operations.ListRecurring.Output {
        let views = try await recurringUseCases.list(
            groupID: try Self.id(input.path.groupId, "group"), caller: try await authenticate())
        return .ok(.init(body: .json(.init(recurring: try views.map(Components.Schemas.RecurringExpense.init)))))
    }

    func createRecurring(_ input: Operations.CreateRecurring.Input) async throws -> Operations.CreateRecurring.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let groupID = try Self.id(input.path.groupId, "group")
        let idempotency = try Self.idempotency(
            input.headers.idempotencyKey, route: "POST /api/groups/\(groupID.text)/recurring", body: body)
        let outcome = try await recurringUseCases.create(
            EnteredExpense(wire: body.expense), rule: EnteredRecurrence(wire: body.rule), mode: body.mode?.rawValue,
            groupID: groupID, caller: caller, origin: try request.origin, idempotency: idempotency,
            render: { view in
                StoredResponse(
                    status: 201, body: try WireJSON.encode(Components.Schemas.RecurringResponse(recurring: try .init(view))))
            })
        return .created(.init(body: .json(try Self.response(outcome, as: Components.Schemas.RecurringResponse.self))))
    }

    func getRecurring(_ input: Operations.GetRecurring.Input) async throws -> Operations.GetRecurring.Output {
        let view = try await recurringUseCases.series(
            try Self.id(input.path.recurringId, "recurring expense"), caller: try await authenticate())
        return .ok(.init(body: .json(.init(recurring: try .init(view)))))
    }

    func updateRecurring(_ input: Operations.UpdateRecurring.Input) async throws -> Operations.UpdateRecurring.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let view = try await recurringUseCases.update(
            try Self.id(input.path.recurringId, "recurring expense"),
            SeriesPatch(
                expense: body.expense.map(EnteredExpense.init(wire:)), rule: body.rule.map(EnteredRecurrence.init(wire:)),
                mode: body.mode?.rawValue, state: body.state?.rawValue, skip: body.skip),
            basedOn: { try body.version ?? Self.version(input.headers.ifMatch) }, caller: caller,
            origin: try request.origin)
        return .ok(.init(body: .json(.init(recurring: try .init(view)))))
    }

    func endRecurring(_ input: Operations.EndRecurring.Input) async throws -> Operations.EndRecurring.Output {
        let caller = try await authenticate()
        let view = try await recurringUseCases.end(
            try Self.id(input.path.recurringId, "recurring expense"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(recurring: try .init(view)))))
    }

    func listPending(_ input: Operations.ListPending.Input) async throws -> Operations.ListPending.Output {
        let items = try await recurringUseCases.pending(
            groupID: try Self.id(input.path.groupId, "group"), caller: try await authenticate())
        return .ok(
            .init(
                body: .json(
                    .init(
                        pending: items.map { item in
                            .init(
                                id: item.pending.id.text, groupId: item.pending.groupID.text,
                                recurringId: item.pending.seriesID.text, date: item.pending.date,
                                expense: .init(item.draft), categoryName: item.categoryName,
                                createdAt: Date(milliseconds: item.pending.createdAt))
                        }))))
    }

    func confirmPending(_ input: Operations.ConfirmPending.Input) async throws -> Operations.ConfirmPending.Output {
        let caller = try await authenticate()
        var edited: EnteredExpense?
        if case .json(let body)? = input.body, let expense = body.expense { edited = EnteredExpense(wire: expense) }
        let id = try Self.id(input.path.pendingId, "pending expense")
        let view = try await recurringUseCases.confirm(id, edited: edited, caller: caller, origin: try request.origin)
        return .created(.init(body: .json(.init(expense: try .init(view)))))
    }

    func dismissWaiting(_ input: Operations.DismissWaiting.Input) async throws -> Operations.DismissWaiting.Output {
        let caller = try await authenticate()
        let dismissed = try await recurringUseCases.dismissWaiting(
            try Self.id(input.path.recurringId, "recurring expense"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(dismissed: dismissed))))
    }

    func dismissPending(_ input: Operations.DismissPending.Input) async throws -> Operations.DismissPending.Output {
        let caller = try await authenticate()
        try await recurringUseCases.dismiss(
            try Self.id(input.path.pendingId, "pending expense"), caller: caller, origin: try request.origin)
        return .noContent(.init())
    }
}

extension EnteredRecurrence {
    init(wire rule: Components.Schemas.RecurrenceRule) {
        self.init(
            every: rule.every.rawValue, interval: rule.interval, weekdays: rule.weekdays,
            monthEnd: rule.monthEnd?.rawValue, startDate: rule.startDate, endDate: rule.endDate, count: rule.count)
    }
}

extension Components.Schemas.RecurrenceRule {
    init(_ rule: Recurrence) {
        self.init(
            every: .init(rawValue: rule.unit.rawValue) ?? .month, interval: rule.interval,
            weekdays: rule.unit == .week ? rule.weekdays.sorted() : nil, monthEnd: .init(rawValue: rule.monthEnd.rawValue),
            startDate: rule.start.description, endDate: rule.end?.description, count: rule.count)
    }
}

extension Components.Schemas.RecurringExpense {
    init(_ view: SeriesView) throws {
        let series = view.series
        self.init(
            id: series.id.text, groupId: series.groupID.text, expense: .init(view.draft),
            categoryName: view.categoryName, rule: .init(series.recurrence),
            mode: .init(rawValue: series.mode.rawValue) ?? .auto, state: .init(rawValue: series.state.rawValue) ?? .paused,
            note: view.reason, nextDate: series.nextDate, upcoming: view.upcoming, skipped: series.skipped,
            createdByUserId: series.createdByUserID.text, version: series.version,
            createdAt: Date(milliseconds: series.createdAt), updatedAt: Date(milliseconds: series.updatedAt))
    }
}
