import ArgumentParser
import Foundation
import SplitClient

// Claims of name-only members with money history wait for an owner or admin: list them and
// approve or reject one (`splitter member claims|approve|reject`).
extension MemberCommand {
    struct Claims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Who asks to be which name-only member (owner, admin).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                let claims = try await client.claims(groupID: try await resolveGroup(client, group).id)
                if options.json { return try Output.json(claims) }
                guard !claims.isEmpty else { return print("Nobody is waiting.") }
                Output.table(
                    ["MEMBER", "ASKED BY", "EMAIL", "MEMBER ID"],
                    claims.map { [$0.memberName, $0.userName, $0.userEmail, $0.memberId] })
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say the person asking is that member: their account takes over its expenses and balance.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String
        @Argument(help: "The claimed member's name or id.") var member: String

        func run() async throws {
            try await changeMember(options, group: group, member: member) { context, id in
                try await context.client.approveClaim(groupID: context.group.id, memberID: id)
            } said: { member, _ in "\(member.name) is now linked to the account that asked." }
        }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a claim; the member stays name-only.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String
        @Argument(help: "The claimed member's name or id.") var member: String

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options, group: group)
                let target = try context.member(member)
                try await context.client.rejectClaim(groupID: context.group.id, memberID: target.id)
                if !options.json { print("Refused the claim of \(target.name).") }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a member; their shares and balance stay, and they can be restored.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String
        @Argument(help: "Member name or id.") var member: String
        @Flag(help: "Remove even though they owe or are owed money.") var confirmBalance = false

        func run() async throws {
            try await changeMember(options, group: group, member: member) { context, id in
                do {
                    return try await context.client.removeMember(
                        groupID: context.group.id, memberID: id, confirmBalance: confirmBalance)
                } catch SplitterError.conflict(let message, _, _) where !confirmBalance {
                    // The server asks "Remove anyway?": say how, on the command line.
                    throw CLIError(message: "\(message) Run again with --confirm-balance to do so.", code: 6)
                }
            } said: { member, _ in "Removed \(member.name); `splitter member restore` brings them back." }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring a removed member back.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String
        @Argument(help: "Member name or id.") var member: String

        func run() async throws {
            try await changeMember(options, group: group, member: member) { context, id in
                try await context.client.restoreMember(groupID: context.group.id, memberID: id)
            } said: { member, group in "\(member.name) is back in \(group.name)." }
        }
    }
}

/// One member named on the command line changed by `act`: the member as it is now, as JSON or
/// as the sentence `said` makes.
private func changeMember(
    _ options: GlobalOptions, group: String, member: String,
    _ act: (GroupContext, String) async throws -> Member, said: (Member, Group) -> String
) async throws {
    try await SplitterCLI.run {
        let context = try await GroupContext(options, group: group)
        let changed = try await act(context, try context.member(member).id)
        if options.json { return try Output.json(changed) }
        print(said(changed, context.group))
    }
}
