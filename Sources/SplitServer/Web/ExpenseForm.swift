import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The add/edit expense form: every split mode, several payers, currency, date, category,
/// "charged as" in the home currency, and a preview of the shares computed by the server with
/// the same code that saves them.
///
/// Field names: `description`, `amount`, `currency`, `expenseDate`, `category`, `homeAmount`,
/// `payer` (a member id who paid it all, or `several`), `mode`, and per member `paid_<id>`
/// (what they paid, when several did), `in_<id>` (in an equal or adjusted
/// split) and `value_<id>` (their exact amount, percent, shares or adjustment). An itemized bill
/// has rows `item_desc_<n>`, `item_amount_<n>` and `item_in_<n>_<id>` (who shares that item
/// equally), and `extra_desc_<n>`, `extra_amount_<n>` (tax, tip: spread in proportion).
/// `refund` (a box) makes it a refund or money received (issue 18): amounts are typed as
/// people say them ("30 back") and each is turned below zero when the form is read, so the
/// payers are who received it.
struct ExpenseForm: Sendable {
    var description = ""
    var amount = ""
    var currency = ""
    var expenseDate = ""
    var category = ""
    var homeAmount = ""
    /// A refund or money received: every amount typed is turned below zero (`draft`).
    var refund = false
    /// Who paid it all (a member id), or `several` for the `paid_` amounts; nil (a form from
    /// before the payer menu) reads the amounts and takes none typed as "I paid it all".
    var payer: String?
    var mode: EnteredSplit.Mode = .equal
    var paid: [String: String] = [:]
    var included: Set<String> = []
    var values: [String: String] = [:]
    var items: [Item] = []
    var extras: [Extra] = []

    struct Item: Sendable {
        var description: String
        var amount: String
        var members: Set<String>
    }

    struct Extra: Sendable {
        var description: String
        var amount: String
    }

    /// The fields the form shows an error next to, in the order it shows them; the rest show at its top.
    static let fieldOrder = [
        "description", "amount", "currency", "paidBy", "paidByMemberId", "split", "splits", "expenseDate", "category",
        "homeAmount",
    ]
    static let fieldsWithErrors = Set(fieldOrder)

    static let severalPayers = "several"

    /// Rows the form reads; more than a paper bill usually has.
    static let maximumRows = 30

    static let modes: [(EnteredSplit.Mode, String)] = [
        (.equal, "Equally"), (.exact, "Exact amounts"), (.percent, "Percentages"), (.shares, "Shares"),
        (.adjustment, "Equally, with adjustments"), (.itemized, "By item (a bill with tax and tip)"),
    ]

    init(form: WebForm, members: [Components.Schemas.Member]) {
        description = form["description"] ?? ""
        amount = form.text("amount") ?? ""
        currency = (form.text("currency") ?? "").uppercased()
        expenseDate = form.text("expenseDate") ?? ""
        category = form.text("category") ?? ""
        homeAmount = form.text("homeAmount") ?? ""
        refund = form.has("refund")
        payer = form.text("payer")
        mode = form["mode"].flatMap(EnteredSplit.Mode.init(rawValue:)) ?? .equal
        for member in members {
            if let value = form.text("paid_\(member.id)") { paid[member.id] = value }
            if form.has("in_\(member.id)") { included.insert(member.id) }
            if let value = form.text("value_\(member.id)") { values[member.id] = value }
        }
        for row in 0..<Self.maximumRows {
            let description = form.text("item_desc_\(row)")
            let amount = form.text("item_amount_\(row)")
            if description != nil || amount != nil {
                items.append(
                    Item(
                        description: description ?? "", amount: amount ?? "",
                        members: Set(members.map(\.id).filter { form.has("item_in_\(row)_\($0)") })))
            }
            if let amount = form.text("extra_amount_\(row)") {
                extras.append(Extra(description: form.text("extra_desc_\(row)") ?? "Extra", amount: amount))
            }
        }
    }

    /// A new expense: today, the home currency, everyone in but viewers (who watch; ticked,
    /// they share like anyone), nobody's payment typed yet.
    init(newIn group: Components.Schemas.Group, members: [Components.Schemas.Member], today: String) {
        currency = group.homeCurrency
        payer = group.myMemberId
        expenseDate = today
        included = Set(members.filter { $0.role != .viewer }.map(\.id))
    }

    /// An existing expense as entered, for editing.
    init(editing expense: Components.Schemas.Expense) {
        description = expense.description
        amount = expense.amount
        currency = expense.currency
        expenseDate = expense.expenseDate
        category = expense.category
        homeAmount = expense.homeAmount ?? ""
        if expense.payers.count == 1 {
            payer = expense.payers[0].memberId
        } else {
            payer = Self.severalPayers
            for payer in expense.payers { paid[payer.memberId] = payer.amount }
        }
        let split = EnteredSplit(wire: expense.split)
        mode = split.mode
        switch split.mode {
        case .equal:
            included = Set(split.memberIds ?? [])
        case .exact:
            for entry in split.amounts ?? [] { values[entry.memberId] = entry.amount }
        case .percent:
            for entry in split.percents ?? [] { values[entry.memberId] = entry.percent }
        case .shares:
            for entry in split.shares ?? [] { values[entry.memberId] = entry.shares }
        case .adjustment:
            included = Set(split.memberIds ?? [])
            for entry in split.adjustments ?? [] { values[entry.memberId] = entry.amount }
        case .itemized:
            let lines = split.items ?? []
            if lines.allSatisfy({ $0.split.mode == .equal }) {
                items = lines.map {
                    Item(description: $0.description, amount: $0.amount, members: Set($0.split.memberIds ?? []))
                }
                extras = (split.extras ?? []).map { Extra(description: $0.description, amount: $0.amount) }
            } else {
                // Items split other than equally (possible through the API) are beyond this
                // form: it offers the resulting shares as exact amounts instead.
                mode = .exact
                for share in expense.splits { values[share.memberId] = share.amount }
            }
        }
        // Switched to "Equally" (or with adjustments), the same people share (found by a new
        // user: an exact split switched to equal had nobody ticked).
        if included.isEmpty { included = Set(expense.splits.map(\.memberId)) }
        if amount.hasPrefix("-") { showAsRefund() }
    }

    /// An entered expense (a recurring expense's template, a pending occurrence), for editing.
    init(entered: EnteredExpense) {
        description = entered.description
        amount = entered.amount
        currency = entered.currency
        expenseDate = entered.expenseDate
        category = entered.category ?? ""
        homeAmount = entered.homeAmount ?? ""
        if let paidBy = entered.paidBy, paidBy.count > 1 || paidBy.first?.value != entered.amount {
            payer = Self.severalPayers
            for entry in paidBy { paid[entry.memberId] = entry.value }
        } else {
            payer = entered.paidBy?.first?.memberId ?? entered.paidByMemberId
        }
        let split = entered.split ?? EnteredSplit(mode: .equal, memberIds: [])
        mode = split.mode
        switch split.mode {
        case .equal:
            included = Set(split.memberIds ?? [])
        case .exact:
            for entry in split.amounts ?? [] { values[entry.memberId] = entry.value }
        case .percent:
            for entry in split.percents ?? [] { values[entry.memberId] = entry.value }
        case .shares:
            for entry in split.shares ?? [] { values[entry.memberId] = entry.value }
        case .adjustment:
            included = Set(split.memberIds ?? [])
            for entry in split.adjustments ?? [] { values[entry.memberId] = entry.value }
        case .itemized:
            items = (split.items ?? []).map {
                Item(description: $0.description, amount: $0.amount, members: Set($0.split.memberIds ?? []))
            }
            extras = (split.extras ?? []).map { Extra(description: $0.description, amount: $0.amount) }
        }
        if amount.hasPrefix("-") { showAsRefund() }
    }

    /// A stored refund as its form shows it: the box ticked and every amount as typed, above
    /// zero (percentages and shares have no sign).
    private mutating func showAsRefund() {
        refund = true
        amount = Self.flipped(amount)
        homeAmount = Self.flipped(homeAmount)
        paid = paid.mapValues(Self.flipped)
        if mode == .exact || mode == .adjustment { values = values.mapValues(Self.flipped) }
        items = items.map { Item(description: $0.description, amount: Self.flipped($0.amount), members: $0.members) }
        extras = extras.map { Extra(description: $0.description, amount: Self.flipped($0.amount)) }
    }

    /// An amount's text with the other sign ("30" ↔ "-30"); empty stays empty.
    static func flipped(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return text }
        if trimmed.hasPrefix("-") || trimmed.hasPrefix("−") { return String(trimmed.dropFirst()) }
        return "-" + trimmed
    }

    /// The items and extras added up in the currency; nil while one of them is not an amount.
    var itemizedTotal: String? {
        guard let currency = try? Currency(code: currency), !items.isEmpty else { return nil }
        var total: Int64 = 0
        for (text, negative) in items.map({ ($0.amount, false) }) + extras.map({ ($0.amount, true) }) {
            guard let minor = try? MoneyInput.amount(Self.typed(text, currency), currency, field: "", allowNegative: negative),
                case (let sum, false) = total.addingReportingOverflow(minor)
            else { return nil }
            total = sum
        }
        return MoneyInput.text(total, currency.code)
    }

    /// Days ahead of today past which a date is asked about before saving.
    static let farFutureDays = 60

    /// The question for a date further ahead than `farFutureDays` that was not confirmed yet
    /// (issue 15: a mistyped year should not go unnoticed); nil when there is nothing to ask.
    func farFutureQuestion(today: String, confirmed: String?) -> String? {
        guard confirmed != expenseDate, let days = ExpenseForm.days(from: today, to: expenseDate),
            days > Self.farFutureDays
        else { return nil }
        return "\(expenseDate) is \(days) days from today. Is that the right date? Tick “Yes” below to keep it, or change it."
    }

    /// Whole days between two YYYY-MM-DD dates; nil when either is not one.
    static func days(from: String, to: String) -> Int? {
        let format = Date.ISO8601FormatStyle().year().month().day()
        guard let start = try? Date(from, strategy: format), let end = try? Date(to, strategy: format) else { return nil }
        return Int((end.timeIntervalSince(start) / 86_400).rounded())
    }

    /// Whether the form names the member anywhere: paid, in the split, a value, an item.
    func mentions(_ id: String) -> Bool {
        included.contains(id) || values[id] != nil || paid[id] != nil || payer == id
            || items.contains { $0.members.contains(id) }
    }

    /// Payers as typed when several paid; nil when one member paid it all (`paidByMemberId`).
    /// A form without the payer menu: none typed means "I paid it all".
    /// Amounts typed per person count whatever the menu says: without the page's script the boxes
    /// are always there, and what someone typed is never dropped (the script disables them while
    /// they are hidden, so with it only shown boxes are sent).
    func payers(members: [Components.Schemas.Member], currency: Currency?) -> [EnteredAmount]? {
        let typed = members.compactMap { member in
            paid[member.id].map { EnteredAmount(memberId: member.id, value: signed($0, currency)) }
        }
        if !typed.isEmpty { return typed }
        return payer == Self.severalPayers ? [] : nil
    }

    /// An amount as typed, read the forgiving way where that is unambiguous ("1,000", "RM 12").
    static func typed(_ text: String, _ currency: Currency?) -> String {
        currency.map { MoneyInput.typed(text, $0) } ?? text
    }

    /// A total typed below zero without the refund box: refused on `amount`, saying how a refund
    /// is entered (found by review: a stray minus saved a refund, or a monthly series of them,
    /// without a word). Every form that saves an expense or a series asks this first.
    func refuseMinusWithoutRefund() throws {
        let typed = amount.trimmingCharacters(in: .whitespaces)
        guard !refund, typed.hasPrefix("-") || typed.hasPrefix("−") else { return }
        throw AppError.invalid(
            field: "amount",
            message: "For money received, tick “A refund or money received” and type the amount without a minus.")
    }

    /// A bill by item whose Amount box says another total than its items and extras: asked,
    /// not replaced unsaid (found by a new user: 50 typed, 30.83 of items saved without a word).
    /// An empty box, or the total the expense had before this edit (`untouched`), takes the items'.
    func refuseAmountUnlikeItems(untouched: String? = nil) throws {
        guard mode == .itemized, let total = itemizedTotal, let money = try? Currency(code: currency) else { return }
        let typed = amount.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty,
            let said = try? MoneyInput.amount(Self.typed(typed, money), money, field: "amount", allowNegative: true),
            let items = try? MoneyInput.amount(total, money, field: "amount", allowNegative: true), said != items,
            untouched.flatMap({ try? MoneyInput.amount($0, money, field: "amount", allowNegative: true) }) != said
        else { return }
        throw AppError.invalid(
            field: "amount",
            message: "The items and extras come to \(WebFormat.money(total, money.code)), but the amount says "
                + "\(WebFormat.money(MoneyInput.text(said, money.code), money.code)). Correct an item, or clear the amount to use theirs.")
    }

    /// An amount as typed, turned below zero on a refund's form.
    func signed(_ text: String, _ currency: Currency?) -> String {
        refund ? Self.flipped(Self.typed(text, currency)) : Self.typed(text, currency)
    }

    /// The total as typed, below zero on a refund's form whether or not it was typed with a
    /// minus: the box says it was received (found by a new user: "-50" with the box ticked was
    /// flipped to a cost of 50, the debts the other way round; the CLI and quick entry read it
    /// as the refund it says).
    func signedTotal(_ currency: Currency?) -> String {
        let typed = amount.trimmingCharacters(in: .whitespaces)
        guard refund, typed.hasPrefix("-") || typed.hasPrefix("−") else { return signed(amount, currency) }
        return signed(String(typed.dropFirst()), currency)
    }
}

extension String {
    /// This text as an amount typed into a form in that currency (see `MoneyInput.typed`).
    func typedAmount(in code: String) -> String {
        ExpenseForm.typed(self, try? Currency(code: code.uppercased()))
    }
}

extension ExpenseForm {

    func split(members: [Components.Schemas.Member], currency: Currency? = nil) -> EnteredSplit {
        let inSplit = members.map(\.id).filter(included.contains)
        func valued() -> [(String, String)] { members.compactMap { m in values[m.id].map { (m.id, $0) } } }
        func money() -> [(String, String)] { valued().map { ($0.0, signed($0.1, currency)) } }
        switch mode {
        case .equal:
            return .init(mode: .equal, memberIds: inSplit)
        case .exact:
            return .init(mode: .exact, amounts: money().map { .init(memberId: $0.0, amount: $0.1) })
        case .itemized:
            return .init(
                mode: .itemized,
                items: items.map { item in
                    EnteredSplit.Item(
                        description: item.description.isEmpty ? "Item" : item.description,
                        amount: signed(item.amount, currency),
                        split: .init(mode: .equal, memberIds: members.map(\.id).filter(item.members.contains)))
                },
                extras: extras.map {
                    EnteredSplit.Extra(description: $0.description, amount: signed($0.amount, currency))
                })
        case .percent:
            return .init(mode: .percent, percents: valued().map { .init(memberId: $0.0, percent: $0.1) })
        case .shares:
            return .init(mode: .shares, shares: valued().map { .init(memberId: $0.0, shares: $0.1) })
        case .adjustment:
            // "+10" is how the form asks for them (found by a new user: refused as no number).
            return .init(
                mode: .adjustment, memberIds: inSplit,
                adjustments: valued().map { .init(memberId: $0.0, amount: signed(Self.withoutPlus($0.1), currency)) })
        }
    }

    /// An adjustment typed with its plus ("+10", "+ 10"): the number.
    static func withoutPlus(_ text: String) -> String {
        let typed = text.trimmingCharacters(in: .whitespaces)
        return typed.hasPrefix("+") ? String(typed.dropFirst()).trimmingCharacters(in: .whitespaces) : text
    }

    /// The expense as typed, for the use cases to check. An itemized bill's total is its items
    /// and extras added up (issue 15: nobody sums a bill by hand), once they all read as amounts.
    /// Amounts are read the forgiving way ("1,000", "RM 12") in the expense's currency, and
    /// the charged amount in the home currency.
    func draft(members: [Components.Schemas.Member], paidByDefault: String, homeCurrency: String) -> EnteredExpense {
        let money = try? Currency(code: currency)
        let payers = payers(members: members, currency: money)
        let single = payer.flatMap { $0 == Self.severalPayers ? nil : $0 } ?? paidByDefault
        return EnteredExpense(
            description: description,
            amount: mode == .itemized
                ? (itemizedTotal.map { refund ? Self.flipped($0) : $0 } ?? signedTotal(money)) : signedTotal(money),
            currency: currency,
            category: category.isEmpty ? nil : category, expenseDate: expenseDate,
            paidBy: payers, paidByMemberId: payers == nil ? single : nil,
            split: split(members: members, currency: money),
            // The box is hidden for the home currency; what it kept from another is not sent.
            homeAmount: homeAmount.isEmpty || currency.uppercased() == homeCurrency
                ? nil : signed(homeAmount, try? Currency(code: homeCurrency)))
    }
}

/// What the form template shows.
struct ExpenseFormBody: Sendable {
    struct Row: Sendable {
        let id: String
        let name: String
        let paid: String
        let included: Bool
        let value: String
        /// Removed from the group: the row shows their part, read-only (issue 15).
        let removed: Bool
    }
    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
        /// A currency's zero as its amounts are written ("0", "0.00"): the amount box's
        /// placeholder while it is chosen (found by a new user: "0.00" in a yen group).
        var zero: String? = nil
    }
    struct ItemRow: Sendable {
        struct Box: Sendable {
            let id: String
            let name: String
            let checked: Bool
            let removed: Bool
            /// Ticked in a row the page adds ("Add item"): not for a viewer (found by review).
            let sharesByDefault: Bool
        }
        let index: Int
        let number: Int
        let description: String
        let amount: String
        let members: [Box]
    }
    struct ExtraRow: Sendable {
        let index: Int
        let description: String
        let amount: String
        let placeholder: String
    }
    struct PreviewLine: Sendable {
        let name: String
        let paid: String
        let owes: String
    }

    let heading: String
    let action: String
    let previewURL: String
    let cancelURL: String
    let clientID: String
    let version: String?
    /// What the expense said when the edit page was first shown, part by part (see `ExpenseForm.merged`).
    let base: String?
    let description: String
    let amount: String
    let expenseDate: String
    let homeAmount: String
    let refund: Bool
    let homeCurrency: String
    /// The code the split's amount column is in.
    let currencyCode: String
    /// The amount box's placeholder: the chosen currency's zero.
    let amountZero: String
    /// The home currency and the group's recent ones first, then every other.
    let currencies: [Option]
    let otherCurrencies: [Option]
    let categories: [Option]
    let modes: [Option]
    /// "Paid by": each member (you first), then "Several people…".
    let payers: [Option]
    let rows: [Row]
    let hasRemoved: Bool
    /// A recurring expense's template names someone no longer in the group.
    let removedInSeries: Bool
    /// A new, untouched form puts the cursor in the description.
    let autofocus: Bool
    /// The question to confirm a date far ahead, when one was entered.
    let farFuture: String?
    /// The question to confirm a change to the part of someone no longer in the group.
    let removedShares: String?
    let items: [ItemRow]
    let extras: [ExtraRow]
    let preview: [PreviewLine]
    let hasPreview: Bool
    let previewCurrency: String
    /// A refund's preview says received and is owed, above zero.
    let previewRefund: Bool
    let errors: [String: String]
    let submitLabel: String
    /// "Date", or "First date" for a recurring expense.
    let dateLabel: String
    /// The rule of a recurring expense (issue 20), when the form makes or changes one.
    let recurrence: RecurrenceFields?
}

/// The "Repeats" part of the expense form for a recurring expense. Field names: `every`,
/// `interval`, `weekday` (several), `monthEnd`, `endDate`, `count`, `seriesMode`.
struct RecurrenceFields: Sendable {
    struct Day: Sendable {
        let value: Int
        let label: String
        let checked: Bool
    }
    let units: [ExpenseFormBody.Option]
    let interval: String
    let weekdays: [Day]
    let monthEnds: [ExpenseFormBody.Option]
    let endDate: String
    let count: String
    let modes: [ExpenseFormBody.Option]
    /// Changing an existing series: the new rule applies from the first date not yet added.
    let editing: Bool

    init(form: WebForm?, rule: EnteredRecurrence?, mode: String?, editing: Bool) {
        let every = form?["every"] ?? rule?.every ?? "month"
        units = [("day", "Days"), ("week", "Weeks"), ("month", "Months"), ("year", "Years")].map {
            .init(value: $0.0, label: $0.1, selected: $0.0 == every)
        }
        interval = form?["interval"] ?? rule?.interval.map(String.init) ?? "1"
        let chosen = Set(form.map { $0.values("weekday").compactMap { Int($0) } } ?? rule?.weekdays ?? [])
        weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].enumerated().map {
            .init(value: $0.offset + 1, label: $0.element, checked: chosen.contains($0.offset + 1))
        }
        let monthEnd = form?["monthEnd"] ?? rule?.monthEnd ?? "clamp"
        monthEnds = [("clamp", "On its last day"), ("skip", "Not that month")].map {
            .init(value: $0.0, label: $0.1, selected: $0.0 == monthEnd)
        }
        endDate = form?["endDate"] ?? rule?.endDate ?? ""
        count = form?["count"] ?? rule?.count.map(String.init) ?? ""
        let chosenMode = form?["seriesMode"] ?? mode ?? "auto"
        modes = [("auto", "Add it on each date"), ("confirm", "Ask to confirm each one first")].map {
            .init(value: $0.0, label: $0.1, selected: $0.0 == chosenMode)
        }
        self.editing = editing
    }

    /// The rule the form says, starting on `start` (the form's date).
    static func rule(_ form: WebForm, start: String) -> EnteredRecurrence {
        EnteredRecurrence(
            every: form["every"] ?? "month", interval: form.text("interval").map { Int($0) ?? 0 },
            weekdays: form.values("weekday").compactMap { Int($0) }, monthEnd: form["monthEnd"], startDate: start,
            endDate: form.text("endDate"), count: form.text("count").map { Int($0) ?? 0 })
    }
}

extension WebApp {
    /// `currency`'s zero as its amounts are written: "0", "0.00", "0.000".
    static func zero(_ currency: Currency) -> String {
        currency.minorUnits == 0 ? "0" : "0." + String(repeating: "0", count: currency.minorUnits)
    }

    func expenseFormBody(
        _ form: ExpenseForm, scope: GroupScope, categories: [Components.Schemas.Category], heading: String,
        action: String, cancelURL: String, clientID: String, version: String, preview: ExpenseRecord?,
        errors: [String: String], recentCurrencies: [String] = [], farFuture: String? = nil, removedShares: String? = nil,
        submitLabel: String? = nil, recurrence: RecurrenceFields? = nil, freesRemoved: Bool = false, base: String? = nil
    ) -> ExpenseFormBody {
        // Members removed from the group stay in an expense they are in (issue 15): their rows
        // show, marked, whenever the expense names them; locked in an expense (its part is
        // kept), free in a recurring one's template, whose future expenses cannot have them
        // (found by a new user: a series paused for one who left could not be saved without them).
        let members = scope.members.filter { $0.active || form.mentions($0.id) }
        // (found by a new user: a series paused for one who left could not be saved without them;
        // and a waiting occurrence naming one removed since could not be confirmed at all).
        let locksRemoved = recurrence == nil && !freesRemoved
        // The group's currencies first (issue 15: not 164 in alphabetical order): home, the
        // one chosen, then those of recent expenses.
        var top: [String] = []
        for code in [scope.group.homeCurrency, form.currency] + recentCurrencies where !top.contains(code) {
            if (try? Currency(code: code)) != nil { top.append(code) }
        }
        func option(_ currency: Currency) -> ExpenseFormBody.Option {
            .init(
                value: currency.code, label: "\(currency.code) — \(currency.name)", selected: currency.code == form.currency,
                zero: Self.zero(currency))
        }
        // "Paid by": you first, then the others; a removed member only when they paid this one.
        let payer = form.payer ?? (form.paid.isEmpty ? scope.group.myMemberId : ExpenseForm.severalPayers)
        let payerOptions: [ExpenseFormBody.Option] =
            (members.filter { $0.id == scope.group.myMemberId } + members.filter { $0.id != scope.group.myMemberId })
            .filter { $0.active || $0.id == payer }
            .map {
                .init(
                    value: $0.id, label: $0.id == scope.group.myMemberId ? "You (\($0.name))" : $0.label,
                    selected: $0.id == payer)
            } + [.init(value: ExpenseForm.severalPayers, label: "Several people…", selected: payer == ExpenseForm.severalPayers)]
        let previewLines: [ExpenseFormBody.PreviewLine] =
            preview.map { record in
                let currency = (try? Currency(code: record.currency))
                func text(_ minor: Int64) -> String {
                    let shown = record.amount < 0 ? 0 - minor : minor
                    return currency.map { WebFormat.grouped(Money(minorUnits: shown, currency: $0).decimalString) } ?? ""
                }
                let ids = record.payers.map(\.memberID) + record.shares.map(\.memberID)
                var seen = Set<UUID>()
                // In the form's order, named as the form names them ("Sven (left)"): found by a
                // new user, the rows came payers first, in no order the form has, without "(left)".
                let order = Dictionary(members.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
                let labels = Dictionary(members.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
                return ids.filter { seen.insert($0).inserted }
                    .sorted { (order[$0.text] ?? .max, $0.text) < (order[$1.text] ?? .max, $1.text) }
                    .map { id in
                        let paid = record.payers.first { $0.memberID == id }?.amount ?? 0
                        let owes = record.shares.first { $0.memberID == id }?.amount ?? 0
                        return .init(name: labels[id.text] ?? scope.name(id.text), paid: text(paid), owes: text(owes))
                    }
            } ?? []
        return ExpenseFormBody(
            heading: heading, action: action, previewURL: "/groups/\(scope.group.id)/expenses/preview",
            cancelURL: cancelURL, clientID: clientID, version: version.isEmpty ? nil : version, base: base,
            description: form.description,
            amount: form.amount, expenseDate: form.expenseDate, homeAmount: form.homeAmount, refund: form.refund,
            homeCurrency: scope.group.homeCurrency,
            currencyCode: form.currency.isEmpty ? scope.group.homeCurrency : form.currency,
            amountZero: (try? Currency(code: form.currency.isEmpty ? scope.group.homeCurrency : form.currency)).map(Self.zero)
                ?? "0.00",
            currencies: top.compactMap { try? Currency(code: $0) }.map(option),
            otherCurrencies: Currency.all.filter { !$0.isWithdrawn && !top.contains($0.code) }.map(option),
            categories: categories.map {
                .init(
                    value: $0.id, label: "\($0.icon) \($0.name)",
                    selected: $0.id == form.category || (form.category.isEmpty && $0.name == "Other" && $0.isDefault))
            },
            modes: ExpenseForm.modes.map { .init(value: $0.0.rawValue, label: $0.1, selected: $0.0 == form.mode) },
            payers: payerOptions,
            rows: members.map {
                .init(
                    id: $0.id, name: $0.label, paid: form.paid[$0.id] ?? "", included: form.included.contains($0.id),
                    value: form.values[$0.id] ?? "", removed: !$0.active && locksRemoved)
            },
            hasRemoved: locksRemoved && members.contains { !$0.active },
            removedInSeries: !locksRemoved && members.contains { !$0.active },
            autofocus: version.isEmpty && form.description.isEmpty && errors.isEmpty,
            farFuture: farFuture,
            removedShares: removedShares,
            items: (0..<max(3, min(form.items.count + 2, ExpenseForm.maximumRows))).map { index in
                let item = index < form.items.count ? form.items[index] : nil
                return .init(
                    index: index, number: index + 1, description: item?.description ?? "", amount: item?.amount ?? "",
                    members: members.map {
                        .init(
                            id: $0.id, name: $0.label,
                            checked: item.map { [id = $0.id] in $0.members.contains(id) } ?? ($0.active && $0.role != .viewer),
                            removed: !$0.active && locksRemoved, sharesByDefault: $0.active && $0.role != .viewer)
                    })
            },
            extras: (0..<max(2, min(form.extras.count + 1, ExpenseForm.maximumRows))).map { index in
                let extra = index < form.extras.count ? form.extras[index] : nil
                return .init(
                    index: index, description: extra?.description ?? "", amount: extra?.amount ?? "",
                    placeholder: index == 0 ? "Tax" : index == 1 ? "Tip" : "Service")
            },
            preview: previewLines, hasPreview: !previewLines.isEmpty, previewCurrency: preview?.currency ?? "",
            previewRefund: (preview?.amount ?? 0) < 0,
            errors: errors,
            submitLabel: submitLabel ?? (version.isEmpty ? "Save expense" : "Save changes"),
            dateLabel: recurrence == nil ? "Date" : recurrence?.editing == true ? "Next date" : "First date",
            recurrence: recurrence)
    }
}
