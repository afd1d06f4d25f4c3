import Foundation
import Hummingbird
import SplitApp
import SplitCore
import SplitStore

/// Personal access tokens on the web (issue 21), from the account page: the list with scopes,
/// groups, last use and expiry, each with Revoke; a form to make one, whose secret is shown on
/// the page that answers it, once.
extension WebApp {
    struct TokensBody: Sendable {
        struct Token: Sendable {
            let id: String
            let name: String
            let scopes: String
            let groups: String
            let lastUsed: String
            let expires: String
            let expired: Bool
        }
        struct Choice: Sendable {
            let value: String
            let label: String
            let checked: Bool
        }
        let tokens: [Token]
        let groups: [Choice]
        let lifetimes: [Choice]
        let name: String
        let write: Bool
        /// The secret of the token just made: shown this once.
        let secret: String?
        let madeName: String?
        let errors: [String: String]
    }

    static let tokenLifetimes: [(String, String)] = [
        ("30", "30 days"), ("90", "90 days"), ("366", "A year"), ("", "Until I revoke it"),
    ]

    func tokensPage(_ request: Request) async throws -> Response {
        try await tokensPage()
    }

    private func tokensPage(
        made: (name: String, secret: String)? = nil, errors: [String: String] = [:], entered: WebForm? = nil
    ) async throws -> Response {
        let caller = try caller()
        let groups = try await api.groupUseCases.groups(of: caller).filter { $0.me.isActive }
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.group.id, $0.group.name) })
        let chosen = Set(entered?.values("groupIds") ?? [])
        let lifetime = entered?["expiresInDays"] ?? "90"
        let body = TokensBody(
            tokens: try await api.accessTokenUseCases.list(caller: caller).map { token in
                TokensBody.Token(
                    id: token.id.text, name: token.access.name,
                    scopes: token.access.canWrite ? "Reads and writes" : "Reads only",
                    groups: token.access.groupIDs.map { ids in
                        ids.map { names[$0] ?? "a group you left" }.sorted().joined(separator: ", ")
                    } ?? "All your groups",
                    lastUsed: token.lastUsedAt.map { ZonedTime.dateTime(Date(milliseconds: $0)) } ?? "never",
                    expires: token.expiresAt.map { ZonedTime.dateTime(Date(milliseconds: $0)) } ?? "never",
                    expired: token.isExpired)
            },
            groups: groups.map { .init(value: $0.group.id.text, label: $0.group.name, checked: chosen.contains($0.group.id.text)) },
            lifetimes: Self.tokenLifetimes.map { .init(value: $0.0, label: $0.1, checked: $0.0 == lifetime) },
            name: entered?["name"] ?? "", write: entered?["write"] != nil, secret: made?.secret, madeName: made?.name,
            errors: errors)
        return try await render(
            "tokens", title: "Access tokens", body: body, errors: errors, errorOrder: ["name", "groupIds", "expiresAt"])
    }

    func createToken(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let groups = form.values("groupIds")
        do {
            let days = Int(form["expiresInDays"] ?? "")
            let (token, secret) = try await api.accessTokenUseCases.create(
                EnteredAccessToken(
                    name: form["name"] ?? "", scopes: form["write"] != nil ? ["read", "write"] : ["read"],
                    groupIds: groups.isEmpty ? nil : groups,
                    expiresAt: days.map { api.now() + Int64(min(max($0, 1), 366)) * 86_400_000 }),
                caller: try caller())
            return try await tokensPage(made: (token.access.name, secret))
        } catch {
            let errors = try Self.formErrors(error, shown: ["name", "groupIds", "expiresAt"])
            return try await tokensPage(errors: errors, entered: form)
        }
    }

    func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await api.accessTokenUseCases.revoke(try context.parameters.require("tokenId"), caller: try caller())
        } catch AppError.notFound {
            return Self.redirect("/account/tokens")
        }
        return Self.redirect("/account/tokens", done: "token-revoked")
    }
}
