import Foundation
import HTTPTypes
import MCP
import OpenAPIRuntime
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The assistant's routes (issue 21): the chat stream, conversations, the tool list.
extension APIHandler {
    var assistant: Assistant { Assistant(api: self, conversations: ConversationStore(database: database), now: now) }

    func chatStream(_ input: Operations.ChatStream.Input) async throws -> Operations.ChatStream.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let assistant = assistant
        // What can be refused is refused before the stream starts, with the usual envelope.
        try await assistant.check(body.message, conversationID: body.conversationId, groupID: body.groupId, caller: caller)
        let frames = assistant.frames(
            body.message, conversationID: body.conversationId, groupID: body.groupId, caller: caller
        ).map { @Sendable frame in ArraySlice(Array(frame.utf8)) }
        return .ok(
            .init(
                headers: .init(cacheControl: "no-store"),
                body: .textEventStream(HTTPBody(frames, length: .unknown, iterationBehavior: .single))))
    }

    func listConversations(_ input: Operations.ListConversations.Input) async throws -> Operations.ListConversations.Output {
        let list = try await conversationUseCases.list(caller: try await authenticate())
        return .ok(.init(body: .json(.init(conversations: list.map(Components.Schemas.Conversation.init)))))
    }

    func createConversation(_ input: Operations.CreateConversation.Input) async throws -> Operations.CreateConversation.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let view = try await conversationUseCases.create(groupID: body.groupId, title: body.title, caller: caller)
        return .created(.init(body: .json(try .init(view))))
    }

    func getConversation(_ input: Operations.GetConversation.Input) async throws -> Operations.GetConversation.Output {
        let view = try await conversationUseCases.conversation(input.path.conversationId, caller: try await authenticate())
        return .ok(.init(body: .json(try .init(view))))
    }

    func deleteConversation(_ input: Operations.DeleteConversation.Input) async throws -> Operations.DeleteConversation.Output {
        try await conversationUseCases.delete(input.path.conversationId, caller: try await authenticate())
        return .noContent(.init())
    }

    func listAssistantTools(_ input: Operations.ListAssistantTools.Input) async throws -> Operations.ListAssistantTools.Output {
        _ = try await authenticate()
        let tools = try MCPTools.all.map { tool in
            Components.Schemas.AssistantTool(
                name: tool.name, description: tool.description ?? "",
                inputSchema: try JSONDecoder().decode(
                    Components.Schemas.AssistantTool.InputSchemaPayload.self, from: try JSONEncoder().encode(tool.inputSchema)),
                readOnly: tool.annotations.readOnlyHint ?? false)
        }
        return .ok(.init(body: .json(.init(tools: tools))))
    }
}

extension Components.Schemas.Conversation {
    init(_ record: ConversationRecord) {
        self.init(
            id: record.id.text, title: record.title, groupId: record.groupID?.text,
            pending: record.pending.map { PendingLine(stored: $0).line },
            createdAt: Date(milliseconds: record.createdAt), updatedAt: Date(milliseconds: record.updatedAt))
    }
}

extension Components.Schemas.ConversationDetail {
    init(_ view: ConversationView) throws {
        self.init(
            conversation: .init(view.conversation),
            messages: try view.messages.map { message in
                let calls = (try? JSONSerialization.jsonObject(with: Data(message.tools.utf8))) as? [[String: Any]] ?? []
                return Components.Schemas.ConversationMessage(
                    seq: message.seq, role: message.role == "user" ? .user : .assistant, content: message.content,
                    tools: try calls.map { call in
                        Components.Schemas.ToolCall(
                            id: call["id"] as? String ?? "", name: call["name"] as? String ?? "",
                            args: try JSONDecoder().decode(
                                Components.Schemas.ToolCall.ArgsPayload.self,
                                from: try JSONSerialization.data(withJSONObject: call["args"] as? [String: Any] ?? [:])),
                            result: call["result"] as? String ?? "", isError: call["isError"] as? Bool ?? false)
                    },
                    createdAt: Date(milliseconds: message.createdAt))
            })
    }
}
