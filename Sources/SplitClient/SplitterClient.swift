import Foundation
internal import HTTPTypes
internal import OpenAPIRuntime
internal import OpenAPIURLSession
internal import SplitAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's entry point (DESIGN §8): typed async calls over the generated client, in the SDK's
/// own types (the generated ones stay inside; WireMapping.swift converts). Every failure is
/// thrown as a `SplitterError`; the token comes from, and goes to, a `TokenStore`.
public struct SplitterClient: Sendable {
    public let serverURL: URL
    let tokens: any TokenStore
    let api: Client

    public init(serverURL: URL, tokens: any TokenStore) {
        self.serverURL = serverURL
        self.tokens = tokens
        self.api = Client(
            serverURL: serverURL, configuration: Configuration(dateTranscoder: ServerDateTranscoder()),
            transport: URLSessionTransport(), middlewares: [BearerMiddleware(tokens: tokens)])
    }

    // MARK: Accounts

    public func register(email: String?, phone: String?, password: String, displayName: String) async throws -> User {
        let output = try await send {
            try await api.register(
                body: .json(
                    .init(
                        email: email, phone: phone, password: password, displayName: displayName,
                        deviceName: "splitter CLI")))
        }
        switch output {
        case .created(let created):
            let body = try created.body.json
            try tokens.save(body.token)
            return User(body.user)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func login(emailOrPhone: String, password: String) async throws -> User {
        let output = try await send {
            try await api.login(
                body: .json(.init(emailOrPhone: emailOrPhone, password: password, deviceName: "splitter CLI")))
        }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            try tokens.save(body.token)
            return User(body.user)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Ends the session on the server (when it can be reached) and forgets the token either way.
    public func logout() async throws {
        defer { try? tokens.save(nil) }
        let output = try await send { try await api.logout() }
        switch output {
        case .noContent: return
        case .default(401, _): return
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Deletes this account for good after its password; the saved token is forgotten. Every
    /// group keeps the name as a member without an account, with its money history. A group
    /// owned with other accounts in it must be handed over first (a 409 naming it).
    public func deleteAccount(password: String) async throws {
        switch try await send({ try await api.deleteAccount(body: .json(.init(password: password))) }) {
        case .noContent: try? tokens.save(nil)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Ends every other session of this account ("sign out everywhere else"); this one goes on.
    public func revokeOtherSessions() async throws {
        switch try await send({ try await api.revokeOtherSessions() }) {
        case .noContent: return
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func me() async throws -> User {
        switch try await send({ try await api.getMe() }) {
        case .ok(let ok): return User(try ok.body.json.user)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    // MARK: Groups and members

    /// `timeZone`: an IANA name ("Asia/Tokyo"); none means UTC.
    /// A new group; `personal` makes an expense book for one, with everyday categories.
    public func createGroup(
        name: String, homeCurrency: String, description: String? = nil, timeZone: String? = nil, personal: Bool = false
    ) async throws -> Group {
        let output = try await send {
            try await api.createGroup(
                body: .json(
                    .init(
                        name: name, description: description, homeCurrency: homeCurrency, timeZone: timeZone,
                        kind: personal ? .personal : nil)))
        }
        switch output {
        case .created(let created): return Group(try created.body.json.group)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func groups() async throws -> [Group] {
        switch try await send({ try await api.listGroups() }) {
        case .ok(let ok): return try ok.body.json.groups.map(Group.init)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func group(id: String) async throws -> Group {
        switch try await send({ try await api.getGroup(path: .init(groupId: id)) }) {
        case .ok(let ok): return Group(try ok.body.json.group)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Joins by invite code, as a new member or as the name-only member `memberID`. Claiming a
    /// member with money history answers `.pending`: an owner or admin approves it first.
    /// `asMember`: the name-only member to become, by id; or `asMemberNamed`, by name (any case).
    public func join(
        inviteCode: String, asMember memberID: String? = nil, asMemberNamed memberName: String? = nil
    ) async throws -> JoinOutcome {
        switch try await send({
            try await api.joinGroup(
                body: .json(.init(inviteCode: inviteCode, memberId: memberID, memberName: memberName)))
        }) {
        case .ok(let ok):
            let body = try ok.body.json
            return .joined(Group(body.group), Member(body.member))
        case .accepted(let accepted):
            let body = try accepted.body.json
            return .pending(
                PendingJoin(groupName: body.groupName, memberName: body.memberName, requestedAt: body.requestedAt))
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// A new invite code (`rotate`), or none (`disable`).
    public func setInviteCode(groupID: String, enabled: Bool) async throws -> Group {
        if enabled {
            switch try await send({ try await api.rotateInviteCode(path: .init(groupId: groupID)) }) {
            case .ok(let ok): return Group(try ok.body.json.group)
            case .default(let status, let error): throw Self.failure(status, error)
            }
        }
        switch try await send({ try await api.disableInviteCode(path: .init(groupId: groupID)) }) {
        case .ok(let ok): return Group(try ok.body.json.group)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func members(groupID: String) async throws -> [Member] {
        switch try await send({ try await api.listMembers(path: .init(groupId: groupID)) }) {
        case .ok(let ok): return try ok.body.json.members.map(Member.init)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func addMember(groupID: String, name: String) async throws -> Member {
        switch try await send({ try await api.addMember(path: .init(groupId: groupID), body: .json(.init(name: name))) }
        ) {
        case .created(let created): return Member(try created.body.json.member)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func setRole(groupID: String, memberID: String, role: Role) async throws -> Member {
        let output = try await send {
            try await api.updateMember(
                path: .init(groupId: groupID, memberId: memberID), body: .json(.init(role: role.wire)))
        }
        switch output {
        case .ok(let ok): return Member(try ok.body.json.member)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    // MARK: Money

    public func addExpense(_ request: NewExpense, idempotencyKey: String? = nil) async throws -> Expense {
        let body = request.wire
        let output = try await send {
            try await api.createExpense(headers: .init(idempotencyKey: idempotencyKey), body: .json(body))
        }
        switch output {
        case .created(let created): return Expense(try created.body.json.expense)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// The most expenses `addExpenses` sends in one request (the server's limit).
    public static let batchLimit = 200

    /// Creates several expenses in one round trip, in order; each item is handled exactly as
    /// `addExpense` with its idempotency key would be. One result per item, in order: a refused
    /// item does not stop the others. Throws only for what stops the whole request (offline,
    /// logged out, more than `batchLimit` items).
    public func addExpenses(
        _ items: [(request: NewExpense, idempotencyKey: String?)]
    ) async throws -> [Result<Expense, SplitterError>] {
        guard !items.isEmpty else { return [] }
        let body = Components.Schemas.CreateExpensesRequest(
            items: items.map { .init(idempotencyKey: $0.idempotencyKey, expense: $0.request.wire) })
        let output = try await send { try await api.createExpenses(body: .json(body)) }
        switch output {
        case .ok(let ok):
            let results = try ok.body.json.results
            guard results.count == items.count else {
                throw SplitterError.server("The server answered \(results.count) results for \(items.count) expenses.")
            }
            return results.map { result in
                if result.status == 201, let expense = result.expense { return .success(Expense(expense)) }
                return .failure(SplitterError(status: result.status, envelope: result.failure, retryAfter: nil))
            }
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Every live expense of the group, newest first (all pages); deleted ones too when asked.
    public func expenses(groupID: String, includeDeleted: Bool = false) async throws -> [Expense] {
        var all: [Expense] = []
        var cursor: String?
        repeat {
            let page = cursor
            let output = try await send {
                try await api.listExpenses(
                    path: .init(groupId: groupID),
                    query: .init(includeDeleted: includeDeleted ? true : nil, limit: 200, cursor: page))
            }
            switch output {
            case .ok(let ok):
                let body = try ok.body.json
                all += body.expenses.map(Expense.init)
                cursor = body.nextCursor
            case .default(let status, let error): throw Self.failure(status, error)
            }
        } while cursor != nil
        return all
    }

    public func balances(groupID: String) async throws -> GroupBalances {
        switch try await send({ try await api.getBalances(path: .init(groupId: groupID)) }) {
        case .ok(let ok): return GroupBalances(try ok.body.json)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func plan(groupID: String, currency: String?) async throws -> [PlannedTransfer] {
        let output = try await send {
            try await api.getSettlementPlan(path: .init(groupId: groupID), query: .init(currency: currency))
        }
        switch output {
        case .ok(let ok): return try ok.body.json.transfers.map(PlannedTransfer.init)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// The fewest transfers that settle everything in the home currency (charged amounts, then
    /// the latest rates), and the rates used; the server refuses while a currency has no rate.
    public func homePlan(groupID: String) async throws -> (transfers: [PlannedTransfer], rates: [String]) {
        let output = try await send {
            try await api.getSettlementPlan(path: .init(groupId: groupID), query: .init(_in: .home))
        }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return (
                body.transfers.map(PlannedTransfer.init),
                (body.rates ?? []).map { "1 \($0.fromCurrency) = \($0.rate) \($0.toCurrency) (\($0.date))" }
            )
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func settle(
        groupID: String, from: String, to: String, amount: String, currency: String, note: String? = nil,
        id: String? = nil, idempotencyKey: String? = nil
    ) async throws -> Settlement {
        try await settle(
            NewSettlement(id: id, fromMemberId: from, toMemberId: to, amount: amount, currency: currency, note: note),
            groupID: groupID, idempotencyKey: idempotencyKey)
    }

    /// Records a transfer as the offline queue keeps it.
    func settle(_ settlement: NewSettlement, groupID: String, idempotencyKey: String?) async throws -> Settlement {
        let body = settlement.wire
        let output = try await send {
            try await api.createSettlement(
                path: .init(groupId: groupID), headers: .init(idempotencyKey: idempotencyKey), body: .json(body))
        }
        switch output {
        case .created(let created): return Settlement(try created.body.json.settlement)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    // MARK: Plumbing

    /// Runs a call; transport failures become `.offline`, anything else unexpected `.server`.
    func send<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as SplitterError {
            throw error
        } catch let error as OpenAPIRuntime.ClientError {
            if error.underlyingError is URLError || error.causeDescription.contains("Transport") {
                throw SplitterError.offline(error.underlyingError.localizedDescription)
            }
            throw SplitterError.server(error.causeDescription)
        } catch {
            throw SplitterError.server("\(error)")
        }
    }

    static func failure(_ status: Int, _ error: Components.Responses._Error) -> SplitterError {
        SplitterError(status: status, envelope: try? error.body.json, retryAfter: error.headers.retryAfter)
    }

}

/// Sends the stored token with every request.
struct BearerMiddleware: ClientMiddleware {
    let tokens: any TokenStore

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let token = try tokens.load() { request.headerFields[.authorization] = "Bearer \(token)" }
        return try await next(request, body, baseURL)
    }
}
