import Foundation
import HTTPTypes
import NIOCore
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// A group with three members with accounts (Aki owns it) and a name-only Dan.
struct Trip: Sendable {
    var groupID: String
    var tokens: [String: String]  // by name
    var members: [String: String]  // member ids by name

    static func make(_ api: API, home: String = "JPY") async throws -> Trip {
        var tokens: [String: String] = [:]
        for name in ["Aki", "Ben", "Cho"] { tokens[name] = try await api.register(name).token }
        let created = try await api.call(
            .post, "/api/groups", token: tokens["Aki"], json: #"{"name":"Japan","homeCurrency":"\#(home)"}"#)
        let groupID = try #require(created.string("group", "id"))
        let code = try #require(created.string("group", "inviteCode"))
        var members = ["Aki": try #require(created.string("group", "myMemberId"))]
        for name in ["Ben", "Cho"] {
            let joined = try await api.call(
                .post, "/api/groups/join", token: tokens[name], json: #"{"inviteCode":"\#(code)"}"#)
            let id = try #require(joined.string("member", "id"))
            members[name] = id
        }
        let dan = try await api.call(
            .post, "/api/groups/\(groupID)/members", token: tokens["Aki"], json: #"{"name":"Dan"}"#)
        let danID = try #require(dan.string("member", "id"))
        members["Dan"] = danID
        return Trip(groupID: groupID, tokens: tokens, members: members)
    }

    func expense(
        _ description: String, _ amount: String, _ currency: String, paidBy: [(String, String)], split: String,
        extra: String = ""
    ) -> String {
        let payers = paidBy.map { #"{"memberId":"\#(members[$0.0]!)","amount":"\#($0.1)"}"# }.joined(separator: ",")
        return #"""
            {"groupId":"\#(groupID)","description":"\#(description)","amount":"\#(amount)","currency":"\#(currency)",
             "expenseDate":"2026-11-20","paidBy":[\#(payers)],"split":\#(split)\#(extra)}
            """#
    }

    func ids(_ names: [String]) -> String { names.map { #""\#(members[$0]!)""# }.joined(separator: ",") }

    /// An equal split among these members, as the API takes it.
    func equal(_ names: [String]) -> String { #"{"mode":"equal","memberIds":[\#(ids(names))]}"# }

    /// Nets by "currency/name" from the balances route.
    func balances(_ api: API) async throws -> [String: String] {
        let reply = try await api.call(.get, "/api/groups/\(groupID)/balances", token: tokens["Aki"])
        var names: [String: String] = [:]
        for (name, id) in members { names[id] = name }
        var result: [String: String] = [:]
        for entry in reply.list("balances") {
            result["\(entry.string("currency")!)/\(names[entry.string("memberId")!]!)"] = entry.string("net")
        }
        return result
    }
}

@Suite("Expenses over HTTP")
struct ExpenseTests {
    @Test(
        "an edit that moves the part of someone who left is a 409 saying what it changes, and nothing is written; confirmed, it goes through",
        arguments: TestDatabases.all)
    func removedShareChanged(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api, home: "EUR")
            let aki = trip.tokens["Aki"]
            let made = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Cleaning", "45.00", "EUR", paidBy: [("Aki", "45.00")], split: trip.equal(["Aki", "Ben", "Cho"])))
            let id = try #require(made.string("expense", "id"))
            let museum = try #require(
                try await api.call(
                    .post, "/api/expenses", token: aki,
                    json: trip.expense("Museum", "30.00", "USD", paidBy: [("Aki", "30.00")], split: trip.equal(["Aki", "Ben", "Cho"]))
                ).string("expense", "id"))
            // Cho leaves, owing 15.00.
            let left = try await api.call(
                .delete, "/api/groups/\(trip.groupID)/members/\(trip.members["Cho"]!)?confirmBalance=true", token: trip.tokens["Cho"])
            try #require(left.status == .ok, "\(left.text)")
            let before = try await trip.balances(api)

            // act: a new total (Cho's share would be 16.67), then a new name only
            let dearer = try await api.call(.patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"50.00","version":1}"#)
            let renamed = try await api.call(.patch, "/api/expenses/\(id)", token: aki, json: #"{"description":"Cleaner","version":1}"#)

            // validate
            #expect(dearer.status == .conflict && dearer.string("error", "code") == "removed_share_changed", "\(dearer.text)")
            // 50.00 in three: which of them has the extra cent follows the expense's id.
            let share = ["16.66", "16.67"].first { dearer.string("error", "message")?.contains("to \($0) EUR,") == true }
            #expect(
                dearer.string("error", "message")
                    == "Cho (left) is no longer in the group; this changes their share from 15.00 EUR to \(share ?? "?") EUR, "
                    + "so they would owe \(share == "16.66" ? "1.66" : "1.67") EUR more. "
                    + "Change it anyway? Their balance moves by it, though they are no longer here to see it.",
                "\(dearer.text)")
            #expect(dearer.string("error", "details", "field") == "confirmRemovedShares")
            #expect(renamed.status == .ok && renamed.int("expense", "version") == 2, "\(renamed.text)")
            #expect(try await trip.balances(api) == before)
            let confirmed = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"50.00","confirmRemovedShares":true,"version":2}"#)
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            #expect(try await trip.balances(api)["EUR/Cho"] == "-\(share ?? "?")")
            // A charged amount alone moves her balance in euros too: asked (found by review).
            let charged = try await api.call(.patch, "/api/expenses/\(museum)", token: aki, json: #"{"homeAmount":"28.00","version":1}"#)
            #expect(
                charged.status == .conflict
                    && charged.string("error", "message")?.hasPrefix(
                        "Cho (left) is no longer in the group; this changes what their part counts in the home currency "
                            + "(at the group's rate, now charged 28.00 EUR).") == true,
                "\(charged.text)")
            // The activity says what it was before the new total; a new name alone says no "was".
            let activity = try await api.call(.get, "/api/groups/\(trip.groupID)/activity", token: aki).list("activity")
                .compactMap { $0.string("summary") }
            #expect(activity.contains("Aki changed Cleaner (50.00 EUR, was 45.00 EUR)"), "\(activity)")
            #expect(activity.contains("Aki changed Cleaner (45.00 EUR)"), "\(activity)")
        }
    }

    @Test(
        "deleting or restoring an expense that counts the part of someone who left is a 409 saying what it moves; confirmed, it goes through; one without them is not asked",
        arguments: TestDatabases.all)
    func removedShareDeleted(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api, home: "EUR")
            let aki = trip.tokens["Aki"]
            func make(_ name: String, _ sharers: [String]) async throws -> String {
                try #require(
                    try await api.call(
                        .post, "/api/expenses", token: aki,
                        json: trip.expense(name, "45.00", "EUR", paidBy: [("Aki", "45.00")], split: trip.equal(sharers))
                    ).string("expense", "id"))
            }
            let cleaning = try await make("Cleaning", ["Aki", "Ben", "Cho"])
            let bread = try await make("Bread", ["Aki", "Ben"])
            // Cho paid exactly her own share of this one: her balance does not move with it.
            let snacks = try #require(
                try await api.call(
                    .post, "/api/expenses", token: aki,
                    json: trip.expense(
                        "Snacks", "45.00", "EUR", paidBy: [("Aki", "30.00"), ("Cho", "15.00")], split: trip.equal(["Aki", "Ben", "Cho"]))
                ).string("expense", "id"))
            let left = try await api.call(
                .delete, "/api/groups/\(trip.groupID)/members/\(trip.members["Cho"]!)?confirmBalance=true", token: trip.tokens["Cho"])
            try #require(left.status == .ok, "\(left.text)")
            let before = try await trip.balances(api)

            // act: deleted without, then with the confirmation; restored likewise; Bread without
            let asked = try await api.call(.delete, "/api/expenses/\(cleaning)", token: aki, headers: [.ifMatch: "1"])
            let unchanged = try await trip.balances(api)
            let deleted = try await api.call(.delete, "/api/expenses/\(cleaning)?confirmRemovedShares=true", token: aki)
            let askedBack = try await api.call(.post, "/api/expenses/\(cleaning)/restore", token: aki)
            let restored = try await api.call(.post, "/api/expenses/\(cleaning)/restore?confirmRemovedShares=true", token: aki)
            let breadGone = try await api.call(.delete, "/api/expenses/\(bread)", token: aki)
            let snacksGone = try await api.call(.delete, "/api/expenses/\(snacks)", token: aki)

            // validate
            #expect(asked.status == .conflict && asked.string("error", "code") == "removed_share_changed", "\(asked.text)")
            #expect(
                asked.string("error", "message")
                    == "Cho (left) is no longer in the group; this changes their share from 15.00 EUR to 0.00 EUR, so they would be owed 15.00 EUR more. "
                    + "Delete it anyway? Their balance moves by it, though they are no longer here to see it.",
                "\(asked.text)")
            #expect(asked.string("error", "details", "field") == "confirmRemovedShares")
            #expect(unchanged == before)
            #expect(deleted.status == .ok && deleted.bool("expense", "isDeleted") == true, "\(deleted.text)")
            #expect(
                askedBack.status == .conflict
                    && askedBack.string("error", "message")?.hasPrefix(
                        "Cho (left) is no longer in the group; this changes their share from 0.00 EUR to 15.00 EUR, so they would owe 15.00 EUR more. Restore it anyway?") == true,
                "\(askedBack.text)")
            #expect(restored.status == .ok && restored.bool("expense", "isDeleted") == false, "\(restored.text)")
            #expect(breadGone.status == .ok, "\(breadGone.text)")
            #expect(snacksGone.status == .ok, "Cho's balance does not move: not asked. \(snacksGone.text)")
            // Asked again of one already as asked: answered as it is, not asked.
            let again = try await api.call(.post, "/api/expenses/\(cleaning)/restore", token: aki)
            #expect(again.status == .ok, "\(again.text)")
        }
    }

    @Test("payers that do not sum and a split that does not hold are said together, each at its field", arguments: [Database.Backend.sqlite])
    func payersAndSplitRefusedTogether(backend: Database.Backend) async throws {
        // Found by a new user: "One thing to fix" named the payers; the percentages summing to
        // 90 were said only once the payers were mended.
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            // Percentages that come to 90, paid by Aki as `paid`.
            func boat(paid: String) async throws -> Reply {
                try await api.call(
                    .post, "/api/expenses", token: trip.tokens["Aki"],
                    json: trip.expense(
                        "Boat", "1200", "JPY", paidBy: [("Aki", paid)],
                        split:
                            #"{"mode":"percent","percents":[{"memberId":"\#(trip.members["Aki"]!)","percent":"60"},{"memberId":"\#(trip.members["Ben"]!)","percent":"30"}]}"#
                    ))
            }
            let reply = try await boat(paid: "1000")
            #expect(reply.status == .unprocessableContent, "\(reply.text)")
            #expect(
                reply.list("error", "details", "fields").compactMap { $0.string("field") } == ["paidBy", "split.percents"],
                "\(reply.text)")
            // The split alone wrong: said alone.
            let alone = try await boat(paid: "1200")
            #expect(alone.status == .unprocessableContent && alone.string("error", "details", "field") == "split.percents", "\(alone.text)")
        }
    }

    @Test(
        "a trip in two currencies with every split mode and several payers balances to zero",
        arguments: TestDatabases.all)
    func wholeTrip(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let bodies = [
                trip.expense(
                    "Hotel", "30000", "JPY", paidBy: [("Aki", "20000"), ("Ben", "10000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#),
                trip.expense(
                    "Taxi", "100", "JPY", paidBy: [("Cho", "100")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#),
                trip.expense(
                    "Sushi", "12000", "JPY", paidBy: [("Ben", "12000")],
                    split:
                        #"{"mode":"adjustment","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho", "Dan"]))],"adjustments":[{"memberId":"\#(trip.members["Dan"]!)","amount":"-600"}]}"#
                ),
                trip.expense(
                    "Tickets", "9000", "JPY", paidBy: [("Aki", "9000")],
                    split:
                        #"{"mode":"exact","amounts":[{"memberId":"\#(trip.members["Ben"]!)","amount":"4500"},{"memberId":"\#(trip.members["Cho"]!)","amount":"4500"}]}"#
                ),
                trip.expense(
                    "Souvenirs", "100.00", "USD", paidBy: [("Cho", "100.00")],
                    split:
                        #"{"mode":"percent","percents":[{"memberId":"\#(trip.members["Aki"]!)","percent":"33.33"},{"memberId":"\#(trip.members["Ben"]!)","percent":"33.33"},{"memberId":"\#(trip.members["Cho"]!)","percent":"33.34"}]}"#
                ),
                trip.expense(
                    "Izakaya", "0.03", "USD", paidBy: [("Aki", "0.03")],
                    split:
                        #"{"mode":"shares","shares":[\#(["Aki", "Ben", "Cho", "Dan"].map { #"{"memberId":"\#(trip.members[$0]!)","shares":"1"}"# }.joined(separator: ","))]}"#
                ),
                trip.expense(
                    "Dinner", "50.00", "USD", paidBy: [("Ben", "50.00")],
                    split:
                        #"{"mode":"itemized","items":[{"description":"Ramen","amount":"20.00","split":{"mode":"equal","memberIds":[\#(trip.ids(["Aki"]))]}},{"description":"Steak","amount":"25.00","split":{"mode":"equal","memberIds":[\#(trip.ids(["Ben", "Cho"]))]}}],"extras":[{"description":"Tip","amount":"5.00"}]}"#
                ),
            ]
            for body in bodies {
                let reply = try await api.call(.post, "/api/expenses", token: aki, json: body)
                try #require(reply.status == .created, "\(reply.text)")
            }
            // The seed's shape too: one payer, exact splits.
            let seed = try await api.call(
                .post, "/api/expenses", token: trip.tokens["Ben"],
                json: #"""
                    {"groupId":"\#(trip.groupID)","description":"Coffee","amount":"900","currency":"JPY","expenseDate":"2026-11-21",
                     "paidByMemberId":"\#(trip.members["Ben"]!)","splits":[{"memberId":"\#(trip.members["Aki"]!)","amount":"450"},
                     {"memberId":"\#(trip.members["Ben"]!)","amount":"450"}]}
                    """#)
            #expect(seed.status == .created && seed.string("expense", "split", "mode") == "exact")

            let nets = try await trip.balances(api)
            for currency in ["JPY", "USD"] {
                let total = try nets.filter { $0.key.hasPrefix(currency) }.map {
                    try Money(parsing: $0.value, currency: Currency(code: currency), allowNegative: true).minorUnits
                }.reduce(0, +)
                #expect(total == 0, "\(currency) nets: \(nets)")
            }
            // Hotel 30,000 over 3 + Taxi 100 over 3 (34/33/33 rotated) + Sushi … exact to the yen.
            #expect(nets["JPY/Dan"] == "-2550")  // 12000/4 − 600 + …: Dan owes only sushi, 3000 − 600 + 150
            // The plan settles every JPY balance in at most n − 1 transfers.
            let plan = try await api.call(.get, "/api/groups/\(trip.groupID)/settlement-plan?currency=JPY", token: aki)
            #expect(plan.list("transfers").count <= 3)
            let usdPlan = try await api.call(
                .get, "/api/groups/\(trip.groupID)/settlement-plan?currency=USD", token: aki)
            #expect(usdPlan.string("currency") == "USD")
            // Without a USD→JPY rate there is no home view; with one, it sums to zero.
            let before = try await api.call(.get, "/api/groups/\(trip.groupID)/balances", token: aki)
            #expect(before.strings("missingRates") == ["USD"] && before.list("home").isEmpty)
            let rates = try await api.call(
                .put, "/api/groups/\(trip.groupID)/rates", token: aki,
                json: #"{"rates":[{"fromCurrency":"USD","toCurrency":"JPY","date":"2026-11-20","rate":"150.25"}]}"#)
            #expect(rates.status == .ok)
            // The activity line says which rate was set.
            let activity = try await api.call(.get, "/api/groups/\(trip.groupID)/activity", token: aki)
            #expect(
                activity.list("activity").first?.string("summary")?
                    .hasSuffix(" set the exchange rate 1 USD = 150.25 JPY from 2026-11-20") == true,
                "\(activity.text.prefix(500))")
            let after = try await api.call(.get, "/api/groups/\(trip.groupID)/balances", token: aki)
            let home = try after.list("home").map {
                try Money(parsing: $0.string("net")!, currency: .jpy, allowNegative: true).minorUnits
            }
            #expect(!home.isEmpty && home.reduce(0, +) == 0)
            let debts = try await api.call(.get, "/api/groups/\(trip.groupID)/debts", token: aki)
            #expect(debts.status == .ok && !debts.list("debts").isEmpty)
        }
    }

    @Test("invalid money and members are a 422 that names the field, and create nothing", arguments: TestDatabases.all)
    func badExpenses(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let other = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let everyone = #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#
            _ = try await api.call(.delete, "/api/groups/\(trip.groupID)/members/\(trip.members["Dan"]!)", token: aki)
            let cases: [(String, String)] = [
                (trip.expense("Bad", "12.345", "USD", paidBy: [("Aki", "12.345")], split: everyone), "amount"),
                (trip.expense("Bad", "1200.5", "JPY", paidBy: [("Aki", "1200.5")], split: everyone), "amount"),
                (trip.expense("Bad", "0", "JPY", paidBy: [("Aki", "0")], split: everyone), "amount"),
                // A negative total is a refund: a payer above zero does not fit it.
                (trip.expense("Bad", "-5", "JPY", paidBy: [("Aki", "5")], split: everyone), "paidBy"),
                (trip.expense("Bad", "100", "XXY", paidBy: [("Aki", "100")], split: everyone), "currency"),
                (trip.expense("Bad", "100", "JPY", paidBy: [("Aki", "90")], split: everyone), "paidBy"),
                (
                    trip.expense(
                        "Bad", "100", "JPY", paidBy: [("Aki", "100")],
                        split:
                            #"{"mode":"exact","amounts":[{"memberId":"\#(trip.members["Aki"]!)","amount":"60"},{"memberId":"\#(trip.members["Ben"]!)","amount":"30"}]}"#
                    ), "split.amounts"
                ),
                (
                    trip.expense(
                        "Bad", "100", "JPY", paidBy: [("Aki", "100")],
                        split:
                            #"{"mode":"percent","percents":[{"memberId":"\#(trip.members["Aki"]!)","percent":"50"},{"memberId":"\#(trip.members["Ben"]!)","percent":"49"}]}"#
                    ), "split.percents"
                ),
                (
                    trip.expense(
                        "Bad", "100", "JPY", paidBy: [("Aki", "100")],
                        split: #"{"mode":"equal","memberIds":["\#(other.members["Ben"]!)"]}"#), "split.memberIds[0]"
                ),
                (
                    trip.expense(
                        "Bad", "100", "JPY", paidBy: [("Aki", "100")],
                        split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Dan"]))]}"#), "split.memberIds[0]"
                ),
                (
                    trip.expense("Bad", "100", "JPY", paidBy: [("Aki", "100")], split: #"{"mode":"shares"}"#),
                    "split.shares"
                ),
                (trip.expense("", "100", "JPY", paidBy: [("Aki", "100")], split: everyone), "description"),
            ]
            for (body, field) in cases {
                let reply = try await api.call(.post, "/api/expenses", token: aki, json: body)
                #expect(reply.status == .unprocessableContent, "\(field): \(reply.text)")
                #expect(reply.string("error", "details", "field") == field, "\(reply.text)")
            }
            // A member is named in the message, never by a raw id (found by review).
            let twice = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Bad", "100", "JPY", paidBy: [("Aki", "100")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Ben", "Ben"]))]}"#))
            #expect(twice.text.contains("Ben appears twice") && !twice.text.contains("member \(trip.members["Ben"]!)"), "\(twice.text)")
            let refund = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Bad", "-100", "JPY", paidBy: [("Aki", "-100")],
                    split:
                        #"{"mode":"exact","amounts":[{"memberId":"\#(trip.members["Aki"]!)","amount":"-200"},{"memberId":"\#(trip.members["Ben"]!)","amount":"100"}]}"#))
            #expect(refund.text.contains("the amount for Ben is 100 JPY; on a refund it cannot be more than zero"), "\(refund.text)")
            // A payer from another group is the same 422.
            let foreignPayer = #"""
                {"groupId":"\#(trip.groupID)","description":"X","amount":"100","currency":"JPY","expenseDate":"2026-11-20",
                 "paidByMemberId":"\#(other.members["Aki"]!)"}
                """#
            let reply = try await api.call(.post, "/api/expenses", token: aki, json: foreignPayer)
            #expect(
                reply.status == .unprocessableContent && reply.string("error", "details", "field") == "paidByMemberId")
            let bad = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Bad", "100", "JPY", paidBy: [("Aki", "100")], split: everyone).replacingOccurrences(
                    of: "2026-11-20", with: "2026-02-30"))
            #expect(bad.status == .unprocessableContent || bad.status == .badRequest)
            let list = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: aki)
            #expect(list.list("expenses").isEmpty)
            #expect(try await trip.balances(api).isEmpty)
        }
    }

    @Test(
        "a batch handles each item as the single create would, in order; sent again it creates nothing",
        arguments: TestDatabases.all)
    func batch(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let equal = #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#
            let good = trip.expense("Lunch", "3000", "JPY", paidBy: [("Aki", "3000")], split: equal)
            let badMoney = trip.expense("Odd", "1200.5", "JPY", paidBy: [("Aki", "1200.5")], split: equal)
            let second = trip.expense("Taxi", "1000", "JPY", paidBy: [("Ben", "1000")], split: equal)
            let items = [("k1", good), ("k2", badMoney), ("k3", second)]
                .map { #"{"idempotencyKey":"\#($0.0)","expense":\#($0.1)}"# }.joined(separator: ",")
            let batch = #"{"items":[\#(items)]}"#

            // act
            let first = try await api.call(.post, "/api/expenses/batch", token: aki, json: batch)
            let again = try await api.call(.post, "/api/expenses/batch", token: aki, json: batch)

            // validate: one result per item, in order; the bad one names its field, the rest went in
            #expect(first.status == .ok)
            let results = first.list("results")
            #expect(results.map { $0.int("status") } == [201, 422, 201])
            #expect(results.map { $0.string("expense", "description") } == ["Lunch", nil, "Taxi"])
            #expect(results[1].string("failure", "error", "details", "field") == "amount")
            // the same batch again answers the same and creates nothing new
            #expect(
                again.list("results").map { $0.string("expense", "id") } == results.map { $0.string("expense", "id") })
            let list = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: aki)
            #expect(list.list("expenses").compactMap { $0.string("description") }.sorted() == ["Lunch", "Taxi"])
            #expect(try await trip.balances(api)["JPY/Aki"] == "1000")

            // a key used by a single create answers from it: the two paths are one
            let single = trip.expense("Dinner", "2000", "JPY", paidBy: [("Aki", "2000")], split: equal)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "dinner-1"]
            let direct = try await api.call(.post, "/api/expenses", token: aki, json: single, headers: key)
            let batched = try await api.call(
                .post, "/api/expenses/batch", token: aki,
                json: #"{"items":[{"idempotencyKey":"dinner-1","expense":\#(single)}]}"#)
            #expect(batched.list("results").first?.string("expense", "id") == direct.string("expense", "id"))

            // refusals are per item and change nothing; no session is one 401; limits are a 422
            try await api.call(
                .patch, "/api/groups/\(trip.groupID)/members/\(trip.members["Cho"]!)", token: aki,
                json: #"{"role":"viewer"}"#)
            let viewer = try await api.call(.post, "/api/expenses/batch", token: trip.tokens["Cho"], json: batch)
            #expect(viewer.list("results").map { $0.int("status") } == [403, 403, 403])
            let outsider = try await api.register("Eve").token
            let foreign = try await api.call(.post, "/api/expenses/batch", token: outsider, json: batch)
            #expect(foreign.list("results").map { $0.int("status") } == [404, 404, 404])
            #expect(try await api.call(.post, "/api/expenses/batch", json: batch).status == .unauthorized)
            let tooMany =
                #"{"items":[\#(Array(repeating: #"{"expense":\#(good)}"#, count: 201).joined(separator: ","))]}"#
            let limit = try await api.call(.post, "/api/expenses/batch", token: aki, json: tooMany)
            #expect(limit.status == .unprocessableContent || limit.status == .badRequest)
            #expect(
                try await api.call(.post, "/api/expenses/batch", token: aki, json: #"{"items":[]}"#).status.code / 100
                    == 4)
            let after = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: aki)
            #expect(after.list("expenses").count == 3)
        }
    }

    @Test(
        "a batch is written 50 to a transaction; an item refused inside the write fails alone, the rest stand",
        arguments: TestDatabases.all)
    func batchTransactions(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let other = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let equal = trip.equal(["Aki", "Ben"])
            // An id that another group's expense has: only the write itself can tell.
            let taken = UUID().uuidString.lowercased()
            let elsewhere = try await api.call(
                .post, "/api/expenses", token: other.tokens["Aki"],
                json: other.expense(
                    "Theirs", "500", "JPY", paidBy: [("Aki", "500")],
                    split: other.equal(["Aki"]), extra: #","id":"\#(taken)""#))
            try #require(elsewhere.status == .created)
            let twice = UUID().uuidString.lowercased()
            let bodies = (0..<120).map { index in
                // Item 60 (the second transaction) takes the other group's id; item 100 reuses item
                // 99's id for a different expense, in the same transaction.
                let id = index == 60 ? taken : (index == 99 || index == 100) ? twice : UUID().uuidString.lowercased()
                return trip.expense(
                    "Item \(index)", "100", "JPY", paidBy: [("Aki", "100")], split: equal, extra: #","id":"\#(id)""#)
            }
            let items = bodies.enumerated().map { #"{"idempotencyKey":"b\#($0.offset)","expense":\#($0.element)}"# }
            let batch = #"{"items":[\#(items.joined(separator: ","))]}"#

            // act
            let first = try await api.call(.post, "/api/expenses/batch", token: aki, json: batch)
            let again = try await api.call(.post, "/api/expenses/batch", token: aki, json: batch)

            // validate: only the two clashes are refused, each with its own 409; the rest are written,
            // once, with their balances and their place in the change feed
            let statuses = first.list("results").map { $0.int("status") }
            #expect(statuses.count == 120)
            #expect(statuses.enumerated().filter { $0.element != 201 }.map(\.offset) == [60, 100])
            #expect(statuses[60] == 409 && statuses[100] == 409)
            #expect(first.list("results")[60].string("failure", "error", "details", "field") == "id")
            #expect(first.list("results")[99].string("expense", "description") == "Item 99")
            #expect(again.list("results").map { $0.int("status") } == statuses)
            #expect(
                again.list("results").map { $0.string("expense", "id") }
                    == first.list("results").map { $0.string("expense", "id") })
            #expect(try await trip.balances(api) == ["JPY/Aki": "5900", "JPY/Ben": "-5900"])
            let feed = try await api.call(.get, "/api/groups/\(trip.groupID)/changes?since=0", token: aki)
            #expect(feed.list("expenses").count == 118)

            // a key used twice in one batch: the second item is answered from the first, as alone,
            // even when its body would be refused on its own
            let good = trip.expense("Tea", "100", "JPY", paidBy: [("Aki", "100")], split: equal)
            let bad = trip.expense("Tea", "100.5", "JPY", paidBy: [("Aki", "100.5")], split: equal)
            let twiceTea = [good, bad].map { #"{"idempotencyKey":"tea","expense":\#($0)}"# }.joined(separator: ",")
            let reused = try await api.call(
                .post, "/api/expenses/batch", token: aki, json: #"{"items":[\#(twiceTea)]}"#)
            let alone = try await api.call(
                .post, "/api/expenses", token: aki, json: bad, headers: [HTTPField.Name("Idempotency-Key")!: "tea"])
            #expect(reused.list("results").map { $0.int("status") } == [201, Int(alone.status.code)])
            #expect(reused.list("results")[1].string("failure", "error", "code") == alone.string("error", "code"))
            #expect(alone.string("error", "code") == "idempotency_key_reused")
            #expect(
                try await api.call(.get, "/api/groups/\(other.groupID)/changes?since=0", token: other.tokens["Aki"])
                    .list("expenses").map { $0.string("description") } == ["Theirs"])
        }
    }

    @Test("one Idempotency-Key: 100 retries and 20 concurrent requests make one expense", arguments: TestDatabases.all)
    func idempotency(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let body = trip.expense(
                "Lunch", "3000", "JPY", paidBy: [("Aki", "3000")],
                split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#)
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "lunch-1"]
            let first = try await api.call(.post, "/api/expenses", token: aki, json: body, headers: key)
            #expect(first.status == .created)
            for _ in 0..<100 {
                let again = try await api.call(.post, "/api/expenses", token: aki, json: body, headers: key)
                #expect(again.status == .created && again.body == first.body)
            }
            let other = try await api.call(
                .post, "/api/expenses", token: aki, json: body.replacingOccurrences(of: "Lunch", with: "Brunch"),
                headers: key)
            #expect(other.status == .unprocessableContent && other.errorCode == "idempotency_key_reused")

            let concurrentKey: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "dinner-1"]
            let dinner = body.replacingOccurrences(of: "Lunch", with: "Dinner")
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await api.call(.post, "/api/expenses", token: aki, json: dinner, headers: concurrentKey)
                    }
                }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == .created })
            #expect(Set(replies.map(\.body)).count == 1)
            let list = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: aki)
            #expect(list.list("expenses").compactMap { $0.string("description") }.sorted() == ["Dinner", "Lunch"])
            #expect(try await trip.balances(api)["JPY/Aki"] == "4000")
        }
    }

    @Test(
        "edits need the version they were based on: stale is a 412 with the current expense",
        arguments: TestDatabases.all)
    func versions(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let created = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Taxi", "3000", "JPY", paidBy: [("Aki", "3000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            let id = try #require(created.string("expense", "id"))
            let missing = try await api.call(.patch, "/api/expenses/\(id)", token: aki, json: #"{"description":"Cab"}"#)
            #expect(missing.status == .preconditionRequired)
            let first = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"3300","version":1}"#)
            #expect(first.status == .ok && first.int("expense", "version") == 2, "\(first.text)")
            #expect(first.list("expense", "payers").first?.string("amount") == "3300")
            let stale = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"1","version":1}"#)
            #expect(
                stale.status == .preconditionFailed && stale.string("error", "details", "current", "amount") == "3300")
            let ifMatch = try await api.call(
                .put, "/api/expenses/\(id)", token: aki, json: #"{"description":"Cab"}"#,
                headers: [.ifMatch: "\"2\""])
            #expect(ifMatch.status == .ok && ifMatch.string("expense", "description") == "Cab")
            #expect(try await trip.balances(api)["JPY/Aki"] == "2200")
            // Delete and restore move the balances out and back.
            #expect(try await api.call(.delete, "/api/expenses/\(id)", token: aki).bool("expense", "isDeleted") == true)
            #expect(try await trip.balances(api).isEmpty)
            #expect(try await api.call(.post, "/api/expenses/\(id)/restore", token: aki).status == .ok)
            #expect(try await trip.balances(api)["JPY/Aki"] == "2200")

            // With If-Match, a delete or restore based on an old version is refused with the
            // current expense, so nobody deletes an edit they have not seen; nothing changes.
            let live = try await api.call(.get, "/api/expenses/\(id)", token: aki)
            let version = try #require(live.int("expense", "version"))
            let staleDelete = try await api.call(
                .delete, "/api/expenses/\(id)", token: aki, headers: [.ifMatch: "\(version - 1)"])
            #expect(
                staleDelete.status == .preconditionFailed
                    && staleDelete.int("error", "details", "current", "version") == version
                    && staleDelete.bool("error", "details", "current", "isDeleted") == false, "\(staleDelete.text)")
            #expect(try await trip.balances(api)["JPY/Aki"] == "2200")
            let badHeader = try await api.call(
                .delete, "/api/expenses/\(id)", token: aki, headers: [.ifMatch: "soon"])
            #expect(badHeader.status == .badRequest)
            let deleted = try await api.call(
                .delete, "/api/expenses/\(id)", token: aki, headers: [.ifMatch: "\"\(version)\""])
            #expect(deleted.status == .ok && deleted.int("expense", "version") == version + 1)
            // The same delete again (a retry whose answer was lost) finds it done.
            let again = try await api.call(
                .delete, "/api/expenses/\(id)", token: aki, headers: [.ifMatch: "\(version)"])
            #expect(again.status == .ok && again.int("expense", "version") == version + 1)
            let staleRestore = try await api.call(
                .post, "/api/expenses/\(id)/restore", token: aki, headers: [.ifMatch: "\(version)"])
            #expect(staleRestore.status == .preconditionFailed)
            #expect(try await trip.balances(api).isEmpty)
            let restored = try await api.call(
                .post, "/api/expenses/\(id)/restore", token: aki, headers: [.ifMatch: "\(version + 1)"])
            #expect(restored.status == .ok && restored.bool("expense", "isDeleted") == false)
            // "*" is any version (RFC 9110): the delete goes through, and back it comes.
            let anyVersion = try await api.call(.delete, "/api/expenses/\(id)", token: aki, headers: [.ifMatch: "*"])
            #expect(anyVersion.status == .ok && anyVersion.bool("expense", "isDeleted") == true)
            #expect(try await api.call(.post, "/api/expenses/\(id)/restore", token: aki).status == .ok)
            #expect(try await trip.balances(api)["JPY/Aki"] == "2200")
        }
    }

    @Test(
        "marking a share paid records the transfer; unmarking voids it; repeats record nothing",
        arguments: TestDatabases.all)
    func paidShares(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let created = try await api.call(
                .post, "/api/expenses", token: trip.tokens["Aki"],
                json: trip.expense(
                    "Hotel", "9000", "JPY", paidBy: [("Aki", "6000"), ("Ben", "3000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            let choShare = try #require(
                created.list("expense", "splits").first { $0.string("memberId") == trip.members["Cho"] }?.string("id"))
            let benShare = try #require(
                created.list("expense", "splits").first { $0.string("memberId") == trip.members["Ben"] }?.string("id"))
            // Ben is neither Cho's debtor nor… he is a payer of the expense, so he may mark it.
            let path = "/api/expense-splits/\(choShare)/payment"
            let marked = try await api.call(
                .patch, path, token: trip.tokens["Cho"], json: #"{"isPaid":true,"reason":"cash"}"#)
            #expect(marked.status == .ok && marked.bool("split", "isPaid") == true)
            #expect(try await trip.balances(api)["JPY/Cho"] == nil)  // settled
            let again = try await api.call(.patch, path, token: trip.tokens["Ben"], json: #"{"isPaid":true}"#)
            #expect(again.status == .ok)
            let settlements = try await api.call(
                .get, "/api/groups/\(trip.groupID)/settlements", token: trip.tokens["Aki"])
            #expect(settlements.list("settlements").count == 1)
            // A settlement made by a share is undone by unmarking, not deleted.
            let linked = try #require(settlements.list("settlements").first?.string("id"))
            #expect(
                try await api.call(.delete, "/api/settlements/\(linked)", token: trip.tokens["Aki"]).status == .conflict
            )
            let unmarked = try await api.call(
                .patch, path, token: trip.tokens["Aki"], json: #"{"isPaid":false,"reason":"oops"}"#)
            #expect(unmarked.bool("split", "isPaid") == false)
            #expect(try await trip.balances(api)["JPY/Cho"] == "-3000")
            let history = try await api.call(.get, "/api/expense-splits/\(choShare)/history", token: trip.tokens["Cho"])
            #expect(history.list("history").map { $0.string("action") } == ["marked_paid", "marked_unpaid"])
            #expect(history.list("history").allSatisfy { $0.string("ipAddress") == nil })  // members see no IPs
            let ownerView = try await api.call(
                .get, "/api/expense-splits/\(choShare)/history", token: trip.tokens["Aki"])
            #expect(ownerView.list("history").first?.string("ipAddress") != nil)
            // Ben's own share is covered by what he paid: marking it records no transfer.
            _ = try await api.call(
                .patch, "/api/expense-splits/\(benShare)/payment", token: trip.tokens["Ben"], json: #"{"isPaid":true}"#)
            let all = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: trip.tokens["Aki"])
            #expect(all.list("settlements").isEmpty)
        }
    }

    @Test("concurrent toggles of one share: one history row per real change", arguments: TestDatabases.all)
    func concurrentToggles(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let created = try await api.call(
                .post, "/api/expenses", token: trip.tokens["Aki"],
                json: trip.expense(
                    "Hotel", "9000", "JPY", paidBy: [("Aki", "9000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            let share = try #require(
                created.list("expense", "splits").first { $0.string("memberId") == trip.members["Ben"] }?.string("id"))
            let aki = trip.tokens["Aki"]!
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        let reply = try await api.call(
                            .patch, "/api/expense-splits/\(share)/payment", token: aki,
                            json: #"{"isPaid":\#(index % 3 == 0 ? "false" : "true")}"#)
                        #expect(reply.status == .ok, "\(reply.text)")
                    }
                }
                try await group.waitForAll()
            }
            let history = try await api.call(.get, "/api/expense-splits/\(share)/history", token: aki).list("history")
            // Alternating, starting with a mark: each row is a real change.
            for (index, entry) in history.enumerated() {
                #expect(entry.string("action") == (index % 2 == 0 ? "marked_paid" : "marked_unpaid"))
            }
            let isPaid = try await api.call(.get, "/api/expenses/\(created.string("expense", "id")!)", token: aki)
                .list("expense", "splits").first { $0.string("id") == share }?.bool("isPaid")
            #expect(isPaid == (history.count % 2 == 1))
            let live = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: aki).list(
                "settlements")
            #expect(live.count == (isPaid == true ? 1 : 0))
        }
    }
}

@Suite("Categories and the expense list")
struct CategoryAndListTests {
    @Test(
        "six defaults that cannot be renamed or deleted; custom ones can; reorder lists every one",
        arguments: TestDatabases.all)
    func categories(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let path = "/api/groups/\(trip.groupID)/categories"
            let list = try await api.call(.get, path, token: aki).list("categories")
            #expect(
                list.compactMap { $0.string("name") } == ["Meal", "Transport", "Tickets", "Shopping", "Hotel", "Other"])
            let meal = try #require(list.first?.string("id"))
            #expect(
                try await api.call(.patch, "\(path)/\(meal)", token: aki, json: #"{"name":"Food","version":1}"#).status
                    == .forbidden)
            #expect(try await api.call(.delete, "\(path)/\(meal)", token: aki).status == .forbidden)
            let onsen = try await api.call(
                .post, path, token: aki, json: ##"{"name":"Onsen","icon":"♨️","color":"#aa3300"}"##)
            #expect(onsen.status == .created && onsen.string("category", "color") == "#AA3300")
            #expect(try await api.call(.post, path, token: aki, json: #"{"name":"onsen"}"#).status == .conflict)
            #expect(
                try await api.call(.post, path, token: aki, json: #"{"name":"X","color":"red"}"#).status
                    == .unprocessableContent)
            let onsenID = try #require(onsen.string("category", "id"))
            let ids = list.compactMap { $0.string("id") } + [onsenID]
            let partial = try await api.call(.put, "\(path)/order", token: aki, json: #"{"categoryIds":["\#(meal)"]}"#)
            #expect(partial.status == .unprocessableContent)
            let reordered = try await api.call(
                .put, "\(path)/order", token: aki,
                json: #"{"categoryIds":[\#(ids.reversed().map { #""\#($0)""# }.joined(separator: ","))]}"#)
            #expect(reordered.list("categories").first?.string("name") == "Onsen")
            // An expense in a category keeps showing its name after the category is deleted.
            let expense = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Bath", "1500", "JPY", paidBy: [("Aki", "1500")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki"]))]}"#
                )
                .replacingOccurrences(of: #""split""#, with: #""category":"onsen","split""#))
            #expect(expense.string("expense", "categoryName") == "Onsen", "\(expense.text)")
            #expect(try await api.call(.delete, "\(path)/\(onsenID)", token: aki).status == .noContent)
            let after = try await api.call(.get, "/api/expenses/\(expense.string("expense", "id")!)", token: aki)
            #expect(after.string("expense", "categoryName") == "Onsen")
            #expect(try await api.call(.get, path, token: aki).list("categories").count == 6)
        }
    }

    @Test(
        "the member filter finds a payer who owes nothing and a sharer who paid nothing, not a share removed by an edit",
        arguments: TestDatabases.all)
    func memberFilter(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            func create(_ description: String, paidBy payer: String, split names: [String]) async throws -> String {
                let created = try await api.call(
                    .post, "/api/expenses", token: aki,
                    json: trip.expense(description, "900", "JPY", paidBy: [(payer, "900")], split: trip.equal(names)))
                try #require(created.status == .created, "\(created.text)")
                return try #require(created.string("expense", "id"))
            }
            _ = try await create("Paid only", paidBy: "Ben", split: ["Aki", "Cho"])
            _ = try await create("Shared only", paidBy: "Aki", split: ["Ben", "Cho"])
            _ = try await create("Not Ben", paidBy: "Aki", split: ["Aki", "Cho"])
            let edited = try await create("Ben dropped", paidBy: "Aki", split: ["Aki", "Ben"])
            let edit = try await api.call(
                .patch, "/api/expenses/\(edited)", token: aki,
                json: #"{"split":\#(trip.equal(["Aki", "Dan"])),"version":1}"#)
            try #require(edit.status == .ok, "\(edit.text)")
            let listed = try await api.call(
                .get, "/api/groups/\(trip.groupID)/expenses?memberId=\(trip.members["Ben"]!)", token: aki)
            #expect(
                Set(listed.list("expenses").compactMap { $0.string("description") }) == ["Paid only", "Shared only"])
            let dan = try await api.call(
                .get, "/api/groups/\(trip.groupID)/expenses?memberId=\(trip.members["Dan"]!)", token: aki)
            #expect(dan.list("expenses").compactMap { $0.string("description") } == ["Ben dropped"])
        }
    }

    @Test(
        "the expense list filters by category, member, dates and text, and pages without gaps",
        arguments: TestDatabases.all)
    func filters(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            for day in 1...9 {
                let who = day % 3 == 0 ? "Ben" : "Aki"
                let body = trip.expense(
                    day % 2 == 0 ? "Ramen \(day)" : "Train \(day)", "\(day)00", "JPY", paidBy: [(who, "\(day)00")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids([who]))]}"#
                ).replacingOccurrences(of: "2026-11-20", with: "2026-11-0\(day)")
                    .replacingOccurrences(
                        of: #""split""#, with: #""category":"\#(day % 2 == 0 ? "Meal" : "Transport")","split""#)
                try #require(try await api.call(.post, "/api/expenses", token: aki, json: body).status == .created)
            }
            let base = "/api/groups/\(trip.groupID)/expenses"
            func descriptions(_ query: String) async throws -> [String] {
                try await api.call(.get, base + query, token: aki).list("expenses").compactMap {
                    $0.string("description")
                }
            }
            #expect(try await descriptions("").first == "Train 9")  // newest date first
            #expect(try await descriptions("?q=RAMEN").count == 4)
            #expect(try await descriptions("?from=2026-11-03&to=2026-11-05") == ["Train 5", "Ramen 4", "Train 3"])
            #expect(try await descriptions("?memberId=\(trip.members["Ben"]!)") == ["Train 9", "Ramen 6", "Train 3"])
            let meal = try #require(
                try await api.call(.get, "/api/groups/\(trip.groupID)/categories", token: aki).list("categories").first?
                    .string("id"))
            #expect(try await descriptions("?category=\(meal)").allSatisfy { $0.hasPrefix("Ramen") })
            #expect(try await descriptions("?q=50%25").isEmpty)  // % is text, not a wildcard
            // Every page of a query, followed by its cursors.
            func paged(_ query: String) async throws -> [String] {
                var seen: [String] = []
                var cursor: String?
                repeat {
                    let page = try await api.call(
                        .get, base + query + (cursor.map { "&cursor=\($0)" } ?? ""), token: aki)
                    seen += page.list("expenses").compactMap { $0.string("description") }
                    cursor = page.string("nextCursor")
                } while cursor != nil
                return seen
            }
            let seen = try await paged("?limit=4")
            #expect(seen.count == 9 && Set(seen).count == 9)
            // One day's expenses: the latest entered first (issue 15), also across pages.
            for name in ["Lunch", "Museum", "Dinner"] {
                let body = trip.expense(
                    name, "300", "JPY", paidBy: [("Aki", "300")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki"]))]}"#
                ).replacingOccurrences(of: "2026-11-20", with: "2026-11-10")
                try #require(try await api.call(.post, "/api/expenses", token: aki, json: body).status == .created)
                try await Task.sleep(for: .milliseconds(3))
            }
            #expect(try await descriptions("?from=2026-11-10&to=2026-11-10") == ["Dinner", "Museum", "Lunch"])
            #expect(try await paged("?from=2026-11-10&limit=1") == ["Dinner", "Museum", "Lunch"])
            #expect(try await api.call(.get, base + "?cursor=garbage", token: aki).status == .unprocessableContent)
            #expect(try await api.call(.get, base + "?from=yesterday", token: aki).status == .unprocessableContent)
        }
    }
}

@Suite("Editing an expense with paid shares")
struct PaidShareEditTests {
    @Test(
        "a paid share whose debt an edit changes becomes unpaid; its transfer stays a settlement",
        arguments: TestDatabases.all)
    func editAfterPayment(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let created = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Hotel", "9000", "JPY", paidBy: [("Aki", "9000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            let id = try #require(created.string("expense", "id"))
            let ben = try #require(
                created.list("expense", "splits").first { $0.string("memberId") == trip.members["Ben"] }?.string("id"))
            _ = try await api.call(.patch, "/api/expense-splits/\(ben)/payment", token: aki, json: #"{"isPaid":true}"#)
            // act: the hotel cost more; Ben's share changes
            let edited = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"12000","version":2}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            let share = edited.list("expense", "splits").first { $0.string("id") == ben }
            #expect(share?.bool("isPaid") == false && share?.string("amount") == "4000")
            // The 3,000 he paid still counts: he owes the other 1,000.
            #expect(try await trip.balances(api)["JPY/Ben"] == "-1000")
            let history = try await api.call(.get, "/api/expense-splits/\(ben)/history", token: aki).list("history")
            #expect(history.compactMap { $0.string("action") } == ["marked_paid", "marked_unpaid"])
            let settlements = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: aki).list(
                "settlements")
            #expect(settlements.count == 1 && settlements.first?.string("expenseSplitId") == nil)
        }
    }

    @Test("an edit of a deleted expense is a 409 that changes nothing; restored, it may be edited", arguments: TestDatabases.all)
    func editDeleted(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let created = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Lunch", "3000", "JPY", paidBy: [("Aki", "3000")], split: trip.equal(["Aki", "Ben"])))
            let id = try #require(created.string("expense", "id"))
            #expect(try await api.call(.delete, "/api/expenses/\(id)", token: aki).status == .ok)
            let deleted = try await api.call(.get, "/api/expenses/\(id)", token: aki)
            let version = try #require(deleted.int("expense", "version"))
            // Found by a new user: `splitter sync --force` sent this and said "Sent 1".
            let edit = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki, json: #"{"amount":"3600","version":\#(version)}"#)
            #expect(edit.status == .conflict && edit.errorCode == "expense_deleted", "\(edit.text)")
            let after = try await api.call(.get, "/api/expenses/\(id)", token: aki)
            #expect(after.string("expense", "amount") == "3000" && after.int("expense", "version") == version)
            #expect(try await api.call(.post, "/api/expenses/\(id)/restore", token: aki).status == .ok)
            let restored = try await api.call(.get, "/api/expenses/\(id)", token: aki)
            let again = try await api.call(
                .patch, "/api/expenses/\(id)", token: aki,
                json: #"{"amount":"3600","version":\#(try #require(restored.int("expense", "version")))}"#)
            #expect(again.status == .ok && again.string("expense", "amount") == "3600", "\(again.text)")
        }
    }
}
