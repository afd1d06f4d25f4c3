import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitApp
import SplitStore

/// Registers the generated server's routes on `base`, except that five operations are answered
/// without the generated server's machinery (issue 16):
/// - `GET /api/groups/{groupId}/changes` and `GET /api/groups/{groupId}/expenses`, whose answers
///   are mostly expenses, are written by `ExpenseJSON` instead of the generated `JSONEncoder` (a
///   first sync of 10,000 expenses spent a third of its time there);
/// - `POST /api/expenses` decodes its body as the generated server does, runs the same
///   middlewares, and writes the created expense with `ExpenseJSON` (the generated encoder was
///   5.7 % of a create's CPU);
/// - `GET /health` and `GET /auth/me`, the cheapest requests there are, skip the runtime's
///   decoding, content negotiation and encoding: `/health` answers bytes made once at start, and
///   `/auth/me` encodes its user with the generated server's encoder settings.
///
/// Only plain requests are answered here: a group id and query items of plain characters, each
/// at most once and each one the operation knows (none for the others), numbers and booleans
/// written plainly, no `Accept` header or one that takes JSON outright, and for the create a
/// JSON body that decodes and an `Idempotency-Key` of plain characters. Anything else
/// (percent-escapes, repeated or unknown items, a `limit` that is no number, another `Accept`
/// or `Content-Type`, a body that does not decode) goes to the generated handler, so its
/// decoding, its errors and its content negotiation stay the API's; this path only ever writes
/// the same bytes sooner (`ExpenseJSONTests` compares the two).
struct PlainRoutes<Base: ServerTransport>: ServerTransport {
    static var changesPath: String { "/api/groups/{groupId}/changes" }
    static var expensesPath: String { "/api/groups/{groupId}/expenses" }
    static var healthPath: String { "/health" }
    static var mePath: String { "/auth/me" }
    static var createExpensePath: String { "/api/expenses" }
    static var paths: [String] { [changesPath, expensesPath, healthPath, mePath, createExpensePath] }
    static var changesQuery: PlainRequest.Query { .init(texts: ["since"], integers: ["limit": 1...1_000]) }
    static var expensesQuery: PlainRequest.Query {
        .init(
            texts: ["category", "memberId", "from", "to", "month", "q", "cursor"],
            integers: ["year": 1...9_999, "limit": 1...200], booleans: ["includeDeleted"])
    }

    let base: Base
    let api: APIHandler
    /// The generated server's middlewares, outermost first, as `registerHandlers` is given them:
    /// the create runs them as the generated handler would.
    let middlewares: [any ServerMiddleware]
    /// Pages of the feed already sent, for the next device that asks for one unchanged.
    let feedPages: FeedPageCache
    /// The paths the generated server registered here, so a renamed path in openapi.yaml stops
    /// the server at start (`PlainRoutesError`) instead of losing this path unnoticed.
    let registered = Registered()

    init(
        base: Base, api: APIHandler, middlewares: [any ServerMiddleware] = [], feedPages: FeedPageCache = FeedPageCache()
    ) {
        self.base = base
        self.api = api
        self.middlewares = middlewares
        self.feedPages = feedPages
    }

    /// A plain request's answer: its status, its bytes, and whether they are gzip.
    typealias Answer = (status: HTTPResponse.Status, bytes: [UInt8], gzipped: Bool)

    func register(_ handler: @escaping OperationHandler, method: HTTPRequest.Method, path: String) throws {
        let api = api
        let feedPages = feedPages
        /// The answer to a plain request, or nil for one the generated handler must answer.
        let answer: @Sendable (HTTPRequest, ServerRequestMetadata) async throws -> Answer?
        switch (method, path) {
        case (.get, Self.changesPath):
            let query = Self.changesQuery
            answer = { request, metadata in
                guard let plain = PlainRequest(request, metadata: metadata, query: query) else { return nil }
                let gzip = ResponseCompressionMiddleware.acceptsGzip(request.headerFields[values: .acceptEncoding])
                let page = try await api.changesPage(plain, gzip: gzip, cache: feedPages)
                return (.ok, page.bytes, page.gzipped)
            }
        case (.get, Self.expensesPath):
            let query = Self.expensesQuery
            answer = { request, metadata in
                guard let plain = PlainRequest(request, metadata: metadata, query: query) else { return nil }
                // Left to `ResponseCompressionMiddleware` to compress.
                return (.ok, try await api.expensesJSON(plain), false)
            }
        case (.get, Self.healthPath):
            let encoder = ExpenseJSON.generatedEncoder()
            let backend = api.database.backend.rawValue
            let healthy = [UInt8](try encoder.encode(Components.Schemas.Health(status: .ok, database: backend)))
            let unavailable = [UInt8](
                try encoder.encode(Components.Schemas.Health(status: .unavailable, database: backend)))
            answer = { request, _ in
                guard PlainRequest.isBare(request) else { return nil }
                return try await api.isHealthy() ? (.ok, healthy, false) : (.serviceUnavailable, unavailable, false)
            }
        case (.get, Self.mePath):
            answer = { request, _ in
                guard PlainRequest.isBare(request) else { return nil }
                return (.ok, try await api.meJSON(), false)
            }
        case (.post, Self.createExpensePath):
            registered.add(path)
            return try base.register(createExpense(fallback: handler), method: method, path: path)
        default:
            return try base.register(handler, method: method, path: path)
        }
        registered.add(path)
        try base.register(
            { request, body, metadata in
                guard let (status, bytes, gzipped) = try await answer(request, metadata) else {
                    return try await handler(request, body, metadata)
                }
                var response = HTTPResponse(status: status)
                response.headerFields[.contentType] = "application/json; charset=utf-8"
                if gzipped {
                    // As `ResponseCompressionMiddleware` would have sent it; it leaves encoded answers alone.
                    response.headerFields[.contentEncoding] = "gzip"
                    response.headerFields[.vary] = "Accept-Encoding"
                }
                return (response, HTTPBody(bytes))
            }, method: method, path: path)
    }

    /// `POST /api/expenses` for a plain request: the middlewares, the body decoded as the
    /// generated server decodes it, and the expense written by `ExpenseJSON`. A request that is
    /// not plain, or a body that does not decode, goes to `fallback`, the generated handler.
    private func createExpense(fallback: @escaping OperationHandler) -> OperationHandler {
        let api = api
        let decoder = ExpenseJSON.generatedDecoder()
        let maxBodyBytes = api.configuration.limits.maxBodyBytes
        let core: OperationHandler = { request, body, metadata in
            guard let body else { return try await fallback(request, body, metadata) }
            let bytes = try await [UInt8](collecting: body, upTo: maxBodyBytes)
            guard
                let input = try? decoder.decode(Components.Schemas.CreateExpenseRequest.self, from: Data(bytes))
            else {
                return try await fallback(request, HTTPBody(bytes), metadata)
            }
            let json = try await api.createExpenseJSON(
                input, idempotencyKey: request.headerFields[PlainRequest.idempotencyKey])
            var response = HTTPResponse(status: .created)
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(json))
        }
        // As the generated server chains them: the first middleware is the outermost.
        let chained = middlewares.reversed().reduce(core) { next, middleware in
            { request, body, metadata in
                try await middleware.intercept(
                    request, body: body, metadata: metadata, operationID: Operations.CreateExpense.id, next: next)
            }
        }
        return { request, body, metadata in
            guard PlainRequest.isBare(request), PlainRequest.sendsJSON(request),
                request.headerFields[values: PlainRequest.idempotencyKey].count <= 1,
                request.headerFields[PlainRequest.idempotencyKey].map({ PlainRequest.isPlain($0[...]) }) ?? true
            else {
                return try await fallback(request, body, metadata)
            }
            return try await chained(request, body, metadata)
        }
    }

    /// Throws unless every operation this answers was registered.
    func checkRegistered() throws {
        for path in Self.paths where !registered.contains(path) {
            throw PlainRoutesError.notInSpecification(path)
        }
    }

    final class Registered: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []

        func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
    }
}

enum PlainRoutesError: Error, CustomStringConvertible {
    case notInSpecification(String)

    var description: String {
        switch self {
        case .notInSpecification(let path): "openapi.yaml has no operation at \(path) any more: PlainRoutes must follow it"
        }
    }
}

/// A read with nothing to decode: the group id and the query items as they came, already plain.
struct PlainRequest: Equatable {
    /// The query items an operation takes, by kind.
    struct Query {
        var texts: Set<String> = []
        /// Each with its bounds in openapi.yaml: a value outside them goes to the generated
        /// handler, whose `QueryBoundsMiddleware` refuses it (`plainBoundsAreTheSpecs` checks).
        var integers: [String: ClosedRange<Int>] = [:]
        var booleans: Set<String> = []
    }

    var groupID: String
    var texts: [String: String] = [:]
    var integers: [String: Int] = [:]
    var booleans: [String: Bool] = [:]

    init?(_ request: HTTPRequest, metadata: ServerRequestMetadata, query: Query) {
        guard let group = metadata.pathParameters["groupId"], Self.isPlain(group), Self.takesJSON(request) else {
            return nil
        }
        groupID = String(group)
        guard let path = request.path else { return nil }
        guard let mark = path.firstIndex(of: "?") else { return }
        for item in path[path.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, Self.isPlain(parts[1]) else { return nil }
            let name = String(parts[0])
            guard texts[name] == nil, integers[name] == nil, booleans[name] == nil else { return nil }
            if query.texts.contains(name) {
                texts[name] = String(parts[1])
            } else if let bounds = query.integers[name] {
                guard parts[1].count <= 9, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let value = Int(parts[1]), bounds.contains(value)
                else { return nil }
                integers[name] = value
            } else if query.booleans.contains(name), parts[1] == "true" || parts[1] == "false" {
                booleans[name] = parts[1] == "true"
            } else {
                return nil
            }
        }
    }

    init(groupID: String, texts: [String: String] = [:], integers: [String: Int] = [:], booleans: [String: Bool] = [:]) {
        self.groupID = groupID
        self.texts = texts
        self.integers = integers
        self.booleans = booleans
    }

    /// Whether `request` has no `Accept` header or one that takes JSON outright.
    static func takesJSON(_ request: HTTPRequest) -> Bool {
        let accepts = request.headerFields[values: .accept]
        return accepts.isEmpty || (accepts.count == 1 && ["application/json", "*/*"].contains(accepts[0]))
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// Whether `request`'s body is said to be JSON (or is not said to be anything, which the
    /// generated server reads as JSON too).
    static func sendsJSON(_ request: HTTPRequest) -> Bool {
        let types = request.headerFields[values: .contentType]
        return types.isEmpty
            || (types.count == 1
                && ["application/json", "application/json; charset=utf-8"].contains(types[0].lowercased()))
    }

    /// Whether `request` has no query at all and takes JSON: all a read without parameters needs.
    static func isBare(_ request: HTTPRequest) -> Bool {
        takesJSON(request) && request.path?.contains("?") == false
    }

    /// Letters, digits, `-`, `_` and `.`: what reads the same percent-decoded or not.
    static func isPlain(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }
}

extension APIHandler {
    /// `listChanges`, written by `ExpenseJSON` and gzipped when `gzip` and large enough: the page
    /// kept in `cache` when the group has not changed since it was made, else made and kept.
    func changesPage(_ request: PlainRequest, gzip: Bool, cache: FeedPageCache) async throws -> FeedPageCache.Page {
        let caller = try await authenticate()
        let groupID = try Self.id(request.groupID, "group")
        let since = request.texts["since"]
        let limit = request.integers["limit"]
        let state = try await feedUseCases.pageState(groupID: groupID, caller: caller)
        let key = FeedPageCache.Key(groupID: groupID, since: since, limit: limit, changeSeq: state.changeSeq, gzip: gzip)
        return try await cache.page(key, viewer: state.viewer) {
            let page = try await feedUseCases.changes(groupID: groupID, since: since, limit: limit, caller: caller)
            let bytes = try ExpenseJSON.encode(page)
            let viewer = page.group == nil ? nil : state.viewer
            guard gzip, bytes.count >= ResponseCompressionMiddleware.minimumBytes else {
                return .init(bytes: bytes, gzipped: false, viewer: viewer)
            }
            return .init(bytes: Gzip.compress(bytes), gzipped: true, viewer: viewer)
        }
    }

    /// `listExpenses`, written by `ExpenseJSON`.
    func expensesJSON(_ request: PlainRequest) async throws -> [UInt8] {
        let query = request.texts
        let (page, hasMore) = try await expenseViews(groupID: request.groupID) {
            try Self.expenseFilter(
                category: query["category"], memberId: query["memberId"], from: query["from"], to: query["to"],
                q: query["q"], includeDeleted: request.booleans["includeDeleted"],
                limit: request.integers["limit"], cursor: query["cursor"], month: query["month"],
                year: request.integers["year"])
        }
        return try ExpenseJSON.encode(page, hasMore: hasMore)
    }
}
