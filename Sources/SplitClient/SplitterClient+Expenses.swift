import Foundation
internal import HTTPTypes
internal import OpenAPIRuntime
internal import SplitAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One expense's life after it was added: read, edit on a known version, delete and restore,
/// paid shares with their history, and the group's activity (DESIGN §5).
extension SplitterClient {
    public func expense(id: String) async throws -> Expense {
        try await call({ try await api.getExpense(path: .init(expenseId: id)) }) {
            Expense(try $0.ok.body.json.expense)
        }
    }

    /// Changes the fields set in `changes`, based on `version`: when someone changed the expense
    /// since, the server keeps theirs and this throws `.conflict` with the current expense
    /// (`SplitterError.currentExpense`). Nothing is ever silently overwritten.
    public func updateExpense(id: String, _ changes: ExpenseChanges, basedOn version: Int64) async throws -> Expense {
        var changes = changes
        changes.version = version
        let body = changes.wire
        return try await call({
            try await api.updateExpense(path: .init(expenseId: id), body: .json(body))
        }) { Expense(try $0.ok.body.json.expense) }
    }

    /// Soft-deletes; deleting a deleted expense answers it unchanged. With `basedOn`, only if
    /// nobody changed the expense since that version: otherwise `.conflict` with the current one.
    /// One that counts a part of someone no longer in the group is refused (409
    /// `removed_share_changed`, saying how it moves their balance) unless `confirmRemovedShares`.
    public func deleteExpense(id: String, basedOn version: Int64? = nil, confirmRemovedShares: Bool = false)
        async throws -> Expense
    {
        let headers = Operations.DeleteExpense.Input.Headers(ifMatch: version.map(String.init))
        return try await call({
            try await api.deleteExpense(
                path: .init(expenseId: id), query: .init(confirmRemovedShares: confirmRemovedShares ? true : nil),
                headers: headers)
        }) { Expense(try $0.ok.body.json.expense) }
    }

    /// Brings a deleted expense back; `basedOn` and `confirmRemovedShares` as for `deleteExpense`.
    public func restoreExpense(id: String, basedOn version: Int64? = nil, confirmRemovedShares: Bool = false)
        async throws -> Expense
    {
        let headers = Operations.RestoreExpense.Input.Headers(ifMatch: version.map(String.init))
        return try await call({
            try await api.restoreExpense(
                path: .init(expenseId: id), query: .init(confirmRemovedShares: confirmRemovedShares ? true : nil),
                headers: headers)
        }) { Expense(try $0.ok.body.json.expense) }
    }

    /// Marks one share paid or unpaid, with an optional reason kept in its history. With
    /// `basedOn`, only while the expense is at that version: else a conflict with the expense as
    /// it is, and nothing recorded.
    public func setPaid(shareID: String, _ isPaid: Bool, reason: String? = nil, basedOn version: Int64? = nil)
        async throws -> ExpenseShare
    {
        try await call({
            try await api.setSharePayment(
                path: .init(splitId: shareID), headers: .init(ifMatch: version.map(String.init)),
                body: .json(.init(isPaid: isPaid, reason: reason)))
        }) { ExpenseShare(try $0.ok.body.json.split) }
    }

    /// Who marked the share paid or unpaid, oldest first.
    public func shareHistory(shareID: String) async throws -> [HistoryEntry] {
        try await call({ try await api.getShareHistory(path: .init(splitId: shareID)) }) {
            try $0.ok.body.json.history.map(HistoryEntry.init)
        }
    }

    /// The group's activity, newest first, at most `limit` entries (across pages).
    public func activity(groupID: String, limit: Int = 50) async throws -> [ActivityEntry] {
        var all: [ActivityEntry] = []
        var cursor: String?
        repeat {
            let page = cursor
            let size = min(200, limit - all.count)
            let body = try await call({
                try await api.listActivity(path: .init(groupId: groupID), query: .init(limit: size, cursor: page))
            }) { try $0.ok.body.json }
            all += body.activity.map(ActivityEntry.init)
            cursor = body.nextCursor
        } while cursor != nil && all.count < limit
        return all
    }

    /// One page of the group's change feed after `since` (nil: from the start).
    public func changes(groupID: String, since: String?, limit: Int? = nil) async throws -> Changes {
        try await changes(groupID: groupID, since: since, limit: limit, positionKnown: nil)
    }

    /// `changes`, telling `positionKnown` where the page ends as soon as its bytes are in, before
    /// it is decoded (`FeedPosition`; nil when it cannot be read early).
    ///
    /// The one operation the SDK does not send through the generated client: its pages are read
    /// by `JSONReader` (FeedPageReader.swift), which accepts what the generated types accept at a
    /// fraction of the cost (issue 16). The request and every other answer are handled as
    /// `call` handles them: the token sent, transport failures `.offline`, the error envelope
    /// thrown as its `SplitterError`.
    func changes(
        groupID: String, since: String?, limit: Int?, positionKnown: (@Sendable (FeedPosition?) -> Void)?
    ) async throws -> Changes {
        var path = "/api/groups/\(Self.pathSegment(groupID))/changes"
        let query = [since.map { "since=\(Self.pathSegment($0))" }, limit.map { "limit=\($0)" }].compactMap { $0 }
        if !query.isEmpty { path += "?" + query.joined(separator: "&") }
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
        request.headerFields[.accept] = "application/json"
        do {
            if let token = try tokens.load() { request.headerFields[.authorization] = "Bearer \(token)" }
        } catch {
            throw SplitterError.server("\(error)")
        }
        let response: HTTPResponse
        let body: HTTPBody?
        do {
            (response, body) = try await HTTPTransport.shared.send(
                request, body: nil, baseURL: serverURL, operationID: "listChanges")
        } catch {
            throw SplitterError.offline(reaching(Self.transportFailure(error)))
        }
        var bytes: [UInt8] = []
        if let body {
            do {
                for try await chunk in body {
                    guard bytes.count + chunk.count <= Self.largestFeedPage else {
                        throw SplitterError.server("a page of the change feed over \(Self.largestFeedPage) bytes")
                    }
                    bytes += chunk
                }
            } catch let error as SplitterError {
                throw error
            } catch {
                // The connection broke while the page came.
                throw SplitterError.offline(reaching(Self.transportFailure(error)))
            }
        }
        guard response.status == .ok else {
            let envelope = try? JSONDecoder().decode(Components.Schemas.ErrorEnvelope.self, from: Data(bytes))
            throw SplitterError(
                status: response.status.code, envelope: envelope,
                retryAfter: response.headerFields[.retryAfter].flatMap { Int($0) })
        }
        positionKnown?(FeedPosition(scanning: bytes))
        do {
            return try Changes(feedPage: bytes)
        } catch {
            throw SplitterError.server(error.description)
        }
    }

    /// A page of 1,000 expenses is about 1.5 MB; the server answers at most 1,000 changes a page.
    static let largestFeedPage = 256 << 20

    /// `text` as one segment of a URL's path or a query value: everything but RFC 3986's
    /// unreserved characters percent-encoded, as the generated client encodes its parameters.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension SplitterError {
    /// The server's current expense carried by a stale-version answer (412), when it sent one.
    public var currentExpense: Expense? {
        guard case .conflict(_, _, let current?) = self else { return nil }
        return try? Expense.decodeFromServer(current)
    }
}

extension Decodable {
    /// Decodes JSON the way the server writes it (ISO 8601 timestamps).
    static func decodeFromServer(_ data: Data) throws -> Self {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Self.self, from: data)
    }
}
