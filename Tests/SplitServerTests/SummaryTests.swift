import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

/// `GET /api/me/summary` (issue 19): my position across groups, from the ledgers.
@Suite("My position across groups")
struct SummaryTests {
    @Test("two groups with Ben in both: totals per currency, each group, Ben once across them, transfers", arguments: TestDatabases.all)
    func acrossGroups(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            // Japan: Aki paid 30,000 for Aki, Ben, Cho; Cho paid Aki back 5,000.
            _ = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Hotel", "30000", "JPY", paidBy: [("Aki", "30000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            _ = try await api.call(
                .post, "/api/groups/\(trip.groupID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(trip.members["Cho"]!)","toMemberId":"\#(trip.members["Aki"]!)","amount":"5000","currency":"JPY"}"#)
            // A second group with Ben: Ben paid 2,000 for Aki alone.
            let other = try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Osaka","homeCurrency":"JPY"}"#)
            let osaka = try #require(other.string("group", "id"))
            let code = try #require(other.string("group", "inviteCode"))
            let joined = try await api.call(.post, "/api/groups/join", token: trip.tokens["Ben"], json: #"{"inviteCode":"\#(code)"}"#)
            let benOsaka = try #require(joined.string("member", "id"))
            let akiOsaka = try #require(other.string("group", "myMemberId"))
            _ = try await api.call(
                .post, "/api/expenses", token: trip.tokens["Ben"],
                json: #"""
                    {"groupId":"\#(osaka)","description":"Takoyaki","amount":"2000","currency":"JPY","expenseDate":"2026-11-21",
                     "paidByMemberId":"\#(benOsaka)","split":{"mode":"equal","memberIds":["\#(akiOsaka)"]}}
                    """#)

            // act
            let summary = try await api.call(.get, "/api/me/summary", token: aki)

            // validate: Japan +15,000 (20,000 owed − 5,000 received), Osaka −2,000
            #expect(summary.status == .ok, "\(summary.text)")
            let totals = summary.list("totals")
            #expect(totals.count == 1 && totals[0].string("owed") == "15000" && totals[0].string("owe") == "2000"
                && totals[0].string("net") == "13000", "\(summary.text)")
            let groups = Dictionary(uniqueKeysWithValues: summary.list("groups").map { ($0.string("groupName") ?? "", $0.string("net") ?? "") })
            #expect(groups == ["Japan": "15000", "Osaka": "-2000"])
            // Ben: owes Aki 10,000 in Japan, is owed 2,000 in Osaka → one entry, 8,000, two groups.
            let ben = summary.list("people").first { $0.string("name") == "Ben" }
            #expect(ben?.string("net") == "8000" && ben?.strings("groupIds").count == 2, "\(summary.text)")
            let cho = summary.list("people").first { $0.string("name") == "Cho" }
            #expect(cho?.string("net") == "5000", "\(summary.text)")
            #expect(summary.list("transfers").first?.string("fromName") == "Cho")
            #expect(summary.list("transfers").first?.bool("sent") == false)
            // Latest by the day it was paid, not by when it was written down (found by review: an
            // imported 2020 transfer came first).
            _ = try await api.call(
                .post, "/api/groups/\(trip.groupID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(trip.members["Ben"]!)","toMemberId":"\#(trip.members["Aki"]!)","amount":"100","currency":"JPY","date":"2020-01-02"}"#)
            let later = try await api.call(.get, "/api/me/summary", token: aki).list("transfers")
            #expect(later.first?.string("fromName") == "Cho" && later.last?.string("date") == "2020-01-02", "\(later)")
            #expect(try await api.call(.get, "/api/me/summary").status == .unauthorized)
            let stranger = try await api.register("Zed").token
            let empty = try await api.call(.get, "/api/me/summary", token: stranger)
            #expect(empty.list("totals").isEmpty && empty.list("groups").isEmpty && empty.list("people").isEmpty)
        }
    }

    @Test("a group I left owing money still counts, marked left; settled, it goes", arguments: TestDatabases.all)
    func leftWithBalance(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let ben = trip.tokens["Ben"]
            _ = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Hotel", "30000", "JPY", paidBy: [("Aki", "30000")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#))
            // act: Ben leaves owing 10,000
            let left = try await api.call(
                .delete, "/api/groups/\(trip.groupID)/members/\(trip.members["Ben"]!)?confirmBalance=true", token: ben)
            try #require(left.status == .ok, "\(left.text)")
            // validate: found by a new user: "You are settled up everywhere"
            let summary = try await api.call(.get, "/api/me/summary", token: ben)
            #expect(summary.list("totals").first?.string("owe") == "10000", "\(summary.text)")
            let group = summary.list("groups").first
            #expect(group?.string("net") == "-10000" && group?.bool("left") == true, "\(summary.text)")
            // The page says so whether Ben left or was removed (found by a new user: "you left"
            // for one removed).
            let page = try await api.call(
                .get, "/me", headers: [.cookie: "splitter_session=\(ben!)", .accept: "text/html"])
            #expect(page.text.contains("(you are no longer in it; its invite link brings you back)"), "\(page.text.prefix(3000))")
            // Whom to pay there is not said: the group's plan may name people who joined since.
            #expect(summary.list("people").isEmpty, "\(summary.text)")
            // Aki's own line is not marked left.
            #expect(try await api.call(.get, "/api/me/summary", token: aki).list("groups").first?.bool("left") == nil)
            // Aki records Ben's payment: Ben is settled, the group goes from his list.
            _ = try await api.call(
                .post, "/api/groups/\(trip.groupID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(trip.members["Ben"]!)","toMemberId":"\#(trip.members["Aki"]!)","amount":"10000","currency":"JPY"}"#)
            #expect(try await api.call(.get, "/api/me/summary", token: ben).list("groups").isEmpty)
            // Ben comes back by the code: Aki, the owner, is told (found by a new user: one who
            // was removed was back unsaid).
            let code = try #require(
                try await api.call(.get, "/api/groups/\(trip.groupID)", token: aki).string("group", "inviteCode"))
            let back = try await api.call(.post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(back.status == .ok, "\(back.text)")
            let told = try await api.call(.get, "/api/notifications", token: aki).list("notifications")
            #expect(told.first?.string("action") == "member.joined" && told.first?.string("summary") == "Ben joined", "\(told)")
        }
    }

    @Test("people are as Settle up has them: whom I pay, not direct debts; settled up by the plan, nobody is listed", arguments: TestDatabases.all)
    func settledByRouting(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            // Ben paid 1,000 for Aki, Cho paid 1,000 for Ben: the plan has Aki pay Cho 1,000.
            for (payer, sharer) in [("Ben", "Aki"), ("Cho", "Ben")] {
                _ = try await api.call(
                    .post, "/api/expenses", token: aki,
                    json: trip.expense(
                        "Snacks", "1000", "JPY", paidBy: [(payer, "1000")],
                        split: #"{"mode":"equal","memberIds":[\#(trip.ids([sharer]))]}"#))
            }
            // People are as Settle up has them: Aki pays Cho (not "owes Ben"), which settles him.
            let before = try await api.call(.get, "/api/me/summary", token: aki)
            #expect(before.list("people").map { $0.string("name") } == ["Cho"], "\(before.text)")
            #expect(before.list("people").first?.string("net") == "-1000", "\(before.text)")

            // act: Aki follows the plan
            _ = try await api.call(
                .post, "/api/groups/\(trip.groupID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(trip.members["Aki"]!)","toMemberId":"\#(trip.members["Cho"]!)","amount":"1000","currency":"JPY"}"#)

            // validate: the pairs still say Aki owes Ben and Cho owes Aki, but Aki is settled
            let pairs = try await api.call(.get, "/api/groups/\(trip.groupID)/debts", token: aki)
            #expect(pairs.status == .ok && pairs.text.contains("1000"), "\(pairs.text)")
            let after = try await api.call(.get, "/api/me/summary", token: aki)
            #expect(after.list("totals").isEmpty && after.list("people").isEmpty, "\(after.text)")
        }
    }

    @Test("a group Settle up settles in its home currency counts in it: settled there, nothing is left in dollars")
    func homeCurrency() async throws {
        // Found by a new user: "owed 18.00 EUR, owe 20.00 USD" after everyone followed the plan in euros.
        try await TestApp.with(.sqlite) { api in
            let aki = try await api.register("Aki").token
            let group = try #require(
                try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Multi","homeCurrency":"EUR","memberName":"Aki"}"#)
                    .string("group", "id"))
            let akiID = try #require(try await api.call(.get, "/api/groups/\(group)", token: aki).string("group", "myMemberId"))
            var ids = ["Aki": akiID]
            for name in ["Bo", "Cy"] {
                ids[name] = try await api.call(.post, "/api/groups/\(group)/members", token: aki, json: #"{"name":"\#(name)"}"#)
                    .string("member", "id")
            }
            let everyone = [akiID, ids["Bo"]!, ids["Cy"]!].map { "\"\($0)\"" }.joined(separator: ",")
            for (amount, currency, payer) in [("90", "EUR", akiID), ("60", "USD", ids["Bo"]!)] {
                let made = try await api.call(
                    .post, "/api/expenses", token: aki,
                    json: #"{"groupId":"\#(group)","description":"X","amount":"\#(amount)","currency":"\#(currency)","expenseDate":"2026-11-20","paidByMemberId":"\#(payer)","split":{"mode":"equal","memberIds":[\#(everyone)]}}"#)
                try #require(made.status == .created, "\(made.text)")
            }
            let rate = try await api.call(
                .put, "/api/groups/\(group)/rates", token: aki,
                json: #"{"rates":[{"fromCurrency":"USD","toCurrency":"EUR","date":"2026-11-01","rate":"0.9"}]}"#)
            try #require(rate.status == .ok, "\(rate.text)")
            // Home: Aki +60 − 18 = +42 EUR, Bo −30 + 36 = +6, Cy −48: Cy pays Aki 42 and Bo 6.
            let before = try await api.call(.get, "/api/me/summary", token: aki)
            #expect(before.list("totals").map { $0.string("currency") } == ["EUR"], "\(before.text)")
            #expect(before.list("totals").first?.string("net") == "42.00", "\(before.text)")
            #expect(before.list("people").map { "\($0.string("name") ?? "") \($0.string("net") ?? "")" } == ["Cy 42.00"], "\(before.text)")
            for (to, amount) in [(akiID, "42"), (ids["Bo"]!, "6")] {
                let paid = try await api.call(
                    .post, "/api/groups/\(group)/settlements", token: aki,
                    json: #"{"fromMemberId":"\#(ids["Cy"]!)","toMemberId":"\#(to)","amount":"\#(amount)","currency":"EUR"}"#)
                try #require(paid.status == .created, "\(paid.text)")
            }
            let after = try await api.call(.get, "/api/me/summary", token: aki)
            #expect(after.list("totals").isEmpty && after.list("groups").isEmpty && after.list("people").isEmpty, "\(after.text)")
        }
    }
}

/// Expenses by month and by year (issue 20, as the seed's list).
@Suite("Expenses by month")
struct ExpensesByMonthTests {
    @Test("month= and year= pick the expenses dated then, narrowing from/to; a bad month is a 422", arguments: [Database.Backend.sqlite])
    func byMonth(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            for (name, date) in [("Oct", "2026-10-31"), ("Nov1", "2026-11-01"), ("Nov30", "2026-11-30"), ("Dec", "2026-12-01"), ("Next", "2027-01-15")] {
                let body = trip.expense(
                    name, "100", "JPY", paidBy: [("Aki", "100")], split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#
                ).replacingOccurrences(of: "2026-11-20", with: date)
                #expect(try await api.call(.post, "/api/expenses", token: trip.tokens["Aki"], json: body).status == .created)
            }
            func names(_ query: String) async throws -> [String] {
                try await api.call(.get, "/api/groups/\(trip.groupID)/expenses?\(query)", token: trip.tokens["Aki"])
                    .list("expenses").compactMap { $0.string("description") }.sorted()
            }
            #expect(try await names("month=2026-11") == ["Nov1", "Nov30"])
            #expect(try await names("year=2026") == ["Dec", "Nov1", "Nov30", "Oct"])
            #expect(try await names("month=2026-11&from=2026-11-15") == ["Nov30"])
            #expect(try await names("month=2027-01") == ["Next"])
            let bad = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses?month=2026-13", token: trip.tokens["Aki"])
            #expect(bad.status == .unprocessableContent || bad.status == .badRequest, "\(bad.text)")
        }
    }
}
