import ArgumentParser
import Foundation
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

/// Today's date where the group is (its time zone), else where this computer is.
func today(in timeZone: String? = nil) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
    let parts = calendar.dateComponents([.year, .month, .day], from: Date())
    return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
}

/// Says that what follows was computed on this device, from when (the group's last complete
/// pull, not the last push), and what it leaves out.
func offlineCopyNote(_ store: OfflineStore, groupID: String) throws -> String {
    let queued = try store.pending().count
    return "Offline: computed on this device from the copy synced \(try (store.pulledAt(groupID: groupID) ?? store.lastSync).map(timestamp) ?? "earlier")"
        + (queued > 0 ? "; \(counted(queued, "queued change is", "queued changes are")) not in it yet." : ".")
}

extension GroupContext {
    /// The group's balances computed from the offline copy, with the note saying so on standard
    /// error; without a copy, the server cannot be reached (`reason`), and there is no copy yet.
    func offlineBalances(_ reason: String) throws -> [Balance] {
        guard let local = try store.localBalances(groupID: group.id) else {
            // Found by a new user: it said only that the server cannot be reached.
            throw CLIError(
                message: "The server cannot be reached (\(reason)), and this device has no copy of \(group.name) to work "
                    + "from yet: `splitter sync` makes one when the server is back.",
                code: 9)
        }
        warn(try offlineCopyNote(store, groupID: group.id))
        return local
    }
}

struct Balances: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Who is owed (+) and who owes (−), per currency.", aliases: ["balance"])
    @OptionGroup var options: GroupOptions

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options)
            let (client, found) = (context.client, context.group)
            let balances: GroupBalances
            do {
                balances = try await client.balances(groupID: found.id)
            } catch SplitterError.offline(let reason) {
                let local = try context.offlineBalances(reason)
                // Rates are not in the offline copy: the home-currency view exists only when there
                // is nothing to convert.
                let allHome = local.allSatisfy { $0.currency == found.homeCurrency }
                balances = .init(
                    balances: local, homeCurrency: found.homeCurrency, home: allHome ? local : nil, missingRates: [])
            }
            if options.json { return try Output.json(balances) }
            let names = context.names
            // Settled in every currency, yet not in what the cards took: said in the home currency.
            let homeDiffers = balances.settleInHome == true && balances.home != nil
            guard !balances.balances.isEmpty || homeDiffers else { return print("Everyone is settled up.") }
            if balances.balances.isEmpty { print("Settled up in each currency, but not in what was charged in \(balances.homeCurrency).") }
            // By currency, then name (found by a new user: in no order).
            let name = { (id: String) in names[id] ?? id }
            if !balances.balances.isEmpty {
                Output.table(
                    ["MEMBER", "NET", "CURRENCY"],
                    balances.balances.sorted { ($0.currency, name($0.memberId).lowercased()) < ($1.currency, name($1.memberId).lowercased()) }
                        .map { [name($0.memberId), $0.net, $0.currency] })
            }
            if let home = balances.home, found.homeCurrency != "",
                homeDiffers || balances.balances.contains(where: { $0.currency != found.homeCurrency })
            {
                // Everyone at zero converted: said, not an empty table (found by a new user).
                let open = home.filter { !$0.net.trimmingCharacters(in: CharacterSet(charactersIn: "-0.")).isEmpty }
                if open.isEmpty {
                    print("\nIn \(balances.homeCurrency): everyone is settled up, converted (the currencies offset each other).")
                } else {
                    print("\nIn \(balances.homeCurrency):")
                    Output.table(
                        ["MEMBER", "NET"],
                        home.sorted { name($0.memberId).lowercased() < name($1.memberId).lowercased() }.map { [name($0.memberId), $0.net] })
                }
            } else if !balances.missingRates.isEmpty {
                print(
                    "\nNo rate yet for \(balances.missingRates.joined(separator: ", ")) → \(balances.homeCurrency): "
                        + "splitter rates set \(found.name.contains(" ") ? "\"\(found.name)\"" : found.name) "
                        + "\(balances.missingRates[0]) RATE.")
            }
        }
    }
}

/// `splitter rates`: a group's exchange rates, and setting one (found by a new user: the CLI said
/// "No rate yet for USD → JPY" and had no way to give one).
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Exchange rates: list a group's, or set one (owner and admins).",
        discussion: """
              splitter rates Japan                       # every rate; the one that counts per pair marked
              splitter rates set Japan USD 150           # 1 USD = 150 JPY (the home currency) from today
              splitter rates set Japan EUR 0.0061 --to USD --date 2026-11-30
              splitter rates delete Japan USD 2026-11-30 # one entered by mistake

            The latest rate of a pair (or of its opposite) counts, for balances in the home
            currency and the plan that settles everything in it. A date more than a day ahead is
            refused; delete a rate and the pair's one before it counts again.
            """,
        subcommands: [List.self, Set.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every rate of the group.")
        @OptionGroup var options: GroupOptions

        func run() async throws {
            try await SplitterCLI.run {
                let (client, group) = try await options.resolve()
                let rates = try await client.rates(groupID: group.id)
                if options.json { return try Output.json(rates) }
                RatesCommand.print(rates)
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set 1 CURRENCY = RATE of the home currency (or --to).")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The currency converted, e.g. USD.") var currency: String
        @Argument(help: "What one unit of it is worth, e.g. 150 or 0.0061.") var rate: String
        @Option(help: "The currency it is worth that much of (default: the group's home currency).") var to: String?
        @Option(help: "From which day, YYYY-MM-DD (default: today where the group is).") var date: String?

        func run() async throws {
            try await SplitterCLI.run {
                let (client, group) = try await options.resolve()
                let entry = ExchangeRateEntry(
                    fromCurrency: currency.uppercased(), toCurrency: (to ?? group.homeCurrency).uppercased(),
                    date: date ?? today(in: group.timeZone), rate: rate)
                let rates = try await client.setRates(groupID: group.id, [entry])
                if options.json { return try Output.json(rates) }
                Swift.print("1 \(entry.fromCurrency) = \(entry.rate) \(entry.toCurrency) from \(entry.date).")
                RatesCommand.print(rates)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one rate, e.g. one entered by mistake; the pair's rate before it counts again.")
        @OptionGroup var options: GroupOptions
        @Argument(help: "The rate's currency, e.g. USD.") var currency: String
        @Argument(help: "The rate's date, YYYY-MM-DD (as `splitter rates` lists it).") var date: String
        @Option(help: "The currency it is a rate to (default: the group's home currency).") var to: String?

        func run() async throws {
            try await SplitterCLI.run {
                let (client, group) = try await options.resolve()
                let (from, to) = (currency.uppercased(), (to ?? group.homeCurrency).uppercased())
                let rates = try await client.deleteRate(groupID: group.id, from: from, to: to, date: date)
                if options.json { return try Output.json(rates) }
                Swift.print("Deleted the rate of 1 \(from) in \(to) from \(date).")
                RatesCommand.print(rates)
            }
        }
    }

    /// The table, pairs together, newest first; the rate that counts for its pair (as the server
    /// says: `counts`) is marked.
    static func print(_ rates: [ExchangeRateEntry]) {
        guard !rates.isEmpty else { return Swift.print("No exchange rates yet: `splitter rates set GROUP USD 150`.") }
        func pair(_ rate: ExchangeRateEntry) -> String { [rate.fromCurrency, rate.toCurrency].sorted().joined(separator: "/") }
        let sorted = rates.sorted { (pair($0), $1.date, $0.fromCurrency) < (pair($1), $0.date, $1.fromCurrency) }
        Output.table(
            ["1 OF", "IS", "OF", "FROM", "COUNTS"],
            sorted.map { [$0.fromCurrency, $0.rate, $0.toCurrency, $0.date, $0.counts == true ? "yes" : ""] })
    }
}

struct Spending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What each member paid for the group's expenses and what their shares came to.",
        discussion: """
              splitter spending Japan                    # since the group began
              splitter spending Japan --month 2026-11

            In the group's home currency: an expense charged in it counts at that amount, the
            rest at the group's latest rates. Transfers between members are not spending.
            """)
    @OptionGroup var options: GroupOptions
    @Option(help: "The month, YYYY-MM (default: since the group began).") var month: String?

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options)
            let spending = try await context.client.spendingByPerson(groupID: context.group.id, month: month)
            if options.json { return try Output.json(spending) }
            let when = spending.month.map { "Month \($0)" } ?? "Since the group began"
            guard !spending.people.isEmpty || !spending.byCurrency.isEmpty else {
                return print("\(when): nothing spent yet.")
            }
            print("\(when), in \(spending.currency) (most paid first):")
            let people = spending.people.sorted { (Decimal(string: $0.paid) ?? 0) > (Decimal(string: $1.paid) ?? 0) }
            Output.table(
                ["MEMBER", "PAID", "SHARE"],
                people.map { [context.names[$0.memberId] ?? $0.memberId, $0.paid, $0.share] }
                    + [["Total", spending.total, spending.total]])
            if !spending.uncountedCurrencies.isEmpty {
                let missing = Set(spending.uncountedCurrencies)
                print("\nNot counted (no rate yet from \(spending.uncountedCurrencies.joined(separator: ", ")) to \(spending.currency)):")
                Output.table(
                    ["MEMBER", "PAID", "SHARE", "CURRENCY"],
                    spending.byCurrency.filter { missing.contains($0.currency) }.map {
                        [context.names[$0.memberId] ?? $0.memberId, $0.paid, $0.share, $0.currency]
                    })
            }
        }
    }
}

struct Plan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The fewest transfers that settle up.",
        discussion: """
            As the web's Settle up: with money open in several currencies and an exchange rate
            for each, everything is settled in the home currency, converted; with money open in
            one currency, in that one; --currency gives one currency's own plan, --home
            everything converted.
            """)
    @OptionGroup var options: GroupOptions
    @Option(help: "One currency's own plan (default: as the web's Settle up leads).")
    var currency: String?
    @Flag(help: "Settle everything in the home currency, converted (charged amounts, then the latest rates).")
    var home = false

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options)
            let (client, found) = (context.client, context.group)
            var transfers: [SplitClient.PlannedTransfer] = []
            // One currency's plan leaves the others' debts open: the balances say which, so the
            // answer can name them rather than look like everything is settled.
            var balances: [Balance] = []
            // Whether --home can work: online, with a rate for every currency (found by a new
            // user: it was offered, then refused, before any rate and offline). Nil offline.
            var homeWorks: Bool?
            // Everything in the home currency: asked for, or chosen since every currency has a rate.
            var converted = home
            // The currency of the plan shown when none was asked for.
            var settledCurrency: String?
            if !home {
                do {
                    let all = try await client.balances(groupID: found.id)
                    let open = Set(all.balances.map(\.currency))
                    // What the web's Settle up leads with: everything in the home currency where
                    // money is open in several and each has a rate (found by new users: the home
                    // currency's own plan told whoever had been paid in it, to settle converted
                    // debts, to pay it back); the one currency money is open in; else the home one.
                    // Or, as there, when what was charged makes the home view differ. The server
                    // says which (`settleInHome`); a server before that, by the rule it had then.
                    converted =
                        currency == nil && all.missingRates.isEmpty
                        && (all.settleInHome
                            ?? (open.count > 1
                                || (open.count == 1 && !open.contains(found.homeCurrency) && (all.homeChargedExpenses ?? 0) > 0)))
                    if !converted {
                        let only = open.count == 1 ? open.first : nil
                        transfers = try await client.plan(groupID: found.id, currency: currency ?? only)
                        if currency == nil, let only { settledCurrency = only }
                        balances = all.balances
                        homeWorks = all.missingRates.isEmpty
                    }
                } catch SplitterError.offline(let reason) {
                    balances = try context.offlineBalances(reason)
                    // The one currency money is open in, as online (rates are not in the copy).
                    let open = Set(balances.map(\.currency))
                    let only = open.count == 1 ? open.first : nil
                    if currency == nil, let only { settledCurrency = only }
                    transfers = try LocalLedger.plan(balances, currency: currency ?? only ?? found.homeCurrency)
                }
            }
            if converted {
                let plan = try await client.homePlan(groupID: found.id)
                transfers = plan.transfers
                if !options.json, !plan.rates.isEmpty { print("Everything in \(found.homeCurrency), converted at " + plan.rates.joined(separator: ", ")) }
            }
            if options.json { return try Output.json(transfers) }
            let names = context.names
            let settled = (currency ?? settledCurrency ?? found.homeCurrency).uppercased()
            if transfers.isEmpty {
                print(converted ? "Nothing to settle: everything is settled in \(found.homeCurrency), converted." : "Nothing to settle in \(settled).")
            }
            for transfer in transfers {
                print(
                    "\(names[transfer.fromMemberId] ?? "?") pays \(names[transfer.toMemberId] ?? "?") \(transfer.amount) \(transfer.currency)"
                )
            }
            if converted, !home {
                print("One currency's own plan: add --currency (the group's money is in several).")
            }
            let open = Set(balances.map(\.currency)).subtracting([settled]).sorted()
            if let first = open.first {
                print(
                    "Also open in \(open.joined(separator: ", ")): add --currency \(first)"
                        + (homeWorks == true
                            ? ", or --home to settle everything in \(found.homeCurrency)."
                            : homeWorks == false
                                ? " (with an exchange rate for each, `splitter rates set`, --home settles everything in "
                                    + "\(found.homeCurrency))." : "."))
            }
        }
    }
}

struct Settle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record money that moved between two members.")
    @OptionGroup var options: GroupOptions
    @Option(help: "Who paid.") var from: String
    @Option(help: "Who received.") var to: String
    @Argument(help: "The amount.") var amount: String
    @Option(help: "Currency (default: the group's home currency).") var currency: String?
    @Option(help: "A note.") var note: String?

    func run() async throws {
        try await SplitterCLI.run {
            let context = try await GroupContext(options)
            let (client, store, found) = (context.client, context.store, context.group)
            let payer = try context.member(from)
            let payee = try context.member(to)
            let id = UUID.timeOrdered().text
            let key = UUID().uuidString
            // Dated now, in the group's time zone: queued offline, it keeps the day the money
            // moved, not the day it is sent.
            let date = today(in: found.timeZone)
            let settlement: Settlement
            do {
                settlement = try await client.settle(
                    groupID: found.id, from: payer.id, to: payee.id, amount: amount,
                    currency: currency ?? found.homeCurrency, note: note, date: date, id: id, idempotencyKey: key)
            } catch SplitterError.offline {
                // What the server would refuse, said now (found by a new user: each was "queued").
                if payer.id == payee.id { throw refusedOffline("\(payer.name) cannot pay themselves.") }
                let moved = try offlineAmount(
                    amount, in: currency ?? found.homeCurrency, "The amount", allowNegative: false)
                if moved.units == 0 { throw refusedOffline("The amount is zero.") }
                // As the server would: a currency of the group (its home one, or one of its
                // expenses or transfers in this device's copy).
                if try store.feedCursor(groupID: found.id) != nil, moved.currency.code != found.homeCurrency {
                    // Queued expenses too: sent first at the next sync, they make their currency
                    // the group's before this transfer arrives.
                    let used = Set(
                        try store.cachedExpenses(groupID: found.id, includeDeleted: true).map(\.currency)
                            + store.cachedSettlements(groupID: found.id).map(\.currency)
                            + queuedExpenses(in: found.id, store: store).map(\.currency) + [found.homeCurrency])
                    if !used.contains(moved.currency.code) {
                        throw refusedOffline(
                            "Nothing in \(found.name) is in \(moved.currency.code); it is in \(used.sorted().joined(separator: ", ")).")
                    }
                }
                let request = NewSettlement(
                    id: id, fromMemberId: payer.id, toMemberId: payee.id, amount: amount,
                    currency: currency ?? found.homeCurrency, date: date, note: note)
                return try queue(
                    PendingOperation(
                        id: id, groupID: found.id, kind: .createSettlement, body: try JSONEncoder().encode(request),
                        idempotencyKey: key, createdAt: Date(), error: nil,
                        summary: "\(payer.name) paid \(payee.name) \(amount) \(request.currency) in \(found.name)"),
                    in: store, json: options.json,
                    said: "Offline: the transfer is queued; `splitter sync` sends it when the server is back.")
            }
            if options.json { return try Output.json(settlement) }
            print("Recorded: \(payer.name) paid \(payee.name) \(settlement.amount) \(settlement.currency).")
        }
    }
}
