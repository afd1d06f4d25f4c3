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
        let view = try await recurringUseCases.create(
            EnteredExpense(wire: body.expense), rule: EnteredRecurrence(wire: body.rule), mode: body.mode?.rawValue,
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .created(.init(body: .json(.init(recurring: try .init(view)))))
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

    func dismissPending(_ input: Operations.DismissPending.Input) async throws -> Operations.DismissPending.Output {
        let caller = try await authenticate()
        try await recurringUseCases.dismiss(
            try Self.id(input.path.pendingId, "pending expense"), caller: caller, origin: try request.origin)
        return .noContent(.init())
    }
}

extension EnteredExpense {
    init(wire body: Components.Schemas.ExpenseDraft) {
        self.init(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate ?? "", paidBy: body.paidBy?.map(EnteredAmount.init),
            paidByMemberId: body.paidByMemberId, split: body.split.map(EnteredSplit.init(wire:)),
            splits: body.splits?.map(EnteredAmount.init), homeAmount: body.homeAmount)
    }
}

extension Components.Schemas.ExpenseDraft {
    init(_ entered: EnteredExpense) {
        self.init(
            description: entered.description, amount: entered.amount, currency: entered.currency,
            category: entered.category, expenseDate: entered.expenseDate.isEmpty ? nil : entered.expenseDate,
            paidBy: entered.paidBy?.map(\.wire), paidByMemberId: entered.paidByMemberId, split: entered.split?.wire,
            splits: entered.splits?.map(\.wire), homeAmount: entered.homeAmount)
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
            note: series.note, nextDate: series.nextDate, upcoming: view.upcoming, skipped: series.skipped,
            createdByUserId: series.createdByUserID.text, version: series.version,
            createdAt: Date(milliseconds: series.createdAt), updatedAt: Date(milliseconds: series.updatedAt))
    }
}

/// Quick entry (issue 21).
extension APIHandler {
    func quickEntry(_ input: Operations.QuickEntry.Input) async throws -> Operations.QuickEntry.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let groupID = try Self.id(input.path.groupId, "group")
        let idempotency = try input.headers.idempotencyKey.map { key in
            IdempotencyRequest(
                key: key, requestHash: try Self.requestHash(route: "POST /api/groups/\(groupID.text)/quick-entry", body: body))
        }
        let result = try await quickEntryUseCases.read(
            body.text, dryRun: body.dryRun ?? true, groupID: groupID, caller: caller, origin: try request.origin,
            idempotency: idempotency,
            render: { view in
                StoredResponse(
                    status: 201, body: try WireJSON.encode(Components.Schemas.ExpenseResponse(expense: try .init(view))))
            })
        switch result {
        case .problems(let problems):
            return .ok(
                .init(
                    body: .json(
                        .init(problems: problems.map { .init(code: $0.code, message: $0.description) }, assumed: []))))
        case .preview(let preview):
            let currency = preview.expense.currency
            return .ok(
                .init(
                    body: .json(
                        .init(
                            problems: [],
                            assumed: preview.draft.assumed.sorted { $0.rawValue < $1.rawValue }.compactMap {
                                .init(rawValue: $0.rawValue)
                            }, expense: .init(preview.entered),
                            categoryName: preview.categoryNames[preview.expense.categoryID],
                            payers: preview.expense.payers.map {
                                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
                            },
                            splits: preview.expense.liveShares.map {
                                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
                            }))))
        case .created(.created(let view)):
            return .created(.init(body: .json(.init(expense: try .init(view)))))
        case .created(.replayed(let response)):
            return .created(
                .init(body: .json(try WireJSON.decode(Components.Schemas.ExpenseResponse.self, from: response.body))))
        }
    }
}
