import Foundation
import HTTPTypes
import NIOCore
import SplitStore
import SplitTestSupport
import Testing

/// Payment requests over HTTP (issue 19): create, resolve without login, lock (first wins), pay
/// once with a key, cancel; refusals; and many payers at once, on both databases.
@Suite("Payment requests over HTTP")
struct PaymentRequestTests {
    static func create(_ api: API, _ trip: Trip, by name: String = "Aki", _ json: String) async throws -> Reply {
        try await api.call(.post, "/api/groups/\(trip.groupID)/payment-requests", token: trip.tokens[name], json: json)
    }

    /// 1 USD = 150 JPY from 2026-11-20, set by Aki.
    static func rateOf150(_ api: API, _ trip: Trip) async throws {
        try #require(
            try await api.call(
                .put, "/api/groups/\(trip.groupID)/rates", token: trip.tokens["Aki"],
                json: #"{"rates":[{"fromCurrency":"USD","toCurrency":"JPY","date":"2026-11-20","rate":"150"}]}"#
            ).status == .ok)
    }

    static func pay(_ api: API, _ code: String, token: String?, key: String?) async throws -> Reply {
        try await api.call(
            .post, "/api/pay/\(code)/pay", token: token, headers: key.map { [.init("Idempotency-Key")!: $0] } ?? [:])
    }

    @Test("ask, resolve without login, lock, pay once with a key; the transfer is recorded", arguments: TestDatabases.all)
    func flow(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let created = try await Self.create(api, trip, #"{"amount":"1080","currency":"JPY","note":"Ramen"}"#)
            try #require(created.status == .created, "\(created.text)")
            let code = try #require(created.string("paymentRequest", "code"))
            #expect(code.count == 11 && code.dropFirst(5).first == "-")
            #expect(created.string("paymentRequest", "link") == "/pay/\(code)")
            #expect(created.string("paymentRequest", "state") == "open")
            // scripts/test installs Debian's qrencode: the QR is there, an SVG of the link.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/qrencode") {
                #expect(created.string("paymentRequest", "qrSvg")?.contains("<svg") == true)
            }

            // Anyone with the code sees who, how much, which group, until when — nothing else.
            let resolved = try await api.call(.get, "/api/pay/\(code.lowercased().replacingOccurrences(of: "-", with: ""))")
            #expect(resolved.status == .ok, "\(resolved.text)")
            let keys = Set(((try JSONSerialization.jsonObject(with: resolved.body)) as? [String: Any])?.keys.map { $0 } ?? [])
            #expect(keys == ["code", "payeeName", "amount", "currency", "groupName", "expiresAt", "state"], "\(keys)")
            #expect(resolved.string("payeeName") == "Aki" && resolved.string("amount") == "1080")
            #expect(!resolved.text.contains("@") && !resolved.text.contains(trip.members["Aki"]!))
            #expect(try await api.call(.get, "/api/pay/ZZZZZ-ZZZZZ").status == .notFound)

            // Ben locks; Cho is told it is busy and until when.
            let locked = try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Ben"])
            #expect(locked.status == .ok && locked.string("paymentRequest", "state") == "locked", "\(locked.text)")
            let busy = try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Cho"])
            #expect(busy.status == .conflict && busy.errorCode == "busy" && busy.text.contains("hold ends at"), "\(busy.text)")
            // At the group's time, as its pages say it, not an ISO timestamp.
            #expect(busy.text.range(of: #"hold ends at (\d{4}-\d\d-\d\d )?\d\d:\d\d [A-Z]"#, options: .regularExpression) != nil, "\(busy.text)")
            #expect(try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Ben"]).status == .ok)  // renewed
            let keyless = try await Self.pay(api, code, token: trip.tokens["Ben"], key: nil).status
            #expect(keyless == .badRequest || keyless == .unprocessableContent, "\(keyless)")
            #expect(try await Self.pay(api, code, token: trip.tokens["Cho"], key: "c1").errorCode == "locked")

            // act
            let paid = try await Self.pay(api, code, token: trip.tokens["Ben"], key: "k1")

            // validate: one transfer Ben → Aki; the same key answers the same; another is a 409
            #expect(paid.status == .created && paid.string("paymentRequest", "state") == "paid", "\(paid.text)")
            let again = try await Self.pay(api, code, token: trip.tokens["Ben"], key: "k1")
            #expect(again.status == .created && again.body == paid.body)
            let other = try await Self.pay(api, code, token: trip.tokens["Ben"], key: "k2")
            #expect(other.status == .conflict && other.errorCode == "paid", "\(other.text)")
            let settlements = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: trip.tokens["Aki"])
            #expect(settlements.list("settlements").count == 1)
            #expect(settlements.list("settlements").first?.string("amount") == "1080")
            #expect(settlements.list("settlements").first?.string("fromMemberId") == trip.members["Ben"])
            #expect(try await trip.balances(api) == ["JPY/Ben": "1080", "JPY/Aki": "-1080"])
            let list = try await api.call(.get, "/api/groups/\(trip.groupID)/payment-requests", token: trip.tokens["Cho"])
            #expect(list.list("paymentRequests").first?.string("state") == "paid")
            let resolvedPaid = try await api.call(.get, "/api/pay/\(code)")
            #expect(resolvedPaid.string("state") == "paid")
            let activity = try await api.call(.get, "/api/groups/\(trip.groupID)/activity", token: trip.tokens["Aki"])
            #expect(activity.text.contains("payment_request.paid") && activity.text.contains("payment_request.created"))
            // Aki is told once, that her request was paid (not also "recorded paying you").
            let told = try await api.call(.get, "/api/notifications", token: trip.tokens["Aki"]).list("notifications")
                .compactMap { $0.string("summary") }
            #expect(told.filter { $0.contains("1,080") } == ["Ben paid your payment request of 1,080 JPY"], "\(told)")

            // Found by review: Ben deletes the transfer he recorded. The request was left "paid"
            // with no transfer behind it, and could never be paid again; it is open again.
            let transferID = try #require(settlements.list("settlements").first?.string("id"))
            let deleted = try await api.call(.delete, "/api/settlements/\(transferID)", token: trip.tokens["Ben"])
            #expect(deleted.status.code < 300, "\(deleted.text)")
            #expect(try await api.call(.get, "/api/pay/\(code)").string("state") == "open")
            #expect(try await trip.balances(api).values.allSatisfy { $0 == "0" })
            try #require(try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Ben"]).status == .ok)
            let repaid = try await Self.pay(api, code, token: trip.tokens["Ben"], key: "k3")
            #expect(repaid.status == .created && repaid.string("paymentRequest", "state") == "paid", "\(repaid.text)")
            #expect(try await trip.balances(api) == ["JPY/Ben": "1080", "JPY/Aki": "-1080"])
        }
    }

    @Test("a request in a currency whose own plan has the transfer says so, where the home plan has none")
    func noteOfTheCurrencysOwnPlan() async throws {
        // Found by a new user: an SGD request was "no transfer from you" while the SGD plan had one.
        try await TestApp.with(.sqlite) { api in
            let trip = try await Trip.make(api)
            let (aki, ben) = (trip.tokens["Aki"], trip.tokens["Ben"])
            for body in [
                trip.expense("Taxi", "10.00", "USD", paidBy: [("Aki", "10.00")], split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#),
                trip.expense("Ramen", "1500", "JPY", paidBy: [("Ben", "1500")], split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#),
            ] {
                try #require(try await api.call(.post, "/api/expenses", token: aki, json: body).status == .created)
            }
            // At 150, Ben's 5 USD and Aki's 750 JPY cancel out: the plan in yen has nothing.
            try await Self.rateOf150(api, trip)
            let asked = try await Self.create(api, trip, #"{"amount":"5.00","currency":"USD","toMemberId":"\#(trip.members["Ben"]!)"}"#)
            let code = try #require(asked.string("paymentRequest", "code"), "\(asked.text)")
            // Everything counted in yen is settled: nothing is asked of Ben (the USD plan alone
            // would ask again what the yen paid; found by review).
            let settled = try await api.call(.get, "/api/pay/\(code)", token: ben)
            #expect(settled.string("settleUpNote")?.hasPrefix("Settle up has no transfer from you to Aki now") == true, "\(settled.text)")
            // Cho owes in yen now: the yen plan has Cho pay Aki and Ben, nothing of Ben to Aki;
            // the USD plan, settled on its own, has Ben pay Aki, and the note says it as that.
            let dinner = trip.expense(
                "Dinner", "3000", "JPY", paidBy: [("Ben", "3000")], split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Ben", "Cho"]))]}"#)
            try #require(try await api.call(.post, "/api/expenses", token: aki, json: dinner).status == .created)
            let seen = try await api.call(.get, "/api/pay/\(code)", token: ben)
            #expect(
                seen.string("settleUpNote")
                    == "Settling USD on its own, Settle up says you pay Aki 5.00 USD (everything counted in JPY, it has no transfer from you to Aki).",
                "\(seen.text)")
            // Ben asks Cho for dollars where Settle up counts her debt in yen: both said, so a part
            // is not taken for the whole (found by a new user).
            let bens = try await Self.create(api, trip, by: "Ben", #"{"amount":"3.00","currency":"USD","toMemberId":"\#(trip.members["Cho"]!)"}"#)
            let bensCode = try #require(bens.string("paymentRequest", "code"), "\(bens.text)")
            let chos = try await api.call(.get, "/api/pay/\(bensCode)", token: trip.tokens["Cho"])
            #expect(
                chos.string("settleUpNote")?.hasPrefix("Settle up says you pay Ben ") == true
                    && chos.string("settleUpNote")?.hasSuffix(" JPY. This request is 3.00 USD.") == true, "\(chos.text)")
        }
    }

    @Test("a request in the home currency follows everything converted into it, where the money is in one other currency")
    func noteOfTheConvertedPlan() async throws {
        // Found by a new user: "Ask Ben for 30.00 EUR" (from the web's "Everything in EUR") for a
        // yen dinner, and Ben read "Settle up has no transfer from you".
        try await TestApp.with(.sqlite) { api in
            let trip = try await Trip.make(api)
            let (aki, ben) = (trip.tokens["Aki"], trip.tokens["Ben"])
            let taxi = trip.expense(
                "Taxi", "10.00", "USD", paidBy: [("Aki", "10.00")], split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#)
            try #require(try await api.call(.post, "/api/expenses", token: aki, json: taxi).status == .created)
            try await Self.rateOf150(api, trip)
            let asked = try await Self.create(api, trip, #"{"amount":"750","currency":"JPY","toMemberId":"\#(trip.members["Ben"]!)"}"#)
            let code = try #require(asked.string("paymentRequest", "code"), "\(asked.text)")
            let seen = try await api.call(.get, "/api/pay/\(code)", token: ben)
            #expect(seen.string("settleUpNote") == "Counting everything in JPY, Settle up says you pay Aki 750 JPY.", "\(seen.text)")
            // Without the rate, a request in yen for a debt in dollars says the dollars.
            try #require(
                try await api.call(.delete, "/api/groups/\(trip.groupID)/rates?fromCurrency=USD&toCurrency=JPY&date=2026-11-20", token: aki).status.code < 300)
            let noRate = try await api.call(.get, "/api/pay/\(code)", token: ben)
            #expect(
                noRate.string("settleUpNote")?.hasPrefix("Settle up has no transfer from you to Aki in JPY; it says you pay Aki 5.00 USD.") == true,
                "\(noRate.text)")
        }
    }

    @Test("refusals: bad amounts and currencies, expiry out of range, bad codes, one's own request, a viewer, cancel (not while held)", arguments: [Database.Backend.sqlite])
    func refusals(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            for (body, field) in [
                (#"{"amount":"0","currency":"JPY"}"#, "amount"), (#"{"amount":"10.5","currency":"JPY"}"#, "amount"),
                (#"{"amount":"-5","currency":"JPY"}"#, "amount"), (#"{"amount":"5","currency":"EUR"}"#, "currency"),
                (#"{"amount":"5","currency":"JPY","expiresInSeconds":30}"#, "expiresInSeconds"),
                (#"{"amount":"5","currency":"JPY","toMemberId":"\#(trip.members["Aki"]!)"}"#, "toMemberId"),
            ] {
                let reply = try await Self.create(api, trip, body)
                #expect(reply.status == .unprocessableContent || reply.status == .badRequest, "\(body): \(reply.text)")
                #expect(reply.text.contains(field), "\(body): \(reply.text)")
            }
            #expect(try await api.call(.get, "/api/groups/\(trip.groupID)/payment-requests", token: trip.tokens["Aki"])
                .list("paymentRequests").isEmpty)
            // For Dee, without an account yet: another member is told how Dee pays it (not only
            // "only they can pay it", found by a new user).
            let dee = try #require(
                try await api.call(
                    .post, "/api/groups/\(trip.groupID)/members", token: trip.tokens["Aki"], json: #"{"name":"Dee"}"#
                ).string("member", "id"))
            let forDee = try await Self.create(api, trip, #"{"amount":"5","currency":"JPY","toMemberId":"\#(dee)"}"#)
            let deeCode = try #require(forDee.string("paymentRequest", "code"), "\(forDee.text)")
            let seenByBen = try await api.call(.get, "/api/pay/\(deeCode)", token: trip.tokens["Ben"])
            #expect(seenByBen.string("cannotPay")?.hasPrefix("This request is for Dee, who has no account yet") == true, "\(seenByBen.text)")
            #expect(try await api.call(.delete, "/api/payment-requests/\(try #require(forDee.string("paymentRequest", "id")))", token: trip.tokens["Aki"]).status == .ok)
            // Dee removed: said so, not "no such member" (found by a new user).
            #expect(
                try await api.call(.delete, "/api/groups/\(trip.groupID)/members/\(dee)?confirmBalance=true", token: trip.tokens["Aki"])
                    .status == .ok)
            let forGone = try await Self.create(api, trip, #"{"amount":"5","currency":"JPY","toMemberId":"\#(dee)"}"#)
            #expect(
                forGone.status == .unprocessableContent
                    && forGone.string("error", "message")?.hasPrefix("Dee (removed) is no longer in the group and cannot pay") == true,
                "\(forGone.text)")
            // One asked of Ben, then cancelled: Ben hears of both (found by a new user: only of the first).
            let forBen = try await Self.create(api, trip, #"{"amount":"7","currency":"JPY","toMemberId":"\#(trip.members["Ben"]!)"}"#)
            #expect(
                try await api.call(
                    .delete, "/api/payment-requests/\(try #require(forBen.string("paymentRequest", "id")))", token: trip.tokens["Aki"]
                ).status == .ok)
            let inbox = try await api.call(.get, "/api/notifications", token: trip.tokens["Ben"]).list("notifications")
                .compactMap { $0.string("summary") }
            #expect(inbox.contains { $0.contains("cancelled a payment request of") }, "\(inbox)")
            // Addressed to Cho: Ben may not pay it; Aki may not pay her own.
            let created = try await Self.create(
                api, trip, #"{"amount":"500","currency":"JPY","toMemberId":"\#(trip.members["Cho"]!)"}"#)
            let code = try #require(created.string("paymentRequest", "code"))
            let notBen = try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Ben"])
            #expect(notBen.status == .forbidden && notBen.text.contains("This request is for Cho: only they can pay it."), "\(notBen.text)")
            #expect(try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Aki"]).errorCode == "own_request")
            #expect(try await api.call(.post, "/api/pay/\(code)/lock").status == .unauthorized)
            #expect(try await api.call(.post, "/api/pay/ABC!!/lock", token: trip.tokens["Cho"]).status == .unprocessableContent)
            // A stranger to the group: as unknown.
            let stranger = try await api.register("Zed").token
            #expect(try await api.call(.post, "/api/pay/\(code)/lock", token: stranger).status == .notFound)
            // Cho locks: while he may be paying, the request cannot be cancelled under him.
            // Before holding it, the code's page says the same to a member who may pay it, and to
            // nobody else (not to a stranger, nor to the payee).
            #expect(try await api.call(.get, "/api/pay/\(code)", token: trip.tokens["Cho"]).string("settleUpNote")?.hasPrefix("Settle up") == true)
            #expect(try await api.call(.get, "/api/pay/\(code)").string("settleUpNote") == nil)
            #expect(try await api.call(.get, "/api/pay/\(code)", token: trip.tokens["Aki"]).string("settleUpNote") == nil)
            let holding = try await api.call(.post, "/api/pay/\(code)/lock", token: trip.tokens["Cho"])
            #expect(holding.status == .ok, "\(holding.text)")
            // What Settle up says, for any client to show before the payment (found by review).
            #expect(holding.string("settleUpNote")?.hasPrefix("Settle up") == true, "\(holding.text)")
            let heldID = try #require(created.string("paymentRequest", "id"))
            let held = try await api.call(.delete, "/api/payment-requests/\(heldID)", token: trip.tokens["Aki"])
            #expect(held.status == .conflict && held.errorCode == "busy", "\(held.text)")
            // An open one is cancelled by its payee (not by another member); its code is then unknown.
            let open = try await Self.create(
                api, trip, #"{"amount":"500","currency":"JPY","toMemberId":"\#(trip.members["Cho"]!)"}"#)
            let id = try #require(open.string("paymentRequest", "id"))
            let openCode = try #require(open.string("paymentRequest", "code"))
            #expect(try await api.call(.delete, "/api/payment-requests/\(id)", token: trip.tokens["Ben"]).status == .forbidden)
            let cancelled = try await api.call(.delete, "/api/payment-requests/\(id)", token: trip.tokens["Aki"])
            #expect(cancelled.status == .ok && cancelled.string("paymentRequest", "state") == "cancelled", "\(cancelled.text)")
            #expect(try await api.call(.get, "/api/pay/\(openCode)").status == .notFound)
            // A member of the group is told why; it is no guess, and does not count as one.
            let told = try await api.call(.get, "/api/pay/\(openCode)", token: trip.tokens["Cho"])
            #expect(told.status == .notFound && told.text.contains("was cancelled"), "\(told.text)")
            #expect(try await Self.pay(api, openCode, token: trip.tokens["Cho"], key: "k").errorCode == "cancelled")
            #expect(try await api.call(.delete, "/api/payment-requests/\(id)", token: trip.tokens["Aki"]).status == .conflict)
            #expect(try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: trip.tokens["Aki"])
                .list("settlements").isEmpty)

            // Guessing: codes that find nothing count (the cancelled one above was one), 20 from
            // one address in 15 minutes; then every look-up waits, even of a good code.
            let good = try #require(
                try await Self.create(api, trip, #"{"amount":"700","currency":"JPY"}"#).string("paymentRequest", "code"))
            #expect(try await api.call(.get, "/api/pay/\(good)").status == .ok)  // found codes never count
            var misses = 0
            while misses < 25, try await api.call(.get, "/api/pay/\(String(format: "%05d", misses))-WRXNG").status == .notFound {
                misses += 1
            }
            #expect(misses == 19, "\(misses) wrong codes before the limit")
            let limited = try await api.call(.get, "/api/pay/\(good)")
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] != nil, "\(limited.status)")
        }
    }

    @Test("a payee removed from the group asks nobody; a payer who left cannot pay", arguments: [Database.Backend.sqlite])
    func membership(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let byCho = try await Self.create(api, trip, by: "Cho", #"{"amount":"900","currency":"JPY"}"#)
            let choCode = try #require(byCho.string("paymentRequest", "code"))
            let byAki = try await Self.create(api, trip, #"{"amount":"800","currency":"JPY"}"#)
            let akiCode = try #require(byAki.string("paymentRequest", "code"))
            #expect(try await api.call(.delete, "/api/groups/\(trip.groupID)/members/\(trip.members["Cho"]!)", token: trip.tokens["Aki"]).status == .ok)
            #expect(try await api.call(.get, "/api/pay/\(choCode)").status == .notFound)
            #expect(try await api.call(.post, "/api/pay/\(choCode)/lock", token: trip.tokens["Ben"]).status == .notFound)
            // Cho is out of the group: Aki's code is not his to pay.
            #expect(try await api.call(.post, "/api/pay/\(akiCode)/lock", token: trip.tokens["Cho"]).status == .notFound)
            #expect(try await api.call(.post, "/api/pay/\(akiCode)/lock", token: trip.tokens["Ben"]).status == .ok)
        }
    }

    /// What a test records for a request that got no answer (the client threw), told apart from
    /// the server's own 500.
    static let noAnswer = HTTPResponse.Status(code: 599, reasonPhrase: "no answer")

    @Test(
        "a create sent 10 times at once with one Idempotency-Key makes one payment request, and one recurring series: each answer the same; the key with another body is a 422",
        arguments: TestDatabases.all)
    func createsWithKey(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let series = """
                {"expense":{"description":"Rent","amount":"90000","currency":"JPY","paidByMemberId":"\(trip.members["Aki"]!)",\
                "split":{"mode":"equal","memberIds":["\(trip.members["Aki"]!)","\(trip.members["Ben"]!)"]}},\
                "rule":{"every":"month","startDate":"2026-01-31"},"mode":"auto"}
                """
            for (path, body, other, list) in [
                ("payment-requests", #"{"amount":"700","currency":"JPY"}"#, #"{"amount":"800","currency":"JPY"}"#, "paymentRequests"),
                ("recurring", series, series.replacingOccurrences(of: "90000", with: "80000"), "recurring"),
            ] {
                // act: the same create, ten times at once, with one key
                let replies = await withTaskGroup(of: Reply?.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            try? await api.call(
                                .post, "/api/groups/\(trip.groupID)/\(path)", token: trip.tokens["Aki"], json: body,
                                headers: [.init("Idempotency-Key")!: "once-\(path)"])
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                // validate: ten answers of one create, and one object. A series' answer is stored
                // again once its first occurrences are made: a retry in between gets it as made.
                #expect(replies.allSatisfy { $0?.status == .created }, "\(replies.map { $0?.status })")
                let ids = Set(replies.map { $0?.string(path == "recurring" ? "recurring" : "paymentRequest", "id") })
                #expect(ids.count == 1 && ids.first! != nil, "\(path): \(ids)")
                if path == "payment-requests" { #expect(Set(replies.map { $0?.text }).count == 1, "the answers differ") }
                let listed = try await api.call(.get, "/api/groups/\(trip.groupID)/\(path)", token: trip.tokens["Aki"])
                #expect(listed.list(list).count == 1, "\(path): \(listed.text.prefix(300))")
                let reused = try await api.call(
                    .post, "/api/groups/\(trip.groupID)/\(path)", token: trip.tokens["Aki"], json: other,
                    headers: [.init("Idempotency-Key")!: "once-\(path)"])
                #expect(reused.status == .unprocessableContent, "\(path): \(reused.text)")
            }
            // The series caught up once: January and February, each one expense.
            let expenses = try await api.call(.get, "/api/groups/\(trip.groupID)/expenses", token: trip.tokens["Aki"])
            let dates = expenses.list("expenses").filter { $0.string("description") == "Rent" }
                .compactMap { $0.string("expenseDate") }
            #expect(dates.count >= 2 && dates.count == Set(dates).count, "made twice, or not made: \(dates)")
        }
    }

    @Test("20 payers lock at once: exactly one holds it; 50 pays with one key and 50 with others: one transfer", arguments: TestDatabases.all)
    func concurrency(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let invite = try #require(
                try await api.call(.get, "/api/groups/\(trip.groupID)", token: trip.tokens["Aki"]).string("group", "inviteCode"))
            var payers: [String] = []
            for index in 0..<20 {
                let token = try await api.register("Payer\(index)").token
                let joined = try await api.call(.post, "/api/groups/join", token: token, json: #"{"inviteCode":"\#(invite)"}"#)
                try #require(joined.status == .ok || joined.status == .created, "\(joined.text)")
                payers.append(token)
            }
            let created = try await Self.create(api, trip, #"{"amount":"3000","currency":"JPY"}"#)
            let code = try #require(created.string("paymentRequest", "code"))

            // act: all at once
            let statuses = await withTaskGroup(of: HTTPResponse.Status.self) { group in
                for token in payers {
                    group.addTask { (try? await api.call(.post, "/api/pay/\(code)/lock", token: token).status) ?? Self.noAnswer }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }

            // validate
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == .conflict }.count == 19, "\(statuses)")
            var holder: String?
            for token in payers where try await api.call(.post, "/api/pay/\(code)/lock", token: token).status == .ok {
                holder = token
            }
            let winner = try #require(holder)
            let pays = await withTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<100 {
                    let key = index < 50 ? "same" : "key-\(index)"
                    let token = index % 10 == 0 ? payers[index % payers.count] : winner
                    group.addTask { (try? await Self.pay(api, code, token: token, key: key).status) ?? Self.noAnswer }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(!pays.contains(.internalServerError) && !pays.contains(Self.noAnswer), "\(pays)")
            #expect(pays.contains(.created))
            let settlements = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: trip.tokens["Aki"])
            #expect(settlements.list("settlements").count == 1, "\(settlements.text)")
        }
    }
}
