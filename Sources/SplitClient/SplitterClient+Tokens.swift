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
    public var lastUsedAt: Date
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
        switch try await send({ try await api.createAccessToken(body: .json(body)) }) {
        case .created(let created):
            let json = try created.body.json
            return (AccessToken(json.token), json.secret)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func accessTokens() async throws -> [AccessToken] {
        switch try await send({ try await api.listAccessTokens() }) {
        case .ok(let ok): return try ok.body.json.tokens.map(AccessToken.init)
        case .default(let status, let error): throw Self.failure(status, error)
        }
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
        switch try await send({ try await api.revokeAccessToken(path: .init(tokenId: id)) }) {
        case .noContent: return
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }
}

extension AccessToken {
    init(_ wire: Components.Schemas.AccessToken) {
        self.init(
            id: wire.id, name: wire.name, scopes: wire.scopes.map(\.rawValue), groupIds: wire.groupIds,
            createdAt: wire.createdAt, lastUsedAt: wire.lastUsedAt, expiresAt: wire.expiresAt, isExpired: wire.isExpired)
    }
}
