import Foundation
import SplitCore
import SplitStore

/// The fewest transfers that settle everything in the home currency, and the rates it used.
public struct HomePlan: Sendable, Equatable {
    public let currency: Currency
    public let transfers: [PlannedTransfer]
    /// The latest rate of each other currency with a balance (direct, or the inverse's).
    public let rates: [RateRecord]
    /// Expenses that counted at what was charged in the home currency.
    public let chargedCount: Int
}

extension LedgerUseCases {
    /// Settle up in one currency (issue 15): the plan over the home view (charged amounts, then
    /// rates). A currency without a rate is a 422 on `in` naming it.
    public func homePlan(groupID: UUID, caller: Caller) async throws -> HomePlan {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let view = try await balances(of: group)
        guard let home = view.homeBalances else {
            throw AppError.invalid(
                field: "in",
                message: "No rate to \(view.home.code) yet for \(view.missing.map(\.code).joined(separator: ", ")); "
                    + "add one to settle everything in \(view.home.code).")
        }
        // The very rate the home view used for each other currency (HomeBalances' rule), as stored.
        let records = try await balances.rates(groupID: group.id)
        let dated = try await datedRates(group.id)
        let foreign = Set(view.nets.map(\.currency)).subtracting([view.home.code]).sorted()
        let used = foreign.compactMap { code -> RateRecord? in
            guard let currency = try? Currency(code: code),
                let rate = HomeBalances.latestDatedRate(from: currency, to: view.home, in: dated)
            else { return nil }
            return records.first { $0.from == rate.rate.from.code && $0.to == rate.rate.to.code && $0.date == rate.date }
        }
        return HomePlan(
            currency: view.home, transfers: try SettlementPlan.plan(home), rates: used,
            chargedCount: view.chargedCount)
    }
}
