import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// Options of `pay` and `unpay`: which share, and why.
struct ShareOptions: ParsableArguments {
    @Argument(help: "Expense id, or its last characters.") var expense: String
    @Option(help: "Whose share (name or id; default: yours).") var member: String?
    @Option(help: "Why, kept in the share's history (e.g. \"cash\").") var reason: String?
}

struct Pay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a share of an expense paid; records the transfer to the payer(s).",
        discussion: "Queued when the server cannot be reached; `splitter sync` sends it.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var share: ShareOptions

    func run() async throws {
        try await SplitterCLI.run { try await setPaid(options, share, true) }
    }
}

struct Unpay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a share of an expense unpaid again; voids the transfer it recorded.",
        discussion: "Queued when the server cannot be reached; `splitter sync` sends it.")
    @OptionGroup var options: GlobalOptions
    @OptionGroup var share: ShareOptions

    func run() async throws {
        try await SplitterCLI.run { try await setPaid(options, share, false) }
    }
}

private func setPaid(_ options: GlobalOptions, _ chosen: ShareOptions, _ isPaid: Bool) async throws {
    let context = try await ExpenseContext(options, expense: chosen.expense)
    let member =
        try chosen.member.map { try context.group.member($0) }
        ?? context.group.members.first { $0.id == context.group.group.myMemberId }
    guard let member, let share = context.expense.splits.first(where: { $0.memberId == member.id }) else {
        throw CLIError(
            message: "\(chosen.member ?? "You") \(chosen.member == nil ? "have" : "has") no share in "
                + "\(context.expense.description).",
            code: 7)
    }
    let state = isPaid ? "paid" : "unpaid"
    let what = "\(member.name)'s share of \(context.expense.description) (\(share.amount) \(context.expense.currency))"
    if !context.isOffline {
        // As just read from the server: marking it again records nothing (found by a new user:
        // a second `pay` of a share someone had marked said "Marked …").
        guard share.isPaid != isPaid else {
            if options.json { return try Output.json(share) }
            return print("\(what) is already \(state).")
        }
        do {
            // The transfers before the mark, to tell what it moved from what it counts again.
            let earlier = isPaid ? try? await context.group.client.settlements(groupID: context.expense.groupId) : nil
            let updated = try await context.group.client.setPaid(shareID: share.id, isPaid, reason: chosen.reason)
            await context.rememberAfterOwnWrite()
            if options.json { return try Output.json(updated) }
            // Marked by another device between the read and the mark: its transfer was already
            // there, and this mark changed nothing (found by a new user: told "Marked …", then
            // that it was paid "before the expense changed", and the reason was not kept).
            if isPaid, let earlier,
                earlier.contains(where: { $0.expenseSplitId == share.id && !$0.isDeleted && $0.currency == context.expense.currency })
            {
                return print(
                    "\(what) was marked paid by someone else just now; nothing changed"
                        + (chosen.reason == nil ? "." : ", and your reason was not added (`splitter history` shows theirs)."))
            }
            print("Marked \(what) \(state)" + (chosen.reason.map { ": \($0)" } ?? "."))
            if isPaid, let part = settledPart(share, of: context.expense, name: member.name) { print(part) }
            if let earlier,
                let said = try? await paidBefore(share, of: context.expense, earlier: earlier, client: context.group.client)
            {
                print(said)
            }
            return
        } catch SplitterError.offline {}
    }
    guard share.isPaid != isPaid else {
        if options.json { return try Output.json(share) }
        return print("\(what) is already \(state) (as last seen).")
    }
    // What the server would refuse (`nothing_to_pay`), said now rather than at the next sync.
    if isPaid,
        let reason = nothingToSettle(
            share, of: context.expense, name: member.id == context.group.group.myMemberId ? nil : member.name)
    {
        throw CLIError(message: reason, code: 7)
    }
    var basis = context.expense
    basis.version = context.base(nil)  // as last seen, like an edit's
    let operation = try PendingOperation.setPaid(
        basis, SharePayment(shareID: share.id, isPaid: isPaid, reason: chosen.reason),
        summary: "mark \(what) \(state)" + (chosen.reason.map { " (\($0))" } ?? ""))
    try queue(
        operation, in: context.group.store, json: options.json,
        said: "Offline: marking \(what) \(state) is queued; `splitter sync` sends it.")
}

/// What marking a share paid moved when its member paid part of the expense themselves: only
/// the rest (found by a new user: "(30.00 EUR) paid" where 10.00 moved). Nil otherwise.
func settledPart(_ share: ExpenseShare, of expense: Expense, name: String) -> String? {
    let posix = Locale(identifier: "en_US_POSIX")
    guard !expense.amount.hasPrefix("-"),
        let own = expense.payers.first(where: { $0.memberId == share.memberId }).flatMap({ Decimal(string: $0.amount, locale: posix) }),
        let owed = Decimal(string: share.amount, locale: posix), own > 0, own < owed
    else { return nil }
    let digits = share.amount.split(separator: ".").dropFirst().first?.count ?? 0
    func text(_ value: Decimal) -> String {
        let formatter = NumberFormatter()
        formatter.locale = posix
        formatter.minimumFractionDigits = digits
        formatter.maximumFractionDigits = digits
        return formatter.string(from: value as NSDecimalNumber) ?? "\(value)"
    }
    return "Only \(text(owed - own)) \(expense.currency) moved: \(name) paid the other \(text(own)) themselves."
}

/// What a mark moved when part of the share was paid before an edit voided an earlier mark
/// (the mark stands for that transfer too, and only the rest moves): said, since the share's
/// amount alone read as if all of it had moved now (found by a new user). Nil when all of it
/// moved now. `earlier`: the group's transfers before the mark; those of them the mark now
/// stands for were paid before.
func paidBefore(_ share: ExpenseShare, of expense: Expense, earlier: [Settlement], client: SplitterClient)
    async throws -> String?
{
    let existed = Set(earlier.map(\.id))
    let linked = try await client.settlements(groupID: expense.groupId).filter {
        $0.expenseSplitId == share.id && $0.currency == expense.currency
    }
    let before = linked.filter { existed.contains($0.id) }
    guard !before.isEmpty else { return nil }
    func units(_ transfers: [Settlement]) throws -> Int64 {
        try transfers.reduce(0) { $0 + (try offlineAmount($1.amount, in: $1.currency, "The amount").units) }
    }
    let currency = try Currency(code: expense.currency)
    let moved = try units(linked.filter { !existed.contains($0.id) })
    func text(_ value: Int64) -> String { "\(Money(minorUnits: value, currency: currency).decimalString) \(expense.currency)" }
    return moved == 0
        ? "Nothing moved now: \(text(try units(before))) was paid for it before the expense changed, which covers it."
        : "\(text(moved)) moved now; \(text(try units(before))) was paid for it before the expense changed."
}

/// Why a share has nothing to settle, as the server says it, when the server said it has
/// (`nothingToPay`); nil otherwise. `name`: nil for one's own share.
func nothingToSettle(_ share: ExpenseShare, of expense: Expense, name: String?) -> String? {
    guard share.nothingToPay else { return nil }
    return PaidShares.nothingToPaySentence(
        member: name, isZero: (try? DecimalValue(parsing: share.amount, allowNegative: true))?.isZero == true,
        isRefund: expense.amount.hasPrefix("-"), expense: expense.description)
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Who marked the shares of an expense paid or unpaid, when and why, oldest first.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Expense id, or its last characters.") var expense: String
    @Option(help: "Only this member's share (name or id).") var member: String?

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await ExpenseContext(options, expense: expense)
            let memberID = try member.map { try context.group.member($0).id }
            var entries: [HistoryEntry] = []
            for share in context.expense.splits where memberID == nil || share.memberId == memberID {
                entries += try await context.group.client.shareHistory(shareID: share.id)
            }
            // Stable: each share's entries keep the server's order when their times are equal (the
            // wire carries whole seconds).
            entries.sort { $0.performedAt < $1.performedAt }
            let owners = Dictionary(uniqueKeysWithValues: context.expense.splits.map { ($0.id, $0.memberId) })
            let names = context.names
            try Output.list(
                entries, json: options.json, empty: "No share of \(context.title) was marked paid yet.",
                ["WHEN", "SHARE OF", "ACTION", "BY", "REASON"]
            ) {
                [
                    timestamp($0.performedAt), owners[$0.expenseSplitId].flatMap { names[$0] } ?? "?",
                    $0.action == .markedPaid ? "paid" : "unpaid", $0.performedByName, $0.reason ?? "",
                ]
            }
        }
    }
}

struct Activity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who did what in a group, newest first.")
    @OptionGroup var options: GroupOptions
    @Option(help: "How many entries.") var limit: Int = 20

    func run() async throws {
        try await SplitterCLI.run {
            guard limit > 0 else { throw CLIError(message: "--limit is at least 1.", code: 2) }
            let context = try await GroupContext(options)
            try Output.list(
                try await context.client.activity(groupID: context.group.id, limit: limit), json: options.json,
                empty: "Nothing happened in \(context.group.name) yet.", ["WHEN", "WHAT"]
            ) { [timestamp($0.at), $0.summary] }  // the sentence names who (a column of it said it twice)
        }
    }
}
