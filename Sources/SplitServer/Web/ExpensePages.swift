import Foundation
import Hummingbird
import Mustache
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The expense list with filters, the add and edit form, an expense's detail with its shares,
/// paid toggles and payment history, delete and restore.
extension WebApp {
    // MARK: List

    struct ExpenseListBody: Sendable {
        struct Row: Sendable {
            let id: String
            let description: String
            let amount: String
            let date: String
            let category: String
            let paidBy: String
            /// A refund: "received by", and its amount shown as money coming back (−3,000 JPY).
            let refund: Bool
            let deleted: Bool
        }
        let groupID: String
        let rows: [Row]
        let canAdd: Bool
        let categories: [ExpenseFormBody.Option]
        let members: [ExpenseFormBody.Option]
        let from: String
        let month: String
        let to: String
        let q: String
        let includeDeleted: Bool
        let nextURL: String?
        let filtered: Bool
        let errors: [String: String]
    }

    func expensesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let query = request.uri.queryParameters
        func param(_ name: String) -> String? {
            query[name[...]].map(String.init).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        let includeDeleted = param("deleted") != nil
        let categories = try await categoryUseCases.categories(
            groupID: try APIHandler.id(groupID, "group"), caller: try caller()
        ).map(Components.Schemas.Category.init)
        var rows: [ExpenseListBody.Row] = []
        var nextURL: String?
        var errors: [String: String] = [:]
        do {
            let (views, hasMore) = try await expenses.list(
                groupID: try APIHandler.id(groupID, "group"),
                filter: {
                    try APIHandler.expenseFilter(
                        category: param("category"), memberId: param("member"), from: param("from"),
                        to: param("to"), q: param("q"), includeDeleted: includeDeleted, limit: 50,
                        cursor: param("cursor"), month: param("month"))
                }, caller: try caller())
            let page = try Components.Schemas.ExpenseList(views, hasMore: hasMore)
            // A category no longer live is said so: a new one may have its name (found by a new user).
            let live = Set(categories.map(\.id))
            rows = page.expenses.map { expense in
                .init(
                    id: expense.id, description: expense.description,
                    amount: WebFormat.money(expense.amount, expense.currency), date: expense.expenseDate,
                    category: live.contains(expense.category) ? expense.categoryName : "\(expense.categoryName) (deleted)",
                    paidBy: expense.payers.map { scope.label($0.memberId) }.joined(separator: ", "),
                    refund: expense.amount.hasPrefix("-"), deleted: expense.isDeleted)
            }
            if let cursor = page.nextCursor {
                var items = URLComponents()
                items.queryItems =
                    ["category", "member", "from", "to", "month", "q", "deleted"].compactMap { name in
                        param(name).map { URLQueryItem(name: name, value: $0) }
                    } + [URLQueryItem(name: "cursor", value: cursor)]
                nextURL = "/groups/\(groupID)/expenses?" + (items.percentEncodedQuery ?? "")
            }
        } catch {
            errors = try Self.formErrors(error, shown: ["from", "to", "month"])
        }
        let body = ExpenseListBody(
            groupID: groupID, rows: rows, canAdd: scope.may(.addExpense),
            categories: categories.map {
                .init(value: $0.id, label: "\($0.icon) \($0.name)", selected: $0.id == param("category"))
            },
            // Removed members stay findable, marked (issue 15).
            members: scope.members.map {
                .init(
                    value: $0.id, label: $0.label, selected: $0.id == param("member"))
            },
            from: param("from") ?? "", month: param("month") ?? "", to: param("to") ?? "", q: param("q") ?? "", includeDeleted: includeDeleted,
            nextURL: nextURL,
            filtered: ["category", "member", "from", "to", "q", "deleted"].contains { param($0) != nil },
            errors: errors)
        return try await render(
            "expenses", title: "Expenses · \(scope.group.name)", body: body, nav: scope.nav("expenses"),
            errors: errors)
    }

    // MARK: Add

    func newExpensePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        try scope.require(.addExpense)
        var form = ExpenseForm(newIn: scope.group, members: scope.activeMembers, today: today(in: scope))
        // From Add quickly: the line typed there, to finish here.
        if let typed = request.uri.queryParameters["description"].map(String.init), !typed.isEmpty {
            form.description = String(typed.prefix(200))
        }
        return try await renderExpenseForm(
            form, scope: scope, clientID: UUID.random().uuidString, version: "", preview: nil, errors: [:])
    }

    /// Saves a new expense, or (`intent=preview`) shows the form again with the shares.
    func createExpense(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        // The form's own id: saving twice (a double click, a retry) stores one expense.
        let clientID = UUID(uuidString: web.form["_id"] ?? "") ?? UUID.random()
        let draft = form.draft(members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency)
        do {
            let groupUUID = try APIHandler.id(groupID, "group")
            if web.form["intent"] == "preview" {
                let preview = try await expenses.preview(draft, id: clientID, groupID: groupUUID, caller: try caller())
                return try await renderExpenseForm(
                    form, scope: scope, clientID: clientID.uuidString, version: "", preview: preview, errors: [:])
            }
            try form.refuseMinusWithoutRefund()
            try form.refuseAmountUnlikeItems()
            if let question = form.farFutureQuestion(
                today: today(in: scope), confirmed: web.form.text("confirmDate"))
            {
                return try await renderExpenseForm(
                    form, scope: scope, clientID: clientID.uuidString, version: "", preview: nil,
                    errors: ["expenseDate": question], farFuture: question)
            }
            // Bound to the form's id and what it says, like an API create with that key.
            let wire = Components.Schemas.CreateExpenseRequest(draft, id: clientID.uuidString, groupID: groupID)
            _ = try await expenses.create(
                draft, id: clientID.uuidString, groupID: groupUUID, caller: try caller(), origin: try origin(),
                idempotency: IdempotencyRequest(
                    key: "web-\(clientID.uuidString.lowercased())",
                    requestHash: try APIHandler.requestHash(route: "POST /api/expenses", body: wire)),
                render: { view in
                    StoredResponse(
                        status: 201,
                        body: try WireJSON.encode(Components.Schemas.ExpenseResponse(expense: try .init(view))))
                })
            // A new expense or a resent form: either way the expense with this form's id.
            return Self.redirect("/expenses/\(clientID.uuidString.lowercased())", done: "expense-saved")
        } catch {
            return try await renderExpenseForm(
                form, scope: scope, clientID: clientID.uuidString, version: "", preview: nil,
                errors: try Self.formErrors(error, shown: ExpenseForm.fieldsWithErrors))
        }
    }

    /// The shares as an HTML fragment, for the form's script to show while the user types.
    func previewFragment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        let id = UUID(uuidString: web.form["_id"] ?? "") ?? UUID.random()
        var preview: ExpenseRecord?
        var errors: [String: String] = [:]
        do {
            preview = try await expenses.preview(
                form.draft(members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency), id: id,
                groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        } catch {
            errors = try Self.formErrors(error, shown: ["amount", "split", "paidBy", "currency"])
        }
        let body = expenseFormBody(
            form, scope: scope, categories: [], heading: "", action: "", cancelURL: "", clientID: id.uuidString,
            version: "", preview: preview, errors: errors)
        guard let html = templates.render(body, withTemplate: "preview-fragment") else { throw APIError.internalError }
        return Self.html(html)
    }

    /// Where the expense form posts when it is not an expense's own (a recurring expense, a
    /// pending one), and what it says.
    struct ExpenseFormTarget: Sendable {
        let heading: String
        let action: String
        let cancelURL: String
        let submitLabel: String
        let tab: String
        let recurrence: RecurrenceFields?
        /// Members no longer in the group may be taken out (a waiting occurrence becomes a new
        /// expense, which cannot have them); an expense's own edit keeps their part locked.
        var freesRemoved = false
    }

    func renderExpenseForm(
        _ form: ExpenseForm, scope: GroupScope, clientID: String, version: String, preview: ExpenseRecord?,
        errors: [String: String], farFuture: String? = nil, removedShares: String? = nil, target: ExpenseFormTarget? = nil,
        base: String? = nil
    ) async throws -> Response {
        let groupID = try APIHandler.id(scope.group.id, "group")
        var categories = try await categoryUseCases.categories(groupID: groupID, caller: try caller())
            .map(Components.Schemas.Category.init)
        // An expense whose category was deleted keeps it, offered as such (found by a new user:
        // the list preselected Meal, and saving a new description moved the expense there).
        if !form.category.isEmpty, !categories.contains(where: { $0.id == form.category }),
            let id = UUID(uuidString: form.category), let name = try await expenses.categoryNames(groupID)[id]
        {
            categories.append(
                .init(
                    id: form.category, name: "\(name) (deleted)", icon: "🗑️", color: "", isDefault: false,
                    position: categories.count, version: 0))
        }
        // The currencies of the latest expenses go to the top of the list.
        let recent = try await expenses.list(
            groupID: groupID,
            filter: {
                var filter = ExpenseFilter()
                filter.limit = 20
                return filter
            }, caller: try caller()
        ).expenses.map(\.expense.currency)
        let editing = !version.isEmpty
        let body = expenseFormBody(
            form, scope: scope, categories: categories,
            heading: target?.heading ?? (editing ? "Edit expense" : "Add an expense"),
            action: target?.action ?? (editing ? "/expenses/\(clientID)/edit" : "/groups/\(scope.group.id)/expenses"),
            cancelURL: target?.cancelURL ?? (editing ? "/expenses/\(clientID)" : "/groups/\(scope.group.id)/expenses"),
            clientID: clientID, version: version, preview: preview, errors: errors, recentCurrencies: recent,
            farFuture: farFuture, removedShares: removedShares, submitLabel: target?.submitLabel, recurrence: target?.recurrence,
            freesRemoved: target?.freesRemoved ?? false, base: base)
        return try await render(
            "expense-form", title: body.heading, body: body, nav: scope.nav(target?.tab ?? "expenses", live: false),
            errors: errors, errorOrder: ExpenseForm.fieldOrder + ["rule"])
    }

    // MARK: Edit

    func editExpensePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let expense = try await expense(context)
        let scope = try await scope(expense.groupId)
        guard scope.may(.editExpense(isOwn: expense.createdByUserId == scope.me?.userId)) else {
            throw APIError.forbidden()
        }
        // Members removed from the group since keep their rows (marked) and their part.
        return try await renderExpenseForm(
            ExpenseForm(editing: expense), scope: scope, clientID: expense.id, version: String(expense.version),
            preview: nil, errors: [:], base: ExpenseForm(editing: expense).base(homeCurrency: scope.group.homeCurrency))
    }

    func updateExpense(_ request: Request, context: AppRequestContext) async throws -> Response {
        let expense = try await expense(context)
        let scope = try await scope(expense.groupId)
        let web = try WebRequest.get()
        let form = ExpenseForm(form: web.form, members: scope.members)
        let version = web.form["version"] ?? ""
        let base = web.form["base"]
        var draft = form.draft(members: scope.members, paidByDefault: scope.group.myMemberId, homeCurrency: scope.group.homeCurrency)
        // An edit says who paid; none typed means the editor paid it all. One payer of the whole
        // amount whose box was left as it was paid the new total too (issue 15: changing only
        // the amount must not be refused for payers that no longer add up).
        let stored = expense.payers
        let keepsSinglePayer =
            stored.count == 1 && draft.paidBy?.count == 1 && draft.paidBy?.first?.memberId == stored[0].memberId
            && draft.paidBy?.first?.value == stored[0].amount
        let sentPayers =
            keepsSinglePayer
            ? [EnteredAmount(memberId: stored[0].memberId, value: draft.amount)]
            : draft.paidBy ?? [
                EnteredAmount(memberId: draft.paidByMemberId ?? scope.group.myMemberId, value: draft.amount)
            ]
        if keepsSinglePayer { draft.paidBy = sentPayers }
        let expenseID = try APIHandler.id(expense.id, "expense")
        do {
            if web.form["intent"] == "preview" {
                let preview = try await expenses.preview(
                    draft, id: expenseID, groupID: try APIHandler.id(scope.group.id, "group"), caller: try caller())
                return try await renderExpenseForm(
                    form, scope: scope, clientID: expense.id, version: version, preview: preview, errors: [:], base: base)
            }
            try form.refuseMinusWithoutRefund()
            try form.refuseAmountUnlikeItems(untouched: WebFormat.magnitude(expense.amount))
            if form.expenseDate != expense.expenseDate,
                let question = form.farFutureQuestion(
                    today: today(in: scope), confirmed: web.form.text("confirmDate"))
            {
                return try await renderExpenseForm(
                    form, scope: scope, clientID: expense.id, version: version, preview: nil,
                    errors: ["expenseDate": question], farFuture: question, base: base)
            }
            // The charged box left as it was, under a new amount or currency, stood for the old one:
            // it goes, as on the API (found by a new user: 120 USD kept "charged 15,200 JPY" of 100).
            let decimal = { (text: String?) in text.flatMap { Decimal(string: WebFormat.magnitude($0)) } }
            let chargedUntouched = expense.homeAmount != nil && decimal(form.homeAmount) == decimal(expense.homeAmount)
            let moneyChanged =
                draft.currency.uppercased() != expense.currency || decimal(draft.amount) != decimal(expense.amount)
            let patch = ExpensePatch(
                description: draft.description, amount: draft.amount, currency: draft.currency,
                category: draft.category, expenseDate: draft.expenseDate, paidBy: sentPayers, split: draft.split,
                homeAmount: chargedUntouched && moneyChanged ? nil : draft.homeAmount,
                confirmRemovedShares: web.form["confirmRemovedShares"] == "1")
            let edited = try await expenses.edit(
                expenseID, patch,
                basedOn: {
                    guard let basedOn = Int64(version) else {
                        throw AppError.invalid(field: "version", message: "Reload the page.")
                    }
                    return basedOn
                }, caller: try caller(), origin: try origin())
            // Paid marks the edit undid (what those shares owe changed) are said, not only in
            // each share's history (found by a new user: "Saved.", and a share paid in cash
            // showed "Not paid").
            // By share: one taken out of the split is not "unpaid" (found by review).
            let unpaidNow = Set(edited.expense.shares.filter { !$0.isPaid }.map { $0.id.text.lowercased() })
            let unmarked = expense.splits.contains { $0.isPaid && unpaidNow.contains($0.id.lowercased()) }
            // Saved as it was: said so, not "Saved." (nothing is recorded for it either).
            if edited.expense.version == expense.version { return Self.redirect("/expenses/\(expense.id)", done: "expense-unchanged") }
            return Self.redirect("/expenses/\(expense.id)", done: unmarked ? "expense-saved-unmarked" : "expense-saved")
        } catch AppError.conflict(code: "removed_share_changed", _, let question) {
            // What it would change of someone no longer in the group, asked at the top of the form
            // with its own Save (found by a new user: the form said their part was kept, and a
            // new total changed it; then the question sat as an error 2,000 px down a phone).
            return try await renderExpenseForm(
                form, scope: scope, clientID: expense.id, version: version, preview: nil,
                errors: [:], removedShares: question, base: base)
        } catch AppError.staleExpense(let latest) {
            let current = try Components.Schemas.Expense(latest)
            // Deleted meanwhile: said first, not as a change to merge (found by a new user: the
            // form came back merged, and only a second save said it was deleted).
            if latest.expense.isDeleted {
                return try await renderExpenseForm(
                    form, scope: scope, clientID: expense.id, version: String(current.version), preview: nil,
                    errors: [
                        "form":
                            "Someone deleted this expense while you were editing. Restore it on its page first (your changes are below, not saved), or leave it deleted."
                    ], base: base)
            }
            // This very change went through already (a double click, a resent form): done.
            if ExpenseUseCases.says(latest.expense, draft, payers: sentPayers) {
                return Self.redirect("/expenses/\(expense.id)")
            }
            // Someone saved first: the form again on what it says now, with the other person's
            // changes taken into the parts this user left alone and this user's kept; saving
            // again is a decision made knowing both (nothing is overwritten unseen).
            let now = ExpenseForm(editing: current)
            let mode = ExpenseForm.modes.first { $0.0 == EnteredSplit.Mode(wire: current.split.mode) }?.1 ?? "Itemized"
            var message =
                "Someone else changed this expense while you were editing. It now reads: “\(current.description)”, \(WebFormat.money(current.amount, current.currency)), \(current.expenseDate), split \(mode.lowercased())."
            var shown = form
            if let parts = ExpenseForm.parts(base: base) {
                let merge = form.merged(base: parts, now: now, homeCurrency: scope.group.homeCurrency)
                shown = merge.form
                if !merge.taken.isEmpty {
                    message += " Their change to \(ExpenseForm.listed(merge.taken)) is in the form below."
                }
                if !merge.both.isEmpty {
                    message += " You both changed \(ExpenseForm.listed(merge.both)): the form keeps yours."
                }
                if !merge.mine.isEmpty {
                    message += " Your change to \(ExpenseForm.listed(merge.mine)) is kept."
                }
                message += " Check it, then save again."
            } else {
                message += " Your changes are below; save again to replace it with them."
            }
            return try await renderExpenseForm(
                shown, scope: scope, clientID: expense.id, version: String(current.version), preview: nil,
                errors: ["form": message], base: now.base(homeCurrency: scope.group.homeCurrency))
        } catch {
            return try await renderExpenseForm(
                form, scope: scope, clientID: expense.id, version: version, preview: nil,
                errors: try Self.formErrors(error, shown: ExpenseForm.fieldsWithErrors), base: base)
        }
    }

    private func expense(_ context: AppRequestContext) async throws -> Components.Schemas.Expense {
        let id = try APIHandler.id(try context.parameters.require("expenseId"), "expense")
        return try Components.Schemas.Expense(try await expenses.expense(id, caller: try caller()))
    }

    // MARK: Detail

    struct ExpenseBody: Sendable {
        struct Share: Sendable {
            let id: String
            let name: String
            let amount: String
            let isPaid: Bool
            /// Nothing to settle, and why: the member paid (received) at least their share
            /// themselves ("Paid it", "Has it"), or the share is 0 ("Owes nothing").
            let covered: String?
            /// "owes", "owed" once paid, "had a share of" for a payer's own covered part ("is owed",
            /// "was owed" on a refund): found by a new user, "Lena owes 272.22 CHF · Paid it" of
            /// the payer's own share, and "Ben owes … · Paid" of one settled.
            let verb: String
            let canToggle: Bool
            let history: [History]
            let hasHistory: Bool
        }
        struct History: Sendable {
            let text: String
            let reason: String?
            let audit: String?
        }
        struct Payer: Sendable {
            let name: String
            let amount: String
        }
        let id: String
        let groupID: String
        let description: String
        let amount: String
        let homeAmount: String?
        let date: String
        let category: String
        let splitMode: String
        /// A refund or money received (issue 18): amounts shown above zero, said as received and owed to.
        let refund: Bool
        let payers: [Payer]
        let shares: [Share]
        let deleted: Bool
        let canEdit: Bool
        let version: Int64
        /// "Mark paid" on the share of a member who is settled up: what it would do, and a button
        /// that marks it anyway.
        var confirmPaid: ConfirmPaid? = nil
        /// Delete (or restore) of an expense that moves the balance of someone who left: what it
        /// moves, and a button that goes on.
        var confirmDeleted: ConfirmDeleted? = nil
    }

    struct ConfirmPaid: Sendable {
        let splitID: String
        let name: String
        let message: String
        let reason: String
    }

    struct ConfirmDeleted: Sendable {
        let message: String
        /// "delete" or "restore": the form's action and the button's verb.
        let action: String
        let verb: String
    }

    func expensePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await expensePage(context: context, confirmPaid: nil)
    }

    func expensePage(
        context: AppRequestContext, confirmPaid: ConfirmPaid?, confirmDeleted: ConfirmDeleted? = nil
    ) async throws -> Response {
        let expense = try await expense(context)
        let scope = try await scope(expense.groupId)
        let myMemberID = scope.group.myMemberId
        let isPayer = expense.payers.contains { $0.memberId == myMemberID }
        let refund = expense.amount.hasPrefix("-")
        // A refund's amounts are shown as what was received and what each is owed, above zero.
        func shown(_ amount: String, _ currency: String) -> String {
            WebFormat.money(refund && amount.hasPrefix("-") ? String(amount.dropFirst()) : amount, currency)
        }
        var shares: [ExpenseBody.Share] = []
        for share in expense.splits {
            // Paid (or, on a refund, received) at least their own part themselves, or a share of
            // 0: nothing to settle, as the API says it (the server refuses such a mark).
            let covered = share.nothingToPay == true
            let isZero = WebFormat.isZero(share.amount)
            let (records, seesDetails) = try await expenses.shareHistory(
                try APIHandler.id(share.id, "share"), caller: try caller())
            let history = records.map { Components.Schemas.HistoryEntry($0, withDetails: seesDetails) }
            shares.append(
                .init(
                    id: share.id, name: scope.label(share.memberId),
                    amount: shown(share.amount, expense.currency), isPaid: share.isPaid,
                    covered: covered && !share.isPaid ? (isZero ? "Owes nothing" : refund ? "Kept their part" : "Paid it") : nil,
                    verb: covered && !share.isPaid && !isZero
                        ? (refund ? "had a part of" : "had a share of")
                        : share.isPaid ? (refund ? "was owed" : "owed") : (refund ? "is owed" : "owes"),
                    canToggle: !expense.isDeleted && !(covered && !share.isPaid)
                        && scope.may(.markSharePaid(isDebtorOrPayer: isPayer || share.memberId == myMemberID)),
                    history: history.map { entry in
                        .init(
                            text:
                                "\(entry.action == .markedPaid ? (refund ? "Marked paid out" : "Marked paid") : (refund ? "Marked not paid out" : "Marked unpaid")) by \(entry.performedByName), \(ZonedTime.dateTime(entry.performedAt, in: scope.group.timeZone))",
                            reason: entry.reason,
                            audit: entry.ipAddress.map {
                                [$0, entry.deviceInfo].compactMap { $0 }.joined(separator: " · ")
                            })
                    }, hasHistory: !history.isEmpty))
        }
        // In the group's order of members, as the form lists them (found by a new user: the
        // order the server stored them in).
        let order = Dictionary(scope.members.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let place = { (memberID: String) in order[memberID] ?? Int.max }
        let byMember = Dictionary(expense.splits.map { ($0.id, $0.memberId) }, uniquingKeysWith: { first, _ in first })
        shares.sort { place(byMember[$0.id] ?? "") < place(byMember[$1.id] ?? "") }
        // Within the sentence: "split equally", "split by item (a bill with tax and tip)".
        let mode = ExpenseForm.modes.first { $0.0 == EnteredSplit.Mode(wire: expense.split.mode) }?.1 ?? "By item"
        let body = ExpenseBody(
            id: expense.id, groupID: expense.groupId, description: expense.description,
            amount: shown(expense.amount, expense.currency),
            homeAmount: expense.homeAmount.map { shown($0, scope.group.homeCurrency) },
            date: expense.expenseDate, category: expense.categoryName,
            splitMode: mode.prefix(1).lowercased() + mode.dropFirst(),
            refund: refund,
            payers: expense.payers.sorted { place($0.memberId) < place($1.memberId) }.map {
                .init(name: scope.label($0.memberId), amount: shown($0.amount, expense.currency))
            },
            shares: shares, deleted: expense.isDeleted,
            canEdit: scope.may(.editExpense(isOwn: expense.createdByUserId == scope.me?.userId)),
            version: expense.version, confirmPaid: confirmPaid, confirmDeleted: confirmDeleted)
        return try await render("expense", title: expense.description, body: body, nav: scope.nav("expenses"))
    }

    /// Why "Mark paid" asks first, when it does: marking a share paid records a transfer, and a
    /// debtor who is settled up (owes nothing and is owed nothing — in the home currency when
    /// the group's balances have one, else in the share's currency) most likely paid it with the
    /// settle-up transfers already, so the mark would count it twice. A member who is owed
    /// overall and pays a share in cash is not asked (found by review: asking them every time
    /// was a false alarm).
    func settledWarning(_ expense: Components.Schemas.Expense, splitID: String) async throws
        -> (name: String, message: String)?
    {
        guard let share = expense.splits.first(where: { $0.id == splitID.lowercased() }), !share.isPaid,
            let debtor = UUID(uuidString: share.memberId), let groupID = UUID(uuidString: expense.groupId),
            !WebFormat.isZero(share.amount)
        else { return nil }
        let balances = try await ledger.balances(groupID: groupID, caller: try caller())
        let settled: Bool
        let within: String
        if let home = balances.homeBalances {
            settled = (home[MemberID(debtor)] ?? 0) == 0
            let others = balances.nets.contains { $0.currency != balances.home.code && $0.net != 0 }
            within = others ? ", everything counted in \(balances.home.code)" : " in \(balances.home.code)"
        } else {
            settled = !balances.nets.contains { $0.memberID == debtor && $0.currency == expense.currency && $0.net != 0 }
            within = " in \(expense.currency)"
        }
        guard settled else { return nil }
        let scope = try await scope(expense.groupId)
        let name = scope.name(share.memberId)
        let payers = expense.payers.filter { $0.memberId != share.memberId }.map { scope.name($0.memberId) }
        let amount = WebFormat.money(
            share.amount.hasPrefix("-") ? String(share.amount.dropFirst()) : share.amount, expense.currency)
        // A refund's share is paid out by who received the money (found by a new user: "records
        // 1,000 JPY paid to Ben from Aki").
        let records =
            share.amount.hasPrefix("-")
            ? "Marking this share paid out records that \(payers.isEmpty ? "someone" : payers.joined(separator: " and ")) paid \(name) \(amount)"
            : "Marking this share paid records \(amount) paid from \(name)"
                + (payers.isEmpty ? "" : " to " + payers.joined(separator: " and "))
        return (
            name,
            "\(name) is settled up\(within): nothing owed either way. \(records), so the balances would then show "
                + "it owed back. If the settle-up transfers already covered this share, leave it unmarked."
        )
    }

    func deleteExpense(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setDeleted(try context.parameters.require("expenseId"), true, context: context)
    }

    func restoreExpense(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setDeleted(try context.parameters.require("expenseId"), false, context: context)
    }

    /// Deletes or restores the expense as of the version the page showed: if someone changed it
    /// since, nothing happens and the page says so. One that moves the balance of someone who
    /// left asks first, on the expense's page.
    private func setDeleted(_ id: String, _ isDeleted: Bool, context: AppRequestContext) async throws -> Response {
        let form = try WebRequest.get().form
        let version = try APIHandler.version(form["version"])
        do {
            _ = try await expenses.setDeleted(
                try APIHandler.id(id, "expense"), isDeleted, basedOn: version,
                confirmRemovedShares: form["confirmRemovedShares"] == "1", caller: try caller(), origin: try origin())
        } catch AppError.conflict(code: "removed_share_changed", _, let message) {
            return try await expensePage(
                context: context, confirmPaid: nil,
                confirmDeleted: .init(
                    message: message, action: isDeleted ? "delete" : "restore", verb: isDeleted ? "Delete" : "Restore"))
        } catch AppError.staleExpense {
            return errorPage(
                .preconditionFailed, heading: "Changed meanwhile",
                message:
                    "Someone changed this expense after you opened it, so it was not \(isDeleted ? "deleted" : "restored"). Open it again to see what it says now.",
                link: "/expenses/\(id)")
        }
        return Self.redirect("/expenses/\(id)", done: isDeleted ? "expense-deleted" : "expense-restored")
    }

    /// Marks one share paid or unpaid, with the reason typed next to the button, as of the
    /// expense's version the page showed: if someone changed it since (the share may be another
    /// amount now), nothing is recorded and the page says so.
    func setSharePayment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let expenseID = try context.parameters.require("expenseId")
        let splitID = try context.parameters.require("splitId")
        let form = try WebRequest.get().form
        if form["isPaid"] == "true", form["confirm"] != "1",
            let warning = try await settledWarning(try await expense(context), splitID: splitID)
        {
            return try await expensePage(
                context: context,
                confirmPaid: .init(
                    splitID: splitID, name: warning.name, message: warning.message, reason: form["reason"] ?? ""))
        }
        let refund: Bool
        do {
            refund = try await expenses.setSharePaid(
                try APIHandler.id(splitID, "share"), form["isPaid"] == "true", reason: form.text("reason"),
                basedOn: try APIHandler.version(form["version"]), caller: try caller(), origin: try origin()
            ).share.amount < 0
        } catch AppError.staleExpense {
            return errorPage(
                .preconditionFailed, heading: "Changed meanwhile",
                message:
                    "Someone changed this expense after you opened it, so nothing was marked. Open it again to see what each share is now.",
                link: "/expenses/\(expenseID)")
        }
        // A refund's share is paid out (found by a new user: "Marked paid." of money handed back).
        let done = form["isPaid"] == "true" ? (refund ? "share-paid-out" : "share-paid") : (refund ? "share-not-paid-out" : "share-unpaid")
        return Self.redirect("/expenses/\(expenseID)#share-\(splitID)", done: done)
    }
}
