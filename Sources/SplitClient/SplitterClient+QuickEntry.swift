import Foundation
internal import OpenAPIRuntime
internal import SplitAPI

/// What the server read from one line (issue 21): the expense as entered with its exact payers
/// and shares, or what keeps the line from being one.
public struct QuickEntryAnswer: Codable, Hashable, Sendable {
    public struct Issue: Codable, Hashable, Sendable {
        /// which_currency, who_shares, unknown_word, decimals, … (see the API).
        public var code: String
        public var message: String
    }

    /// Empty when the line is an expense.
    public var issues: [Issue]
    /// What the line did not say and the preview took: payer, currency, date.
    public var assumed: [String]
    public var expense: ExpenseDraft?
    public var categoryName: String?
    public var payers: [MemberAmount]
    public var splits: [MemberAmount]
    /// The expense id the preview was worked out with: pass it to `addQuickEntry` to save these
    /// exact shares (who gets the leftover unit of an uneven split depends on the id).
    public var id: String?
    /// What the preview shows: pass it to `addQuickEntry` with `id` to save exactly that, or
    /// nothing (a `.conflict` on `text` when the group changed since).
    public var fingerprint: String?
}

extension SplitterClient {
    /// Reads one line ("Ramen ¥1200 paid by Aki, all") against the group and answers what saving
    /// it would store; nothing is saved.
    public func previewQuickEntry(groupID: String, text: String) async throws -> QuickEntryAnswer {
        let output = try await send {
            try await api.quickEntry(path: .init(groupId: groupID), body: .json(.init(text: text, dryRun: true)))
        }
        switch output {
        case .ok(let ok):
            let answer = try ok.body.json
            return QuickEntryAnswer(
                issues: answer.problems.map { .init(code: $0.code, message: $0.message) },
                assumed: answer.assumed.map(\.rawValue), expense: answer.expense.map(ExpenseDraft.init),
                categoryName: answer.categoryName, payers: (answer.payers ?? []).map(MemberAmount.init),
                splits: (answer.splits ?? []).map(MemberAmount.init), id: answer.id, fingerprint: answer.fingerprint)
        case .created: throw SplitterError.server("a preview was saved")
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Saves the expense one line says; the same `idempotencyKey` again creates nothing new.
    /// `id` and `fingerprint`, a preview's, save what that preview showed or nothing
    /// (`.conflict(field: "text")`: the group changed since; preview again).
    public func addQuickEntry(
        groupID: String, text: String, idempotencyKey: String, id: String? = nil, fingerprint: String? = nil
    ) async throws -> Expense {
        let output = try await send {
            try await api.quickEntry(
                path: .init(groupId: groupID), headers: .init(idempotencyKey: idempotencyKey),
                body: .json(.init(text: text, dryRun: false, id: id, fingerprint: fingerprint)))
        }
        switch output {
        case .created(let created): return Expense(try created.body.json.expense)
        case .ok: throw SplitterError.server("the line was previewed, not saved")
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }
}
