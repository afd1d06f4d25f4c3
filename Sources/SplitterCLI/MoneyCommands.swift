import ArgumentParser
import Foundation
import SplitAPI
import SplitClient
import SplitCore

/// "aki=3000,ben=1000" → [("aki", "3000"), ("ben", "1000")]; "aki,ben" → [("aki", nil), …].
func pairs(_ text: String, option: String) throws -> [(String, String?)] {
    try text.split(separator: ",").map { part in
        let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = pieces.first, !name.isEmpty else {
            throw CLIError(message: "\(option): empty name in \"\(text)\".", code: 2)
        }
        return (name, pieces.count == 2 ? pieces[1] : nil)
    }
}

func today() -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.year, .month, .day], from: Date())
    return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
}

struct ExpenseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expense", abstract: "Add and list expenses.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an expense.",
            discussion: """
                Members are named by name or id. Payers: --paid-by aki (the whole amount) or
                --paid-by aki=3000,ben=1000. Split (one of): --equal aki,ben (default: everyone),
                --exact aki=1200,ben=800, --percent aki=60,ben=40, --shares aki=2,ben=1, or
                --adjust aki=+500,ben=-500 on top of --equal.
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String
        @Argument(help: "What it was.") var description: String
        @Argument(help: "The amount, e.g. 1200 or 12.50.") var amount: String
        @Option(help: "Currency (default: the group's home currency).") var currency: String?
        @Option(help: "Date, YYYY-MM-DD (default: today).") var date: String?
        @Option(help: "Category name.") var category: String?
        @Option(name: .customLong("paid-by"), help: "Who paid, and how much each.") var paidBy: String?
        @Option(help: "Split equally between these members.") var equal: String?
        @Option(help: "Exact amounts per member.") var exact: String?
        @Option(help: "Percentages per member.") var percent: String?
        @Option(help: "Weights per member.") var shares: String?
        @Option(help: "± amounts on top of an equal split.") var adjust: String?

        func validate() throws {
            let modes = [exact, percent, shares].compactMap { $0 }.count
            guard modes <= 1, modes == 0 || (equal == nil && adjust == nil) else {
                throw ValidationError("Choose one split: --equal (with --adjust), --exact, --percent or --shares.")
            }
        }

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options, group: group)
                let (client, store, found, members) = (context.client, context.store, context.group, context.members)
                func id(_ name: String) throws -> String { try context.member(name).id }
                func amounts(_ text: String, _ option: String) throws -> [Components.Schemas.MemberAmount] {
                    try pairs(text, option: option).map { name, value in
                        guard let value else { throw CLIError(message: "\(option): give \(name)=amount.", code: 2) }
                        return Components.Schemas.MemberAmount(memberId: try id(name), amount: value)
                    }
                }
                var paid: [Components.Schemas.MemberAmount]?
                var paidByMember: String?
                if let paidBy {
                    let entries = try pairs(paidBy, option: "--paid-by")
                    if entries.count == 1, entries[0].1 == nil {
                        paidByMember = try id(entries[0].0)
                    } else {
                        paid = try amounts(paidBy, "--paid-by")
                    }
                }
                let everyone = members.filter(\.active).map(\.id)
                let equalIDs = try equal.map { try pairs($0, option: "--equal").map { try id($0.0) } } ?? everyone
                let split: SplitInput
                if let exact {
                    split = SplitInput(mode: .exact, amounts: try amounts(exact, "--exact"))
                } else if let percent {
                    split = SplitInput(
                        mode: .percent,
                        percents: try pairs(percent, option: "--percent").map {
                            .init(memberId: try id($0.0), percent: $0.1 ?? "0")
                        })
                } else if let shares {
                    split = SplitInput(
                        mode: .shares,
                        shares: try pairs(shares, option: "--shares").map {
                            .init(memberId: try id($0.0), shares: $0.1 ?? "1")
                        })
                } else if let adjust {
                    split = SplitInput(
                        mode: .adjustment, memberIds: equalIDs,
                        adjustments: try amounts(adjust.replacingOccurrences(of: "+", with: ""), "--adjust"))
                } else {
                    split = SplitInput(mode: .equal, memberIds: equalIDs)
                }
                // A client id and a fresh key per command: a retry after a lost answer, or a replay
                // of the offline queue, creates nothing twice.
                let request = Components.Schemas.CreateExpenseRequest(
                    id: UUID().uuidString.lowercased(), groupId: found.id, description: description, amount: amount,
                    currency: currency ?? found.homeCurrency, category: category, expenseDate: date ?? today(),
                    paidBy: paid, paidByMemberId: paidByMember, split: split)
                let key = UUID().uuidString
                let expense: Expense
                do {
                    expense = try await client.addExpense(request, idempotencyKey: key)
                } catch SplitterError.offline {
                    try store.enqueue(
                        PendingOperation(
                            id: request.id!, groupID: found.id, kind: .createExpense,
                            body: try JSONEncoder().encode(request),
                            idempotencyKey: key, createdAt: Date(), error: nil,
                            summary: "expense \(description) \(amount) \(request.currency) in \(found.name)"))
                    if options.json { return try Output.json(["queued": request.id!]) }
                    return print("Offline: \(description) is queued; `splitter sync` sends it when the server is back.")
                }
                if options.json { return try Output.json(expense) }
                let names = context.names
                print(
                    "Added \(expense.description): \(expense.amount) \(expense.currency), paid by "
                        + expense.payers.map { "\(names[$0.memberId] ?? "?") \($0.amount)" }.joined(separator: ", "))
                print(
                    "Shares: "
                        + expense.splits.map { "\(names[$0.memberId] ?? "?") \($0.amount)" }.joined(separator: ", "))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's expenses, newest first.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Group name or id.") var group: String

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options, group: group)
                let (client, found) = (context.client, context.group)
                let expenses = try await client.expenses(groupID: found.id)
                if options.json { return try Output.json(expenses) }
                let names = context.names
                Output.table(
                    ["DATE", "DESCRIPTION", "AMOUNT", "PAID BY", "CATEGORY"],
                    expenses.map {
                        [
                            $0.expenseDate, $0.description, "\($0.amount) \($0.currency)",
                            $0.payers.map { names[$0.memberId] ?? "?" }.joined(separator: ", "), $0.categoryName,
                        ]
                    })
            }
        }
    }
}

struct Balances: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who is owed (+) and who owes (−), per currency.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Group name or id.") var group: String

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options, group: group)
            let (client, found) = (context.client, context.group)
            let balances = try await client.balances(groupID: found.id)
            if options.json { return try Output.json(balances) }
            let names = context.names
            guard !balances.balances.isEmpty else { return print("Everyone is settled up.") }
            Output.table(
                ["MEMBER", "NET", "CURRENCY"],
                balances.balances.map { [names[$0.memberId] ?? $0.memberId, $0.net, $0.currency] })
            if let home = balances.home, found.homeCurrency != "",
                balances.balances.contains(where: { $0.currency != found.homeCurrency })
            {
                print("\nIn \(balances.homeCurrency):")
                Output.table(["MEMBER", "NET"], home.map { [names[$0.memberId] ?? $0.memberId, $0.net] })
            } else if !balances.missingRates.isEmpty {
                print("\nNo rate yet for \(balances.missingRates.joined(separator: ", ")) → \(balances.homeCurrency).")
            }
        }
    }
}

struct Plan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The fewest transfers that settle up one currency.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Group name or id.") var group: String
    @Option(help: "Currency (default: the group's home currency).") var currency: String?

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options, group: group)
            let (client, found) = (context.client, context.group)
            let transfers = try await client.plan(groupID: found.id, currency: currency)
            if options.json { return try Output.json(transfers) }
            let names = context.names
            guard !transfers.isEmpty else { return print("Nothing to settle in \(currency ?? found.homeCurrency).") }
            for transfer in transfers {
                print(
                    "\(names[transfer.fromMemberId] ?? "?") pays \(names[transfer.toMemberId] ?? "?") \(transfer.amount) \(transfer.currency)"
                )
            }
        }
    }
}

struct Settle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record money that moved between two members.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Group name or id.") var group: String
    @Option(help: "Who paid.") var from: String
    @Option(help: "Who received.") var to: String
    @Argument(help: "The amount.") var amount: String
    @Option(help: "Currency (default: the group's home currency).") var currency: String?
    @Option(help: "A note.") var note: String?

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options, group: group)
            let (client, store, found) = (context.client, context.store, context.group)
            let payer = try context.member(from)
            let payee = try context.member(to)
            let id = UUID().uuidString.lowercased()
            let key = UUID().uuidString
            let settlement: Settlement
            do {
                settlement = try await client.settle(
                    groupID: found.id, from: payer.id, to: payee.id, amount: amount,
                    currency: currency ?? found.homeCurrency, note: note, id: id, idempotencyKey: key)
            } catch SplitterError.offline {
                let request = Components.Schemas.CreateSettlementRequest(
                    id: id, fromMemberId: payer.id, toMemberId: payee.id, amount: amount,
                    currency: currency ?? found.homeCurrency, note: note)
                try store.enqueue(
                    PendingOperation(
                        id: id, groupID: found.id, kind: .createSettlement, body: try JSONEncoder().encode(request),
                        idempotencyKey: key, createdAt: Date(), error: nil,
                        summary: "\(payer.name) paid \(payee.name) \(amount) \(request.currency) in \(found.name)"))
                if options.json { return try Output.json(["queued": id]) }
                return print("Offline: the transfer is queued; `splitter sync` sends it when the server is back.")
            }
            if options.json { return try Output.json(settlement) }
            print("Recorded: \(payer.name) paid \(payee.name) \(settlement.amount) \(settlement.currency).")
        }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the writes queued while offline.")
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await SplitterCLI.run {
            let report = try await SyncEngine(client: try options.client(), store: try options.store()).push()
            if options.json {
                try Output.json(["sent": report.sent, "parked": report.parked, "remaining": report.remaining])
            } else {
                print("Sent \(report.sent), refused \(report.parked), still queued \(report.remaining).")
            }
            if let reason = report.stoppedBecause { throw reason }
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "What is queued, what the server refused, the last sync.")
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await SplitterCLI.run {
            let store = try options.store()
            let pending = try store.pending()
            let parked = try store.parked()
            if options.json {
                return try Output.json(
                    [
                        "pending": pending.map(\.summary), "refused": parked.map { "\($0.summary): \($0.error ?? "")" },
                        "lastSync": [try store.lastSync.map { ISO8601DateFormatter().string(from: $0) } ?? "never"],
                    ])
            }
            print("Queued: \(pending.count)")
            for operation in pending { print("  \(operation.summary)") }
            if !parked.isEmpty {
                print("Refused by the server: \(parked.count)")
                for operation in parked { print("  \(operation.summary): \(operation.error ?? "")") }
            }
            print("Last sync: \(try store.lastSync.map { ISO8601DateFormatter().string(from: $0) } ?? "never")")
        }
    }
}
