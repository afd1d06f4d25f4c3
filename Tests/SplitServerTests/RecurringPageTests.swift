import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// Recurring expenses on the web (issue 20), from the outside.
@Suite("Recurring expenses, on the web")
struct RecurringPageTests {
    /// Aki, logged in on the web, and her group Flat (JPY): what each test here starts from.
    static func flat(_ api: API) async throws -> (aki: Browser, groupID: String, akiID: String) {
        var aki = Browser(api)
        try await aki.register("Aki")
        let created = try await api.call(
            .post, "/api/groups", token: aki.token, json: #"{"name":"Flat","homeCurrency":"JPY","memberName":"Aki"}"#)
        return (aki, try #require(created.string("group", "id")), try #require(created.string("group", "myMemberId"), "\(created.text)"))
    }

    /// A member without an account, added by `by`: their id.
    static func nameOnly(_ api: API, _ name: String, in groupID: String, by owner: Browser) async throws -> String {
        try #require(
            try await api.call(.post, "/api/groups/\(groupID)/members", token: owner.token, json: #"{"name":"\#(name)"}"#)
                .string("member", "id"))
    }

    @Test("leaving says which series pause; once the member is back, the page says why it paused and offers Resume")
    func leavingPausesSeries() async throws {
        // Found by a new user: leaving stopped the hotel's nightly expense, unsaid, and after
        // coming back the series said only "Paused".
        try await TestApp.with(.sqlite) { api in
            let (aki, groupID, akiID) = try await Self.flat(api)
            var browser = aki
            var ben = Browser(api)
            try await ben.register("Ben")
            let code = try #require(
                try await api.call(.get, "/api/groups/\(groupID)", token: aki.token).string("group", "inviteCode"))
            let joined = try await api.call(.post, "/api/groups/join", token: ben.token, json: #"{"inviteCode":"\#(code)"}"#)
            let benID = try #require(joined.string("member", "id"), "\(joined.text)")
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Hotel KL","amount":"9000","currency":"JPY","split":{"mode":"equal","memberIds":["\#(akiID)","\#(benID)"]}},"rule":{"every":"day","startDate":"2030-01-01"},"mode":"auto"}"#)
            try #require(series.status == .created, "\(series.text)")
            let asked = try await ben.get("/groups/\(groupID)/leave")
            #expect(
                asked.text.contains("The recurring “Hotel KL” pauses until someone changes it: it needs you (you pay or share in it, or made it)."),
                "\(asked.text.prefix(3000))")
            #expect(try await ben.post("/groups/\(groupID)/leave", []).status == .seeOther)
            // The members page says he left, not that he was removed.
            let members = try await browser.get("/groups/\(groupID)/members")
            #expect(members.text.contains("No longer in the group") && members.text.contains("Ben (left)"), "\(members.text)")
            #expect(
                try await api.call(
                    .patch, "/api/groups/\(groupID)/members/\(benID)", token: aki.token, json: #"{"active":true}"#
                ).status == .ok)
            let page = try await browser.get("/groups/\(groupID)/recurring")
            #expect(page.text.contains("It was paused then") && page.text.contains("resuming it goes on with it"), "\(page.text)")
            #expect(page.text.contains(#"value="resume""#), "\(page.text)")
        }
    }

    @Test("a waiting occurrence naming someone removed since says so, and its form lets them be left out and confirms")
    func pendingWithRemovedMember() async throws {
        // Found by a new user: Confirm led to a page whose only link was "Back to my groups", and
        // "Change, then confirm" kept Dee locked in, so nothing could confirm it.
        try await TestApp.with(.sqlite) { api in
            let (browser, groupID, akiID) = try await Self.flat(api)
            var aki = browser
            let deeID = try await Self.nameOnly(api, "Dee", in: groupID, by: aki)
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Cleaner","amount":"6000","currency":"JPY","split":{"mode":"equal","memberIds":["\#(akiID)","\#(deeID)"]}},"rule":{"every":"week","startDate":"2026-10-01","count":2},"mode":"confirm"}"#)
            try #require(series.status == .created, "\(series.text)")
            try #require(
                try await api.call(.delete, "/api/groups/\(groupID)/members/\(deeID)?confirmBalance=true", token: aki.token)
                    .status == .ok)
            let pending = try await api.call(.get, "/api/groups/\(groupID)/pending", token: aki.token)
            let id = try #require(pending.list("pending").first?.string("id"))
            let page = try await aki.get("/groups/\(groupID)/recurring")
            #expect(page.text.contains("Dee is no longer in the group: change it to leave them out, then confirm."), "\(page.text)")
            // Confirm as it is: its form, saying why, with Dee free to be taken out.
            let refused = try await aki.post("/pending/\(id)/confirm", [])
            #expect(refused.status == .unprocessableContent && refused.text.contains("Confirm a recurring expense"), "\(refused.text.prefix(2000))")
            #expect(refused.text.contains("Dee is no longer in the group"))
            #expect(!refused.text.contains(#"aria-label="Dee (removed) shares it" disabled"#), "Dee is not locked in")
            #expect(refused.text.contains(#"name="in_\#(deeID)" value="1" aria-label="Dee (removed) shares it""#), "\(refused.text)")
            let confirmed = try await aki.post(
                "/pending/\(id)/edit",
                [
                    ("description", "Cleaner"), ("amount", "6000"), ("currency", "JPY"), ("expenseDate", "2026-10-01"),
                    ("paidBy", akiID), ("mode", "equal"), ("in_\(akiID)", "1"),
                ])
            #expect(confirmed.status == .seeOther, "\(confirmed.text.prefix(3000))")
            let expenses = try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses")
            #expect(expenses.count == 1 && expenses.first?.list("splits").count == 1, "\(expenses)")

            // A series with several dates waiting offers to dismiss them all at once (found by a
            // new user: a first date far back left 400, dismissed one by one).
            let gym = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Gym","amount":"3000","currency":"JPY","split":{"mode":"equal","memberIds":["\#(akiID)"]}},"rule":{"every":"month","startDate":"2026-01-01","count":3},"mode":"confirm"}"#)
            let gymID = try #require(gym.string("recurring", "id"), "\(gym.text)")
            let queue = try await aki.get("/groups/\(groupID)/recurring")
            #expect(queue.text.contains("Dismiss all 3 waiting dates of Gym") && !queue.text.contains("waiting dates of Cleaner"), "\(queue.text)")
            let dismissed = try await aki.post("/recurring/\(gymID)/dismiss-waiting", [])
            #expect(dismissed.status == .seeOther, "\(dismissed.text.prefix(1000))")
            let left = try await api.call(.get, "/api/groups/\(groupID)/pending", token: aki.token).list("pending")
            #expect(left.count == 1 && left.first?.string("expense", "description") == "Cleaner", "\(left)")
            let line = try await api.call(.get, "/api/groups/\(groupID)/activity", token: aki.token).list("activity").first
            #expect(line?.string("summary")?.hasPrefix("Aki dismissed 3 waiting dates of Gym (") == true, "\(String(describing: line?.text))")
        }
    }

    @Test("removing a settled member a series needs asks first, naming the series")
    func removingAsksForSeries() async throws {
        try await TestApp.with(.sqlite) { api in
            let (browser, groupID, akiID) = try await Self.flat(api)
            var aki = browser
            let erinID = try await Self.nameOnly(api, "Erin", in: groupID, by: aki)
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Rent","amount":"90000","currency":"JPY","split":{"mode":"equal","memberIds":["\#(akiID)","\#(erinID)"]}},"rule":{"every":"month","startDate":"2030-01-01"},"mode":"auto"}"#)
            try #require(series.status == .created, "\(series.text)")
            _ = try await aki.get("/groups/\(groupID)/members")
            let asked = try await aki.post("/groups/\(groupID)/members/\(erinID)/remove", [])
            #expect(asked.status == .ok && asked.text.contains(#"id="confirm-removal""#), "\(asked.text.prefix(3000))")
            #expect(asked.text.contains("Erin is settled up.") && asked.text.contains("The recurring “Rent” pauses"), "\(asked.text.prefix(3000))")
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token).list("members")
            #expect(members.first { $0.string("id") == erinID }?.bool("active") == true)
            let removed = try await aki.post("/groups/\(groupID)/members/\(erinID)/remove", [("confirm", "1")])
            #expect(removed.status == .seeOther, "\(removed.status)")
        }
    }

    @Test("a series paused for someone who left says so and offers no Resume; its form lets them be taken out")
    func pausedForSomeoneGone() async throws {
        try await TestApp.with(.sqlite) { api in
            let (browser, groupID, akiID) = try await Self.flat(api)
            var aki = browser
            let erin = try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"Erin"}"#)
            let erinID = try #require(erin.string("member", "id"))
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Rent","amount":"90000","currency":"JPY","split":{"mode":"equal","memberIds":["\#(akiID)","\#(erinID)"]}},"rule":{"every":"month","startDate":"2030-01-01"},"mode":"auto"}"#)
            let id = try #require(series.string("recurring", "id"), "\(series.text)")
            #expect(try await api.call(.delete, "/api/groups/\(groupID)/members/\(erinID)", token: aki.token).status == .ok)
            // The list: paused, why, and no Resume (it could only fail).
            let page = try await aki.get("/groups/\(groupID)/recurring")
            #expect(page.text.contains("Erin is no longer in the group; take them out of this series"), "\(page.text)")
            #expect(page.text.contains("Paused") && !page.text.contains(#"value="resume""#), "\(page.text)")
            // A Resume from a page older than the removal: the list again, why beside the series
            // (it was a page of its own whose only link led to the group list).
            let stale = try #require(try await api.call(.get, "/api/recurring/\(id)", token: aki.token).int("recurring", "version"))
            let resumed = try await aki.post(
                "/recurring/\(id)", [("version", String(stale)), ("action", "resume")])
            #expect(resumed.status == .unprocessableContent, "\(resumed.status)")
            #expect(
                resumed.text.contains(#"<p class="error" role="alert">Erin is no longer in the group; take them out of this series"#)
                    && resumed.text.contains("Recurring expenses"), "\(resumed.text)")
            // One from a page older than a change: said so, the list as it is now.
            // End asks once more first, beside the series, and ends nothing.
            let asked = try await aki.post("/recurring/\(id)", [("version", String(stale)), ("action", "end")])
            #expect(asked.status == .ok && asked.text.contains(#"id="confirm-end""#) && asked.text.contains("cannot start again"), "\(asked.text)")
            #expect(try await api.call(.get, "/api/recurring/\(id)", token: aki.token).string("recurring", "state") == "paused")
            let older = try await aki.post(
                "/recurring/\(id)", [("version", String(stale - 1)), ("action", "end"), ("confirm", "1")])
            #expect(older.status == .conflict && older.text.contains("It changed meanwhile; here it is as it is now."), "\(older.status)")
            // The form: Erin's box can be unticked (it was locked, as in an expense), and saying so.
            let form = try await aki.get("/recurring/\(id)/edit")
            #expect(form.text.contains("take them out of who paid and who shares before saving"), "\(form.text)")
            #expect(form.text.contains(#"id="in_\#(erinID)" name="in_\#(erinID)""#), "\(form.text)")
            // Saved without Erin: still paused, said so, and now it may be resumed.
            let version = try #require(try await api.call(.get, "/api/recurring/\(id)", token: aki.token).int("recurring", "version"))
            let saved = try await aki.post(
                "/recurring/\(id)/edit",
                [
                    ("version", String(version)), ("description", "Rent"), ("amount", "90000"), ("currency", "JPY"),
                    ("expenseDate", "2030-01-01"), ("mode", "equal"), ("in_\(akiID)", "1"), ("payer", akiID),
                    ("every", "month"), ("interval", "1"), ("seriesMode", "auto"),
                ])
            #expect(saved.status == .seeOther && saved.headers[.location]?.contains("done=series-saved-paused") == true, "\(saved.text.prefix(800))")
            let after = try await aki.get("/groups/\(groupID)/recurring")
            #expect(after.text.contains(#"value="resume""#) && !after.text.contains("no longer in the group"), "\(after.text)")
        }
    }

    @Test(
        "changing a series' count on its page keeps the rule's start: the count stays the count of every occurrence",
        arguments: TestDatabases.all)
    func editKeepsStart(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (browser, groupID, akiID) = try await Self.flat(api)
            var aki = browser
            // Monthly from four months ago, twelve times: four or five made already.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let first = calendar.date(byAdding: .month, value: -4, to: Date())!
            let start = String(ISO8601DateFormatter().string(from: first).prefix(8)) + "01"
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: aki.token,
                json: #"{"expense":{"description":"Gym","amount":"5000","currency":"JPY"},"rule":{"every":"month","startDate":"\#(start)","count":12},"mode":"auto"}"#)
            try #require(series.status == .created, "\(series.text)")
            let id = try #require(series.string("recurring", "id"))
            let next = try #require(series.string("recurring", "nextDate"))
            let version = try #require(series.int("recurring", "version").map(String.init))
            let made = try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").count
            #expect((4...5).contains(made), "\(made) made from \(start)")
            // act: the page's form with the count lowered to two more than made, the date left
            // as the page shows it (the next date)
            let page = try await aki.get("/recurring/\(id)/edit")
            #expect(page.status == .ok && page.text.contains(next))
            let saved = try await aki.post(
                "/recurring/\(id)/edit",
                [
                    ("description", "Gym"), ("amount", "5000"), ("currency", "JPY"), ("expenseDate", next),
                    ("mode", "equal"), ("in_\(akiID)", "1"), ("every", "month"), ("interval", "1"),
                    ("monthEnd", "clamp"), ("count", String(made + 2)), ("version", version),
                ])
            #expect(saved.status == .seeOther, "\(saved.text.prefix(1_000))")
            // validate: the same start, so two dates are left, not made + 2 more
            let after = try await api.call(.get, "/api/recurring/\(id)", token: aki.token)
            #expect(after.string("recurring", "rule", "startDate") == start, "\(after.text)")
            #expect(after.int("recurring", "rule", "count") == made + 2)
            #expect(after.strings("recurring", "upcoming").count == 2, "\(after.text)")
            // Skip its next date: the list says it is skipped (Next only left it out).
            let coming = try #require(after.strings("recurring", "upcoming").first)
            let skip = try await aki.post(
                "/recurring/\(id)",
                [("action", "skip"), ("date", coming), ("version", String(try #require(after.int("recurring", "version"))))])
            #expect(skip.status == .seeOther, "\(skip.text.prefix(800))")
            let listed = try await aki.get("/groups/\(groupID)/recurring")
            #expect(listed.text.contains("Skipped: \(coming)") && !listed.text.contains("Next: \(coming)"), "\(listed.text)")
        }
    }

    @Test("a series started in the past says its past dates were added now; one starting later says they come on their dates")
    func pastStartSaid() async throws {
        try await TestApp.with(.sqlite) { api in
            let (browser, groupID, akiID) = try await Self.flat(api)
            var aki = browser
            _ = try await aki.get("/groups/\(groupID)/recurring/new")
            for (start, done) in [("2026-01-01", "series-saved-past"), ("2099-01-01", "series-saved")] {
                let saved = try await aki.post(
                    "/groups/\(groupID)/recurring",
                    [
                        ("_id", UUID().uuidString), ("description", "Rent"), ("amount", "1000"), ("currency", "JPY"),
                        ("expenseDate", start), ("mode", "equal"), ("in_\(akiID)", "1"), ("every", "month"),
                        ("interval", "1"), ("monthEnd", "clamp"), ("seriesMode", "auto"),
                    ])
                #expect(saved.status == .seeOther, "\(saved.text.prefix(1_000))")
                #expect(saved.headers[.location]?.hasSuffix("done=\(done)") == true, "\(saved.headers[.location] ?? "")")
            }
            // A minus without the refund box is refused as on the expense form, and no series is
            // made (found by review: "-3" saved a monthly refund).
            let minus = try await aki.post(
                "/groups/\(groupID)/recurring",
                [
                    ("_id", UUID().uuidString), ("description", "Bad"), ("amount", "-3"), ("currency", "JPY"),
                    ("expenseDate", "2026-01-01"), ("mode", "equal"), ("in_\(akiID)", "1"), ("every", "month"),
                    ("interval", "1"), ("monthEnd", "clamp"), ("seriesMode", "auto"),
                ])
            #expect(minus.status == .unprocessableContent && minus.text.contains("type the amount without a minus"), "\(minus.text.prefix(1_000))")
            // Zero is said as a sentence on the page (it read "the total cannot be zero: an expense
            // is more than zero, a refund below zero").
            let zero = try await aki.post(
                "/groups/\(groupID)/recurring",
                [
                    ("_id", UUID().uuidString), ("description", "Bad"), ("amount", "0"), ("currency", "JPY"),
                    ("expenseDate", "2026-01-01"), ("mode", "equal"), ("in_\(akiID)", "1"), ("every", "month"),
                    ("interval", "1"), ("monthEnd", "clamp"), ("seriesMode", "auto"),
                ])
            #expect(zero.status == .unprocessableContent && zero.text.contains("The amount cannot be zero."), "\(zero.text.prefix(3_000))")
            let series = try await api.call(.get, "/api/groups/\(groupID)/recurring", token: aki.token)
            #expect(series.list("recurring").count == 2, "\(series.text.prefix(500))")
        }
    }
}
