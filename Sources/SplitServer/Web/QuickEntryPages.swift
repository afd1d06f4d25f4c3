import Foundation
import Hummingbird
import Mustache
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// "Add quickly" (issue 21): one line on the group's overview, read by the same parser and
/// shares as `POST /api/groups/{id}/quick-entry`. The page's script shows what the line reads
/// as while it is typed; Save stores it. Without script, Check shows the same preview on a page
/// of its own, with Save there.
extension WebApp {
    /// The form, on the overview and on its own page.
    struct QuickForm: Sendable {
        let groupID: String
        /// The idempotency key of this form: a double tap on Save stores one expense.
        let key: String
        /// The expense id the form's previews are worked out with and Save stores, so the
        /// shares saved are the ones shown (the leftover unit of an uneven split goes by the id).
        let id: String
        let text: String
        let preview: QuickPreviewBody?
        /// Why the line came back without being saved, when its problems do not say it.
        let note: String?
        /// The whole form, with the line typed so far as its description (found by review: the
        /// line was lost on the way).
        /// (Stored: the templates read stored properties only.)
        let fullFormLink: String
        /// On a page of its own, whose heading names it: no second heading in the card (found by
        /// review: "Add quickly" twice).
        var standalone = false
        /// Examples in the group's own names and currency (`QuickExamples`).
        let placeholder: String
        let hint: String
    }

    /// A line to show as an example and the hint's examples, said with the group's members and
    /// home currency (found by a new user: a flat in euros read "Taxi 45.50 MYR Bo Chen" and "Aki
    /// paid 1200 yen", names and money it had never seen). Names of one word only, so each
    /// example reads as it is meant; a group of fewer such names gets the generic ones.
    static func quickExamples(_ scope: GroupScope) -> (placeholder: String, hint: String) {
        var names = scope.members.filter { $0.active && $0.role != .viewer && !$0.name.contains(" ") }.map(\.name)
        if let me = scope.me, let mine = names.firstIndex(of: me.name) { names.append(names.remove(at: mine)) }
        let home = scope.group.homeCurrency
        let other = home == "USD" ? "EUR" : "USD"
        guard names.count >= 2 else {
            return (
                "Dinner 60 all",
                "What, how much, who paid and who shares: “Taxi 45 all”, “Museum 30 \(other) paid by me, all”."
            )
        }
        let (a, b) = (names[0], names[1])
        let c = names.count > 2 ? names[2] : nil
        let trio = [a, b, c].compactMap { $0 }
        return (
            "Dinner 60 paid by \(a), all",
            "What, how much, who paid and who shares: “Taxi 45 \(b) \(c ?? a)”, “Hotel 300 split "
                + (trio.count == 3 ? "2:1:1" : "2:1") + " \(trio.joined(separator: " "))”, "
                + "“Dinner 120 for everyone except \(c ?? b)”, "
                + "“\(a) paid 30 \(other) for tickets with \(b)”."
        )
    }

    /// What a line reads as: the expense, or what is missing.
    struct QuickPreviewBody: Sendable {
        struct Problem: Sendable {
            let code: String
            let message: String
        }
        struct Share: Sendable {
            let name: String
            /// "owes", or "gets back" for a refund's share (shown without its minus); "had a share
            /// of" ("had a part of") for what a payer covers themselves.
            let verb: String
            let amount: String
        }
        let hasProblems: Bool
        let problems: [Problem]
        let hasDraft: Bool
        let heading: String
        let paid: String
        let shares: [Share]
        let details: String
        let assumed: String?
        /// The preview's `fingerprint`, posted with Save: what is saved is what was shown.
        var fingerprint: String = ""
    }

    static func quickForm(
        scope: GroupScope, id: UUID = UUID.random(), text: String = "", preview: QuickPreviewBody? = nil,
        note: String? = nil
    ) -> QuickForm {
        let groupID = scope.group.id
        let examples = quickExamples(scope)
        return QuickForm(
            groupID: groupID, key: UUID.random().uuidString.lowercased(), id: id.text, text: text, preview: preview,
            note: note,
            fullFormLink: "/groups/\(groupID)/expenses/new" + (text.isEmpty ? "" : "?description=" + queryEscape(text)),
            placeholder: examples.placeholder, hint: examples.hint)
    }

    /// The form's expense id (`_id`), when it sent one that is an id.
    static func quickID(_ form: WebForm) -> UUID? {
        form["_id"].flatMap { UUID(uuidString: $0) }
    }

    /// The preview of a line, as the form's script asks for it while the user types.
    func quickPreviewFragment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let form = try WebRequest.get().form
        let body = try await quickPreview(form["text"] ?? "", id: Self.quickID(form), scope: scope)
        guard let html = templates.render(body, withTemplate: "quick-preview") else { throw APIError.internalError }
        return Self.html(html)
    }

    /// Check (the preview on a page of its own) or Save.
    func quickEntry(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let form = try WebRequest.get().form
        let text = form["text"] ?? ""
        var note: String?
        if form["intent"] == "save" {
            let key = form["_key"].flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
            let idempotency = key.map {
                IdempotencyRequest(
                    key: $0, requestHash: IdempotencyRequest.hash(Data("web quick \(groupID) \(text)".utf8)))
            }
            do {
                let result = try await api.quickEntryUseCases.read(
                    text, dryRun: false, id: Self.quickID(form), previewed: form.text("_fingerprint"),
                    groupID: try APIHandler.id(groupID, "group"),
                    caller: try caller(),
                    origin: try origin(), idempotency: idempotency,
                    render: { view in StoredResponse(status: 201, body: Data(view.expense.id.text.utf8)) })
                switch result {
                case .created(.created(let view)):
                    return Self.redirect("/expenses/\(view.expense.id.text)", done: "expense-saved")
                case .created(.replayed(let stored)):
                    return Self.redirect("/expenses/\(String(decoding: stored.body, as: UTF8.self))", done: "expense-saved")
                case .problems, .preview:
                    break  // shown below with what the line reads as now
                }
            } catch let error as AppError where error == QuickEntryUseCases.previewChanged {
                // Someone joined, left or the day turned since the preview: the page below shows
                // what the line comes to now (found by review: 5 shares shown, 6 saved).
                note = "Not saved: the line comes to something else than the preview showed (it was changed, or "
                    + "the group was). This is what it comes to now; press Save to save it."
            } catch AppError.invalidFields {
                // The line has problems: the page below says which.
            } catch AppError.idempotencyKeyReused {
                // This form was saved before with another line (the back button): the page below
                // comes with a new key, so Save there stores this one.
                note = "Not saved yet: this form had saved another line. Press Save to save this one."
            }
        }
        // A new form (key and id) with the preview it will save.
        let id = UUID.random()
        let preview = try await quickPreview(text, id: id, scope: scope)
        var body = Self.quickForm(scope: scope, id: id, text: text, preview: preview, note: note)
        body.standalone = true
        return try await render(
            "quick", title: "Add quickly · \(scope.group.name)", body: body, nav: scope.nav("overview", live: false),
            status: preview.hasProblems ? .unprocessableContent : .ok)
    }

    func quickPreview(_ text: String, id: UUID?, scope: GroupScope) async throws -> QuickPreviewBody {
        let empty = QuickPreviewBody(
            hasProblems: false, problems: [], hasDraft: false, heading: "", paid: "", shares: [], details: "", assumed: nil)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return empty }
        let result = try await api.quickEntryUseCases.read(
            text, dryRun: true, id: id, groupID: try APIHandler.id(scope.group.id, "group"), caller: try caller(),
            origin: try origin(), idempotency: nil, render: { _ in StoredResponse(status: 201, body: Data()) })
        switch result {
        case .problems(let problems):
            return QuickPreviewBody(
                hasProblems: true, problems: problems.map { .init(code: $0.code, message: $0.description) }, hasDraft: false,
                heading: "", paid: "", shares: [], details: "", assumed: nil)
        case .preview(let preview):
            let expense = preview.expense
            let money = { (amount: Int64) in WebFormat.money(MoneyInput.text(amount, expense.currency), expense.currency) }
            let payers = expense.payers.map { "\(scope.name($0.memberID.text)) \(money($0.amount))" }
            let said: [(QuickDraft.Assumption, String)] = [(.payer, "you paid"), (.currency, "in \(expense.currency)"), (.date, "today")]
            let assumed = said.filter { preview.draft.assumed.contains($0.0) }.map(\.1)
            // Shares in the group's member order, as the expense form lists them.
            let order = Dictionary(scope.members.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            let shares = expense.liveShares.sorted { (order[$0.memberID.text] ?? .max) < (order[$1.memberID.text] ?? .max) }
            return QuickPreviewBody(
                hasProblems: false, problems: [], hasDraft: true,
                heading: "\(expense.description) · \(money(expense.amount))",
                paid: (expense.amount < 0 ? "Received by " : "Paid by ") + payers.joined(separator: ", "),
                // A payer's own part is not owed to anyone (found by a new user: "Jonas owes
                // 36.00 EUR" of the payer himself); said as the expense's page says it.
                shares: shares.map {
                    let covered = expense.nothingToPay($0) && $0.amount != 0
                    return .init(
                        name: scope.name($0.memberID.text),
                        verb: $0.amount < 0 ? (covered ? "had a part of" : "gets back") : (covered ? "had a share of" : "owes"),
                        amount: money(abs($0.amount)))
                },
                details: [expense.expenseDate, preview.categoryNames[expense.categoryID]].compactMap { $0 }
                    .joined(separator: " · "),
                assumed: assumed.isEmpty ? nil : "Assumed: " + assumed.joined(separator: ", ") + ".",
                fingerprint: preview.fingerprint)
        case .created:
            return empty
        }
    }
}
