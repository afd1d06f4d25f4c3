import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

extension APIHandler {
    // MARK: - Settlements

    func createSettlement(_ input: Operations.CreateSettlement.Input) async throws -> Operations.CreateSettlement.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let (group, me) = try await access(input.path.groupId, as: caller, for: .read)
        let from = try MoneyInput.member(body.fromMemberId, field: "fromMemberId")
        let to = try MoneyInput.member(body.toMemberId, field: "toMemberId")
        let action = GroupAction.recordSettlement(isParty: from.uuid == me.id || to.uuid == me.id)
        _ = try await access(input.path.groupId, as: caller, for: action)
        guard from != to else { throw APIError.invalid(field: "toMemberId", "A transfer goes between two members.") }
        let active = Set(try await groups.members(groupID: group.id).filter(\.isActive).map(\.id))
        for (member, field) in [(from, "fromMemberId"), (to, "toMemberId")] where !active.contains(member.uuid) {
            throw APIError.invalid(field: field, "\(member) is not an active member of this group.")
        }
        let currency = try MoneyInput.currency(body.currency, field: "currency")
        let amount = try MoneyInput.amount(body.amount, currency, field: "amount")
        guard amount > 0 else { throw APIError.invalid(field: "amount", "A transfer is more than zero.") }
        let note = body.note?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard note.unicodeScalars.count <= 500, !AccountInput.containsControlCharacters(note, allowingLineBreaks: true)
        else { throw APIError.invalid(field: "note", "A note has at most 500 characters.") }
        let current = now()
        let settlement = SettlementRecord(
            id: try Self.clientID(body.id), groupID: group.id, fromMemberID: from.uuid, toMemberID: to.uuid,
            amount: amount,
            currency: currency.code,
            date: try body.date.map { try MoneyInput.date($0, field: "date") } ?? MoneyInput.today(current),
            note: note, createdByUserID: caller.user.id, createdAt: current, updatedAt: current)
        let claim = try idempotencyClaim(
            input.headers.idempotencyKey, caller: caller, route: "POST /api/groups/\(group.id.text)/settlements",
            body: body)
        do {
            guard
                let outcome = try await settlements.create(
                    settlement, actor: try actor(caller, me, for: action), idempotency: claim,
                    render: { stored in
                        StoredResponse(
                            status: 201,
                            body: try WireJSON.encode(Components.Schemas.SettlementResponse(settlement: .init(stored))))
                    })
            else { throw APIError.notFound("group") }
            return .created(
                .init(body: .json(try Self.response(outcome, as: Components.Schemas.SettlementResponse.self))))
        } catch SettlementStoreError.idTaken {
            throw APIError.conflict(field: "id", message: "A settlement with that id exists already.")
        } catch  where Database.isUniqueViolation(error) {
            throw APIError.conflict(field: "id", message: "A settlement with that id exists already.")
        }
    }

    func listSettlements(_ input: Operations.ListSettlements.Input) async throws -> Operations.ListSettlements.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let list = try await settlements.settlements(
            groupID: group.id, includeDeleted: input.query.includeDeleted ?? false)
        return .ok(.init(body: .json(.init(settlements: list.map(Components.Schemas.Settlement.init)))))
    }

    func deleteSettlement(_ input: Operations.DeleteSettlement.Input) async throws -> Operations.DeleteSettlement.Output
    {
        let caller = try await authenticate()
        guard let id = UUID(uuidString: input.path.settlementId),
            let settlement = try await settlements.settlement(id: id)
        else { throw APIError.notFound("settlement") }
        let (group, me) = try await access(settlement.groupID.text, as: caller, for: .read)
        let isParty = settlement.fromMemberID == me.id || settlement.toMemberID == me.id
        let action = GroupAction.recordSettlement(isParty: isParty)
        _ = try await access(group.id.text, as: caller, for: action)
        // A member takes back only what they recorded; the owner and admins any transfer.
        if me.role == .member, settlement.createdByUserID != caller.user.id {
            throw APIError.forbidden("Only who recorded a transfer, the owner or an admin can delete it.")
        }
        do {
            guard
                let deleted = try await settlements.delete(
                    id: id, groupID: group.id, actor: try actor(caller, me, for: action), now: now())
            else { throw APIError.notFound("settlement") }
            return .ok(.init(body: .json(.init(settlement: .init(deleted)))))
        } catch SettlementStoreError.linkedToShare {
            throw APIError(
                .conflict, code: "linked_to_share",
                message: "This transfer was recorded by marking a share paid; mark the share unpaid instead.")
        }
    }

    // MARK: - Balances, plan, debts

    func getBalances(_ input: Operations.GetBalances.Input) async throws -> Operations.GetBalances.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let nets = try await balances.balances(groupID: group.id)
        let home = try Currency(code: group.homeCurrency)
        let rates = try await balances.rates(groupID: group.id)
        var converted: [UUID: Int64] = [:]
        var missing: [String] = []
        for (code, entries) in Dictionary(grouping: nets, by: \.currency).sorted(by: { $0.key < $1.key }) {
            let currency = try Currency(code: code)
            let parts: [Int64]
            if currency == home {
                parts = entries.map(\.net)
            } else if let rate = Self.latestRate(from: currency, to: home, in: rates),
                // Apportioned like a split: the converted nets still sum to exactly zero.
                let apportioned = try? rate.convert(
                    entries.map(\.net), currency: currency, tieBreak: TieBreak(seed: group.id.text))
            {
                parts = apportioned
            } else {
                missing.append(code)
                continue
            }
            for (entry, part) in zip(entries, parts) {
                let (sum, overflow) = converted[entry.memberID, default: 0].addingReportingOverflow(part)
                guard !overflow else {
                    missing.append(code)
                    break
                }
                converted[entry.memberID] = sum
            }
        }
        let homeBalances: [Components.Schemas.Balance]? =
            missing.isEmpty
            ? converted.filter { $0.value != 0 }.sorted { $0.key.text < $1.key.text }.map {
                .init(memberId: $0.key.text, currency: home.code, net: MoneyInput.text($0.value, home.code))
            } : nil
        return .ok(
            .init(
                body: .json(
                    .init(
                        balances: nets.map {
                            .init(
                                memberId: $0.memberID.text, currency: $0.currency,
                                net: MoneyInput.text($0.net, $0.currency))
                        }, homeCurrency: home.code, home: homeBalances, missingRates: missing))))
    }

    func getSettlementPlan(_ input: Operations.GetSettlementPlan.Input) async throws
        -> Operations.GetSettlementPlan.Output
    {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let currency = try MoneyInput.currency(input.query.currency ?? group.homeCurrency, field: "currency")
        let nets = try await balances.balances(groupID: group.id).filter { $0.currency == currency.code }
        let plan = try SettlementPlan.plan(
            Dictionary(uniqueKeysWithValues: nets.map { (MemberID($0.memberID), $0.net) }))
        return .ok(
            .init(
                body: .json(
                    .init(
                        currency: currency.code,
                        transfers: plan.map {
                            .init(
                                fromMemberId: $0.from.description, toMemberId: $0.to.description,
                                amount: MoneyInput.text($0.amount, currency.code), currency: currency.code)
                        }))))
    }

    func getPairwiseDebts(_ input: Operations.GetPairwiseDebts.Input) async throws -> Operations.GetPairwiseDebts.Output
    {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        // From the pairwise ledger, kept with every write: the same cost at any number of expenses.
        let debts = try await balances.pairwiseDebts(groupID: group.id)
        let list = debts.currencies.flatMap { currency in
            debts.debts(in: currency).map {
                Components.Schemas.PlannedTransfer(
                    fromMemberId: $0.from.description, toMemberId: $0.to.description,
                    amount: MoneyInput.text($0.amount, currency.code), currency: currency.code)
            }
        }
        return .ok(.init(body: .json(.init(debts: list))))
    }

    /// The rate with the latest date for the pair, or the inverse of the opposite pair's.
    static func latestRate(from: Currency, to: Currency, in rates: [RateRecord]) -> ExchangeRate? {
        let direct = rates.filter { $0.from == from.code && $0.to == to.code }.max { $0.date < $1.date }
        let inverse = rates.filter { $0.from == to.code && $0.to == from.code }.max { $0.date < $1.date }
        if let direct, direct.date >= (inverse?.date ?? "") {
            return (try? DecimalValue(parsing: direct.rate)).flatMap { try? ExchangeRate(from: from, to: to, rate: $0) }
        }
        if let inverse {
            return (try? DecimalValue(parsing: inverse.rate)).flatMap {
                try? ExchangeRate(from: to, to: from, rate: $0)
            }?
            .inverted
        }
        return nil
    }

    // MARK: - Rates

    func listRates(_ input: Operations.ListRates.Input) async throws -> Operations.ListRates.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        return .ok(
            .init(
                body: .json(.init(rates: try await balances.rates(groupID: group.id).map(Components.Schemas.Rate.init)))
            ))
    }

    func putRates(_ input: Operations.PutRates.Input) async throws -> Operations.PutRates.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .updateGroup)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard body.rates.count <= 500 else { throw APIError.invalid(field: "rates", "At most 500 rates at once.") }
        let records = try body.rates.enumerated().map { index, rate in
            let path = "rates[\(index)]"
            let from = try MoneyInput.currency(rate.fromCurrency, field: path + ".fromCurrency")
            let to = try MoneyInput.currency(rate.toCurrency, field: path + ".toCurrency")
            guard from != to else {
                throw APIError.invalid(field: path + ".toCurrency", "A rate is between two currencies.")
            }
            let value = try MoneyInput.decimal(rate.rate, field: path + ".rate")
            guard (try? ExchangeRate(from: from, to: to, rate: value)) != nil else {
                throw APIError.invalid(field: path + ".rate", "A rate is a positive decimal.")
            }
            return RateRecord(
                from: from.code, to: to.code, date: try MoneyInput.date(rate.date, field: path + ".date"),
                rate: value.description)
        }
        try await balances.putRates(
            records, groupID: group.id, actor: try actor(caller, me, for: .updateGroup), now: now())
        return .ok(
            .init(
                body: .json(.init(rates: try await balances.rates(groupID: group.id).map(Components.Schemas.Rate.init)))
            ))
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
