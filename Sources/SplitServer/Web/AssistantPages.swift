import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The assistant on the web (issue 21), from a group's overview: the conversation about the
/// group, each answer with the tools it ran, and a box to say the next thing. The form posts
/// and the page shows the answer (the API's `/api/chat/stream` is the same assistant, streamed).
extension WebApp {
    struct AssistantBody: Sendable {
        struct Message: Sendable {
            let mine: Bool
            let text: String
            let tools: String?
        }
        let groupID: String
        let conversationID: String?
        let messages: [Message]
        let waiting: Bool
        var toolWords = WebApp.toolWordsJSON
    }

    /// What each tool the assistant runs did, in words, for the page and its script (found by
    /// review: the page said "Ran balances, settle_plan", the MCP tools' names); under the key
    /// with " refused" after it, what it tried when it was refused (not said as done).
    static let toolWords: [String: String] = {
        let said: [(key: String, done: String, tried: String)] = [
            ("list_groups", "looked at your groups", "look at your groups"),
            ("list_expenses", "looked through the expenses", "look through the expenses"),
            ("add_expense", "saved an expense", "save an expense"), ("quick_add", "read the line", "read the line"),
            ("quick_add saving", "saved an expense", "save an expense"),
            ("balances", "read the balances", "read the balances"),
            ("settle_plan", "worked out Settle up", "work out Settle up"),
            ("record_settlement", "recorded a transfer", "record a transfer"),
            ("mark_share_paid", "changed a paid mark", "change a paid mark"),
            ("budget_status", "read the budget", "read the budget"),
            ("create_payment_request", "made a payment request", "make a payment request"),
        ]
        var words: [String: String] = [:]
        for entry in said {
            words[entry.key] = entry.done
            words[entry.key + " refused"] = "tried to \(entry.tried), refused"
        }
        return words
    }()

    /// The same table as JSON, for app.js (`data-tool-words`), which says it as `toolsSaid` does.
    static let toolWordsJSON: String = {
        let data = (try? JSONSerialization.data(withJSONObject: toolWords, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }()

    /// A tool's key in `toolWords`: its name, and " saving" after quick_add's when it saved
    /// (`dryRun` false) rather than only read the line.
    static func toolKey(_ call: [String: Any]) -> String {
        let name = call["name"] as? String ?? ""
        let args = call["args"] as? [String: Any] ?? [:]
        let key = name == "quick_add" && (args["dryRun"] as? Bool) == false ? name + " saving" : name
        // A refusal is not said as done (found by review: a refused save read "Saved an expense.").
        return (call["isError"] as? Bool) == true ? key + " refused" : key
    }

    /// "Read the balances, worked out Settle up." for the tools a message ran (`toolKey`s);
    /// nil for none.
    static func toolsSaid(_ keys: [String]) -> String? {
        var said: [String] = []
        for key in keys {
            let words = toolWords[key] ?? "looked something up"
            if !said.contains(words) { said.append(words) }
        }
        guard let first = said.first else { return nil }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + said.dropFirst()).joined(separator: ", ") + "."
    }

    func assistantPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let caller = try caller()
        let wanted = request.uri.queryParameters["c"].map(String.init)
        let mine = try await api.conversationUseCases.list(caller: caller).filter { $0.groupID?.text == groupID }
        let chosen = wanted.flatMap { id in mine.first { $0.id.text == id.lowercased() } } ?? mine.first
        var messages: [AssistantBody.Message] = []
        if let chosen {
            messages = try await api.conversationUseCases.conversation(chosen.id.text, caller: caller).messages.map { message in
                let calls = (try? JSONSerialization.jsonObject(with: Data(message.tools.utf8))) as? [[String: Any]] ?? []
                return .init(
                    mine: message.role == "user", text: message.content,
                    tools: Self.toolsSaid(calls.map(Self.toolKey)))
            }
        }
        let body = AssistantBody(
            groupID: groupID, conversationID: chosen?.id.text, messages: messages, waiting: chosen?.pending != nil)
        return try await render(
            "assistant", title: "Assistant · \(scope.group.name)", body: body, nav: scope.nav("overview", live: false))
    }

    func sayToAssistant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let said = try await assistantRequest(context)
        let conversation = try await api.assistant.respond(
            said.message, conversationID: said.conversation, groupID: said.groupID, caller: said.caller
        ) { _ in }
        return Self.redirect("/groups/\(said.groupID)/assistant?c=\(conversation.text)#latest")
    }

    /// The same answer as a stream of events, for the page's script: it shows each tool as it
    /// runs and the answer as it comes (the form post above is the way without script).
    func assistantStream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let said = try await assistantRequest(context)
        let frames = api.assistant.frames(
            said.message, conversationID: said.conversation, groupID: said.groupID, caller: said.caller
        ).map { @Sendable frame in ByteBuffer(string: frame) }
        var response = Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: .init(asyncSequence: frames))
        WebMiddleware.secure(&response.headers)
        return response
    }

    /// The form's message for the page's group, checked as the API checks it.
    private func assistantRequest(_ context: AppRequestContext) async throws -> (
        groupID: String, caller: Caller, conversation: String?, message: String
    ) {
        let groupID = try context.parameters.require("groupId")
        _ = try await scope(groupID)
        let form = try WebRequest.get().form
        let caller = try caller()
        let conversation = form["new"] != nil ? nil : form["conversationId"].flatMap { $0.isEmpty ? nil : $0 }
        let message = form["message"] ?? ""
        try await api.assistant.check(message, conversationID: conversation, groupID: groupID, caller: caller)
        return (groupID, caller, conversation, message)
    }
}
