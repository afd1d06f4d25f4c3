import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitApp

/// Registers the generated server's routes on `base`, except that the two reads whose answers are
/// mostly expenses, `GET /api/groups/{groupId}/changes` and `GET /api/groups/{groupId}/expenses`,
/// answer with `ExpenseJSON`'s bytes instead of the generated `JSONEncoder` (issue 16: a first
/// sync of 10,000 expenses spent a third of its time there).
///
/// Only plain requests are answered here: a group id and query items of plain characters, each
/// at most once and each one the operation knows, numbers and booleans written plainly, and no
/// `Accept` header or one that takes JSON outright. Anything else (percent-escapes, repeated or
/// unknown items, a `limit` that is no number, another `Accept`) goes to the generated handler, so
/// its decoding, its errors and its content negotiation stay the API's; this path only ever
/// writes the same bytes sooner (`ExpenseJSONTests` compares the two).
struct ExpenseReadRoutes<Base: ServerTransport>: ServerTransport {
    static var changesPath: String { "/api/groups/{groupId}/changes" }
    static var expensesPath: String { "/api/groups/{groupId}/expenses" }

    let base: Base
    let api: APIHandler
    /// The paths the generated server registered here, so a renamed path in openapi.yaml stops
    /// the server at start (`ExpenseReadRoutesError`) instead of losing this path unnoticed.
    let registered = Registered()

    func register(_ handler: @escaping OperationHandler, method: HTTPRequest.Method, path: String) throws {
        let api = api
        let answer: @Sendable (PlainRequest) async throws -> [UInt8]
        let query: PlainRequest.Query
        switch (method, path) {
        case (.get, Self.changesPath):
            query = .init(texts: ["since"], integers: ["limit"])
            answer = { try await api.changesJSON($0) }
        case (.get, Self.expensesPath):
            query = .init(
                texts: ["category", "memberId", "from", "to", "month", "q", "cursor"], integers: ["year", "limit"],
                booleans: ["includeDeleted"])
            answer = { try await api.expensesJSON($0) }
        default:
            return try base.register(handler, method: method, path: path)
        }
        registered.add(path)
        try base.register(
            { request, body, metadata in
                guard let plain = PlainRequest(request, metadata: metadata, query: query) else {
                    return try await handler(request, body, metadata)
                }
                let bytes = try await answer(plain)
                var response = HTTPResponse(status: .ok)
                response.headerFields[.contentType] = "application/json; charset=utf-8"
                return (response, HTTPBody(bytes))
            }, method: method, path: path)
    }

    /// Throws unless both reads were registered.
    func checkRegistered() throws {
        for path in [Self.changesPath, Self.expensesPath] where !registered.contains(path) {
            throw ExpenseReadRoutesError.notInSpecification(path)
        }
    }

    final class Registered: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []

        func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
    }
}

enum ExpenseReadRoutesError: Error, CustomStringConvertible {
    case notInSpecification(String)

    var description: String {
        switch self {
        case .notInSpecification(let path): "openapi.yaml has no GET \(path) any more: ExpenseReadRoutes must follow it"
        }
    }
}

/// A read with nothing to decode: the group id and the query items as they came, already plain.
struct PlainRequest: Equatable {
    /// The query items an operation takes, by kind.
    struct Query {
        var texts: Set<String> = []
        var integers: Set<String> = []
        var booleans: Set<String> = []
    }

    var groupID: String
    var texts: [String: String] = [:]
    var integers: [String: Int] = [:]
    var booleans: [String: Bool] = [:]

    init?(_ request: HTTPRequest, metadata: ServerRequestMetadata, query: Query) {
        guard let group = metadata.pathParameters["groupId"], Self.isPlain(group) else { return nil }
        let accepts = request.headerFields[values: .accept]
        guard accepts.isEmpty || (accepts.count == 1 && ["application/json", "*/*"].contains(accepts[0])) else {
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
            } else if query.integers.contains(name) {
                guard parts[1].count <= 9, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let value = Int(parts[1])
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
    /// `listChanges`, written by `ExpenseJSON`.
    func changesJSON(_ request: PlainRequest) async throws -> [UInt8] {
        try ExpenseJSON.encode(
            try await changes(groupID: request.groupID, since: request.texts["since"], limit: request.integers["limit"]))
    }

    /// `listExpenses`, written by `ExpenseJSON`.
    func expensesJSON(_ request: PlainRequest) async throws -> [UInt8] {
        let query = request.texts
        return try ExpenseJSON.encode(
            try await expenseList(groupID: request.groupID) {
                try Self.expenseFilter(
                    category: query["category"], memberId: query["memberId"], from: query["from"], to: query["to"],
                    q: query["q"], includeDeleted: request.booleans["includeDeleted"],
                    limit: request.integers["limit"], cursor: query["cursor"], month: query["month"],
                    year: request.integers["year"])
            })
    }
}
