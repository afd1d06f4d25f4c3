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

    /// What each tool did, in words (`AssistantToolWords`), for app.js (`data-tool-words`).
    static let toolWordsJSON: String = {
        let data =
            (try? JSONSerialization.data(withJSONObject: AssistantToolWords.table, options: [.sortedKeys]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }()

    /// A stored tool call's key in `AssistantToolWords.table`.
    static func toolKey(_ call: [String: Any]) -> String {
        let args = call["args"] as? [String: Any] ?? [:]
        return AssistantToolWords.key(
            call["name"] as? String ?? "", saving: (args["dryRun"] as? Bool) == false,
            refused: (call["isError"] as? Bool) == true)
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
                    tools: AssistantToolWords.said(calls.map(Self.toolKey)))
            }
        }
        let body = AssistantBody(
            groupID: groupID, conversationID: chosen?.id.text, messages: messages, waiting: chosen?.pending != nil)
        return try await render(
            "assistant", title: "Assistant · \(scope.group.name)", body: body, nav: scope.nav("overview", live: false))
    }

    func sayToAssistant(_ request: Request, context: AppRequestContext) async throws -> Response {
        // From "Add quickly": what was typed there is the question (found by a new user: the
        // button was a link, and the line typed was gone); nothing typed opens the page.
        let form = try WebRequest.get().form
        if form["message"] == nil, (form.text("text") ?? "").isEmpty {
            return Self.redirect("/groups/\(try context.parameters.require("groupId"))/assistant")
        }
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
        let message = form["message"] ?? form["text"] ?? ""
        try await api.assistant.check(message, conversationID: conversation, groupID: groupID, caller: caller)
        return (groupID, caller, conversation, message)
    }
}
