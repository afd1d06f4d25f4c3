// Over 400 lines on purpose: every `splitter expense` subcommand (add, list, show, edit, delete and
// restore) and the split options they share; split, each would repeat those options.

import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// Who paid and how it is split, as `expense add` and `expense edit` both take them.
struct SplitOptions: ParsableArguments {
    @Option(name: .customLong("paid-by"), help: "Who paid, and how much each.") var paidBy: String?
    @Option(help: "Split equally between these members.") var equal: String?
    @Option(help: "Exact amounts per member.") var exact: String?
    @Option(help: "Percentages per member.") var percent: String?
    @Option(help: "Weights per member.") var shares: String?
    @Option(help: "± amounts on top of an equal split.") var adjust: String?
    @Flag(help: "A refund or money received (a deposit back, a cashback): --paid-by says who received it.")
    var refund = false

    static let help = """
        Members are named by name or id. Payers: --paid-by aki (the whole
        amount) or --paid-by aki=3000,ben=1000. Split (one of): --equal aki,ben
        (default: everyone but viewers), --exact aki=1200,ben=800, --percent aki=60,ben=40,
        --shares aki=2,ben=1, or --adjust aki=+500,ben=-500 on top of --equal.
        A refund or money received: --refund, with the amounts as said ("30
        back"); --paid-by names who received it, and each share comes out below
        zero (owed to that member).
        """

    func validate() throws {
        let modes = [exact, percent, shares].compactMap { $0 }.count
        guard modes <= 1, modes == 0 || (equal == nil && adjust == nil) else {
            throw ValidationError("Choose one split: --equal (with --adjust), --exact, --percent or --shares.")
        }
    }

    /// The payers given: several with amounts, or one for the whole amount; (nil, nil) when none.
    func payers(_ context: GroupContext) throws -> (paidBy: [SplitClient.MemberAmount]?, paidByMemberID: String?) {
        guard let paidBy else { return (nil, nil) }
        let entries = try pairs(paidBy, option: "--paid-by")
        if entries.count == 1, entries[0].1 == nil { return (nil, try context.member(entries[0].0).id) }
        return (try amounts(paidBy, "--paid-by", context), nil)
    }

    /// The split given, or nil when no split option was. `--adjust` without `--equal` adjusts an
    /// equal split between `sharers` (an edit passes the expense's own), or else everyone who
    /// shares by default.
    func split(_ context: GroupContext, sharers: [String]? = nil) throws -> SplitInput? {
        func id(_ name: String) throws -> String { try context.member(name).id }
        let equalIDs =
            try equal.map { try pairs($0, option: "--equal").map { try id($0.0) } }
            ?? sharers ?? context.members.filter(\.sharesByDefault).map(\.id)
        if let exact { return SplitInput(mode: .exact, amounts: try amounts(exact, "--exact", context)) }
        if let percent {
            return SplitInput(
                mode: .percent,
                percents: try pairs(percent, option: "--percent").map {
                    .init(memberId: try id($0.0), percent: $0.1 ?? "0")
                })
        }
        if let shares {
            return SplitInput(
                mode: .shares,
                shares: try pairs(shares, option: "--shares").map { .init(memberId: try id($0.0), shares: $0.1 ?? "1") }
            )
        }
        if let adjust {
            return SplitInput(
                mode: .adjustment, memberIds: equalIDs,
                adjustments: try amounts(adjust.replacingOccurrences(of: "+", with: ""), "--adjust", context))
        }
        if equal != nil { return SplitInput(mode: .equal, memberIds: equalIDs) }
        return nil
    }

    private func amounts(_ text: String, _ option: String, _ context: GroupContext) throws -> [SplitClient.MemberAmount]
    {
        try pairs(text, option: option).map { name, value in
            guard let value else { throw CLIError(message: "\(option): give \(name)=amount.", code: 2) }
            // Amounts as said: a refund's payers and exact parts are below zero, and an adjustment
            // turns with them (+10 on a refund is 10 more received), as on the web form.
            let signed =
                !refund ? value : option == "--adjust" ? Self.flipped(value) : Self.belowZero(value)
            return SplitClient.MemberAmount(memberId: try context.member(name).id, amount: signed)
        }
    }

    /// An amount with --refund: below zero, however it was typed ("30" and "-30" alike).
    static func belowZero(_ amount: String) -> String { amount.hasPrefix("-") ? amount : "-" + amount }

    /// The other sign ("10" ↔ "-10").
    static func flipped(_ amount: String) -> String { amount.hasPrefix("-") ? String(amount.dropFirst()) : "-" + amount }

    /// The split given, or an equal one between everyone who shares by default (active, not a
    /// viewer) when none was.
    func splitOrEqual(_ context: GroupContext) throws -> SplitInput {
        try split(context) ?? SplitInput(mode: .equal, memberIds: context.members.filter(\.sharesByDefault).map(\.id))
    }

    /// The amount as sent: below zero with --refund. A minus without --refund is refused, as on
    /// the web's form (found by review: "-3000" saved a refund, or a series of them, unsaid).
    func total(_ amount: String) throws -> String {
        if refund { return Self.belowZero(amount) }
        try Self.refuseMinus(amount)
        return amount
    }

    /// A total typed below zero where no refund was said: refused, saying how one is entered.
    static func refuseMinus(_ amount: String) throws {
        let typed = amount.trimmingCharacters(in: .whitespaces)
        guard typed.hasPrefix("-") || typed.hasPrefix("−") else { return }
        throw CLIError(
            message: "For money received, add --refund and give the amount without a minus (\(typed.dropFirst()) back).",
            code: 7)
    }
}

/// An expense named on the command line by its id or the end of it (as `expense list` shows),
/// its group and members: from the server, or as last seen when the server cannot be reached.
/// What is read here is not "seen": the version an edit or a delete is based on is the one its
/// user last looked at (`show`, `list`) or wrote from this profile (`OfflineStore.seenVersion`),
/// not what a `sync` or a `watch` brought into the offline copy meanwhile.
struct ExpenseContext {
    let group: GroupContext
    let expense: Expense
    /// True when the server could not be reached and `expense` is the cached copy.
    let isOffline: Bool
    /// The version this profile last showed or wrote (not what a sync brought): what an edit is
    /// based on, so a change someone made since is not silently overwritten.
    let lastSeenVersion: Int64?

    init(_ options: GlobalOptions, expense text: String) async throws {
        let client = try options.client()
        let store = try options.store()
        let id = try resolveExpenseID(text, store: store)
        lastSeenVersion = try store.seenVersion(id: id)
        do {
            expense = try await client.expense(id: id)
            isOffline = false
        } catch SplitterError.offline(let reason) {
            guard let cached = try store.cachedExpense(id: id) else { throw SplitterError.offline(reason) }
            expense = cached
            isOffline = true
        }
        group = try await GroupContext(client: client, store: store, group: expense.groupId)
    }

    var names: [String: String] { group.names }

    /// The version a write is based on: `--version`, else the one last seen here, else (never
    /// seen here) the one just read.
    func base(_ version: Int64?) -> Int64 { version ?? lastSeenVersion ?? expense.version }

    /// Offline, a change the server would refuse by role is refused before it is queued: a
    /// member changes only the expenses they added (found by a new user: the payer's edit of an
    /// expense a friend typed in was queued, then refused at sync).
    func refuseChangeByRoleOffline() throws {
        // Decided as the server decides, on the role and rights last seen (exit 4, "not allowed").
        guard let me = group.members.first(where: { $0.id == group.group.myMemberId }) else { return }
        let isOwn = me.userId == expense.createdByUserId
        let membership = Membership(
            role: SplitCore.Role(rawValue: me.role.rawValue) ?? .viewer, canAddExpenses: me.canAddExpenses, canEditOwnExpenses: me.canEditOwnExpenses,
            canEditAllExpenses: me.canEditAllExpenses, canMarkPaid: me.canMarkPaid, isActive: me.active)
        guard Permissions.decide(.editExpense(isOwn: isOwn), for: membership) != .allowed else { return }
        if me.role == .viewer || isOwn {
            throw CLIError(message: "Your role in this group does not let you change this expense. Nothing was queued.", code: 4)
        }
        let maker = group.members.first { $0.userId == expense.createdByUserId }?.name
        throw CLIError(message: GroupAction.onlyMakerMayChange(maker) + " Nothing was queued.", code: 4)
    }

    /// Keeps `expense` as seen: it was shown, or this profile's own write made it.
    func remember(_ expense: Expense) { try? group.store.cache(expenses: [expense], seen: true) }

    /// After this profile's own write that raised the version (a paid mark): the copy is brought
    /// up to date when it was up to date before, so the user's next edit is not refused for
    /// their own change.
    func rememberAfterOwnWrite() async {
        // Only my own change on top of what I saw: someone else's in between stays unseen.
        guard lastSeenVersion == nil || lastSeenVersion == expense.version,
            let fresh = try? await group.client.expense(id: expense.id), fresh.version == expense.version + 1
        else { return }
        remember(fresh)
    }

    /// Who shares the expense now: the members of its equal (or adjusted) split as entered, else
    /// those whose share is not zero. What `--adjust` without `--equal` adjusts.
    var sharers: [String] {
        if [.equal, .adjustment].contains(expense.split.mode), let ids = expense.split.memberIds, !ids.isEmpty {
            return ids
        }
        return expense.splits.filter { (try? DecimalValue(parsing: $0.amount, allowNegative: true))?.isZero != true }
            .map(\.memberId)
    }

    /// "Dinner (9000 JPY)".
    var title: String { "\(expense.description) (\(expense.amount) \(expense.currency))" }
}

/// A full expense id, or the one cached expense whose id ends with `text`.
func resolveExpenseID(_ text: String, store: OfflineStore) throws -> String {
    if UUID(uuidString: text) != nil { return text.lowercased() }
    guard text.count >= 4 else {
        throw CLIError(message: "Give at least 4 characters of the expense id.", code: 2)
    }
    let known = try store.cachedExpenseIDs(endingWith: text)
    // One added offline and not sent yet: the server has no such expense to change.
    if known.isEmpty, let added = try queuedCreate(named: text, store: store) {
        throw CLIError(
            message: "That is the queued \(added.summary), not sent yet: `splitter sync` sends it, "
                + "`splitter sync --discard \(short(added.id))` drops it; change it once it is sent.",
            code: 5)
    }
    return try single(
        known, none: "No expense \"\(text)\" known here; use its full id, or run `splitter expense list <group>` first.",
        several: "Several expenses end with \"\(text)\"; give more of the id.")
}

/// The expense added offline, not sent yet (or sent and refused: kept with why), that `text`
/// names (its id or last characters), when no expense this profile has seen does.
func queuedCreate(named text: String, store: OfflineStore) throws -> PendingOperation? {
    guard text.count >= 4, try store.cachedExpenseIDs(endingWith: text).isEmpty else { return nil }
    return try (store.pending() + store.parked()).first { $0.kind == .createExpense && isNamed($0.id, by: text) }
}

/// An expense added offline, as entered: its shares are worked out by the server when it is sent.
func printQueued(_ operation: PendingOperation, _ added: NewExpense, names: [String: String]) {
    func name(_ id: String) -> String { names[id] ?? id }
    let refused = operation.state == .refused
    print(
        "\(added.description): \(queuedAmount(added))"
            + (added.homeAmount.map { " (charged \($0) in the home currency)" } ?? "")
            + " on \(added.expenseDate), \(added.category ?? "Other")"
            + (refused ? " (refused by the server)" : " (queued, not sent yet)"))
    let refund = added.amount.hasPrefix("-")
    if let payer = added.paidByMemberId {
        print((refund ? "Refund received by " : "Paid by ") + name(payer))
    } else if let payers = added.paidBy {
        print(refund ? "Refund received by " + byName(received(payers), names) : "Paid by " + byName(payers, names))
    }
    if let exact = added.splits {
        print("Split: exact, " + byName(exact, names))
    } else if let split = added.split {
        let parts: [String] =
            split.amounts.map { $0.map { "\(name($0.memberId)) \($0.amount)" } }
            ?? split.percents.map { $0.map { "\(name($0.memberId)) \($0.value) %" } }
            ?? split.shares.map { $0.map { "\(name($0.memberId)) ×\($0.value)" } }
            ?? split.items.map { items in
                items.map { "\($0.description) \($0.amount)" } + (split.extras ?? []).map { "\($0.description) \($0.amount)" }
            } ?? []
        if parts.isEmpty, let among = split.memberIds, !among.isEmpty {
            let adjusted = (split.adjustments ?? []).map { "\(name($0.memberId)) \($0.amount.hasPrefix("-") ? "" : "+")\($0.amount)" }
            print(
                "Split: \(split.mode.rawValue) among " + among.map(name).joined(separator: ", ")
                    + (adjusted.isEmpty ? "" : "; " + adjusted.joined(separator: ", ")))
        } else {
            print("Split: \(split.mode.rawValue)" + (parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")))
        }
    } else {
        print("Split: equal, among everyone in the group")
    }
    print("")
    if refused {
        print("The server refused it: \(operation.error ?? "no reason given"). `splitter sync --discard \(short(operation.id))` drops it; add it again as it should be.")
    } else {
        print(
            "Its shares are worked out when it is sent: `splitter sync` sends it, "
                + "`splitter sync --discard \(short(operation.id))` drops it.")
    }
}

/// A queued expense's amount as the server will write it: the currency's decimals ("33.00 EUR",
/// not "33" as typed), as typed when it does not read.
func queuedAmount(_ added: NewExpense) -> String {
    guard let currency = try? Currency(code: added.currency),
        let money = try? Money(parsing: added.amount, currency: currency, allowNegative: true)
    else { return "\(added.amount) \(added.currency)" }
    return "\(money.decimalString) \(currency.code)"
}

/// The expenses this profile added to a group offline, not sent yet, oldest first.
func queuedExpenses(in groupID: String, store: OfflineStore) throws -> [NewExpense] {
    try store.pending().filter { $0.groupID == groupID && $0.kind == .createExpense }.compactMap {
        try? JSONDecoder().decode(NewExpense.self, from: $0.body)
    }
}

/// What is queued to change each expense of the group, said for a list ("edit queued", "delete
/// queued"; several, in the order they were made), by expense id. Refused and conflicting ones
/// wait too: `splitter status` says why.
func queuedChanges(in groupID: String, store: OfflineStore) throws -> [String: String] {
    var said: [String: [String]] = [:]
    let waiting = try store.pending() + store.parked() + store.conflicts()
    for operation in waiting where operation.groupID == groupID && operation.isChange {
        guard let id = operation.targetID else { continue }
        let what =
            switch operation.kind {
            case .updateExpense: "edit"
            case .deleteExpense: "delete"
            case .restoreExpense: "restore"
            case .setSharePayment: operation.intendedPayment?.isPaid == false ? "unpaid mark" : "paid mark"
            case .createExpense, .createSettlement: "change"
            }
        let state = operation.state == .pending ? "queued" : operation.state == .refused ? "refused" : "in conflict"
        let phrase = "\(what) \(state)"
        if said[id]?.last != phrase { said[id, default: []].append(phrase) }
    }
    return said.mapValues { $0.joined(separator: ", ") }
}

/// The last 8 characters of an id: enough to name it on the command line. The last, since the
/// first characters of a time-ordered id (the server's shares, activity lines, expenses) are
/// its time, which ids made in the same minute share.
func short(_ id: String) -> String { String(id.suffix(8)) }

/// Whether `text` names `id`: the whole id, or its last characters as `short` shows them (in
/// either case).
func isNamed(_ id: String, by text: String) -> Bool { id.lowercased().hasSuffix(text.lowercased()) }

/// A moment as ISO 8601 in this computer's time zone ("2026-12-06T17:00:00+01:00"; "Z" in UTC),
/// as people read times where they are (found by review: every time was said in UTC).
func timestamp(_ date: Date) -> String {
    let format = ISO8601DateFormatter()
    format.timeZone = .current
    return format.string(from: date)
}

struct ExpenseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expense", abstract: "Add, list, show, edit, delete and restore expenses.",
        discussion: """
            Expenses are named by their id or its last characters, as `expense
            list` shows them. Edits, deletes and restores made while the server
            cannot be reached are queued with the version they were based on;
            `splitter sync` sends them and reports a conflict if someone changed
            the expense meanwhile (see `splitter sync --help`).
            """,
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self, Restore.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an expense.", discussion: SplitOptions.help)
        @OptionGroup var options: GroupOptions
        @Argument(help: "What it was.") var description: String
        @Argument(help: "The amount, e.g. 1200 or 12.50.") var amount: String
        @Option(help: "Currency (default: the group's home currency).") var currency: String?
        @Option(help: "Date, YYYY-MM-DD (default: today).") var date: String?
        @Option(help: "Category name.") var category: String?
        @Option(help: "What your card or bank took in the group's home currency, for an expense in another.")
        var charged: String?
        @OptionGroup var split: SplitOptions

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let (client, store, found) = (context.client, context.store, context.group)
                // Without --paid-by, the one adding it paid, named now: a queued expense sent later
                // under another login of this profile is still this account's member's.
                let (paid, given) = try split.payers(context)
                let paidByMember = given ?? (paid == nil ? found.myMemberId : nil)
                let chosen = try split.splitOrEqual(context)
                // A client id and a fresh key per command: a retry after a lost answer, or a replay
                // of the offline queue, creates nothing twice.
                let request = NewExpense(
                    id: UUID.timeOrdered().text, groupId: found.id, description: description,
                    amount: try split.total(amount),
                    currency: currency ?? found.homeCurrency, category: category, expenseDate: date ?? today(in: found.timeZone),
                    paidBy: paid, paidByMemberId: paidByMember, split: chosen,
                    homeAmount: try charged.map(split.total))
                let key = UUID().uuidString
                let expense: Expense
                do {
                    expense = try await client.addExpense(request, idempotencyKey: key)
                } catch SplitterError.offline {
                    try checkOffline(request)
                    return try queue(
                        PendingOperation(
                            id: request.id!, groupID: found.id, kind: .createExpense,
                            body: try JSONEncoder().encode(request),
                            idempotencyKey: key, createdAt: Date(), error: nil,
                            summary: "expense \(description) \(request.amount) \(request.currency) in \(found.name)",
                            targetID: request.id),
                        in: store, json: options.json,
                        said: "Offline: \(description) is queued; `splitter sync` sends it when the server is back.")
                }
                try? store.cache(expenses: [expense], seen: true)
                if options.json { return try Output.json(expense) }
                let names = context.names
                let refund = expense.amount.hasPrefix("-")
                print(
                    "Added \(refund ? "refund " : "")\(expense.description): \(expense.amount) \(expense.currency)"
                        + (expense.homeAmount.map { " (charged \($0) in the home currency)" } ?? "") + ", "
                        + (refund ? "received by " + byName(received(expense.payers), names, order: context.members)
                            : "paid by " + byName(expense.payers, names, order: context.members)))
                let shares = expense.splits.map { MemberAmount(memberId: $0.memberId, amount: $0.amount) }
                print(
                    (refund ? "Is owed: " : "Shares: ")
                        + byName(refund ? received(shares) : shares, names, order: context.members))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The group's expenses, newest first (as last seen when offline).")
        @OptionGroup var options: GroupOptions
        @Flag(help: "Include deleted expenses.") var deleted = false

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let (client, store, found) = (context.client, context.store, context.group)
                let expenses: [Expense]
                var queued: [NewExpense] = []
                // What this profile queued of each expense last seen (found by a new user: an
                // expense deleted offline was listed as if nothing had happened).
                var changes: [String: String] = [:]
                // The live categories, to say which are deleted (online only; nil offline).
                var live: Set<String>?
                do {
                    expenses = try await client.expenses(groupID: found.id, includeDeleted: deleted)
                    try? store.cache(expenses: expenses, seen: true)
                    live = try? Set(await client.categories(groupID: found.id).map(\.id))
                } catch SplitterError.offline(let reason) {
                    expenses = try store.cachedExpenses(groupID: found.id, includeDeleted: deleted)
                    // What this profile added offline is listed too, marked (found by a new user:
                    // the expense just added was nowhere to be seen until a sync).
                    // (Not in --json, which lists what the server has: with none seen, offline is
                    // an error there, as before.)
                    queued = options.json ? [] : try queuedExpenses(in: found.id, store: store)
                    changes = options.json ? [:] : try queuedChanges(in: found.id, store: store)
                    guard !expenses.isEmpty || !queued.isEmpty else { throw SplitterError.offline(reason) }
                    warn(
                        "Offline: these are the expenses as last seen"
                            + (queued.isEmpty ? "" : ", and \(queued.count) queued to send")
                            + (changes.isEmpty ? "" : "; \(changes.count) with a change waiting, marked")
                            + (queued.isEmpty && changes.isEmpty ? "." : " (`splitter status` lists them)."))
                }
                let names = context.names
                if options.json { return try Output.json(expenses) }
                func payers(_ payers: [SplitClient.MemberAmount]) -> String {
                    payers.map { names[$0.memberId] ?? "?" }.joined(separator: ", ")
                }
                // Newest first, as the server lists them; a queued one is newer than any it sent.
                let rows: [(date: String, cells: [String])] =
                    queued.map { added in
                        let paidBy = added.paidBy ?? added.paidByMemberId.map { [SplitClient.MemberAmount(memberId: $0, amount: added.amount)] } ?? []
                        return (
                            added.expenseDate,
                            [
                                added.expenseDate, added.description + " (queued)", queuedAmount(added),
                                payers(paidBy), added.category ?? "", short(added.id ?? ""),
                            ]
                        )
                    }.reversed()
                    + expenses.map {
                        (
                            $0.expenseDate,
                            [
                                $0.expenseDate,
                                $0.description + ($0.isDeleted ? " (deleted)" : "") + (changes[$0.id].map { " (\($0))" } ?? ""),
                                "\($0.amount) \($0.currency)",
                                // A deleted category said so (a new one may have its name), as the web says it.
                                payers($0.payers),
                                $0.categoryName + (live.map { [category = $0.category] in $0.contains(category) } == false ? " (deleted)" : ""),
                                short($0.id),
                            ]
                        )
                    }
                if rows.isEmpty { return print("No expenses in \(found.name) yet.") }
                // A stable sort by date alone keeps each side's own order within a day.
                Output.table(
                    ["DATE", "DESCRIPTION", "AMOUNT", "PAID BY", "CATEGORY", "ID"],
                    rows.enumerated().sorted { ($0.element.date, $1.offset) > ($1.element.date, $0.offset) }.map(\.element.cells))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An expense: who paid, each share (with its id) and whether it is paid.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Expense id, or its last characters (at least 4), as `expense list` shows them.") var expense: String

        func run() async throws {
            try await SplitterCLI.run {
                // One added offline, not sent yet: shown as entered (it exited 5 with advice only).
                let store = try options.store()
                if let queued = try queuedCreate(named: expense, store: store) {
                    let added = try JSONDecoder().decode(NewExpense.self, from: queued.body)
                    // As queued: its id in the queue, and the expense as it will be sent.
                    struct Queued: Encodable {
                        let queued: String
                        let expense: NewExpense
                    }
                    if options.json { return try Output.json(Queued(queued: queued.id, expense: added)) }
                    let names = (try? await GroupContext(client: try options.client(), store: store, group: added.groupId))?.names
                    return printQueued(queued, added, names: names ?? [:])
                }
                let context = try await ExpenseContext(options, expense: expense)
                if context.isOffline { warn("Offline: this is the expense as last seen.") }
                context.remember(context.expense)
                if options.json { return try Output.json(context.expense) }
                printExpense(context.expense, names: context.names)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change an expense; what you leave out stays as it is.",
            discussion: """
                The edit is based on the version you last saw (or --version). If
                someone changed the expense since, nothing is saved and both
                versions are shown (exit 6). A refund stays a refund: give its
                amounts as said ("--amount 36" is 36 back).

                \(SplitOptions.help)
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Expense id, or its last characters (at least 4), as `expense list` shows them.") var expense: String
        @Option(help: "What it was.") var description: String?
        @Option(help: "The amount, e.g. 1200 or 12.50.") var amount: String?
        @Option(help: "Currency.") var currency: String?
        @Option(help: "Date, YYYY-MM-DD.") var date: String?
        @Option(help: "Category name.") var category: String?
        @Option(help: "The version this edit is based on (default: the one last seen).") var version: Int64?
        @Option(help: "What your card or bank took in the home currency (an edit of the amount without it drops the old one).")
        var charged: String?
        @Flag(help: "Change the part of someone no longer in the group all the same (their balance moves by it).")
        var confirmRemovedShares = false
        @OptionGroup var split: SplitOptions

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await ExpenseContext(options, expense: expense)
                // A refund's amounts are said as received, with or without --refund (found by a
                // new user: "--amount 36" on a refund of 30 made it a cost of 36, a swing of 66).
                var split = self.split
                if context.expense.amount.hasPrefix("-") { split.refund = true }
                let (paid, paidByMember) = try split.payers(context.group)
                var changes = ExpenseChanges(
                    description: description, amount: try amount.map(split.total), currency: currency, category: category,
                    expenseDate: date, paidBy: paid, paidByMemberId: paidByMember,
                    split: try split.split(context.group, sharers: context.sharers),
                    homeAmount: try charged.map(split.total)
                )
                guard changes != ExpenseChanges() else {
                    throw CLIError(
                        message: "Nothing to change: give --description, --amount, --date, --charged, --paid-by or a split.",
                        code: 2)
                }
                if confirmRemovedShares { changes.confirmRemovedShares = true }
                // The version last seen here (found by review: the one just read made every
                // edit current, so another person's change in between was overwritten unseen).
                let base = context.base(version)
                if !context.isOffline {
                    do {
                        let updated = try await context.group.client.updateExpense(
                            id: context.expense.id, changes, basedOn: base)
                        context.remember(updated)
                        if options.json { return try Output.json(updated) }
                        // An edit that says what the expense says already changes nothing.
                        if updated.version == base {
                            return print("Nothing changed: \(updated.description) already says that (version \(base)).")
                        }
                        print("Changed \(updated.description) (now version \(updated.version)).")
                        return printExpense(updated, names: context.names)
                    } catch SplitterError.offline {
                        // queued below
                    } catch SplitterError.conflict(let message, "confirmRemovedShares", _) {
                        // The server asks "Change it anyway?": say how, on the command line.
                        throw CLIError(message: "\(message) Run again with --confirm-removed-shares to do so.", code: 6)
                    } catch let error as SplitterError {
                        guard let current = error.currentExpense else { throw error }
                        context.remember(current)  // shown below
                        warn(
                            "splitter: someone changed \(context.expense.description) since version \(base); nothing was saved."
                        )
                        warn("  yours:  \(describe(changes, names: context.names))")
                        warn("  theirs: \(describe(current, names: context.names))")
                        warn("Look with `splitter expense show \(short(current.id))` and edit again.")
                        throw ExitCode(error.exitCode)
                    }
                }
                try context.refuseChangeByRoleOffline()
                var basis = context.expense
                basis.version = base
                let operation = try PendingOperation.update(
                    basis, changes, summary: "edit \(context.title): \(describe(changes, names: context.names))")
                try queue(
                    operation, in: context.group.store, json: options.json,
                    said: "Offline: the edit of \(context.expense.description) is queued (based on version \(base)); "
                        + "`splitter sync` sends it.")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an expense (it can be restored; transfers made by paid shares stay).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Expense id, or its last characters (at least 4), as `expense list` shows them.") var expense: String
        @Flag(help: "Delete it although someone no longer in the group had a part in it (their balance moves by it).")
        var confirmRemovedShares = false

        func run() async throws {
            try await SplitterCLI.run { try await setDeleted(options, expense, true, confirm: confirmRemovedShares) }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring a deleted expense back.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Expense id, or its last characters (at least 4), as `expense list` shows them.") var expense: String
        @Flag(help: "Restore it although someone no longer in the group had a part in it (their balance moves by it).")
        var confirmRemovedShares = false

        func run() async throws {
            try await SplitterCLI.run { try await setDeleted(options, expense, false, confirm: confirmRemovedShares) }
        }
    }
}

/// `expense delete` and `expense restore`: online, or queued with the version last seen.
private func setDeleted(_ options: GlobalOptions, _ text: String, _ isDeleted: Bool, confirm: Bool) async throws {
    let context = try await ExpenseContext(options, expense: text)
    let verb = isDeleted ? "delete" : "restore"
    if !context.isOffline {
        // Nothing to do is said, not reported as done (found by a new user: "Restored Taxi." for
        // one never deleted).
        if context.expense.isDeleted == isDeleted {
            if options.json { return try Output.json(context.expense) }
            return print(
                isDeleted
                    ? "\(context.expense.description) is deleted already; nothing changed."
                    : "\(context.expense.description) is not deleted; nothing to restore.")
        }
        do {
            let client = context.group.client
            // A delete on what was last seen here, as an edit (found by review: it went through
            // over a change made since, unseen); a restore loses nothing, so on what is there.
            let base = isDeleted ? context.base(nil) : context.expense.version
            let result =
                isDeleted
                ? try await client.deleteExpense(id: context.expense.id, basedOn: base, confirmRemovedShares: confirm)
                : try await client.restoreExpense(id: context.expense.id, basedOn: base, confirmRemovedShares: confirm)
            context.remember(result)
            if options.json { return try Output.json(result) }
            if isDeleted {
                return print(
                    "Deleted \(result.description); `splitter expense restore \(short(result.id))` brings it back.")
            }
            return print("Restored \(result.description).")
        } catch SplitterError.offline {
            // queued below
        } catch SplitterError.conflict(let message, "confirmRemovedShares", _) {
            // The server asks "Delete it anyway?": say how, on the command line.
            throw CLIError(message: "\(message) Run again with --confirm-removed-shares to do so.", code: 6)
        } catch let error as SplitterError {
            guard let current = error.currentExpense else { throw error }
            context.remember(current)  // shown below
            warn("splitter: someone changed \(context.expense.description) since you saw it; nothing was done.")
            warn("  now: \(describe(current, names: context.names))")
            warn("Look with `splitter expense show \(short(current.id))` and \(verb) it again if you still want to.")
            throw ExitCode(error.exitCode)
        }
    }
    try context.refuseChangeByRoleOffline()
    // Queued on the version last seen, as it would have been sent (found by review: the one just read).
    var basis = context.expense
    if isDeleted { basis.version = context.base(nil) }
    let operation = PendingOperation.setDeleted(
        basis, isDeleted, confirmRemovedShares: confirm, summary: "\(verb) \(context.title)")
    try queue(
        operation, in: context.group.store, json: options.json,
        said: "Offline: the \(verb) of \(context.expense.description) is queued (based on version "
            + "\(basis.version)); `splitter sync` sends it.")
}

/// An expense for people: what, who paid, each share with its id and paid state.
func printExpense(_ expense: Expense, names: [String: String]) {
    print(
        "\(expense.description)\(expense.isDeleted ? " (deleted)" : ""): \(expense.amount) \(expense.currency)"
            // What the card took in the home currency (found by a new user: the CLI never said).
            + (expense.homeAmount.map { " (charged \($0) in the home currency)" } ?? "") + " on "
            + "\(expense.expenseDate), \(expense.categoryName)")
    // A refund's amounts said as received and owed, above zero (found by a new user: "received
    // by Emil -120.00").
    let refund = expense.amount.hasPrefix("-")
    func shown(_ amount: String) -> String { refund ? received(amount) : amount }
    print(refund ? "Refund received by " + byName(received(expense.payers), names) : "Paid by " + byName(expense.payers, names))
    print("Split: \(expense.split.mode.rawValue)")
    // An itemized bill's items and extras, each with who shares it (found by a new user: only
    // "Split: itemized").
    for item in expense.split.items ?? [] {
        let who = (item.split.memberIds ?? []).map { names[$0] ?? "?" }.joined(separator: ", ")
        print("  \(item.description): \(shown(item.amount))\(who.isEmpty ? " (\(item.split.mode.rawValue))" : ", " + who)")
    }
    for extra in expense.split.extras ?? [] { print("  \(extra.description): \(shown(extra.amount)), in proportion") }
    print("")
    Output.table(
        ["SHARE", "MEMBER", refund ? "IS OWED" : "OWES", "PAID"],
        expense.splits.map {
            [
                short($0.id), names[$0.memberId] ?? $0.memberId, shown($0.amount),
                // A share its member covered themselves, or of 0, has nothing to pay (as the web
                // says "Paid it" / "Owes nothing"; it read "no").
                $0.isPaid
                    ? "yes" + ($0.paidAt.map { " (\(timestamp($0)))" } ?? "")
                    : !$0.nothingToPay ? "no"
                    : (try? DecimalValue(parsing: $0.amount, allowNegative: true))?.isZero == true ? "owes nothing"
                    : expense.amount.hasPrefix("-") ? "has it" : "paid it",
            ]
        })
    print("")
    print("Id \(expense.id), version \(expense.version)")
}

/// The fields an edit sets, for people: `amount 9600, description "Dinner"`.
func describe(_ changes: ExpenseChanges, names: [String: String]) -> String {
    var parts: [String] = []
    if let description = changes.description { parts.append("description \"\(description)\"") }
    if let amount = changes.amount { parts.append("amount \(amount)") }
    if let currency = changes.currency { parts.append("currency \(currency)") }
    if let date = changes.expenseDate { parts.append("date \(date)") }
    if let category = changes.category { parts.append("category \(category)") }
    if let payer = changes.paidByMemberId { parts.append("paid by \(names[payer] ?? payer)") }
    if let paidBy = changes.paidBy {
        parts.append("paid by " + byName(paidBy, names))
    }
    if let split = changes.split { parts.append("split \(split.mode.rawValue)") }
    return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
}

/// A refund's amount as received or owed: above zero ("-120.00" → "120.00").
func received(_ amount: String) -> String { amount.hasPrefix("-") ? String(amount.dropFirst()) : amount }

/// A refund's amounts as received or owed, above zero.
func received(_ amounts: [SplitClient.MemberAmount]) -> [SplitClient.MemberAmount] {
    amounts.map { SplitClient.MemberAmount(memberId: $0.memberId, amount: received($0.amount)) }
}

/// A whole expense in one line: `version 2: "Dinner" 9000 JPY on 2026-05-01, paid by Ben 9000`.
func describe(_ expense: Expense, names: [String: String]) -> String {
    "version \(expense.version): \"\(expense.description)\" \(expense.amount) \(expense.currency) on "
        + "\(expense.expenseDate), "
        + (expense.amount.hasPrefix("-") ? "received by " + byName(received(expense.payers), names) : "paid by " + byName(expense.payers, names))
        + (expense.isDeleted ? " (deleted)" : "")
}

/// "Aki 3000, Ben 1000": members by name ("?" when unknown), each with an amount.
/// "Aki 50000, Ben 45000": in the group's order of members when given (the server keeps its own).
func byName(_ amounts: [SplitClient.MemberAmount], _ names: [String: String], order: [Member] = []) -> String {
    let place = Dictionary(order.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    return amounts.enumerated()
        .sorted { (place[$0.element.memberId] ?? Int.max, $0.offset) < (place[$1.element.memberId] ?? Int.max, $1.offset) }
        .map { "\(names[$0.element.memberId] ?? "?") \($0.element.amount)" }.joined(separator: ", ")
}

/// What the server would refuse in an expense made offline, said now with exit 7 rather than at
/// the next sync (found by a new user: 12.345 EUR, 100.5 JPY and exact amounts that do not add up
/// were each "queued"): the amounts in their currency, payers and exact amounts adding up to the
/// total, percentages to 100.
func checkOffline(_ request: NewExpense) throws {
    let refused = refusedOffline
    let (total, currency) = try offlineAmount(request.amount, in: request.currency, "The amount")
    func minor(_ text: String, _ what: String) throws -> Int64 { try offlineAmount(text, in: currency.code, what).units }
    if total == 0 { throw refused("The amount is zero.") }
    func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).decimalString }
    if let paidBy = request.paidBy {
        let paid = try paidBy.reduce(Int64(0)) { $0 + (try minor($1.value, "A payer's amount")) }
        if paid != total { throw refused("The payers add up to \(money(paid)) \(currency.code), not \(request.amount).") }
    }
    if let split = request.split, split.mode == .exact, let amounts = split.amounts {
        let owed = try amounts.reduce(Int64(0)) { $0 + (try minor($1.value, "An exact amount")) }
        if owed != total { throw refused("The exact amounts add up to \(money(owed)) \(currency.code), not \(request.amount).") }
    }
    if let split = request.split, split.mode == .percent, let percents = split.percents {
        var sum = Decimal(0)
        for entry in percents {
            // Read as the server reads it (Foundation's reading takes "1e2" and "60%").
            guard let value = try? DecimalValue(parsing: entry.value),
                let decimal = Decimal(string: value.normalized.description, locale: Locale(identifier: "en_US_POSIX"))
            else {
                throw refused("\(entry.value) is not a percentage.")
            }
            sum += decimal
        }
        if sum != 100 { throw refused("The percentages add up to \(sum), not 100.") }
    }
}

/// A refusal of something made offline, as the server would refuse it: exit 7, nothing queued.
func refusedOffline(_ message: String) -> CLIError { CLIError(message: message + " Nothing was queued.", code: 7) }

/// An amount read offline as the server reads it, in the currency `code` names.
func offlineAmount(_ text: String, in code: String, _ what: String, allowNegative: Bool = true) throws
    -> (units: Int64, currency: Currency)
{
    guard let currency = try? Currency(code: code.uppercased()) else {
        throw refusedOffline("\(code.uppercased()) is not a currency code.")
    }
    do {
        return (try Money(parsing: text, currency: currency, allowNegative: allowNegative).minorUnits, currency)
    } catch {
        throw refusedOffline("\(what): \(error).")
    }
}

/// A write kept for `splitter sync` because the server cannot be reached: its id as JSON
/// (`{"queued": id}`), or the sentence `said`.
func queue(_ operation: PendingOperation, in store: OfflineStore, json: Bool, said: String) throws {
    try store.enqueue(operation)
    if json { return try Output.json(["queued": operation.id]) }
    print(said)
}

/// The code a pasted link ends with ("https://split.example.org/join/ABC?x#y" → "ABC"); text that is
/// no link, as it is.
func codeOfLink(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.contains("/") else { return trimmed }
    let path = trimmed.split(separator: "#", maxSplits: 1).first.map(String.init) ?? trimmed
    let withoutQuery = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
    return withoutQuery.split(separator: "/").last.map(String.init) ?? trimmed
}

/// Asks `question` and reads a yes; anything else is `declined` (exit 1, nothing done). With no
/// answer to read (input is not a terminal, or ended), says how to go on without asking (found
/// by a new user: "Not paid." from a script, with no word of --yes).
func confirm(_ question: String, declined: String) throws {
    print("\(question) [y/N] ", terminator: "")
    // The question before any answer or refusal, also when output is a pipe.
    fflush(nil)
    guard let reply = readLine() else {
        print("")  // the question's line ends before the refusal (found by a new user: run together)
        throw CLIError(message: "\(declined) There was no answer to read: run it with --yes to go on without asking.", code: 1)
    }
    guard reply.lowercased().hasPrefix("y") else { throw CLIError(message: declined, code: 1) }
}

/// One line on standard error, for what is not the command's output.
func warn(_ line: String) {
    fflush(nil)  // after what was printed before it, also through a pipe
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
