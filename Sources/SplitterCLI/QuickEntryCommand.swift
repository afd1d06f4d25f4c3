import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// `splitter add GROUP "Ramen ¥1200 paid by Aki, all"`: one line to an expense (issue 21).
struct QuickAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an expense from one line: shows what it reads, then saves it (asks unless --yes).",
        discussion: """
              splitter add Japan "Ramen ¥1200 paid by Aki, all"
              splitter add Japan "Hotel 30000 JPY split 2:1:1 Aki Bo Chen" --yes
              splitter add Japan "Dinner 120 for everyone except Chen"

            Names are the group's (any case; "me" is you). An amount may be arithmetic (12*3+4.50);
            the currency comes from a code or a symbol. Nothing about an amount, a currency or who
            shares is guessed: a line that leaves one open is refused, saying what to add.
            """)
    @OptionGroup var options: GroupOptions
    @Argument(help: "The line, quoted.") var text: String
    @Flag(name: .shortAndLong, help: "Do not ask; save.") var yes = false

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options)
            let answer = try await context.client.previewQuickEntry(groupID: context.group.id, text: text)
            guard answer.issues.isEmpty, let draft = answer.expense else {
                throw CLIError(message: answer.issues.map(\.message).joined(separator: " "), code: 7)
            }
            let names = context.names
            if !options.json {
                print("\(draft.description): \(draft.amount) \(draft.currency) on \(draft.expenseDate ?? "today")\(answer.categoryName.map { " (\($0))" } ?? "")")
                // In the members' order, as `expense add` says them (it was the server's order).
                print("Paid by " + byName(answer.payers, names, order: context.members))
                print("Shares: " + byName(answer.splits, names, order: context.members))
                if !answer.assumed.isEmpty { print("Assumed: \(answer.assumed.joined(separator: ", ")) (say it in the line to change it)") }
            }
            if !yes && !options.json {
                // The preview before any answer or refusal, also when output is a pipe (found by
                // review: "Not saved." on stderr came before the preview it was about).
                try confirm("Save it?", declined: "Not saved.")
            }
            // With the preview's id and fingerprint: what is saved is what was just printed, to
            // the unit, or nothing when the group changed meanwhile (someone joined).
            let expense: Expense
            do {
                expense = try await context.client.addQuickEntry(
                    groupID: context.group.id, text: text, idempotencyKey: UUID().uuidString, id: answer.id,
                    fingerprint: answer.fingerprint)
            } catch SplitterError.conflict(let message, "text", _) {
                throw CLIError(message: message + " Run it again to see what it comes to now.", code: 6)
            }
            // Seen: its short id works with `expense edit` at once (found by review).
            try? context.store.cache(expenses: [expense], seen: true)
            if options.json { return try Output.json(expense) }
            print("Added \(expense.description) (\(short(expense.id))).")
        }
    }
}
