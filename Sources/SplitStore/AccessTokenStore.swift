import Foundation
import SQLKit
import SplitCore

/// What a personal access token (issue 21) may do: read, or read and write; in every group of
/// its account or only in some. Kept on its row of `sessions` (migration 0028), so a token is
/// resolved, expires, is revoked and ends its live streams exactly as a login does.
public struct TokenAccess: Sendable, Equatable {
    public enum Scope: String, Sendable, CaseIterable, Comparable {
        case read
        case write

        public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var name: String
    public var scopes: Set<Scope>
    /// nil: every group of the account, also ones joined later.
    public var groupIDs: Set<UUID>?

    public init(name: String, scopes: Set<Scope>, groupIDs: Set<UUID>?) {
        self.name = name
        self.scopes = scopes
        self.groupIDs = groupIDs
    }

    public var canWrite: Bool { scopes.contains(.write) }

    /// Whether the token reaches this group (its account's membership is checked besides).
    public func reaches(_ groupID: UUID) -> Bool { groupIDs?.contains(groupID) ?? true }

    var scopesText: String { scopes.sorted().map(\.rawValue).joined(separator: ",") }
    var groupIDsText: String? { groupIDs.map { $0.map(\.text).sorted().joined(separator: ",") } }

    /// From a row's columns; nil for a login (no scopes).
    init?(name: String?, scopes: String?, groupIDs: String?) throws {
        guard let scopes else { return nil }
        self.name = name ?? ""
        self.scopes = Set(scopes.split(separator: ",").compactMap { Scope(rawValue: String($0)) })
        self.groupIDs = try groupIDs.map { text in
            Set(
                try text.split(separator: ",").map { part in
                    guard let id = UUID(text: String(part)) else { throw StoredTokenError.badGroupID(String(part)) }
                    return id
                })
        }
    }
}

enum StoredTokenError: Error {
    case badGroupID(String)
}

/// The access tokens of an account: listed apart from its logins.
public struct AccessTokenStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The account's tokens that are not revoked, expired ones too (the page says so), newest first.
    public func tokens(userID: UUID) async throws -> [SessionRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM sessions WHERE user_id = \(bind: userID.text) AND revoked_at IS NULL AND scopes IS NOT NULL
                ORDER BY created_at DESC, id
                """
            ).all()
        }.map { try SessionRecord(row: $0) }
    }

    /// How many tokens the account has that still work.
    public func liveCount(userID: UUID, now: Int64) async throws -> Int {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT COUNT(*) AS n FROM sessions
                WHERE user_id = \(bind: userID.text) AND revoked_at IS NULL AND scopes IS NOT NULL AND expires_at > \(bind: now)
                """
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}
