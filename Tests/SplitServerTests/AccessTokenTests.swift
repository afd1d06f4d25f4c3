import Foundation
import HTTPTypes
import SQLKit
import SplitApp
import SplitStore
import SplitTestSupport
import Testing

/// Personal access tokens from the outside (issue 21): what a read token, a write token and a
/// token for one group may do, and that none may touch the account.
@Suite("Personal access tokens over HTTP")
struct AccessTokenTests {
    /// Aki with a group Japan (one expense) and a group Home; returns Aki's login and the ids.
    static func setUp(_ api: API) async throws -> (login: String, japan: String, home: String) {
        let aki = try await api.register("Aki")
        var ids: [String] = []
        for name in ["Japan", "Home"] {
            ids.append(
                try #require(
                    try await api.call(.post, "/api/groups", token: aki.token, json: #"{"name":"\#(name)","homeCurrency":"JPY"}"#)
                        .string("group", "id")))
        }
        try await expense(api, aki.token, group: ids[0], expect: .created)
        return (aki.token, ids[0], ids[1])
    }

    @discardableResult
    static func expense(_ api: API, _ token: String, group: String, expect status: HTTPResponse.Status) async throws -> Reply {
        let reply = try await api.call(
            .post, "/api/expenses", token: token,
            json: #"{"groupId":"\#(group)","description":"Ramen","amount":"1200","currency":"JPY","expenseDate":"2026-05-01"}"#)
        #expect(reply.status == status, "\(reply.text)")
        return reply
    }

    static func make(_ api: API, _ login: String, _ json: String) async throws -> (id: String, secret: String) {
        let reply = try await api.call(.post, "/api/tokens", token: login, json: json)
        try #require(reply.status == .created, "\(reply.text)")
        return (try #require(reply.string("token", "id")), try #require(reply.string("secret")))
    }

    static func expenseCount(_ api: API, _ login: String, _ group: String) async throws -> Int {
        try await api.call(.get, "/api/groups/\(group)/expenses", token: login).list("expenses").count
    }

    @Test("a read token reads, is refused every write and everything of the account; only its hash is kept", arguments: TestDatabases.all)
    func readToken(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (login, japan, _) = try await Self.setUp(api)
            // act
            let made = try await api.call(.post, "/api/tokens", token: login, json: #"{"name":"sheet","scopes":["read"]}"#)
            // validate: the secret once, the token as listed
            #expect(made.status == .created, "\(made.text)")
            let secret = try #require(made.string("secret"))
            #expect(secret.hasPrefix("spt_"))
            #expect(made.strings("token", "scopes") == ["read"])
            #expect(made.string("token", "name") == "sheet")
            // Never used yet, and listed so (found by review: a new token read as used when made).
            #expect(made.string("token", "lastUsedAt") == nil, "\(made.text)")
            #expect(try await api.call(.get, "/api/tokens", token: login).list("tokens").first?.string("lastUsedAt") == nil)
            // reads as Aki does
            #expect(try await api.call(.get, "/api/groups", token: secret).list("groups").count == 2)
            #expect(try await api.call(.get, "/api/groups/\(japan)/balances", token: secret).status == .ok)
            #expect(try await api.call(.get, "/auth/me", token: secret).string("user", "displayName") == "Aki")
            // Its first use is its last use, however soon after it was made.
            #expect(try await api.call(.get, "/api/tokens", token: login).list("tokens").first?.string("lastUsedAt") != nil)
            // every write refused, nothing written
            let write = try await Self.expense(api, secret, group: japan, expect: .forbidden)
            #expect(write.string("error", "message")?.contains("only read") == true, "\(write.text)")
            #expect(try await Self.expenseCount(api, login, japan) == 1)
            // never the account: password, logins, tokens, mail, export
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/auth/password", #"{"currentPassword":"correct horse","newPassword":"another horse"}"#),
                (.get, "/auth/sessions", nil), (.post, "/auth/sessions/revoke-others", nil), (.post, "/auth/logout", nil),
                (.get, "/auth/export", nil), (.get, "/api/tokens", nil), (.post, "/api/tokens", #"{"name":"x","scopes":["read"]}"#),
                (.patch, "/auth/me", #"{"displayName":"Taken over"}"#),
            ] {
                let reply = try await api.call(method, path, token: secret, json: body)
                #expect(reply.status == .forbidden, "\(method) \(path): \(reply.status) \(reply.text)")
            }
            #expect(try await api.call(.get, "/auth/me", token: login).status == .ok)
            // the login lists it, never the secret; the database has only the hash
            let listed = try await api.call(.get, "/api/tokens", token: login)
            #expect(listed.list("tokens").count == 1 && !listed.text.contains(secret))
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            let rows = try await database.read { sql in
                try await sql.raw("SELECT token_hash FROM sessions WHERE scopes IS NOT NULL").all().map {
                    try $0.decode(column: "token_hash", as: String.self)
                }
            }
            try await database.close()
            #expect(rows == [SessionToken.hash(secret)])
            // the web app takes a login only: a token in its cookie is sent to log in
            let page = try await api.call(.get, "/groups", headers: [.cookie: "splitter_session=\(secret)", .accept: "text/html"])
            #expect(page.status.code / 100 == 3 && page.headers[.location]?.contains("/login") == true, "\(page.status)")
            let loggedIn = try await api.call(.get, "/groups", headers: [.cookie: "splitter_session=\(login)", .accept: "text/html"])
            #expect(loggedIn.status == .ok)
            // a login's session list does not show tokens
            #expect(try await api.call(.get, "/auth/sessions", token: login).list("sessions").count == 1)
        }
    }

    @Test("a write token for one group: the other is not found, lists show only its group, nothing spans the account", arguments: TestDatabases.all)
    func groupToken(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (login, japan, home) = try await Self.setUp(api)
            let (_, secret) = try await Self.make(
                api, login, #"{"name":"trip bot","scopes":["write"],"groupIds":["\#(japan.uppercased())"]}"#)
            // writes in Japan; Home does not exist for it
            try await Self.expense(api, secret, group: japan, expect: .created)
            try await Self.expense(api, secret, group: home, expect: .notFound)
            #expect(try await api.call(.get, "/api/groups/\(home)", token: secret).status == .notFound)
            #expect(try await api.call(.get, "/api/groups", token: secret).list("groups").map { $0.string("id") } == [japan])
            #expect(try await Self.expenseCount(api, login, japan) == 2)
            #expect(try await Self.expenseCount(api, login, home) == 0)
            // what spans the account is refused
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/api/groups", #"{"name":"Other","homeCurrency":"EUR"}"#),
                (.get, "/api/me/summary", nil), (.get, "/api/notifications", nil), (.get, "/api/me/budget", nil),
            ] {
                let reply = try await api.call(method, path, token: secret, json: body)
                #expect(reply.status == .forbidden, "\(method) \(path): \(reply.status) \(reply.text)")
            }
            // a write token says write and read
            let listed = try await api.call(.get, "/api/tokens", token: login).list("tokens")
            #expect(listed.first?.strings("scopes") == ["read", "write"])
            #expect(listed.first?.strings("groupIds") == [japan])
        }
    }

    @Test("bad requests are refused by field; another's group, past or far expiry, more than 50", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (login, japan, _) = try await Self.setUp(api)
            let ben = try await api.register("Ben")
            let bens = try #require(
                try await api.call(.post, "/api/groups", token: ben.token, json: #"{"name":"Ben's","homeCurrency":"EUR"}"#)
                    .string("group", "id"))
            let inAYear = ISO8601DateFormatter().string(from: Date().addingTimeInterval(400 * 86_400))
            let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
            for (json, field) in [
                (#"{"name":"x","scopes":["read"],"groupIds":["\#(bens)"]}"#, "groupIds"),
                (#"{"name":"x","scopes":["read"],"expiresAt":"\#(inAYear)"}"#, "expiresAt"),
                (#"{"name":"x","scopes":["read"],"expiresAt":"\#(past)"}"#, "expiresAt"),
                (#"{"name":" ","scopes":["read"]}"#, "name"),
            ] {
                let reply = try await api.call(.post, "/api/tokens", token: login, json: json)
                #expect(reply.status == .unprocessableContent, "\(json): \(reply.text)")
                #expect(reply.string("error", "details", "field") == field, "\(json): \(reply.text)")
            }
            for json in [#"{"name":"x","scopes":["admin"]}"#, #"{"name":"x","scopes":[]}"#, #"{"name":"x"}"#] {
                let reply = try await api.call(.post, "/api/tokens", token: login, json: json)
                #expect([.badRequest, .unprocessableContent].contains(reply.status), "\(json): \(reply.text)")
            }
            #expect(try await api.call(.get, "/api/tokens", token: login).list("tokens").isEmpty)
            // 50 work; the 51st is refused until one is revoked
            var first = ""
            for index in 0..<50 {
                let made = try await Self.make(api, login, #"{"name":"t\#(index)","scopes":["read"]}"#)
                if index == 0 { first = made.id }
            }
            let more = try await api.call(.post, "/api/tokens", token: login, json: #"{"name":"one more","scopes":["read"]}"#)
            #expect(more.status == .conflict, "\(more.text)")
            #expect(try await api.call(.delete, "/api/tokens/\(first)", token: login).status == .noContent)
            _ = try await Self.make(api, login, #"{"name":"one more","scopes":["read"]}"#)
            #expect(try await api.call(.get, "/api/groups/\(japan)", token: login).status == .ok)
        }
    }

    @Test("revoked and expired tokens are a 401; only their owner's login revokes; signing out elsewhere revokes tokens too", arguments: TestDatabases.all)
    func revocation(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (login, japan, _) = try await Self.setUp(api)
            let ben = try await api.register("Ben")
            let one = try await Self.make(api, login, #"{"name":"one","scopes":["read"]}"#)
            let two = try await Self.make(api, login, #"{"name":"two","scopes":["read"]}"#)
            let three = try await Self.make(api, login, #"{"name":"three","scopes":["read"]}"#)
            // Ben cannot revoke Aki's; a token cannot revoke itself
            #expect(try await api.call(.delete, "/api/tokens/\(one.id)", token: ben.token).status == .notFound)
            #expect(try await api.call(.delete, "/api/tokens/\(one.id)", token: one.secret).status == .forbidden)
            #expect(try await api.call(.delete, "/auth/sessions/\(one.id)", token: login).status == .notFound)
            // act: Aki revokes one; two expires
            #expect(try await api.call(.delete, "/api/tokens/\(one.id)", token: login).status == .noContent)
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            try await database.transaction { sql in
                try await sql.raw("UPDATE sessions SET expires_at = 1 WHERE id = \(bind: two.id)").run()
            }
            try await database.close()
            // validate
            let revoked = try await api.call(.get, "/api/groups/\(japan)", token: one.secret)
            #expect(revoked.status == .unauthorized && revoked.headers[.wwwAuthenticate] != nil)
            #expect(try await api.call(.get, "/api/groups/\(japan)", token: two.secret).status == .unauthorized)
            let listed = try await api.call(.get, "/api/tokens", token: login).list("tokens")
            // Newest first by the second they were made in: two and three were most likely made
            // in the same one, and their order is then their ids'.
            #expect(Set(listed.map { $0.string("name") }) == ["three", "two"] && listed.count == 2)
            #expect(listed.first { $0.string("name") == "two" }?.bool("isExpired") == true)
            #expect(listed.first { $0.string("name") == "three" }?.bool("isExpired") == false)
            // signing out everywhere else ends the tokens too; the login goes on
            #expect(try await api.call(.get, "/api/groups/\(japan)", token: three.secret).status == .ok)
            #expect(try await api.call(.post, "/auth/sessions/revoke-others", token: login).status == .noContent)
            #expect(try await api.call(.get, "/api/groups/\(japan)", token: three.secret).status == .unauthorized)
            #expect(try await api.call(.get, "/api/groups/\(japan)", token: login).status == .ok)
        }
    }
}
