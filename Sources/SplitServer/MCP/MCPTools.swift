import Foundation
import HTTPTypes
import Logging
import MCP
import SplitAPI
import SplitApp
import SplitStore

/// The tools an MCP client may call: each is the API operation of the same meaning, run by
/// `APIHandler` under the caller of the request, and answers the API's JSON as text.
struct MCPTools: Sendable {
    let api: APIHandler
    let caller: Caller
    /// Counts a write tool's call against the caller's writes per minute (nil: counted by
    /// whoever called, as an assistant turn is).
    var spendWrite: (@Sendable () throws -> Void)? = nil

    private static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        .object([
            "type": "object", "properties": .object(properties),
            "required": .array(required.map { .string($0) }), "additionalProperties": false,
        ])
    }

    private static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }

    private static func integer(_ description: String) -> Value {
        .object(["type": "integer", "description": .string(description)])
    }

    private static let groupId = string("The group's id (list_groups gives it).")

    private static func tool(_ name: String, _ description: String, _ schema: Value, readOnly: Bool) -> Tool {
        Tool(
            name: name, description: description, inputSchema: schema,
            annotations: .init(readOnlyHint: readOnly, destructiveHint: readOnly ? nil : false))
    }

    /// Names of the tools that write (a read token may not call them).
    static let writing: Set<String> = [
        "add_expense", "quick_add", "record_settlement", "mark_share_paid", "create_payment_request",
    ]

    /// Whether this call writes: a writing tool's, but for quick_add's preview (`dryRun`, its
    /// default), which only reads (found by a new user: a read token could not even preview).
    static func writes(_ name: String, _ arguments: [String: Value]) -> Bool {
        guard name == "quick_add" else { return writing.contains(name) }
        return arguments["dryRun"]?.boolValue == false
    }

    /// The tools' names (the web and the CLI say each in words: `AssistantToolWords`).
    static var names: [String] { all.map(\.name) }

    static let all: [Tool] = [
        tool("list_groups", "The groups you are in, with their ids, home currencies and your role.", object([:]), readOnly: true),
        tool(
            "list_members",
            "A group's members: each id (what balances, settle_plan and the expenses name) with its name, role, and whether they are still in the group.",
            object(["groupId": groupId], required: ["groupId"]), readOnly: true),
        tool(
            "list_expenses", "A group's expenses, newest first; q searches the descriptions, month narrows (2026-11).",
            object(
                ["groupId": groupId, "q": string("Text in the description."), "month": string("YYYY-MM.")],
                required: ["groupId"]), readOnly: true),
        tool(
            "add_expense",
            "Add an expense with exact fields (amounts as decimal strings in the currency's decimals). Without paidBy the caller paid; without split it is shared equally by every member who is not a viewer. idempotencyKey makes a retry safe.",
            object(
                [
                    "groupId": groupId, "description": string("What it was."),
                    "amount": string("The total, e.g. 1200 or 12.50."), "currency": string("ISO 4217 code, e.g. JPY."),
                    "expenseDate": string("YYYY-MM-DD."), "category": string("A category name or id."),
                    "paidBy": .object([
                        "type": "array", "description": "Who paid how much.",
                        "items": object(["memberId": string("Member id."), "amount": string("Amount.")]),
                    ]),
                    "split": .object([
                        "type": "object",
                        "description": "The split as the API takes it, e.g. {\"mode\":\"equal\",\"memberIds\":[…]}.",
                    ]),
                    "idempotencyKey": string("Any unique text; the same key answers the first result again."),
                ], required: ["groupId", "description", "amount", "currency", "expenseDate"]), readOnly: false),
        tool(
            "quick_add",
            "Add an expense from one line as a person says it (\"Ramen ¥1200 paid by Aki, all\"). With dryRun true (the default) it only answers what it reads: the exact payers and shares, what it assumed, or what is ambiguous, the id it used and a fingerprint. Call again with dryRun false, that id and that fingerprint to save exactly what it showed; if the group changed meanwhile (someone joined, the date moved) nothing is saved and the answer says so: read it again.",
            object(
                [
                    "groupId": groupId, "text": string("The line."),
                    "dryRun": .object(["type": "boolean", "description": "true: only read it (default)."]),
                    "idempotencyKey": string("With dryRun false: the same key saves once."),
                    "id": string("With dryRun false: the id a dry run answered, so the shares are the ones it showed."),
                    "fingerprint": string("With dryRun false: the fingerprint a dry run answered; saves exactly that or nothing."),
                ], required: ["groupId", "text"]), readOnly: false),
        tool("balances", "Each member's balance per currency in a group.", object(["groupId": groupId], required: ["groupId"]), readOnly: true),
        tool(
            "settle_plan",
            "The fewest transfers that settle a group: in one currency (default the home currency), or with everything true every currency converted into the home currency (the group needs a rate for each).",
            object(
                [
                    "groupId": groupId, "currency": string("ISO 4217 code."),
                    "everything": .object(["type": "boolean", "description": "true: every currency, in the home currency."]),
                ], required: ["groupId"]), readOnly: true),
        tool(
            "record_settlement", "Record money that moved between two members.",
            object(
                [
                    "groupId": groupId, "fromMemberId": string("Who paid."), "toMemberId": string("Who received."),
                    "amount": string("Decimal string."), "currency": string("ISO 4217 code."),
                    "note": string("Optional note."), "idempotencyKey": string("Makes a retry safe."),
                ], required: ["groupId", "fromMemberId", "toMemberId", "amount", "currency"]), readOnly: false),
        tool(
            "mark_share_paid", "Mark one share of an expense paid (or unpaid), with a reason.",
            object(
                [
                    "splitId": string("The share's id (list_expenses shows splits)."),
                    "isPaid": .object(["type": "boolean"]), "reason": string("Why (shown in the history)."),
                ], required: ["splitId", "isPaid"]), readOnly: false),
        tool(
            "budget_status", "Where a group's budget stands: per category and in total, spent, left, percent, projection.",
            object(["groupId": groupId, "month": string("YYYY-MM; default this month.")], required: ["groupId"]), readOnly: true),
        tool(
            "spending_by_person",
            "What each member paid for a group's expenses and what their shares came to, in the home currency: who paid the most, how much each spent.",
            object(["groupId": groupId, "month": string("YYYY-MM; default since the group began.")], required: ["groupId"]),
            readOnly: true),
        tool(
            "create_payment_request", "Ask to be paid: a short code and link the payer opens.",
            object(
                [
                    "groupId": groupId, "amount": string("Decimal string."), "currency": string("ISO 4217 code."),
                    "toMemberId": string("Only this member may pay it."), "note": string("Optional."),
                    "expiresInSeconds": integer("How long the code works: 60 to 604800 (7 days); default 900."),
                    "idempotencyKey": string("Any unique text; the same key answers the first request again."),
                ], required: ["groupId", "amount", "currency"]), readOnly: false),
    ]

    /// Runs one tool; a refusal is a result with `isError` and the API's message.
    func call(_ name: String, _ arguments: [String: Value]) async -> CallTool.Result {
        do {
            try Self.checkKnown(name, arguments)
            if Self.writes(name, arguments) {
                try caller.requireWrite()
                try spendWrite?()
            }
            return .init(content: [.text(text: try await run(name, Arguments(arguments)), annotations: nil, _meta: nil)], isError: false)
        } catch {
            let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
            if apiError.status.code >= 500 {
                RequestInfo.current?.logger.error(
                    "tool failed", metadata: ["tool": "\(name)", "error": "\(String(reflecting: error))"])
            }
            var text = apiError.message
            if case .string(let field)? = apiError.details["field"] { text += " (field: \(field))" }
            return .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: true)
        }
    }

    /// Refuses an argument the tool's schema does not have, as its `additionalProperties: false`
    /// says (found by review: `"extra": 1` was taken without a word, so a misspelt
    /// `idempotencykey` would have been ignored).
    static func checkKnown(_ name: String, _ arguments: [String: Value]) throws {
        guard let tool = all.first(where: { $0.name == name }), case .object(let schema) = tool.inputSchema,
            case .object(let properties)? = schema["properties"]
        else { return }
        if let unknown = arguments.keys.filter({ properties[$0] == nil }).sorted().first {
            let known = properties.keys.sorted()
            throw AppError.invalid(
                field: String(unknown.prefix(60)),
                message: "\(name) takes no argument “\(unknown.prefix(60))”"
                    + (known.isEmpty ? "; it takes none." : "; it takes \(known.joined(separator: ", ")).")
            )
        }
    }

    private func run(_ name: String, _ arguments: Arguments) async throws -> String {
        switch name {
        case "list_groups":
            guard case .ok(let ok) = try await api.listGroups(.init()) else { throw AppError.notFound("groups") }
            return try Self.text(try ok.body.json)
        case "list_members":
            // Found by a new user: balances and plans name member ids only, and nothing said whose.
            guard case .ok(let ok) = try await api.listMembers(.init(path: .init(groupId: try arguments.string("groupId"))))
            else { throw AppError.notFound("members") }
            return try Self.text(try ok.body.json)
        case "list_expenses":
            let output = try await api.listExpenses(
                .init(
                    path: .init(groupId: try arguments.string("groupId")),
                    query: .init(month: arguments.optional("month"), q: arguments.optional("q"), limit: 50)))
            guard case .ok(let ok) = output else { throw AppError.notFound("expenses") }
            return try Self.text(try ok.body.json)
        case "add_expense":
            var fields = arguments.values
            let key = arguments.optional("idempotencyKey")
            fields["idempotencyKey"] = nil
            let body = try WireJSON.decode(
                Components.Schemas.CreateExpenseRequest.self, from: try JSONEncoder().encode(Value.object(fields)))
            guard case .created(let created) = try await api.createExpense(.init(headers: .init(idempotencyKey: key), body: .json(body)))
            else { throw AppError.notFound("expense") }
            return try Self.text(try created.body.json)
        case "quick_add":
            let dryRun = arguments.values["dryRun"]?.boolValue ?? true
            let output = try await api.quickEntry(
                .init(
                    path: .init(groupId: try arguments.string("groupId")),
                    headers: .init(idempotencyKey: arguments.optional("idempotencyKey")),
                    body: .json(
                        .init(
                            text: try arguments.string("text"), dryRun: dryRun, id: arguments.optional("id"),
                            fingerprint: arguments.optional("fingerprint")))))
            switch output {
            case .ok(let ok): return try Self.text(try ok.body.json)
            case .created(let created): return try Self.text(try created.body.json)
            default: throw AppError.notFound("quick entry")
            }
        case "balances":
            guard case .ok(let ok) = try await api.getBalances(.init(path: .init(groupId: try arguments.string("groupId"))))
            else { throw AppError.notFound("balances") }
            return try Self.text(try ok.body.json)
        case "settle_plan":
            let everything = arguments.values["everything"]?.boolValue ?? false
            let output = try await api.getSettlementPlan(
                .init(
                    path: .init(groupId: try arguments.string("groupId")),
                    query: .init(currency: arguments.optional("currency"), _in: everything ? .home : nil)))
            guard case .ok(let ok) = output else { throw AppError.notFound("plan") }
            let plan = try ok.body.json
            // One currency's plan, asked for without one: say which others still have balances,
            // so an empty plan is not read as everyone settled (found by review).
            guard arguments.optional("currency") == nil, !everything,
                case .ok(let balances) = try await api.getBalances(.init(path: .init(groupId: try arguments.string("groupId"))))
            else { return try Self.text(plan) }
            let others = Set(try balances.body.json.balances.filter { $0.currency != plan.currency && !WebFormat.isZero($0.net) }
                .map(\.currency)).sorted()
            guard !others.isEmpty,
                var object = try JSONSerialization.jsonObject(with: Data(try Self.text(plan).utf8)) as? [String: Any]
            else { return try Self.text(plan) }
            object["note"] =
                "This is the plan in \(plan.currency) only. Balances are also open in \(others.joined(separator: ", ")): "
                + "call settle_plan with currency, or with everything: true for all of it in \(plan.currency)."
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        case "record_settlement":
            let output = try await api.createSettlement(
                .init(
                    path: .init(groupId: try arguments.string("groupId")),
                    headers: .init(idempotencyKey: arguments.optional("idempotencyKey")),
                    body: .json(
                        .init(
                            fromMemberId: try arguments.string("fromMemberId"), toMemberId: try arguments.string("toMemberId"),
                            amount: try arguments.string("amount"), currency: try arguments.string("currency"),
                            note: arguments.optional("note")))))
            guard case .created(let created) = output else { throw AppError.notFound("settlement") }
            return try Self.text(try created.body.json)
        case "mark_share_paid":
            guard let isPaid = arguments.values["isPaid"]?.boolValue else {
                throw AppError.invalid(field: "isPaid", message: "Say isPaid: true or false.")
            }
            let output = try await api.setSharePayment(
                .init(
                    path: .init(splitId: try arguments.string("splitId")),
                    body: .json(.init(isPaid: isPaid, reason: arguments.optional("reason")))))
            guard case .ok(let ok) = output else { throw AppError.notFound("share") }
            return try Self.text(try ok.body.json)
        case "budget_status":
            let output = try await api.getBudget(
                .init(path: .init(groupId: try arguments.string("groupId")), query: .init(month: arguments.optional("month"))))
            guard case .ok(let ok) = output else { throw AppError.notFound("budget") }
            return try Self.text(try ok.body.json)
        case "spending_by_person":
            let output = try await api.getSpendingByPerson(
                .init(path: .init(groupId: try arguments.string("groupId")), query: .init(month: arguments.optional("month"))))
            guard case .ok(let ok) = output else { throw AppError.notFound("spending") }
            return try Self.text(try ok.body.json)
        case "create_payment_request":
            let output = try await api.createPaymentRequest(
                .init(
                    path: .init(groupId: try arguments.string("groupId")),
                    headers: .init(idempotencyKey: arguments.optional("idempotencyKey")),
                    body: .json(
                        .init(
                            amount: try arguments.string("amount"), currency: try arguments.string("currency"),
                            toMemberId: arguments.optional("toMemberId"),
                            expiresInSeconds: try arguments.optionalInteger("expiresInSeconds"), note: arguments.optional("note")))))
            guard case .created(let created) = output else { throw AppError.notFound("payment request") }
            return try Self.text(try created.body.json)
        default:
            throw AppError.notFound("tool \(name.prefix(60))")
        }
    }

    private static func text(_ value: some Encodable) throws -> String {
        String(decoding: try WireJSON.encode(value), as: UTF8.self)
    }

    /// A tool's arguments, with the refusal a missing or mistyped one gets.
    struct Arguments {
        let values: [String: Value]

        init(_ values: [String: Value]) { self.values = values }

        func string(_ name: String) throws -> String {
            guard let text = values[name]?.stringValue, !text.isEmpty else {
                throw AppError.invalid(field: name, message: "\(name) is required (text).")
            }
            return text
        }

        func optional(_ name: String) -> String? { values[name]?.stringValue }

        func optionalInteger(_ name: String) throws -> Int? {
            guard let value = values[name], !value.isNull else { return nil }
            if let number = value.intValue { return number }
            if let number = value.doubleValue, let whole = Int(exactly: number) { return whole }
            throw AppError.invalid(field: name, message: "\(name) is a whole number.")
        }
    }
}
