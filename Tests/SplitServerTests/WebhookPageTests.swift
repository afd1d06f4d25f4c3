import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// The webhooks pages (issue 17) from the outside: reachable from Settings for admins, the
/// secret shown once after adding, turning off and on, the delivery log; a member is refused.
@Suite("Webhook pages")
struct WebhookPageTests {
    @Test("an owner adds a webhook and sees its secret once, turns it off, sends a test and reads the log")
    func ownerFlow() async throws {
        try await TestApp.with(.sqlite, configure: { $0.webhookAllowPrivate = true }) { api in
            var aki = Browser(api)
            try await aki.register("Aki")
            let created = try await api.call(
                .post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))

            // Settings links to the webhooks page.
            let settings = try await aki.get("/groups/\(groupID)/settings")
            #expect(settings.text.contains("/groups/\(groupID)/webhooks"))
            let empty = try await aki.get("/groups/\(groupID)/webhooks")
            #expect(empty.status == .ok && empty.text.contains("No webhooks yet"), "\(empty.text.prefix(500))")

            // A bad URL comes back with the message next to the field.
            let bad = try await aki.post(
                "/groups/\(groupID)/webhooks", [("action", "add"), ("url", "ftp://example.org/x"), ("kinds", "*")])
            #expect(bad.status == .unprocessableContent && bad.text.contains("id=\"url-error\""))

            // act: add one
            let added = try await aki.post(
                "/groups/\(groupID)/webhooks",
                [("action", "add"), ("url", "http://127.0.0.1:9/hook"), ("kinds", "expense.created")])
            #expect(added.status == .ok)
            let secret = try #require(
                added.text.range(of: #"whsec_[A-Za-z0-9_-]{43}"#, options: .regularExpression).map {
                    String(added.text[$0])
                })
            #expect(added.text.contains("Splitter-Signature"))
            // Shown once: the list does not have it.
            let list = try await aki.get("/groups/\(groupID)/webhooks")
            #expect(!list.text.contains(secret) && list.text.contains("http://127.0.0.1:9/hook"))
            let hooks = try await api.call(.get, "/api/groups/\(groupID)/webhooks", token: aki.token)
            let id = try #require(hooks.list("webhooks").first?.string("id"))

            // Off, then on; a test delivery shows in the log.
            let off = try await aki.post("/groups/\(groupID)/webhooks", [("action", "disable"), ("webhookId", id)])
            #expect(off.status == .seeOther)
            #expect(try await aki.get("/groups/\(groupID)/webhooks").text.contains("Disabled by Aki"))
            _ = try await aki.post("/groups/\(groupID)/webhooks", [("action", "enable"), ("webhookId", id)])
            let ping = try await aki.post("/groups/\(groupID)/webhooks", [("action", "ping"), ("webhookId", id)])
            #expect(ping.status == .seeOther && ping.headers[.location]?.contains("/webhooks/\(id)") == true)
            let log = try await aki.get("/groups/\(groupID)/webhooks/\(id)")
            #expect(log.status == .ok && log.text.contains("<strong>ping</strong>"), "\(log.text.prefix(800))")

            // A member sees no link and is refused the page; nothing changes.
            var ben = Browser(api)
            try await ben.register("Ben")
            _ = try await api.call(.post, "/api/groups/join", token: ben.token, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(!(try await ben.get("/groups/\(groupID)/settings").text.contains("/webhooks\"")))
            #expect(try await ben.get("/groups/\(groupID)/webhooks").status == .forbidden)
            let refused = try await ben.post("/groups/\(groupID)/webhooks", [("action", "delete"), ("webhookId", id)])
            #expect(refused.status == .forbidden)
            #expect(
                try await api.call(.get, "/api/groups/\(groupID)/webhooks", token: aki.token).list("webhooks").count
                    == 1)

            // Delete.
            let deleted = try await aki.post("/groups/\(groupID)/webhooks", [("action", "delete"), ("webhookId", id)])
            #expect(deleted.status == .seeOther)
            #expect(try await aki.get("/groups/\(groupID)/webhooks").text.contains("No webhooks yet"))
        }
    }
}
