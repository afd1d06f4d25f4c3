import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Settle up: balances per member and currency (and in the home currency when rates allow),
/// the fewest transfers that settle each currency with "record this transfer", a form for any
/// other transfer, and the transfers recorded so far.
extension WebApp {
    struct BalancesBody: Sendable {
        struct Line: Sendable {
            let name: String
            let amount: String
            let owed: Bool
            let owes: Bool
        }
        /// One plan: a currency's own, or (first, `code` "home") everything in the home currency.
        struct Currency: Sendable {
            let code: String
            let lines: [Line]
            let transfers: [Transfer]
            let settled: Bool
            var title: String
            /// What the plan settles, for "Fewest transfers to settle …".
            var planOf: String
            /// For the home plan: the rates and charged amounts it used.
            var note: String? = nil
            var settledText = ""
        }
        struct Transfer: Sendable {
            let from: String
            let fromID: String
            let to: String
            let toID: String
            let amount: String
            let amountText: String
            let currency: String
            var canRecord: Bool
            let clientID: String
            /// I am the one to be paid: "Ask … for …" makes a payment request.
            var canAsk: Bool
            /// I am the one to pay: how the receiver likes to be paid.
            var payTo: [PayOptionView] = []
        }
        struct Recorded: Sendable {
            let id: String
            let text: String
            let date: String
            /// Not `note`: a nil here would make mustache read the form's `note` further out.
            let settlementNote: String?
            let deleted: Bool
            let canDelete: Bool
        }
        /// "Aki: paid 30,000 JPY · share 10,000 JPY".
        struct PersonLine: Sendable {
            let name: String
            let paid: String
            let share: String
        }
        /// A payment request still waiting: "1,000 JPY to Aki, from Ben", its page (to cancel it).
        struct OpenRequest: Sendable {
            let id: String
            let text: String
            let until: String
        }
        let groupID: String
        let currencies: [Currency]
        let home: [Line]
        /// Open and held payment requests (found by review: one asked could not be found again
        /// to cancel it).
        let openRequests: [OpenRequest]
        let hasOpenRequests: Bool
        let hasHome: Bool
        /// What the home view converted with: charged amounts, rates.
        let homeBasis: String
        let homeCurrency: String
        let missingRates: String?
        /// Whether the caller may set rates (an owner or admin): the missing-rate notice links there.
        let canSetRates: Bool
        let settlements: [Recorded]
        /// Who paid what since the group began, most paid first (in the home currency).
        let people: [PersonLine]
        let hasPeople: Bool
        /// "In November 2026", "Since the group began".
        let peoplePeriod: String
        /// The month shown (`2026-11`), empty for all time.
        let peopleMonth: String
        /// What everyone paid, which is what everyone's shares came to.
        let peopleTotal: String?
        let peopleEmpty: String?
        /// A month asked for that could not be read.
        let monthError: String?
        /// Currencies left out of `people` for want of a rate.
        let peopleUncounted: String?
        let members: [ExpenseFormBody.Option]
        let recipients: [ExpenseFormBody.Option]
        /// For a member who may record only their own transfers: "You paid Ben", "Ben paid you"
        /// (field `pair`, "from:to"), instead of From and To, which offered pairs they could
        /// only be refused (found by a new user).
        let pairs: [ExpenseFormBody.Option]
        let ownOnly: Bool
        let currencyOptions: [ExpenseFormBody.Option]
        let canRecord: Bool
        let clientID: String
        let errors: [String: String]
        let amount: String
        let note: String
    }

    func balancesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        // "Who paid what" in one month (`?month=2026-11#who-paid`), or since the group began.
        let month = request.uri.queryParameters["month"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        return try await balancesPage(try context.parameters.require("groupId"), form: nil, errors: [:], month: month)
    }

    private func balancesPage(
        _ groupID: String, form: WebForm?, errors: [String: String], month: String? = nil
    ) async throws -> Response {
        let scope = try await scope(groupID)
        let groupUUID = try APIHandler.id(groupID, "group")
        let view = try await ledger.balances(groupID: groupUUID, caller: try caller())
        let balances = Components.Schemas.BalancesResponse(view)
        let myID = scope.group.myMemberId
        func lines(_ rows: [Components.Schemas.Balance]) -> [BalancesBody.Line] {
            rows.filter { !WebFormat.isZero($0.net) }.sorted { scope.label($0.memberId) < scope.label($1.memberId) }.map {
                let amount = WebFormat.money(WebFormat.magnitude($0.net), $0.currency)
                let owes = $0.net.hasPrefix("-")
                return .init(
                    name: scope.label($0.memberId), amount: owes ? "owes \(amount)" : "is owed \(amount)",
                    owed: !owes, owes: owes)
            }
        }
        let settlements = try await ledger.settlements(groupID: groupUUID, includeDeleted: false, caller: try caller())
            .map(Components.Schemas.Settlement.init)
        let openRequests = try await paymentRequests.list(groupID: groupUUID, caller: try caller())
            .filter { $0.state == "open" || $0.state == "locked" }
            .map { view in
                BalancesBody.OpenRequest(
                    id: view.request.id.text,
                    text: "\(WebFormat.money(MoneyInput.text(view.request.amount, view.request.currency), view.request.currency)) to \(view.payeeName), "
                        + (view.payerName.map { "from \($0)" } ?? "from anyone in the group")
                        + (view.state == "locked" ? " (being paid now)" : ""),
                    until: ZonedTime.dateTime(Date(milliseconds: view.request.expiresAt), in: scope.group.timeZone))
            }
        var currencies: [BalancesBody.Currency] = []
        // A currency stays on the page once settled, so "settled up" is said rather than implied.
        let owing = Set(balances.balances.map(\.memberId))
        let parties = scope.members.filter { $0.active || owing.contains($0.id) }
        func transfers(_ planned: [PlannedTransfer], _ currency: SplitCore.Currency) -> [BalancesBody.Transfer] {
            planned.map { Components.Schemas.PlannedTransfer($0, currency: currency) }.map { transfer in
                .init(
                    from: scope.label(transfer.fromMemberId), fromID: transfer.fromMemberId,
                    to: scope.label(transfer.toMemberId), toID: transfer.toMemberId, amount: transfer.amount,
                    amountText: WebFormat.money(transfer.amount, transfer.currency), currency: transfer.currency,
                    canRecord: scope.may(
                        .recordSettlement(isParty: transfer.fromMemberId == myID || transfer.toMemberId == myID)),
                    clientID: UUID.random().uuidString,
                    // Not of a viewer, who could never pay it (found by review).
                    canAsk: transfer.toMemberId == myID && scope.may(.recordSettlement(isParty: true))
                        && scope.members.contains { $0.id == transfer.fromMemberId && $0.active && $0.role != .viewer })
            }
        }
        /// My transfers to pay, each with how its receiver likes to be paid.
        func withPayOptions(_ list: [BalancesBody.Transfer]) async throws -> [BalancesBody.Transfer] {
            var result: [BalancesBody.Transfer] = []
            for var transfer in list {
                if transfer.fromID == myID, let to = UUID(uuidString: transfer.toID),
                    let minor = try? MoneyInput.amount(transfer.amount, Currency(code: transfer.currency), field: "amount")
                {
                    transfer.payTo = try await payOptions(
                        of: to, in: groupUUID, amount: minor, currency: transfer.currency, reference: "Settle up")
                }
                result.append(transfer)
            }
            return result
        }
        let used = Set(balances.balances.map(\.currency) + settlements.map(\.currency)).sorted()
        /// Whether the plan in the home currency is shown, and settled.
        var homeSettled: Bool?
        // Balances in several currencies and a rate for each: settling everything in the home
        // currency comes first (issue 15: fewer transfers); each currency's own plan stays below as
        // an option. The one rule (`homePlanFirst`) that "Where you stand", the overview, the
        // assistant and a payment's note follow too.
        if view.homePlanFirst, let plan = try? await ledger.homePlan(groupID: groupUUID, caller: try caller())
        {
            let home = balances.homeCurrency
            let rates = plan.rates.map { "1 \($0.from) = \($0.rate) \($0.to) (\($0.date))" }
            let charged =
                plan.chargedCount == 0
                ? nil
                : "\(plan.chargedCount == 1 ? "one expense" : "\(plan.chargedCount) expenses") at what was charged in \(home)"
            currencies.append(
                .init(
                    code: "home", lines: lines(balances.home ?? []),
                    transfers: try await withPayOptions(transfers(plan.transfers, plan.currency)),
                    settled: plan.transfers.isEmpty, title: "Everything in \(home)", planOf: "everything in \(home)",
                    // Found by review: with the other currencies settled on their own, it said
                    // "Converted with ."
                    note: ([charged].compactMap { $0 } + rates).isEmpty
                        ? "Nothing needed converting: the other currencies are settled on their own."
                        : "Converted with " + ([charged].compactMap { $0 } + rates).joined(separator: "; ") + ".",
                    settledText: "Everyone is settled up."))
            homeSettled = plan.transfers.isEmpty
        }
        var saidOr = false
        for code in used {
            let rows = balances.balances.filter { $0.currency == code }
            let (planCurrency, planned) = try await ledger.plan(
                groupID: groupUUID, currency: code, caller: try caller())
            var offered = try await withPayOptions(transfers(planned, planCurrency))
            var note: String?
            // The two ways to settle are one or the other: once everything is settled in the home
            // currency, what a currency still shows is offset by another, and paying it would pay
            // twice (found by review: "Ask Ben for 10,034 JPY" after he had settled in JPY).
            if homeSettled == true, !planned.isEmpty {
                offered = offered.map { transfer in
                    var transfer = transfer
                    transfer.canRecord = false
                    transfer.canAsk = false
                    transfer.payTo = []
                    return transfer
                }
                note = "Settled in \(balances.homeCurrency) above: what \(code) still shows is offset in another currency, so nothing is left to pay."
            } else if homeSettled == false, !planned.isEmpty, !saidOr {
                // Once, above the first currency's plan (found by a new user: the same sentence
                // under every currency).
                saidOr = true
                note = "Or, instead of the plan in \(balances.homeCurrency) above, settle each currency on its own: all of them, not some."
            }
            currencies.append(
                .init(
                    code: code, lines: lines(rows), transfers: offered,
                    settled: planned.isEmpty, title: code, planOf: code, note: note,
                    settledText: "Everyone is settled up in \(code)."))
        }
        // What each paid and what their shares came to: why Settle up says what it says. A month
        // that cannot be read is said on the card, which then shows all time.
        var monthError: String?
        var spending: PeopleSpending
        do {
            spending = try await budgetUseCases.people(groupID: groupUUID, caller: try caller(), month: month)
        } catch AppError.invalid(_, let message) {
            monthError = message
            spending = try await budgetUseCases.people(groupID: groupUUID, caller: try caller())
        }
        func homeMoney(_ amount: Int64) -> String {
            WebFormat.money(MoneyInput.text(amount, spending.currency), spending.currency)
        }
        let people = spending.people.sorted { ($0.paid, $1.member) > ($1.paid, $0.member) }.map {
            BalancesBody.PersonLine(
                name: scope.label($0.member.uuid.text), paid: homeMoney($0.paid), share: homeMoney($0.share))
        }
        let period = spending.period.map { WebFormat.monthName($0.start) }
        // Real currencies only: the home plan's card is "home" (found by a new user: a choice
        // called "home", refused as no ISO 4217 code).
        let currencyCodes = Set(currencies.map(\.code).filter { $0 != "home" } + [scope.group.homeCurrency]).sorted()
        // The home currency where something is open in it or everything is counted in it; else the
        // first currency with money open (found by a new user: a group whose money was all in
        // yen offered its home euros first).
        let home = scope.group.homeCurrency
        let open = Set(balances.balances.filter { !WebFormat.isZero($0.net) }.map(\.currency))
        let selectedCurrency = form?["currency"] ?? (open.contains(home) || homeSettled != nil ? home : open.sorted().first ?? home)
        let body = BalancesBody(
            groupID: groupID, currencies: currencies, home: lines(balances.home ?? []), openRequests: openRequests,
            hasOpenRequests: !openRequests.isEmpty,
            // Balances in another currency than the home one, not offered first in the home one
            // (one currency, or no plan in it): what they come to in the home currency.
            hasHome: balances.home != nil && !view.homePlanFirst
                && balances.balances.contains { $0.currency != balances.homeCurrency },
            homeBasis: (balances.homeChargedExpenses ?? 0) == 0
                ? "Converted at the group's latest rates."
                : "\((balances.homeChargedExpenses ?? 0) == 1 ? "One expense counts" : "\((balances.homeChargedExpenses ?? 0)) expenses count") at what was charged in \(balances.homeCurrency); everything else at the group's latest rates.",
            homeCurrency: balances.homeCurrency,
            missingRates: balances.missingRates.isEmpty ? nil : balances.missingRates.joined(separator: ", "),
            canSetRates: scope.may(.updateGroup),
            settlements: settlements.map { settlement in
                .init(
                    id: settlement.id,
                    text:
                        "\(scope.name(settlement.fromMemberId)) paid \(scope.name(settlement.toMemberId)) \(WebFormat.money(settlement.amount, settlement.currency))",
                    date: settlement.date, settlementNote: settlement.note.isEmpty ? nil : settlement.note,
                    deleted: settlement.isDeleted,
                    canDelete: scope.mayDelete(settlement)
                )
            },
            // From me, to the first one else: the usual case needs no change. Removed members
            // with money still to settle can pay and be paid (issue 15), marked.
            people: people, hasPeople: !people.isEmpty || month != nil,
            peoplePeriod: period.map { "In \($0)" } ?? "Since the group began",
            peopleMonth: spending.period.map { String($0.start.description.prefix(7)) } ?? "",
            peopleTotal: people.isEmpty ? nil : homeMoney(spending.total),
            // Said only when nothing was spent at all: what could not be converted is said below
            // (found by a new user: "Nothing was spent", then "Not counted: USD").
            peopleEmpty: people.isEmpty && spending.uncountedCurrencies.isEmpty
                ? "Nothing was spent in \(period ?? "the group")." : nil,
            monthError: monthError,
            peopleUncounted: spending.uncountedCurrencies.isEmpty ? nil : spending.uncountedCurrencies.joined(separator: ", "),
            members: parties.map {
                .init(value: $0.id, label: $0.label, selected: $0.id == (form?["fromMemberId"] ?? myID))
            },
            recipients: parties.map {
                .init(
                    value: $0.id, label: $0.label,
                    selected: $0.id == (form?["toMemberId"] ?? scope.activeMembers.first { $0.id != myID }?.id))
            },
            pairs: {
                let others = parties.filter { $0.id != myID }
                let chosen =
                    form?["pair"] ?? form.flatMap { form in
                        form["fromMemberId"].flatMap { from in form["toMemberId"].map { "\(from):\($0)" } }
                    } ?? others.first.map { "\(myID):\($0.id)" }
                let pairs =
                    others.map { ("\(myID):\($0.id)", "You paid \($0.label)") }
                    + others.map { ("\($0.id):\(myID)", "\($0.label) paid you") }
                return pairs.map { .init(value: $0.0, label: $0.1, selected: $0.0 == chosen) }
            }(),
            ownOnly: !scope.may(.recordSettlement(isParty: false)),
            currencyOptions: currencyCodes.map { .init(value: $0, label: $0, selected: $0 == selectedCurrency) },
            // Alone in the group there is nobody to pay (no "Aki → Aki").
            canRecord: scope.may(.recordSettlement(isParty: true)) && parties.count > 1, clientID: UUID.random().uuidString, errors: errors,
            amount: form?["amount"] ?? "", note: form?["note"] ?? "")
        return try await render(
            "balances", title: "Settle up · \(scope.group.name)", body: body, nav: scope.nav("balances"),
            errors: errors)
    }

    /// Records a transfer: from the plan's button or the form. The form's id makes a double
    /// click one transfer.
    func recordSettlement(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let form = try WebRequest.get().form
        do {
            // The form's id is also the idempotency key: a double click records one transfer.
            let id = form.text("_id").flatMap(UUID.init(uuidString:))
            let groupUUID = try APIHandler.id(groupID, "group")
            // "You paid Ben" (`pair`, "from:to") or From and To.
            let pair = form["pair"]?.split(separator: ":", maxSplits: 1).map(String.init)
            let wire = Components.Schemas.CreateSettlementRequest(
                id: id?.uuidString, fromMemberId: pair?.first ?? form["fromMemberId"] ?? "",
                toMemberId: pair.flatMap { $0.count == 2 ? $0[1] : "" } ?? form["toMemberId"] ?? "",
                amount: (form.text("amount") ?? "").typedAmount(in: form["currency"] ?? ""),
                currency: form["currency"] ?? "", note: form.text("note"))
            _ = try await ledger.recordSettlement(
                EnteredSettlement(wire: wire), groupID: groupUUID, caller: try caller(), origin: try origin(),
                idempotency: try id.map {
                    IdempotencyRequest(
                        key: "web-\($0.uuidString.lowercased())",
                        requestHash: try APIHandler.requestHash(
                            route: "POST /api/groups/\(groupUUID.text)/settlements", body: wire))
                },
                render: { stored in
                    StoredResponse(
                        status: 201,
                        body: try WireJSON.encode(Components.Schemas.SettlementResponse(settlement: .init(stored))))
                })
            return Self.redirect("/groups/\(groupID)/balances", done: "transfer")
        } catch {
            return try await balancesPage(
                groupID, form: form,
                errors: try Self.formErrors(error, shown: ["fromMemberId", "toMemberId", "amount", "currency", "note"]).reduce(into: [:]) {
                    // The pair's menu stands for both.
                    $0[form["pair"] != nil && ["fromMemberId", "toMemberId"].contains($1.key) ? "pair" : $1.key] = $1.value
                })
        }
    }

    /// A page that asks before a destructive form is sent: what, why it matters, yes and no.
    struct ConfirmBody: Sendable {
        let heading: String
        let subject: String
        /// Kept on one line after the subject ("on 2026-12-06").
        let when: String?
        let message: String
        let action: String
        let yes: String
        let no: String
        let cancelURL: String
        /// Sent with the yes, for an action that is a form of its own page (a settings card's).
        var fields: [Field] = []

        struct Field: Sendable {
            let name: String
            let value: String
        }
    }

    /// "Delete this transfer?" before it is (found by a new user: one tap deleted it, and a
    /// transfer cannot be restored as an expense can).
    func confirmDeleteSettlement(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let id = try APIHandler.id(try context.parameters.require("settlementId"), "settlement")
        let scope = try await scope(groupID)
        let all = try await ledger.settlements(
            groupID: try APIHandler.id(groupID, "group"), includeDeleted: false, caller: try caller())
        guard let settlement = all.first(where: { $0.id == id }) else {
            return Self.redirect("/groups/\(groupID)/balances")
        }
        let wire = Components.Schemas.Settlement(settlement)
        // Asked only of someone who may delete it; else why not, before any button (found by
        // review: a viewer was asked, then refused).
        let myID = scope.group.myMemberId
        if wire.expenseSplitId != nil {
            return Self.redirect("/groups/\(groupID)/balances", done: "transfer-of-a-share")
        }
        guard scope.mayDelete(wire) else {
            if scope.may(.recordSettlement(isParty: wire.fromMemberId == myID || wire.toMemberId == myID)) {
                throw AppError.forbiddenBecause("Only who recorded a transfer, the owner or an admin can delete it.")
            }
            throw APIError.forbidden()
        }
        let body = ConfirmBody(
            heading: "Delete this transfer?",
            subject: "\(scope.name(wire.fromMemberId)) paid \(scope.name(wire.toMemberId)) "
                + WebFormat.money(wire.amount, wire.currency),
            when: "on \(wire.date)",
            message: "The balances will show it as still owed, and it cannot be brought back: if the money did move, "
                + "it has to be recorded again.",
            action: "/groups/\(groupID)/settlements/\(id.text)/delete", yes: "Delete the transfer", no: "Keep it",
            cancelURL: "/groups/\(groupID)/balances")
        return try await render(
            "confirm", title: "Delete a transfer · \(scope.group.name)", body: body, nav: scope.nav("balances"))
    }

    func deleteSettlement(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let id = try context.parameters.require("settlementId")
        _ = try await ledger.deleteSettlement(
            try APIHandler.id(id, "settlement"), caller: try caller(), origin: try origin())
        return Self.redirect("/groups/\(groupID)/balances", done: "transfer-deleted")
    }
}
