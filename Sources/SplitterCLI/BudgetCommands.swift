import ArgumentParser
import Foundation
import SplitClient
import enum SplitCore.AccountInput
import struct SplitCore.Currency
import struct SplitCore.Money
import enum SplitCore.AmountError

/// `splitter budget`: a group's budget, or my own with --mine (issue 20).
struct BudgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Budgets: a group's (total and caps per category, monthly or for a trip), or your own.",
        discussion: """
              splitter budget show Japan                    # this month, or the trip
              splitter budget set Japan --trip 2026-05-08 2026-05-17 --total 6000 --cap Meal=1500 --cap Hotel=3000
              splitter budget set Flat --total 3000 --cap Groceries=800 --alert 75,100
              splitter budget show --mine --month 2026-11   # your shares in all your groups
              splitter budget set --mine --currency MYR --total 2500 --cap Meal=600

            Amounts are in the group's home currency (yours with --mine). Setting a budget replaces
            it whole: caps not given are removed. Members are told when a cap or the total passes
            each alert percentage (80 and 100 unless --alert says otherwise).
            """,
        subcommands: [Show.self, Set.self, Remove.self],
        defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Where a budget stands, per category and in total.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id (not with --mine).") var group: String?
        @Flag(help: "Your own budget, over your shares in all your groups.") var mine = false
        @Option(help: "The month, YYYY-MM (default: this one).") var month: String?

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                let status: BudgetStatus
                if mine {
                    status = try await client.myBudget(month: month)
                } else {
                    let found = try await resolveGroup(client, BudgetCommand.named(group))
                    status = try await client.budget(groupID: found.id, month: month)
                }
                if options.json { return try Output.json(status) }
                // A trip's budget has no months: said, not ignored (found by review).
                if let month, status.period == "trip" {
                    warn("splitter: --month \(month) is for a monthly budget; this one is the whole trip's.")
                }
                BudgetCommand.print(status)
            }
        }
    }

    /// The group a budget command names: without --mine, one must be.
    static func named(_ group: String?) throws -> String {
        guard let group else { throw CLIError(message: "Name the group, or give --mine.", code: 2) }
        return group
    }

    static func print(_ status: BudgetStatus) {
        let period =
            status.period == "trip"
            ? "The trip, \(status.startDate) to \(status.endDate)" : "Month \(status.month ?? status.startDate)"
        Swift.print("\(period), in \(status.currency)\(status.budget == nil && status.total.cap == nil ? " (no budget set)" : "")")
        func row(_ name: String, _ figures: BudgetFigures) -> [String] {
            [
                name, figures.spent, figures.cap ?? "", figures.remaining ?? "", figures.percent.map { "\($0)%" } ?? "",
                figures.projected,
            ]
        }
        Output.table(
            ["CATEGORY", "SPENT", "CAP", "LEFT", "%", "BY THE END"],
            status.lines.map { row($0.name + ($0.isDeleted == true ? " (deleted)" : ""), $0.figures) } + [row("Total", status.total)])
        if !status.uncountedCurrencies.isEmpty {
            Swift.print("")
            Swift.print("Not counted (no rate from \(status.uncountedCurrencies.joined(separator: ", "))):")
            for item in status.uncounted {
                Swift.print("  \(item.date) \(item.description) \(item.amount) \(item.currency)\(item.groupName.map { " (\($0))" } ?? "")")
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a budget: total, caps, period (replaces it whole).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id (not with --mine).") var group: String?
        @Flag(help: "Your own budget.") var mine = false
        @Option(help: "The whole budget.") var total: String?
        @Option(help: "A cap: CATEGORY=AMOUNT (repeat for each).") var cap: [String] = []
        @Option(parsing: .upToNextOption, help: "A trip's first and last day: --trip 2026-05-08 2026-05-17.")
        var trip: [String] = []
        @Option(help: "Alert percentages, e.g. 80,100.") var alert: String?
        @Option(help: "Your budget's currency (with --mine).") var currency: String?

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                let caps = try cap.map { entry -> (String, String) in
                    let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, !parts[0].isEmpty else {
                        throw CLIError(message: "Write a cap as CATEGORY=AMOUNT, e.g. --cap Meal=300.", code: 2)
                    }
                    return (parts[0], parts[1])
                }
                let status: BudgetStatus
                if mine {
                    guard let currency else { throw CLIError(message: "Give your budget's --currency.", code: 2) }
                    status = try await client.setMyBudget(
                        currency: currency.uppercased(), total: total,
                        caps: Dictionary(caps, uniquingKeysWith: { _, last in last }))
                } else {
                    let group = try BudgetCommand.named(group)
                    guard trip.isEmpty || trip.count == 2 else {
                        throw CLIError(message: "--trip takes the first and the last day.", code: 2)
                    }
                    let found = try await resolveGroup(client, group)
                    let categories = try await client.categories(groupID: found.id)
                    var ids: [String: String] = [:]
                    for (name, amount) in caps {
                        guard let category = categories.first(where: { AccountInput.nameKey($0.name) == AccountInput.nameKey(name) || $0.id == name }) else {
                            throw CLIError(
                                message: "No category \"\(name)\" in \(found.name) (it has \(categories.map(\.name).joined(separator: ", "))).",
                                code: 7)
                        }
                        // Read as the server would, and said by the option (its refusal names
                        // "caps[0].amount", in an order of its own).
                        if let currency = try? Currency(code: found.homeCurrency) {
                            do throws(AmountError) {
                                _ = try Money(parsing: amount, currency: currency)
                            } catch {
                                throw CLIError(message: "--cap \(name)=\(amount): \(error.description)", code: 7)
                            }
                        }
                        ids[category.id] = amount
                    }
                    let thresholds = try alert.map { text in
                        try text.split(separator: ",").map { part -> Int in
                            guard let value = Int(part.trimmingCharacters(in: .whitespaces)) else {
                                throw CLIError(message: "Write --alert like 80,100.", code: 2)
                            }
                            return value
                        }
                    }
                    status = try await client.setBudget(
                        groupID: found.id,
                        BudgetSettings(
                            period: trip.isEmpty ? "month" : "trip", startDate: trip.first, endDate: trip.last,
                            total: total, caps: ids, thresholds: thresholds))
                }
                if options.json { return try Output.json(status) }
                Swift.print("Budget set.")
                BudgetCommand.print(status)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a budget (spending stays visible).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id (not with --mine).") var group: String?
        @Flag(help: "Your own budget.") var mine = false

        func run() async throws {
            try await SplitterCLI.run {
                let client = try options.client()
                if mine {
                    try await client.removeMyBudget()
                } else {
                    let found = try await resolveGroup(client, BudgetCommand.named(group))
                    try await client.removeBudget(groupID: found.id)
                }
                if options.json { return try Output.json(["removed": true]) }
                Swift.print("Budget removed.")
            }
        }
    }
}
