import Foundation
import HTTPTypes
import Logging
import MCP
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// One event of the assistant's answer (the seed's chat stream): which conversation, each tool
/// it runs (before and after), and what it says.
enum AssistantEvent: Sendable {
    case conversation(UUID)
    case toolStart(id: String, name: String, args: [String: Value])
    case toolEnd(id: String, name: String, result: String, isError: Bool)
    case text(String)

    /// The event as the JSON of one `data:` line.
    var json: String {
        let object: [String: Any]
        switch self {
        case .conversation(let id): object = ["type": "conversation_id", "conversationId": id.text]
        case .toolStart(let id, let name, let args):
            object = ["type": "tool_start", "id": id, "name": name, "args": Assistant.plain(.object(args))]
        case .toolEnd(let id, let name, let result, let isError):
            let parsed = (try? JSONSerialization.jsonObject(with: Data(result.utf8), options: [.fragmentsAllowed])) ?? result
            object = ["type": "tool_end", "id": id, "name": name, "result": isError ? result : parsed, "isError": isError]
        case .text(let content): object = ["type": "text", "content": content]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The assistant (issue 21): a deterministic router from a message to the tools the MCP server
/// offers (`MCPTools`), run under the caller, so it can do exactly what the caller may and
/// never sees another group. It answers in English (the web app's language). An expense line
/// goes through quick entry; when the line left something to assume (who paid, the currency,
/// the date), the assistant shows what it read and waits for a yes.
struct Assistant: Sendable {
    let api: APIHandler
    let conversations: ConversationStore
    let now: @Sendable () -> Int64

    static let maxLength = 500
    static let maxMessages = 400

    /// Refuses what cannot be answered: an empty or overlong message, a conversation of
    /// another account's (or none of that id), a group the caller is not in.
    func check(_ message: String, conversationID: String?, groupID: String?, caller: Caller) async throws {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= Self.maxLength else {
            throw AppError.invalid(field: "message", message: "Say something, in at most \(Self.maxLength) characters.")
        }
        if let conversationID {
            guard let id = UUID(uuidString: conversationID),
                let found = try await conversations.conversation(id: id, userID: caller.user.id),
                ConversationUseCases.reaches(found, caller)
            else { throw AppError.notFound("conversation") }
            // A turn adds two messages: one that would not fit is refused before anything runs.
            guard try await conversations.messageCount(conversationID: id) + 2 <= Self.maxMessages else {
                throw AppError.conflict(
                    code: "conversation_full", field: "conversationId",
                    message: "This conversation is full; start a new one to go on.")
            }
        }
        if let groupID {
            guard let id = UUID(uuidString: groupID) else {
                throw AppError.invalid(field: "groupId", message: "groupId is not a group id.")
            }
            _ = try await api.groupUseCases.group(id, caller: caller)
        }
    }

    /// Answers `message` (after `check`), calling `emit` with each event as it happens; the
    /// conversation (new when `conversationID` is nil) keeps both messages and the tools run.
    /// Returns that conversation's id.
    @discardableResult
    func respond(
        _ message: String, conversationID: String?, groupID: String?, caller: Caller,
        emit: @escaping @Sendable (AssistantEvent) async -> Void
    ) async throws -> UUID {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= Self.maxLength else {
            throw AppError.invalid(field: "message", message: "Say something, in at most \(Self.maxLength) characters.")
        }
        // The group is read before a new conversation is saved, so none is saved without it.
        let group = try groupID.map { text in
            guard let id = UUID(uuidString: text) else {
                throw AppError.invalid(field: "groupId", message: "groupId is not a group id.")
            }
            return id
        }
        var conversation: ConversationRecord
        if let conversationID {
            guard let id = UUID(uuidString: conversationID),
                let found = try await conversations.conversation(id: id, userID: caller.user.id)
            else { throw AppError.notFound("conversation") }
            conversation = found
        } else {
            conversation = ConversationRecord(
                id: UUID.random(), userID: caller.user.id, groupID: group, title: String(text.prefix(60)), createdAt: now(),
                updatedAt: now())
            try await conversations.create(conversation)
        }
        if let group, group != conversation.groupID {
            // A line waiting for a yes was read against the group it was said in (its members,
            // its currency): a yes said about another group does not save it there.
            if conversation.groupID != nil { conversation.pending = nil }
            conversation.groupID = group
        }
        await emit(.conversation(conversation.id))
        var turn = Turn(assistant: self, caller: caller, conversation: conversation, emit: emit)
        let reply = try await turn.answer(AssistantIntent.classify(text), said: text)
        await emit(.text(reply))
        turn.conversation.updatedAt = now()
        let stamp = now()
        let saved = try await conversations.append(
            [
                ConversationMessage(seq: 0, role: "user", content: text, createdAt: stamp),
                ConversationMessage(seq: 0, role: "assistant", content: reply, tools: turn.toolsJSON, createdAt: stamp),
            ], to: turn.conversation, maxMessages: Self.maxMessages)
        if !saved {
            // Filled by another turn at the same moment: what was done is done, but not kept here.
            await emit(.text("This conversation is full, so this answer is not kept in it; start a new one to go on."))
        }
        return conversation.id
    }

    /// The answer (after `check`) as Server-Sent Events frames, each written as it happens:
    /// every event, then `[DONE]`, or `[ERROR] message` when it stopped. Runs on its own task,
    /// which inherits the request's caller, so the frames can be read after the handler returned.
    func frames(_ message: String, conversationID: String?, groupID: String?, caller: Caller) -> AsyncStream<String> {
        let (frames, continuation) = AsyncStream<String>.makeStream()
        Task {
            do {
                try await respond(message, conversationID: conversationID, groupID: groupID, caller: caller) { event in
                    continuation.yield("data: \(event.json)\n\n")
                }
                continuation.yield("data: [DONE]\n\n")
            } catch {
                let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
                if apiError.status.code >= 500 {
                    RequestInfo.current?.logger.error("assistant failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                continuation.yield("data: [ERROR] \(apiError.message.replacingOccurrences(of: "\n", with: " "))\n\n")
            }
            continuation.finish()
        }
        return frames
    }

    /// A `Value` as Foundation JSON objects.
    static func plain(_ value: Value) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let bool): bool
        case .int(let int): int
        case .double(let double): double
        case .string(let string): string
        case .data(_, let data): data.base64EncodedString()
        case .array(let array): array.map(plain)
        case .object(let object): object.mapValues(plain)
        }
    }
}

/// One answer: its tool calls and what the conversation remembers after it.
private struct Turn {
    let assistant: Assistant
    let caller: Caller
    var conversation: ConversationRecord
    let emit: @Sendable (AssistantEvent) async -> Void
    var calls: [[String: Any]] = []

    init(assistant: Assistant, caller: Caller, conversation: ConversationRecord, emit: @escaping @Sendable (AssistantEvent) async -> Void) {
        self.assistant = assistant
        self.caller = caller
        self.conversation = conversation
        self.emit = emit
    }

    var toolsJSON: String {
        let data = (try? JSONSerialization.data(withJSONObject: calls, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a tool with its events; the result as JSON (nil and the message when refused).
    /// The transfers that settle the group as a person means it: everything in the home currency
    /// when the group has a rate for each currency it uses, else each currency's own plan (found
    /// by review: "who owes whom?" answered the home currency's plan alone, leaving other
    /// currencies' debts out).
    mutating func plan(_ groupID: String) async -> (transfers: [[String: Any]]?, error: String?) {
        let (balances, error) = await tool("balances", ["groupId": .string(groupID)])
        guard let balances else { return (nil, error) }
        let currencies = Set((balances["balances"] as? [[String: Any]] ?? []).compactMap { $0["currency"] as? String })
        // The balances have a home view when every currency has a rate.
        if currencies.count > 1, balances["home"] != nil {
            let (json, error) = await tool("settle_plan", ["groupId": .string(groupID), "everything": .bool(true)])
            guard let json else { return (nil, error) }
            return (json["transfers"] as? [[String: Any]] ?? [], nil)
        }
        var transfers: [[String: Any]] = []
        for currency in currencies.sorted() {
            let (plan, error) = await tool("settle_plan", ["groupId": .string(groupID), "currency": .string(currency)])
            guard let plan else { return (nil, error) }
            transfers += plan["transfers"] as? [[String: Any]] ?? []
        }
        return (transfers, nil)
    }

    mutating func tool(_ name: String, _ args: [String: Value]) async -> (json: [String: Any]?, error: String?) {
        let id = "t\(calls.count + 1)"
        await emit(.toolStart(id: id, name: name, args: args))
        let result = await MCPTools(api: assistant.api, caller: caller).call(name, args)
        let text = result.content.compactMap { content -> String? in
            if case .text(let text, _, _) = content { text } else { nil }
        }.joined()
        let isError = result.isError ?? false
        await emit(.toolEnd(id: id, name: name, result: text, isError: isError))
        calls.append(["id": id, "name": name, "args": Assistant.plain(.object(args)), "result": text, "isError": isError])
        if isError { return (nil, text) }
        return ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any], nil)
    }

    /// The group the conversation is about: the one it names, or the caller's only group.
    mutating func group() async throws -> [String: Any]? {
        guard case .ok(let ok) = try await assistant.api.listGroups(.init()) else { return nil }
        let groups = try ok.body.json.groups
        let chosen: Components.Schemas.Group?
        if let id = conversation.groupID {
            chosen = groups.first { $0.id == id.text }
            guard chosen != nil else { throw AppError.notFound("group") }
        } else if groups.count == 1 {
            chosen = groups[0]
        } else {
            chosen = nil
        }
        guard let chosen else { return nil }
        conversation.groupID = UUID(uuidString: chosen.id)
        return [
            "id": chosen.id, "name": chosen.name, "me": chosen.myMemberId, "home": chosen.homeCurrency,
            "timeZone": chosen.timeZone,
        ]
    }

    /// Each member's paid and share (`spending_by_person`) for the month asked, or since the
    /// group began; with the words for when ("In 2026-11", "Since Japan began") and for what a
    /// missing rate leaves out.
    mutating func spending(_ group: [String: Any], _ asked: AskedMonth?) async -> (
        (
            people: [[String: Any]], total: String, currency: String, period: String, note: String,
            byCurrency: [[String: Any]], uncounted: [String]
        )?, String?
    ) {
        var arguments: [String: Value] = ["groupId": .string(group["id"] as? String ?? "")]
        let today = CivilDate(MoneyInput.today(assistant.api.now(), in: group["timeZone"] as? String ?? "UTC"))
        let month = today.flatMap { day in asked.map { $0.month(from: day) } }
        if let month { arguments["month"] = .string(month) }
        let (json, error) = await tool("spending_by_person", arguments)
        guard let json else { return (nil, error) }
        let currency = json["currency"] as? String ?? ""
        let uncounted = json["uncountedCurrencies"] as? [String] ?? []
        let note = uncounted.isEmpty
            ? "" : " (not counting what is in \(uncounted.joined(separator: ", ")): no rate to \(currency) yet)"
        let period = month.map { "In \($0)" } ?? "Since \(group["name"] as? String ?? "the group") began"
        return (
            (
                json["people"] as? [[String: Any]] ?? [], json["total"] as? String ?? "0", currency, period, note,
                json["byCurrency"] as? [[String: Any]] ?? [], uncounted
            ), nil
        )
    }

    /// "Aki", "Aki and Bo", "Aki, Bo and you".
    static func list(_ names: [String]) -> String { WebFormat.listed(names) }

    func names(_ groupID: String) async throws -> [String: String] {
        guard case .ok(let ok) = try await assistant.api.listMembers(.init(path: .init(groupId: groupID))) else { return [:] }
        return Dictionary(try ok.body.json.members.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    static let help = """
        Tell me an expense in one line ("Ramen ¥1200 paid by Aki, all", "Taxi 45.50 MYR Bo Chen"), or ask: \
        "how much do I owe?", "how much does Bo owe?", "who owes whom?", "how do we settle?", \
        "how much did we spend on food?", "who paid the most?", "how much did I spend?", "how is our budget?", \
        "mark my ramen paid", "Bo paid me back 20", "ask Bo for what he owes", "undo that".
        """

    func whichGroup() async throws -> String {
        guard case .ok(let ok) = try await assistant.api.listGroups(.init()) else { return "Which group?" }
        let names = try ok.body.json.groups.map(\.name)
        if names.isEmpty { return "You are in no group yet: make one, or join one with its invite code." }
        return "Which group is this about? Open the assistant from a group, or give its groupId: you are in "
            + names.joined(separator: ", ") + "."
    }

    mutating func answer(_ intent: AssistantIntent, said: String) async throws -> String {
        switch intent {
        case .help:
            return Self.help
        case .unknownQuestion:
            return "I cannot answer that yet. " + Self.help
        case .cancel:
            guard conversation.pending != nil else { return "There was nothing waiting; nothing changed." }
            conversation.pending = nil
            return "Dropped; nothing was saved."
        case .undo:
            return try await undo()
        case .confirm:
            guard let pending = conversation.pending else { return "There is nothing waiting for a yes." }
            guard let group = try await group() else { return try await whichGroup() }
            conversation.pending = nil
            // Taken once: another yes at the same moment finds nothing waiting.
            guard
                try await assistant.conversations.takePending(
                    pending, conversationID: conversation.id, userID: caller.user.id)
            else { return "There is nothing waiting for a yes." }
            let waiting = PendingLine(stored: pending)
            if let splitID = waiting.markShare { return try await markPaid(splitID, said: waiting.line) }
            if let transfer = waiting.transfer { return try await record(transfer, group: group) }
            return try await save(waiting.lineAsPreviewed, id: waiting.id, fingerprint: waiting.fingerprint, group: group)
        default:
            break
        }
        guard let group = try await group() else { return try await whichGroup() }
        let groupID = group["id"] as? String ?? ""
        let groupName = group["name"] as? String ?? ""
        let me = group["me"] as? String ?? ""
        switch intent {
        case .myBalance:
            let (json, error) = await tool("balances", ["groupId": .string(groupID)])
            guard let json else { return error ?? "" }
            let mine = Self.standing(json, of: me)
            guard !mine.isEmpty else { return "You are settled up in \(groupName)." }
            return "In \(groupName) " + Self.said(mine, owes: "you owe", isOwed: "you are owed") + "."
        case .iOwe(let name):
            let names = try await names(groupID)
            let other: String
            switch Self.named(name, names, me: me, groupName: groupName) {
            case .one(let id) where id != me: other = id
            case .one: return try await answer(.myBalance, said: said)
            case .refused(let why): return why
            case .nobody(let refusal, let guess):
                // Words that name nobody, not even closely ("what do I owe the hotel?"): my balance.
                if guess != nil { return refusal }
                return try await answer(.myBalance, said: said)
            }
            // What Settle up has between the two: a debt may be routed through others.
            let (planned, error) = await plan(groupID)
            guard let transfers = planned else { return error ?? "" }
            let person = names[other] ?? name
            func amount(_ transfer: [String: Any]) -> String {
                WebFormat.money(transfer["amount"] as? String ?? "", transfer["currency"] as? String ?? "")
            }
            let toThem = transfers.filter { $0["fromMemberId"] as? String == me && $0["toMemberId"] as? String == other }
            let toMe = transfers.filter { $0["fromMemberId"] as? String == other && $0["toMemberId"] as? String == me }
            // Both ways when each currency has its own plan (you pay in dollars, they in euros).
            let said = [
                toThem.isEmpty ? nil : "you pay \(person) " + toThem.map(amount).joined(separator: " and "),
                toMe.isEmpty ? nil : "\(person) pays you " + toMe.map(amount).joined(separator: " and "),
            ].compactMap { $0 }
            if !said.isEmpty { return "Settle up says " + said.joined(separator: ", and ") + "." }
            return "Settle up has no transfer between you and \(person) now."
                + (transfers.contains { $0["fromMemberId"] as? String == me || $0["toMemberId"] as? String == me }
                    ? " “how do we settle?” says whom you pay or who pays you." : "")
        case .balanceOf(let name):
            let names = try await names(groupID)
            let memberID: String
            switch Self.named(name, names, me: me, groupName: groupName) {
            case .one(let id): memberID = id
            case .refused(let why): return why
            case .nobody(let refusal, _): return refusal
            }
            if memberID == me { return try await answer(.myBalance, said: said) }
            let (json, error) = await tool("balances", ["groupId": .string(groupID)])
            guard let json else { return error ?? "" }
            let person = names[memberID] ?? name
            let theirs = Self.standing(json, of: memberID)
            guard !theirs.isEmpty else { return "\(person) is settled up in \(groupName)." }
            return "In \(groupName) \(person) " + Self.said(theirs, owes: "owes", isOwed: "is owed")
                + " (to the group as a whole: “how do we settle?” says who pays whom)."
        case .spent(let on, let asked):
            // A month said is the month asked for, where the group is (found by review: "in
            // November" answered for December).
            var arguments: [String: Value] = ["groupId": .string(groupID)]
            let today = CivilDate(MoneyInput.today(assistant.api.now(), in: group["timeZone"] as? String ?? "UTC"))
            let month = today.flatMap { day in asked.map { $0.month(from: day) } }
            if let month { arguments["month"] = .string(month) }
            let (json, error) = await tool("budget_status", arguments)
            guard let json else { return error ?? "" }
            let currency = json["currency"] as? String ?? ""
            let isTrip = json["period"] as? String == "trip"
            let period = isTrip
                ? "From \(json["startDate"] as? String ?? "") to \(json["endDate"] as? String ?? "")"
                : "In \(json["month"] as? String ?? "this month")"
            // A trip's budget counts the whole trip, not months: said, rather than a month's answer.
            let tripNote = isTrip && month != nil ? "\(groupName)'s budget counts the whole trip, not months. " : ""
            let uncounted = (json["uncountedCurrencies"] as? [String] ?? [])
            let note = uncounted.isEmpty
                ? "" : " (not counting what is in \(uncounted.joined(separator: ", ")): no rate to \(currency) yet)"
            let lines = json["lines"] as? [[String: Any]] ?? []
            func spent(_ figures: Any?) -> String {
                WebFormat.money((figures as? [String: Any])?["spent"] as? String ?? "0", currency)
            }
            guard let on else {
                let named = lines.filter { !Self.isZero(($0["figures"] as? [String: Any])?["spent"] as? String) }
                    .map { "\($0["name"] as? String ?? "") \(spent($0["figures"]))" }
                return "\(tripNote)\(period) \(groupName) spent \(spent(json["total"]))\(note)"
                    + (named.isEmpty ? "." : ": " + named.joined(separator: ", ") + ".")
            }
            // Word by word, without case, accents or a plural's s: "restaurants" for Restaurant,
            // "food this month" for Food & drink; not "funicular" for Fun (found by review).
            func words(_ text: String) -> Set<String> {
                Set(
                    QuickEntry.folded(text).split(whereSeparator: { !$0.isLetter }).map { word in
                        word.count > 3 && word.hasSuffix("s") ? String(word.dropLast()) : String(word)
                    })
            }
            // Everyday words for the default categories (found by review: "food" found no "Meal").
            let kin: [String: Set<String>] = [
                "food": ["meal", "eating", "restaurant", "grocery", "groceries", "dining"],
                "dinner": ["meal", "eating"], "lunch": ["meal", "eating"], "breakfast": ["meal", "eating"],
                "restaurant": ["meal", "eating"], "drink": ["meal", "eating", "fun"],
                "taxi": ["transport"], "train": ["transport"], "bus": ["transport"], "travel": ["transport"],
                "accommodation": ["hotel", "rent"], "lodging": ["hotel"], "stay": ["hotel"],
            ]
            let said = words(on)
            let wanted = said.union(said.flatMap { kin[$0] ?? [] })
            let line = lines.first { !words($0["name"] as? String ?? "").isDisjoint(with: wanted) }
            guard let line else {
                return "\(groupName) has no category like “\(on)”; its categories are "
                    + lines.compactMap { $0["name"] as? String }.joined(separator: ", ") + "."
            }
            return "\(tripNote)\(period) \(groupName) spent \(spent(line["figures"])) on \(line["name"] as? String ?? on)\(note)."
        case .most(let byShare, let asked):
            let (figures, error) = await spending(group, asked)
            guard let figures else { return error ?? "" }
            let names = try await names(groupID)
            let key = byShare ? "share" : "paid"
            let people = figures.people.map { (who: Self.who($0["memberId"], names, me: me), amount: $0[key] as? String ?? "0") }
                .filter { !Self.isZero($0.amount) }
                .sorted {
                    let (left, right) = (Decimal(string: $0.amount) ?? 0, Decimal(string: $1.amount) ?? 0)
                    return left != right ? left > right : $0.who < $1.who
                }
            guard let top = people.first else {
                return "\(figures.period) \(groupName) has no spending to compare\(figures.note)."
            }
            let first = people.filter { $0.amount == top.amount }.map(\.who)
            let money = { (amount: String) in WebFormat.money(amount, figures.currency) }
            let verb = byShare ? "spent" : "paid"
            let lead = "\(Self.list(first)) \(verb) the most, \(money(top.amount))\(first.count > 1 ? " each" : "")"
            let what = byShare ? "Shares" : "Paid"
            return "\(figures.period) \(lead), of \(money(figures.total)) in all\(figures.note). \(what): "
                + people.map { "\($0.who) \(money($0.amount))" }.joined(separator: ", ") + "."
        case .personSpent(let name, let asked):
            let names = try await names(groupID)
            let memberID: String
            switch Self.named(name, names, me: me, groupName: groupName) {
            case .one(let id): memberID = id
            case .refused(let why): return why
            case .nobody(let refusal, _): return refusal
            }
            let (figures, error) = await spending(group, asked)
            guard let figures else { return error ?? "" }
            let person = figures.people.first { $0["memberId"] as? String == memberID }
            let money = { (key: String) in WebFormat.money(person?[key] as? String ?? "0", figures.currency) }
            let who = Self.who(memberID, names, me: me)
            let whose = who == "you" ? "your" : "\(who)'s"
            // What they paid in a currency with no rate, said (found by a new user: "Bo paid 0"
            // of Bo's 90 pounds).
            let apart = figures.byCurrency.filter {
                $0["memberId"] as? String == memberID && figures.uncounted.contains($0["currency"] as? String ?? "")
                    && !Self.isZero($0["paid"] as? String)
            }.map { WebFormat.money($0["paid"] as? String ?? "", $0["currency"] as? String ?? "") }
            return "\(figures.period) \(who) paid \(money("paid"))"
                + (apart.isEmpty ? "" : " (and \(apart.joined(separator: " and ")), not counted without a rate)")
                + " and \(whose) shares came to \(money("share")), "
                + "of \(WebFormat.money(figures.total, figures.currency)) spent in \(groupName)\(figures.note)."
        case .whoOwes, .settle:
            let (planned, error) = await plan(groupID)
            guard let transfers = planned else { return error ?? "" }
            let names = try await names(groupID)
            guard !transfers.isEmpty else { return "Everyone in \(groupName) is settled up." }
            return "To settle \(groupName): "
                + transfers.map { transfer in
                    let from = Self.who(transfer["fromMemberId"], names, me: me)
                    let to = Self.who(transfer["toMemberId"], names, me: me)
                    let amount = WebFormat.money(transfer["amount"] as? String ?? "", transfer["currency"] as? String ?? "")
                    return "\(from) \(from == "you" ? "pay" : "pays") \(to) \(amount)"
                }.joined(separator: "; ") + "."
        case .budget:
            let (json, error) = await tool("budget_status", ["groupId": .string(groupID)])
            guard let json else { return error ?? "" }
            let currency = json["currency"] as? String ?? ""
            let total = json["total"] as? [String: Any] ?? [:]
            let spent = WebFormat.money(total["spent"] as? String ?? "0", currency)
            guard json["budget"] != nil, let cap = total["cap"] as? String else {
                return "\(groupName) has no budget; \(spent) is spent so far this period."
            }
            // "80%", as the budget page and its alerts write it; a budget gone past its cap is
            // over by so much, not "-59,526 JPY is left" (found by a new user).
            let percent = (total["percent"] as? Int).map { " (\($0)%)" } ?? ""
            let remaining = total["remaining"] as? String ?? "0"
            let left =
                remaining.hasPrefix("-")
                ? "it is \(WebFormat.money(String(remaining.dropFirst()), currency)) over."
                : "\(WebFormat.money(remaining, currency)) is left."
            return "\(groupName) has spent \(spent) of \(WebFormat.money(cap, currency))\(percent); \(left)"
        case .markPaid(let words):
            let (json, error) = await tool("list_expenses", ["groupId": .string(groupID), "q": .string(words)])
            guard let json else { return error ?? "" }
            // Each expense like it with a share of the caller's still to pay, the latest first.
            let unpaid = (json["expenses"] as? [[String: Any]] ?? []).compactMap { expense -> ([String: Any], [String: Any])? in
                // Not one the caller paid themselves: nothing to pay (found by review).
                (expense["splits"] as? [[String: Any]])?.first(where: {
                    $0["memberId"] as? String == me && $0["isPaid"] as? Bool == false && $0["nothingToPay"] as? Bool != true
                }).map { (expense, $0) }
            }
            guard let (expense, share) = unpaid.first, let splitID = share["id"] as? String else {
                return "I found no expense like “\(words)” in \(groupName) with a share of yours still to pay."
            }
            let currency = expense["currency"] as? String ?? ""
            let amount = WebFormat.money(share["amount"] as? String ?? "", currency)
            let description = expense["description"] as? String ?? words
            let date = expense["expenseDate"] as? String ?? ""
            // As the web asks (ExpensePages.settledWarning): settled up, the share was most
            // likely paid by the settle-up transfers, and the mark would count it twice.
            if let within = try await settled(groupID, me: me, currency: currency) {
                conversation.pending = PendingLine(line: String(said.prefix(200)), id: nil, markShare: splitID).stored
                return "You are settled up\(within), so the settle-up transfers most likely paid your share of "
                    + "\(description) (\(amount)); marking it paid would record \(amount) more from you. "
                    + "Mark it paid anyway? Say “yes” or “no”."
            }
            // Several alike (a monthly rent): which one is said and asked, not picked unsaid (found
            // by a new user: "mark my rent paid" recorded December's 462.50 at once).
            if unpaid.count > 1 {
                conversation.pending = PendingLine(line: String(said.prefix(200)), id: nil, markShare: splitID).stored
                let others = unpaid.count - 1
                return "You have \(unpaid.count) shares like “\(words)” still to pay; the latest is \(description) of \(date) "
                    + "(\(amount)). Marking it paid records \(amount) from you. Mark that one paid? Say “yes” or “no” "
                    + "(the \(others == 1 ? "other is" : "\(others) others are") on the expenses' pages)."
            }
            return try await markPaid(splitID, said: said, described: "your share of \(description) (\(amount))")
        case .askPayment(let name, let asked):
            let names = try await names(groupID)
            let matches = names.filter { $0.value.lowercased() == name.lowercased() }
            guard matches.count == 1, let (memberID, memberName) = matches.first else {
                return "I know no one called \(name) in \(groupName); the members are "
                    + names.values.sorted().joined(separator: ", ") + "."
            }
            var amount: String
            var currency = group["home"] as? String ?? ""
            if let asked {
                let parts = asked.split(separator: " ").map(String.init)
                amount = parts.first ?? ""
                if parts.count > 1 { currency = parts[1].uppercased() }
            } else {
                let (planned, error) = await plan(groupID)
                guard let planned else { return error ?? "" }
                guard
                    let owed = planned.first(where: {
                        $0["fromMemberId"] as? String == memberID && $0["toMemberId"] as? String == me
                    })
                else { return "\(memberName) owes you nothing in \(groupName)'s plan." }
                amount = owed["amount"] as? String ?? ""
                currency = owed["currency"] as? String ?? currency
            }
            let (json, error) = await tool(
                "create_payment_request",
                [
                    "groupId": .string(groupID), "amount": .string(amount), "currency": .string(currency),
                    "toMemberId": .string(memberID),
                    // A day, as the web's Ask: the link is sent on in a chat (15 minutes was short).
                    "expiresInSeconds": .int(86_400),
                ])
            guard let request = json?["paymentRequest"] as? [String: Any] else { return error ?? "" }
            conversation.lastAction = Self.action("request", request["id"] as? String ?? "")
            return "Asked \(memberName) for \(WebFormat.money(amount, currency)): code \(request["code"] as? String ?? ""), "
                + "\(request["link"] as? String ?? ""); it works for a day."
        case .transfer(let fromWords, let toWords, let amount, let currency, let line):
            // "Ben paid me back 19.13": money that moved, asked about first. Names that are not
            // two members make it an expense line after all ("Taxi paid by Bo 20").
            let names = try await names(groupID)
            guard let from = Self.member(fromWords, names, me: me), let to = Self.member(toWords, names, me: me), from != to
            else { return try await answer(.addExpense(line), said: said) }
            // The amount read now, as any amount is (decimals, "1,500"), so a yes records it as shown.
            // "2000 yen" and "RM": read as a line reads them (found by review: "YEN" is not an
            // ISO 4217 code).
            let home = group["home"] as? String ?? ""
            let code =
                currency.map { said in
                    (try? Currency(code: home)).flatMap { QuickEntry.currency(named: said, home: $0)?.code } ?? said.uppercased()
                } ?? home
            let minor: Int64
            do {
                minor = try MoneyInput.amount(amount, try MoneyInput.currency(code, field: "currency"), field: "amount")
            } catch {
                return ErrorEnvelopeMiddleware.apiError(for: error).message
            }
            // Nothing moved: said now, not after a yes (found by review).
            guard minor > 0 else { return "That is no money: a transfer is more than zero." }
            let draft = TransferDraft(from: from, to: to, amount: MoneyInput.text(minor, code), currency: code)
            conversation.pending = PendingLine(line: String(said.prefix(200)), id: nil, transfer: draft).stored
            return "Record that \(Self.sentence(draft, names, me: me))? It is money that moved, not an expense. "
                + "Say “yes” or “no”."
        case .addExpense(let line):
            let (json, error) = await tool("quick_add", ["groupId": .string(groupID), "text": .string(line)])
            guard let json else { return error ?? "" }
            let problems = (json["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
            if !problems.isEmpty {
                return "I could not read that as an expense: " + problems.joined(separator: " ")
                    + " Say it again with what is missing, or ask me for help."
            }
            // Who paid and the currency are asked about when the line did not say them; a line
            // without a date is dated today, which the answer says.
            let assumed = (json["assumed"] as? [String] ?? []).filter { $0 != "date" }
            guard assumed.isEmpty else {
                // Kept with the id the preview used, so a yes saves the shares just shown, and
                // with the day it was dated, so a yes after midnight keeps the day "today" or
                // "yesterday" meant when the line was said.
                let day = (json["expense"] as? [String: Any])?["expenseDate"] as? String
                conversation.pending = PendingLine(
                    line: line, id: json["id"] as? String, date: day, fingerprint: json["fingerprint"] as? String
                ).stored
                let words = assumed.map { $0 == "payer" ? "you paid" : "it was in \(group["home"] as? String ?? "the home currency")" }
                return try await Self.describe(json, names: names(groupID), me: me)
                    + " I assumed \(words.joined(separator: " and ")). Say “yes” to save it, or “no”."
            }
            return try await save(line, id: json["id"] as? String, fingerprint: json["fingerprint"] as? String, group: group)
        case .help, .cancel, .undo, .confirm, .unknownQuestion:
            return ""
        }
    }

    /// Records a transfer the caller said yes to, once whatever retries; `undo` deletes it.
    mutating func record(_ draft: TransferDraft, group: [String: Any]) async throws -> String {
        let groupID = group["id"] as? String ?? ""
        let (json, error) = await tool(
            "record_settlement",
            [
                "groupId": .string(groupID), "fromMemberId": .string(draft.from), "toMemberId": .string(draft.to),
                "amount": .string(draft.amount), "currency": .string(draft.currency),
                "note": .string("Said to the assistant"),
                "idempotencyKey": .string("assistant-\(UUID.random().uuidString.lowercased())"),
            ])
        guard let settlement = json?["settlement"] as? [String: Any] else { return error ?? "" }
        conversation.lastAction = Self.action("transfer", settlement["id"] as? String ?? "")
        return "Recorded: \(Self.sentence(draft, try await names(groupID), me: group["me"] as? String ?? ""))."
    }

    /// A member's non-zero balances as Settle up counts them: everything in the home currency
    /// when it offers that first (several currencies, each with a rate), else each currency's
    /// (found by review: "you owe 20.00 USD and are owed 18.00 EUR" after settling in euros).
    static func standing(_ balances: [String: Any], of memberID: String) -> [[String: Any]] {
        let each = balances["balances"] as? [[String: Any]] ?? []
        let currencies = Set(each.compactMap { $0["currency"] as? String })
        let lines = currencies.count > 1 ? balances["home"] as? [[String: Any]] ?? each : each
        return lines.filter { $0["memberId"] as? String == memberID && !isZero($0["net"] as? String) }
    }

    /// "you owe 10.00 EUR and you are owed 5.00 USD": balance lines (`standing`) in words.
    static func said(_ lines: [[String: Any]], owes: String, isOwed: String) -> String {
        lines.map { line in
            let net = line["net"] as? String ?? "0"
            let amount = WebFormat.money(String(net.trimmingPrefix("-")), line["currency"] as? String ?? "")
            return net.hasPrefix("-") ? "\(owes) \(amount)" : "\(isOwed) \(amount)"
        }.joined(separator: " and ")
    }

    /// Whom a question names: one member; several (`refused` says who they are); or nobody
    /// (what to say, with the one close name when there is one; nil `guess`: no close name).
    enum Named {
        case one(String)
        case refused(String)
        case nobody(String, guess: String?)
    }

    static func named(_ name: String, _ names: [String: String], me: String, groupName: String) -> Named {
        let found = members(name, names, me: me)
        if found.count == 1 { return .one(found[0]) }
        if found.count > 1 {
            return .refused(
                "Several members of \(groupName) are called \(name): "
                    + found.compactMap { names[$0] }.sorted().joined(separator: ", ") + ". Use the full name.")
        }
        let people = names.map { QuickEntryContext.Person(id: MemberID(UUID(uuidString: $0.key) ?? UUID()), name: $0.value) }
        let guess = QuickEntry.closeName(name, people)
        return .nobody("I know no one called \(name) in \(groupName).\(guess.map { " Did you mean \($0)?" } ?? "")", guess: guess)
    }

    /// The member `words` name: "I" or "me", or one member's name (any case, accents or not).
    static func member(_ words: String, _ names: [String: String], me: String) -> String? {
        let found = members(words, names, me: me)
        return found.count == 1 ? found.first : nil
    }

    /// The members `words` could name, closest first: "I" or "me"; else a name in any case, then
    /// without accents, then a first name alone ("Chloé" for Chloé Martin). Several when they
    /// share it; none when nobody has it.
    static func members(_ words: String, _ names: [String: String], me: String) -> [String] {
        let plain = words.lowercased()
        if ["i", "me", "myself"].contains(plain) { return [me] }
        var found = names.filter { $0.value.lowercased() == plain }
        if found.isEmpty { found = names.filter { QuickEntry.folded($0.value) == QuickEntry.folded(plain) } }
        if found.isEmpty {
            found = names.filter { QuickEntry.folded(String($0.value.split(separator: " ").first ?? "")) == QuickEntry.folded(plain) }
        }
        return found.keys.sorted()
    }

    /// "Ben paid you 19.13 EUR".
    static func sentence(_ draft: TransferDraft, _ names: [String: String], me: String) -> String {
        let from = who(draft.from, names, me: me)
        let to = who(draft.to, names, me: me)
        return "\(from) paid \(to) \(WebFormat.money(draft.amount, draft.currency))"
    }

    /// Marks the caller's share paid, said to the assistant; `undo` takes it back.
    mutating func markPaid(_ splitID: String, said: String, described: String = "your share") async throws -> String {
        let (_, refused) = await tool(
            "mark_share_paid",
            ["splitId": .string(splitID), "isPaid": .bool(true), "reason": .string("Said to the assistant: \(said.prefix(200))")])
        if let refused { return refused }
        conversation.lastAction = Self.action("unmark", splitID)
        return "Marked \(described) paid."
    }

    /// " in JPY" when the caller owes nothing and is owed nothing (in the home currency when
    /// the group's balances have one, else in `currency`); nil when they owe or are owed.
    mutating func settled(_ groupID: String, me: String, currency: String) async throws -> String? {
        let (json, _) = await tool("balances", ["groupId": .string(groupID)])
        guard let json else { return nil }
        let home = json["homeCurrency"] as? String ?? ""
        if let lines = json["home"] as? [[String: Any]] {
            let mine = lines.first { $0["memberId"] as? String == me }
            return Self.isZero(mine?["net"] as? String) ? " in \(home)" : nil
        }
        let lines = json["balances"] as? [[String: Any]] ?? []
        let mine = lines.first { $0["memberId"] as? String == me && $0["currency"] as? String == currency }
        return Self.isZero(mine?["net"] as? String) ? " in \(currency)" : nil
    }

    /// Saves an expense line (once, whatever retries) and says what was saved; with `id` and
    /// `fingerprint`, the preview's, it saves what the preview showed or nothing: when the line
    /// came to something else since (someone joined), it is shown again to say yes to.
    mutating func save(_ line: String, id: String?, fingerprint: String?, group: [String: Any]) async throws -> String {
        let groupID = group["id"] as? String ?? ""
        var arguments: [String: Value] = [
            "groupId": .string(groupID), "text": .string(line), "dryRun": .bool(false),
            // One key per save: a retry of this request is one expense; another save, another.
            "idempotencyKey": .string("assistant-\(UUID.random().uuidString.lowercased())"),
        ]
        if let id { arguments["id"] = .string(id) }
        if let fingerprint { arguments["fingerprint"] = .string(fingerprint) }
        let (json, error) = await tool("quick_add", arguments)
        if let error, error.hasPrefix(APIError(QuickEntryUseCases.previewChanged).message) {
            let (again, failed) = await tool("quick_add", ["groupId": .string(groupID), "text": .string(line)])
            guard let again, (again["problems"] as? [Any] ?? []).isEmpty else { return failed ?? error }
            conversation.pending = PendingLine(
                line: line, id: again["id"] as? String, date: (again["expense"] as? [String: Any])?["expenseDate"] as? String,
                fingerprint: again["fingerprint"] as? String
            ).stored
            return "Not saved: the group changed since I showed it. Now: "
                + (try await Self.describe(again, names: names(groupID), me: group["me"] as? String ?? ""))
                + " Say “yes” to save this, or “no”."
        }
        guard let expense = json?["expense"] as? [String: Any] else { return error ?? "" }
        conversation.lastAction = Self.action(
            "expense", expense["id"] as? String ?? "", version: (expense["version"] as? Int).map(String.init))
        let total = expense["amount"] as? String ?? ""
        let amount = WebFormat.money(String(total.trimmingPrefix("-")), expense["currency"] as? String ?? "")
        return "Added \(total.hasPrefix("-") ? "the refund " : "")\(expense["description"] as? String ?? "it"), \(amount)"
            + "\(total.hasPrefix("-") ? " back" : ""), to \(group["name"] as? String ?? "the group")."
    }

    mutating func undo() async throws -> String {
        guard let text = conversation.lastAction,
            let action = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String],
            let id = action["id"]
        else { return "There is nothing of mine to undo in this conversation." }
        // Undo writes outside the tools, so it asks for the right to write itself.
        do {
            try caller.requireWrite()
        } catch {
            return ErrorEnvelopeMiddleware.apiError(for: error).message
        }
        conversation.lastAction = nil
        switch action["kind"] {
        case "expense":
            // Only as it was saved: an expense someone changed since is theirs now (a 412).
            do {
                _ = try await assistant.api.deleteExpense(
                    .init(path: .init(expenseId: id), headers: .init(ifMatch: action["version"].map { "\"\($0)\"" })))
            } catch AppError.staleExpense {
                return "Someone changed that expense since I added it, so I left it as it is."
            }
            return "Took it back: the expense is deleted (it can be restored from the group's deleted expenses)."
        case "unmark":
            let (_, error) = await tool("mark_share_paid", ["splitId": .string(id), "isPaid": .bool(false), "reason": .string("Undone through the assistant")])
            return error ?? "Took it back: your share is unpaid again."
        case "request":
            _ = try await assistant.api.cancelPaymentRequest(.init(path: .init(requestId: id)))
            return "Took it back: the payment request is cancelled."
        case "transfer":
            _ = try await assistant.api.deleteSettlement(.init(path: .init(settlementId: id)))
            return "Took it back: the transfer is deleted."
        default:
            return "There is nothing of mine to undo in this conversation."
        }
    }

    static func action(_ kind: String, _ id: String, version: String? = nil) -> String {
        var object = ["kind": kind, "id": id]
        object["version"] = version
        return String(
            decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    static func isZero(_ amount: String?) -> Bool {
        guard let amount else { return true }
        return amount.allSatisfy { $0 == "0" || $0 == "." || $0 == "-" }
    }

    static func who(_ id: Any?, _ names: [String: String], me: String) -> String {
        guard let id = id as? String else { return "someone" }
        if id == me { return "you" }
        return names[id] ?? "someone"
    }

    /// "Ramen, 1,200 JPY, paid by you; shares: you 400 JPY, Bo 400 JPY, Chen 400 JPY.", and for
    /// money back "a refund: Deposit back, 100.00 EUR received by you; each gets back: …" (found
    /// by review: "−5.00 EUR, paid by you").
    static func describe(_ preview: [String: Any], names: [String: String], me: String) -> String {
        let expense = preview["expense"] as? [String: Any] ?? [:]
        let currency = expense["currency"] as? String ?? ""
        let money = { (amount: Any?) in WebFormat.money(String((amount as? String ?? "").trimmingPrefix("-")), currency) }
        let refund = (expense["amount"] as? String ?? "").hasPrefix("-")
        let payers = (preview["payers"] as? [[String: Any]] ?? []).map { who($0["memberId"], names, me: me) }
        let shares = (preview["splits"] as? [[String: Any]] ?? []).map { "\(who($0["memberId"], names, me: me)) \(money($0["amount"]))" }
        if refund {
            return "I read a refund: \(expense["description"] as? String ?? ""), \(money(expense["amount"])) received by "
                + payers.joined(separator: " and ") + "; each gets back: " + shares.joined(separator: ", ") + "."
        }
        return "I read: \(expense["description"] as? String ?? ""), \(money(expense["amount"])), paid by "
            + payers.joined(separator: " and ") + "; shares: " + shares.joined(separator: ", ") + "."
    }
}

/// Money that moved, as said to the assistant: member ids, the amount in the currency's
/// decimals, its currency.
struct TransferDraft: Codable, Equatable {
    var from: String
    var to: String
    var amount: String
    var currency: String
}

/// A line waiting for a yes, kept in the conversation with the id its preview used. A line kept
/// before the id was (plain text) reads as that line, without one.
struct PendingLine: Codable {
    var line: String
    var id: String?
    /// The day the preview dated the line (`YYYY-MM-DD`).
    var date: String?
    /// The preview's fingerprint: a yes saves what was shown or nothing.
    var fingerprint: String?
    /// A share to mark paid on a yes (the caller was settled up, so it was asked first), instead
    /// of an expense line to save.
    var markShare: String?
    /// A transfer to record on a yes ("Ben paid me back 19.13").
    var transfer: TransferDraft?

    init(
        line: String, id: String?, date: String? = nil, fingerprint: String? = nil, markShare: String? = nil,
        transfer: TransferDraft? = nil
    ) {
        self.line = line
        self.id = id
        self.date = date
        self.fingerprint = fingerprint
        self.markShare = markShare
        self.transfer = transfer
    }

    /// The line as the preview read it: with the day it was dated as its last date word, which
    /// quick entry reads as the expense's date (the last one counts) and leaves out of its
    /// description. A line within 11 characters of quick entry's longest is left as it was said.
    var lineAsPreviewed: String {
        guard let date, CivilDate(date) != nil,
            line.unicodeScalars.count + 1 + date.unicodeScalars.count <= QuickEntry.maximumLength
        else { return line }
        return line + " " + date
    }

    init(stored: String) {
        self = (try? JSONDecoder().decode(Self.self, from: Data(stored.utf8))) ?? Self(line: stored, id: nil)
    }

    var stored: String { (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? line }
}
