import Foundation
import Hummingbird
import SplitAPI
import SplitCore
import SplitStore

/// The add/edit expense form: every split mode but itemized, several payers, currency, date,
/// category, "charged as" in the home currency, and a preview of the shares computed by the
/// server with the same code that saves them.
///
/// Field names: `description`, `amount`, `currency`, `expenseDate`, `category`, `homeAmount`,
/// `mode`, and per member `paid_<id>` (what they paid), `in_<id>` (in an equal or adjusted
/// split) and `value_<id>` (their exact amount, percent, shares or adjustment).
struct ExpenseForm: Sendable {
    var description = ""
    var amount = ""
    var currency = ""
    var expenseDate = ""
    var category = ""
    var homeAmount = ""
    var mode: Components.Schemas.SplitInput.ModePayload = .equal
    var paid: [String: String] = [:]
    var included: Set<String> = []
    var values: [String: String] = [:]

    static let modes: [(Components.Schemas.SplitInput.ModePayload, String)] = [
        (.equal, "Equally"), (.exact, "Exact amounts"), (.percent, "Percentages"), (.shares, "Shares"),
        (.adjustment, "Equally, with adjustments"),
    ]

    init(form: WebForm, members: [Components.Schemas.Member]) {
        description = form["description"] ?? ""
        amount = form.text("amount") ?? ""
        currency = (form.text("currency") ?? "").uppercased()
        expenseDate = form.text("expenseDate") ?? ""
        category = form.text("category") ?? ""
        homeAmount = form.text("homeAmount") ?? ""
        mode = form["mode"].flatMap(Components.Schemas.SplitInput.ModePayload.init(rawValue:)) ?? .equal
        for member in members {
            if let value = form.text("paid_\(member.id)") { paid[member.id] = value }
            if form.has("in_\(member.id)") { included.insert(member.id) }
            if let value = form.text("value_\(member.id)") { values[member.id] = value }
        }
    }

    /// A new expense: today, the home currency, everyone in, nobody's payment typed yet.
    init(newIn group: Components.Schemas.Group, members: [Components.Schemas.Member], today: String) {
        currency = group.homeCurrency
        expenseDate = today
        included = Set(members.map(\.id))
    }

    /// An existing expense as entered, for editing.
    init(editing expense: Components.Schemas.Expense) {
        description = expense.description
        amount = expense.amount
        currency = expense.currency
        expenseDate = expense.expenseDate
        category = expense.category
        homeAmount = expense.homeAmount ?? ""
        for payer in expense.payers { paid[payer.memberId] = payer.amount }
        let split = expense.split
        mode = split.mode == .itemized ? .exact : split.mode
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
            // Items are edited through the API or the CLI; the form offers the resulting shares.
            for share in expense.splits { values[share.memberId] = share.amount }
        }
    }

    /// Payers as typed; none typed means "I paid it all" (nil lets the server say so).
    func payers(members: [Components.Schemas.Member]) -> [Components.Schemas.MemberAmount]? {
        let typed: [Components.Schemas.MemberAmount] = members.compactMap { member in
            paid[member.id].map { Components.Schemas.MemberAmount(memberId: member.id, amount: $0) }
        }
        return typed.isEmpty ? nil : typed
    }

    func split(members: [Components.Schemas.Member]) -> Components.Schemas.SplitInput {
        let inSplit = members.map(\.id).filter(included.contains)
        func valued() -> [(String, String)] { members.compactMap { m in values[m.id].map { (m.id, $0) } } }
        switch mode {
        case .equal:
            return .init(mode: .equal, memberIds: inSplit)
        case .exact, .itemized:
            return .init(mode: .exact, amounts: valued().map { .init(memberId: $0.0, amount: $0.1) })
        case .percent:
            return .init(mode: .percent, percents: valued().map { .init(memberId: $0.0, percent: $0.1) })
        case .shares:
            return .init(mode: .shares, shares: valued().map { .init(memberId: $0.0, shares: $0.1) })
        case .adjustment:
            return .init(
                mode: .adjustment, memberIds: inSplit,
                adjustments: valued().map { .init(memberId: $0.0, amount: $0.1) })
        }
    }

    func draft(members: [Components.Schemas.Member], paidByDefault: String) -> ExpenseDraft {
        let payers = payers(members: members)
        return ExpenseDraft(
            description: description, amount: amount, currency: currency,
            category: category.isEmpty ? nil : category, expenseDate: expenseDate, paidBy: payers,
            paidByMemberId: payers == nil ? paidByDefault : nil, split: split(members: members), splits: nil,
            homeAmount: homeAmount.isEmpty ? nil : homeAmount)
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
    }
    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
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
    let description: String
    let amount: String
    let expenseDate: String
    let homeAmount: String
    let homeCurrency: String
    let currencies: [Option]
    let categories: [Option]
    let modes: [Option]
    let rows: [Row]
    let preview: [PreviewLine]
    let hasPreview: Bool
    let previewCurrency: String
    let errors: [String: String]
    let submitLabel: String
}

extension WebApp {
    func expenseFormBody(
        _ form: ExpenseForm, scope: GroupScope, categories: [Components.Schemas.Category], heading: String,
        action: String, cancelURL: String, clientID: String, version: String, preview: ExpenseRecord?,
        errors: [String: String]
    ) -> ExpenseFormBody {
        let members = scope.activeMembers
        let previewLines: [ExpenseFormBody.PreviewLine] =
            preview.map { record in
                let currency = (try? Currency(code: record.currency))
                func text(_ minor: Int64) -> String {
                    currency.map { WebFormat.grouped(Money(minorUnits: minor, currency: $0).decimalString) } ?? ""
                }
                let ids = record.payers.map(\.memberID) + record.shares.map(\.memberID)
                var seen = Set<UUID>()
                return ids.filter { seen.insert($0).inserted }.map { id in
                    let paid = record.payers.first { $0.memberID == id }?.amount ?? 0
                    let owes = record.shares.first { $0.memberID == id }?.amount ?? 0
                    return .init(name: scope.name(id.text), paid: text(paid), owes: text(owes))
                }
            } ?? []
        return ExpenseFormBody(
            heading: heading, action: action, previewURL: "/groups/\(scope.group.id)/expenses/preview",
            cancelURL: cancelURL, clientID: clientID, version: version.isEmpty ? nil : version,
            description: form.description,
            amount: form.amount, expenseDate: form.expenseDate, homeAmount: form.homeAmount,
            homeCurrency: scope.group.homeCurrency,
            currencies: Currency.all.filter { !$0.isWithdrawn }.map {
                .init(value: $0.code, label: "\($0.code) — \($0.name)", selected: $0.code == form.currency)
            },
            categories: categories.map {
                .init(
                    value: $0.id, label: "\($0.icon) \($0.name)",
                    selected: $0.id == form.category || (form.category.isEmpty && $0.name == "Other" && $0.isDefault))
            },
            modes: ExpenseForm.modes.map { .init(value: $0.0.rawValue, label: $0.1, selected: $0.0 == form.mode) },
            rows: members.map {
                .init(
                    id: $0.id, name: $0.name, paid: form.paid[$0.id] ?? "", included: form.included.contains($0.id),
                    value: form.values[$0.id] ?? "")
            },
            preview: previewLines, hasPreview: !previewLines.isEmpty, previewCurrency: preview?.currency ?? "",
            errors: errors,
            submitLabel: version.isEmpty ? "Save expense" : "Save changes")
    }
}
