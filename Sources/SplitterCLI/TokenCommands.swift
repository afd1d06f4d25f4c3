import ArgumentParser
import Foundation
import SplitClient

/// `splitter token create|list|revoke`: personal access tokens (issue 21) for scripts and MCP
/// clients. Made by a login; used with `splitter login --token-stdin` or as a bearer token.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Personal access tokens for scripts and MCP clients: make, list, revoke.",
        discussion: """
            A token reads (and with --write, writes) what your login may, in all
            your groups or, with --group, only in some; it can never change your
            password, logins, tokens or account. The secret is printed once.
            Use it as `Authorization: Bearer <secret>`, or on another profile
            with `splitter login --token-stdin`.
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a token and print its secret (once).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "A name to know it by, e.g. \"laptop scripts\".") var name: String
        @Flag(help: "Let it write too (add expenses, mark paid …); without it, it only reads.") var write = false
        @Option(name: .customLong("group"), help: "Only this group (name or id); repeat for more. Default: all.")
        var groups: [String] = []
        @Option(help: "Days until it stops working (1–366). Default: until revoked.") var expiresInDays: Int?

        func validate() throws {
            if let days = expiresInDays, !(1...366).contains(days) {
                throw ValidationError("--expires-in-days is 1 to 366.")
            }
        }

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                var ids: [String]?
                if !groups.isEmpty {
                    var found: [String] = []
                    for group in groups { found.append(try await resolveGroup(client, group).id) }
                    ids = found
                }
                let (token, secret) = try await client.createAccessToken(
                    name: name, write: write, groupIds: ids,
                    expiresAt: expiresInDays.map { Date().addingTimeInterval(Double($0) * 86_400) })
                if options.json {
                    struct Made: Encodable {
                        var token: AccessToken
                        var secret: String
                    }
                    return try Output.json(Made(token: token, secret: secret))
                }
                print(secret)
                // The secret is out before the sentence that points "above" at it, even when both
                // go to one pipe (stdout is buffered there, stderr is not).
                fflush(nil)
                FileHandle.standardError.write(
                    Data(
                        "Made \(token.name) (\(token.scopes.joined(separator: "+"))). Keep the secret above: it is not shown again.\n"
                            .utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "This account's tokens (not their secrets).")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await SplitterCLI.run {
                try Output.list(
                    try await options.client().accessTokens(), json: options.json, empty: "No tokens.",
                    ["NAME", "SCOPES", "GROUPS", "LAST USED", "EXPIRES", "ID"]
                ) {
                    [
                        $0.name, $0.scopes.joined(separator: "+"), $0.groupIds.map { "\($0.count)" } ?? "all",
                        $0.lastUsedAt.map(timestamp) ?? "never",
                        $0.isExpired ? "expired" : $0.expiresAt.map(timestamp) ?? "never", $0.id,
                    ]
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a token working, at once.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The token's id (or its last characters) or its name.") var token: String

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                let tokens = try await client.accessTokens()
                let matches = tokens.filter {
                    isNamed($0.id, by: token) || $0.name.lowercased() == token.lowercased()
                }
                let target = try single(
                    matches, none: "No token has the id or name \(token).",
                    several: "Several tokens match \(token): give more of the id.")
                try await client.revokeAccessToken(id: target.id)
                if !options.json { print("Revoked \(target.name).") }
            }
        }
    }
}
