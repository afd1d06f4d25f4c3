import Foundation
import Testing

@testable import SplitServer

/// A stale edit merged part by part with what the expense says now (`ExpenseForm.merged`).
@Suite("Two edits of one expense, merged")
struct ExpenseMergeTests {
    static func form(_ fields: String) -> ExpenseForm {
        // The first of a name counts: what is given comes before the defaults.
        ExpenseForm(form: WebForm(urlEncoded: fields + "&description=Dinner&amount=12.00&currency=EUR&expenseDate=2026-11-20"), members: [])
    }

    static func merge(_ mine: String, _ theirs: String) throws -> ExpenseForm.Merge {
        let base = try #require(ExpenseForm.parts(base: form("").base(homeCurrency: "EUR")))
        return form(mine).merged(base: base, now: form(theirs), homeCurrency: "EUR")
    }

    @Test("amounts compare as saving reads them: \"12\" and \"12,00\" are untouched, \"12,50\" is a change")
    func amountsAsSaved() throws {
        // Found by review: "12,50" read as 12 counted as untouched, and theirs replaced it unsaid.
        var merge = try Self.merge("amount=12%2C50", "amount=13.00")
        #expect(merge.both == [.amount] && merge.form.amount == "12,50")
        merge = try Self.merge("amount=12", "amount=13.00")
        #expect(merge.taken == [.amount] && merge.form.amount == "13.00" && merge.both.isEmpty)
        merge = try Self.merge("amount=%E2%82%AC12.00&description=Supper", "expenseDate=2026-11-21")
        #expect(merge.mine == [.description] && merge.taken == [.date] && merge.both.isEmpty)
        #expect(merge.form.description == "Supper" && merge.form.expenseDate == "2026-11-21")
    }

    @Test("the amount, the currency and what was charged are parts of their own")
    func moneyParts() throws {
        // Found by review: a currency changed beside an amount changed was "you both changed the amount".
        let merge = try Self.merge("currency=GBP", "amount=15.00")
        #expect(merge.taken == [.amount] && merge.mine == [.currency] && merge.both.isEmpty)
        #expect(merge.form.amount == "15.00" && merge.form.currency == "GBP")
        #expect(ExpenseForm.listed([.amount, .currency, .date]) == "the amount, the currency and the date")
    }

    @Test("the same change on both sides is neither taken nor a conflict; nothing changed anywhere merges to itself")
    func sameChange() throws {
        var merge = try Self.merge("description=Supper", "description=Supper")
        #expect(merge.taken.isEmpty && merge.both.isEmpty && merge.mine.isEmpty)
        merge = try Self.merge("", "")
        #expect(merge.taken.isEmpty && merge.both.isEmpty && merge.mine.isEmpty)
        // A base that is not one (a page tampered with, an old page) merges nothing.
        #expect(ExpenseForm.parts(base: "not base64!") == nil && ExpenseForm.parts(base: nil) == nil)
    }
}
