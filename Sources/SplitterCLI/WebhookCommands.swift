import ArgumentParser
import Foundation
import SplitClient

struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "A group's webhooks (owner, admin): URLs that receive its activity as signed JSON.",
        discussion: """
            Each change in the group of a chosen kind (expense.created,
            share.marked_paid, member.added … or * for all) is POSTed as JSON to
            the URL, signed with the webhook's secret in the Splitter-Signature
            header (t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">), and
            retried for 24 hours. A webhook that fails for 24 hours is turned off;
            `update --enable` turns it on again. The secret is printed once, by
            `add` and `rotate`. Webhooks are named by id or its last characters.

            Without a subcommand, lists them (as `webhooks list`).
            """,
        subcommands: [List.self, Add.self, Update.self, Remove.self, Rotate.self, Ping.self, Deliveries.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's webhooks (never their secrets).")
        @OptionGroup var options: GroupOption

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let hooks = try await client.webhooks(groupID: found.id)
                try Output.list(
                    hooks, as: "webhooks", json: options.json, empty: "No webhooks in \(found.name).",
                    ["ID", "STATE", "KINDS", "URL"]
                ) { hook in
                    let state =
                        !hook.enabled ? "off" : hook.failingSince != nil ? "failing" : "on"
                    return [short(hook.id), state, hook.kinds.joined(separator: ","), hook.url]
                }
                if options.json { return }
                for hook in hooks where !hook.enabled {
                    if let reason = hook.disabledReason { print("\(short(hook.id)): \(reason)") }
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a URL; prints its secret, which is not shown again.")
        @OptionGroup var options: GroupOption
        @Option(help: "Comma-separated activity kinds, or * for all (the default).") var kinds: String = "*"
        @Argument(help: "The https URL deliveries go to.") var url: String

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let created = try await client.createWebhook(
                    groupID: found.id, url: url, kinds: WebhooksCommand.kinds(kinds))
                if options.json { return try Output.json(created) }
                print("Webhook \(short(created.webhook.id)) added to \(found.name).")
                print("Secret (shown only now): \(created.secret)")
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a webhook's URL or kinds, or turn it off or on.")
        @OptionGroup var options: GroupOption
        @Option(help: "A new URL.") var url: String?
        @Option(help: "New comma-separated kinds, or *.") var kinds: String?
        @Flag(help: "Turn it on (again), forgetting its failures.") var enable = false
        @Flag(help: "Turn it off; deliveries still waiting are skipped.") var disable = false
        @Argument(help: "The webhook's id or its last characters.") var webhook: String

        func run() async throws {
            try await SplitterCLI.run {
                if enable, disable { throw CLIError(message: "Give --enable or --disable, not both.", code: 2) }
                if url == nil, kinds == nil, !enable, !disable {
                    throw CLIError(message: "Say what to change: --url, --kinds, --enable or --disable.", code: 2)
                }
            }
            try await WebhooksCommand.act(options, webhook) { client, groupID, id in
                let updated = try await client.updateWebhook(
                    id: id, groupID: groupID, url: url, kinds: kinds.map(WebhooksCommand.kinds),
                    enabled: enable ? true : disable ? false : nil)
                return (updated, "Webhook \(short(updated.id)) is \(updated.enabled ? "on" : "off"): \(updated.url)")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a webhook; waiting deliveries are skipped.")
        @OptionGroup var options: GroupOption
        @Argument(help: "The webhook's id or its last characters.") var webhook: String

        func run() async throws {
            try await WebhooksCommand.act(options, webhook) { client, groupID, id in
                try await client.deleteWebhook(id: id, groupID: groupID)
                return (["deleted": id], "Webhook \(short(id)) deleted.")
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A new secret for a webhook, printed once; the old one stops at once.")
        @OptionGroup var options: GroupOption
        @Argument(help: "The webhook's id or its last characters.") var webhook: String

        func run() async throws {
            try await WebhooksCommand.act(options, webhook) { client, groupID, id in
                let rotated = try await client.rotateWebhookSecret(id: id, groupID: groupID)
                return (rotated, "New secret (shown only now): \(rotated.secret)")
            }
        }
    }

    struct Ping: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue a test delivery (type ping); `webhooks deliveries` shows how it went.")
        @OptionGroup var options: GroupOption
        @Argument(help: "The webhook's id or its last characters.") var webhook: String

        func run() async throws {
            try await WebhooksCommand.act(options, webhook) { client, groupID, id in
                let delivery = try await client.pingWebhook(id: id, groupID: groupID)
                return (delivery, "Test delivery \(short(delivery.id)) queued.")
            }
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A webhook's delivery log, newest first: state, attempts, last status or error.")
        @OptionGroup var options: GroupOption
        @Option(help: "How many of the newest (default 20, at most 200).") var limit: Int = 20
        @Argument(help: "The webhook's id or its last characters.") var webhook: String

        func run() async throws {
            try await SplitterCLI.run {
                guard (1...200).contains(limit) else { throw CLIError(message: "--limit is 1 to 200.", code: 2) }
                let (client, groupID, id) = try await WebhooksCommand.target(options, webhook)
                let page = try await client.webhookDeliveries(id: id, groupID: groupID, limit: limit)
                if options.json { return try Output.json(page) }
                guard !page.deliveries.isEmpty else { return print("Nothing sent yet.") }
                Output.table(
                    ["WHEN", "TYPE", "STATE", "TRIES", "LAST"],
                    page.deliveries.map { delivery in
                        // A failure's error names its status already ("HTTP 500: …"; found by
                        // review: "HTTP 500 HTTP 500: ok").
                        let status = delivery.lastStatus.map { "HTTP \($0)" }
                        let last = (delivery.state == .delivered ? status : delivery.lastError ?? status) ?? ""
                        return [
                            timestamp(delivery.lastAttemptAt ?? delivery.createdAt), delivery.type,
                            delivery.state.rawValue, String(delivery.attempts), String(last.prefix(60)),
                        ]
                    })
            }
        }
    }

    /// "expense.created,settlement.recorded" → the list the server checks; "*" for all.
    static func kinds(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The client, the group's id and the webhook's, for a command about one webhook. (The
    /// webhook stays each command's last argument, after its options, as its usage shows.)
    static func target(_ options: GroupOption, _ webhook: String) async throws
        -> (SplitterClient, groupID: String, id: String)
    {
        let (client, found) = try await options.resolve()
        return (client, found.id, try await resolve(webhook, client, groupID: found.id))
    }

    /// A command that does one thing to one webhook: what `act` answers, as JSON or as its sentence.
    static func act<Answer: Encodable>(
        _ options: GroupOption, _ webhook: String,
        _ act: (SplitterClient, _ groupID: String, _ id: String) async throws -> (Answer, said: String)
    ) async throws {
        try await SplitterCLI.run {
            let (client, groupID, id) = try await target(options, webhook)
            let (answer, said) = try await act(client, groupID, id)
            if options.json { return try Output.json(answer) }
            print(said)
        }
    }

    /// A full id as given; the end of one (at least 4 characters) must name exactly one webhook.
    static func resolve(_ text: String, _ client: SplitterClient, groupID: String) async throws -> String {
        if UUID(uuidString: text) != nil { return text.lowercased() }
        guard text.count >= 4 else {
            throw CLIError(message: "\"\(text)\": give at least 4 characters of the webhook id.", code: 2)
        }
        let found = try await client.webhooks(groupID: groupID).filter {
            isNamed($0.id, by: text)
        }
        return try single(
            found, none: "No webhook \"\(text)\" in this group.",
            several: "Several webhooks end with \"\(text)\"; give more of the id."
        ).id
    }
}
