import ArgumentParser
import Foundation
import SplitClient

// Claims of name-only members with money history wait for an owner or admin: list them and
// approve or reject one (`splitter member claims|approve|reject`).
extension MemberCommand {
    struct Claims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Who asks to be which name-only member (owner, admin).")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                try Output.list(
                    try await client.claims(groupID: found.id), json: options.json, empty: "Nobody is waiting.",
                    ["MEMBER", "ASKED BY", "EMAIL", "MEMBER ID"]
                ) { [$0.memberName, $0.userName, $0.userEmail, $0.memberId] }
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say the person asking is that member: their account takes over its expenses and balance.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The claimed member's name or id.") var member: String

        func run() async throws {
            try await changeMember(options, member: member) { context, id in
                try await context.client.approveClaim(groupID: context.group.id, memberID: id)
            } said: { member, _ in "\(member.name) is now linked to the account that asked." }
        }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a claim; the member stays name-only.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The claimed member's name or id.") var member: String

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let target = try context.member(member)
                try await context.client.rejectClaim(groupID: context.group.id, memberID: target.id)
                if !options.json { print("Refused the claim of \(target.name).") }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a member; their shares and balance stay, and they can be restored.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Member name or id.") var member: String
        @Flag(help: "Remove even though they owe or are owed money.") var confirmBalance = false

        func run() async throws {
            try await changeMember(options, member: member) { context, id in
                do {
                    return try await context.client.removeMember(
                        groupID: context.group.id, memberID: id, confirmBalance: confirmBalance)
                } catch SplitterError.conflict(let message, "confirmBalance", _) where !confirmBalance {
                    // The server asks "Remove anyway?": say how, on the command line.
                    throw CLIError(message: "\(message) Run again with --confirm-balance to do so.", code: 6)
                }
            } said: { member, _ in "Removed \(member.name); `splitter member restore` brings them back." }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring a removed member back.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Member name or id.") var member: String

        func run() async throws {
            var wasIn = false
            try await changeMember(options, member: member) { context, id in
                // One never removed is said to be in the group, not "back" (found by a new user).
                if let found = context.members.first(where: { $0.id == id }), found.active {
                    wasIn = true
                    return found
                }
                return try await context.client.restoreMember(groupID: context.group.id, memberID: id)
            } said: { member, group in
                wasIn ? "\(member.name) is in \(group.name) already; nothing changed." : "\(member.name) is back in \(group.name)."
            }
        }
    }
}

/// One member named on the command line changed by `act`: the member as it is now, as JSON or
/// as the sentence `said` makes.
private func changeMember(
    _ options: GroupOptions, member: String,
    _ act: (GroupContext, String) async throws -> Member, said: (Member, Group) -> String
) async throws {
    try await SplitterCLI.run {
        let context = try await GroupContext(options)
        let changed = try await act(context, try context.member(member).id)
        if options.json { return try Output.json(changed) }
        print(said(changed, context.group))
    }
}
