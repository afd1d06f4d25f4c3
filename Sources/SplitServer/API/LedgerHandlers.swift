import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The ledger operations of the API: wire in, one `LedgerUseCases` call, wire out (STYLE §8).
extension APIHandler {
    // MARK: - Settlements

    func createSettlement(_ input: Operations.CreateSettlement.Input) async throws -> Operations.CreateSettlement.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let groupID = try Self.id(input.path.groupId, "group")
        let idempotency = try Self.idempotency(
            input.headers.idempotencyKey, route: "POST /api/groups/\(groupID.text)/settlements", body: body)
        let outcome = try await ledgerUseCases.recordSettlement(
            EnteredSettlement(wire: body), groupID: groupID, caller: caller, origin: try request.origin,
            idempotency: idempotency,
            render: { stored in
                StoredResponse(
                    status: 201,
                    body: try WireJSON.encode(Components.Schemas.SettlementResponse(settlement: .init(stored))))
            })
        return .created(.init(body: .json(try Self.response(outcome, as: Components.Schemas.SettlementResponse.self))))
    }

    func listSettlements(_ input: Operations.ListSettlements.Input) async throws -> Operations.ListSettlements.Output {
        let caller = try await authenticate()
        let list = try await ledgerUseCases.settlements(
            groupID: try Self.id(input.path.groupId, "group"), includeDeleted: input.query.includeDeleted ?? false,
            caller: caller)
        return .ok(.init(body: .json(.init(settlements: list.map(Components.Schemas.Settlement.init)))))
    }

    func deleteSettlement(_ input: Operations.DeleteSettlement.Input) async throws -> Operations.DeleteSettlement.Output
    {
        let caller = try await authenticate()
        let deleted = try await ledgerUseCases.deleteSettlement(
            try Self.id(input.path.settlementId, "settlement"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(settlement: .init(deleted)))))
    }

    // MARK: - Balances, plan, debts

    func getBalances(_ input: Operations.GetBalances.Input) async throws -> Operations.GetBalances.Output {
        let caller = try await authenticate()
        let view = try await ledgerUseCases.balances(groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(view))))
    }

    func getSettlementPlan(_ input: Operations.GetSettlementPlan.Input) async throws
        -> Operations.GetSettlementPlan.Output
    {
        let caller = try await authenticate()
        if input.query._in == .home {
            let plan = try await ledgerUseCases.homePlan(
                groupID: try Self.id(input.path.groupId, "group"), caller: caller)
            return .ok(
                .init(
                    body: .json(
                        .init(
                            currency: plan.currency.code,
                            transfers: try await withPayOptions(
                                plan.transfers, currency: plan.currency, groupID: try Self.id(input.path.groupId, "group")),
                            // The rates the plan read: each counts, by definition.
                            rates: plan.rates.map { .init($0, counts: true) },
                            homeChargedExpenses: plan.chargedCount))))
        }
        let (currency, transfers) = try await ledgerUseCases.plan(
            groupID: try Self.id(input.path.groupId, "group"), currency: input.query.currency, caller: caller)
        return .ok(
            .init(
                body: .json(
                    .init(
                        currency: currency.code,
                        transfers: try await withPayOptions(
                            transfers, currency: currency, groupID: try Self.id(input.path.groupId, "group"))))))
    }

    /// The plan's transfers with how each receiver likes to be paid (issue 19), for the members
    /// who asked (the plan is theirs only).
    func withPayOptions(_ transfers: [PlannedTransfer], currency: Currency, groupID: UUID) async throws
        -> [Components.Schemas.PlannedTransfer]
    {
        var methods: [UUID: [PayMethod]] = [:]
        var result: [Components.Schemas.PlannedTransfer] = []
        for transfer in transfers {
            var wire = Components.Schemas.PlannedTransfer(transfer, currency: currency)
            if methods[transfer.to.uuid] == nil {
                methods[transfer.to.uuid] = try await payDetailsUseCases.methods(ofMember: transfer.to.uuid, in: groupID)
            }
            let options = PayDetails.options(
                methods[transfer.to.uuid] ?? [], amount: transfer.amount, currency: currency, reference: "Settle up")
            wire.payTo = options.isEmpty ? nil : options.map(Components.Schemas.PayOption.init)
            result.append(wire)
        }
        return result
    }

    func getPairwiseDebts(_ input: Operations.GetPairwiseDebts.Input) async throws -> Operations.GetPairwiseDebts.Output
    {
        let caller = try await authenticate()
        let debts = try await ledgerUseCases.pairwiseDebts(
            groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        let list = debts.currencies.flatMap { currency in
            debts.debts(in: currency).map { Components.Schemas.PlannedTransfer($0, currency: currency) }
        }
        return .ok(.init(body: .json(.init(debts: list))))
    }

    // MARK: - Rates

    func listRates(_ input: Operations.ListRates.Input) async throws -> Operations.ListRates.Output {
        let caller = try await authenticate()
        let rates = try await ledgerUseCases.rates(groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(rates: rates.map(Components.Schemas.Rate.init)))))
    }

    func deleteRate(_ input: Operations.DeleteRate.Input) async throws -> Operations.DeleteRate.Output {
        let caller = try await authenticate()
        let rates = try await ledgerUseCases.deleteRate(
            from: input.query.fromCurrency, to: input.query.toCurrency, date: input.query.date,
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(rates: rates.map(Components.Schemas.Rate.init)))))
    }

    func putRates(_ input: Operations.PutRates.Input) async throws -> Operations.PutRates.Output {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let rates = try await ledgerUseCases.putRates(
            body.rates.map {
                EnteredRate(fromCurrency: $0.fromCurrency, toCurrency: $0.toCurrency, date: $0.date, rate: $0.rate)
            }, groupID: groupID, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(rates: rates.map(Components.Schemas.Rate.init)))))
    }

    // MARK: - Activity and changes

    func listActivity(_ input: Operations.ListActivity.Input) async throws -> Operations.ListActivity.Output {
        let caller = try await authenticate()
        let (entries, next) = try await feedUseCases.activity(
            groupID: try Self.id(input.path.groupId, "group"), limit: input.query.limit, cursor: input.query.cursor,
            caller: caller)
        return .ok(
            .init(body: .json(.init(activity: entries.map(Components.Schemas.ActivityEntry.init), nextCursor: next))))
    }

    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        .ok(
            .init(
                body: .json(
                    try await changes(groupID: input.path.groupId, since: input.query.since, limit: input.query.limit))))
    }

    /// A page of the change feed as the API gives it (`listChanges`, `PlainRoutes`).
    func changes(groupID: String, since: String?, limit: Int?) async throws -> Components.Schemas.ChangesResponse {
        let caller = try await authenticate()
        return try .init(
            try await feedUseCases.changes(
                groupID: try Self.id(groupID, "group"), since: since, limit: limit, caller: caller))
    }
}

extension Components.Schemas.ChangesResponse {
    init(_ page: ChangePage) throws {
        self.init(page, expenses: try page.expenses.map { try .init($0) })
    }

    /// The page with `expenses` for its expenses (`ExpenseJSON` writes them itself).
    init(_ page: ChangePage, expenses: [Components.Schemas.Expense]) {
        self.init(
            cursor: String(page.cursor), hasMore: page.hasMore,
            group: page.group.map { .init($0.group, me: $0.me) },
            expenses: expenses,
            settlements: page.settlements.map(Components.Schemas.Settlement.init),
            members: page.members.map(Components.Schemas.Member.init),
            categories: page.categories.map(Components.Schemas.Category.init),
            deleted: page.deleted.compactMap { deleted in
                let entity: Components.Schemas.Tombstone.EntityPayload? =
                    switch deleted.entity {
                    case .expense: .expense
                    case .settlement: .settlement
                    case .category: .category
                    case .member: .member
                    case .group: nil
                    }
                return entity.map { .init(entity: $0, id: deleted.id.text) }
            })
    }
}

extension Components.Schemas.ActivityEntry {
    /// An activity line in words (`ActivityText`), with its kind and ids as data.
    init(_ entry: ActivityRecord) {
        self.init(
            id: entry.id.text, action: entry.action, actorUserId: entry.actorUserID?.text, actorName: entry.actorName,
            entity: entry.entity.rawValue, entityId: entry.entityID.text, summary: ActivityText.sentence(entry),
            at: Date(milliseconds: entry.at))
    }
}

extension EnteredSettlement {
    init(wire body: Components.Schemas.CreateSettlementRequest) {
        self.init(
            id: body.id, fromMemberId: body.fromMemberId, toMemberId: body.toMemberId, amount: body.amount,
            currency: body.currency, date: body.date, note: body.note)
    }
}

extension Components.Schemas.PlannedTransfer {
    init(_ transfer: PlannedTransfer, currency: Currency) {
        self.init(
            fromMemberId: transfer.from.description, toMemberId: transfer.to.description,
            amount: MoneyInput.text(transfer.amount, currency.code), currency: currency.code)
    }
}

extension Components.Schemas.BalancesResponse {
    init(_ view: BalancesView) {
        let home = view.home.code
        self.init(
            balances: view.nets.map {
                .init(memberId: $0.memberID.text, currency: $0.currency, net: MoneyInput.text($0.net, $0.currency))
            }, homeCurrency: home,
            home: view.homeBalances.map { balances in
                balances.sorted { $0.key.description < $1.key.description }.map {
                    .init(memberId: $0.key.description, currency: home, net: MoneyInput.text($0.value, home))
                }
            }, missingRates: view.missing.map(\.code), homeChargedExpenses: view.chargedCount,
            settleInHome: view.homePlanFirst)
    }
}

extension Components.Schemas.Settlement {
    init(_ settlement: SettlementRecord) {
        self.init(
            id: settlement.id.text, groupId: settlement.groupID.text, fromMemberId: settlement.fromMemberID.text,
            toMemberId: settlement.toMemberID.text, amount: MoneyInput.text(settlement.amount, settlement.currency),
            currency: settlement.currency, date: settlement.date, note: settlement.note,
            expenseSplitId: settlement.expenseSplitID?.text, createdByUserId: settlement.createdByUserID.text,
            isDeleted: settlement.isDeleted, version: settlement.version,
            createdAt: Date(milliseconds: settlement.createdAt))
    }
}

extension Components.Schemas.Rate {
    init(_ view: LedgerUseCases.RateView) { self.init(view.rate, counts: view.counts) }

    init(_ rate: RateRecord, counts: Bool) {
        self.init(fromCurrency: rate.from, toCurrency: rate.to, date: rate.date, rate: rate.rate, counts: counts)
    }
}

extension Components.Schemas.Category {
    init(_ category: CategoryRecord) {
        self.init(
            id: category.id.text, name: category.name, icon: category.icon, color: category.color,
            isDefault: category.isDefault, position: Int(category.position), version: category.version)
    }
}

extension Components.Schemas.PayOption {
    init(_ option: PayOption) {
        self.init(kind: option.kind, label: option.label, detail: option.detail, link: option.link, qrPayload: option.qrPayload)
    }
}
