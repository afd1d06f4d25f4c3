import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// The webhook routes from the outside (issue 17): who may use them, what URLs and kinds are
/// refused, and that a secret is shown only by create and rotate.
@Suite("Webhook API")
struct WebhookAPITests {
    typealias Caller = AuthorizationMatrixTests.Caller

    /// Port 9 refuses connections at once, so the server's own runner fails pings quickly.
    static let url = "http://127.0.0.1:9/hook"

    struct Route: Sendable {
        var name: String
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        var success: HTTPResponse.Status
    }

    @Test(
        "every webhook route: owner and admin may, member and viewer get 403, outsiders 404, no token 401",
        arguments: TestDatabases.all)
    func roles(backend: Database.Backend) async throws {
        try await TestApp.with(backend, configure: { $0.webhookAllowPrivate = true }) { api in
            let cast = try await AuthorizationMatrixTests.cast(api)
            let fixture = try await AuthorizationMatrixTests.fixture(api, cast)
            let base = "/api/groups/\(fixture.groupID)/webhooks"
            let owner = cast.tokens[.owner]
            for caller in Caller.allCases {
                // A fresh webhook for each caller, so a delete by one leaves the next its own.
                let created = try await api.call(
                    .post, base, token: owner, json: #"{"url":"\#(Self.url)","kinds":["expense.created"]}"#)
                try #require(created.status == .created, "\(created.text)")
                let id = try #require(created.string("webhook", "id"))
                let routes = [
                    Route(name: "list", method: .get, path: base, success: .ok),
                    Route(
                        name: "create", method: .post, path: base,
                        body: #"{"url":"\#(Self.url)","kinds":["*"]}"#, success: .created),
                    Route(name: "get", method: .get, path: "\(base)/\(id)", success: .ok),
                    Route(
                        name: "update", method: .patch, path: "\(base)/\(id)", body: #"{"enabled":false}"#,
                        success: .ok),
                    Route(name: "rotate", method: .post, path: "\(base)/\(id)/rotate-secret", success: .ok),
                    Route(name: "ping", method: .post, path: "\(base)/\(id)/ping", success: .accepted),
                    Route(name: "deliveries", method: .get, path: "\(base)/\(id)/deliveries", success: .ok),
                    Route(name: "delete", method: .delete, path: "\(base)/\(id)", success: .noContent),
                ]
                for route in routes {
                    let expected: HTTPResponse.Status =
                        switch caller {
                        case .anonymous, .malformed, .expired, .revoked: .unauthorized
                        case .outsider: .notFound
                        case .viewer, .member: .forbidden
                        case .admin, .owner: route.success
                        }
                    let reply = try await api.call(
                        route.method, route.path, token: cast.tokens[caller], json: route.body)
                    #expect(reply.status == expected, "\(route.name) as \(caller): \(reply.text)")
                    if expected != route.success { #expect(reply.errorCode != nil, "\(route.name): no envelope") }
                }
                // Keep the group under its limit: remove what this caller made.
                let list = try await api.call(.get, base, token: owner)
                for webhook in list.list("webhooks") {
                    try await api.call(.delete, "\(base)/\(webhook.string("id")!)", token: owner)
                }
            }
        }
    }

    @Test("another group's webhook is a 404 exactly like an unknown id", arguments: TestDatabases.all)
    func foreignWebhook(backend: Database.Backend) async throws {
        try await TestApp.with(backend, configure: { $0.webhookAllowPrivate = true }) { api in
            let (aki, _) = try await api.register("Aki")
            let (zed, _) = try await api.register("Zed")
            let mine = try #require(
                try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Mine","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            let theirs = try #require(
                try await api.call(.post, "/api/groups", token: zed, json: #"{"name":"Theirs","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            let theirHook = try #require(
                try await api.call(
                    .post, "/api/groups/\(theirs)/webhooks", token: zed, json: #"{"url":"\#(Self.url)","kinds":["*"]}"#
                ).string("webhook", "id"))
            let unknown = try await api.call(.get, "/api/groups/\(mine)/webhooks/\(UUID())", token: aki)
            let foreign = try await api.call(.get, "/api/groups/\(mine)/webhooks/\(theirHook)", token: aki)
            let foreignPing = try await api.call(.post, "/api/groups/\(mine)/webhooks/\(theirHook)/ping", token: aki)
            #expect(unknown.status == .notFound)
            #expect(foreign.body == unknown.body && foreignPing.body == unknown.body)
            let otherGroup = try await api.call(.get, "/api/groups/\(theirs)/webhooks", token: aki)
            #expect(otherGroup.status == .notFound)
        }
    }

    @Test(
        "URLs that are not https, hold credentials or a fragment, name a private address or are too long are refused",
        arguments: TestDatabases.all)
    func badURLs(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let group = try #require(
                try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            let bad = [
                "ftp://example.org/hook", "http://example.org/hook", "https://user:pass@example.org/hook",
                "https://example.org/hook#part", "https://10.0.0.5/hook", "https://127.0.0.1/hook",
                "https://[::1]/hook", "https://169.254.169.254/latest", "https://[::ffff:192.168.0.1]/",
                "https://localhost/hook", "https:///hook", "not a url",
                "https://example.org/" + String(repeating: "a", count: 2_000),
                // IPv4 shorthands the resolver reads as loopback or "this network" (found by review).
                "https://2130706433/h", "https://0x7f000001/h", "https://0177.0.0.1/h", "https://127.1/h", "https://0/h",
                "https://10.1/h",
            ]
            for url in bad {
                let reply = try await api.call(
                    .post, "/api/groups/\(group)/webhooks", token: aki, json: #"{"url":"\#(url)","kinds":["*"]}"#)
                #expect(reply.status == .unprocessableContent, "\(url.prefix(60)): \(reply.text)")
                #expect(reply.string("error", "details", "field") == "url", "\(url.prefix(60)): \(reply.text)")
            }
            let good = try await api.call(
                .post, "/api/groups/\(group)/webhooks", token: aki,
                json: #"{"url":"https://hooks.example.org/splitter?team=1","kinds":["expense.created"]}"#)
            #expect(good.status == .created, "\(good.text)")
            // A host name of hex letters is a name, not an address.
            let named = try await api.call(
                .post, "/api/groups/\(group)/webhooks", token: aki, json: #"{"url":"https://cafe.be/hook","kinds":["*"]}"#)
            #expect(named.status == .created, "\(named.text)")
            // Changing it to a bad URL is refused the same way.
            let id = try #require(good.string("webhook", "id"))
            let patch = try await api.call(
                .patch, "/api/groups/\(group)/webhooks/\(id)", token: aki, json: #"{"url":"https://192.168.1.1/"}"#)
            #expect(patch.status == .unprocessableContent && patch.string("error", "details", "field") == "url")
        }
    }

    @Test("unknown or no event kinds are refused, naming the kind", arguments: TestDatabases.all)
    func kinds(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let group = try #require(
                try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            let path = "/api/groups/\(group)/webhooks"
            let unknown = try await api.call(
                .post, path, token: aki,
                json: #"{"url":"https://example.org/h","kinds":["expense.created","expense.exploded"]}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.string("error", "details", "field") == "kinds[1]")
            #expect(unknown.string("error", "message")?.contains("expense.exploded") == true)
            let none = try await api.call(.post, path, token: aki, json: #"{"url":"https://example.org/h","kinds":[]}"#)
            #expect(none.status == .unprocessableContent, "\(none.text)")
            let chosen = try await api.call(
                .post, path, token: aki,
                json:
                    #"{"url":"https://example.org/h","kinds":["settlement.recorded","expense.created","expense.created"]}"#
            )
            #expect(chosen.strings("webhook", "kinds") == ["expense.created", "settlement.recorded"])
            let all = try await api.call(
                .post, path, token: aki, json: #"{"url":"https://example.org/h","kinds":["*"]}"#)
            #expect(all.strings("webhook", "kinds") == ["*"])
        }
    }

    @Test("the secret is shown by create and rotate only; at most 10 webhooks a group", arguments: TestDatabases.all)
    func secretsAndLimit(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let group = try #require(
                try await api.call(.post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            let path = "/api/groups/\(group)/webhooks"
            let created = try await api.call(
                .post, path, token: aki, json: #"{"url":"https://example.org/h","kinds":["*"]}"#)
            let secret = try #require(created.string("secret"))
            #expect(secret.hasPrefix("whsec_") && secret.count == 6 + 43)
            let id = try #require(created.string("webhook", "id"))
            let list = try await api.call(.get, path, token: aki)
            let one = try await api.call(.get, "\(path)/\(id)", token: aki)
            let patched = try await api.call(.patch, "\(path)/\(id)", token: aki, json: #"{"enabled":false}"#)
            for reply in [list, one, patched] {
                #expect(reply.status == .ok)
                #expect(
                    !reply.text.contains(secret) && !reply.text.contains("whsec_") && !reply.text.contains("secret"))
            }
            #expect(patched.bool("webhook", "enabled") == false)
            #expect(patched.string("webhook", "disabledReason")?.contains("Aki") == true)
            let rotated = try await api.call(.post, "\(path)/\(id)/rotate-secret", token: aki)
            let newSecret = try #require(rotated.string("secret"))
            #expect(newSecret.hasPrefix("whsec_") && newSecret != secret)
            // Ten in all, then a 409.
            for _ in 0..<9 {
                let reply = try await api.call(
                    .post, path, token: aki, json: #"{"url":"https://example.org/h","kinds":["*"]}"#)
                #expect(reply.status == .created)
            }
            let eleventh = try await api.call(
                .post, path, token: aki, json: #"{"url":"https://example.org/h","kinds":["*"]}"#)
            #expect(eleventh.status == .conflict && eleventh.errorCode == "too_many_webhooks", "\(eleventh.text)")
        }
    }

    @Test(
        "an admin's webhooks are turned off when they are made a member or removed; the owner's stay; another admin may turn one back on",
        arguments: TestDatabases.all)
    func creatorLosesTheRight(backend: Database.Backend) async throws {
        try await TestApp.with(backend, configure: { $0.webhookAllowPrivate = true }) { api in
            let cast = try await AuthorizationMatrixTests.cast(api)
            let fixture = try await AuthorizationMatrixTests.fixture(api, cast)
            let base = "/api/groups/\(fixture.groupID)/webhooks"
            func create(_ caller: Caller) async throws -> String {
                let created = try await api.call(
                    .post, base, token: cast.tokens[caller], json: #"{"url":"\#(Self.url)","kinds":["*"]}"#)
                try #require(created.status == .created, "\(created.text)")
                return try #require(created.string("webhook", "id"))
            }
            let admins = try await create(.admin)
            let owners = try await create(.owner)
            let owner = cast.tokens[.owner]
            // Found by review: the owner's webhooks that the admin pointed elsewhere or re-keyed
            // kept sending to the admin's server after the admin lost the right.
            let pointed = try await create(.owner)
            let repointed = try await api.call(
                .patch, "\(base)/\(pointed)", token: cast.tokens[.admin], json: #"{"url":"\#(Self.url)/b"}"#)
            try #require(repointed.status == .ok, "\(repointed.text)")
            let keyed = try await create(.owner)
            let rotated = try await api.call(.post, "\(base)/\(keyed)/rotate-secret", token: cast.tokens[.admin])
            try #require(rotated.status == .ok, "\(rotated.text)")

            // act: the owner makes the admin a member
            let demoted = try await api.call(
                .patch, "/api/groups/\(fixture.groupID)/members/\(fixture.members[.admin]!)", token: owner,
                json: #"{"role":"member"}"#)
            try #require(demoted.status == .ok, "\(demoted.text)")

            // validate: the admin's webhook is off, with the reason; the owner's is on
            let after = try await api.call(.get, "\(base)/\(admins)", token: owner)
            #expect(after.bool("webhook", "enabled") == false || after.bool("enabled") == false, "\(after.text)")
            #expect(after.text.contains("no longer manages this group"), "\(after.text)")
            let kept = try await api.call(.get, "\(base)/\(owners)", token: owner)
            #expect(kept.bool("webhook", "enabled") == true || kept.bool("enabled") == true, "\(kept.text)")
            for id in [pointed, keyed] {
                let turnedOff = try await api.call(.get, "\(base)/\(id)", token: owner)
                #expect(turnedOff.text.contains("no longer manages this group"), "\(turnedOff.text)")
            }

            // The owner may turn it back on, knowing whose URL it is.
            let again = try await api.call(.patch, "\(base)/\(admins)", token: owner, json: #"{"enabled":true}"#)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.bool("webhook", "enabled") == true || again.bool("enabled") == true, "\(again.text)")
        }
    }
}
