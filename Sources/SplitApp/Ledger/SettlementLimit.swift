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
        let records = try await balances.rates(groupID: group.id)
        let foreign = Set(view.nets.map(\.currency)).subtracting([view.home.code]).sorted()
        let used = foreign.compactMap { code in
            records.filter { ($0.from == code && $0.to == view.home.code) || ($0.from == view.home.code && $0.to == code) }
                .max { ($0.date, $0.from == code ? 1 : 0) < ($1.date, $1.from == code ? 1 : 0) }
        }
        return HomePlan(
            currency: view.home, transfers: try SettlementPlan.plan(home), rates: used,
            chargedCount: view.chargedCount)
    }
}

// Issue 14 item 11: a plain member could record that they paid the owner 10^11 USD and so be
// owed it. A transfer is money the receiver got, so above what settling up asks of the two it
// must come from the receiver (who confirms it by recording it), the owner or an admin (who act
// for members without an account). Everyone else records at most that much.
extension LedgerUseCases {
    /// Refuses (422 on `amount`) a transfer from `from` to `to` above what the settle-up would
    /// have `from` send `to`: the smaller of what `from` owes and what `to` is owed in that
    /// currency, or, in the home currency, in the converted balances when every rate is known.
    func checkWithinDebt(
        _ amount: Int64, _ currency: Currency, from: UUID, to: UUID, in group: GroupRecord, members: [MemberRecord]
    ) async throws {
        let view = try await balances(of: group)
        func net(_ member: UUID) -> Int64 {
            view.nets.first { $0.memberID == member && $0.currency == currency.code }?.net ?? 0
        }
        var limit = max(0, min(-net(from), net(to)))
        if currency == view.home, let home = view.homeBalances {
            let converted = max(0, min(-(home[MemberID(from)] ?? 0), home[MemberID(to)] ?? 0))
            limit = max(limit, converted)
        }
        guard amount > limit else { return }
        let names = Dictionary(members.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let payer = names[from] ?? "The payer"
        let receiver = names[to] ?? "the receiver"
        let most =
            limit == 0
            ? "\(payer) owes \(receiver) nothing in \(currency.code) now"
            : "\(payer) owes \(receiver) at most \(MoneyInput.text(limit, currency.code)) \(currency.code) now"
        throw AppError.invalid(
            field: "amount",
            message: "\(most). A larger transfer can be recorded by \(receiver), the owner or an admin.")
    }
}
