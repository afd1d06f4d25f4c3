import Foundation
import SplitCore
import SplitStore

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
            // Grouped as everywhere else ("71,954 JPY"; found by a new user: "71954 JPY").
            : "\(payer) owes \(receiver) at most \(Money(minorUnits: limit, currency: currency).description) now"
        throw AppError.invalid(
            field: "amount",
            message: "\(most). A larger transfer can be recorded by \(receiver), the owner or an admin.")
    }
}
