import Foundation
import SplitCore
import SplitStore

/// What Settle up says one member pays another, for a payment request's note: the rule of which
/// plan a person follows, kept with the ledger (the API and the web only word it).
public enum SettleUpAdvice: Sendable, Equatable {
    /// How the plan that has the transfer was chosen.
    public enum Basis: Sendable, Equatable {
        /// The plan Settle up offers first (or the only one asked).
        case offered
        /// Everything converted into the home currency, for a request in it while the money is
        /// in other currencies and Settle up leads with no converted plan.
        case converted
        /// The currency's own plan, below the home currency's (which has no transfer between the
        /// two): `home` names it.
        case ownBelowHome(home: String)
    }

    /// The plan has a transfer of `amount` (minor units of `currency`) between the two.
    case transfer(amount: Int64, currency: String, basis: Basis)
    /// No plan of the request's currency has one, but the plans of other currencies do.
    case elsewhere([Money])
    /// No plan has a transfer between the two now.
    case none
}

extension LedgerUseCases {
    /// The transfer from `payer` to `payee` a request in `currency` should be read against: the
    /// home plan when Settle up offers it first, else the request's currency's own; the
    /// currency's own where the home plan has nothing between the two (found by a new user: an
    /// SGD request was "no transfer from you" while the SGD plan had one), but not where
    /// everything counted in the home currency is settled (Settle up says nothing is left to pay
    /// then, and a currency's own plan would ask again what was paid in another; found by review).
    public func settleUpAdvice(
        groupID: UUID, from payer: UUID, to payee: UUID, currency: String, caller: Caller
    ) async throws -> SettleUpAdvice {
        let balances = try await balances(groupID: groupID, caller: caller)
        let offered = balances.offeredPlans
        let home = balances.homePlanFirst ? offered.first : nil
        let homeSettled = try home.map { try SettlementPlan.plan($0.nets).isEmpty } ?? false
        var plans: [(code: String, nets: [MemberID: Int64])] = home.map { [($0.currency.code, $0.nets)] } ?? []
        var converted = false
        if home == nil, currency == balances.home.code, let homeBalances = balances.homeBalances,
            balances.nets.contains(where: { $0.currency != currency })
        {
            // A request in the home currency follows everything converted into it, as the web's
            // "Everything in EUR" and its Ask buttons (found by a new user: asked 30.00 EUR for a
            // yen dinner from that plan, the payer read "no transfer from you").
            converted = true
            plans.append((currency, homeBalances))
        } else if home == nil || (!homeSettled && currency != balances.home.code) {
            let own = balances.nets.filter { $0.currency == currency }
            plans.append((currency, Dictionary(own.map { (MemberID($0.memberID), $0.net) }, uniquingKeysWith: +)))
        }
        /// The plan's transfer from the payer to the payee, if it has one.
        func transfer(in nets: [MemberID: Int64]) throws -> PlannedTransfer? {
            try SettlementPlan.plan(nets).first { $0.from.uuid == payer && $0.to.uuid == payee }
        }
        for (index, plan) in plans.enumerated() {
            guard let mine = try transfer(in: plan.nets) else { continue }
            let basis: SettleUpAdvice.Basis =
                converted ? .converted : index == 0 || plans.count == 1 ? .offered : .ownBelowHome(home: balances.home.code)
            return .transfer(amount: mine.amount, currency: plan.code, basis: basis)
        }
        // One in another currency's plan is said (found by a new user: a request in CHF for a
        // debt in euros, with no rate, read as if nothing were owed).
        var elsewhere: [Money] = []
        for plan in offered where plan.currency.code != currency {
            if let other = try transfer(in: plan.nets) {
                elsewhere.append(Money(minorUnits: other.amount, currency: plan.currency))
            }
        }
        return elsewhere.isEmpty ? .none : .elsewhere(elsewhere)
    }
}
