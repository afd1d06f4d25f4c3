import Foundation
import SplitCore
import SplitStore

/// A conversation with its messages, as its owner reads it.
public struct ConversationView: Sendable {
    public var conversation: ConversationRecord
    public var messages: [ConversationMessage]
}

/// Conversations with the assistant (issue 21): each account's own; another's id is not found.
/// What the assistant says and does is `Assistant`'s (in the server, beside the MCP tools it runs).
public struct ConversationUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    /// Conversations listed at most.
    public static let listed = 100

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    public func list(caller: Caller) async throws -> [ConversationRecord] {
        try await conversations.conversations(userID: caller.user.id, limit: Self.listed)
            .filter { Self.reaches($0, caller) }
    }

    public func conversation(_ text: String, caller: Caller) async throws -> ConversationView {
        guard let id = UUID(uuidString: text),
            let found = try await conversations.conversation(id: id, userID: caller.user.id),
            Self.reaches(found, caller)
        else { throw AppError.notFound("conversation") }
        return ConversationView(conversation: found, messages: try await conversations.messages(conversationID: id))
    }

    /// An empty conversation, about a group of the caller's when one is named.
    public func create(groupID: String?, title: String?, caller: Caller) async throws -> ConversationView {
        var group: UUID?
        if let groupID {
            guard let id = UUID(uuidString: groupID) else {
                throw AppError.invalid(field: "groupId", message: "groupId is not a group id.")
            }
            group = try await access.check(id, caller, for: .read).group.id
        }
        let current = now()
        let record = ConversationRecord(
            id: UUID.random(), userID: caller.user.id, groupID: group,
            title: String((title?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : $0 }?.prefix(60) ?? "New conversation"),
            createdAt: current, updatedAt: current)
        try await conversations.create(record)
        return ConversationView(conversation: record, messages: [])
    }

    public func delete(_ text: String, caller: Caller) async throws {
        guard let id = UUID(uuidString: text),
            let found = try await conversations.conversation(id: id, userID: caller.user.id),
            Self.reaches(found, caller), try await conversations.delete(id: id, userID: caller.user.id)
        else { throw AppError.notFound("conversation") }
    }

    /// Whether the caller's credentials reach a conversation: one about a group they reach, or
    /// one about no group for a caller that reaches all of theirs (it may name any of them).
    public static func reaches(_ conversation: ConversationRecord, _ caller: Caller) -> Bool {
        conversation.groupID.map(caller.reaches) ?? (caller.token?.groupIDs == nil)
    }
}
