import ArgumentParser
import Foundation
import SplitClient

struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Your inbox: what others did that concerns you, across your groups; mark it read; choose per group.",
        discussion: """
            What reaches the inbox: an expense you share or paid, your share
            marked paid or unpaid, a transfer to or from you, being added,
            removed or given a role — never your own actions. A group set to
            `all` sends everything done there, one set to `none` nothing
            (`splitter notifications settings --group <group> --level ...`).

            Without a subcommand, lists the newest (as `notifications list`).
            """,
        subcommands: [List.self, Read.self, Settings.self, Email.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The newest notifications (20 unless told), unread ones marked *, and how many are unread.",
            discussion: """
                Columns: when (UTC), * when unread, the group, what happened, and the
                id (its last 8 characters) to give `splitter notifications read`.
                Listing marks nothing read.

                With --json: {"notifications": [...], "unread": N, "more": bool}, each
                notification with id, groupId, groupName, action, actorName, entity,
                entityId, summary, at and read; unread counts the whole inbox, more
                says whether older ones were left out.
                """)
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Every notification, page after page, not only the newest.") var all = false
        @Flag(help: "Only the unread ones.") var unread = false
        @Option(help: "How many of the newest (default 20).") var limit: Int?

        /// What `--json` prints.
        struct Listed: Encodable {
            var notifications: [InboxItem]
            var unread: Int
            var more: Bool
        }

        func run() async throws {
            try await SplitterCLI.run {
                if let limit, limit < 1 { throw CLIError(message: "--limit is at least 1.", code: 2) }
                if all, limit != nil { throw CLIError(message: "Give --all or --limit, not both.", code: 2) }
                let listed = try await Self.list(
                    try options.client(), limit: all ? nil : (limit ?? 20), unreadOnly: unread)
                if options.json { return try Output.json(listed) }
                guard !listed.notifications.isEmpty else {
                    return print(unread ? "No unread notifications." : "No notifications.")
                }
                Output.table(
                    ["WHEN", "NEW", "GROUP", "WHAT", "ID"],
                    listed.notifications.map {
                        [timestamp($0.at), $0.isRead ? "" : "*", $0.groupName, $0.summary, short($0.id)]
                    })
                if listed.more {
                    print(
                        "Newest \(listed.notifications.count)\(unread ? " unread" : "") shown; --all lists every one.")
                }
                print(
                    listed.unread == 0
                        ? "Nothing unread."
                        : "\(listed.unread) unread; `splitter notifications read --all` marks them read.")
            }
        }

        /// The newest `limit` notifications (all of them when nil), only unread ones when asked:
        /// page after page, stopping as soon as nothing more can be shown.
        static func list(_ client: SplitterClient, limit: Int?, unreadOnly: Bool) async throws -> Listed {
            var shown: [InboxItem] = []
            var unread: Int?
            var cursor: String?
            repeat {
                let wanted = limit.map { $0 - shown.count } ?? 200
                // Unread ones may be few among many: read big pages for them.
                let page = try await client.notifications(cursor: cursor, limit: unreadOnly ? 200 : min(200, wanted))
                unread = unread ?? page.unread
                shown += unreadOnly ? page.items.filter { !$0.isRead } : page.items
                cursor = page.nextCursor
            } while cursor != nil && shown.count < (limit ?? .max) && !(unreadOnly && shown.count >= (unread ?? 0))
            let total = unread ?? 0
            var more = cursor != nil && !(unreadOnly && shown.count >= total)
            if let limit, shown.count > limit {
                shown = Array(shown.prefix(limit))
                more = true
            }
            return Listed(notifications: shown, unread: total, more: more)
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark notifications read (by id or its last characters, or --all); prints how many stay unread.")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Mark every notification read.") var all = false
        @Argument(
            help: "Notification ids, or their last characters (at least 4), as `splitter notifications` shows them.")
        var ids: [String] = []

        func run() async throws {
            try await SplitterCLI.run {
                if all, !ids.isEmpty { throw CLIError(message: "Give ids or --all, not both.", code: 2) }
                if !all, ids.isEmpty {
                    throw CLIError(
                        message: "Give the ids to mark (as `splitter notifications` shows them), or --all.", code: 2)
                }
                let client = try options.client()
                let unread =
                    all
                    ? try await client.markAllNotificationsRead()
                    : try await client.markNotificationsRead(ids: try await Self.resolve(ids, client))
                if options.json { return try Output.json(["unread": unread]) }
                // Said as what was done (found by a new user: --all answered "Nothing unread.").
                print(unread == 0 ? (all ? "All marked read." : "Marked read; nothing unread left.") : "Marked read; \(unread) unread left.")
            }
        }

        /// Full ids as given; the end of one is looked up in the inbox, and must name exactly one.
        static func resolve(_ texts: [String], _ client: SplitterClient) async throws -> [String] {
            let endings = texts.filter { UUID(uuidString: $0) == nil }.map { $0.lowercased() }
            if let tooShort = endings.first(where: { $0.count < 4 }) {
                throw CLIError(message: "\"\(tooShort)\": give at least 4 characters of the notification id.", code: 2)
            }
            var matches: [String: Set<String>] = [:]
            var cursor: String?
            // Read the inbox until every ending is known to name one notification, or two (then
            // it is ambiguous and reading on cannot help).
            while !endings.isEmpty {
                let page = try await client.notifications(cursor: cursor, limit: 200)
                for item in page.items {
                    for ending in endings where isNamed(item.id, by: ending) {
                        matches[ending, default: []].insert(item.id.lowercased())
                    }
                }
                cursor = page.nextCursor
                if cursor == nil || endings.allSatisfy({ (matches[$0]?.count ?? 0) >= 2 }) { break }
            }
            return try texts.map { text in
                if UUID(uuidString: text) != nil { return text.lowercased() }
                return try single(
                    Array(matches[text.lowercased()] ?? []), none: "No notification \"\(text)\" in your inbox.",
                    several: "Several notifications end with \"\(text)\"; give more of the id.")
            }
        }
    }

    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or set how much of a group reaches your inbox: all, mine (the default) or none.",
            discussion: """
                all: everything anyone else does in the group. mine: what concerns you
                (an expense you share or paid, your share marked paid or unpaid, a
                transfer with you, your membership). none: nothing. Only your own
                setting; nobody else sees it. Notifications already in the inbox stay.
                """)
        @OptionGroup var options: GroupOption
        @Option(help: "all, mine or none; without it, shows the setting.") var level: String?

        func run() async throws {
            try await SplitterCLI.run {
                var chosen: NotificationLevel?
                if let level {
                    guard let parsed = NotificationLevel(rawValue: level.lowercased()) else {
                        throw CLIError(
                            message: "A notification level is all, mine or none (not \"\(level)\").", code: 2)
                    }
                    chosen = parsed
                }
                let (client, found) = try await options.resolve()
                let now =
                    if let chosen {
                        try await client.setNotificationLevel(chosen, groupID: found.id)
                    } else {
                        try await client.notificationLevel(groupID: found.id)
                    }
                if options.json {
                    return try Output.json(["group": found.name, "groupId": found.id, "level": now.rawValue])
                }
                let meaning =
                    switch now {
                    case .all: "everything others do there"
                    case .mine: "what concerns you"
                    case .none: "nothing"
                    }
                print("\(found.name): \(now.rawValue) — \(meaning) reaches your inbox.")
            }
        }
    }

    struct Email: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or set the notification mail you get: each, daily or off, and which kinds.",
            discussion: """
                each: a mail per notification (the default). daily: one digest a day,
                at --digest-hour (UTC), of what is still unread. off: none.
                Kinds: expenses, payments, members, group; --off turns kinds off,
                --on turns them back on. Mail goes only to a verified address:
                --send-verification mails you a new link, --verify TOKEN uses one
                (the part after /verify-email/). Nothing is mailed when the server
                has no mail relay.
                """)
        @OptionGroup var options: GlobalOptions
        @Option(help: "each, daily or off.") var mode: String?
        @Option(help: "Kinds to stop mailing, comma-separated: expenses,payments,members,group.") var off: String?
        @Option(help: "Kinds to mail again, comma-separated.") var on: String?
        @Option(help: "The hour (UTC, 0-23) a daily digest goes out.") var digestHour: Int?
        @Flag(help: "Mail me a new verification link.") var sendVerification = false
        @Option(help: "Verify my address with the token of its link.") var verify: String?

        func run() async throws {
            try await SplitterCLI.run {
                let chosenMode = try mode.map { text in
                    guard let parsed = EmailMode(rawValue: text.lowercased()) else {
                        throw CLIError(message: "A mail mode is each, daily or off (not \"\(text)\").", code: 2)
                    }
                    return parsed
                }
                let turnOff = try Self.kinds(off)
                let turnOn = try Self.kinds(on)
                if !turnOff.isDisjoint(with: turnOn) {
                    throw CLIError(message: "A kind is either --off or --on, not both.", code: 2)
                }
                if let digestHour, !(0...23).contains(digestHour) {
                    throw CLIError(message: "--digest-hour is an hour from 0 to 23 (UTC).", code: 2)
                }
                let client = try options.client()
                if let verify {
                    try await client.verifyEmail(token: verify)
                    if !options.json { print("Your address is verified.") }
                }
                if sendVerification {
                    try await client.requestEmailVerification()
                    if !options.json { print("A verification link is on its way; it works for 48 hours.") }
                }
                var settings = try await client.emailSettings()
                if chosenMode != nil || !turnOff.isEmpty || !turnOn.isEmpty || digestHour != nil {
                    settings = try await client.updateEmailSettings(
                        mode: chosenMode, off: settings.off.union(turnOff).subtracting(turnOn), digestHour: digestHour)
                }
                if options.json { return try Output.json(settings) }
                guard let email = settings.email else {
                    return print("Your account has a phone number only, so no mail is sent to you.")
                }
                print("\(email) (\(settings.verified ? "verified" : "not verified"))")
                if !settings.sending { print("This server sends no mail.") }
                let mail =
                    switch settings.mode {
                    case .each: "a mail for each notification"
                    case .daily: "one digest a day at \(String(format: "%02d", settings.digestHour)):00 UTC"
                    case .off: "no mail"
                    }
                print("Notification mail: \(mail)")
                let kinds = MailKind.allCases.map { "\($0.rawValue) \(settings.off.contains($0) ? "off" : "on")" }
                print("Kinds: \(kinds.joined(separator: ", "))")
                if settings.sending, !settings.verified {
                    print("Mail goes only to a verified address: `splitter notifications email --send-verification`.")
                }
            }
        }

        static func kinds(_ text: String?) throws -> Set<MailKind> {
            guard let text else { return [] }
            return Set(
                try text.split(separator: ",").map { part in
                    let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                    guard let kind = MailKind(rawValue: name) else {
                        throw CLIError(
                            message: "A mail kind is expenses, payments, members or group (not \"\(name)\").", code: 2)
                    }
                    return kind
                })
        }
    }
}
