import Foundation
internal import OpenAPIRuntime
internal import SplitAPI

/// One event of the assistant's answer, as it arrives (the seed's `ChatStreamEvent`).
public enum ChatStreamEvent: Hashable, Sendable {
    /// The conversation this answer belongs to: send it back to go on with it.
    case conversationID(String)
    /// A tool starts, with its arguments as JSON.
    case toolStart(id: String, name: String, argsJSON: String)
    /// A tool ended: its answer as JSON (the API's), or a refusal's message when `isError`.
    case toolEnd(id: String, name: String, resultJSON: String, isError: Bool)
    /// What the assistant says.
    case text(String)
}

/// A conversation with the assistant.
public struct Conversation: Codable, Hashable, Sendable {
    public var id: String
    public var title: String
    public var groupId: String?
    /// The expense line it waits to hear "yes" for.
    public var pending: String?
    public var createdAt: Date
    public var updatedAt: Date
}

/// One message of a conversation, with the tools the assistant ran for it.
public struct ConversationMessage: Codable, Hashable, Sendable {
    public struct ToolCall: Codable, Hashable, Sendable {
        public var id: String
        public var name: String
        public var result: String
        public var isError: Bool
    }
    public var role: String
    public var content: String
    public var tools: [ToolCall]
    public var createdAt: Date
}

/// The assistant (issue 21): a chat whose answer streams as events, and the conversations kept.
extension SplitterClient {
    /// Sends a message; the events come as the server writes them. Ends after the answer; a
    /// stop in the middle (`[ERROR]`) throws `SplitterError.server` with its message.
    public func chat(_ message: String, conversationID: String? = nil, groupID: String? = nil)
        -> AsyncThrowingStream<ChatStreamEvent, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let output = try await send {
                        try await api.chatStream(
                            body: .json(.init(message: message, conversationId: conversationID, groupId: groupID)))
                    }
                    switch output {
                    case .ok(let ok):
                        // The same reader of Server-Sent Events as the live stream's.
                        var parser = ServerSentEventParser()
                        for try await chunk in try ok.body.textEventStream {
                            for event in parser.feed(chunk) {
                                if try Self.chatFrame(event.data, into: continuation) { return continuation.finish() }
                            }
                            if parser.exceededLimit {
                                throw SplitterError.server("The server sent an event larger than \(parser.limit) bytes.")
                            }
                        }
                        continuation.finish()
                    case .default(let status, let error):
                        continuation.finish(throwing: Self.failure(status, error))
                    }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Reads one event's data; true at its end (`[DONE]`).
    static func chatFrame(_ data: String, into continuation: AsyncThrowingStream<ChatStreamEvent, any Error>.Continuation) throws
        -> Bool
    {
        if data == "[DONE]" { return true }
        if data.hasPrefix("[ERROR]") {
            throw SplitterError.server(String(data.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return false }
        let json = { (value: Any?) -> String in
            guard let value else { return "null" }
            if let text = value as? String { return text }
            return (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        switch object["type"] as? String {
        case "conversation_id": continuation.yield(.conversationID(object["conversationId"] as? String ?? ""))
        case "tool_start":
            continuation.yield(
                .toolStart(id: object["id"] as? String ?? "", name: object["name"] as? String ?? "", argsJSON: json(object["args"])))
        case "tool_end":
            continuation.yield(
                .toolEnd(
                    id: object["id"] as? String ?? "", name: object["name"] as? String ?? "",
                    resultJSON: json(object["result"]), isError: object["isError"] as? Bool ?? false))
        case "text": continuation.yield(.text(object["content"] as? String ?? ""))
        default: break  // a kind a newer server may add
        }
        return false
    }

    public func conversations() async throws -> [Conversation] {
        try await call({ try await api.listConversations() }) {
            try $0.ok.body.json.conversations.map(Conversation.init)
        }
    }

    public func conversation(id: String) async throws -> (Conversation, [ConversationMessage]) {
        try await call({ try await api.getConversation(path: .init(conversationId: id)) }) { output in
            let detail = try output.ok.body.json
            return (
                Conversation(detail.conversation),
                detail.messages.map {
                    ConversationMessage(
                        role: $0.role.rawValue, content: $0.content,
                        tools: $0.tools.map { .init(id: $0.id, name: $0.name, result: $0.result, isError: $0.isError) },
                        createdAt: $0.createdAt)
                }
            )
        }
    }

    public func deleteConversation(id: String) async throws {
        try await call({ try await api.deleteConversation(path: .init(conversationId: id)) }) { _ = try $0.noContent }
    }
}

extension Conversation {
    init(_ wire: Components.Schemas.Conversation) {
        self.init(
            id: wire.id, title: wire.title, groupId: wire.groupId, pending: wire.pending, createdAt: wire.createdAt,
            updatedAt: wire.updatedAt)
    }
}
