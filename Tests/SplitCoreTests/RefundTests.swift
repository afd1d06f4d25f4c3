import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

/// Refunds and income (issue 18): a negative total, received by the payers and shared out.
@Suite("Refunds: negative totals")
struct RefundTests {
    let aki = member(1)
    let bo = member(2)
    let chen = member(3)

    @Test("a refund is the exact mirror of the expense of the opposite amount, share by share, for every rule")
    func mirror() async {
        await propertyCheck(count: 1_000, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let total = builder.total()
            let payers = builder.members()
            let paid = zip(payers, builder.partition(total, into: payers.count, minimum: 1)).map { MemberAmount($0, $1) }
            let rule = builder.rule(total: total)
            let currency = builder.currency()
            let tie = TieBreak(seed: "e-\(seed)")
            let expense = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: currency), payers: paid, rule: rule, tieBreak: tie)
            let refund = try ExpenseSplit.compute(
                total: Money(minorUnits: -total, currency: currency), payers: paid.map(\.negated),
                rule: rule.negated, tieBreak: tie)
            #expect(refund.isRefund && !expense.isRefund)
            #expect(refund.owed == expense.owed.map(\.negated))
            #expect(refund.paid == expense.paid.map(\.negated))
            // An expense and its refund together leave every balance at zero.
            let both = try Balances(expenses: [expense, refund])
            #expect(both.nets(in: currency).values.allSatisfy { $0 == 0 })
        }
    }

    @Test("mixed expenses and refunds: balances sum to zero and the plan settles everything")
    func mixedSignsSettle() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...20)) { seed, count in
            try Self.checkSettles(seed: seed, count: count)
        }
    }

    /// Out of the closure: the compiler (6.3.1) crashed checking sendability of this body inline.
    static func checkSettles(seed: UInt64, count: Int) throws {
        var builder = ScenarioBuilder(seed: seed)
        let expenses = (0..<count).map { _ in builder.expense() }
        let balances = try Balances(expenses: expenses)
        for currency in balances.currencies {
            let nets = balances.nets(in: currency)
            #expect(nets.values.reduce(0, +) == 0)
            var left = nets
            for transfer in try SettlementPlan.plan(nets) {
                #expect(transfer.amount > 0)
                left[transfer.from, default: 0] += transfer.amount
                left[transfer.to, default: 0] -= transfer.amount
            }
            #expect(left.values.allSatisfy { $0 == 0 })
        }
    }

    @Test("a deposit of 30.00 returned to Aki and shared by three: each is owed 10.00, Aki owes 20.00")
    func depositBack() throws {
        let refund = try split(usd("-30.00"), .equal([aki, bo, chen]), paidBy: [MemberAmount(aki, -3000)])
        #expect(amounts(refund.owed) == [-1000, -1000, -1000])
        let nets = try Balances(expenses: [refund]).nets(in: .usd)
        #expect(nets[aki] == -2000 && nets[bo] == 1000 && nets[chen] == 1000)
        let debts = PairwiseDebts.debts(of: refund)
        #expect(Set(debts) == [PlannedTransfer(from: aki, to: bo, amount: 1000), PlannedTransfer(from: aki, to: chen, amount: 1000)])
    }

    @Test("JPY has no cents: ¥-100 over three is -33, -33, -34, the mirror of the expense's 33, 33, 34")
    func yenThirds() throws {
        let refund = try split(jpy("-100"), .equal([aki, bo, chen]), paidBy: [MemberAmount(aki, -100)], seed: "x")
        let expense = try split(jpy("100"), .equal([aki, bo, chen]), paidBy: [MemberAmount(aki, 100)], seed: "x")
        #expect(amounts(refund.owed).reduce(0, +) == -100)
        #expect(amounts(refund.owed).sorted() == [-34, -33, -33])
        #expect(refund.owed == expense.owed.map(\.negated))
    }

    @Test("a cashback received by one who is not among the sharers, by exact amounts and by percent")
    func payerNotAmongSharers() throws {
        let exact = try split(
            usd("-12.00"), .exact([MemberAmount(bo, -500), MemberAmount(chen, -700)]), paidBy: [MemberAmount(aki, -1200)])
        let nets = try Balances(expenses: [exact]).nets(in: .usd)
        #expect(nets[aki] == -1200 && nets[bo] == 500 && nets[chen] == 700)
        let percent = try split(
            usd("-10.00"), .percent([MemberDecimal(bo, decimal("50")), MemberDecimal(chen, decimal("50"))]),
            paidBy: [MemberAmount(aki, -1000)])
        #expect(amounts(percent.owed) == [-500, -500])
    }

    @Test("marking a refund's share paid records the payer paying that member their part")
    func paidMarkOfARefund() throws {
        let refund = try split(
            usd("-30.00"), .equal([aki, bo, chen]), paidBy: [MemberAmount(aki, -2000), MemberAmount(bo, -1000)])
        let transfers = PaidShares.transfers(settling: chen, of: refund)
        #expect(transfers.allSatisfy { $0.to == chen && $0.amount > 0 })
        #expect(transfers.map(\.amount).reduce(0, +) == 1000)
        // Bo received 10.00 and is owed 10.00: nothing moves for Bo.
        #expect(PaidShares.transfers(settling: bo, of: refund).isEmpty)
    }

    @Test("itemized refund with a negative extra, and adjustments, keep the sum and the sign")
    func itemizedAndAdjusted() throws {
        let itemized = try split(
            usd("-11.00"),
            .itemized(
                items: [
                    SplitItem(description: "shoes", amount: -800, rule: .equal([aki])),
                    SplitItem(description: "bag", amount: -400, rule: .equal([bo, chen])),
                ],
                extras: [SplitExtra(description: "restocking fee", amount: 100)]),
            paidBy: [MemberAmount(aki, -1100)])
        #expect(amounts(itemized.owed).reduce(0, +) == -1100)
        #expect(itemized.owed.allSatisfy { $0.amount <= 0 })
        let adjusted = try split(
            usd("-30.00"), .adjustment(members: [aki, bo], adjustments: [MemberAmount(aki, -1000)]),
            paidBy: [MemberAmount(bo, -3000)])
        #expect(adjusted.owed(by: aki) == -2000 && adjusted.owed(by: bo) == -1000)
    }

    @Test("refused: a zero total, a payer above zero on a refund, an exact part above zero, a positive item")
    func refusals() {
        #expect(throws: SplitError.zeroTotal(usd("0"))) {
            try split(usd("0"), .equal([aki]))
        }
        let payerWrongSign = #expect(throws: SplitError.self) {
            try split(usd("-10.00"), .equal([aki, bo]), paidBy: [MemberAmount(aki, -1500), MemberAmount(bo, 500)])
        }
        #expect(payerWrongSign?.field == "paidBy")
        #expect(payerWrongSign?.description.contains("on a refund each payer's amount is below zero") == true)
        #expect(payerWrongSign?.description.contains("5.00 USD") == true, "\(String(describing: payerWrongSign))")
        let exactWrongSign = #expect(throws: SplitError.self) {
            try split(
                usd("-10.00"), .exact([MemberAmount(aki, -1500), MemberAmount(bo, 500)]), paidBy: [MemberAmount(aki, -1000)])
        }
        #expect(exactWrongSign?.field == "split.amounts")
        #expect(exactWrongSign?.description.contains("on a refund it cannot be more than zero") == true)
        let itemWrongSign = #expect(throws: SplitError.self) {
            try split(
                usd("-10.00"),
                .itemized(
                    items: [
                        SplitItem(description: "a", amount: -1500, rule: .equal([aki])),
                        SplitItem(description: "b", amount: 500, rule: .equal([bo])),
                    ], extras: []),
                paidBy: [MemberAmount(aki, -1000)])
        }
        #expect(itemWrongSign?.field == "split.items[1]")
        #expect(itemWrongSign?.description.contains("item 2 is 5.00 USD; on a refund each item is below zero") == true)
        // An expense's payer cannot be below zero either: the signs must agree.
        #expect(throws: SplitError.payerAmountNotPositive(bo, usd("-5.00"))) {
            try split(usd("10.00"), .equal([aki, bo]), paidBy: [MemberAmount(aki, 1500), MemberAmount(bo, -500)])
        }
    }

    @Test("a refund credited in the home currency gives the same rate as the charge")
    func chargedRefund() throws {
        let charge = try ExchangeRate(charged: jpy("4200"), as: Money(minorUnits: 12530, currency: .myr))
        let refund = try ExchangeRate(charged: jpy("-4200"), as: Money(minorUnits: -12530, currency: .myr))
        #expect(charge == refund)
        #expect(throws: ConversionError.chargedAmountsNotPositive) {
            try ExchangeRate(charged: jpy("-4200"), as: Money(minorUnits: 12530, currency: .myr))
        }
        #expect(try refund.convert(jpy("-4200")) == Money(minorUnits: -12530, currency: .myr))
    }
}
