import Foundation
import HTTPTypes
import Logging
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The expense operations of the API: wire in, one `ExpenseUseCases` call, wire out (STYLE §8).
extension APIHandler {
    func createExpense(_ input: Operations.CreateExpense.Input) async throws -> Operations.CreateExpense.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let creation = try await createExpense(body, idempotencyKey: input.headers.idempotencyKey)
        return .created(.init(body: .json(try Self.createdResponse(creation))))
    }

    /// `createExpense`'s answer as the generated server writes it, the expense written by
    /// `ExpenseJSON` (`PlainRoutes`).
    func createExpenseJSON(_ body: Components.Schemas.CreateExpenseRequest, idempotencyKey: String?) async throws
        -> [UInt8]
    {
        switch try await createExpense(body, idempotencyKey: idempotencyKey) {
        case .created(let view): return try ExpenseJSON.encode(created: view)
        case .replayed(let response):
            let stored = try WireJSON.decode(Components.Schemas.ExpenseResponse.self, from: response.body)
            return [UInt8](try ExpenseJSON.generatedEncoder().encode(stored))
        }
    }

    private func createExpense(_ body: Components.Schemas.CreateExpenseRequest, idempotencyKey: String?) async throws
        -> ExpenseCreation
    {
        let caller = try await authenticate()
        let item = try Self.batched(body, idempotencyKey: idempotencyKey)
        return try await expenseUseCases.create(
            item.entered, id: item.id, groupID: item.groupID, caller: caller, origin: try request.origin,
            idempotency: item.idempotency, render: Self.renderCreated)
    }

    /// A create's body and Idempotency-Key as the use case takes them.
    static func batched(_ body: Components.Schemas.CreateExpenseRequest, idempotencyKey: String?) throws
        -> BatchedExpense
    {
        // Malformed is unknown, exactly like another group's id (DESIGN §4).
        guard let groupID = UUID(uuidString: body.groupId) else { throw APIError.notFound("group") }
        let idempotency = try Self.idempotency(idempotencyKey, route: "POST /api/expenses", body: body)
        return BatchedExpense(EnteredExpense(wire: body), id: body.id, groupID: groupID, idempotency: idempotency)
    }

    /// The 201 answer a retry with the same Idempotency-Key gets back.
    static let renderCreated: @Sendable (ExpenseView) throws -> StoredResponse = { view in
        StoredResponse(
            status: 201, body: try WireJSON.encode(Components.Schemas.ExpenseResponse(expense: try .init(view))))
    }

    static func createdResponse(_ creation: ExpenseCreation) throws -> Components.Schemas.ExpenseResponse {
        switch creation {
        case .created(let view): return .init(expense: try .init(view))
        case .replayed(let response):
            return try WireJSON.decode(Components.Schemas.ExpenseResponse.self, from: response.body)
        }
    }

    /// The most expenses one batch holds (openapi.yaml says the same).
    static let batchLimit = 200

    /// Each item answered as `createExpense` would answer it alone, in order; a refusal becomes
    /// that item's result and the rest go on. The use case writes them 50 to a transaction.
    func createExpenses(_ input: Operations.CreateExpenses.Input) async throws -> Operations.CreateExpenses.Output {
        let caller = try await authenticate()  // a dead session is one 401, before any item
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard (1...Self.batchLimit).contains(body.items.count) else {
            throw APIError.invalid(field: "items", "A batch holds 1 to \(Self.batchLimit) expenses.")
        }
        // An item the wire already refuses keeps its place with its error.
        let read = body.items.map { item in
            Result { try Self.batched(item.expense, idempotencyKey: item.idempotencyKey) }
        }
        let valid = read.compactMap { try? $0.get() }
        var created = await expenseUseCases.createEach(
            valid, caller: caller, origin: try request.origin, render: Self.renderCreated
        ).makeIterator()
        var results: [Components.Schemas.CreateExpensesResponse.ResultsPayloadPayload] = []
        results.reserveCapacity(body.items.count)
        for item in read {
            let result = item.flatMap { _ in created.next() ?? .failure(APIError.internalError) }
            do {
                results.append(.init(status: 201, expense: try Self.createdResponse(try result.get()).expense))
            } catch {
                let failure = ErrorEnvelopeMiddleware.apiError(for: error)
                if failure.status.code >= 500 {
                    try request.logger.error(
                        "batch item failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                results.append(
                    .init(
                        status: failure.status.code,
                        failure: try WireJSON.decode(Components.Schemas.ErrorEnvelope.self, from: failure.body)))
            }
        }
        return .ok(.init(body: .json(.init(results: results))))
    }

    func getExpense(_ input: Operations.GetExpense.Input) async throws -> Operations.GetExpense.Output {
        let caller = try await authenticate()
        let view = try await expenseUseCases.expense(try Self.id(input.path.expenseId, "expense"), caller: caller)
        return .ok(.init(body: .json(.init(expense: try .init(view)))))
    }

    func listExpenses(_ input: Operations.ListExpenses.Input) async throws -> Operations.ListExpenses.Output {
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await expenseList(groupID: input.path.groupId) {
                        try Self.expenseFilter(
                            category: query.category, memberId: query.memberId, from: query.from, to: query.to,
                            q: query.q, includeDeleted: query.includeDeleted, limit: query.limit,
                            cursor: query.cursor, month: query.month, year: query.year)
                    })))
    }

    /// A page of the group's expenses as the API lists them (`listExpenses`, `PlainRoutes`).
    func expenseList(groupID: String, filter: () throws -> ExpenseFilter) async throws
        -> Components.Schemas.ExpenseList
    {
        let (page, hasMore) = try await expenseViews(groupID: groupID, filter: filter)
        return try .init(page, hasMore: hasMore)
    }

    /// A page of the group's expenses as the use case gives it, and whether more follow.
    func expenseViews(groupID: String, filter: () throws -> ExpenseFilter) async throws
        -> (expenses: [ExpenseView], hasMore: Bool)
    {
        let caller = try await authenticate()
        return try await expenseUseCases.list(groupID: try Self.id(groupID, "group"), filter: filter, caller: caller)
    }

    /// The list's query as a store filter (the API's and the web's filters are the same fields).
    static func expenseFilter(
        category: String?, memberId: String?, from: String?, to: String?, q: String?, includeDeleted: Bool?,
        limit: Int?, cursor: String?, month: String? = nil, year: Int? = nil
    ) throws -> ExpenseFilter {
        var filter = ExpenseFilter()
        filter.categoryID = try category.map { text in
            guard let id = UUID(uuidString: text) else {
                throw APIError.invalid(field: "category", "category is not a category id.")
            }
            return id
        }
        filter.memberID = try memberId.map { try MoneyInput.member($0, field: "memberId").uuid }
        // A bound may be far out ("to=9999-12-31" for everything to come): any year.
        filter.from = try from.map { try MoneyInput.date($0, field: "from", years: 1...9999) }
        filter.to = try to.map { try MoneyInput.date($0, field: "to", years: 1...9999) }
        // A month ("2026-11") or a year (issue 20, as the seed's list): its first and last days,
        // narrowing from and to when they are given too.
        var range: (first: CivilDate, last: CivilDate)?
        if let month {
            guard let first = CivilDate(month + "-01") else {
                throw APIError.invalid(field: "month", "month is written 2026-11.")
            }
            range = (first, CivilDate(year: first.year, month: first.month, day: CivilDate.days(inMonth: first.month, year: first.year))!)
        }
        if let year {
            guard let first = CivilDate(year: year, month: 1, day: 1), let last = CivilDate(year: year, month: 12, day: 31) else {
                throw APIError.invalid(field: "year", "year is from 1 to 9999.")
            }
            guard range.map({ $0.first.year == year }) ?? true else {
                throw APIError.invalid(field: "year", "month and year disagree.")
            }
            range = range ?? (first, last)
        }
        if let range {
            filter.from = max(filter.from ?? range.first.description, range.first.description)
            filter.to = min(filter.to ?? range.last.description, range.last.description)
        }
        filter.text = q.map { String($0.prefix(200)) }
        filter.includeDeleted = includeDeleted ?? false
        filter.limit = min(max(limit ?? 50, 1), 200)
        if let cursor {
            let parts = cursor.split(separator: "_")
            // date_createdAt_id; a date_id cursor from before one day's expenses were ordered by
            // entry goes on from the start of that date (some of it again, none of it lost).
            let createdAt = parts.count == 3 ? Int64(parts[1]) : parts.count == 2 ? Int64.max : nil
            guard let createdAt, let id = UUID(uuidString: String(parts[parts.count - 1])) else {
                throw APIError.invalid(field: "cursor", "cursor is not one this server gave out; start from the first page.")
            }
            filter.after = (
                try MoneyInput.date(String(parts[0]), field: "cursor", years: 1...9999), createdAt,
                parts.count == 3 ? id : UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff") ?? id
            )
        }
        return filter
    }

    func updateExpense(_ input: Operations.UpdateExpense.Input) async throws -> Operations.UpdateExpense.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        return .ok(
            .init(body: .json(try await editExpense(input.path.expenseId, body, ifMatch: input.headers.ifMatch))))
    }

    func replaceExpense(_ input: Operations.ReplaceExpense.Input) async throws -> Operations.ReplaceExpense.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        return .ok(
            .init(body: .json(try await editExpense(input.path.expenseId, body, ifMatch: input.headers.ifMatch))))
    }

    func deleteExpense(_ input: Operations.DeleteExpense.Input) async throws -> Operations.DeleteExpense.Output {
        .ok(
            .init(
                body: .json(
                    try await setExpenseDeleted(
                        input.path.expenseId, true, ifMatch: input.headers.ifMatch,
                        confirmRemovedShares: input.query.confirmRemovedShares == true))))
    }

    func restoreExpense(_ input: Operations.RestoreExpense.Input) async throws -> Operations.RestoreExpense.Output {
        .ok(
            .init(
                body: .json(
                    try await setExpenseDeleted(
                        input.path.expenseId, false, ifMatch: input.headers.ifMatch,
                        confirmRemovedShares: input.query.confirmRemovedShares == true))))
    }

    func setSharePayment(_ input: Operations.SetSharePayment.Input) async throws -> Operations.SetSharePayment.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let (share, currency, nothingToPay) = try await expenseUseCases.setSharePaid(
            try Self.id(input.path.splitId, "share"), body.isPaid, reason: body.reason,
            basedOn: try Self.version(input.headers.ifMatch), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(split: .init(share, currency: currency, nothingToPay: nothingToPay)))))
    }

    func getShareHistory(_ input: Operations.GetShareHistory.Input) async throws -> Operations.GetShareHistory.Output {
        let caller = try await authenticate()
        let (history, seesDetails) = try await expenseUseCases.shareHistory(
            try Self.id(input.path.splitId, "share"), caller: caller)
        return .ok(.init(body: .json(.init(history: history.map { .init($0, withDetails: seesDetails) }))))
    }

    private func editExpense(
        _ idText: String, _ body: Components.Schemas.UpdateExpenseRequest, ifMatch: String?
    ) async throws -> Components.Schemas.ExpenseResponse {
        let caller = try await authenticate()
        let view = try await expenseUseCases.edit(
            try Self.id(idText, "expense"), ExpensePatch(wire: body),
            basedOn: { try body.version ?? Self.version(ifMatch) },
            caller: caller, origin: try request.origin)
        return .init(expense: try .init(view))
    }

    /// Deletes or restores; with a version (If-Match), only if the expense is still at it.
    private func setExpenseDeleted(_ idText: String, _ isDeleted: Bool, ifMatch: String?, confirmRemovedShares: Bool)
        async throws -> Components.Schemas.ExpenseResponse
    {
        let caller = try await authenticate()
        let version = try Self.version(ifMatch)
        let view = try await expenseUseCases.setDeleted(
            try Self.id(idText, "expense"), isDeleted, basedOn: version, confirmRemovedShares: confirmRemovedShares,
            caller: caller, origin: try request.origin)
        return .init(expense: try .init(view))
    }

    /// A path id; a malformed one is as unknown as a missing one (404, DESIGN §4).
    static func id(_ text: String, _ what: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw APIError.notFound(what) }
        return id
    }

    /// "3", "\"3\"" or "W/\"3\"" → 3; "*" (any version, RFC 9110) → nil.
    static func version(_ ifMatch: String?) throws -> Int64? {
        guard let ifMatch, ifMatch.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        let digits = ifMatch.replacingOccurrences(of: "W/", with: "").trimmingCharacters(
            in: CharacterSet(charactersIn: "\" "))
        guard let version = Int64(digits) else { throw APIError.badRequest("If-Match must hold a version number.") }
        return version
    }

    /// A hash of the route and body (re-encoded, so key order and spacing do not matter): what an
    /// `Idempotency-Key` is bound to.
    /// A create's `Idempotency-Key`, if sent, bound to its route and body.
    static func idempotency(_ key: String?, route: String, body: some Encodable) throws -> IdempotencyRequest? {
        try key.map { IdempotencyRequest(key: $0, requestHash: try requestHash(route: route, body: body)) }
    }

    static func requestHash(route: String, body: some Encodable) throws -> String {
        var bytes = Data(route.utf8)
        bytes.append(try WireJSON.encode(body))
        return IdempotencyRequest.hash(bytes)
    }
}

/// JSON the way the API writes it: sorted keys, ISO 8601 dates.
enum WireJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }
}
