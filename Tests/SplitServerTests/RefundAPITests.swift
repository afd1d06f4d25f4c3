import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

/// Refunds and income over HTTP (issue 18): a negative total received by the payers.
@Suite("Refunds over HTTP")
struct RefundAPITests {
    @Test(
        "a deposit back: shares below zero, balances and plan the other way, a paid mark pays the member out",
        arguments: TestDatabases.all)
    func depositBack(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]
            let everyone = #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho"]))]}"#

            // act: Aki received the 30,000 yen deposit back; it was everyone's
            let created = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Deposit back", "-30000", "JPY", paidBy: [("Aki", "-30000")], split: everyone))

            // validate
            #expect(created.status == .created, "\(created.text)")
            #expect(created.string("expense", "amount") == "-30000")
            #expect(created.list("expense", "splits").map { $0.string("amount") } == ["-10000", "-10000", "-10000"])
            #expect(
                try await trip.balances(api) == ["JPY/Aki": "-20000", "JPY/Ben": "10000", "JPY/Cho": "10000"])
            let plan = try await api.call(.get, "/api/groups/\(trip.groupID)/settlement-plan?currency=JPY", token: aki)
            let transfers = plan.list("transfers").map {
                "\($0.string("fromMemberId")!)→\($0.string("toMemberId")!) \($0.string("amount")!)"
            }
            #expect(
                Set(transfers) == [
                    "\(trip.members["Aki"]!)→\(trip.members["Ben"]!) 10000",
                    "\(trip.members["Aki"]!)→\(trip.members["Cho"]!) 10000",
                ], "\(plan.text)")

            // Marking Ben's part paid records Aki paying Ben, and Ben is square.
            let benShare = try #require(
                created.list("expense", "splits").first { $0.string("memberId") == trip.members["Ben"] }?.string("id"))
            let marked = try await api.call(
                .patch, "/api/expense-splits/\(benShare)/payment", token: aki, json: #"{"isPaid":true,"reason":"cash"}"#)
            #expect(marked.status == .ok, "\(marked.text)")
            let settlements = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: aki)
            let settlement = try #require(settlements.list("settlements").first)
            #expect(settlement.string("fromMemberId") == trip.members["Aki"])
            #expect(settlement.string("toMemberId") == trip.members["Ben"])
            #expect(settlement.string("amount") == "10000")
            #expect(try await trip.balances(api) == ["JPY/Aki": "-10000", "JPY/Cho": "10000"])

            // An expense and the refund of it cancel out.
            let dinner = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Dinner", "3000", "JPY", paidBy: [("Ben", "3000")], split: everyone))
            let refund = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense("Dinner refunded", "-3000", "JPY", paidBy: [("Ben", "-3000")], split: everyone))
            #expect(dinner.status == .created && refund.status == .created, "\(refund.text)")
            #expect(try await trip.balances(api) == ["JPY/Aki": "-10000", "JPY/Cho": "10000"])
        }
    }

    @Test("wrong signs and zero are a 422 naming the field, and write nothing", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api, home: "MYR")
            let aki = trip.tokens["Aki"]
            let both = #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#
            let exact =
                #"{"mode":"exact","amounts":[{"memberId":"\#(trip.members["Aki"]!)","amount":"-15.00"},{"memberId":"\#(trip.members["Ben"]!)","amount":"5.00"}]}"#
            let cases: [(String, String, String)] = [
                (trip.expense("Zero", "0", "MYR", paidBy: [("Aki", "0")], split: both), "amount", "cannot be zero"),
                (
                    trip.expense("Mixed", "-10.00", "MYR", paidBy: [("Aki", "10.00")], split: both), "paidBy",
                    "on a refund each payer's amount is below zero"
                ),
                (
                    trip.expense("Mixed", "-10.00", "MYR", paidBy: [("Aki", "-10.00")], split: exact), "split.amounts",
                    "on a refund it cannot be more than zero"
                ),
                (
                    trip.expense(
                        "Charged", "-4200", "JPY", paidBy: [("Aki", "-4200")], split: both, extra: #","homeAmount":"125.30""#),
                    "homeAmount", "below zero"
                ),
            ]
            for (body, field, words) in cases {
                let reply = try await api.call(.post, "/api/expenses", token: aki, json: body)
                #expect(reply.status == .unprocessableContent, "\(field): \(reply.text)")
                #expect(reply.string("error", "details", "field") == field, "\(reply.text)")
                #expect(reply.text.contains(words), "\(reply.text)")
            }
            let list = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: aki)
            #expect(list.list("expenses").isEmpty)

            // A refund charged in the home currency below zero is taken at its own rate.
            let charged = try await api.call(
                .post, "/api/expenses", token: aki,
                json: trip.expense(
                    "Hotel refund", "-4200", "JPY", paidBy: [("Aki", "-4200")], split: both,
                    extra: #","homeAmount":"-125.30""#))
            #expect(charged.status == .created, "\(charged.text)")
            let home = try await api.call(.get, "/api/groups/\(trip.groupID)/balances", token: aki)
            let homeNets = home.list("home").map { $0.string("net") ?? "" }.sorted()
            #expect(homeNets == ["-62.65", "62.65"], "\(home.text)")
        }
    }
}
