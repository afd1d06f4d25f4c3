import Foundation
import NIOCore
import HTTPTypes
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// DESIGN §4 from the outside: every route of the API × every kind of caller → the status the
/// table says, and a refused write changes nothing.
@Suite("Authorization matrix")
struct AuthorizationMatrixTests {
    enum Caller: String, CaseIterable, Sendable {
        case anonymous, malformed, expired, revoked, outsider, viewer, member, admin, owner
    }

    /// The people of one test: each role's token and user id.
    struct Cast: Sendable {
        var tokens: [Caller: String] = [:]
    }

    /// One group as each role sees it.
    struct Fixture: Sendable {
        var groupID: String
        var members: [Caller: String]  // member ids of viewer, member, admin, owner
        var danID: String  // a name-only member
        var eveID: String  // a name-only admin: another admin than the caller
        var expenseID: String  // the owner's, split among everyone
        var danShareID: String  // Dan's share of it: no caller is its debtor
        var settlementID: String  // owner → Dan, recorded by hand
        var customCategoryID: String
        var categoryIDs: [String]
    }

    struct Route: Sendable {
        var name: String
        var method: HTTPRequest.Method
        var path: @Sendable (Fixture, Caller) -> String
        var body: @Sendable (Fixture, Caller) -> String? = { _, _ in nil }
        /// The body's media type (an import sends a CSV file).
        var contentType = "application/json"
        /// For viewer, member, admin, owner; anonymous…revoked are 401 and outsiders 404 for every group route.
        var expected: [Caller: HTTPResponse.Status]
    }

    static func roles(
        _ viewer: HTTPResponse.Status, _ member: HTTPResponse.Status, _ admin: HTTPResponse.Status,
        _ owner: HTTPResponse.Status
    )
        -> [Caller: HTTPResponse.Status]
    {
        [.viewer: viewer, .member: member, .admin: admin, .owner: owner]
    }

    static let groupRoutes: [Route] = [
        Route(
            name: "export the group", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/export?format=csv" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "import a Splitwise file into the group", method: .post,
            path: { f, _ in "/api/groups/\(f.groupID)/imports?format=splitwise" },
            body: { _, caller in
                "Date,Description,Category,Cost,Currency,Zed,Yan\n2026-05-01,Import \(caller.rawValue),Meal,10,JPY,5,-5\n"
            }, contentType: "text/csv",
            expected: roles(.forbidden, .forbidden, .created, .created)),
        Route(
            name: "get group", method: .get, path: { f, _ in "/api/groups/\(f.groupID)" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "update group", method: .patch, path: { f, _ in "/api/groups/\(f.groupID)" },
            body: { _, _ in #"{"name":"Renamed"}"# },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "archive", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/archive" },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "unarchive", method: .delete, path: { f, _ in "/api/groups/\(f.groupID)/archive" },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "rotate invite code", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/invite-code" },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "disable invite code", method: .delete, path: { f, _ in "/api/groups/\(f.groupID)/invite-code" },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "transfer ownership", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/transfer-ownership" },
            body: { f, _ in #"{"memberId":"\#(f.members[.admin]!)"}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "list members", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/members" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "add member", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/members" },
            body: { _, caller in #"{"name":"Eve \#(caller.rawValue)"}"# },
            expected: roles(.forbidden, .forbidden, .created, .created)),
        Route(
            name: "rename a name-only member", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.danID)" }, body: { _, caller in #"{"name":"Daniel \#(caller.rawValue)"}"# },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "rename oneself", method: .patch,
            path: { f, caller in "/api/groups/\(f.groupID)/members/\(f.members[caller] ?? f.danID)" },
            body: { _, caller in #"{"name":"Me Myself \#(caller.rawValue)"}"# }, expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "change flags", method: .patch, path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.danID)" },
            body: { _, _ in #"{"canMarkPaid":false}"# }, expected: roles(.forbidden, .forbidden, .ok, .ok)),
        // Issue 14: nobody changes their own flags or role (an admin lifted a restriction the
        // owner set on it), and only the owner acts on admins.
        Route(
            name: "change one's own flags", method: .patch,
            path: { f, caller in "/api/groups/\(f.groupID)/members/\(f.members[caller] ?? f.danID)" },
            body: { _, _ in #"{"canMarkPaid":false}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .forbidden)),
        Route(
            name: "change an admin's flags", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.admin]!)" },
            body: { _, _ in #"{"canMarkPaid":false}"# }, expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "change an admin's role", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.admin]!)" },
            body: { _, _ in #"{"role":"member"}"# }, expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "make a member admin", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.member]!)" },
            body: { _, _ in #"{"role":"admin"}"# }, expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "remove another admin", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.eveID)?confirmBalance=true" },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "leave (remove oneself)", method: .delete,
            path: { f, caller in
                "/api/groups/\(f.groupID)/members/\(f.members[caller] ?? f.danID)?confirmBalance=true"
            },
            expected: roles(.ok, .ok, .ok, .forbidden)),
        Route(
            name: "change a member's role", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.member]!)" },
            body: { _, _ in #"{"role":"viewer"}"# },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "rename the owner", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.owner]!)" },
            body: { _, caller in #"{"name":"Boss \#(caller.rawValue)"}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "make someone owner by role", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.danID)" }, body: { _, _ in #"{"role":"owner"}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .forbidden)),
        Route(
            name: "remove a member who owes, unconfirmed", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.danID)" },
            expected: roles(.forbidden, .forbidden, .conflict, .conflict)),
        Route(
            name: "remove a member", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.danID)?confirmBalance=true" },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        // Issue 14 item 5: claims of members with money history wait for an owner or admin.
        Route(
            name: "list claims", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/claims" },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "approve a claim nobody made", method: .post,
            path: { f, _ in "/api/groups/\(f.groupID)/claims/\(f.danID)" },
            expected: roles(.forbidden, .forbidden, .notFound, .notFound)),
        Route(
            name: "reject a claim nobody made", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/claims/\(f.danID)" },
            expected: roles(.forbidden, .forbidden, .notFound, .notFound)),
        Route(
            name: "approve a claim of an admin", method: .post,
            path: { f, _ in "/api/groups/\(f.groupID)/claims/\(f.members[.admin]!)" },
            expected: roles(.forbidden, .forbidden, .forbidden, .notFound)),
        Route(
            name: "remove the owner", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/members/\(f.members[.owner]!)?confirmBalance=true" },
            expected: roles(.forbidden, .forbidden, .forbidden, .forbidden)),
        // Issue 4: categories, expenses, shares, settlements, balances, rates, activity, changes.
        Route(
            name: "list categories", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/categories" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "add a category", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/categories" },
            body: { _, caller in #"{"name":"By \#(caller)"}"# },
            expected: roles(.forbidden, .forbidden, .created, .created)),
        Route(
            name: "rename a category", method: .patch,
            path: { f, _ in "/api/groups/\(f.groupID)/categories/\(f.customCategoryID)" },
            body: { _, caller in #"{"name":"Hot spring \#(caller)","version":\#(caller == .owner ? 2 : 1)}"# },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "reorder categories", method: .put, path: { f, _ in "/api/groups/\(f.groupID)/categories/order" },
            body: { f, _ in
                #"{"categoryIds":[\#(f.categoryIDs.reversed().map { #""\#($0)""# }.joined(separator: ","))]}"#
            },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "delete a category", method: .delete,
            path: { f, _ in "/api/groups/\(f.groupID)/categories/\(f.customCategoryID)" },
            expected: roles(.forbidden, .forbidden, .noContent, .notFound)),
        Route(
            name: "add an expense", method: .post, path: { _, _ in "/api/expenses" },
            body: { f, _ in
                #"{"groupId":"\#(f.groupID)","description":"Taxi","amount":"1200","currency":"JPY","expenseDate":"2026-11-21"}"#
            }, expected: roles(.forbidden, .created, .created, .created)),
        Route(
            name: "list expenses", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/expenses" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "get an expense", method: .get, path: { f, _ in "/api/expenses/\(f.expenseID)" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "edit someone else's expense", method: .patch, path: { f, _ in "/api/expenses/\(f.expenseID)" },
            body: { _, _ in #"{"description":"Late dinner","version":1}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "replace someone else's expense", method: .put, path: { f, _ in "/api/expenses/\(f.expenseID)" },
            body: { _, _ in #"{"description":"Late dinner","version":1}"# },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "delete someone else's expense", method: .delete, path: { f, _ in "/api/expenses/\(f.expenseID)" },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "restore someone else's expense", method: .post,
            path: { f, _ in "/api/expenses/\(f.expenseID)/restore" },
            expected: roles(.forbidden, .forbidden, .forbidden, .ok)),
        Route(
            name: "mark another's share paid", method: .patch,
            path: { f, _ in "/api/expense-splits/\(f.danShareID)/payment" },
            body: { _, _ in #"{"isPaid":true,"reason":"cash"}"# }, expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "share history", method: .get, path: { f, _ in "/api/expense-splits/\(f.danShareID)/history" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "record a transfer one is party to", method: .post,
            path: { f, _ in "/api/groups/\(f.groupID)/settlements" },
            body: { f, caller in
                // Each pays the owner back part of their share; the owner pays Dan.
                let to = caller == .owner ? f.danID : f.members[.owner]!
                return #"{"fromMemberId":"\#(f.members[caller] ?? f.danID)","toMemberId":"\#(to)","amount":"10","currency":"JPY"}"#
            }, expected: roles(.forbidden, .created, .created, .created)),
        // Issue 14 item 11: above what one owes the receiver, only the receiver, the owner or an
        // admin records a transfer (Dan is owed nothing).
        Route(
            name: "record a transfer above one's debt", method: .post,
            path: { f, _ in "/api/groups/\(f.groupID)/settlements" },
            body: { f, caller in
                #"{"fromMemberId":"\#(f.members[caller] ?? f.danID)","toMemberId":"\#(f.danID)","amount":"10","currency":"JPY"}"#
            }, expected: roles(.forbidden, .unprocessableContent, .created, .created)),
        Route(
            name: "record others' transfer", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/settlements" },
            body: { f, _ in
                #"{"fromMemberId":"\#(f.members[.owner]!)","toMemberId":"\#(f.danID)","amount":"10","currency":"JPY"}"#
            }, expected: roles(.forbidden, .forbidden, .created, .created)),
        Route(
            name: "list settlements", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/settlements" },
            expected: roles(.ok, .ok, .ok, .ok)),
        // Issue 19: anyone but a viewer asks to be paid; every member sees the group's requests.
        Route(
            name: "ask to be paid", method: .post, path: { f, _ in "/api/groups/\(f.groupID)/payment-requests" },
            body: { _, _ in #"{"amount":"10","currency":"JPY"}"# }, expected: roles(.forbidden, .created, .created, .created)),
        Route(
            name: "list payment requests", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/payment-requests" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "delete others' settlement", method: .delete, path: { f, _ in "/api/settlements/\(f.settlementID)" },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "balances", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/balances" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "settlement plan", method: .get,
            path: { f, _ in "/api/groups/\(f.groupID)/settlement-plan?currency=JPY" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "pairwise debts", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/debts" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "who paid and spent what", method: .get,
            path: { f, _ in "/api/groups/\(f.groupID)/spending?month=2026-05" }, expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "list rates", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/rates" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "set rates", method: .put, path: { f, _ in "/api/groups/\(f.groupID)/rates" },
            body: { _, _ in #"{"rates":[{"fromCurrency":"USD","toCurrency":"JPY","date":"2026-11-20","rate":"150"}]}"#
            },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "delete a rate", method: .delete,
            path: { f, caller in
                "/api/groups/\(f.groupID)/rates?fromCurrency=USD&toCurrency=JPY&date=2026-11-\(caller == .owner ? 19 : 18)"
            },
            expected: roles(.forbidden, .forbidden, .ok, .ok)),
        Route(
            name: "activity", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/activity" },
            expected: roles(.ok, .ok, .ok, .ok)),
        Route(
            name: "changes", method: .get, path: { f, _ in "/api/groups/\(f.groupID)/changes?since=0" },
            expected: roles(.ok, .ok, .ok, .ok)),
    ]

    @Test(
        "every group route × every caller gets the status of DESIGN §4; refusals change nothing",
        arguments: TestDatabases.all)
    func groupRoutes(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let cast = try await Self.cast(api)
            for route in Self.groupRoutes {
                let fixture = try await Self.fixture(api, cast)
                for caller in Caller.allCases {
                    let expected: HTTPResponse.Status =
                        switch caller {
                        case .anonymous, .malformed, .expired, .revoked: .unauthorized
                        case .outsider: .notFound
                        default: route.expected[caller]!
                        }
                    let before = try await Self.snapshot(api, cast, fixture)
                    let body = route.body(fixture, caller)
                    let reply =
                        route.contentType == "application/json"
                        ? try await api.call(
                            route.method, route.path(fixture, caller), token: cast.tokens[caller], json: body)
                        : try await api.call(
                            route.method, route.path(fixture, caller), token: cast.tokens[caller],
                            headers: [.contentType: route.contentType], body: body.map { ByteBuffer(string: $0) })
                    #expect(reply.status == expected, "\(route.name) as \(caller): \(reply.text)")
                    #expect(reply.errorCode != nil || reply.status.kind == .successful, "\(route.name): no envelope")
                    if reply.status.kind != .successful {
                        #expect(
                            try await Self.snapshot(api, cast, fixture) == before,
                            "\(route.name) as \(caller) changed state")
                    }
                }
            }
        }
    }

    @Test(
        "account routes: no token, a malformed, expired or revoked one → 401 with WWW-Authenticate",
        arguments: TestDatabases.all)
    func accountRoutes(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let cast = try await Self.cast(api)
            let routes: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
                (.get, "/auth/me", nil, .ok),
                (.get, "/auth/sessions", nil, .ok),
                (.post, "/auth/password", #"{"currentPassword":"x","newPassword":"y"}"#, .unprocessableContent),
                (.delete, "/auth/sessions/\(UUID())", nil, .notFound),
                (.get, "/api/groups", nil, .ok),
                (.post, "/api/groups", #"{"name":"Trip","homeCurrency":"JPY"}"#, .created),
                (.post, "/api/groups/join", #"{"inviteCode":"no-such-code"}"#, .notFound),
                (.post, "/auth/logout", nil, .noContent),
            ]
            for (method, path, body, allowed) in routes {
                for caller in [Caller.anonymous, .malformed, .expired, .revoked, .outsider] {
                    let reply = try await api.call(method, path, token: cast.tokens[caller], json: body)
                    let expected = caller == .outsider ? allowed : .unauthorized
                    #expect(reply.status == expected, "\(method) \(path) as \(caller): \(reply.text)")
                    if expected == .unauthorized {
                        #expect(reply.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                        #expect(reply.errorCode == "unauthenticated")
                    }
                }
            }
        }
    }

    @Test("the operations that need a login are all but the seven public ones of openapi.yaml")
    func loginRequirement() throws {
        let document = try RequestBodyLimits.bundledSpecification()
        let requirement = LoginRequirement(root: document)
        let paths = (document["paths"] as? [AnyHashable: Any] ?? [:]).values.compactMap { $0 as? [AnyHashable: Any] }
        let all = Set(paths.flatMap { $0.values.compactMap { ($0 as? [AnyHashable: Any])?["operationId"] as? String } })
        #expect(all.count > 100)
        #expect(
            all.subtracting(requirement.operations)
                == [
                    "getHealth", "register", "login", "verifyEmail", "requestPasswordReset", "resetPassword",
                    "resolvePaymentCode",
                ])
        #expect(requirement.operations.isSubset(of: all))
        #expect(requirement.operations.contains("createGroup") && requirement.operations.contains("logout"))
    }

    @Test(
        "without a valid login, a body past a bound or no JSON at all is a 401 still: the login is asked first",
        arguments: TestDatabases.all)
    func loginBeforeBody(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let cast = try await Self.cast(api)
            let fixture = try await Self.fixture(api, cast)
            let before = try await Self.snapshot(api, cast, fixture)
            let longName = String(repeating: "x", count: 500)
            var requests: [(HTTPRequest.Method, String, String)] = [
                (.post, "/api/groups", #"{"name":"\#(longName)","homeCurrency":"JPY"}"#),
                (.post, "/api/groups", "{"),
                (.post, "/api/groups/join", #"{"inviteCode":"\#(longName)"}"#),
                (.post, "/auth/password", #"{"currentPassword":"x","#),
            ]
            for route in Self.groupRoutes where route.contentType == "application/json" {
                guard route.body(fixture, .owner) != nil else { continue }
                let path = route.path(fixture, .owner)
                requests.append((route.method, path, "{"))
                requests.append((route.method, path, #"{"name":"\#(longName)","description":"\#(longName)"}"#))
            }
            for (method, path, body) in requests {
                for caller in [Caller.anonymous, .malformed, .expired, .revoked] {
                    let reply = try await api.call(method, path, token: cast.tokens[caller], json: body)
                    #expect(reply.status == .unauthorized, "\(method) \(path) as \(caller): \(reply.text)")
                    #expect(reply.errorCode == "unauthenticated")
                    #expect(reply.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                }
            }
            #expect(try await Self.snapshot(api, cast, fixture) == before)
            // With a login, the same bodies are judged as before: the bound, then the shape.
            let long = try await api.call(
                .post, "/api/groups", token: cast.tokens[.owner], json: requests[0].2)
            #expect(long.status == .unprocessableContent && long.errorCode == "validation_failed", "\(long.text)")
            let broken = try await api.call(.post, "/api/groups", token: cast.tokens[.owner], json: "{")
            #expect(broken.status == .badRequest, "\(broken.text)")
        }
    }

    @Test("another group's ids are 404 exactly like unknown ids", arguments: TestDatabases.all)
    func foreignIDs(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let cast = try await Self.cast(api)
            let mine = try await Self.fixture(api, cast)
            // The outsider's own group, with a member of its own.
            let theirs = try await api.call(
                .post, "/api/groups", token: cast.tokens[.outsider], json: #"{"name":"Other","homeCurrency":"USD"}"#)
            let theirGroup = try #require(theirs.string("group", "id"))
            let theirMember = try #require(
                try await api.call(
                    .post, "/api/groups/\(theirGroup)/members", token: cast.tokens[.outsider], json: #"{"name":"X"}"#
                ).string("member", "id"))
            let owner = cast.tokens[.owner]
            let unknownGroup = try await api.call(.get, "/api/groups/\(UUID())", token: owner)
            let foreignGroup = try await api.call(.get, "/api/groups/\(theirGroup)", token: owner)
            let malformedGroup = try await api.call(.get, "/api/groups/not-a-uuid", token: owner)
            #expect(unknownGroup.status == .notFound)
            #expect(foreignGroup.body == unknownGroup.body && malformedGroup.body == unknownGroup.body)

            let path = "/api/groups/\(mine.groupID)/members/"
            let unknownMember = try await api.call(
                .patch, path + UUID().uuidString, token: owner, json: #"{"name":"Z"}"#)
            let foreignMember = try await api.call(.patch, path + theirMember, token: owner, json: #"{"name":"Z"}"#)
            let foreignRemove = try await api.call(.delete, path + theirMember, token: owner)
            #expect(unknownMember.status == .notFound)
            #expect(foreignMember.body == unknownMember.body && foreignRemove.body == unknownMember.body)
            let members = try await api.call(.get, "/api/groups/\(theirGroup)/members", token: cast.tokens[.outsider])
            #expect(members.list("members").map { $0.string("name") }.contains("X"))

            // A session of another user is not found either.
            let sessions = try await api.call(.get, "/auth/sessions", token: cast.tokens[.outsider])
            let theirSession = try #require(sessions.list("sessions").first?.string("id"))
            let revoke = try await api.call(.delete, "/auth/sessions/\(theirSession)", token: owner)
            #expect(revoke.status == .notFound)
            #expect(try await api.call(.get, "/auth/me", token: cast.tokens[.outsider]).status == .ok)
        }
    }

    /// Registers the people; makes the expired token in the database and the revoked one by logging out.
    static func cast(_ api: API) async throws -> Cast {
        var cast = Cast()
        for caller in [Caller.outsider, .viewer, .member, .admin, .owner] {
            cast.tokens[caller] = try await api.register(caller.rawValue.capitalized).token
        }
        cast.tokens[.malformed] = "not a token at all !!"
        let (revoked, _) = try await api.register("Revoked")
        try await api.call(.post, "/auth/logout", token: revoked)
        cast.tokens[.revoked] = revoked
        let (_, expiredUser) = try await api.register("Expired")
        let expired = SessionToken.generate()
        let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        try await AccountStore(database: database).createSession(
            SessionRecord(
                id: UUID(), userID: UUID(uuidString: expiredUser)!, tokenHash: SessionToken.hash(expired),
                createdAt: now - 31 * 86_400_000, lastUsedAt: now - 86_400_000, expiresAt: now - 1_000))
        try await database.close()
        cast.tokens[.expired] = expired
        return cast
    }

    /// A new group: the owner creates it, the others join by code, the owner sets their roles.
    static func fixture(_ api: API, _ cast: Cast) async throws -> Fixture {
        let owner = cast.tokens[.owner]
        let created = try await api.call(
            .post, "/api/groups", token: owner, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
        let groupID = try #require(created.string("group", "id"))
        let code = try #require(created.string("group", "inviteCode"))
        var members: [Caller: String] = [.owner: try #require(created.string("group", "myMemberId"))]
        for caller in [Caller.viewer, .member, .admin] {
            let joined = try await api.call(
                .post, "/api/groups/join", token: cast.tokens[caller], json: #"{"inviteCode":"\#(code)"}"#)
            let memberID = try #require(joined.string("member", "id"), "join: \(joined.text)")
            members[caller] = memberID
        }
        for (caller, role) in [(Caller.viewer, "viewer"), (.admin, "admin")] {
            let reply = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(members[caller]!)", token: owner,
                json: #"{"role":"\#(role)"}"#)
            try #require(reply.status == .ok, "set role: \(reply.text)")
        }
        let dan = try await api.call(.post, "/api/groups/\(groupID)/members", token: owner, json: #"{"name":"Dan"}"#)
        let danID = try #require(dan.string("member", "id"))
        let eve = try await api.call(.post, "/api/groups/\(groupID)/members", token: owner, json: #"{"name":"Eve"}"#)
        let eveID = try #require(eve.string("member", "id"))
        let eveAdmin = try await api.call(
            .patch, "/api/groups/\(groupID)/members/\(eveID)", token: owner, json: #"{"role":"admin"}"#)
        try #require(eveAdmin.status == .ok, "Eve an admin: \(eveAdmin.text)")
        let everyone = (Array(members.values) + [danID]).map { #""\#($0)""# }.joined(separator: ",")
        let expense = try await api.call(
            .post, "/api/expenses", token: owner,
            json: #"""
                {"groupId":"\#(groupID)","description":"Dinner","amount":"5000","currency":"JPY","expenseDate":"2026-11-20",
                 "split":{"mode":"equal","memberIds":[\#(everyone)]}}
                """#)
        let danShare = try #require(
            expense.list("expense", "splits").first { $0.string("memberId") == danID }?.string("id"))
        let settlement = try await api.call(
            .post, "/api/groups/\(groupID)/settlements", token: owner,
            json: #"{"fromMemberId":"\#(members[.owner]!)","toMemberId":"\#(danID)","amount":"100","currency":"JPY"}"#)
        let category = try await api.call(
            .post, "/api/groups/\(groupID)/categories", token: owner, json: #"{"name":"Onsen","icon":"♨️"}"#)
        // A rate for the admin and one for the owner to delete.
        let rates = try await api.call(
            .put, "/api/groups/\(groupID)/rates", token: owner,
            json: #"""
                {"rates":[{"fromCurrency":"USD","toCurrency":"JPY","date":"2026-11-18","rate":"150"},
                          {"fromCurrency":"USD","toCurrency":"JPY","date":"2026-11-19","rate":"151"}]}
                """#)
        try #require(rates.status == .ok, "rates: \(rates.text)")
        let categories = try await api.call(.get, "/api/groups/\(groupID)/categories", token: owner)
        return Fixture(
            groupID: groupID, members: members, danID: danID, eveID: eveID,
            expenseID: try #require(expense.string("expense", "id"), "\(expense.text)"), danShareID: danShare,
            settlementID: try #require(settlement.string("settlement", "id"), "\(settlement.text)"),
            customCategoryID: try #require(category.string("category", "id"), "\(category.text)"),
            categoryIDs: categories.list("categories").compactMap { $0.string("id") })
    }

    /// What the owner sees of the group, its members, expenses, settlements, categories,
    /// balances, rates and a share's history, as bytes.
    static func snapshot(_ api: API, _ cast: Cast, _ fixture: Fixture) async throws -> [Data] {
        let owner = cast.tokens[.owner]
        let group = try await api.call(.get, "/api/groups/\(fixture.groupID)", token: owner)
        var state = [group.body]
        for path in [
            "members", "expenses?includeDeleted=true", "settlements?includeDeleted=true", "categories", "balances",
            "rates",
        ] {
            state.append(try await api.call(.get, "/api/groups/\(fixture.groupID)/\(path)", token: owner).body)
        }
        state.append(try await api.call(.get, "/api/expense-splits/\(fixture.danShareID)/history", token: owner).body)
        return state
    }
}

@Suite("A write refused inside its transaction")
struct WriteRefusalMappingTests {
    @Test("answers as the early permission check would have")
    func mapping() {
        let forbidden = ErrorEnvelopeMiddleware.apiError(for: WriteRefusal.forbidden)
        #expect(forbidden.status == .forbidden)
        #expect(ErrorEnvelopeMiddleware.apiError(for: WriteRefusal.notFound) == .notFound("group"))
        #expect(ErrorEnvelopeMiddleware.apiError(for: WriteRefusal.archived) == .archived)
        let member = UUID()
        let inactive = ErrorEnvelopeMiddleware.apiError(for: WriteRefusal.inactiveMember(member))
        #expect(inactive.status == .unprocessableContent)
        #expect(inactive.details["field"] == .string("memberId"))
        // Issue 15: no raw id in any message.
        #expect(!inactive.message.contains(member.text) && inactive.message.contains("removed from the group"))
    }
}
