import Foundation
import SplitCore
import SplitStore
import Testing

@testable import SplitServer

/// The overview's charts: what each member consumed and each category cost, in the home currency.
@Suite("Spending totals for the charts")
struct SpendingTotalsTests {
    let aki = UUID()
    let ben = UUID()
    let cho = UUID()
    let food = UUID()
    let hotel = UUID()

    func expense(
        _ amount: Int64, _ currency: String, category: UUID, shares: [(UUID, Int64)], home: (Int64, String)? = nil,
        deletedShare: UUID? = nil
    ) -> ExpenseRecord {
        var all = shares.map { ShareRecord(id: UUID(), memberID: $0.0, amount: $0.1) }
        if let deletedShare {
            all.append(ShareRecord(id: UUID(), memberID: deletedShare, amount: 999, isRemoved: true))
        }
        return ExpenseRecord(
            id: UUID(), groupID: UUID(), description: "x", amount: amount, currency: currency, categoryID: category,
            expenseDate: "2026-11-21", rule: .equal([]), homeAmount: home?.0, homeCurrency: home?.1,
            createdByUserID: UUID(), createdAt: 0, updatedAt: 0, payers: [PayerRecord(memberID: aki, amount: amount)],
            shares: all)
    }

    @Test("home-currency shares as they are; others through their charged amount, parts adding up to it")
    func totals() throws {
        let expenses = [
            // 3,000 JPY: 1,000 each; a share removed by an edit does not count
            expense(3000, "JPY", category: food, shares: [(aki, 1000), (ben, 1000), (cho, 1000)], deletedShare: ben),
            // 10.00 USD charged as 1,501 JPY, split 3 ways: the parts add up to 1,501
            expense(1000, "USD", category: hotel, shares: [(aki, 334), (ben, 333), (cho, 333)], home: (1501, "JPY")),
            // no home amount, or one in a former home currency: not guessed
            expense(500, "USD", category: food, shares: [(aki, 500)]),
            expense(500, "USD", category: food, shares: [(aki, 500)], home: (4, "EUR")),
        ]
        let totals = SpendingTotals(
            expenses: expenses, categoryNames: [food: "Meal", hotel: "Hotel"], homeCurrency: try Currency(code: "JPY"))
        #expect(totals.unconverted == 2)
        #expect(totals.perCategory.map(\.key) == ["Meal", "Hotel"])
        #expect(totals.perCategory.map(\.value) == [3000, 1501])
        let members = Dictionary(uniqueKeysWithValues: totals.perMember.map { ($0.key, $0.value) })
        // 1,501 × 334/1,000 = 501.3 and × 333/1,000 = 499.8 twice: 501 + 500 + 500
        let expected: [String: Int64] = [aki.text: 1000 + 501, ben.text: 1000 + 500, cho.text: 1000 + 500]
        #expect(members == expected)
    }

    @Test("without a charged amount, an expense counts at the group's latest rate for its currency, as Settle up converts")
    func groupRates() throws {
        let jpy = try Currency(code: "JPY")
        let usd = try Currency(code: "USD")
        let rates = [
            DatedRate(try ExchangeRate(from: usd, to: jpy, rate: DecimalValue(parsing: "140")), date: "2026-11-01"),
            // the latest counts; given the other way round (1 JPY = 0.0066 USD, so 1 USD ≈ 151.5 JPY)
            DatedRate(try ExchangeRate(from: jpy, to: usd, rate: DecimalValue(parsing: "0.0066")), date: "2026-11-20"),
        ]
        let expenses = [
            // 10.00 USD, 3 ways: 1,515.15… JPY, rounded once to 1,515 and apportioned
            expense(1000, "USD", category: food, shares: [(aki, 334), (ben, 333), (cho, 333)]),
            // a charged amount wins over the rate
            expense(1000, "USD", category: hotel, shares: [(aki, 1000)], home: (1600, "JPY")),
            // a currency without any rate is still not guessed
            expense(500, "EUR", category: food, shares: [(aki, 500)]),
        ]
        let totals = SpendingTotals(
            expenses: expenses, categoryNames: [food: "Meal", hotel: "Hotel"], homeCurrency: jpy, rates: rates)
        #expect(totals.unconverted == 1)
        #expect(Dictionary(uniqueKeysWithValues: totals.perCategory.map { ($0.key, $0.value) }) == ["Meal": 1515, "Hotel": 1600])
        let members = Dictionary(uniqueKeysWithValues: totals.perMember.map { ($0.key, $0.value) })
        #expect(members.values.reduce(0, +) == 1515 + 1600)
        // 1,515 × 334/1,000 = 506.0, × 333/1,000 = 504.5 twice: one of Ben and Cho gets the unit
        #expect(members[aki.text] == Int64(506 + 1600), "\(members)")
        #expect(Set([members[ben.text] ?? 0, members[cho.text] ?? 0]) == [504, 505], "\(members)")
    }

    @Test("a refund counts against what its category and its sharers spent, also when charged in the home currency")
    func refunds() throws {
        let expenses = [
            expense(3000, "JPY", category: food, shares: [(aki, 1000), (ben, 1000), (cho, 1000)]),
            // 1,200 JPY of it came back, shared by Aki and Ben
            expense(-1200, "JPY", category: food, shares: [(aki, -600), (ben, -600)]),
            // a 10.00 USD hotel charged as 1,500 JPY, and 4.00 USD of it credited back as -600 JPY
            expense(1000, "USD", category: hotel, shares: [(aki, 500), (cho, 500)], home: (1500, "JPY")),
            expense(-400, "USD", category: hotel, shares: [(aki, -200), (cho, -200)], home: (-600, "JPY")),
        ]
        let totals = SpendingTotals(
            expenses: expenses, categoryNames: [food: "Meal", hotel: "Hotel"], homeCurrency: try Currency(code: "JPY"))
        #expect(totals.unconverted == 0)
        #expect(Dictionary(uniqueKeysWithValues: totals.perCategory.map { ($0.key, $0.value) }) == ["Meal": 1800, "Hotel": 900])
        let members = Dictionary(uniqueKeysWithValues: totals.perMember.map { ($0.key, $0.value) })
        let expected: [String: Int64] = [aki.text: 400 + 450, ben.text: 400, cho.text: 1000 + 450]
        #expect(members == expected)
    }

    @Test("totals past Int64 draw no chart instead of trapping (issue 14 item 2)")
    func overflowDrawsNothing() throws {
        // 1,000,000 expenses of the largest amount add up past Int64; two near Int64.max show it
        let near = Int64.max / 2 + 1
        let expenses = [
            expense(near, "JPY", category: food, shares: [(aki, near)]),
            expense(near, "JPY", category: food, shares: [(aki, near)]),
        ]
        let totals = SpendingTotals(
            expenses: expenses, categoryNames: [food: "Meal"], homeCurrency: try Currency(code: "JPY"))
        #expect(totals.tooLarge)
        #expect(totals.perCategory.isEmpty && totals.perMember.isEmpty)
    }
}
