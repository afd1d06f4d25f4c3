import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// `splitter recurring`: expenses that repeat (issue 20).
struct RecurringCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recurring",
        abstract: "Recurring expenses: rent, subscriptions, the weekly shop.",
        discussion: """
              splitter recurring add Flat Rent 1800 --every month --start 2026-12-01 --paid-by aki
              splitter recurring add Flat Bread 8 --every week --on mon,thu --confirm
              splitter recurring add Flat Insurance 120 --every year --start 2028-02-29 --times 5
              splitter recurring list Flat
              splitter recurring pause Flat 3f2a        # resume, end, or: skip Flat 3f2a 2026-12-24
              splitter recurring edit Flat 3f2a --amount 1850 --equal aki,ben

            Each date becomes an expense (or, with --confirm, waits under `splitter pending`) once
            the group's day comes; the 31st falls on a shorter month's last day unless
            --skip-short-months. Split options as for `splitter expense add`.
            """,
        subcommands: [List.self, Add.self, Edit.self, Pause.self, Resume.self, Skip.self, End.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A group's recurring expenses and their next dates.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                let series = try await client.recurringExpenses(groupID: found.id)
                try Output.list(
                    series, as: "recurring", json: options.json,
                    empty: "Nothing repeats in \(found.name) yet.", ["WHAT", "AMOUNT", "EVERY", "STATE", "NEXT", "ID"]
                ) {
                    [
                        $0.expense.description, "\($0.expense.amount) \($0.expense.currency)",
                        RecurringCommand.every($0.rule) + ($0.mode == "confirm" ? " (confirm)" : ""),
                        $0.state + ($0.note == nil ? "" : " *"), $0.upcoming.first ?? "", short($0.id),
                    ]
                }
                // Notes below the table, one a line (found by a new user: a long pause note in the
                // STATE column made every row as wide as it).
                var notes = series.compactMap { item in item.note.map { "* \(item.expense.description) (\(short(item.id))): \($0)" } }
                // Dates skipped one by one, which NEXT leaves out without a word.
                // Those still to come (a past one is kept until the series changes).
                let now = today(in: found.timeZone)
                notes += series.filter { item in item.state != "ended" && item.skipped.contains { $0 >= now } }.map { item in
                    "\(item.expense.description) (\(short(item.id))) skips \(item.skipped.filter { $0 >= now }.joined(separator: ", "))."
                }
                if !options.json, !notes.isEmpty { print("\n" + notes.joined(separator: "\n")) }
            }
        }
    }

    /// Who shares a draft now, for --adjust without --equal (as `expense edit`): the members its
    /// split names.
    static func sharers(of draft: ExpenseDraft) -> [String]? {
        var sharers: [String]? = draft.splits?.map(\.memberId)
        if let entered = draft.split {
            let named: [String]? = entered.percents?.map(\.memberId) ?? entered.shares?.map(\.memberId)
            sharers = entered.memberIds ?? named ?? entered.amounts?.map(\.memberId) ?? sharers
        }
        return sharers
    }

    /// Weekdays as `--on` takes them and `list` shows them; 1 is Monday, as in `RecurrenceRule`.
    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `--on mon,thu` → [1, 4].
    static func weekdays(_ text: String) throws -> [Int] {
        try text.lowercased().split(separator: ",").map { part -> Int in
            let key = String(part.trimmingCharacters(in: .whitespaces).prefix(3))
            guard let index = weekdays.firstIndex(of: key) else {
                throw CLIError(message: "--on takes days like mon,thu.", code: 2)
            }
            return index + 1
        }
    }

    static func every(_ rule: RecurrenceRule) -> String {
        let interval = rule.interval ?? 1
        var text = interval == 1 ? rule.every : "\(interval) \(rule.every)s"
        if let days = rule.weekdays, !days.isEmpty, rule.every == "week" {
            text += " on " + days.compactMap { (1...7).contains($0) ? weekdays[$0 - 1] : nil }.joined(separator: ",")
        }
        // Where it ends, so that a count turned into a last date is seen (found by a new user).
        if let count = rule.count { text += ", \(count) \(count == 1 ? "time" : "times")" }
        if let end = rule.endDate { text += ", until \(end)" }
        return text
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a recurring expense.", discussion: SplitOptions.help)
        @OptionGroup var options: GroupOptions
        @Argument(help: "What it is.") var description: String
        @Argument(help: "The amount, e.g. 1800 or 12.50.") var amount: String
        @Option(help: "day, week, month or year.") var every: String
        @Option(help: "Every N of them (default 1).") var interval: Int?
        @Option(help: "Weekly: the days, e.g. mon,thu.") var on: String?
        @Option(help: "The first date, YYYY-MM-DD (default: today).") var start: String?
        @Option(help: "The last date.") var until: String?
        @Option(help: "How many times in all.") var times: Int?
        @Flag(help: "Leave out months without the start's day (the 31st) instead of using their last day.")
        var skipShortMonths = false

        func validate() throws {
            if let times, times < 1 { throw ValidationError("--times is 1 or more.") }
        }
        @Flag(help: "Each date waits to be confirmed (`splitter pending`) instead of being added.") var confirm = false
        @Option(help: "Currency (default: the group's home currency).") var currency: String?
        @Option(help: "Category name.") var category: String?
        @OptionGroup var split: SplitOptions

        func run() async throws {
            try await SplitterCLI.run {
                let context = try await GroupContext(options)
                let found = context.group
                let (paid, paidByMember) = try split.payers(context)
                let weekdays = try on.map(RecurringCommand.weekdays(_:))
                let created = try await context.client.createRecurring(
                    groupID: found.id,
                    expense: ExpenseDraft(
                        description: description, amount: try split.total(amount), currency: currency ?? found.homeCurrency,
                        category: category, paidBy: paid, paidByMemberId: paidByMember,
                        split: try split.splitOrEqual(context)),
                    rule: RecurrenceRule(
                        every: every.lowercased(), interval: interval, weekdays: weekdays,
                        monthEnd: skipShortMonths ? "skip" : nil, startDate: start ?? today(in: found.timeZone),
                        endDate: until, count: times),
                    mode: confirm ? "confirm" : "auto")
                if options.json { return try Output.json(created) }
                print("Added \(created.expense.description), \(created.expense.amount) \(created.expense.currency) every \(RecurringCommand.every(created.rule)).")
                // A first date in the past: its dates up to today are made at once (found by a
                // new user: two expenses appeared unsaid, and the series had ended).
                if created.rule.startDate < today(in: found.timeZone) {
                    let name = quotedArgument(found.name)
                    print(
                        (confirm
                            ? "Its dates up to today wait to be confirmed: `splitter pending \(name)`."
                            : "Its dates up to today were added now, as expenses: `splitter expense list \(name)`.")
                            + (created.state == "ended" ? " That was every one of them: the series has ended." : ""))
                }
                if !created.upcoming.isEmpty { print("Next: \(created.upcoming.joined(separator: ", "))") }
            }
        }
    }

    /// One recurring expense named on the command line: its group, and its id or the id's end.
    struct Series: ParsableArguments {
        @OptionGroup var options: GroupOptions
        @Argument(help: "The recurring expense's id (or its last characters).") var id: String

        /// Changes the series as `make` says (from the series, and its group with its members
        /// when `withMembers`), based on the version read; the series as it is now, as JSON or as
        /// its description and `said`.
        func change(
            withMembers: Bool = false, _ make: (RecurringExpense, GroupContext?) throws -> RecurringChanges,
            said: @autoclosure () -> String, showsRule: Bool = false
        ) async throws {
            try await SplitterCLI.run {
                var context: GroupContext?
                let (client, found): (SplitterClient, Group)
                if withMembers {
                    let read = try await GroupContext(options)
                    (context, client, found) = (read, read.client, read.group)
                } else {
                    (client, found) = try await options.resolve()
                }
                let series = try single(
                    try await client.recurringExpenses(groupID: found.id).filter { isNamed($0.id, by: id) },
                    none: "No recurring expense \(id) in \(found.name).",
                    several: "Several recurring expenses end with \(id).")
                var changes = try make(series, context)
                changes.version = series.version
                let changed = try await client.updateRecurring(id: series.id, changes)
                if options.json { return try Output.json(changed) }
                print(
                    "\(changed.expense.description): \(said())"
                        + (showsRule ? " Every \(RecurringCommand.every(changed.rule))." : ""))
                if changed.state == "active", !changed.upcoming.isEmpty {
                    print("Next: \(changed.upcoming.joined(separator: ", "))")
                }
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a recurring expense from its next date on; what it already added stays.",
            discussion: """
                What you leave out stays as it is. A new rule starts from the next
                date not yet added, tomorrow at the earliest (or from --start, if
                later: a start that would leave out dates not yet added is
                refused, naming them; to change it only from a later date, give
                it --until the day before and add a new one from that date);
                dates skipped stay skipped where it still falls. --times
                counts from the start, as when added; when the series added some
                on other dates (--every, --interval, --on changed), it counts
                those added and the rest from the new rule, kept as the last date
                (--until) they come to. A paused series stays paused; `recurring
                list` says if something still stops it.

                \(SplitOptions.help)
                """)
        @OptionGroup var series: Series
        @Option(help: "What it is.") var description: String?
        @Option(help: "The amount, e.g. 1800 or 12.50.") var amount: String?
        @Option(help: "Currency.") var currency: String?
        @Option(help: "Category name.") var category: String?
        @Option(help: "day, week, month or year.") var every: String?
        @Option(help: "Every N of them.") var interval: Int?
        @Option(help: "Weekly: the days, e.g. mon,thu.") var on: String?
        @Option(help: "The first date, YYYY-MM-DD.") var start: String?
        @Option(help: "The last date.") var until: String?
        @Option(help: "How many times in all.") var times: Int?
        @Flag(help: "Repeat with no last date and no count.") var forever = false
        @Flag(inversion: .prefixedNo, help: "Leave out months without the start's day, or (--no-…) use their last day.")
        var skipShortMonths: Bool?
        @Flag(help: "Each date waits to be confirmed (`splitter pending`).") var confirm = false
        @Flag(help: "Each date is added at once.") var auto = false
        @OptionGroup var split: SplitOptions

        func validate() throws {
            if confirm && auto { throw ValidationError("Choose --confirm or --auto, not both.") }
            if forever && (until != nil || times != nil) {
                throw ValidationError("--forever has no last date: leave out --until and --times.")
            }
            if let times, times < 1 { throw ValidationError("--times is 1 or more.") }
        }

        func run() async throws {
            try await series.change(
                withMembers: true,
                { series, context in
                    guard let context else { throw CLIError(message: "The group's members could not be read.", code: 1) }
                    var changes = RecurringChanges()
                    changes.expense = try expense(series, context)
                    changes.rule = try rule(series.rule)
                    changes.mode = confirm ? "confirm" : auto ? "auto" : nil
                    guard changes.expense != nil || changes.rule != nil || changes.mode != nil else {
                        throw CLIError(
                            message: "Nothing to change: give --amount, --description, --every, --until, --paid-by, a split, --confirm…",
                            code: 2)
                    }
                    return changes
                },
                said: "changed.", showsRule: true)
        }

        /// The template with what was given, or nil when nothing of it was.
        func expense(_ series: RecurringExpense, _ context: GroupContext) throws -> ExpenseDraft? {
            var split = self.split
            let old = series.expense
            // A refund stays one, its amounts said as received (as `expense edit`).
            if old.amount.hasPrefix("-") { split.refund = true }
            let (paid, paidByMember) = try split.payers(context)
            let newSplit = try split.split(context, sharers: RecurringCommand.sharers(of: old))
            // A new amount leaves amounts given for the old one adding up to it no more: asked
            // for with it rather than refused by the server (found by review).
            if amount != nil {
                if paid == nil && paidByMember == nil, let payers = old.paidBy, payers.count > 1 {
                    throw CLIError(
                        message: "\(old.description) has several payers (\(byName(payers, context.names, order: context.members))): "
                            + "give --paid-by with their amounts for the new total too.",
                        code: 2)
                }
                let byAmounts = old.splits != nil || [.exact, .itemized].contains(old.split?.mode)
                if newSplit == nil, byAmounts {
                    throw CLIError(
                        message: "\(old.description) is split by amounts: give the split for the new total too "
                            + "(--exact, or --equal, --percent, --shares).",
                        code: 2)
                }
            }
            guard description != nil || amount != nil || currency != nil || category != nil || paid != nil
                || paidByMember != nil || newSplit != nil
            else { return nil }
            var draft = series.expense
            draft.expenseDate = nil
            if let description { draft.description = description }
            if let amount { draft.amount = try split.total(amount) }
            if let currency { draft.currency = currency }
            if let category { draft.category = category }
            if paid != nil || paidByMember != nil { (draft.paidBy, draft.paidByMemberId) = (paid, paidByMember) }
            if let newSplit { (draft.split, draft.splits) = (newSplit, nil) }
            return draft
        }

        /// The rule with what was given, or nil when nothing of it was.
        func rule(_ current: RecurrenceRule) throws -> RecurrenceRule? {
            guard every != nil || interval != nil || on != nil || start != nil || until != nil || times != nil || forever
                || skipShortMonths != nil
            else { return nil }
            var rule = current
            if let every { rule.every = every.lowercased() }
            if let interval { rule.interval = interval }
            if let on {
                guard rule.every == "week" else {
                    throw CLIError(message: "--on is for a weekly series: give --every week with it.", code: 2)
                }
                rule.weekdays = try RecurringCommand.weekdays(on)
            }
            if rule.every != "week" { rule.weekdays = nil }
            if let start { rule.startDate = start }
            // A new end replaces the old one, whichever kind it was.
            if until != nil || times != nil { (rule.endDate, rule.count) = (until, times) }
            if forever { (rule.endDate, rule.count) = (nil, nil) }
            if let skipShortMonths { rule.monthEnd = skipShortMonths ? "skip" : nil }
            return rule
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pause: nothing is added until resumed.")
        @OptionGroup var series: Series
        func run() async throws {
            try await series.change({ _, _ in RecurringChanges(state: "paused") }, said: "paused.")
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume from today (what fell due while paused is not added).")
        @OptionGroup var series: Series
        func run() async throws {
            try await series.change({ _, _ in RecurringChanges(state: "active") }, said: "resumed.")
        }
    }

    struct Skip: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Skip one coming date.")
        @OptionGroup var series: Series
        @Argument(help: "The date to skip, YYYY-MM-DD (default: the next one).") var date: String?
        func run() async throws {
            var skipped = date ?? "the next date"
            try await series.change(
                { series, _ in
                    guard let next = date ?? series.upcoming.first else {
                        throw CLIError(
                            message: "\(series.expense.description) has no coming date to skip (it is \(series.state)).",
                            code: 7)
                    }
                    skipped = next  // said by its date (found by a new user: "the next date skipped.")
                    return RecurringChanges(skip: [next])
                },
                said: "\(skipped) skipped.")
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End it; what it added stays.")
        @OptionGroup var series: Series
        func run() async throws {
            try await series.change({ _, _ in RecurringChanges(state: "ended") }, said: "ended.")
        }
    }
}

/// `splitter pending`: recurring expenses waiting to be confirmed.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "Recurring expenses waiting to be confirmed: list, confirm (as is or with another amount), dismiss.",
        subcommands: [List.self, Confirm.self, Dismiss.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What waits, oldest first.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, found) = try await options.resolve()
                try Output.list(
                    try await client.pendingExpenses(groupID: found.id), as: "pending", json: options.json,
                    empty: "Nothing waits in \(found.name).", ["DATE", "WHAT", "AMOUNT", "ID"]
                ) { [$0.date, $0.expense.description, "\($0.expense.amount) \($0.expense.currency)", short($0.id)] }
            }
        }
    }

    /// One waiting occurrence named on the command line: its group, and its id or the id's end.
    struct Item: ParsableArguments {
        @OptionGroup var options: GroupOptions
        @Argument(help: "Its id (or last characters).") var id: String

        /// The client and the occurrence.
        func find() async throws -> (SplitterClient, PendingExpense) {
            let (client, found) = try await options.resolve()
            let matches = try await client.pendingExpenses(groupID: found.id).filter {
                isNamed($0.id, by: id)
            }
            return (
                client,
                try single(
                    matches, none: "Nothing waiting as \(id) in \(found.name).", several: "Several end with \(id).")
            )
        }
    }

    struct Confirm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm: it becomes an expense.",
            discussion: """
                As it is, or changed this time: another amount or date, other payers, another
                split (to leave out someone no longer in the group: --equal with the others).
                """)
        @OptionGroup var item: Item
        @Option(help: "Another amount this time (the payer pays it all; the split stays unless given).") var amount: String?
        @Option(help: "Another date, YYYY-MM-DD.") var date: String?
        @OptionGroup var split: SplitOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, waiting) = try await item.find()
                var edited: ExpenseDraft?
                // Payers and split as `recurring edit` reads them (found by a new user: one removed
                // since could not be left out, so nothing could confirm it).
                var paid: [SplitClient.MemberAmount]?
                var paidByMember: String?
                var newSplit: SplitInput?
                if split.paidBy != nil || split.equal != nil || split.exact != nil || split.percent != nil
                    || split.shares != nil || split.adjust != nil
                {
                    let context = try await GroupContext(item.options)
                    var split = self.split
                    if waiting.expense.amount.hasPrefix("-") { split.refund = true }
                    (paid, paidByMember) = try split.payers(context)
                    newSplit = try split.split(context, sharers: RecurringCommand.sharers(of: waiting.expense))
                }
                if amount != nil || date != nil || paid != nil || paidByMember != nil || newSplit != nil {
                    var draft = waiting.expense
                    if paid != nil || paidByMember != nil { (draft.paidBy, draft.paidByMemberId) = (paid, paidByMember) }
                    if let newSplit { (draft.split, draft.splits) = (newSplit, nil) }
                    // Said as the series says it: a refund's other amount is money received too.
                    if let amount {
                        if draft.amount.hasPrefix("-") {
                            draft.amount = SplitOptions.belowZero(amount)
                        } else {
                            try SplitOptions.refuseMinus(amount)
                            draft.amount = amount
                        }
                    }
                    draft.expenseDate = date ?? waiting.date
                    edited = draft
                }
                let expense: Expense
                do {
                    expense = try await client.confirmPending(id: waiting.id, edited: edited)
                } catch SplitterError.validation(let message, let field) where message.contains("no longer in the group") {
                    // Said with the way out (found by a new user: "split.memberIds[1]: Tommy is no
                    // longer in the group…", and no word of --equal); a payer gone needs --paid-by.
                    let said = message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? message
                    let payer = field.map { $0.hasPrefix("paid") } ?? false
                    guard payer ? paidByMember == nil && paid == nil : newSplit == nil else { throw SplitterError.validation(message: message, field: field) }
                    throw CLIError(
                        message: "\(said) " + (payer ? "Give who paid it this time, with --paid-by." : "Give who shares it this time, like --equal with the others."),
                        code: 7)
                }
                if item.options.json { return try Output.json(expense) }
                print("Confirmed \(expense.description): \(expense.amount) \(expense.currency) on \(expense.expenseDate).")
            }
        }
    }

    struct Dismiss: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Dismiss: not an expense this time.")
        @OptionGroup var item: Item
        @Flag(help: "Every date of its recurring expense still waiting, not only this one.") var all = false

        func run() async throws {
            try await SplitterCLI.run {
                let (client, waiting) = try await item.find()
                if all {
                    let count = try await client.dismissWaiting(recurringID: waiting.recurringId)
                    if item.options.json { return try Output.json(["dismissedCount": count]) }
                    return print("Dismissed \(count) waiting \(count == 1 ? "date" : "dates") of \(waiting.expense.description).")
                }
                try await client.dismissPending(id: waiting.id)
                if item.options.json { return try Output.json(["dismissed": waiting.id]) }
                print("Dismissed \(waiting.expense.description) of \(waiting.date).")
            }
        }
    }
}
