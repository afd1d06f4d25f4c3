import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Budgets (issue 20): a group's and my own.
extension APIHandler {
    func getBudget(_ input: Operations.GetBudget.Input) async throws -> Operations.GetBudget.Output {
        let status = try await budgetUseCases.status(
            groupID: try Self.id(input.path.groupId, "group"), caller: try await authenticate(), month: input.query.month)
        return .ok(.init(body: .json(.init(status))))
    }

    func getSpendingByPerson(_ input: Operations.GetSpendingByPerson.Input) async throws
        -> Operations.GetSpendingByPerson.Output
    {
        let spending = try await budgetUseCases.people(
            groupID: try Self.id(input.path.groupId, "group"), caller: try await authenticate(), month: input.query.month)
        return .ok(.init(body: .json(.init(spending))))
    }

    func putBudget(_ input: Operations.PutBudget.Input) async throws -> Operations.PutBudget.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let status = try await budgetUseCases.put(
            EnteredBudget(
                period: body.period.rawValue, startDate: body.startDate, endDate: body.endDate, total: body.total,
                caps: (body.caps ?? []).map { .init(categoryId: $0.categoryId, amount: $0.amount) },
                thresholds: body.thresholds), groupID: try Self.id(input.path.groupId, "group"), caller: caller,
            origin: try request.origin)
        return .ok(.init(body: .json(.init(status))))
    }

    func deleteBudget(_ input: Operations.DeleteBudget.Input) async throws -> Operations.DeleteBudget.Output {
        let caller = try await authenticate()
        try await budgetUseCases.remove(
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .noContent(.init())
    }

    func bulkUpdateBudgetCaps(_ input: Operations.BulkUpdateBudgetCaps.Input) async throws
        -> Operations.BulkUpdateBudgetCaps.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let status = try await budgetUseCases.putCaps(
            body.caps.map { .init(categoryId: $0.categoryId, amount: $0.amount) },
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(status))))
    }

    func getMyBudget(_ input: Operations.GetMyBudget.Input) async throws -> Operations.GetMyBudget.Output {
        let status = try await budgetUseCases.personalStatus(caller: try await authenticate(), month: input.query.month)
        return .ok(.init(body: .json(.init(status))))
    }

    func putMyBudget(_ input: Operations.PutMyBudget.Input) async throws -> Operations.PutMyBudget.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let status = try await budgetUseCases.putPersonal(
            EnteredPersonalBudget(
                currency: body.currency, total: body.total,
                caps: (body.caps ?? []).map { .init(category: $0.category, amount: $0.amount) }), caller: caller)
        return .ok(.init(body: .json(.init(status))))
    }

    func deleteMyBudget(_ input: Operations.DeleteMyBudget.Input) async throws -> Operations.DeleteMyBudget.Output {
        try await budgetUseCases.removePersonal(caller: try await authenticate())
        return .noContent(.init())
    }
}

extension Components.Schemas.BudgetFigures {
    init(_ figures: BudgetFigures, currency: String) {
        let money = { (amount: Int64) in MoneyInput.text(amount, currency) }
        self.init(
            cap: figures.cap.map(money), spent: money(figures.spent), remaining: figures.remaining.map(money),
            percent: figures.percent, dailyAverage: money(figures.dailyAverage), projected: money(figures.projected))
    }
}

extension Components.Schemas.BudgetStatus {
    init(_ status: BudgetStatus) {
        let currency = status.currency
        let isMonth = status.budget?.period != .trip
        self.init(
            budget: status.budget.map { budget in
                .init(
                    period: .init(rawValue: budget.period.rawValue) ?? .month, startDate: budget.startDate,
                    endDate: budget.endDate, currency: budget.currency,
                    total: budget.total.map { MoneyInput.text($0, budget.currency) }, thresholds: budget.thresholds,
                    updatedAt: Date(milliseconds: budget.updatedAt))
            },
            currency: currency, period: isMonth ? .month : .trip,
            month: isMonth ? String(status.period.start.description.prefix(7)) : nil,
            startDate: status.period.start.description, endDate: status.period.end.description,
            today: status.today.description,
            lines: status.lines.map { line in
                .init(
                    categoryId: line.categoryID?.text, name: line.name, icon: line.icon.isEmpty ? nil : line.icon,
                    color: line.color.isEmpty ? nil : line.color, isDeleted: line.isDeleted ? true : nil,
                    figures: .init(line.figures, currency: currency))
            },
            total: .init(status.total, currency: currency), uncountedCurrencies: status.uncountedCurrencies,
            uncounted: status.uncounted.map { item in
                .init(
                    expenseId: item.expenseID.text, groupId: item.groupID.text, groupName: status.groupNames[item.groupID],
                    description: item.description, date: item.date, amount: MoneyInput.text(item.amount, item.currency),
                    currency: item.currency)
            })
    }
}

extension Components.Schemas.SpendingByPerson {
    init(_ spending: PeopleSpending) {
        let currency = spending.currency
        self.init(
            currency: currency, month: spending.period.map { String($0.start.description.prefix(7)) },
            people: spending.people.map {
                .init(
                    memberId: $0.member.uuid.text, name: spending.names[$0.member.uuid] ?? "",
                    paid: MoneyInput.text($0.paid, currency), share: MoneyInput.text($0.share, currency))
            }, total: MoneyInput.text(spending.total, currency), uncountedCurrencies: spending.uncountedCurrencies,
            byCurrency: spending.byCurrency.map {
                .init(
                    memberId: $0.memberID.text, name: spending.names[$0.memberID] ?? "", currency: $0.currency,
                    paid: MoneyInput.text($0.paid, $0.currency), share: MoneyInput.text($0.share, $0.currency))
            })
    }
}
