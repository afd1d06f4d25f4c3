import SplitCore
import Testing

@Suite("The assistant's reading of a message")
struct AssistantIntentTests {
    @Test(
        "questions and commands in their usual phrasings",
        arguments: [
            ("yes", AssistantIntent.confirm), ("OK.", .confirm), ("save it", .confirm), ("no", .cancel),
            ("never mind", .cancel), ("undo", .undo), ("Undo that!", .undo), ("help", .help),
            ("How much do I owe?", .myBalance), ("am I owed anything", .myBalance), ("what’s my balance", .myBalance),
            ("Who owes whom?", .whoOwes), ("how do we settle up", .settle), ("How is our budget?", .budget),
            ("mark my ramen paid", .markPaid("ramen")), ("Mark the hotel deposit as paid", .markPaid("hotel deposit")),
            ("ask Bo for what he owes", .askPayment(name: "Bo", amount: nil)),
            ("Ask Chen for 30 EUR", .askPayment(name: "Chen", amount: "30 EUR")),
            ("ask bo to pay", .askPayment(name: "bo", amount: nil)),
            // Found by review: money that moved had no way in.
            (
                "Ben paid me back 19.13",
                .transfer(from: "Ben", to: "me", amount: "19.13", currency: nil, line: "Ben paid me back 19.13")
            ),
            (
                "I paid Chloé 2.25 usd.",
                .transfer(from: "I", to: "Chloé", amount: "2.25", currency: "USD", line: "I paid Chloé 2.25 usd.")
            ),
            (
                "Bo paid me back 2000 yen",
                .transfer(from: "Bo", to: "me", amount: "2000", currency: "YEN", line: "Bo paid me back 2000 yen")
            ),
            // A word after the amount that is no currency: no transfer of this form (found by review).
            ("Bo paid me 20 yesterday", .addExpense("Bo paid me 20 yesterday")),
            // The asking is not the description (found by a new user: "add dinner" was saved).
            ("add dinner 30 EUR paid by ben, all", .addExpense("dinner 30 EUR paid by ben, all")),
            ("Add an expense: Taxi 12", .addExpense("Taxi 12")),
            // Found by review: questions it had no answer for were read as expenses.
            ("How much does Chloé owe?", .balanceOf("Chloé")), ("what does Bo owe me", .balanceOf("Bo")),
            ("Is Chen owed anything?", .balanceOf("Chen")), ("Bo's balance", .balanceOf("Bo")),
            ("What’s Bo’s balance?", .balanceOf("Bo")), ("show Chloé Martin's balance", .balanceOf("Chloé Martin")),
            ("Does anyone owe me?", .whoOwes), ("how much does each person owe", .whoOwes),
            ("What does the group owe", .whoOwes), ("How much budget is left to spend?", .budget),
            ("what do I owe Ben?", .iOwe("Ben")), ("How much do I owe Chloé Martin now", .iOwe("Chloé Martin")),
            ("how much do I owe in total?", .myBalance), ("Do I owe anyone?", .myBalance),
            ("how much did Ben spend?", .personSpent("Ben")), ("How much have we spent together?", .spent(on: nil)),
            ("What do I owe to Ben?", .iOwe("Ben")), ("Do I owe money to anyone?", .myBalance),
            ("what do I owe for the hotel?", .myBalance), ("who do I owe the most?", .myBalance),
            ("How much has been spent on food?", .spent(on: "food")), ("how much did our group spend", .spent(on: nil)),
            ("BEN'S balance", .balanceOf("BEN")), ("what's the group's balance", .whoOwes),
            ("how much does everyone owe", .whoOwes), ("How much did we spend on food?", .spent(on: "food")),
            ("how much have we spent", .spent(on: nil)), ("Who paid the most?", .most(byShare: false)),
            ("how much did we spend in November?", .spent(on: nil, month: .named(11))),
            ("How much did we spend on transport in nov", .spent(on: "transport", month: .named(11))),
            ("how much did we spend last month on food", .spent(on: "food", month: .last)),
            ("how much have we spent this month", .spent(on: nil, month: .this)),
            ("how much did we spend in may", .spent(on: nil, month: .named(5))),
            ("how much did we spend in november, on food", .spent(on: "food", month: .named(11))),
            ("how much did we spend on gifts for jan", .spent(on: "gifts for jan", month: nil)),
            // Who paid and spent what, for one person or the most (the note's "Left": they were
            // "I cannot answer that yet").
            ("who has spent the most this month?", .most(byShare: true, month: .this)),
            ("who paid most in November", .most(byShare: false, month: .named(11))),
            ("How much did I spend?", .personSpent("I")), ("how much have I paid so far", .personSpent("I")),
            ("how much has Chloé Martin paid in may", .personSpent("Chloé Martin", month: .named(5))),
            ("What did Bo spend last month?", .personSpent("Bo", month: .last)),
            ("how much did we pay", .spent(on: nil)), ("how much did we pay for food", .spent(on: "food")),
            ("what did I pay for the hotel?", .unknownQuestion), ("how much did Bo pay me back", .unknownQuestion),
            ("what did we pay Ben", .unknownQuestion), ("who owes the most?", .whoOwes),
            // A year after a month is no amount (it was read as an expense line).
            ("how much did we spend in November 2025", .spent(on: nil, month: .dated(year: 2025, month: 11))),
            ("how much did I spend in nov 2025?", .personSpent("I", month: .dated(year: 2025, month: 11))),
            ("Hotel November 2025", .addExpense("Hotel November 2025")),
            // Found by review: the category or a year was dropped from the question, or the line
            // became one.
            ("who spent the most on food?", .unknownQuestion), ("who paid the most for the hotel?", .unknownQuestion),
            ("who paid the most in 2025?", .unknownQuestion), ("how much did I spend in 2025?", .unknownQuestion),
            ("how much did we spend in 2025?", .unknownQuestion),
            ("Budget hotel Nov 2000", .addExpense("Budget hotel Nov 2000")),
            ("Settlement fee Dec 2000", .addExpense("Settlement fee Dec 2000")),
            ("how much did we spend in may 2025", .spent(on: nil, month: .dated(year: 2025, month: 5))),
            // The month as the answers write it (found by a new user).
            ("how much did Bo pay in 2026-11", .personSpent("Bo", month: .dated(year: 2026, month: 11))),
            ("how much did we spend in 2026-11?", .spent(on: nil, month: .dated(year: 2026, month: 11))),
            ("who paid the most in 2026-11?", .most(byShare: false, month: .dated(year: 2026, month: 11))),
            ("what is the weather like", .unknownQuestion), ("Dinner?", .unknownQuestion),
            (
                "Taxi paid by Bo 20",
                .transfer(from: "Taxi", to: "by Bo", amount: "20", currency: nil, line: "Taxi paid by Bo 20")
            ),
        ])
    func phrasings(message: String, intent: AssistantIntent) {
        #expect(AssistantIntent.classify(message) == intent)
    }

    @Test("anything else is an expense line, kept as typed", arguments: [
        "Ramen ¥1200 paid by Aki, all", "Taxi 45.50 MYR Bo Chen", "Mark's birthday cake 40 EUR", "Paid parking 5", "Yes coffee 3",
        "Settlement fee 20 USD", "Budget hotel 5000 JPY", "Who owes me 12 for the cake",
    ])
    func expenses(message: String) {
        #expect(AssistantIntent.classify(message) == .addExpense(message))
    }

    @Test("a month named is the latest such month up to today, in the group's year")
    func months() {
        let today = CivilDate("2026-12-06")!
        #expect(AskedMonth.named(11).month(from: today) == "2026-11")
        #expect(AskedMonth.named(12).month(from: today) == "2026-12")
        #expect(AskedMonth.last.month(from: CivilDate("2027-01-03")!) == "2026-12")
        #expect(AskedMonth.this.month(from: today) == "2026-12")
        #expect(AskedMonth.named(2).month(from: CivilDate("2027-01-15")!) == "2026-02")
        #expect(AskedMonth.dated(year: 2025, month: 11).month(from: today) == "2025-11")
    }
}
