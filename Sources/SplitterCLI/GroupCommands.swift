import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// A command about one group: the options every command takes and the group it names.
protocol GroupChoice {
    var global: GlobalOptions { get }
    /// The group's name or id, as given.
    var group: String { get }
}

extension GroupChoice {
    var json: Bool { global.json }
    func client() throws -> SplitterClient { try global.client() }

    /// The client and the group named.
    func resolve() async throws -> (client: SplitterClient, group: Group) {
        let client = try global.client()
        return (client, try await resolveGroup(client, group))
    }
}

/// The group as the first argument: `splitter recurring list Japan`.
struct GroupOptions: ParsableArguments, GroupChoice {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Group name or id.") var group: String
}

/// The group as an option: `splitter webhooks list --group Japan`.
struct GroupOption: ParsableArguments, GroupChoice {
    @OptionGroup var global: GlobalOptions
    @Option(help: "Group name or id.") var group: String
}

/// A group named by id or by its name (any case) among mine; from the offline cache when the
/// server cannot be reached and a store is given.
func resolveGroup(_ client: SplitterClient, _ text: String, store: OfflineStore? = nil) async throws -> Group {
    let groups: [Group]
    do {
        groups = try await client.groups()
        try? store?.cache(groups: groups)
    } catch SplitterError.offline(let reason) {
        // A group the offline copy does not know may well exist (made online and not used since):
        // that the server cannot be reached is the answer, not "no such group".
        guard let cached = try store?.cachedGroups(),
            cached.contains(where: { $0.id == text.lowercased() || AccountInput.nameKey($0.name) == AccountInput.nameKey(text) })
        else { throw SplitterError.offline(reason) }
        groups = cached
    }
    if let match = groups.first(where: { $0.id == text.lowercased() }) { return match }
    return try single(
        // A name as typed: any case, any run of spaces (names are stored with one).
        groups.filter { AccountInput.nameKey($0.name) == AccountInput.nameKey(text) }, none: "You have no group \"\(text)\".",
        several: "Several groups are called \"\(text)\"; use its id.", severalCode: 5)
}

/// The group's members, cached for offline use; from the cache when the server cannot be reached.
func members(_ client: SplitterClient, groupID: String, store: OfflineStore?) async throws -> [Member] {
    do {
        let members = try await client.members(groupID: groupID)
        try? store?.cache(members: members, groupID: groupID)
        return members
    } catch SplitterError.offline(let reason) {
        guard let cached = try store?.cachedMembers(groupID: groupID), !cached.isEmpty else {
            throw SplitterError.offline(reason)
        }
        return cached
    }
}

/// What most commands start from: the client, the group named on the command line, its
/// members (names from the offline cache when the server cannot be reached).
struct GroupContext {
    let client: SplitterClient
    let store: OfflineStore
    let group: Group
    let members: [Member]

    init(_ options: some GroupChoice) async throws {
        try await self.init(client: try options.client(), store: try options.global.store(), group: options.group)
    }

    init(client: SplitterClient, store: OfflineStore, group text: String) async throws {
        self.client = client
        self.store = store
        group = try await resolveGroup(client, text, store: store)
        members = try await SplitterCLI.members(client, groupID: group.id, store: store)
    }

    /// Member names by id, for tables; a removed member is marked (beside a new member of the
    /// same name they could not be told apart).
    var names: [String: String] {
        Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0.label) })
    }

    /// A member by name or id, or "me" for the caller's own member.
    func member(_ text: String) throws -> Member {
        if text.lowercased() == "me", let mine = members.first(where: { $0.id == group.myMemberId }) { return mine }
        return try resolveMember(members, text)
    }
}

/// A member named by id or by name (any case; without its accents when no name matches as typed:
/// "chloe" is Chloé, as quick entry and the assistant read it; found by review).
func resolveMember(_ members: [Member], _ text: String) throws -> Member {
    if let match = members.first(where: { $0.id == text.lowercased() }) { return match }
    let folded = QuickEntry.folded
    var named = members.filter { AccountInput.nameKey($0.name) == AccountInput.nameKey(text) && $0.active }
    if named.isEmpty { named = members.filter { folded($0.name) == folded(text) && $0.active } }
    // A removed member is found by name too when nobody active has it (to restore them, say).
    if named.isEmpty { named = members.filter { folded($0.name) == folded(text) } }
    return try single(
        named, none: "No member \"\(text)\" in this group.",
        several: "Several members are called \"\(text)\"; use an id.", noneCode: 7)
}

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Create, list, show, join, edit and archive groups.",
        subcommands: [
            Create.self, List.self, Show.self, Join.self, Invite.self, Leave.self, Edit.self, Archive.self,
            Unarchive.self,
        ])

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Leave a group (any member but the owner); your shares and balance stay in it.",
            discussion: "The group's invite code brings you back as yourself.")
        @OptionGroup var options: GroupOptions
        @Flag(help: "Leave even though you owe or are owed money.") var confirmBalance = false

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let left: Member
                do {
                    left = try await client.removeMember(
                        groupID: found.id, memberID: found.myMemberId, confirmBalance: confirmBalance)
                } catch SplitterError.conflict(let message, "confirmBalance", _) where !confirmBalance {
                    // The server asks "Leave anyway?": say how, on the command line.
                    throw CLIError(message: "\(message) Run again with --confirm-balance to do so.", code: 6)
                }
                // The offline copy forgets it too: it no longer answers for the group.
                if let store = try? options.global.store(), let groups = try? await client.groups() {
                    try? store.cache(groups: groups)
                }
                if options.json { return try Output.json(left) }
                print("You left \(found.name).")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group; you become its owner.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The group's name.") var name: String
        @Option(help: "Home currency (ISO code).") var currency: String = "USD"
        @Option(help: "The group's time zone, e.g. Asia/Tokyo (default: this computer's, when the server knows it).")
        var timeZone: String?
        @Flag(help: "A personal expense book: just you, everyday categories (groceries, rent, bills…).")
        var personal = false

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                let group: Group
                if let timeZone {
                    group = try await client.createGroup(
                        name: name, homeCurrency: currency, timeZone: timeZone, personal: personal)
                } else {
                    // This computer's zone, unless the server does not know its name: then UTC.
                    do {
                        group = try await client.createGroup(
                            name: name, homeCurrency: currency, timeZone: TimeZone.current.identifier, personal: personal)
                    } catch SplitterError.validation(_, let field) where field == "timeZone" {
                        group = try await client.createGroup(name: name, homeCurrency: currency, personal: personal)
                    }
                }
                if options.json {
                    try Output.json(group)
                } else {
                    print("Created \(group.name) (\(group.homeCurrency)). Invite code: \(group.inviteCode ?? "none")")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your groups.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await SplitterCLI.run {
                let store = try? options.store()
                let groups: [Group]
                do {
                    groups = try await options.client().groups()
                    try? store?.cache(groups: groups)
                } catch SplitterError.offline(let reason) {
                    // Offline, the groups this device knows (found by a new user: exit 9 with
                    // the copy right there), said to be so.
                    guard let cached = try store?.cachedGroups(), !cached.isEmpty else {
                        throw CLIError(
                            message: "The server cannot be reached (\(reason)), and this device has no copy of your "
                                + "groups yet: `splitter sync` makes one when the server is back.",
                            code: 9)
                    }
                    warn(
                        "Offline: your groups as this device last saw them"
                            + ((try? store?.lastSync).flatMap { $0 }.map { " (synced \(timestamp($0)))" } ?? "") + ".")
                    groups = cached
                }
                try Output.list(
                    groups, json: options.json, empty: nil,
                    ["NAME", "CURRENCY", "ROLE", "ID"]
                ) { [$0.name + ($0.isArchived ? " (archived)" : ""), $0.homeCurrency, $0.myRole.rawValue, $0.id] }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A group and its members.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let found = context.group
                let members = context.members
                if options.json {
                    struct Shown: Encodable {
                        let group: Group
                        let members: [Member]
                    }
                    return try Output.json(Shown(group: found, members: members))
                }
                print(
                    "\(found.name) — home currency \(found.homeCurrency), time zone \(found.timeZone ?? "UTC"),"
                        + " you are \(found.myRole.rawValue)")
                if !found.description.isEmpty { print(found.description) }
                // Archived: said, and no code that does not work (found by a new user).
                if found.isArchived {
                    print(
                        "Archived: nothing in it changes and nobody joins until the owner runs "
                            + "`splitter group unarchive \(quotedArgument(found.name))`.")
                } else if let code = found.inviteCode {
                    print("Invite code: \(code)")
                }
                print("")
                Output.table(
                    ["MEMBER", "ROLE", "ACCOUNT", "ID"],
                    members.map {
                        [
                            $0.label, $0.role.rawValue,
                            $0.userId == nil ? "no" : "yes", $0.id,
                        ]
                    })
            }
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join a group by its invite code.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "The invite code, or its link.") var code: String
        @Option(
            name: .customLong("as"),
            help: "Become this existing member without an account (\"I am Aki\"): their name or id.")
        var asMember: String?
        @Option(help: "Your name in the group when joining as someone new (default: your account's).")
        var name: String?

        func validate() throws {
            if asMember != nil, name != nil { throw ValidationError("Give --as or --name, not both.") }
        }

        func run() async throws {
            try await SplitterCLI.run {
                let byID = asMember.flatMap(UUID.init(uuidString:)) != nil
                let outcome: JoinOutcome
                do {
                    // A pasted link is its code (found by a new user: "No such invite code").
                    outcome = try await options.client().join(
                        inviteCode: codeOfLink(code), asMember: byID ? asMember : nil, asMemberNamed: byID ? nil : asMember,
                        name: name)
                } catch SplitterError.conflict(let message, "name", _) {
                    // Only a name-only member can be claimed (found by a new user: someone coming
                    // back, whose name another account had taken, was told to claim it).
                    let claimable = message.contains("without an account")
                    throw CLIError(
                        message: message
                            + (claimable
                                ? "\n  If that member without an account is you: `splitter group join \(code) --as NAME`; "
                                    + "if not: `--name \"Another name\"`."
                                : "\n  Join under another name: `splitter group join \(code) --name \"Another name\"`."),
                        code: 6)
                }
                switch outcome {
                case .joined(let group, let member):
                    if options.json { return try Output.json(member) }
                    print("Joined \(group.name) as \(member.name).")
                case .pending(let pending):
                    if options.json { return try Output.json(pending) }
                    print(
                        "Asked to join \(pending.groupName) as \(pending.memberName). \(pending.memberName) has "
                            + "expenses or transfers already, so an owner or admin of the group confirms it is you "
                            + "first.")
                }
            }
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show, rotate or disable the invite code.")
        @OptionGroup var options: GroupOptions
        @Flag(help: "Make a new code; the old one stops working.") var rotate = false
        @Flag(help: "Stop joining by code.") var disable = false

        func run() async throws {
            try await SplitterCLI.run {
                var (client, found) = try await options.resolve()
                if rotate || disable { found = try await client.setInviteCode(groupID: found.id, enabled: rotate) }
                if options.json { return try Output.json(found) }
                print(found.inviteCode.map { "Invite code: \($0)" } ?? "Joining by code is disabled.")
            }
        }
    }
}

struct MemberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member", abstract: "List and add members, set roles, decide who may claim a name.",
        subcommands: [
            Add.self, List.self, Role.self, Rename.self, Remove.self, Restore.self, Claims.self, Approve.self,
            Reject.self,
        ])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a friend without an account.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Their name.") var name: String

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let member = try await client.addMember(groupID: found.id, name: name)
                if options.json { return try Output.json(member) }
                print("Added \(member.name).")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's members.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                try Output.list(
                    try await GroupContext(options).members, json: options.json, empty: nil, ["MEMBER", "ROLE", "ACCOUNT", "ID"]
                ) { [$0.label, $0.role.rawValue, $0.userId == nil ? "no" : "yes", $0.id] }  // as `group show` (found by a new user)
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a member's name in the group: your own, or (owner, admins) another's.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Member name or id.") var member: String
        @Argument(help: "The new name.") var name: String

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let target = try context.member(member)
                let renamed = try await context.client.renameMember(
                    groupID: context.group.id, memberID: target.id, name: name)
                if options.json { return try Output.json(renamed) }
                print("\(target.name) is now \(renamed.name).")
            }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a member's role: admin, member or viewer; or (owner) hand the group over with owner --yes.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Member name or id.") var member: String
        @Argument(help: "admin, member, viewer, or owner.") var role: String
        @Flag(help: "With owner: hand the group over (you become an admin).") var yes = false

        func run() async throws {
            try await SplitterCLI.run {
                guard let newRole = SplitClient.Role(rawValue: role.lowercased()) else {
                    throw CLIError(message: "A role is admin, member, viewer or owner.", code: 2)
                }
                let context = try await GroupContext(options)
                let target = try context.member(member)
                // Ownership moves by its own action, asked first (found by a new user: the CLI had
                // no way to do what "make another member the owner first" asked).
                if newRole == .owner {
                    guard target.id != context.group.myMemberId else {
                        throw CLIError(message: "You are the owner of \(context.group.name) already.", code: 6)
                    }
                    guard context.group.myRole == .owner else {
                        throw CLIError(message: "Only the owner of \(context.group.name) hands it over.", code: 4)
                    }
                    guard target.userId != nil else {
                        throw CLIError(
                            message: "\(target.name) has no account, so cannot own \(context.group.name).", code: 7)
                    }
                    guard yes else {
                        throw CLIError(
                            message: "Making \(target.name) the owner hands \(context.group.name) over: you become an admin, "
                                + "and only \(target.name) can make you the owner again. Run again with --yes to do so.",
                            code: 6)
                    }
                    let group = try await context.client.transferOwnership(groupID: context.group.id, to: target.id)
                    if options.json { return try Output.json(group) }
                    return print("\(target.name) is now the owner of \(group.name); you are an admin.")
                }
                let updated = try await context.client.setRole(
                    groupID: context.group.id, memberID: target.id, role: newRole)
                if options.json { return try Output.json(updated) }
                print("\(updated.name) is now \(updated.role.rawValue).")
            }
        }
    }
}
