import Crypto
import Foundation
import HTTPTypes
import Logging
import SplitAPI
import SplitCore
import SplitStore

/// The fields of an expense as the wire gives them, before checking: a create, or an edit laid
/// over the stored expense.
struct ExpenseDraft {
    var description: String
    var amount: String
    var currency: String
    var category: String?
    var expenseDate: String
    var paidBy: [Components.Schemas.MemberAmount]?
    var paidByMemberId: String?
    var split: Components.Schemas.SplitInput?
    var splits: [Components.Schemas.MemberAmount]?
    var homeAmount: String?
}

extension APIHandler {
    func createExpense(_ input: Operations.CreateExpense.Input) async throws -> Operations.CreateExpense.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let (group, me) = try await access(body.groupId, as: caller, for: .addExpense)
        let claim = try idempotencyClaim(
            input.headers.idempotencyKey, caller: caller, route: "POST /api/expenses", body: body)
        // A retry gets its first answer even if the request would no longer pass validation.
        if let claim, let earlier = try await idempotency.lookup(claim) {
            return .created(.init(body: .json(try Self.response(earlier, as: Components.Schemas.ExpenseResponse.self))))
        }
        let id = try Self.clientID(body.id)
        let draft = ExpenseDraft(
            description: body.description, amount: body.amount, currency: body.currency, category: body.category,
            expenseDate: body.expenseDate, paidBy: body.paidBy, paidByMemberId: body.paidByMemberId, split: body.split,
            splits: body.splits, homeAmount: body.homeAmount)
        let current = now()
        let (expense, categories) = try await buildExpense(
            draft, id: id, group: group, me: me, createdBy: caller.user.id, now: current)
        let outcome: IdempotencyOutcome<ExpenseRecord>
        do {
            outcome = try await expenses.create(
                expense, actor: try actor(caller, me, for: .addExpense), idempotency: claim
            ) { stored in
                StoredResponse(
                    status: 201,
                    body: try WireJSON.encode(
                        Components.Schemas.ExpenseResponse(
                            expense: try .init(stored, categories: categories, homeCurrency: group.homeCurrency))))
            }
        } catch ExpenseStoreError.idTaken {
            throw APIError.conflict(field: "id", message: "An expense with that id exists already.")
        } catch  where Database.isUniqueViolation(error) {
            // The same client id created at this moment in another group.
            throw APIError.conflict(field: "id", message: "An expense with that id exists already.")
        }
        if case .created(let stored, _) = outcome {
            // What was stored, as it was stored: no need to read back the bytes kept for the key.
            return .created(
                .init(
                    body: .json(
                        .init(expense: try .init(stored, categories: categories, homeCurrency: group.homeCurrency)))))
        }
        return .created(.init(body: .json(try Self.response(outcome, as: Components.Schemas.ExpenseResponse.self))))
    }

    /// The most expenses one batch holds (openapi.yaml says the same).
    static let batchLimit = 200

    /// Each item through `createExpense` itself, in order, so a batch item is handled exactly as
    /// the single request would be; a refusal becomes that item's result and the rest go on.
    func createExpenses(_ input: Operations.CreateExpenses.Input) async throws -> Operations.CreateExpenses.Output {
        _ = try await authenticate()  // a dead session is one 401, before any item
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard (1...Self.batchLimit).contains(body.items.count) else {
            throw APIError.invalid(field: "items", "A batch holds 1 to \(Self.batchLimit) expenses.")
        }
        var results: [Components.Schemas.CreateExpensesResponse.ResultsPayloadPayload] = []
        results.reserveCapacity(body.items.count)
        for item in body.items {
            do {
                let output = try await createExpense(
                    .init(headers: .init(idempotencyKey: item.idempotencyKey), body: .json(item.expense)))
                guard case .created(let created) = output, case .json(let response) = created.body else {
                    throw APIError.internalError
                }
                results.append(.init(status: 201, expense: response.expense))
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
        let (expense, group, _) = try await expenseAccess(input.path.expenseId, caller, action: { _, _ in .read })
        return .ok(
            .init(
                body: .json(
                    .init(
                        expense: try .init(
                            expense, categories: try await categoryNames(group.id), homeCurrency: group.homeCurrency))))
        )
    }

    func listExpenses(_ input: Operations.ListExpenses.Input) async throws -> Operations.ListExpenses.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let query = input.query
        var filter = ExpenseFilter()
        filter.categoryID = try query.category.map { text in
            guard let id = UUID(uuidString: text) else {
                throw APIError.invalid(field: "category", "category is not a category id.")
            }
            return id
        }
        filter.memberID = try query.memberId.map { try MoneyInput.member($0, field: "memberId").uuid }
        filter.from = try query.from.map { try MoneyInput.date($0, field: "from") }
        filter.to = try query.to.map { try MoneyInput.date($0, field: "to") }
        filter.text = query.q.map { String($0.prefix(200)) }
        filter.includeDeleted = query.includeDeleted ?? false
        filter.limit = min(max(query.limit ?? 50, 1), 200)
        if let cursor = query.cursor {
            let parts = cursor.split(separator: "_")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else {
                throw APIError.invalid(field: "cursor", "cursor is not one this server gave out.")
            }
            filter.after = (try MoneyInput.date(String(parts[0]), field: "cursor"), id)
        }
        let (page, hasMore) = try await expenses.expenses(groupID: group.id, filter: filter)
        let categories = try await categoryNames(group.id)
        let next = hasMore ? page.last.map { "\($0.expenseDate)_\($0.id.text)" } : nil
        return .ok(
            .init(
                body: .json(
                    .init(
                        expenses: try page.map {
                            try .init($0, categories: categories, homeCurrency: group.homeCurrency)
                        }, nextCursor: next))))
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
                        input.path.expenseId, true, ifMatch: input.headers.ifMatch))))
    }

    func restoreExpense(_ input: Operations.RestoreExpense.Input) async throws -> Operations.RestoreExpense.Output {
        .ok(
            .init(
                body: .json(
                    try await setExpenseDeleted(
                        input.path.expenseId, false, ifMatch: input.headers.ifMatch))))
    }

    func setSharePayment(_ input: Operations.SetSharePayment.Input) async throws -> Operations.SetSharePayment.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard let splitID = UUID(uuidString: input.path.splitId), let found = try await expenses.share(id: splitID)
        else {
            throw APIError.notFound("share")
        }
        let (_, me) = try await access(found.expense.groupID.text, as: caller, for: .read)
        let isDebtorOrPayer = found.share.memberID == me.id || found.expense.payers.contains { $0.memberID == me.id }
        let action = GroupAction.markSharePaid(isDebtorOrPayer: isDebtorOrPayer)
        _ = try await access(found.expense.groupID.text, as: caller, for: action)
        let reason =
            try body.reason.map { text in
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed.unicodeScalars.count <= 500,
                    !AccountInput.containsControlCharacters(trimmed, allowingLineBreaks: true)
                else { throw APIError.invalid(field: "reason", "A reason has at most 500 characters.") }
                return trimmed.isEmpty ? nil : trimmed
            } ?? nil
        let current = now()
        do {
            guard
                let (share, _) = try await expenses.setPaid(
                    splitID: splitID, groupID: found.expense.groupID, body.isPaid, reason: reason,
                    actor: try actor(caller, me, for: action), now: current, date: MoneyInput.today(current))
            else { throw APIError.notFound("share") }
            return .ok(.init(body: .json(.init(split: .init(share, currency: found.expense.currency)))))
        } catch ExpenseStoreError.expenseDeleted {
            throw APIError(.conflict, code: "expense_deleted", message: "The expense is deleted; restore it first.")
        }
    }

    func getShareHistory(_ input: Operations.GetShareHistory.Input) async throws -> Operations.GetShareHistory.Output {
        let caller = try await authenticate()
        guard let splitID = UUID(uuidString: input.path.splitId), let found = try await expenses.share(id: splitID)
        else {
            throw APIError.notFound("share")
        }
        let (_, me) = try await access(found.expense.groupID.text, as: caller, for: .read)
        let seesDetails = Permissions.decide(.seeAuditDetails, for: me.membership) == .allowed
        let history = try await expenses.history(splitID: splitID)
        return .ok(.init(body: .json(.init(history: history.map { .init($0, withDetails: seesDetails) }))))
    }

    // MARK: - Shared steps

    /// The expense, its group and the caller's membership, when `action` (given the expense and
    /// my member) is allowed; another group's expense is the same 404 as an unknown one.
    func expenseAccess(
        _ idText: String, _ caller: Caller, action: (ExpenseRecord, MemberRecord) -> GroupAction
    ) async throws -> (ExpenseRecord, GroupRecord, MemberRecord) {
        guard let id = UUID(uuidString: idText), let expense = try await expenses.expense(id: id) else {
            throw APIError.notFound("expense")
        }
        let (group, me) = try await access(expense.groupID.text, as: caller, for: .read)
        let needed = action(expense, me)
        if needed != .read { _ = try await access(expense.groupID.text, as: caller, for: needed) }
        return (expense, group, me)
    }

    private func editExpense(
        _ idText: String, _ body: Components.Schemas.UpdateExpenseRequest, ifMatch: String?
    ) async throws -> Components.Schemas.ExpenseResponse {
        let caller = try await authenticate()
        let (current, group, me) = try await expenseAccess(idText, caller) { expense, _ in
            .editExpense(isOwn: expense.createdByUserID == caller.user.id)
        }
        guard let basedOn = try body.version ?? Self.version(ifMatch) else {
            throw APIError(
                .preconditionRequired, code: "precondition_required",
                message: "Send the version this edit is based on, as \"version\" or If-Match.")
        }
        let categories = try await categoryNames(group.id)
        if basedOn != current.version {
            throw try APIError.staleVersion(
                Components.Schemas.Expense(current, categories: categories, homeCurrency: group.homeCurrency))
        }
        var draft = try Self.draft(of: current, homeCurrency: group.homeCurrency)
        if let description = body.description { draft.description = description }
        if let amount = body.amount {
            // One payer of the whole amount follows a new amount unless payers are given too.
            if body.paidBy == nil, body.paidByMemberId == nil, current.payers.count == 1 {
                draft.paidBy = nil
                draft.paidByMemberId = current.payers[0].memberID.text
            }
            draft.amount = amount
        }
        if let currency = body.currency { draft.currency = currency }
        if let category = body.category { draft.category = category }
        if let date = body.expenseDate { draft.expenseDate = date }
        if let paidBy = body.paidBy { draft.paidBy = paidBy; draft.paidByMemberId = nil }
        if let payer = body.paidByMemberId, body.paidBy == nil { draft.paidBy = nil; draft.paidByMemberId = payer }
        if let split = body.split { draft.split = split; draft.splits = nil }
        if let splits = body.splits, body.split == nil { draft.split = nil; draft.splits = splits }
        if let home = body.homeAmount { draft.homeAmount = home }
        let (updated, _) = try await buildExpense(
            draft, id: current.id, group: group, me: me, createdBy: current.createdByUserID, now: now())
        switch try await expenses.update(
            updated, expectedVersion: basedOn,
            actor: try actor(caller, me, for: .editExpense(isOwn: current.createdByUserID == caller.user.id)),
            now: now())
        {
        case .written(let stored):
            return .init(expense: try .init(stored, categories: categories, homeCurrency: group.homeCurrency))
        case .stale(let latest):
            throw try APIError.staleVersion(
                Components.Schemas.Expense(latest, categories: categories, homeCurrency: group.homeCurrency))
        case nil: throw APIError.notFound("expense")
        }
    }

    /// Deletes or restores; with a version (If-Match), only if the expense is still at it.
    private func setExpenseDeleted(_ idText: String, _ isDeleted: Bool, ifMatch: String?) async throws
        -> Components.Schemas.ExpenseResponse
    {
        let caller = try await authenticate()
        let version = try Self.version(ifMatch)
        let (current, group, me) = try await expenseAccess(idText, caller) { expense, _ in
            .editExpense(isOwn: expense.createdByUserID == caller.user.id)
        }
        let categories = try await categoryNames(group.id)
        switch try await expenses.setDeleted(
            id: current.id, groupID: group.id, isDeleted, expectedVersion: version,
            actor: try actor(caller, me, for: .editExpense(isOwn: current.createdByUserID == caller.user.id)),
            now: now()
        )
        {
        case .written(let stored):
            return .init(expense: try .init(stored, categories: categories, homeCurrency: group.homeCurrency))
        case .stale(let stored):
            throw try APIError.staleVersion(
                Components.Schemas.Expense(stored, categories: categories, homeCurrency: group.homeCurrency))
        case nil: throw APIError.notFound("expense")
        }
    }

    /// Checks a draft against the group (members, category, currency) and SplitCore, and makes
    /// the record to store: payers and owed shares in minor units (DESIGN §3).
    func buildExpense(
        _ draft: ExpenseDraft, id: UUID, group: GroupRecord, me: MemberRecord, createdBy: UUID, now: Int64
    ) async throws -> (ExpenseRecord, categoryNames: [UUID: String]) {
        let description = draft.description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(description.unicodeScalars.count),
            !AccountInput.containsControlCharacters(description, allowingLineBreaks: false)
        else { throw APIError.invalid(field: "description", "A description has 1 to 200 characters.") }
        let currency = try MoneyInput.currency(draft.currency, field: "currency")
        let total = try MoneyInput.amount(draft.amount, currency, field: "amount")
        let date = try MoneyInput.date(draft.expenseDate, field: "expenseDate")
        let (category, categoryNames) = try await resolveCategory(draft.category, groupID: group.id, now: now)
        let members = try await groups.members(groupID: group.id)
        let active = Set(members.filter(\.isActive).map { MemberID($0.id) })

        var reader = SplitInputReader(currency: currency)
        var noted: [(MemberID, String)] = []
        let payers: [MemberAmount]
        if let paidBy = draft.paidBy {
            payers = try paidBy.enumerated().map { index, entry in
                let id = try MoneyInput.member(entry.memberId, field: "paidBy[\(index)].memberId")
                noted.append((id, "paidBy[\(index)].memberId"))
                return MemberAmount(id, try MoneyInput.amount(entry.amount, currency, field: "paidBy[\(index)].amount"))
            }
        } else {
            let payer =
                try draft.paidByMemberId.map { try MoneyInput.member($0, field: "paidByMemberId") } ?? MemberID(me.id)
            noted.append((payer, "paidByMemberId"))
            payers = [MemberAmount(payer, total)]
        }
        var splitInput: Components.Schemas.SplitInput
        let rule: SplitRule
        if let split = draft.split {
            splitInput = split
            rule = try reader.rule(split, field: "split")
        } else if let splits = draft.splits {
            splitInput = .init(mode: .exact, amounts: splits)
            rule = try reader.rule(splitInput, field: "splits")
        } else {
            // Nothing said: equally among everyone still in the group.
            splitInput = .init(mode: .equal, memberIds: active.sorted().map(\.description))
            rule = try reader.rule(splitInput, field: "split")
        }
        for (member, field) in noted + reader.members where !active.contains(member) {
            throw APIError.invalid(field: field, "\(member) is not an active member of this group.")
        }
        let computed: ExpenseSplit
        do {
            computed = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: currency), payers: payers, rule: rule,
                tieBreak: TieBreak(seed: id.text))
        } catch {
            throw APIError.invalid(field: error.field, error.description)
        }
        let home = try Currency(code: group.homeCurrency)
        let homeAmount = try draft.homeAmount.map { try MoneyInput.amount($0, home, field: "homeAmount") }
        if homeAmount == 0 { throw APIError.invalid(field: "homeAmount", "homeAmount must be more than zero.") }
        splitInput.memberIds = splitInput.memberIds?.map { $0.lowercased() }
        let record = ExpenseRecord(
            id: id, groupID: group.id, description: description, amount: total, currency: currency.code,
            categoryID: category, expenseDate: date,
            splitJSON: String(decoding: try WireJSON.encode(splitInput), as: UTF8.self),
            homeAmount: currency == home ? nil : homeAmount,
            homeCurrency: currency == home || homeAmount == nil ? nil : home.code,
            createdByUserID: createdBy, createdAt: now,
            updatedAt: now, payers: computed.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
            shares: computed.owed.map { ShareRecord(id: UUID(), memberID: $0.memberID.uuid, amount: $0.amount) })
        return (record, categoryNames)
    }

    /// A category by id or by name (any case); none means the default "Other". Also every
    /// category's name, from the same read.
    private func resolveCategory(
        _ text: String?, groupID: UUID, now: Int64
    ) async throws -> (UUID, names: [UUID: String]) {
        var all = try await categories.allCategories(groupID: groupID)
        if !all.contains(where: { !$0.isDeleted }) {
            _ = try await categories.categories(groupID: groupID, now: now)  // makes the defaults
            all = try await categories.allCategories(groupID: groupID)
        }
        let names = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.name) })
        let live = all.filter { !$0.isDeleted }
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            let other = live.first { $0.isDefault && $0.name == "Other" } ?? live[live.count - 1]
            return (other.id, names)
        }
        if let id = UUID(uuidString: text), let match = live.first(where: { $0.id == id }) { return (match.id, names) }
        if let match = live.first(where: { $0.name.lowercased() == text.lowercased() }) { return (match.id, names) }
        throw APIError.invalid(field: "category", "There is no category \"\(text.prefix(50))\" in this group.")
    }

    /// Every category name of the group by id, deleted ones too: expenses keep their names.
    func categoryNames(_ groupID: UUID) async throws -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: try await categories.allCategories(groupID: groupID).map { ($0.id, $0.name) })
    }

    static func draft(of expense: ExpenseRecord, homeCurrency: String) throws -> ExpenseDraft {
        ExpenseDraft(
            description: expense.description, amount: MoneyInput.text(expense.amount, expense.currency),
            currency: expense.currency, category: expense.categoryID.text, expenseDate: expense.expenseDate,
            paidBy: expense.payers.map {
                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, expense.currency))
            },
            split: try WireJSON.decode(Components.Schemas.SplitInput.self, from: Data(expense.splitJSON.utf8)),
            homeAmount: expense.homeAmount.map { MoneyInput.text($0, expense.homeCurrency ?? homeCurrency) })
    }

    /// "3", "\"3\"" or "W/\"3\"" → 3; "*" (any version, RFC 9110) → nil.
    static func version(_ ifMatch: String?) throws -> Int64? {
        guard let ifMatch, ifMatch.trimmingCharacters(in: .whitespaces) != "*" else { return nil }
        let digits = ifMatch.replacingOccurrences(of: "W/", with: "").trimmingCharacters(
            in: CharacterSet(charactersIn: "\" "))
        guard let version = Int64(digits) else { throw APIError.badRequest("If-Match must hold a version number.") }
        return version
    }

    /// Who is writing, and the actions `access` allowed them, for the store to decide again
    /// inside the write's transaction (`WriteGrant`).
    func actor(_ caller: Caller, _ me: MemberRecord, for actions: GroupAction...) throws -> Actor {
        try actor(caller, me, for: actions)
    }

    func actor(_ caller: Caller, _ me: MemberRecord, for actions: [GroupAction]) throws -> Actor {
        let request = try request
        return Actor(
            userID: caller.user.id, name: me.name, ipAddress: request.clientAddress,
            deviceInfo: request.userAgent.map { String($0.prefix(200)) },
            grant: WriteGrant(memberID: me.id, actions: actions))
    }

    /// The claim for an `Idempotency-Key`: the key, and a hash of the route and body (re-encoded,
    /// so key order and spacing do not matter).
    func idempotencyClaim(
        _ key: String?, caller: Caller, route: String, body: some Encodable
    ) throws -> IdempotencyClaim? {
        guard let key else { return nil }
        guard (1...200).contains(key.utf8.count),
            !AccountInput.containsControlCharacters(key, allowingLineBreaks: false)
        else { throw APIError.badRequest("Idempotency-Key must be 1 to 200 characters.") }
        var bytes = Data(route.utf8)
        bytes.append(try WireJSON.encode(body))
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return IdempotencyClaim(userID: caller.user.id, key: key, requestHash: hash)
    }

    /// The wire value of a create's outcome: the stored response on a replay, a 422 when the key
    /// came with another body.
    static func response<T: Decodable>(_ outcome: IdempotencyOutcome<some Sendable>, as type: T.Type) throws -> T {
        switch outcome {
        case .created(_, let response), .replayed(let response):
            return try WireJSON.decode(T.self, from: response.body)
        case .keyReused:
            throw APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                message: "This Idempotency-Key was used with another request.",
                details: ["field": .string("Idempotency-Key")])
        }
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

extension APIError {
    /// 412 for an edit based on an old version, with the stored state (DESIGN §5).
    static func staleVersion(_ current: some Encodable) throws -> APIError {
        APIError(
            .preconditionFailed, code: "stale_version",
            message: "Someone changed this since you loaded it; nothing was saved.",
            details: ["field": .string("version"), "current": try JSONValue(encoding: current)])
    }
}

extension Components.Schemas.ExpenseShare {
    init(_ share: ShareRecord, currency: String) {
        self.init(
            id: share.id.text, memberId: share.memberID.text, amount: MoneyInput.text(share.amount, currency),
            isPaid: share.isPaid, paidAt: share.paidAt.map(Date.init(milliseconds:)))
    }
}

extension Components.Schemas.Expense {
    init(_ expense: ExpenseRecord, categories: [UUID: String], homeCurrency: String) throws {
        let currency = expense.currency
        self.init(
            id: expense.id.text, groupId: expense.groupID.text, description: expense.description,
            amount: MoneyInput.text(expense.amount, currency), currency: currency, category: expense.categoryID.text,
            categoryName: categories[expense.categoryID] ?? "Other", expenseDate: expense.expenseDate,
            createdByUserId: expense.createdByUserID.text,
            payers: expense.payers.map {
                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
            },
            splits: expense.liveShares.map { .init($0, currency: currency) },
            split: try WireJSON.decode(Components.Schemas.SplitInput.self, from: Data(expense.splitJSON.utf8)),
            homeAmount: expense.homeAmount.map { MoneyInput.text($0, expense.homeCurrency ?? homeCurrency) },
            version: expense.version,
            createdAt: Date(milliseconds: expense.createdAt),
            updatedAt: Date(milliseconds: expense.updatedAt), isDeleted: expense.isDeleted)
    }
}

extension Components.Schemas.HistoryEntry {
    init(_ entry: PaymentHistoryRecord, withDetails: Bool) {
        self.init(
            id: entry.id.text, expenseSplitId: entry.splitID.text, action: entry.isPaid ? .markedPaid : .markedUnpaid,
            performedByUserId: entry.performedByUserID.text, performedByName: entry.performedByName,
            performedAt: Date(milliseconds: entry.performedAt), reason: entry.reason,
            ipAddress: withDetails ? entry.ipAddress : nil, deviceInfo: withDetails ? entry.deviceInfo : nil)
    }
}

extension APIHandler {
    /// The payers and shares an expense would have, computed exactly as saving it would (the same
    /// checks, the same tie-break from its id), without saving: the web form's preview.
    func previewExpense(groupID: String, id: UUID, draft: ExpenseDraft) async throws -> ExpenseRecord {
        let caller = try await authenticate()
        let (group, me) = try await access(groupID, as: caller, for: .read)
        return try await buildExpense(draft, id: id, group: group, me: me, createdBy: caller.user.id, now: now()).0
    }
}
