import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Personal access tokens (issue 21): `/api/tokens`.
extension APIHandler {
    func listAccessTokens(_ input: Operations.ListAccessTokens.Input) async throws -> Operations.ListAccessTokens.Output {
        let tokens = try await accessTokenUseCases.list(caller: try await authenticate())
        return .ok(.init(body: .json(.init(tokens: tokens.map(Components.Schemas.AccessToken.init)))))
    }

    func createAccessToken(_ input: Operations.CreateAccessToken.Input) async throws
        -> Operations.CreateAccessToken.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let (token, secret) = try await accessTokenUseCases.create(
            EnteredAccessToken(
                name: body.name, scopes: body.scopes.map(\.rawValue), groupIds: body.groupIds,
                expiresAt: body.expiresAt.map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) }),
            caller: caller)
        return .created(.init(body: .json(.init(token: .init(token), secret: secret))))
    }

    func revokeAccessToken(_ input: Operations.RevokeAccessToken.Input) async throws
        -> Operations.RevokeAccessToken.Output
    {
        try await accessTokenUseCases.revoke(input.path.tokenId, caller: try await authenticate())
        return .noContent(.init())
    }
}

extension Components.Schemas.AccessToken {
    init(_ token: AccessTokenView) {
        self.init(
            id: token.id.text, name: token.access.name,
            scopes: token.access.scopes.sorted().compactMap { .init(rawValue: $0.rawValue) },
            groupIds: token.access.groupIDs.map { $0.map(\.text).sorted() },
            createdAt: Date(milliseconds: token.createdAt), lastUsedAt: token.lastUsedAt.map { Date(milliseconds: $0) },
            expiresAt: token.expiresAt.map(Date.init(milliseconds:)), isExpired: token.isExpired)
    }
}
