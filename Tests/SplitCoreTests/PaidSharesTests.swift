import Foundation
import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Paid shares: what a paid mark records and what an edit does to it")
struct PaidSharesTests {
    static let cases = 1_000

    @Test("marking every share paid settles the expense: each member's net for it is exactly zero")
    func markingEverySharePaidSettles() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            // setup
            var builder = ScenarioBuilder(seed: seed)
            let expense = builder.expense()
            // act
            let transfers = expense.owed.flatMap { PaidShares.transfers(settling: $0.memberID, of: expense) }
            // validate: paid − owed + sent − received = 0 for everyone
            var net: [MemberID: Int64] = [:]
            for payer in expense.paid { net[payer.memberID, default: 0] += payer.amount }
            for share in expense.owed { net[share.memberID, default: 0] -= share.amount }
            for transfer in transfers {
                #expect(transfer.amount > 0)
                #expect(transfer.from != transfer.to)
                net[transfer.from, default: 0] += transfer.amount
                net[transfer.to, default: 0] -= transfer.amount
            }
            #expect(net.values.allSatisfy { $0 == 0 })
        }
    }

    @Test("a debtor's transfers sum to what they owe beyond what they paid themselves; nothingToPay is exactly when there are none")
    func transfersCoverTheUnpaidPart() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let expense = builder.expense()
            for share in expense.owed {
                let moved = PaidShares.transfers(settling: share.memberID, of: expense).map(\.amount).reduce(0, +)
                // A refund's share is the mirror: what the member is owed beyond what they received.
                let unpaid = share.amount - expense.paid(by: share.memberID)
                #expect(moved == (expense.isRefund ? max(0, -unpaid) : max(0, unpaid)))
                // What the API says of each share agrees with what a mark would record.
                let said = PaidShares.nothingToPay(
                    owed: share.amount, paid: expense.paid(by: share.memberID), isRefund: expense.isRefund)
                #expect(said == (moved == 0), "\(share) of \(expense)")
            }
        }
    }

    @Test("a payer who is not among the debtors records nothing; one payer of everything gets every transfer")
    func payerNotAmongDebtors() throws {
        let expense = try split(usd("100.00"), .equal([member(2), member(3), member(4)]))
        #expect(PaidShares.transfers(settling: member(1), of: expense).isEmpty)
        let fromTwo = PaidShares.transfers(settling: member(2), of: expense)
        #expect(fromTwo.count == 1)
        #expect(fromTwo[0].to == member(1))
        #expect([33_34, 33_33].contains(fromTwo[0].amount))
    }

    @Test("merging keeps ids and paid marks by member, drops leavers to removed zero shares, and sums to the new total")
    func mergeProperties() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            // setup: an old split with some shares paid, and a new one over another set of members
            var builder = ScenarioBuilder(seed: seed)
            let before = builder.expense()
            let after = builder.expense()
            var rng = SplitMix64(seed: seed ^ 0x5EED)
            let old = before.owed.map {
                OwedShare(id: UUID(), memberID: $0.memberID, amount: $0.amount, isPaid: rng.next() % 2 == 0)
            }
            // act
            let merged = PaidShares.merge(
                old: old, new: after.owed.map { OwedShare(id: UUID(), memberID: $0.memberID, amount: $0.amount) })
            // validate
            let live = merged.filter { !$0.isRemoved }
            #expect(
                live.map { MemberAmount($0.memberID, $0.amount) } == after.owed.sorted { $0.memberID < $1.memberID })
            #expect(live.map(\.amount).reduce(0, +) == after.total.minorUnits)
            #expect(Set(merged.map(\.memberID)) == Set(old.map(\.memberID)).union(after.owed.map(\.memberID)))
            #expect(Set(merged.map(\.id)).count == merged.count)
            for share in old {
                let kept = try #require(merged.first { $0.memberID == share.memberID })
                #expect(kept.id == share.id)
                #expect(kept.isPaid == share.isPaid)
                if !after.owed.contains(where: { $0.memberID == share.memberID }) {
                    #expect(kept.isRemoved && kept.amount == 0)
                }
            }
        }
    }

    @Test("an edit voids exactly the paid shares whose debt it changed")
    func editVoidsChangedPaidShares() async {
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let before = builder.expense()
            let after = builder.expense()
            var rng = SplitMix64(seed: seed ^ 0xED17)
            let old = before.owed.map {
                OwedShare(id: UUID(), memberID: $0.memberID, amount: $0.amount, isPaid: rng.next() % 2 == 0)
            }
            let next = PaidShares.merge(
                old: old, new: after.owed.map { OwedShare(id: UUID(), memberID: $0.memberID, amount: $0.amount) })
            let voided = Set(
                PaidShares.voidedByEdit(
                    before: (before.paid, before.currency, old), after: (after.paid, after.currency, next)))
            let payersChanged =
                before.currency != after.currency
                || before.paid.sorted { $0.memberID < $1.memberID } != after.paid.sorted { $0.memberID < $1.memberID }
            for share in next {
                let previous = old.first { $0.id == share.id }
                // What marking the share paid recorded then, and would record now.
                let recorded = PaidShares.transfers(settling: share.memberID, of: before)
                let now = share.isRemoved ? [] : PaidShares.transfers(settling: share.memberID, of: after)
                let changed =
                    payersChanged || share.isRemoved || previous?.amount != share.amount || recorded != now
                #expect(voided.contains(share.id) == (share.isPaid && changed))
            }
            // The same expense again voids nothing.
            #expect(
                PaidShares.voidedByEdit(
                    before: (before.paid, before.currency, old), after: (before.paid, before.currency, old)
                )
                .isEmpty)
        }
    }

    @Test("several payers: a paid share of the same amount is voided when the others' shares move its transfers")
    func editMovesTransfersOfSameAmount() {
        // P1 paid 60, P2 40; A and B owe 50 each. B's mark recorded B → P1 30 and B → P2 20: in
        // proportion (found by a new user: it was P1 10 and P2 40, matched in member order).
        let (p1, p2, a, b) = (member(1), member(2), member(3), member(4))
        let payers = [MemberAmount(p1, 60), MemberAmount(p2, 40)]
        let paid = OwedShare(id: UUID(), memberID: b, amount: 50, isPaid: true)
        let before = [OwedShare(id: UUID(), memberID: a, amount: 50), paid]
        #expect(
            PaidShares.settling(payers: payers, shares: before)[b]
                == [PlannedTransfer(from: b, to: p1, amount: 30), PlannedTransfer(from: b, to: p2, amount: 20)])
        // P1 50, B 50: P1's own share takes all but 10 of what P1 paid, so B still owes 50, but now
        // P1 10 and P2 40.
        let after = [OwedShare(id: UUID(), memberID: p1, amount: 50), paid]
        #expect(
            PaidShares.settling(payers: payers, shares: after)[b]
                == [PlannedTransfer(from: b, to: p1, amount: 10), PlannedTransfer(from: b, to: p2, amount: 40)])
        #expect(PaidShares.voidedByEdit(before: (payers, .usd, before), after: (payers, .usd, after)) == [paid.id])
        // A debtor first in member order (B → P1 30 and P2 20) keeps their transfers, and their
        // mark, when the shares after theirs move.
        let first = OwedShare(id: UUID(), memberID: member(2), amount: 50, isPaid: true)
        let later = OwedShare(id: UUID(), memberID: a, amount: 50)
        #expect(
            PaidShares.voidedByEdit(
                before: ([MemberAmount(p1, 60), MemberAmount(member(6), 40)], .usd, [first, later]),
                after: (
                    [MemberAmount(p1, 60), MemberAmount(member(6), 40)], .usd,
                    [first, OwedShare(id: later.id, memberID: a, amount: 30), OwedShare(id: UUID(), memberID: member(5), amount: 20)]
                )
            ).isEmpty)
    }

    @Test("edge cases: payers in another order change nothing; a new payer or currency voids every paid share")
    func editEdgeCases() {
        let paid = OwedShare(id: UUID(), memberID: member(2), amount: 500, isPaid: true)
        let unpaid = OwedShare(id: UUID(), memberID: member(3), amount: 500)
        let payers = [MemberAmount(member(1), 600), MemberAmount(member(4), 400)]
        let shares = [paid, unpaid]
        #expect(
            PaidShares.voidedByEdit(
                before: (payers, .usd, shares), after: (payers.reversed(), .usd, shares)
            ).isEmpty)
        #expect(
            PaidShares.voidedByEdit(
                before: (payers, .usd, shares), after: ([MemberAmount(member(1), 1_000)], .usd, shares)) == [paid.id])
        #expect(PaidShares.voidedByEdit(before: (payers, .usd, shares), after: (payers, .eur, shares)) == [paid.id])
    }
}
