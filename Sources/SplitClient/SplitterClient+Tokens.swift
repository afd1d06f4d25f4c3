import Foundation
internal import SplitAPI

/// A personal access token as its owner sees it (never its secret).
public struct AccessToken: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    /// `read`, or `read` and `write`.
    public var scopes: [String]
    /// The only groups it sees; nil for all of the account's.
    public var groupIds: [String]?
    public var createdAt: Date
    /// To the minute.
    /// nil: never used.
    public var lastUsedAt: Date?
    /// nil: until revoked.
    public var expiresAt: Date?
    public var isExpired: Bool
}

/// Personal access tokens (issue 21): for scripts, the command line and MCP clients. Only a
/// login makes, lists and revokes them; the secret comes back once.
extension SplitterClient {
    /// Makes a token; returns it and its secret (send it as the bearer token; it is not shown again).
    public func createAccessToken(
        name: String, write: Bool = false, groupIds: [String]? = nil, expiresAt: Date? = nil
    ) async throws -> (token: AccessToken, secret: String) {
        let body = Components.Schemas.NewAccessToken(
            name: name, scopes: write ? [.read, .write] : [.read], groupIds: groupIds, expiresAt: expiresAt)
        return try await call({ try await api.createAccessToken(body: .json(body)) }) { output in
            let json = try output.created.body.json
            return (AccessToken(json.token), json.secret)
        }
    }

    public func accessTokens() async throws -> [AccessToken] {
        try await call({ try await api.listAccessTokens() }) { try $0.ok.body.json.tokens.map(AccessToken.init) }
    }

    /// Uses a personal access token from now on (kept in the token store as a login's is),
    /// once the server has said whose it is; a token it refuses is not kept.
    public func useAccessToken(_ secret: String) async throws -> User {
        let before = try tokens.load()
        try tokens.save(secret.trimmingCharacters(in: .whitespacesAndNewlines))
        do {
            return try await me()
        } catch {
            try? tokens.save(before)
            throw error
        }
    }

    /// Revokes one of this account's tokens: it stops working at once.
    public func revokeAccessToken(id: String) async throws {
        try await call({ try await api.revokeAccessToken(path: .init(tokenId: id)) }) { _ = try $0.noContent }
    }
}

extension AccessToken {
    init(_ wire: Components.Schemas.AccessToken) {
        self.init(
            id: wire.id, name: wire.name, scopes: wire.scopes.map(\.rawValue), groupIds: wire.groupIds,
            createdAt: wire.createdAt, lastUsedAt: wire.lastUsedAt, expiresAt: wire.expiresAt, isExpired: wire.isExpired)
    }
}
