import ArgumentParser
import Foundation
import SplitClient
import SplitCore

extension GroupCommand {
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a group, or change its description, home currency or time zone (owner, admin).")
        @OptionGroup var options: GroupOptions
        @Option(help: "The new name.") var name: String?
        @Option(help: "The new description (\"\" for none).") var description: String?
        @Option(help: "The new home currency (ISO code): balances and plans are counted in it.") var currency: String?
        @Option(help: "The new time zone, e.g. Asia/Tokyo: the group's \"today\".") var timeZone: String?

        func validate() throws {
            if name == nil, description == nil, currency == nil, timeZone == nil {
                throw ValidationError("Say what to change: --name, --description, --currency or --time-zone.")
            }
        }

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                // Based on the version just read: someone else's change meanwhile is a conflict,
                // not overwritten.
                let saved = try await client.updateGroup(
                    id: found.id, name: name, description: description, homeCurrency: currency?.uppercased(),
                    timeZone: timeZone, version: found.version)
                if options.json { return try Output.json(saved) }
                print(
                    "Saved \(saved.name): home currency \(saved.homeCurrency), time zone \(saved.timeZone ?? "UTC")"
                        + (saved.description.isEmpty ? "." : ", \"\(saved.description)\"."))
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive a group (owner): it stays readable; nothing changes in it until it is unarchived.",
            discussion: "Its invite code stops working while it is archived.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                if found.isArchived {
                    if options.json { return try Output.json(found) }
                    return print("\(found.name) is archived already.")
                }
                let archived = try await client.archiveGroup(id: found.id)
                if options.json { return try Output.json(archived) }
                print(
                    "Archived \(archived.name): it stays readable; nothing changes in it until "
                        + "`splitter group unarchive \(quotedArgument(archived.name))`.")
            }
        }
    }

    struct Unarchive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring an archived group back (owner).")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                if !found.isArchived {
                    if options.json { return try Output.json(found) }
                    return print("\(found.name) is not archived.")
                }
                let active = try await client.unarchiveGroup(id: found.id)
                if options.json { return try Output.json(active) }
                print("\(active.name) is active again.")
            }
        }
    }
}

/// An argument as a shell takes it back: quoted when it has a space or a quote (also for
/// `splitter`'s own hints).
public func quotedArgument(_ argument: String) -> String {
    argument.contains(where: { " \"'".contains($0) })
        ? "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'" : argument
}

struct CategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category", abstract: "List, add, change and delete a group's categories.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self], defaultSubcommand: List.self)

    /// The client, the group and the category named on the command line.
    static func resolve(_ options: GroupOptions, _ category: String) async throws
        -> (client: SplitterClient, group: Group, category: Category)
    {
        let (client, found) = try await options.resolve()
        return (client, found, try named(category, in: try await client.categories(groupID: found.id), group: found))
    }

    /// A category by name (any case) or id.
    static func named(_ text: String, in categories: [Category], group: Group) throws -> Category {
        if let match = categories.first(where: { $0.id == text.lowercased() }) { return match }
        return try single(
            categories.filter { AccountInput.nameKey($0.name) == AccountInput.nameKey(text) },
            none: "No category \"\(text)\" in \(group.name) (it has \(categories.map(\.name).joined(separator: ", "))).",
            several: "Several categories are called \"\(text)\"; use its id.", noneCode: 7)
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's categories in their order.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                try Output.list(
                    try await client.categories(groupID: found.id), as: "categories", json: options.json, empty: nil,
                    ["CATEGORY", "ICON", "COLOUR", "KIND", "ID"]
                ) { [$0.name, $0.icon, $0.color, $0.isDefault ? "default" : "custom", $0.id] }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a category, last in the order (owner, admin).")
        @OptionGroup var options: GroupOptions
        @Argument(help: "Its name.") var name: String
        @Option(help: "An emoji or short symbol.") var icon: String?
        @Option(help: "Its colour, as #RRGGBB.") var color: String?

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let made = try await client.createCategory(groupID: found.id, name: name, icon: icon, color: color)
                if options.json { return try Output.json(made) }
                print("Added \(made.icon) \(made.name) to \(found.name).")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename or restyle a category you added (owner, admin); the defaults stay as they are.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The category's name or id.") var category: String
        @Option(help: "The new name.") var name: String?
        @Option(help: "A new emoji or short symbol.") var icon: String?
        @Option(help: "A new colour, as #RRGGBB.") var color: String?

        func validate() throws {
            if name == nil, icon == nil, color == nil {
                throw ValidationError("Say what to change: --name, --icon or --color.")
            }
        }

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found, current) = try await CategoryCommand.resolve(options, category)
                let saved = try await client.updateCategory(
                    groupID: found.id, id: current.id, name: name, icon: icon, color: color, version: current.version)
                if options.json { return try Output.json(saved) }
                print("Saved \(saved.icon) \(saved.name) (\(saved.color)).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a category you added (owner, admin); its expenses keep showing its name.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The category's name or id.") var category: String

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found, current) = try await CategoryCommand.resolve(options, category)
                try await client.deleteCategory(groupID: found.id, id: current.id)
                if options.json { return try Output.json(["deleted": current.id]) }
                print("Deleted \(current.name); its expenses keep showing it.")
                // Series of that category stop until given another (found by a new user: they
                // paused unsaid).
                let paused = (try? await client.recurringExpenses(groupID: found.id))?.filter {
                    $0.expense.category == current.id && $0.state == "paused"
                } ?? []
                for series in paused {
                    print(
                        "Paused: the recurring \(series.expense.description) (\(short(series.id))) until it has another "
                            + "category: `splitter recurring edit \(quotedArgument(found.name)) \(short(series.id)) "
                            + "--category NAME`, then resume it.")
                }
            }
        }
    }
}

struct TransfersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfers", abstract: "List the money recorded as moving between members, or delete a transfer.",
        discussion: "`splitter settle` records one; `splitter pay` marks a share paid, which records its own.",
        subcommands: [List.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's transfers, newest first.")
        @OptionGroup var options: GroupOptions
        @Flag(help: "Deleted transfers too.") var deleted = false

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let names = context.names
                let transfers = try await context.client.settlements(groupID: context.group.id, includeDeleted: deleted)
                try Output.list(
                    transfers, as: "settlements", json: options.json,
                    empty: "No transfers in \(context.group.name) yet.", ["DATE", "FROM", "TO", "AMOUNT", "NOTE", "ID"]
                ) { transfer in
                    var note = transfer.note
                    if transfer.expenseSplitId != nil { note += note.isEmpty ? "(a paid share)" : " (a paid share)" }
                    if transfer.isDeleted { note += note.isEmpty ? "(deleted)" : " (deleted)" }
                    return [
                        transfer.date, names[transfer.fromMemberId] ?? transfer.fromMemberId,
                        names[transfer.toMemberId] ?? transfer.toMemberId,
                        "\(transfer.amount) \(transfer.currency)", note, transfer.id,
                    ]
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a transfer recorded by hand (its balances move back; the activity keeps it).",
            discussion: """
                Owners and admins delete any; a member those they recorded. One a paid mark
                recorded is undone with `splitter unpay` of its share.
                """)
        @OptionGroup var options: GroupOptions
        @Argument(help: "The transfer's id, or its last characters, as for an expense (see `splitter transfers`).")
        var id: String

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let wanted = id.lowercased()
                guard wanted.count >= 4 else {
                    throw CLIError(message: "Give at least the last 4 characters of the transfer's id.", code: 2)
                }
                let transfer = try single(
                    try await context.client.settlements(groupID: context.group.id).filter { $0.id.hasSuffix(wanted) },
                    none: "No transfer \(id) in \(context.group.name) (`splitter transfers \(context.group.name)` lists them).",
                    several: "Several transfers end with \(id); give more of its id.", noneCode: 5)
                if let split = transfer.expenseSplitId {
                    // Which share, and how to take it back (found by a new user: "unpay its
                    // share" named neither, and a deleted expense must be restored first).
                    let names = context.names
                    let expenses = try await context.client.expenses(groupID: context.group.id, includeDeleted: true)
                    guard let expense = expenses.first(where: { $0.splits.contains { $0.id == split } }),
                        let share = expense.splits.first(where: { $0.id == split })
                    else {
                        throw CLIError(
                            message: "A paid mark recorded this transfer: `splitter unpay` its share instead.", code: 6)
                    }
                    let who = names[share.memberId] ?? share.memberId
                    let unpay = "`splitter unpay \(short(expense.id)) --member \(quotedArgument(who))`"
                    throw CLIError(
                        message: "This transfer is \(who)'s share of \(expense.description) marked paid: "
                            + (expense.isDeleted
                                ? "that expense is deleted; `splitter expense restore \(short(expense.id))`, then \(unpay)."
                                : "\(unpay) takes it back."),
                        code: 6)
                }
                let deleted = try await context.client.deleteSettlement(id: transfer.id)
                if options.json { return try Output.json(deleted) }
                let names = context.names
                print(
                    "Deleted: \(names[deleted.fromMemberId] ?? deleted.fromMemberId) paid "
                        + "\(names[deleted.toMemberId] ?? deleted.toMemberId) \(deleted.amount) \(deleted.currency).")
            }
        }
    }
}
