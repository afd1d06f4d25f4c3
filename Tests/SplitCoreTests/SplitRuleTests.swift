import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Split rules: hand-picked cases")
struct SplitRuleTests {
    let a = member(1), b = member(2), c = member(3), d = member(4), e = member(5)

    @Test("1,000 JPY over three: 334 + 333 + 333, no fractions of a yen")
    func jpyThirds() throws {
        let result = try split(jpy("1000"), .equal([a, b, c]))
        #expect(amounts(result.owed).sorted() == [333, 333, 334])
        #expect(amounts(result.owed).reduce(0, +) == 1000)
    }

    @Test("100 USD over three: 33.34 + 33.33 + 33.33")
    func usdThirds() throws {
        let result = try split(usd("100"), .equal([a, b, c]))
        #expect(amounts(result.owed).sorted() == [3333, 3333, 3334])
    }

    @Test("0.03 USD over five people: three owe a cent, two owe nothing, all five are listed")
    func threeCentsOverFive() throws {
        let result = try split(usd("0.03"), .equal([a, b, c, d, e]))
        #expect(result.owed.count == 5)
        #expect(amounts(result.owed).sorted() == [0, 0, 1, 1, 1])
    }

    @Test("the extra cent rotates with the expense id instead of always going to the same person")
    func tieRotation() throws {
        var winners = Set<MemberID>()
        for index in 0..<60 {
            let result = try split(usd("1.00"), .equal([a, b, c]), seed: "expense-\(index)")
            winners.formUnion(result.owed.filter { $0.amount == 34 }.map(\.memberID))
        }
        #expect(winners == [a, b, c])
    }

    @Test("the order members are listed in does not change anyone's share")
    func orderIndependent() throws {
        let forward = try split(usd("100"), .equal([a, b, c]))
        let backward = try split(usd("100"), .equal([c, b, a]))
        #expect(forward == backward)
    }

    @Test("33.33 / 33.33 / 33.34 % of 100.00 USD")
    func percentages() throws {
        let result = try split(
            usd("100"),
            .percent([
                MemberDecimal(a, decimal("33.33")), MemberDecimal(b, decimal("33.33")),
                MemberDecimal(c, decimal("33.34")),
            ]))
        #expect(amounts(result.owed) == [3333, 3333, 3334])
    }

    @Test("percentages that do not make 100 are refused with the sum")
    func percentagesOff() {
        let rule = SplitRule.percent([MemberDecimal(a, decimal("50")), MemberDecimal(b, decimal("49.5"))])
        #expect(throws: SplitError.percentagesDoNotSum(decimal("99.5"))) { try split(usd("10"), rule) }
        #expect(SplitError.percentagesDoNotSum(decimal("99.50")).description == "percentages sum to 99.5%, need 100%")
        #expect(SplitError.percentagesDoNotSum(decimal("99.5")).field == "split.percents")
    }

    @Test("exact amounts that do not make the total are refused with both sums")
    func exactOff() {
        let rule = SplitRule.exact([MemberAmount(a, 600), MemberAmount(b, 550)])
        let expected = SplitError.exactAmountsDoNotSum(sum: jpy("1150"), total: jpy("1200"))
        #expect(throws: expected) { try split(jpy("1200"), rule) }
        #expect(expected.description == "exact amounts sum to 1,150 JPY, the total is 1,200 JPY")
        #expect(expected.field == "split.amounts")
    }

    @Test("a member listed twice is refused, naming the member")
    func duplicate() {
        #expect(throws: SplitError.duplicateMember(a, field: "split.memberIds")) {
            try split(usd("10"), .equal([a, b, a]))
        }
        #expect(
            SplitError.duplicateMember(a, field: "split.memberIds").description
                == "member 00000000-0000-0000-0000-000000000001 appears twice")
        // Named where the caller knows the name, inside items and refunds too.
        let names = { (member: MemberID) in member == a ? "Ben" : nil }
        #expect(SplitError.duplicateMember(a, field: "split.memberIds").description(naming: names) == "Ben appears twice")
        #expect(
            SplitError.inItem(index: 1, .inRefund(.negativeAmount(a, usd("-2"), field: "amounts"))).description(naming: names)
                == "item 2: the amount for Ben is 2.00 USD; on a refund it cannot be more than zero")
        #expect(SplitError.payerAmountNotPositive(b, usd("0")).description(naming: names).hasPrefix("payer 00000000"))
    }

    @Test("shares (weights): 2 : 1 : 1 of 100 USD, and decimal weights")
    func shares() throws {
        let result = try split(
            usd("100"),
            .shares([MemberDecimal(a, decimal("2")), MemberDecimal(b, decimal("1")), MemberDecimal(c, decimal("1"))]))
        #expect(amounts(result.owed) == [5000, 2500, 2500])
        let decimals = try split(
            usd("10"), .shares([MemberDecimal(a, decimal("1.5")), MemberDecimal(b, decimal("0.5"))]))
        #expect(amounts(decimals.owed) == [750, 250])
        #expect(throws: SplitError.weightsAllZero) {
            try split(usd("10"), .shares([MemberDecimal(a, decimal("0")), MemberDecimal(b, decimal("0.00"))]))
        }
    }

    @Test("adjustment: equal plus a per-person difference")
    func adjustment() throws {
        // 100 USD, Aki had 10 USD more; the rest (90) is split equally: 40 / 30 / 30.
        let result = try split(usd("100"), .adjustment(members: [a, b, c], adjustments: [MemberAmount(a, 1000)]))
        #expect(amounts(result.owed) == [4000, 3000, 3000])
        // A negative adjustment: Ben is vegetarian and pays 6 USD less → base 106 / 3.
        let minus = try split(usd("100"), .adjustment(members: [a, b, c], adjustments: [MemberAmount(b, -600)]))
        #expect(amounts(minus.owed).reduce(0, +) == 10_000)
        #expect([2933, 2934].contains(minus.owed(by: b)))
    }

    @Test("an adjustment larger than the share is an error")
    func adjustmentTooLarge() {
        // 30 USD over three, Cho −15: base 45 / 3 = 15 each, Cho would owe 0 — allowed;
        // Cho −21: base 51 / 3 = 17 each, Cho would owe −4 — refused.
        #expect(throws: Never.self) {
            try split(usd("30"), .adjustment(members: [a, b, c], adjustments: [MemberAmount(c, -1500)]))
        }
        #expect(throws: SplitError.negativeShare(c, usd("-4.00"))) {
            try split(usd("30"), .adjustment(members: [a, b, c], adjustments: [MemberAmount(c, -2100)]))
        }
        #expect(throws: SplitError.adjustmentsExceedTotal(base: usd("-5.00"))) {
            try split(usd("30"), .adjustment(members: [a, b], adjustments: [MemberAmount(a, 3500)]))
        }
        #expect(throws: SplitError.adjustmentForNonParticipant(d)) {
            try split(usd("30"), .adjustment(members: [a, b], adjustments: [MemberAmount(d, 100)]))
        }
    }

    @Test("itemized: lines with their own rule, tax and tip spread in proportion")
    func itemized() throws {
        // Ramen 20 (Aki), sushi 60 (Ben and Cho), tax 8 → subtotals 20/30/30, tax 2/3/3.
        let rule = SplitRule.itemized(
            items: [
                SplitItem(description: "ramen", amount: 2000, rule: .equal([a])),
                SplitItem(description: "sushi", amount: 6000, rule: .equal([b, c])),
            ],
            extras: [SplitExtra(description: "tax", amount: 800)])
        let result = try split(usd("88"), rule)
        #expect(amounts(result.owed) == [2200, 3300, 3300])
    }

    @Test("itemized: a discount is spread the same way and can leave no one negative")
    func itemizedDiscount() throws {
        let rule = SplitRule.itemized(
            items: [
                SplitItem(description: "a", amount: 1000, rule: .equal([a])),
                SplitItem(description: "b", amount: 2001, rule: .equal([b])),
            ],
            extras: [SplitExtra(description: "coupon", amount: -1001)])
        let result = try split(usd("20.00"), rule)
        #expect(amounts(result.owed).reduce(0, +) == 2000)
        #expect(result.owed.allSatisfy { $0.amount >= 0 })
    }

    @Test("itemized: errors name the item they come from")
    func itemizedErrors() {
        let wrongSum = SplitRule.itemized(
            items: [SplitItem(description: "x", amount: 500, rule: .equal([a]))], extras: [])
        #expect(throws: SplitError.itemsDoNotSum(sum: usd("5.00"), total: usd("6.00"))) {
            try split(usd("6"), wrongSum)
        }
        let inner = SplitRule.itemized(
            items: [
                SplitItem(description: "x", amount: 500, rule: .equal([a])),
                SplitItem(description: "y", amount: 100, rule: .exact([MemberAmount(a, 99)])),
            ],
            extras: [])
        let expected = SplitError.inItem(index: 1, .exactAmountsDoNotSum(sum: usd("0.99"), total: usd("1.00")))
        #expect(throws: expected) { try split(usd("6"), inner) }
        #expect(expected.field == "split.items[1].split.amounts")
        #expect(expected.description == "item 2: exact amounts sum to 0.99 USD, the total is 1.00 USD")
        let nested = SplitRule.itemized(
            items: [SplitItem(description: "x", amount: 600, rule: wrongSum)], extras: [])
        #expect(throws: SplitError.nestedItemized(index: 0)) { try split(usd("6"), nested) }
    }

    @Test("several payers: amounts must be positive and add up to the total")
    func severalPayers() throws {
        let result = try split(
            jpy("4000"),
            .shares([MemberDecimal(a, decimal("2")), MemberDecimal(b, decimal("1")), MemberDecimal(c, decimal("1"))]),
            paidBy: [MemberAmount(a, 3000), MemberAmount(b, 1000)])
        #expect(result.paid == [MemberAmount(a, 3000), MemberAmount(b, 1000)])
        #expect(amounts(result.owed) == [2000, 1000, 1000])
        #expect(throws: SplitError.payersDoNotSum(sum: jpy("3900"), total: jpy("4000"))) {
            try split(jpy("4000"), .equal([a]), paidBy: [MemberAmount(a, 3000), MemberAmount(b, 900)])
        }
        #expect(throws: SplitError.noPayers) { try split(jpy("4000"), .equal([a]), paidBy: []) }
        #expect(throws: SplitError.payerAmountNotPositive(b, jpy("0"))) {
            try split(jpy("4000"), .equal([a]), paidBy: [MemberAmount(a, 4000), MemberAmount(b, 0)])
        }
        #expect(throws: SplitError.duplicateMember(a, field: "paidBy")) {
            try split(jpy("4000"), .equal([a]), paidBy: [MemberAmount(a, 2000), MemberAmount(a, 2000)])
        }
    }

    @Test("a zero total is refused (a negative one is a refund); so are empty member lists and negative amounts")
    func badInput() {
        #expect(throws: SplitError.zeroTotal(usd("0"))) {
            try split(usd("0"), .equal([a]), paidBy: [MemberAmount(a, 1)])
        }
        #expect(throws: SplitError.noParticipants(field: "split.memberIds")) { try split(usd("1"), .equal([])) }
        #expect(throws: SplitError.negativeAmount(b, usd("-1.00"), field: "split.amounts")) {
            try split(usd("1"), .exact([MemberAmount(a, 200), MemberAmount(b, -100)]))
        }
        #expect(throws: SplitError.negativeWeight(b, decimal("-1"), field: "split.percents")) {
            try split(usd("1"), .percent([MemberDecimal(a, decimal("101")), MemberDecimal(b, decimal("-1"))]))
        }
    }

    @Test("adjustments near the limits of Int64 throw instead of trapping")
    func adjustmentOverflow() {
        let rule = SplitRule.adjustment(
            members: [a, b], adjustments: [MemberAmount(a, .max), MemberAmount(b, -.max + 50)])
        #expect(throws: SplitError.amount(.overflow("adjustments"))) { try split(usd("100"), rule) }
    }

    @Test("KWD has three decimals: 10.000 KWD over three")
    func kwd() throws {
        let result = try split(Money(minorUnits: 10_000, currency: .kwd), .equal([a, b, c]))
        #expect(amounts(result.owed).sorted() == [3333, 3333, 3334])
    }
}
