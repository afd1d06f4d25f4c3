import Foundation
internal import OpenAPIURLSession
internal import SplitAPI

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
    public func deleteExpense(id: String, basedOn version: Int64? = nil) async throws -> Expense {
        let headers = Operations.DeleteExpense.Input.Headers(ifMatch: version.map(String.init))
        return try await call({ try await api.deleteExpense(path: .init(expenseId: id), headers: headers) }) {
            Expense(try $0.ok.body.json.expense)
        }
    }

    /// Brings a deleted expense back; `basedOn` as for `deleteExpense`.
    public func restoreExpense(id: String, basedOn version: Int64? = nil) async throws -> Expense {
        let headers = Operations.RestoreExpense.Input.Headers(ifMatch: version.map(String.init))
        return try await call({ try await api.restoreExpense(path: .init(expenseId: id), headers: headers) }) {
            Expense(try $0.ok.body.json.expense)
        }
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
        try await changes(groupID: groupID, since: since, limit: limit, through: api)
    }

    /// `changes`, telling `positionKnown` where the page ends as soon as its bytes are in, before
    /// it is decoded (`FeedPosition`; nil when it cannot be read early).
    func changes(
        groupID: String, since: String?, limit: Int?,
        positionKnown: @escaping @Sendable (FeedPosition?) -> Void
    ) async throws -> Changes {
        let api = Client(
            serverURL: serverURL, configuration: Self.configuration, transport: URLSessionTransport(),
            middlewares: [BearerMiddleware(tokens: tokens), FeedPositionMiddleware(observer: positionKnown)])
        return try await changes(groupID: groupID, since: since, limit: limit, through: api)
    }

    private func changes(groupID: String, since: String?, limit: Int?, through api: Client) async throws -> Changes {
        try await call({
            try await api.listChanges(path: .init(groupId: groupID), query: .init(since: since, limit: limit))
        }) { Changes(try $0.ok.body.json) }
    }
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
