import Foundation
import SplitCore
import SplitStore

/// An exchange rate as entered: 1 `fromCurrency` = `rate` `toCurrency` from `date` on.
public struct EnteredRate: Sendable, Equatable {
    public var fromCurrency: String
    public var toCurrency: String
    public var date: String
    public var rate: String

    public init(fromCurrency: String, toCurrency: String, date: String, rate: String) {
        self.fromCurrency = fromCurrency
        self.toCurrency = toCurrency
        self.date = date
        self.rate = rate
    }
}

/// A group's balances: the ledger's nets per currency, and everything in the home currency when
/// every currency has a rate.
public struct BalancesView: Sendable, Equatable {
    public let nets: [BalanceRecord]
    public let home: Currency
    /// Each member's total in `home`; nil when some currency has no rate (`missing`).
    public let homeBalances: [MemberID: Int64]?
    public let missing: [Currency]
    /// How many expenses count in `homeBalances` at what was charged in the home currency
    /// rather than at the group's rate.
    public let chargedCount: Int

    /// Whether Settle up offers everything in the home currency first: several currencies have
    /// balances and each has a rate (with one currency, its own plan is that plan), or the one
    /// currency is not the home one and expenses in it were charged in the home currency (found by
    /// a new user: pounds charged in euros on a card were settled in pounds, short of what the
    /// card took), or what was charged leaves the home view other than the home currency's own
    /// balances (found by a new user: a deposit charged 92 EUR and refunded as 90 EUR netted to
    /// zero in dollars, and Settle up said everyone was settled while the card had lost 2 euros).
    public var homePlanFirst: Bool {
        guard let homeBalances else { return false }
        let open = Set(nets.map(\.currency))
        if open.count > 1 { return true }
        guard chargedCount > 0 else { return false }
        if let only = open.first, only != home.code { return true }
        let own = Dictionary(
            nets.filter { $0.currency == home.code }.map { (MemberID($0.memberID), $0.net) }, uniquingKeysWith: +)
        return homeBalances.filter { $0.value != 0 } != own.filter { $0.value != 0 }
    }

    /// The nets of each plan Settle up offers first: everything in the home currency when
    /// `homePlanFirst`, else each currency's own. What "Where you stand" and a payment's note
    /// follow, so a person who follows them is settled up.
    public var offeredPlans: [(currency: Currency, nets: [MemberID: Int64])] {
        if homePlanFirst, let homeBalances { return [(home, homeBalances)] }
        return Set(nets.map(\.currency)).sorted().compactMap { code in
            guard let currency = try? Currency(code: code) else { return nil }
            return (
                currency,
                Dictionary(nets.filter { $0.currency == code }.map { (MemberID($0.memberID), $0.net) }, uniquingKeysWith: +)
            )
        }
    }
}

/// The ledger use cases (DESIGN §3): transfers recorded and taken back, balances, the plan, the
/// pairwise debts and the group's exchange rates.
public struct LedgerUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    // MARK: Transfers

    /// Records money that moved between two active members. A retry with the same idempotency
    /// key gets its first answer (`render` makes it in the caller's wire format).
    public func recordSettlement(
        _ entered: EnteredSettlement, groupID: UUID, caller: Caller, origin: RequestOrigin,
        idempotency request: IdempotencyRequest?,
        render: @escaping @Sendable (SettlementRecord) throws -> StoredResponse
    ) async throws -> IdempotencyOutcome<SettlementRecord> {
        let (group, me, members) = try await access.checkWithMembers(groupID, caller, for: .read)
        let from = try MoneyInput.member(entered.fromMemberId, field: "fromMemberId")
        let to = try MoneyInput.member(entered.toMemberId, field: "toMemberId")
        let action = GroupAction.recordSettlement(isParty: from.uuid == me.id || to.uuid == me.id)
        try GroupAccess.require([action], me, in: group)
        guard from != to else {
            throw AppError.invalid(field: "toMemberId", message: "A transfer goes between two members.")
        }
        // Members removed from the group may still pay and be paid: their balance stays theirs.
        let known = Set(members.map(\.id))
        for (member, field) in [(from, "fromMemberId"), (to, "toMemberId")] where !known.contains(member.uuid) {
            throw AppError.invalid(field: field, message: "There is no such member in this group.")
        }
        let currency = try await groupCurrency(
            try MoneyInput.currency(entered.currency, field: "currency"), of: group, field: "currency")
        let amount = try MoneyInput.amount(entered.amount, currency, field: "amount")
        guard amount > 0 else { throw AppError.invalid(field: "amount", message: "A transfer is more than zero.") }
        let id = try MoneyInput.clientID(entered.id)
        let claim = try request.map { try $0.claim(for: caller) }
        // A transfer sent again (its answer lost on the way, an offline queue replayed) is not
        // measured against what is owed now, which that transfer itself settled: the store
        // answers it as it was recorded, or refuses it if the id or key was used for another.
        if me.role == .member, to.uuid != me.id,
            try await !recordedAlready(id: entered.id == nil ? nil : id, claim: claim)
        {
            try await checkWithinDebt(amount, currency, from: from.uuid, to: to.uuid, in: group, members: members)
        }
        let note = entered.note?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard note.unicodeScalars.count <= 500, !AccountInput.containsControlCharacters(note, allowingLineBreaks: true)
        else { throw AppError.invalid(field: "note", message: "A note has at most 500 characters.") }
        let current = now()
        let settlement = SettlementRecord(
            id: id, groupID: group.id, fromMemberID: from.uuid, toMemberID: to.uuid,
            amount: amount, currency: currency.code,
            date: try entered.date.map { try MoneyInput.date($0, field: "date") } ?? MoneyInput.today(current, in: group.timeZone),
            note: note, createdByUserID: caller.user.id, createdAt: current, updatedAt: current)
        do {
            guard
                let outcome = try await settlements.create(
                    settlement, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]),
                    idempotency: claim, render: render)
            else { throw AppError.notFound("group") }
            if case .keyReused = outcome { throw AppError.idempotencyKeyReused }
            return outcome
        } catch SettlementStoreError.idTaken {
            throw AppError.conflict(code: "conflict", field: "id", message: "A settlement with that id exists already.")
        } catch  where Database.isUniqueViolation(error) {
            throw AppError.conflict(code: "conflict", field: "id", message: "A settlement with that id exists already.")
        }
    }

    /// Whether a transfer with this id, or an answer under this key, is stored already.
    private func recordedAlready(id: UUID?, claim: IdempotencyClaim?) async throws -> Bool {
        if let claim, try await idempotency.lookup(claim) != nil { return true }
        guard let id else { return false }
        return try await settlements.settlement(id: id) != nil
    }

    public func settlements(groupID: UUID, includeDeleted: Bool, caller: Caller) async throws -> [SettlementRecord] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await settlements.settlements(groupID: group.id, includeDeleted: includeDeleted)
    }

    /// Takes a recorded transfer back. A member takes back only what they recorded; the owner and
    /// admins any. One recorded by a paid mark is taken back by unmarking the share.
    public func deleteSettlement(_ id: UUID, caller: Caller, origin: RequestOrigin) async throws -> SettlementRecord {
        guard let settlement = try await settlements.settlement(id: id) else {
            throw AppError.notFound("settlement")
        }
        let (group, me) = try await access.check(settlement.groupID, caller, for: .read, asUnknown: "settlement")
        let isParty = settlement.fromMemberID == me.id || settlement.toMemberID == me.id
        let action = GroupAction.recordSettlement(isParty: isParty)
        try GroupAccess.require([action], me, in: group)
        if me.role == .member, settlement.createdByUserID != caller.user.id {
            throw AppError.forbiddenBecause("Only who recorded a transfer, the owner or an admin can delete it.")
        }
        do {
            guard
                let deleted = try await settlements.delete(
                    id: id, groupID: group.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]),
                    now: now())
            else { throw AppError.notFound("settlement") }
            return deleted
        } catch SettlementStoreError.linkedToShare {
            throw AppError.conflict(
                code: "linked_to_share", field: nil,
                message: "This transfer was recorded by marking a share paid; mark the share unpaid instead.")
        }
    }

    // MARK: Balances, plan, debts

    public func balances(groupID: UUID, caller: Caller) async throws -> BalancesView {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await balances(of: group)
    }

    func balances(of group: GroupRecord) async throws -> BalancesView {
        let nets = try await balances.balances(groupID: group.id)
        let home = try Currency(code: group.homeCurrency)
        let rates = try await datedRates(group.id)
        // An expense charged in the home currency counts at what was charged (issue 15).
        let charged = try await expenses.liveExpenses(groupID: group.id, chargedOnly: true).compactMap {
            expense -> ChargedExpense? in
            guard expense.homeCurrency == home.code, let homeAmount = expense.homeAmount,
                let currency = try? Currency(code: expense.currency)
            else { return nil }
            var effects: [MemberID: Int64] = [:]
            for payer in expense.payers { effects[MemberID(payer.memberID), default: 0] += payer.amount }
            for share in expense.liveShares { effects[MemberID(share.memberID), default: 0] -= share.amount }
            return ChargedExpense(
                effects: effects.sorted { $0.key < $1.key }.map { (member: $0.key, amount: $0.value) },
                original: Money(minorUnits: expense.amount, currency: currency),
                charged: Money(minorUnits: homeAmount, currency: home), tieBreak: TieBreak(seed: expense.id.text))
        }
        let (converted, missing) = HomeBalances.convert(
            try nets.map {
                (MemberID($0.memberID), Money(minorUnits: $0.net, currency: try Currency(code: $0.currency)))
            },
            charged: charged, to: home, rates: rates, tieBreak: TieBreak(seed: group.id.text))
        return BalancesView(
            nets: nets, home: home, homeBalances: missing.isEmpty ? converted : nil, missing: missing,
            chargedCount: charged.count)
    }

    /// The fewest transfers that settle `currency` (the home currency when nil).
    public func plan(groupID: UUID, currency code: String?, caller: Caller) async throws -> (
        currency: Currency, transfers: [PlannedTransfer]
    ) {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let currency = try MoneyInput.currency(code ?? group.homeCurrency, field: "currency")
        let nets = try await balances.balances(groupID: group.id).filter { $0.currency == currency.code }
        return (
            currency,
            try SettlementPlan.plan(Dictionary(uniqueKeysWithValues: nets.map { (MemberID($0.memberID), $0.net) }))
        )
    }

    /// Who owes whom pair by pair, from the ledger kept with every write (the same cost at any
    /// number of expenses).
    public func pairwiseDebts(groupID: UUID, caller: Caller) async throws -> PairwiseDebts {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await balances.pairwiseDebts(groupID: group.id)
    }

    // MARK: Rates

    /// A rate as the group's pages and the API show it.
    public struct RateView: Sendable, Equatable {
        public let rate: RateRecord
        /// Whether it is the one read for its pair now (`HomeBalances.counting`).
        public let counts: Bool
    }

    public func rates(groupID: UUID, caller: Caller) async throws -> [RateView] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await views(group)
    }

    /// The group's rates, each with whether it is the one read for its pair now.
    private func views(_ group: GroupRecord) async throws -> [RateView] {
        let records = try await balances.rates(groupID: group.id)
        let readable = records.compactMap { record in record.datedRate.map { (record, $0) } }
        let counting = HomeBalances.counting(readable.map(\.1))
        let counted = Set(zip(readable, counting).filter(\.1).map { "\($0.0.0.from) \($0.0.0.to) \($0.0.0.date)" })
        return records.map { RateView(rate: $0, counts: counted.contains("\($0.from) \($0.to) \($0.date)")) }
    }

    /// Deletes one rate, named by its pair and date (owner, admin): for one entered by mistake,
    /// which nothing else could take back (found by a new user). Answers the rates left.
    public func deleteRate(
        from: String, to: String, date: String, groupID: UUID, caller: Caller, origin: RequestOrigin
    ) async throws -> [RateView] {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        let from = try MoneyInput.currency(from, field: "fromCurrency")
        let to = try MoneyInput.currency(to, field: "toCurrency")
        guard from != to else {
            throw AppError.invalid(field: "toCurrency", message: "A rate is between two currencies.")
        }
        let date = try MoneyInput.date(date, field: "date")
        guard
            try await balances.deleteRate(
                from: from.code, to: to.code, date: date, groupID: group.id,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]), now: now()) != nil
        else {
            throw AppError.notFoundBecause("The group has no rate of \(from.code) to \(to.code) on \(date).")
        }
        return try await views(group)
    }

    /// Sets up to 500 rates at once (each replaces the one for its pair and date).
    public func putRates(
        _ entered: [EnteredRate], groupID: UUID, caller: Caller, origin: RequestOrigin
    ) async throws -> [RateView] {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        guard entered.count <= 500 else {
            throw AppError.invalid(field: "rates", message: "At most 500 rates at once.")
        }
        // A rate stored before dates ahead were refused can still be corrected on its own day.
        let stored = Set(try await balances.rates(groupID: group.id).map { "\($0.from) \($0.to) \($0.date)" })
        let records = try entered.enumerated().map { index, rate in
            let path = "rates[\(index)]"
            let from = try MoneyInput.currency(rate.fromCurrency, field: path + ".fromCurrency")
            let to = try MoneyInput.currency(rate.toCurrency, field: path + ".toCurrency")
            guard from != to else {
                throw AppError.invalid(field: path + ".toCurrency", message: "A rate is between two currencies.")
            }
            let value = try MoneyInput.decimal(rate.rate, field: path + ".rate")
            guard (try? ExchangeRate(from: from, to: to, rate: value)) != nil else {
                throw AppError.invalid(field: path + ".rate", message: "A rate is a positive decimal.")
            }
            let date = try MoneyInput.date(rate.date, field: path + ".date")
            // The latest rate counts: one dated ahead would count until that day, past every rate
            // entered before it (found by a new user: a mistyped 2062 could not be outdone). A day
            // of slack for someone whose day began before the group's.
            if let day = CivilDate(date), let today = CivilDate(MoneyInput.today(now(), in: group.timeZone)),
                day > today.adding(days: 1), !stored.contains("\(from.code) \(to.code) \(date)")
            {
                throw AppError.invalid(
                    field: path + ".date",
                    message: "A rate is for a day that has come: \(date) is more than a day after today (\(today)).")
            }
            return RateRecord(from: from.code, to: to.code, date: date, rate: value.description)
        }
        let time = now()
        try await balances.putRates(
            records, groupID: group.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]),
            now: time, today: MoneyInput.today(time, in: group.timeZone))
        return try await views(group)
    }

    /// The group's stored rates as SplitCore values; a row that no longer reads is skipped.
    func datedRates(_ groupID: UUID) async throws -> [DatedRate] {
        try await balances.rates(groupID: groupID).compactMap(\.datedRate)
    }
}
