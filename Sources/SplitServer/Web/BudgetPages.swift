import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The Budget page of a group and my own budget (issue 20): where it stands, one bar per category
/// (drawn as SVG, its numbers also as text), month by month or for the trip, and — for the group's
/// owner and admins, or for me — the caps to edit.
extension WebApp {
    var budgetUseCases: BudgetUseCases { api.budgetUseCases }

    struct BudgetBody: Sendable {
        struct Line: Sendable {
            let name: String
            let icon: String
            let spent: String
            let cap: String?
            let remaining: String?
            let over: Bool
            let percent: String?
            let dailyAverage: String
            let projected: String
            let bar: String
        }
        struct CapField: Sendable {
            let index: Int
            let id: String
            let name: String
            let value: String
            /// The row's number as people count, from 1 (`index` is the form's, from 0), for a
            /// screen reader's label (found by a new user: "Category 0").
            var number: Int
            /// Its amount (or, on My budget, its category's name) was refused: the box is marked,
            /// described by the caps' error line.
            var invalid = false
            var nameInvalid = false
            /// Why, in its own row (found by a new user: every refused cap in one line under them).
            var error: String? = nil
        }
        struct Uncounted: Sendable {
            let link: String?
            let text: String
        }
        let personal: Bool
        let action: String
        let heading: String
        let periodText: String
        let previousURL: String?
        let nextURL: String?
        let currency: String
        let lines: [Line]
        let total: Line
        let hasBudget: Bool
        let uncounted: [Uncounted]
        let uncountedCurrencies: String
        let hasUncounted: Bool
        /// The home currency changed since the budget was set: its amounts are asked for again.
        var currencyNote: String? = nil
        let canEdit: Bool
        // The form.
        let monthly: Bool
        let startDate: String
        let endDate: String
        let totalValue: String
        let thresholds: String
        let caps: [CapField]
        let currencies: [CurrencyOption]
        let errors: [String: String]
        /// "Remove the budget" was pressed: asked once more (found by a new user: one tap wiped
        /// the total, the caps, the dates and the alert levels).
        var confirmRemove = false
    }

    // MARK: A group's

    func budgetPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        return try await budgetPage(groupID: groupID, month: request.uri.queryParameters["month"].map(String.init))
    }

    private func budgetPage(
        groupID: String, month: String?, errors: [String: String] = [:], entered: WebForm? = nil,
        capErrors: [String: String] = [:], confirmRemove: Bool = false
    ) async throws -> Response {
        let scope = try await scope(groupID)
        let id = try APIHandler.id(groupID, "group")
        let status: BudgetStatus
        do {
            status = try await budgetUseCases.status(groupID: id, caller: try caller(), month: month)
        } catch AppError.invalid {
            return Self.redirect("/groups/\(groupID)/budget")
        }
        let categories = try await categoryUseCases.categories(groupID: id, caller: try caller())
        // Amounts set in a former home currency are not shown as if they were in the new one.
        let stale = status.budget.map { $0.currency != scope.group.homeCurrency } ?? false
        let budget = stale ? nil : status.budget
        let currency = status.currency
        var errors = errors
        let caps = categories.enumerated().map { index, category in
            Self.refused(
                BudgetBody.CapField(
                    index: index, id: category.id.text, name: "\(category.icon) \(category.name)",
                    value: entered?["cap_\(category.id.text)"]
                        ?? budget?.caps[category.id].map { Self.plain($0, currency) } ?? "",
                    number: index + 1), key: category.id.text, capErrors, &errors)
        }
        var body = Self.budgetBody(
            status, personal: false, action: "/groups/\(groupID)/budget",
            heading: "Budget", pageURL: "/groups/\(groupID)/budget", canEdit: scope.may(.updateGroup),
            expenseLink: { "/expenses/\($0.expenseID.text)" },
            form: (
                monthly: (entered?["period"] ?? budget?.period.rawValue ?? "month") == "month",
                start: entered?["startDate"] ?? budget?.startDate ?? "", end: entered?["endDate"] ?? budget?.endDate ?? "",
                total: entered?["total"] ?? budget?.total.map { Self.plain($0, currency) } ?? "",
                thresholds: entered?["thresholds"] ?? (budget?.thresholds ?? BudgetStore.defaultThresholds).map(String.init)
                    .joined(separator: ", "),
                caps: caps, currencies: []), errors: errors)
        body.confirmRemove = confirmRemove && body.hasBudget && body.canEdit
        if stale, let old = status.budget?.currency {
            body.currencyNote =
                "This budget is in \(old); the home currency is now \(scope.group.homeCurrency). Enter its amounts again in \(scope.group.homeCurrency)."
        }
        return try await render(
            "budget", title: "Budget · \(scope.group.name)", body: body, nav: scope.nav("budget"), errors: errors,
            errorOrder: ["period", "startDate", "endDate", "total", "caps"] + caps.map { "cap-\($0.index)" } + ["thresholds"])
    }

    func saveBudget(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let form = try WebRequest.get().form
        let id = try APIHandler.id(groupID, "group")
        var capNames: [String] = []
        var capIDs: [String] = []
        do {
            if form["action"] == "remove" {
                guard form["confirm"] == "1" else { return try await budgetPage(groupID: groupID, month: nil, confirmRemove: true) }
                try await budgetUseCases.remove(groupID: id, caller: try caller(), origin: try origin())
                return Self.redirect("/groups/\(groupID)/budget", done: "budget-removed")
            }
            let categories = try await categoryUseCases.categories(groupID: id, caller: try caller())
            let home = try await scope(groupID).group.homeCurrency
            let currency = try? Currency(code: home)
            let monthly = form["period"] != "trip"
            let capped = categories.filter { form.text("cap_\($0.id.text)") != nil }
            capNames = capped.map(\.name)
            capIDs = capped.map(\.id.text)
            // Every wrong field said at once (found by a new user: one, then the next): percentages
            // that do not read go to the use case as none, which says how to write them with the rest.
            let thresholds: [Int]?
            do { thresholds = try Self.thresholds(form["thresholds"]) } catch { thresholds = [] }
            _ = try await budgetUseCases.put(
                EnteredBudget(
                    period: monthly ? "month" : "trip", startDate: monthly ? nil : form.text("startDate") ?? "",
                    endDate: monthly ? nil : form.text("endDate") ?? "",
                    total: form.text("total").map { Self.typed($0, currency) },
                    caps: capped.map { category in
                        .init(
                            categoryId: category.id.text,
                            amount: Self.typed(form.text("cap_\(category.id.text)") ?? "", currency))
                    },
                    thresholds: thresholds), groupID: id, caller: try caller(),
                origin: try origin())
            return Self.redirect("/groups/\(groupID)/budget", done: "budget-saved")
        } catch {
            let (rest, capErrors) = Self.capProblems(Self.namingCaps(error, capNames), capIDs)
            return try await budgetPage(
                groupID: groupID, month: nil,
                errors: try rest.map {
                    try Self.formErrors($0, shown: ["period", "startDate", "endDate", "total", "caps", "thresholds"])
                } ?? [:],
                entered: form, capErrors: capErrors)
        }
    }

    // MARK: Mine

    func myBudgetPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await myBudgetPage(month: request.uri.queryParameters["month"].map(String.init))
    }

    private func myBudgetPage(
        month: String?, errors: [String: String] = [:], entered: WebForm? = nil, capErrors: [String: String] = [:],
        confirmRemove: Bool = false
    ) async throws -> Response {
        let status: BudgetStatus
        do {
            status = try await budgetUseCases.personalStatus(caller: try caller(), month: month)
        } catch AppError.invalid {
            return Self.redirect("/me/budget")
        }
        let budget = try await budgetUseCases.personalBudget(caller: try caller())
        let currency = budget?.currency ?? status.currency
        // A row per cap, per category I spent in, and a few empty ones.
        var names = (budget?.caps.map(\.name) ?? [])
        for line in status.lines where !names.contains(where: { AccountInput.nameKey($0) == AccountInput.nameKey(line.name) }) {
            names.append(line.name)
        }
        let rows = names.count + 3
        var errors = errors
        let caps = (0..<rows).map { index in
            let name = index < names.count ? names[index] : ""
            let cap = budget?.caps.first { AccountInput.nameKey($0.name) == AccountInput.nameKey(name) }
            return Self.refused(
                BudgetBody.CapField(
                    index: index, id: "", name: entered?["capName_\(index)"] ?? name,
                    value: entered?["cap_\(index)"] ?? cap.map { Self.plain($0.amount, currency) } ?? "",
                    number: index + 1), key: String(index), capErrors, &errors)
        }
        var body = Self.budgetBody(
            status, personal: true, action: "/me/budget", heading: "My budget", pageURL: "/me/budget", canEdit: true,
            expenseLink: { "/expenses/\($0.expenseID.text)" },
            form: (
                monthly: true, start: "", end: "",
                total: entered?["total"] ?? budget?.total.map { Self.plain($0, currency) } ?? "", thresholds: "",
                caps: caps, currencies: Self.currencyOptions(selected: entered?["currency"] ?? currency)),
            errors: errors)
        body.confirmRemove = confirmRemove && body.hasBudget && body.canEdit
        return try await render(
            "budget", title: "My budget", body: body, errors: errors,
            errorOrder: ["currency", "total", "caps"] + caps.map { "cap-\($0.index)" })
    }

    func saveMyBudget(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try WebRequest.get().form
        var rows: [String] = []  // the form row of each cap sent
        var names: [String] = []  // and its category's name, to name it in an error
        do {
            if form["action"] == "remove" {
                guard form["confirm"] == "1" else { return try await myBudgetPage(month: nil, confirmRemove: true) }
                try await budgetUseCases.removePersonal(caller: try caller())
                return Self.redirect("/me/budget", done: "budget-removed")
            }
            let code = (form.text("currency") ?? "").uppercased()
            let currency = try? Currency(code: code)
            var caps: [EnteredPersonalBudget.Cap] = []
            for index in 0..<(BudgetUseCases.maximumCaps + 3) {
                guard let amount = form.text("cap_\(index)") else { continue }
                caps.append(.init(category: form["capName_\(index)"] ?? "", amount: Self.typed(amount, currency)))
                rows.append(String(index))
                names.append(form.text("capName_\(index)") ?? "Row \(index + 1)")
            }
            _ = try await budgetUseCases.putPersonal(
                EnteredPersonalBudget(currency: code, total: form.text("total").map { Self.typed($0, currency) }, caps: caps),
                caller: try caller())
            return Self.redirect("/me/budget", done: "budget-saved")
        } catch {
            let (rest, capErrors) = Self.capProblems(Self.namingCaps(error, names), rows)
            return try await myBudgetPage(
                month: nil,
                errors: try rest.map { try Self.formErrors($0, shown: ["currency", "total", "caps"]) } ?? [:],
                entered: form, capErrors: capErrors)
        }
    }

    // MARK: Shared

    /// Splits a refusal into the problems of single caps, by the key (of `keys`, in the order the
    /// caps were sent) of their row: the key for an amount ("caps[1].amount"), "name:" and the key
    /// for a category's name ("caps[1].category", on My budget); and the rest, nil when nothing is
    /// left. Each cap's problem is then said in its row and counted in the summary on its own.
    static func capProblems(_ error: any Error, _ keys: [String]) -> (rest: (any Error)?, rows: [String: String]) {
        guard let app = error as? AppError, !app.fieldProblems.isEmpty else { return (error, [:]) }
        var rows: [String: String] = [:]
        var rest: [AppError.FieldProblem] = []
        for problem in app.fieldProblems {
            guard problem.field.hasPrefix("caps["), let close = problem.field.firstIndex(of: "]"),
                let index = Int(problem.field.dropFirst("caps[".count).prefix(upTo: close)), keys.indices.contains(index)
            else {
                rest.append(problem)
                continue
            }
            let key = problem.field.hasSuffix(".category") ? "name:" + keys[index] : keys[index]
            rows[key] = rows[key].map { "\($0) \(sentence(problem.message))" } ?? sentence(problem.message)
        }
        if rows.isEmpty { return (error, [:]) }
        if rest.isEmpty { return (nil, rows) }
        return (rest.count == 1 ? AppError.invalid(field: rest[0].field, message: rest[0].message) : AppError.invalidFields(rest), rows)
    }

    /// A cap's row with what `capErrors` says of it (its amount's and its name's problems): the
    /// boxes marked, the message in the row and, as "cap-INDEX", in the page's summary.
    static func refused(
        _ field: BudgetBody.CapField, key: String, _ capErrors: [String: String], _ errors: inout [String: String]
    ) -> BudgetBody.CapField {
        var field = field
        field.invalid = capErrors[key] != nil
        field.nameInvalid = capErrors["name:" + key] != nil
        let said = [capErrors["name:" + key], capErrors[key]].compactMap { $0 }
        if !said.isEmpty {
            field.error = said.joined(separator: " ")
            errors["cap-\(field.index)"] = field.error
        }
        return field
    }

    /// A refusal whose cap problems ("caps[1].amount") say which category's cap they are about,
    /// since the page shows them together under the caps.
    static func namingCaps(_ error: any Error, _ names: [String]) -> any Error {
        guard let app = error as? AppError, !app.fieldProblems.isEmpty,
            app.fieldProblems.contains(where: { $0.field.hasPrefix("caps[") })
        else { return error }
        let problems = app.fieldProblems.map { problem -> AppError.FieldProblem in
            guard problem.field.hasPrefix("caps["), let close = problem.field.firstIndex(of: "]"),
                let index = Int(problem.field.dropFirst("caps[".count).prefix(upTo: close)), names.indices.contains(index)
            else { return problem }
            return AppError.FieldProblem(field: problem.field, message: "\(names[index]): \(problem.message)")
        }
        return problems.count == 1
            ? AppError.invalid(field: problems[0].field, message: problems[0].message) : AppError.invalidFields(problems)
    }

    /// "80, 100" → [80, 100]; nil when left empty (the defaults).
    static func thresholds(_ text: String?) throws -> [Int]? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "%" })
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count else {
            throw AppError.invalid(field: "thresholds", message: "Write the alert percentages like 80, 100.")
        }
        return numbers
    }

    /// An amount as typed, in the plain form the use case reads ("1,000" → "1000").
    static func typed(_ text: String, _ currency: Currency?) -> String {
        currency.map { MoneyInput.typed(text, $0) } ?? text
    }

    /// A stored amount as a form field shows it.
    static func plain(_ amount: Int64, _ code: String) -> String { MoneyInput.text(amount, code) }

    static func budgetBody(
        _ status: BudgetStatus, personal: Bool, action: String, heading: String, pageURL: String, canEdit: Bool,
        expenseLink: (UncountedExpense) -> String,
        form: (
            monthly: Bool, start: String, end: String, total: String, thresholds: String, caps: [BudgetBody.CapField],
            currencies: [CurrencyOption]
        ), errors: [String: String]
    ) -> BudgetBody {
        let code = status.currency
        func money(_ amount: Int64) -> String { WebFormat.grouped(MoneyInput.text(amount, code)) + " " + code }
        func line(_ name: String, _ icon: String, _ figures: BudgetFigures) -> BudgetBody.Line {
            let over = (figures.remaining ?? 0) < 0
            return BudgetBody.Line(
                name: name, icon: icon, spent: money(figures.spent), cap: figures.cap.map(money),
                remaining: figures.remaining.map { $0 < 0 ? money(0 - $0) + " over" : money($0) + " left" },
                over: over, percent: figures.percent.map { "\($0)%" }, dailyAverage: money(figures.dailyAverage),
                projected: money(figures.projected), bar: Charts.budgetBar(figures, label: name, currency: code))
        }
        let isTrip = status.budget?.period == .trip
        let start = status.period.start
        let previous = CivilDate(year: start.month == 1 ? start.year - 1 : start.year, month: start.month == 1 ? 12 : start.month - 1, day: 1)
        let next = status.period.end.adding(days: 1)
        func monthKey(_ date: CivilDate) -> String { String(date.description.prefix(7)) }
        return BudgetBody(
            personal: personal, action: action, heading: heading,
            periodText: isTrip
                ? "The trip, \(status.period.start) to \(status.period.end) (\(status.period.days) days)"
                : WebFormat.monthName(start),
            previousURL: isTrip ? nil : previous.map { pageURL + "?month=" + monthKey($0) },
            nextURL: isTrip ? nil : pageURL + "?month=" + monthKey(next), currency: code,
            lines: status.lines.map { line($0.label, $0.icon, $0.figures) },
            total: line("Total", "", status.total),
            hasBudget: personal ? status.total.cap != nil || status.lines.contains { $0.figures.cap != nil } : status.budget != nil,
            uncounted: status.uncounted.map { item in
                let group = status.groupNames[item.groupID].map { " · \($0)" } ?? ""
                return .init(
                    link: expenseLink(item),
                    text: "\(item.date) \(item.description): \(WebFormat.grouped(MoneyInput.text(item.amount, item.currency))) \(item.currency)\(group)")
            },
            uncountedCurrencies: status.uncountedCurrencies.joined(separator: ", "),
            hasUncounted: !status.uncountedCurrencies.isEmpty, canEdit: canEdit,
            monthly: form.monthly, startDate: form.start, endDate: form.end, totalValue: form.total,
            thresholds: form.thresholds, caps: form.caps, currencies: form.currencies, errors: errors)
    }
}
