import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitApp

/// Registers the generated server's routes on `base`, except that `GET
/// /api/groups/{groupId}/changes` answers with `ExpenseJSON`'s bytes instead of the generated
/// `JSONEncoder` (issue 16: a first sync of 10,000 expenses spent a third of its time there).
///
/// Only the plain request is answered here: a group id and `since`/`limit` of plain characters,
/// each at most once, and no `Accept` header or one that takes JSON outright. Anything else
/// (percent-escapes, repeated or unknown query items, a `limit` that is no number, another
/// `Accept`) goes to the generated handler, so its decoding, its errors and its content
/// negotiation stay the API's; the fast path only ever writes the same bytes sooner.
struct ChangeFeedRoute<Base: ServerTransport>: ServerTransport {
    static var path: String { "/api/groups/{groupId}/changes" }

    let base: Base
    let api: APIHandler
    /// Set once the generated server registered the feed's route, so a renamed path in
    /// openapi.yaml stops the server at start instead of losing the fast path unnoticed.
    let registered = Registered()

    func register(
        _ handler: @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
            HTTPResponse, HTTPBody?
        ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        guard method == .get, path == Self.path else {
            return try base.register(handler, method: method, path: path)
        }
        registered.set()
        let api = api
        try base.register(
            { request, body, metadata in
                guard let plain = PlainChangesRequest(request, metadata: metadata) else {
                    return try await handler(request, body, metadata)
                }
                return try await api.changesAnswer(plain)
            }, method: method, path: path)
    }

    final class Registered: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false

        func set() { lock.withLock { done = true } }
        var isSet: Bool { lock.withLock { done } }
    }
}

/// A change-feed request with nothing to decode: the fields as they came, already plain text.
struct PlainChangesRequest: Equatable {
    var groupID: String
    var since: String?
    var limit: Int?

    init?(_ request: HTTPRequest, metadata: ServerRequestMetadata) {
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
            guard parts.count == 2, !parts[1].isEmpty, Self.isPlain(parts[1]) else { return nil }
            switch parts[0] {
            case "since" where since == nil:
                since = String(parts[1])
            case "limit" where limit == nil:
                guard parts[1].count <= 9, parts[1].allSatisfy(\.isASCIIDigit), let value = Int(parts[1]) else {
                    return nil
                }
                limit = value
            default:
                return nil
            }
        }
    }

    init(groupID: String, since: String?, limit: Int?) {
        self.groupID = groupID
        self.since = since
        self.limit = limit
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

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension APIHandler {
    /// `listChanges`, answered with `ExpenseJSON`.
    func changesAnswer(_ request: PlainChangesRequest) async throws -> (HTTPResponse, HTTPBody?) {
        let caller = try await authenticate()
        let page = try await feedUseCases.changes(
            groupID: try Self.id(request.groupID, "group"), since: request.since, limit: request.limit, caller: caller)
        let bytes = try ExpenseJSON.encode(Components.Schemas.ChangesResponse(page))
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json; charset=utf-8"
        return (response, HTTPBody(bytes))
    }
}
