import Foundation
import SQLKit
import SplitCore

/// One conversation with the assistant (issue 21): its account, the group it is about, what the
/// assistant proposed and awaits a yes for, and its last change (for "undo").
public struct ConversationRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var groupID: UUID?
    public var title: String
    /// The expense line the assistant read and asks to confirm.
    public var pending: String?
    /// The last change it made, as JSON (`{"kind":…, "id":…}`), for "undo".
    public var lastAction: String?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, userID: UUID, groupID: UUID?, title: String, pending: String? = nil, lastAction: String? = nil,
        createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.userID = userID
        self.groupID = groupID
        self.title = title
        self.pending = pending
        self.lastAction = lastAction
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A message of a conversation: the person's or the assistant's, with the tools it ran.
public struct ConversationMessage: Sendable, Equatable {
    public var seq: Int64
    public var role: String
    public var content: String
    /// The tool calls, as JSON: `[{"id","name","args","result","isError"}]`.
    public var tools: String
    public var createdAt: Int64

    public init(seq: Int64, role: String, content: String, tools: String = "[]", createdAt: Int64) {
        self.seq = seq
        self.role = role
        self.content = content
        self.tools = tools
        self.createdAt = createdAt
    }
}

/// Conversations are each account's own: every read and write names the account.
public struct ConversationStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public func create(_ conversation: ConversationRecord) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO conversations (id, user_id, group_id, title, pending, last_action, created_at, updated_at)
                VALUES (\(bind: conversation.id.text), \(bind: conversation.userID.text), \(bind: conversation.groupID?.text),
                        \(bind: conversation.title), \(bind: conversation.pending), \(bind: conversation.lastAction),
                        \(bind: conversation.createdAt), \(bind: conversation.updatedAt))
                """
            ).run()
        }
    }

    public func conversation(id: UUID, userID: UUID) async throws -> ConversationRecord? {
        try await database.read { sql in
            try await sql.raw(
                "SELECT * FROM conversations WHERE id = \(bind: id.text) AND user_id = \(bind: userID.text)"
            ).first()
        }.map(ConversationRecord.init(row:))
    }

    /// Newest first, at most `limit`.
    public func conversations(userID: UUID, limit: Int) async throws -> [ConversationRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM conversations WHERE user_id = \(bind: userID.text)
                ORDER BY updated_at DESC, id LIMIT \(bind: limit)
                """
            ).all()
        }.map(ConversationRecord.init(row:))
    }

    public func messageCount(conversationID: UUID) async throws -> Int {
        try await database.read { sql in
            try await sql.raw(
                "SELECT COUNT(*) AS n FROM conversation_messages WHERE conversation_id = \(bind: conversationID.text)"
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    public func messages(conversationID: UUID) async throws -> [ConversationMessage] {
        try await database.read { sql in
            try await sql.raw(
                "SELECT * FROM conversation_messages WHERE conversation_id = \(bind: conversationID.text) ORDER BY seq"
            ).all()
        }.map { row in
            ConversationMessage(
                seq: try row.decode(column: "seq", as: Int64.self), role: try row.decode(column: "role", as: String.self),
                content: try row.decode(column: "content", as: String.self),
                tools: try row.decode(column: "tools", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self))
        }
    }

    /// Appends the messages and saves the conversation's state, in one transaction; false when
    /// the conversation is full (`maxMessages`).
    public func append(
        _ messages: [ConversationMessage], to conversation: ConversationRecord, maxMessages: Int
    ) async throws -> Bool {
        try await database.transaction { sql in
            let last =
                try await sql.raw(
                    "SELECT MAX(seq) AS seq FROM conversation_messages WHERE conversation_id = \(bind: conversation.id.text)"
                ).first()?.decode(column: "seq", as: Int64?.self) ?? 0
            guard last + Int64(messages.count) <= Int64(maxMessages) else { return false }
            for (offset, message) in messages.enumerated() {
                try await sql.raw(
                    """
                    INSERT INTO conversation_messages (conversation_id, seq, role, content, tools, created_at)
                    VALUES (\(bind: conversation.id.text), \(bind: last + 1 + Int64(offset)), \(bind: message.role),
                            \(bind: message.content), \(bind: message.tools), \(bind: message.createdAt))
                    """
                ).run()
            }
            try await sql.raw(
                """
                UPDATE conversations SET group_id = \(bind: conversation.groupID?.text), title = \(bind: conversation.title),
                       pending = \(bind: conversation.pending), last_action = \(bind: conversation.lastAction),
                       updated_at = \(bind: conversation.updatedAt)
                WHERE id = \(bind: conversation.id.text) AND user_id = \(bind: conversation.userID.text)
                """
            ).run()
            return true
        }
    }

    /// Clears the line waiting for a yes if it is still `line`: true for the one turn that takes
    /// it, so that two yeses at once (a double submit, a retry) save it once.
    public func takePending(_ line: String, conversationID: UUID, userID: UUID) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE conversations SET pending = NULL
                WHERE id = \(bind: conversationID.text) AND user_id = \(bind: userID.text) AND pending = \(bind: line)
                RETURNING id
                """
            ).first() != nil
        }
    }

    /// Deletes a conversation of the account's; false when there is none of that id.
    public func delete(id: UUID, userID: UUID) async throws -> Bool {
        try await database.transaction { sql in
            guard
                try await sql.raw(
                    "SELECT id FROM conversations WHERE id = \(bind: id.text) AND user_id = \(bind: userID.text)"
                ).first() != nil
            else { return false }
            try await sql.raw("DELETE FROM conversation_messages WHERE conversation_id = \(bind: id.text)").run()
            try await sql.raw("DELETE FROM conversations WHERE id = \(bind: id.text)").run()
            return true
        }
    }

    /// Every conversation of an account, with its messages (the account is being deleted).
    static func deleteAll(userID: UUID, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            DELETE FROM conversation_messages
            WHERE conversation_id IN (SELECT id FROM conversations WHERE user_id = \(bind: userID.text))
            """
        ).run()
        try await sql.raw("DELETE FROM conversations WHERE user_id = \(bind: userID.text)").run()
    }
}

extension ConversationRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), userID: try row.decodeUUID("user_id"),
            groupID: try row.decode(column: "group_id", as: String?.self).flatMap(UUID.init(text:)),
            title: try row.decode(column: "title", as: String.self),
            pending: try row.decode(column: "pending", as: String?.self),
            lastAction: try row.decode(column: "last_action", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}
