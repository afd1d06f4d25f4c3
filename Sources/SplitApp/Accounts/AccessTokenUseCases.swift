import Foundation
import SplitCore
import SplitStore

/// What a person asks for when they make a token.
public struct EnteredAccessToken: Sendable, Equatable {
    public var name: String
    public var scopes: [String]
    public var groupIds: [String]?
    /// Epoch milliseconds; nil: until revoked.
    public var expiresAt: Int64?

    public init(name: String, scopes: [String], groupIds: [String]? = nil, expiresAt: Int64? = nil) {
        self.name = name
        self.scopes = scopes
        self.groupIds = groupIds
        self.expiresAt = expiresAt
    }
}

/// A token as its owner sees it, never its secret.
public struct AccessTokenView: Sendable, Equatable {
    public var id: UUID
    public var access: TokenAccess
    public var createdAt: Int64
    /// nil: never used.
    public var lastUsedAt: Int64?
    /// nil: until revoked.
    public var expiresAt: Int64?
    public var isExpired: Bool
}

/// Personal access tokens (issue 21): for scripts, the command line and MCP clients, with the
/// API's bearer header. Made, listed and revoked only by a login (never by a token); the secret
/// is shown once and only its SHA-256 kept, like a session's. A read token is refused every
/// write; a token for some groups sees only those and nothing that spans the account.
public struct AccessTokenUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    /// Tokens that still work, per account.
    public static let perAccount = 50
    /// Expiry is at most a year ahead; a token without one lasts until revoked.
    public static let longestLife: Int64 = 366 * 86_400_000
    /// What "until revoked" is stored as: the end of year 9999.
    static let never: Int64 = 253_402_300_799_999

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    /// Makes a token; returns it as listed and its secret (shown this once).
    public func create(_ entered: EnteredAccessToken, caller: Caller) async throws -> (AccessTokenView, secret: String) {
        try caller.requireLogin()
        let current = now()
        let access = try await validated(entered, caller: caller)
        if let expiresAt = entered.expiresAt {
            guard expiresAt > current, expiresAt <= current + Self.longestLife else {
                throw AppError.invalid(field: "expiresAt", message: "A token expires in the future, at most a year from now.")
            }
        }
        guard try await tokens.liveCount(userID: caller.user.id, now: current) < Self.perAccount else {
            throw AppError.conflict(
                code: "too_many_tokens", field: nil,
                message: "An account has at most \(Self.perAccount) tokens; revoke one you no longer use.")
        }
        let secret = "spt_" + SessionToken.generate()
        let record = SessionRecord(
            id: UUID.random(), userID: caller.user.id, tokenHash: SessionToken.hash(secret), createdAt: current,
            // Before it was made: "never used" (found by review: a new token read as used), and
            // its first use is written however soon it comes (`lastUsedPrecision`).
            lastUsedAt: current - AccountStore.lastUsedPrecision, expiresAt: entered.expiresAt ?? Self.never,
            access: access)
        try await accounts.createSession(record)
        return (Self.view(record, now: current), secret)
    }

    public func list(caller: Caller) async throws -> [AccessTokenView] {
        try caller.requireLogin()
        let current = now()
        return try await tokens.tokens(userID: caller.user.id).map { Self.view($0, now: current) }
    }

    /// Revokes a token of the caller's: it stops working at once, its live streams end.
    public func revoke(_ text: String, caller: Caller) async throws {
        try caller.requireLogin()
        guard let id = UUID(uuidString: text),
            try await accounts.revokeSession(id: id, userID: caller.user.id, now: now(), accessToken: true)
        else { throw AppError.notFound("token") }
    }

    private func validated(_ entered: EnteredAccessToken, caller: Caller) async throws -> TokenAccess {
        let name = try Names.name(entered.name, field: "name")
        var scopes = Set<TokenAccess.Scope>()
        for text in entered.scopes {
            guard let scope = TokenAccess.Scope(rawValue: text.lowercased()) else {
                throw AppError.invalid(field: "scopes", message: "Scopes are read and write; “\(text.prefix(40))” is neither.")
            }
            scopes.insert(scope)
        }
        guard !scopes.isEmpty else {
            throw AppError.invalid(field: "scopes", message: "Give a token read, or read and write.")
        }
        // Writing needs reading (a write answers with what it wrote).
        if scopes.contains(.write) { scopes.insert(.read) }
        var groupIDs: Set<UUID>?
        if let texts = entered.groupIds {
            guard !texts.isEmpty, texts.count <= GroupBounds.groupsPerUser else {
                throw AppError.invalid(
                    field: "groupIds", message: "Name at least one group, or leave groupIds out for all of them.")
            }
            let mine = Set(try await groups.groups(ofUser: caller.user.id).filter { $0.member.isActive }.map(\.group.id))
            var ids = Set<UUID>()
            for text in texts {
                guard let id = UUID(uuidString: text), mine.contains(id) else {
                    throw AppError.invalid(field: "groupIds", message: "“\(text.prefix(40))” is not a group you are in.")
                }
                ids.insert(id)
            }
            groupIDs = ids
        }
        return TokenAccess(name: name, scopes: scopes, groupIDs: groupIDs)
    }

    static func view(_ record: SessionRecord, now: Int64) -> AccessTokenView {
        AccessTokenView(
            id: record.id, access: record.access ?? TokenAccess(name: "", scopes: [], groupIDs: nil),
            createdAt: record.createdAt, lastUsedAt: record.lastUsedAt < record.createdAt ? nil : record.lastUsedAt,
            expiresAt: record.expiresAt >= never ? nil : record.expiresAt, isExpired: record.expiresAt <= now)
    }
}
