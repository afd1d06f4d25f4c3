import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

/// Rows that give each member only paid − owed (Splitwise's export), turned back into expenses
/// and transfers (issue 18): exact for every member.
@Suite("Net cells: another app's rows back into expenses")
struct NetCellsTests {
    @Test("any expense or refund, reduced to its cells and rebuilt: every member's net is their cell; the parts sum to the cost")
    func rebuildsEveryExpense() async {
        await propertyCheck(count: 1_000, input: Gen.uint64()) { seed in
            try Self.rebuild(seed: seed)
        }
    }

    /// Out of the closure: the compiler (6.3.1) crashed checking sendability of such bodies inline.
    static func rebuild(seed: UInt64) throws {
        var builder = ScenarioBuilder(seed: seed)
        let expense = builder.expense()
        var nets: [MemberID: Int64] = [:]
        for payer in expense.paid { nets[payer.memberID, default: 0] += payer.amount }
        for share in expense.owed { nets[share.memberID, default: 0] -= share.amount }
        let cells = nets.map { MemberAmount($0.key, $0.value) }
        guard cells.contains(where: { $0.amount != 0 }) else {
            // Everyone paid exactly their own share: nothing moves, and the row says so.
            #expect(throws: NetCellsError.noEffect) {
                try NetCells.expense(cost: expense.total.minorUnits, cells: cells, tieBreak: .none)
            }
            return
        }
        let (payers, shares) = try NetCells.expense(
            cost: expense.total.minorUnits, cells: cells, tieBreak: TieBreak(seed: "\(seed)"))
        #expect(payers.map(\.amount).reduce(0, +) == expense.total.minorUnits)
        #expect(shares.map(\.amount).reduce(0, +) == expense.total.minorUnits)
        var rebuilt: [MemberID: Int64] = [:]
        for payer in payers { rebuilt[payer.memberID, default: 0] += payer.amount }
        for share in shares { rebuilt[share.memberID, default: 0] -= share.amount }
        #expect(rebuilt.filter { $0.value != 0 } == nets.filter { $0.value != 0 })
        // What we store passes the checks of any expense.
        let split = try ExpenseSplit.compute(
            total: expense.total, payers: payers, rule: .exact(shares), tieBreak: .none)
        #expect(split.isRefund == expense.isRefund)
    }

    @Test("a payment's cells become transfers that move each member exactly their cell")
    func payments() async {
        await propertyCheck(count: 1_000, input: Gen.uint64(), Gen.int(in: 2...8)) { seed, count in
            var builder = ScenarioBuilder(seed: seed, memberCount: count)
            let nets = builder.nets(count: count)
            let sent = nets.values.filter { $0 > 0 }.reduce(0, +)
            let transfers = try NetCells.transfers(amount: sent, cells: nets.map { MemberAmount($0.key, $0.value) })
            var moved: [MemberID: Int64] = [:]
            for transfer in transfers {
                #expect(transfer.amount > 0 && transfer.from != transfer.to)
                moved[transfer.from, default: 0] += transfer.amount
                moved[transfer.to, default: 0] -= transfer.amount
            }
            #expect(moved.filter { $0.value != 0 } == nets)
        }
    }

    @Test("hand-picked: two payers in proportion, a payer who owed nothing, a refund, and refusals")
    func handPicked() throws {
        let (a, b, c) = (member(1), member(2), member(3))
        // 200.00 MKD, cells 33.33 / 33.33 / −66.66: A and B paid 100.00 each, own shares 66.67.
        let two = try NetCells.expense(
            cost: 20000, cells: [MemberAmount(a, 3333), MemberAmount(b, 3333), MemberAmount(c, -6666)], tieBreak: .none)
        #expect(two.payers == [MemberAmount(a, 10000), MemberAmount(b, 10000)])
        #expect(two.shares == [MemberAmount(a, 6667), MemberAmount(b, 6667), MemberAmount(c, 6666)])
        // 150.00 paid by C for A and B only: C's own share is nothing.
        let forOthers = try NetCells.expense(
            cost: 15000, cells: [MemberAmount(a, -5000), MemberAmount(b, -10000), MemberAmount(c, 15000)],
            tieBreak: .none)
        #expect(forOthers.shares == [MemberAmount(a, 5000), MemberAmount(b, 10000)])
        // −30.00: A received it; A, B and C each get 10.00 of it.
        let refund = try NetCells.expense(
            cost: -3000, cells: [MemberAmount(a, -2000), MemberAmount(b, 1000), MemberAmount(c, 1000)], tieBreak: .none)
        #expect(refund.payers == [MemberAmount(a, -3000)])
        #expect(refund.shares == [MemberAmount(a, -1000), MemberAmount(b, -1000), MemberAmount(c, -1000)])
        #expect(throws: NetCellsError.notBalanced(sum: -5100)) {
            try NetCells.expense(
                cost: 8500, cells: [MemberAmount(a, -1700), MemberAmount(b, -1700), MemberAmount(c, -1700)],
                tieBreak: .none)
        }
        #expect(throws: NetCellsError.zeroCost) {
            try NetCells.expense(cost: 0, cells: [MemberAmount(a, 1000), MemberAmount(b, -1000)], tieBreak: .none)
        }
        #expect(throws: NetCellsError.costBelowNets(cost: 500, owedByOthers: 600)) {
            try NetCells.expense(cost: 500, cells: [MemberAmount(a, 600), MemberAmount(b, -600)], tieBreak: .none)
        }
        #expect(throws: NetCellsError.paymentMismatch(amount: 500, moved: 600)) {
            try NetCells.transfers(amount: 500, cells: [MemberAmount(a, 600), MemberAmount(b, -600)])
        }
        let toTwo = try NetCells.transfers(
            amount: 1500, cells: [MemberAmount(a, 1500), MemberAmount(b, -1000), MemberAmount(c, -500)])
        #expect(Set(toTwo) == [PlannedTransfer(from: a, to: b, amount: 1000), PlannedTransfer(from: a, to: c, amount: 500)])
    }
}
