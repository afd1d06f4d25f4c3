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
        let idempotency = try input.headers.idempotencyKey.map { key in
            IdempotencyRequest(
                key: key,
                requestHash: try Self.requestHash(route: "POST /api/groups/\(groupID.text)/settlements", body: body))
        }
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
        let (currency, transfers) = try await ledgerUseCases.plan(
            groupID: try Self.id(input.path.groupId, "group"), currency: input.query.currency, caller: caller)
        return .ok(
            .init(
                body: .json(
                    .init(
                        currency: currency.code,
                        transfers: transfers.map { Components.Schemas.PlannedTransfer($0, currency: currency) }))))
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

    func putRates(_ input: Operations.PutRates.Input) async throws -> Operations.PutRates.Output {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else {
            // The caller's right first, as before: a stranger learns nothing from a bad body.
            _ = try await access(input.path.groupId, as: caller, for: .updateGroup)
            throw APIError.badRequest("Send a JSON body.")
        }
        let rates = try await ledgerUseCases.putRates(
            body.rates.map {
                EnteredRate(fromCurrency: $0.fromCurrency, toCurrency: $0.toCurrency, date: $0.date, rate: $0.rate)
            }, groupID: groupID, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(rates: rates.map(Components.Schemas.Rate.init)))))
    }

    // MARK: - Activity and changes

    func listActivity(_ input: Operations.ListActivity.Input) async throws -> Operations.ListActivity.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let limit = min(max(input.query.limit ?? 50, 1), 200)
        var before: (Int64, UUID)?
        if let cursor = input.query.cursor {
            let parts = cursor.split(separator: "_")
            guard parts.count == 2, let seq = Int64(parts[0]), let id = UUID(uuidString: String(parts[1])) else {
                throw APIError.invalid(field: "cursor", "cursor is not one this server gave out.")
            }
            before = (seq, id)
        }
        let entries = try await log.activity(groupID: group.id, before: before, limit: limit)
        let next = entries.count == limit ? entries.last.map { "\($0.seq)_\($0.id.text)" } : nil
        return .ok(
            .init(
                body: .json(
                    .init(
                        activity: entries.map {
                            .init(
                                id: $0.id.text, action: $0.action, actorUserId: $0.actorUserID?.text,
                                actorName: $0.actorName,
                                entity: $0.entity.rawValue, entityId: $0.entityID.text,
                                summary: ActivityText.sentence($0),
                                at: Date(milliseconds: $0.at))
                        }, nextCursor: next))))
    }

    func listChanges(_ input: Operations.ListChanges.Input) async throws -> Operations.ListChanges.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .read)
        let since: Int64
        if let text = input.query.since, !text.isEmpty {
            guard let value = Int64(text), value >= 0 else {
                throw APIError.invalid(field: "since", "since is a cursor this server gave out.")
            }
            since = value
        } else {
            since = 0
        }
        // A page of 5,000 cost the server about 45 MB while it was answered; 50 clients syncing at
        // once then held 330 MB. Pages of 1,000 keep that under the 150 MB of DESIGN §9.
        let limit = min(max(input.query.limit ?? 1_000, 1), 1_000)
        let (changes, hasMore) = try await log.changes(groupID: group.id, since: since, limit: limit)
        func ids(_ entity: ChangeEntity, deleted: Bool) -> [UUID] {
            changes.filter { $0.entity == entity && $0.isDeleted == deleted }.map(\.entityID)
        }
        let categoryNames = try await categoryNames(group.id)
        // In id order; each id formatted once, not in every comparison (that was a fifth of a page's time).
        let changedExpenses = try await expenses.expenses(ids: ids(.expense, deleted: false)).values
            .map { ($0.id.text, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        let changedSettlements = try await settlements.settlements(ids: ids(.settlement, deleted: false))
        let memberIDs = Set(ids(.member, deleted: false))
        let changedMembers = try await groups.members(groupID: group.id).filter { memberIDs.contains($0.id) }
        let changedCategories = try await categories.categories(ids: ids(.category, deleted: false))
        let groupChanged = changes.contains { $0.entity == .group }
        var tombstones: [Components.Schemas.Tombstone] = []
        for change in changes where change.isDeleted {
            switch change.entity {
            case .expense: tombstones.append(.init(entity: .expense, id: change.entityID.text))
            case .settlement: tombstones.append(.init(entity: .settlement, id: change.entityID.text))
            case .category: tombstones.append(.init(entity: .category, id: change.entityID.text))
            case .member: tombstones.append(.init(entity: .member, id: change.entityID.text))
            case .group: break
            }
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        cursor: String(changes.last?.seq ?? since), hasMore: hasMore,
                        group: groupChanged ? .init(group, me: me) : nil,
                        expenses: try changedExpenses.map {
                            try .init($0, categories: categoryNames, homeCurrency: group.homeCurrency)
                        },
                        settlements: changedSettlements.map(Components.Schemas.Settlement.init),
                        members: changedMembers.map(Components.Schemas.Member.init),
                        categories: changedCategories.map(Components.Schemas.Category.init), deleted: tombstones))))
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
            }, missingRates: view.missing.map(\.code))
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
    init(_ rate: RateRecord) {
        self.init(fromCurrency: rate.from, toCurrency: rate.to, date: rate.date, rate: rate.rate)
    }
}

extension Components.Schemas.Category {
    init(_ category: CategoryRecord) {
        self.init(
            id: category.id.text, name: category.name, icon: category.icon, color: category.color,
            isDefault: category.isDefault, position: Int(category.position), version: category.version)
    }
}
