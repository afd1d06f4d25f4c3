import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// "Add quickly" on a group's overview (issue 21), from the outside.
@Suite("Add quickly, on the web")
struct QuickEntryPageTests {
    /// Aki's browser, signed in, and Japan (JPY) with Aki and these name-only members.
    static func japan(_ api: API, with names: [String]) async throws -> (aki: Browser, groupID: String, code: String) {
        var aki = Browser(api)
        try await aki.register("Aki")
        let created = try await api.call(
            .post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY","memberName":"Aki"}"#)
        let groupID = try #require(created.string("group", "id"))
        for name in names {
            try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"\#(name)"}"#)
        }
        return (aki, groupID, try #require(created.string("group", "inviteCode")))
    }

    @Test("the examples are the group's own names and currency, and each reads as shown, in a flat of four and in a group of one")
    func examplesOfTheGroup() async throws {
        try await TestApp.with(.sqlite) { api in
            var aki = Browser(api)
            try await aki.register("Aki")
            for (name, others) in [("Flat", ["Sam", "Carla", "Ben"]), ("Solo", [])] {
                let created = try await api.call(
                    .post, "/api/groups", token: aki.token, json: #"{"name":"\#(name)","homeCurrency":"EUR","memberName":"Aki"}"#)
                let groupID = try #require(created.string("group", "id"))
                for other in others {
                    try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"\#(other)"}"#)
                }
                let overview = try await aki.get("/groups/\(groupID)").text
                // Found by a new user: a flat in euros read "Taxi 45.50 MYR Bo Chen" and "Aki paid 1200 yen".
                #expect(!overview.contains("MYR") && !overview.contains("Chen") && !overview.contains("yen"), "\(name)")
                let placeholder = try #require(
                    overview.range(of: #"placeholder="[^"]+" aria-describedby="quick-hint""#, options: .regularExpression).map {
                        String(overview[$0].dropFirst(#"placeholder=""#.count).prefix { $0 != "\"" })
                    })
                let hint = try #require(
                    overview.range(of: #"<p class="hint" id="quick-hint">[^<]+</p>"#, options: .regularExpression).map {
                        String(overview[$0])
                    })
                let examples = [placeholder] + hint.split(separator: "“").dropFirst().map { String($0.prefix { $0 != "”" }) }
                #expect(examples.count >= 3, "\(name): \(hint)")
                if !others.isEmpty { #expect(examples.contains { $0.contains("Carla") || $0.contains("Sam") }, "\(examples)") }
                for example in examples {
                    let read = try await api.call(
                        .post, "/api/groups/\(groupID)/quick-entry", token: aki.token,
                        json: #"{"text":"\#(example)","dryRun":true}"#)
                    #expect(read.status == .ok && read.list("problems").isEmpty, "\(name): “\(example)”: \(read.text)")
                }
            }
        }
    }

    @Test("the overview offers it; the preview shows the exact shares; Save stores once per form; problems are said; a viewer has none", arguments: TestDatabases.all)
    func quickAdd(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            var (aki, groupID, code) = try await Self.japan(api, with: ["Bo", "Chen"])
            // The overview has the box.
            let overview = try await aki.get("/groups/\(groupID)")
            #expect(overview.text.contains(#"id="quick-text""#) && overview.text.contains("data-quick-form"))
            let key = try #require(
                overview.text.range(of: #"name="_key" value="[0-9a-f-]{36}""#, options: .regularExpression).map {
                    String(overview.text[$0].dropFirst(#"name="_key" value=""#.count).dropLast())
                })
            // The form's expense id: what its previews are worked out with and Save stores.
            let formID = try #require(
                overview.text.range(of: #"name="_id" value="[0-9a-f-]{36}""#, options: .regularExpression).map {
                    String(overview.text[$0].dropFirst(#"name="_id" value=""#.count).dropLast())
                })
            // act: the preview as typed
            let line = "Hotel 30000 JPY split 2:1:1 Aki Bo Chen"
            let preview = try await aki.post("/groups/\(groupID)/quick/preview", [("text", line)])
            // validate: the shares the form would make, nothing saved
            #expect(preview.status == .ok)
            // Aki paid: her own part is not owed (found by a new user: "Jonas owes 36.00 EUR" of the payer).
            #expect(preview.text.contains("Aki <span class=\"muted\">had a share of</span> 15,000 JPY"), "\(preview.text)")
            #expect(preview.text.contains("Bo <span class=\"muted\">owes</span> 7,500 JPY"), "\(preview.text)")
            #expect(preview.text.contains("Assumed: you paid"), "\(preview.text)")
            #expect(try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").isEmpty)
            // A refund's sharers get money back: said so, without a minus (it read "owes -1,000 JPY").
            let refund = try await aki.post("/groups/\(groupID)/quick/preview", [("text", "Refund 3000 JPY to Aki split all")])
            #expect(refund.text.contains("Bo <span class=\"muted\">gets back</span> 1,000 JPY"), "\(refund.text)")
            #expect(refund.text.contains("Aki <span class=\"muted\">had a part of</span> 1,000 JPY"), "\(refund.text)")
            #expect(!refund.text.contains("owes"), "\(refund.text)")
            // Check without script: the same on a page of its own
            let checked = try await aki.post("/groups/\(groupID)/quick", [("text", line), ("intent", "check"), ("_key", key)])
            #expect(checked.status == .ok && checked.text.contains("Chen <span class=\"muted\">owes</span> 7,500 JPY"))
            // Its own page names it once (found by review: "Add quickly" twice).
            #expect(checked.text.components(separatedBy: "Add quickly</label>").count == 2, "\(checked.text.prefix(2000))")
            // Save, twice with one form: one expense
            let saved = try await aki.post(
                "/groups/\(groupID)/quick", [("text", line), ("intent", "save"), ("_key", key), ("_id", formID)])
            let again = try await aki.post(
                "/groups/\(groupID)/quick", [("text", line), ("intent", "save"), ("_key", key), ("_id", formID)])
            #expect(saved.status == .seeOther, "\(saved.text.prefix(300))")
            let location = try #require(saved.headers[.location])
            #expect(location.hasPrefix("/expenses/\(formID)") && again.headers[.location] == location, "\(location)")
            let list = try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses")
            #expect(list.count == 1 && list.first?.string("amount") == "30000")
            // A line with problems is said, and saves nothing.
            let vague = try await aki.post(
                "/groups/\(groupID)/quick", [("text", "Dinner $40 with Zed"), ("intent", "save"), ("_key", UUID().uuidString)])
            #expect(vague.status == .unprocessableContent)
            #expect(vague.text.contains("quick-problems") && vague.text.contains("Zed"), "\(vague.text.prefix(2000))")
            #expect(try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").count == 1)
            // The whole form, from there, starts with the line typed (found by review: it was lost).
            let link = try #require(
                vague.text.range(of: #"href="[^"]*" id="quick-full-form""#, options: .regularExpression).map {
                    String(vague.text[$0].dropFirst(#"href=""#.count).prefix { $0 != "\"" })
                })
            let full = try await aki.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(full.status == .ok && full.text.contains(#"value="Dinner $40 with Zed""#), "\(link) \(full.status) \(full.text.prefix(300))")
            // A viewer has no box, and may not post one.
            var vic = Browser(api)
            try await vic.register("Vic")
            try await api.call(.post, "/api/groups/join", token: vic.token, json: #"{"inviteCode":"\#(code)"}"#)
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token).list("members")
            let vicID = try #require(members.first { $0.string("name") == "Vic" }?.string("id"))
            try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(vicID)", token: aki.token, json: #"{"role":"viewer"}"#)
            let vicPage = try await vic.get("/groups/\(groupID)")
            #expect(vicPage.status == .ok && !vicPage.text.contains("quick-text"))
            let refused = try await vic.post("/groups/\(groupID)/quick", [("text", line), ("intent", "save")])
            #expect(refused.status == .forbidden, "\(refused.status)")
            #expect(try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").count == 1)
        }
    }

    @Test("what was shown is what is saved: a member who joins between the preview and Save makes it a 409 with the new split", arguments: TestDatabases.all)
    func savesWhatWasShown(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            var (aki, groupID, _) = try await Self.japan(api, with: ["Bo", "Chen", "Dan"])
            // The API: a preview's id and fingerprint; Eve joins; the save is refused, nothing written.
            let line = #"{"text":"Mochi 800 all"}"#
            let preview = try await api.call(.post, "/api/groups/\(groupID)/quick-entry", token: aki.token, json: line)
            let id = try #require(preview.string("id"))
            let fingerprint = try #require(preview.string("fingerprint"))
            #expect(preview.list("splits").count == 4)
            try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"Eve"}"#)
            let stale = try await api.call(
                .post, "/api/groups/\(groupID)/quick-entry", token: aki.token,
                json: #"{"text":"Mochi 800 all","dryRun":false,"id":"\#(id)","fingerprint":"\#(fingerprint)"}"#)
            #expect(stale.status == .conflict && stale.string("error", "code") == "preview_changed", "\(stale.text)")
            // A fingerprint without its preview's id could never match (found by review).
            let noID = try await api.call(
                .post, "/api/groups/\(groupID)/quick-entry", token: aki.token,
                json: #"{"text":"Mochi 800 all","dryRun":false,"fingerprint":"\#(fingerprint)"}"#)
            #expect(noID.status == .unprocessableContent && noID.string("error", "details", "field") == "id", "\(noID.text)")
            #expect(try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").isEmpty)
            // Previewed again, the new fingerprint saves the five shares shown.
            let again = try await api.call(.post, "/api/groups/\(groupID)/quick-entry", token: aki.token, json: line)
            #expect(again.list("splits").count == 5 && again.string("fingerprint") != fingerprint)
            let saved = try await api.call(
                .post, "/api/groups/\(groupID)/quick-entry", token: aki.token,
                json: #"{"text":"Mochi 800 all","dryRun":false,"id":"\#(again.string("id") ?? "")","fingerprint":"\#(again.string("fingerprint") ?? "")"}"#)
            #expect(saved.status == .created && saved.list("expense", "splits").count == 5, "\(saved.text)")

            // Percentages, as people say them.
            let percent = try await api.call(
                .post, "/api/groups/\(groupID)/quick-entry", token: aki.token, json: #"{"text":"Cake 1000 Aki 60% Bo 40%"}"#)
            #expect(Set(percent.list("splits").compactMap { $0.string("amount") }) == ["600", "400"], "\(percent.text)")
            #expect(percent.string("expense", "split", "mode") == "percent", "\(percent.text)")
            // The web: the preview carries its fingerprint into the form; Save after Fumi joined
            // saves nothing and shows what the line comes to now, with its own fingerprint.
            _ = try await aki.get("/groups/\(groupID)")
            let shown = try await aki.post("/groups/\(groupID)/quick/preview", [("text", "Tea 600 all")])
            let webPrint = try #require(
                shown.text.range(of: #"name="_fingerprint" value="[0-9a-f]{16}""#, options: .regularExpression).map {
                    String(shown.text[$0].dropFirst(#"name="_fingerprint" value=""#.count).dropLast())
                }, "\(shown.text)")
            try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"Fumi"}"#)
            let page = try await aki.post(
                "/groups/\(groupID)/quick",
                [("text", "Tea 600 all"), ("intent", "save"), ("_key", UUID().uuidString), ("_id", UUID().uuidString),
                    ("_fingerprint", webPrint)])
            #expect(page.status == .ok && page.text.contains("Not saved: the line comes to something else than the preview showed"), "\(page.text.prefix(3000))")
            #expect(page.text.contains("Fumi <span class=\"muted\">owes</span> 100 JPY") && !page.text.contains(webPrint))
            #expect(try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki.token).list("expenses").count == 1)
        }
    }
}
