import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Payment requests on the web (issue 19): "Ask … for …" on the plan makes one and shows its
/// code, QR and link (the page follows the group's live stream, so it says "paid" when it is);
/// `/pay/CODE` shows anyone who asks for how much, and lets a member of the group hold it and
/// confirm the payment, once.
extension WebApp {
    var paymentRequests: PaymentRequestUseCases { api.paymentRequestUseCases }

    /// One way to pay, as a page shows it: words, a link, and a QR code where there is a payload.
    struct PayOptionView: Sendable {
        let label: String
        let detail: String
        let link: String?
        let qrSvg: String?
    }

    /// How `memberID` likes to be paid `amount`, for a member of their group.
    func payOptions(of memberID: UUID, in groupID: UUID, amount: Int64, currency: String, reference: String) async throws
        -> [PayOptionView]
    {
        let methods = try await api.payDetailsUseCases.methods(ofMember: memberID, in: groupID)
        var views: [PayOptionView] = []
        for option in PayDetails.options(methods, amount: amount, currency: try? Currency(code: currency), reference: reference) {
            var svg: String?
            if let payload = option.qrPayload { svg = await QRCode.svg(payload).map(Self.inlineSVG) }
            views.append(PayOptionView(label: option.label, detail: option.detail, link: option.link, qrSvg: svg))
        }
        return views
    }

    struct RequestBody: Sendable {
        let groupID: String
        let id: String
        let code: String
        let link: String
        let qrSvg: String?
        let amount: String
        let payee: String
        let payer: String?
        let note: String?
        let state: String
        let stateText: String
        let until: String
        let isOpen: Bool
        let canCancel: Bool
        /// The payee looks at it to share it; anyone else is told whom it asks (found by review:
        /// Ben read "send the link to Ben").
        let isPayee: Bool
        /// The one it asks is spoken to ("Aki asks you for it"; it said "Aki asks Bo for it" to Bo).
        let isPayer: Bool
    }

    /// From the plan's "Ask … for …" button (or any form with amount, currency, toMemberId). The
    /// form's `_id` is the idempotency key: a double click makes one request, and the second
    /// click is taken to the first's page.
    func createPaymentRequest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let form = try WebRequest.get().form
        // The plan's Ask offers 15 minutes to 7 days; without the field, the API's default.
        let lifetime = form["expiresInSeconds"].flatMap { $0.isEmpty ? nil : $0 }
        let seconds = try lifetime.map { text in
            guard let seconds = Int(text) else {
                throw AppError.invalid(field: "expiresInSeconds", message: "How long the link works is a number of seconds.")
            }
            return seconds
        }
        let entered = EnteredPaymentRequest(
            amount: form["amount"] ?? "", currency: form["currency"] ?? "",
            toMemberId: form["toMemberId"].flatMap { $0.isEmpty ? nil : $0 }, expiresInSeconds: seconds,
            note: form["note"].flatMap { $0.isEmpty ? nil : $0 })
        let key = form.text("_id").flatMap(UUID.init(uuidString:)).map { id in
            IdempotencyRequest(
                key: "web-request-\(id.uuidString.lowercased())",
                requestHash: IdempotencyRequest.hash(Data("web request \(groupID) \(entered)".utf8)))
        }
        let outcome = try await paymentRequests.create(
            entered, groupID: try APIHandler.id(groupID, "group"), caller: try caller(), origin: try origin(),
            idempotency: key, render: { view in StoredResponse(status: 303, body: Data(view.request.id.text.utf8)) })
        let id: String
        switch outcome {
        case .created(let view, _): id = view.request.id.text
        case .replayed(let stored): id = String(decoding: stored.body, as: UTF8.self)
        case .keyReused: throw AppError.idempotencyKeyReused
        }
        return Self.redirect("/groups/\(groupID)/requests/\(id)")
    }

    func paymentRequestPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let id = try context.parameters.require("requestId")
        let scope = try await scope(groupID)
        let views = try await paymentRequests.list(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        guard let view = views.first(where: { $0.request.id.text == id.lowercased() }) else {
            throw AppError.notFound("payment request")
        }
        let wire = try api.baseWire(view)
        let link = wire.link.hasPrefix("/") ? Self.origin(of: request) + wire.link : wire.link
        let qrSvg = (view.state == "open" || view.state == "locked") ? await QRCode.svg(link).map(Self.inlineSVG) : nil
        let body = RequestBody(
            groupID: groupID, id: id, code: wire.code, link: link, qrSvg: qrSvg,
            amount: WebFormat.money(wire.amount, wire.currency), payee: view.payeeName, payer: view.payerName,
            note: view.request.note.isEmpty ? nil : view.request.note, state: view.state,
            stateText: Self.stateText(view, scope: scope),
            until: ZonedTime.dateTime(wire.expiresAt, in: scope.group.timeZone),
            isOpen: view.state == "open" || view.state == "locked",
            // While a payer holds it they may be paying right now: it is cancelled only when open.
            canCancel: view.state == "open"
                && (view.request.payeeMemberID.text == scope.group.myMemberId || scope.may(.updateGroup)),
            isPayee: view.request.payeeMemberID.text == scope.group.myMemberId,
            isPayer: view.request.payerMemberID?.text == scope.group.myMemberId)
        return try await render(
            "request", title: "Payment request · \(scope.group.name)", body: body, nav: scope.nav("balances"))
    }

    func cancelPaymentRequest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let id = try APIHandler.id(try context.parameters.require("requestId"), "payment request")
        _ = try await paymentRequests.cancel(id, caller: try caller(), origin: try origin())
        return Self.redirect("/groups/\(groupID)/requests/\(id.text)", done: "request-cancelled")
    }

    static func stateText(_ view: PaymentRequestView, scope: GroupScope) -> String {
        switch view.state {
        case "paid": "Paid — the transfer is recorded."
        case "locked": "Someone is paying it now."
        case "cancelled": "Cancelled."
        case "expired": "Expired: nobody paid it in time."
        default:
            view.request.payerMemberID?.text == scope.group.myMemberId
                ? "Waiting for you to pay." : view.payerName.map { "Waiting for \($0) to pay." } ?? "Waiting for someone to pay."
        }
    }

    /// qrencode's SVG without its XML prolog and comment, to sit inside the page.
    static func inlineSVG(_ svg: String) -> String {
        guard let start = svg.range(of: "<svg") else { return "" }
        // The page's CSP allows no inline style: the one style attribute becomes an attribute.
        return String(svg[start.lowerBound...])
            .replacingOccurrences(of: "<svg ", with: "<svg role=\"img\" aria-label=\"QR code of the link\" ")
            .replacingOccurrences(of: "style=\"stroke:#000000\"", with: "stroke=\"#000000\"")
    }

    /// The server's own address as the browser reached it, for links when PUBLIC_URL is not set.
    static func origin(of request: Request) -> String {
        // Only what a host and a scheme can be: a crafted header makes a path-only link, never
        // a `javascript:` one. (Set PUBLIC_URL behind a proxy for the address people use.)
        guard let host = request.head.authority,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return "" }
        let forwarded = request.headers[values: .init("X-Forwarded-Proto")!].first?.lowercased()
        let scheme = forwarded == "https" || request.head.scheme == "https" ? "https" : "http"
        return "\(scheme)://\(host)"
    }

    // MARK: Paying a code

    struct PayBody: Sendable {
        let code: String
        let found: Bool
        let payee: String
        let amount: String
        let groupName: String
        let until: String
        let state: String
        let signedIn: Bool
        let loginLink: String
        let registerLink: String
        let holding: Bool
        let holdUntil: String
        /// How the payee likes to be paid, once the caller holds the request.
        let payTo: [PayOptionView]
        let paid: Bool
        /// The caller's own request: shown for sharing, with no Pay button that could only fail.
        var yours = false
        /// Why the caller cannot pay it (`ResolvedPaymentRequest.cannotPay`): said, and no Pay button.
        var cannotPay: String? = nil
        let key: String
        let message: String?
        /// Once held: what Settle up says the caller pays the payee, so an old request for a
        /// debt already settled is not paid a second time without a word.
        var planNote: String? = nil
        /// What the payee wrote with it, for a member of the group.
        var note: String? = nil
        /// It asks the caller by name ("Mira asks you for …").
        var asksYou = false
    }

    func payPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        return try await renderPay(code.removingPercentEncoding ?? code, holding: false, message: nil)
    }

    /// "Pay by code": a box to type a code read off someone's screen (found by a new user: the
    /// request page said "show this code", and no page took one). `?code=` goes to its page.
    func payByCodePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let typed = request.uri.queryParameters["code"].map(String.init)?.replacingOccurrences(of: "+", with: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines), !typed.isEmpty
        {
            guard let code = PaymentCode.normalized(typed) else {
                return try await renderPay(typed, holding: false, message: nil)
            }
            return Self.redirect("/pay/\(code)")
        }
        var signedIn = false
        if case .signedIn? = RequestInfo.current?.caller { signedIn = true }
        let body = PayBody(
            code: "", found: false, payee: "", amount: "", groupName: "", until: "", state: "", signedIn: signedIn,
            loginLink: "", registerLink: "", holding: false, holdUntil: "", payTo: [], paid: false, key: "", message: nil)
        return try await render("pay", title: "Pay by code", body: body, signedIn: signedIn)
    }

    /// Holds the request for the signed-in member (2 minutes), then asks them to confirm.
    func lockPayCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        do {
            let held = try await paymentRequests.lock(code, caller: try caller(), origin: try origin())
            let options = try await payOptions(
                of: held.request.payeeMemberID, in: held.request.groupID, amount: held.request.amount,
                currency: held.request.currency, reference: "Payment request \(PaymentCodeText.display(held.request.code))")
            return try await renderPay(
                code, holding: true, message: nil, payTo: options, planNote: try await api.settleUpNote(held, caller: try caller()))
        } catch let refusal as AppError {
            return try await renderPay(code, holding: false, message: APIError(refusal).message, status: APIError(refusal).status)
        }
    }

    func payCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        let form = try WebRequest.get().form
        do {
            // The form's key: a double click or a reload pays once.
            let key = form["_key"] ?? UUID.random().uuidString
            _ = try await paymentRequests.pay(
                code, caller: try caller(), origin: try origin(),
                idempotency: IdempotencyRequest(key: key, requestHash: IdempotencyRequest.hash(Data("web pay \(code)".utf8)))
            ) { _ in StoredResponse(status: 201, body: Data()) }
            return Self.redirect("/pay/\(code)", done: "paid")
        } catch let refusal as AppError {
            return try await renderPay(code, holding: false, message: APIError(refusal).message, status: APIError(refusal).status)
        }
    }

    private func renderPay(
        _ code: String, holding: Bool, message: String?, status: HTTPResponse.Status? = nil, payTo: [PayOptionView] = [],
        planNote: String? = nil
    ) async throws -> Response {
        var caller: Caller?
        if case .signedIn(let signedIn)? = RequestInfo.current?.caller { caller = signedIn }
        let next = Self.queryEscape("/pay/\(code)")
        do {
            let resolved = try await paymentRequests.resolve(code, caller: caller, origin: try origin())
            // Held by this member already (the page reloaded, or opened again from the bank
            // app): the hold's page, with its "I paid" button and where to pay.
            let holding = holding || resolved.heldByCaller
            var payTo = payTo
            if holding, payTo.isEmpty, let payable = resolved.payable {
                payTo = try await payOptions(
                    of: payable.payee, in: payable.groupID, amount: resolved.amount, currency: resolved.currency,
                    reference: "Payment request \(resolved.code)")
            }
            // What Settle up says, before the member holds it too.
            var planNote = planNote
            if planNote == nil, let payable = resolved.payable, let caller {
                planNote = try await api.settleUpNote(
                    groupID: payable.groupID, from: payable.payer, to: payable.payee, payeeName: resolved.payeeName,
                    amount: resolved.amount, currency: resolved.currency, caller: caller)
            }
            // The group's clock, as on the request's own page (found by review: this said GMT).
            let zone = resolved.timeZone
            let body = PayBody(
                code: resolved.code, found: true, payee: resolved.payeeName,
                amount: WebFormat.money(MoneyInput.text(resolved.amount, resolved.currency), resolved.currency),
                groupName: resolved.groupName,
                until: ZonedTime.dateTime(Date(milliseconds: resolved.expiresAt), in: zone), state: resolved.state,
                signedIn: caller != nil, loginLink: "/login?next=\(next)", registerLink: "/register?next=\(next)",
                holding: holding && resolved.state == "locked",
                holdUntil: resolved.lockedUntil.map { ZonedTime.dateTime(Date(milliseconds: $0), in: zone) } ?? "",
                payTo: payTo, paid: resolved.state == "paid", yours: resolved.isCallers,
                cannotPay: resolved.cannotPay, key: UUID.random().uuidString, message: message, planNote: planNote,
                note: resolved.note, asksYou: resolved.asksCaller)
            return try await render(
                "pay", title: "Pay \(resolved.payeeName)", body: body, signedIn: caller != nil, status: status)
        } catch let refusal as AppError {
            let error = APIError(refusal)
            guard error.status == .notFound || error.status == .tooManyRequests || error.status == .unprocessableContent
            else { throw refusal }
            let body = PayBody(
                code: code, found: false, payee: "", amount: "", groupName: "", until: "", state: "", signedIn: caller != nil,
                loginLink: "", registerLink: "", holding: false, holdUntil: "", payTo: [], paid: false, key: "",
                message: {
                    if case .notFoundBecause(let why) = refusal { return why }  // a member is told why
                    return error.status == .tooManyRequests
                        ? error.message : "No request has this code: it may have expired or been cancelled. Ask for a new one."
                }())
            return try await render("pay", title: "Pay", body: body, signedIn: caller != nil, status: error.status)
        }
    }
}

extension WebApp {
    struct MeBody: Sendable {
        struct Total: Sendable {
            let currency: String
            /// Nil when it is zero: "you owe 0 JPY" says nothing.
            let owed: String?
            let owe: String?
        }
        struct Line: Sendable {
            let id: String
            let name: String
            let text: String
            let owed: Bool
            /// Where: the group's name, or "3 groups" for someone with an account met in several
            /// (found by review: two name-only "Ben"s of two trips read as one person twice).
            let groups: String
            /// A group I left with a balance: named, not linked (it is no longer mine to open).
            var left = false
        }
        struct Transfer: Sendable {
            let text: String
            let date: String
            let group: String
        }
        let totals: [Total]
        let people: [Line]
        let hasPeople: Bool
        let groups: [Line]
        let hasGroups: Bool
        let transfers: [Transfer]
        let hasTransfers: Bool
    }

    /// "Where you stand": the account's position across its groups (issue 19).
    func mePage(_ request: Request) async throws -> Response {
        let summary = try await api.summaryUseCases.summary(caller: try caller())
        func money(_ minor: Int64, _ currency: String) -> String {
            WebFormat.money(MoneyInput.text(abs(minor), currency), currency)
        }
        func said(_ net: Int64, _ currency: String, owesMe: String, iOwe: String) -> String {
            net > 0 ? "\(owesMe) \(money(net, currency))" : "\(iOwe) \(money(net, currency))"
        }
        let groupNames = Dictionary(summary.groups.map { ($0.groupID, $0.groupName) }, uniquingKeysWith: { first, _ in first })
        let people = summary.people.map {
            MeBody.Line(
                id: $0.userID?.text ?? "", name: $0.name, text: said($0.net, $0.currency, owesMe: "owes you", iOwe: "you owe"),
                owed: $0.net > 0,
                groups: $0.groupIDs.count == 1 ? $0.groupIDs.first.flatMap { groupNames[$0] } ?? "1 group" : "\($0.groupIDs.count) groups")
        }
        let groups = summary.groups.map {
            MeBody.Line(
                id: $0.groupID.text, name: $0.groupName,
                text: said($0.net, $0.currency, owesMe: "you are owed", iOwe: "you owe"), owed: $0.net > 0, groups: "",
                left: $0.left)
        }
        let transfers = summary.transfers.map {
            MeBody.Transfer(
                text: "\($0.fromName) paid \($0.toName) \(money($0.amount, $0.currency))", date: $0.date, group: $0.groupName)
        }
        let body = MeBody(
            totals: summary.totals.map {
                .init(
                    currency: $0.currency, owed: $0.owed == 0 ? nil : money($0.owed, $0.currency),
                    owe: $0.owe == 0 ? nil : money($0.owe, $0.currency))
            },
            people: people, hasPeople: !people.isEmpty, groups: groups, hasGroups: !groups.isEmpty, transfers: transfers,
            hasTransfers: !transfers.isEmpty)
        return try await render("me", title: "Where you stand", body: body)
    }
}
