import Foundation
import Logging
import Hummingbird
import SplitAPI
import SplitApp
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
                let names = calls.compactMap { $0["name"] as? String }
                return .init(
                    mine: message.role == "user", text: message.content,
                    tools: names.isEmpty ? nil : "Ran " + names.joined(separator: ", "))
            }
        }
        let body = AssistantBody(
            groupID: groupID, conversationID: chosen?.id.text, messages: messages, waiting: chosen?.pending != nil)
        return try await render(
            "assistant", title: "Assistant · \(scope.group.name)", body: body, nav: scope.nav("overview", live: false))
    }

    func sayToAssistant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        _ = try await scope(groupID)
        let form = try WebRequest.get().form
        let caller = try caller()
        let conversation = form["new"] != nil ? nil : form["conversationId"].flatMap { $0.isEmpty ? nil : $0 }
        let message = form["message"] ?? ""
        let assistant = api.assistant
        try await assistant.check(message, conversationID: conversation, groupID: groupID, caller: caller)
        let answered = Answered()
        try await assistant.respond(message, conversationID: conversation, groupID: groupID, caller: caller) { event in
            if case .conversation(let id) = event { answered.set(id) }
        }
        return Self.redirect("/groups/\(groupID)/assistant?c=\(answered.id?.text ?? "")#latest")
    }
}

extension WebApp {
    /// The same answer as a stream of events, for the page's script: it shows each tool as it
    /// runs and the answer as it comes (the form above is the way without script).
    func assistantStream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        _ = try await scope(groupID)
        let form = try WebRequest.get().form
        let caller = try caller()
        let conversation = form["new"] != nil ? nil : form["conversationId"].flatMap { $0.isEmpty ? nil : $0 }
        let message = form["message"] ?? ""
        let assistant = api.assistant
        try await assistant.check(message, conversationID: conversation, groupID: groupID, caller: caller)
        let (frames, continuation) = AsyncStream<ByteBuffer>.makeStream()
        Task {
            do {
                try await assistant.respond(message, conversationID: conversation, groupID: groupID, caller: caller) { event in
                    continuation.yield(ByteBuffer(string: "data: \(event.json)\n\n"))
                }
                continuation.yield(ByteBuffer(string: "data: [DONE]\n\n"))
            } catch {
                let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
                if apiError.status.code >= 500 {
                    RequestInfo.current?.logger.error("assistant failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                let text = apiError.message.replacingOccurrences(of: "\n", with: " ")
                continuation.yield(ByteBuffer(string: "data: [ERROR] \(text)\n\n"))
            }
            continuation.finish()
        }
        var response = Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: .init(asyncSequence: frames))
        WebMiddleware.secure(&response.headers)
        return response
    }
}

/// The conversation an answer went into.
private final class Answered: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UUID?
    func set(_ id: UUID) { lock.withLock { value = id } }
    var id: UUID? { lock.withLock { value } }
}
