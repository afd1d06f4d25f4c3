import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// Issue 14 items 4, 9 and 16 from the outside, on a real socket behind a trusted proxy so each
/// request can come from its own client address: strangers cannot lock an account out, logins
/// and sessions are bounded, invite codes cannot be guessed quickly.
@Suite("Login, session and invite-code limits")
struct LoginLimitTests {
    static func live(
        _ backend: Database.Backend, _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (API) async throws -> Void
    ) async throws {
        try await TestApp.with(
            backend, live: true,
            configure: {
                $0.trustedProxies = [IPNetwork("127.0.0.1")!, IPNetwork("::1")!]
                configure(&$0)
            }, body)
    }

    static func login(_ api: API, _ email: String, _ password: String, from address: String) async throws -> Reply {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Forwarded-For")!] = address
        return try await api.call(
            .post, "/auth/login", json: #"{"emailOrPhone":"\#(email)","password":"\#(password)"}"#, headers: headers)
    }

    static func register(_ api: API, _ email: String, from address: String) async throws -> String {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Forwarded-For")!] = address
        let reply = try await api.call(
            .post, "/auth/register", json: #"{"email":"\#(email)","password":"correct horse","displayName":"Aki"}"#,
            headers: headers)
        return try #require(reply.string("token"), "\(reply.text)")
    }

    @Test(
        "a stranger's ten wrong passwords lock out only the stranger; the owner logs in and changes the password",
        arguments: TestDatabases.all)
    func noLockoutByStrangers(backend: Database.Backend) async throws {
        try await Self.live(backend) { api in
            // setup: Aki registered from her phone's address
            let token = try await Self.register(api, "aki@example.com", from: "198.51.100.7")
            // act: a stranger tries ten passwords
            for _ in 0..<10 {
                let reply = try await Self.login(api, "aki@example.com", "wrong password", from: "203.0.113.66")
                #expect(reply.status == .unauthorized)
            }
            let stranger = try await Self.login(api, "aki@example.com", "correct horse", from: "203.0.113.66")
            let aki = try await Self.login(api, "AKI@example.com", "correct horse", from: "198.51.100.7")
            let akiElsewhere = try await Self.login(api, "aki@example.com", "correct horse", from: "192.0.2.1")
            let change = try await api.call(
                .post, "/auth/password", token: token,
                json: #"{"currentPassword":"correct horse","newPassword":"correct horse 2"}"#)
            // validate
            #expect(stranger.status == .tooManyRequests && stranger.errorCode == "rate_limited")
            // The same words as the successful logins' limit: which one refused is not said.
            #expect(stranger.string("error", "message")?.hasPrefix("Too many logins for now; try again in ") == true, "\(stranger.text)")
            #expect((1...900).contains(stranger.headers[.retryAfter].flatMap { Int($0) } ?? 0))
            #expect(aki.status == .ok && akiElsewhere.status == .ok)
            #expect(change.status == .noContent)
        }
    }

    @Test(
        "guessing from many addresses meets the account's ceiling, which the owner's known address passes",
        arguments: TestDatabases.all)
    func accountCeiling(backend: Database.Backend) async throws {
        try await Self.live(backend, { $0.limits.failedLoginsPerAccount = 3 }) { api in
            _ = try await Self.register(api, "aki@example.com", from: "198.51.100.7")
            for index in 1...3 {
                let reply = try await Self.login(api, "aki@example.com", "wrong", from: "203.0.113.\(index)")
                #expect(reply.status == .unauthorized)
            }
            let newAddress = try await Self.login(api, "aki@example.com", "correct horse", from: "203.0.113.200")
            let known = try await Self.login(api, "aki@example.com", "correct horse", from: "198.51.100.7")
            // An unknown email has the same ceiling: the 429 says nothing about which exist.
            for index in 1...3 {
                _ = try await Self.login(api, "nobody@example.com", "wrong", from: "203.0.113.\(index)")
            }
            let unknown = try await Self.login(api, "nobody@example.com", "wrong", from: "203.0.113.200")
            #expect(newAddress.status == .tooManyRequests)
            #expect(known.status == .ok)
            #expect(unknown.status == .tooManyRequests)
        }
    }

    @Test(
        "wrong current passwords are limited per session; another session still changes it",
        arguments: TestDatabases.all)
    func passwordChangePerSession(backend: Database.Backend) async throws {
        try await Self.live(backend, { $0.limits.wrongPasswordsPerSession = 2 }) { api in
            let stolen = try await Self.register(api, "aki@example.com", from: "198.51.100.7")
            let mine = try #require(
                try await Self.login(api, "aki@example.com", "correct horse", from: "198.51.100.7").string("token"))
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 {
                statuses.append(
                    try await api.call(
                        .post, "/auth/password", token: stolen,
                        json: #"{"currentPassword":"guess guess","newPassword":"taken over 1"}"#
                    ).status)
            }
            let change = try await api.call(
                .post, "/auth/password", token: mine,
                json: #"{"currentPassword":"correct horse","newPassword":"correct horse 2"}"#)
            #expect(statuses == [.unprocessableContent, .unprocessableContent, .tooManyRequests])
            #expect(change.status == .noContent)
            #expect(try await api.call(.get, "/auth/me", token: stolen).status == .unauthorized)
        }
    }

    @Test(
        "sessions per account are capped (the oldest ends), successful logins are throttled, sign out everywhere else",
        arguments: TestDatabases.all)
    func sessions(backend: Database.Backend) async throws {
        try await Self.live(
            backend,
            {
                $0.limits.sessionsPerUser = 3
                $0.limits.successfulLoginsPerAccount = 4
            }
        ) { api in
            let first = try await Self.register(api, "aki@example.com", from: "198.51.100.7")
            var tokens = [first]
            for _ in 0..<3 {
                let reply = try await Self.login(api, "aki@example.com", "correct horse", from: "198.51.100.7")
                tokens.append(try #require(reply.string("token"), "\(reply.text)"))
            }
            let listed = try await api.call(.get, "/auth/sessions", token: tokens[3])
            #expect(listed.list("sessions").count == 3)
            #expect(try await api.call(.get, "/auth/me", token: first).status == .unauthorized)
            #expect(try await api.call(.get, "/auth/me", token: tokens[1]).status == .ok)

            // The fourth login of the hour is fine, the fifth is refused before any hashing.
            let fourth = try await Self.login(api, "aki@example.com", "correct horse", from: "198.51.100.7")
            let fifth = try await Self.login(api, "aki@example.com", "correct horse", from: "198.51.100.7")
            #expect(fourth.status == .ok && fifth.status == .tooManyRequests)
            // The same answer as any login limit's (nothing said of the account or the password),
            // with the way for scripts (found by a new user: a script's logins locked the account).
            #expect(
                fifth.string("error", "message")?.hasPrefix("Too many logins for now; try again in ") == true
                    && fifth.string("error", "message")?.contains("can use an access token instead") == true,
                "\(fifth.text)")

            let current = try #require(fourth.string("token"))
            let revoked = try await api.call(.post, "/auth/sessions/revoke-others", token: current)
            #expect(revoked.status == .noContent)
            #expect(try await api.call(.get, "/auth/sessions", token: current).list("sessions").count == 1)
            for token in tokens.dropFirst() {
                #expect(try await api.call(.get, "/auth/me", token: token).status == .unauthorized)
            }
        }
    }

    @Test(
        "wrong invite codes are limited per client address; a right one takes its count back",
        arguments: TestDatabases.all)
    func inviteCodeGuessing(backend: Database.Backend) async throws {
        try await Self.live(backend, { $0.limits.failedJoinsPerAddress = 3 }) { api in
            let (owner, _) = try await api.register("Owner")
            let (guesser, _) = try await api.register("Guesser")
            let (friend, _) = try await api.register("Friend")
            let created = try await api.call(
                .post, "/api/groups", token: owner, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
            let code = try #require(created.string("group", "inviteCode"))
            func join(_ token: String, _ code: String, from address: String) async throws -> HTTPResponse.Status {
                var headers = HTTPFields()
                headers[HTTPField.Name("X-Forwarded-For")!] = address
                return try await api.call(
                    .post, "/api/groups/join", token: token, json: #"{"inviteCode":"\#(code)"}"#, headers: headers
                ).status
            }
            // A right code from the friend's address three times: never counted.
            for _ in 0..<3 { #expect(try await join(friend, code, from: "198.51.100.9") == .ok) }
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<4 { statuses.append(try await join(guesser, "wrongcode\(index)", from: "203.0.113.5")) }
            #expect(statuses == [.notFound, .notFound, .notFound, .tooManyRequests])
            #expect(try await join(guesser, code, from: "203.0.113.5") == .tooManyRequests)
            // The same user from another address is held by the per-user count.
            #expect(try await join(guesser, code, from: "192.0.2.44") == .tooManyRequests)
            #expect(try await join(friend, code, from: "198.51.100.9") == .ok)
        }
    }
}
