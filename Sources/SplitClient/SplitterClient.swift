import Foundation
internal import HTTPTypes
internal import OpenAPIRuntime
internal import SplitAPI
import SplitCore

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
            serverURL: serverURL, configuration: Self.configuration, transport: HTTPTransport.shared,
            middlewares: [BearerMiddleware(tokens: tokens)])
    }

    static let configuration = Configuration(dateTranscoder: ServerDateTranscoder())

    // MARK: Accounts

    public func register(email: String?, phone: String?, password: String, displayName: String) async throws -> User {
        try await call({
            try await api.register(
                body: .json(
                    .init(
                        email: email, phone: phone, password: password, displayName: displayName,
                        deviceName: "splitter CLI")))
        }) { output in
            let body = try output.created.body.json
            try tokens.save(body.token)
            return User(body.user)
        }
    }

    public func login(emailOrPhone: String, password: String) async throws -> User {
        try await call({
            try await api.login(
                body: .json(.init(emailOrPhone: emailOrPhone, password: password, deviceName: "splitter CLI")))
        }) { output in
            let body = try output.ok.body.json
            try tokens.save(body.token)
            return User(body.user)
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
        try await call({ try await api.deleteAccount(body: .json(.init(password: password))) }) { _ = try $0.noContent }
        try? tokens.save(nil)
    }

    /// Ends every other session of this account ("sign out everywhere else"); this one goes on.
    public func revokeOtherSessions() async throws {
        try await call({ try await api.revokeOtherSessions() }) { _ = try $0.noContent }
    }

    public func me() async throws -> User {
        try await call({ try await api.getMe() }) { User(try $0.ok.body.json.user) }
    }

    /// Changes this account's name, email or phone (nil: as it is); a new email or phone needs
    /// the current password. A new email is unverified until its mailed link is used.
    public func updateMe(
        displayName: String? = nil, email: String? = nil, phone: String? = nil, currentPassword: String? = nil
    ) async throws -> User {
        try await call({
            try await api.updateMe(
                body: .json(
                    .init(displayName: displayName, email: email, phone: phone, currentPassword: currentPassword)))
        }) { User(try $0.ok.body.json.user) }
    }

    // MARK: Groups and members

    /// `timeZone`: an IANA name ("Asia/Tokyo"); none means UTC.
    /// A new group; `personal` makes an expense book for one, with everyday categories.
    public func createGroup(
        name: String, homeCurrency: String, description: String? = nil, timeZone: String? = nil, personal: Bool = false
    ) async throws -> Group {
        try await call({
            try await api.createGroup(
                body: .json(
                    .init(
                        name: name, description: description, homeCurrency: homeCurrency, timeZone: timeZone,
                        kind: personal ? .personal : nil)))
        }) { Group(try $0.created.body.json.group) }
    }

    public func groups() async throws -> [Group] {
        try await call({ try await api.listGroups() }) { try $0.ok.body.json.groups.map(Group.init) }
    }

    public func group(id: String) async throws -> Group {
        try await call({ try await api.getGroup(path: .init(groupId: id)) }) { Group(try $0.ok.body.json.group) }
    }

    /// Joins by invite code, as a new member or as the name-only member `memberID`. Claiming a
    /// member with money history answers `.pending`: an owner or admin approves it first.
    /// `asMember`: the name-only member to become, by id; or `asMemberNamed`, by name (any case).
    /// `name`: joining as someone new, the name in the group (default: the account's). A new
    /// member under the name of a name-only member is refused (409, `conflict` on `name`).
    public func join(
        inviteCode: String, asMember memberID: String? = nil, asMemberNamed memberName: String? = nil,
        name: String? = nil
    ) async throws -> JoinOutcome {
        switch try await send({
            try await api.joinGroup(
                body: .json(.init(inviteCode: inviteCode, memberId: memberID, memberName: memberName, name: name)))
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
            return try await call({ try await api.rotateInviteCode(path: .init(groupId: groupID)) }) {
                Group(try $0.ok.body.json.group)
            }
        }
        return try await call({ try await api.disableInviteCode(path: .init(groupId: groupID)) }) {
            Group(try $0.ok.body.json.group)
        }
    }

    public func members(groupID: String) async throws -> [Member] {
        try await call({ try await api.listMembers(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.members.map(Member.init)
        }
    }

    public func addMember(groupID: String, name: String) async throws -> Member {
        try await call({ try await api.addMember(path: .init(groupId: groupID), body: .json(.init(name: name))) }) {
            Member(try $0.created.body.json.member)
        }
    }

    public func setRole(groupID: String, memberID: String, role: Role) async throws -> Member {
        try await call({
            try await api.updateMember(
                path: .init(groupId: groupID, memberId: memberID), body: .json(.init(role: role.wire)))
        }) { Member(try $0.ok.body.json.member) }
    }

    /// A member's new name: one's own (any member), or another's (owner, admins).
    public func renameMember(groupID: String, memberID: String, name: String) async throws -> Member {
        try await call({
            try await api.updateMember(
                path: .init(groupId: groupID, memberId: memberID), body: .json(.init(name: name)))
        }) { Member(try $0.ok.body.json.member) }
    }

    // MARK: Money

    public func addExpense(_ request: NewExpense, idempotencyKey: String? = nil) async throws -> Expense {
        let body = request.wire
        return try await call({
            try await api.createExpense(headers: .init(idempotencyKey: idempotencyKey), body: .json(body))
        }) { Expense(try $0.created.body.json.expense) }
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
        return try await call({ try await api.createExpenses(body: .json(body)) }) { output in
            let results = try output.ok.body.json.results
            guard results.count == items.count else {
                throw SplitterError.server("The server answered \(results.count) results for \(items.count) expenses.")
            }
            return results.map { result in
                if result.status == 201, let expense = result.expense { return .success(Expense(expense)) }
                return .failure(SplitterError(status: result.status, envelope: result.failure, retryAfter: nil))
            }
        }
    }

    /// Every live expense of the group, newest first (all pages); deleted ones too when asked.
    public func expenses(groupID: String, includeDeleted: Bool = false) async throws -> [Expense] {
        var all: [Expense] = []
        var cursor: String?
        repeat {
            let page = cursor
            let body = try await call({
                try await api.listExpenses(
                    path: .init(groupId: groupID),
                    query: .init(includeDeleted: includeDeleted ? true : nil, limit: 200, cursor: page))
            }) { try $0.ok.body.json }
            all += body.expenses.map(Expense.init)
            cursor = body.nextCursor
        } while cursor != nil
        return all
    }

    public func balances(groupID: String) async throws -> GroupBalances {
        try await call({ try await api.getBalances(path: .init(groupId: groupID)) }) {
            GroupBalances(try $0.ok.body.json)
        }
    }

    /// The group's manual exchange rates, every pair and date.
    public func rates(groupID: String) async throws -> [ExchangeRateEntry] {
        try await call({ try await api.listRates(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.rates.map(ExchangeRateEntry.init)
        }
    }

    /// Sets rates (owner and admins); a pair and date already there gets the new rate. Answers
    /// every rate of the group.
    public func setRates(groupID: String, _ rates: [ExchangeRateEntry]) async throws -> [ExchangeRateEntry] {
        try await call({
            try await api.putRates(
                path: .init(groupId: groupID),
                body: .json(
                    .init(
                        rates: rates.map {
                            .init(fromCurrency: $0.fromCurrency, toCurrency: $0.toCurrency, date: $0.date, rate: $0.rate)
                        })))
        }) {
            try $0.ok.body.json.rates.map(ExchangeRateEntry.init)
        }
    }

    /// Deletes one rate, named by its pair and date (owner and admins); the pair's rate before it
    /// counts again. Answers the rates left; no such rate is `SplitterError.notFound`.
    public func deleteRate(groupID: String, from: String, to: String, date: String) async throws -> [ExchangeRateEntry] {
        try await call({
            try await api.deleteRate(
                path: .init(groupId: groupID), query: .init(fromCurrency: from, toCurrency: to, date: date))
        }) {
            try $0.ok.body.json.rates.map(ExchangeRateEntry.init)
        }
    }

    public func plan(groupID: String, currency: String?) async throws -> [PlannedTransfer] {
        try await call({
            try await api.getSettlementPlan(path: .init(groupId: groupID), query: .init(currency: currency))
        }) { try $0.ok.body.json.transfers.map(PlannedTransfer.init) }
    }

    /// The fewest transfers that settle everything in the home currency (charged amounts, then
    /// the latest rates), and the rates used; the server refuses while a currency has no rate.
    public func homePlan(groupID: String) async throws -> (transfers: [PlannedTransfer], rates: [String]) {
        try await call({
            try await api.getSettlementPlan(path: .init(groupId: groupID), query: .init(_in: .home))
        }) { output in
            let body = try output.ok.body.json
            return (
                body.transfers.map(PlannedTransfer.init),
                (body.rates ?? []).map { "1 \($0.fromCurrency) = \($0.rate) \($0.toCurrency) (\($0.date))" }
            )
        }
    }

    public func settle(
        groupID: String, from: String, to: String, amount: String, currency: String, note: String? = nil,
        date: String? = nil, id: String? = nil, idempotencyKey: String? = nil
    ) async throws -> Settlement {
        try await settle(
            NewSettlement(
                id: id, fromMemberId: from, toMemberId: to, amount: amount, currency: currency, date: date, note: note),
            groupID: groupID, idempotencyKey: idempotencyKey)
    }

    /// Records a transfer as the offline queue keeps it.
    func settle(_ settlement: NewSettlement, groupID: String, idempotencyKey: String?) async throws -> Settlement {
        let body = settlement.wire
        return try await call({
            try await api.createSettlement(
                path: .init(groupId: groupID), headers: .init(idempotencyKey: idempotencyKey), body: .json(body))
        }) { Settlement(try $0.created.body.json.settlement) }
    }

    // MARK: Plumbing

    /// Why the server could not be reached, with its address (found by a new user: a fresh
    /// profile without `--server` said "cannot be reached" without saying where it had looked).
    func reaching(_ failure: String) -> String {
        // Without a user and password the address may carry (they would be printed and kept).
        var shown = URLComponents(url: serverURL, resolvingAgainstBaseURL: false)
        shown?.user = nil
        shown?.password = nil
        return "\(failure), at \(shown?.string ?? serverURL.host ?? "the server")"
    }

    /// Runs a call; transport failures become `.offline`, anything else unexpected `.server`.
    func send<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as SplitterError {
            throw error
        } catch let error as OpenAPIRuntime.ClientError {
            if error.underlyingError is URLError || error.causeDescription.contains("Transport") {
                throw SplitterError.offline(reaching(Self.transportFailure(error.underlyingError)))
            }
            // A proxy's own error page (HTML, not the API's envelope) fails to decode.
            if let status = error.response?.status.code, SplitterError.gatewayStatuses.contains(status) {
                throw SplitterError.offline(SplitterError.gatewayMessage(status))
            }
            throw SplitterError.server(error.causeDescription)
        } catch {
            throw SplitterError.server("\(error)")
        }
    }

    /// A transport's failure in words: URLSession's own sentence, or AsyncHTTPClient's and NIO's
    /// description ("Connection refused (errno: 111)"), whose `localizedDescription` says only
    /// "The operation could not be completed".
    /// The usual causes are said plainly (found by a new user: "connection reset (error set):
    /// Connection refused) (errno: 111))").
    static func transportFailure(_ error: any Error) -> String {
        if let error = error as? URLError { return error.localizedDescription }
        let described = String(describing: error)
        let plain = [
            "Connection refused": "connection refused", "timed out": "timed out", "No route to host": "no route to host",
            "Network is unreachable": "network unreachable", "Name or service not known": "unknown host name",
            "nodename nor servname": "unknown host name",
        ]
        for (said, meaning) in plain where described.localizedCaseInsensitiveContains(said) { return meaning }
        return described
    }

    /// Runs a call (as `send`) and maps its answer: the one error envelope, every operation's
    /// `default` answer, is thrown as a `SplitterError`; any other answer goes to `answer`, which
    /// takes the documented case it expects (`try $0.ok`, `try $0.created`, `try $0.noContent`).
    func call<Output, Value>(
        _ request: () async throws -> Output, answer: (Output) async throws -> Value
    ) async throws -> Value {
        let output = try await send(request)
        if let failure = Self.failure(in: output) { throw failure }
        return try await answer(output)
    }

    /// The `SplitterError` of an operation's `default` answer, nil for any other answer. The
    /// generated answers are one enum per operation with no protocol in common, so the case is
    /// found by its name and payload, which the generator gives every operation alike.
    static func failure(in output: Any) -> SplitterError? {
        guard let answer = Mirror(reflecting: output).children.first, answer.label == "default",
            let (status, error) = answer.value as? (statusCode: Int, Components.Responses._Error)
        else { return nil }
        return failure(status, error)
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
