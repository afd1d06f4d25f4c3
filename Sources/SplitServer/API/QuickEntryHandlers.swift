import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Quick entry (issue 21).
extension APIHandler {
    func quickEntry(_ input: Operations.QuickEntry.Input) async throws -> Operations.QuickEntry.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let groupID = try Self.id(input.path.groupId, "group")
        let idempotency = try Self.idempotency(
            input.headers.idempotencyKey, route: "POST /api/groups/\(groupID.text)/quick-entry", body: body)
        let id = try body.id.map { text in
            guard let id = UUID(uuidString: text) else {
                throw AppError.invalid(field: "id", message: "id is an expense id (a UUID), as a preview answers it.")
            }
            return id
        }
        let result = try await quickEntryUseCases.read(
            body.text, dryRun: body.dryRun ?? true, id: id, previewed: body.fingerprint, groupID: groupID, caller: caller,
            origin: try request.origin,
            idempotency: idempotency,
            render: { view in
                StoredResponse(
                    status: 201, body: try WireJSON.encode(Components.Schemas.ExpenseResponse(expense: try .init(view))))
            })
        switch result {
        case .problems(let problems):
            return .ok(
                .init(
                    body: .json(
                        .init(problems: problems.map { .init(code: $0.code, message: $0.description) }, assumed: []))))
        case .preview(let preview):
            let currency = preview.expense.currency
            return .ok(
                .init(
                    body: .json(
                        .init(
                            problems: [],
                            assumed: preview.draft.assumed.sorted { $0.rawValue < $1.rawValue }.compactMap {
                                .init(rawValue: $0.rawValue)
                            }, id: preview.expense.id.text, expense: .init(preview.entered),
                            categoryName: preview.categoryNames[preview.expense.categoryID],
                            payers: preview.expense.payers.map {
                                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
                            },
                            splits: preview.expense.liveShares.map {
                                .init(memberId: $0.memberID.text, amount: MoneyInput.text($0.amount, currency))
                            }, fingerprint: preview.fingerprint))))
        case .created(.created(let view)):
            return .created(.init(body: .json(.init(expense: try .init(view)))))
        case .created(.replayed(let response)):
            return .created(
                .init(body: .json(try WireJSON.decode(Components.Schemas.ExpenseResponse.self, from: response.body))))
        }
    }
}
