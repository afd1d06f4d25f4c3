import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache
import NIOCore
import SplitApp

/// The web app (DESIGN §8): server-rendered pages on the same server. Pages call the same SplitApp
/// use cases as `/api`, with the caller `WebMiddleware` resolved once — the same permissions,
/// validation, idempotency and audit — so the web adds presentation and nothing that could
/// disagree. (The log-in and account pages still call the account operations of `APIHandler`.)
struct WebApp: Sendable {
    let api: APIHandler
    let callers: CallerResolver
    let templates: MustacheLibrary
    let assets: [String: Asset]
    let addresses: ClientAddressResolver
    let maxBodyBytes: Int

    struct Asset: Sendable {
        let contentType: String
        let bytes: ByteBuffer
    }

    /// Loads the templates and static files shipped in the module's bundle; a template that
    /// does not parse stops start-up rather than a page later.
    static func load(
        api: APIHandler, callers: CallerResolver, addresses: ClientAddressResolver, maxBodyBytes: Int
    ) async throws -> WebApp {
        guard let templatesURL = Bundle.module.url(forResource: "Templates", withExtension: nil),
            let staticURL = Bundle.module.url(forResource: "Static", withExtension: nil)
        else { throw CocoaError(.fileNoSuchFile) }
        let templates = try await MustacheLibrary(directory: templatesURL.path)
        var assets: [String: Asset] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: staticURL.path) {
            let type: String
            switch (name as NSString).pathExtension {
            case "css": type = "text/css; charset=utf-8"
            case "js": type = "text/javascript; charset=utf-8"
            case "svg": type = "image/svg+xml"
            default: continue
            }
            let data = try Data(contentsOf: staticURL.appendingPathComponent(name))
            assets[name] = Asset(contentType: type, bytes: ByteBuffer(bytes: data))
        }
        return WebApp(
            api: api, callers: callers, templates: templates, assets: assets, addresses: addresses,
            maxBodyBytes: maxBodyBytes)
    }

    /// The expense use cases the pages call directly, with the caller resolved once by `WebMiddleware`.
    var expenses: ExpenseUseCases { api.expenseUseCases }
    var ledger: LedgerUseCases { api.ledgerUseCases }
    var categoryUseCases: CategoryUseCases { api.categoryUseCases }
    var groupUseCases: GroupUseCases { api.groupUseCases }
    var memberUseCases: MemberUseCases { api.memberUseCases }
    var feed: FeedUseCases { api.feedUseCases }
    var accounts: AccountUseCases { api.accountUseCases }

    /// The signed-in caller of this page, or the log-in redirect (a 401 becomes one).
    func caller() throws -> Caller {
        guard case .signedIn(let caller)? = RequestInfo.current?.caller else {
            throw APIError.unauthenticated(invalidToken: WebRequest.current?.sessionToken != nil)
        }
        return caller
    }

    /// Where this page's request came from, for the audit trail.
    func origin() throws -> RequestOrigin {
        guard let info = RequestInfo.current else { throw APIError.internalError }
        return info.origin
    }

    // MARK: Responses

    /// Everything every page's layout shows around its body.
    struct Page<Body: Sendable>: Sendable {
        let title: String
        let csrf: String
        let signedIn: Bool
        let nav: GroupNav?
        let body: Body
        /// What a form that came back refused, listed at the top of the page.
        var errorSummary: ErrorSummary? = nil
        /// What the action that led here did (issue 15: say so after recording, changing, deleting).
        var notice: String? = nil
        /// Unread notifications, for the bell (nil: none, or not signed in).
        var unread: Int? = nil
    }

    /// What an action did, said on the page it leads to; the redirect names it by key
    /// (`?done=`), so no text from the request ever reaches the page.
    static let notices: [String: String] = [
        "expense-saved": "Saved.",
        "expense-unchanged": "Nothing changed: the expense already said that.",
        "expense-saved-unmarked":
            "Saved. What some shares owe changed, so their paid marks are undone: they show unpaid, and the transfers "
            + "made for them stay recorded. Mark them paid again to settle the rest.",
        "expense-deleted": "Deleted. Restore below brings it back.",
        "expense-restored": "Restored: it counts in the balances again.",
        "share-paid": "Marked paid.",
        "share-unpaid": "Marked unpaid.",
        "share-paid-out": "Marked paid out.",
        "share-not-paid-out": "Marked not paid out.",
        "transfer": "Transfer recorded: the balances below include it.",
        "transfer-deleted": "Transfer deleted.",
        "transfer-of-a-share": "That transfer was recorded by marking a share paid: mark the share unpaid instead.",
        "member-added": "Member added.",
        "joined": "You joined the group: its expenses and balances are below.",
        "role": "Role changed.",
        "renamed": "Name changed.",
        "left": "You left the group. Its invite link brings you back as yourself.",
        "member-removed": "Removed from the group. Restore brings them back.",
        "member-restored": "Restored to the group.",
        "owner": "Ownership handed over.",
        "claim-approved": "Approved: they are in the group as that member now.",
        "claim-rejected": "Claim turned down.",
        "settings": "Saved.",
        "category": "Categories saved.",
        "category-moved": "Moved.",
        "rate-saved": "Rate saved.",
        "rate-deleted": "Rate deleted.",
        "rate-gone": "That rate was already deleted.",
        "archived": "Archived: it stays readable, and nothing in it can change until it is brought back.",
        "unarchived": "Brought back: it can be changed again.",
        "webhook-saved": "Saved.",
        "webhook-ping": "Test delivery queued: it shows below once sent.",
        "webhook-deleted": "Webhook deleted.",
        "imported": "Imported: the expenses, transfers and balances below include it.",
        "request-cancelled": "Request cancelled: its code no longer works.",
        "paid": "Paid: the transfer is recorded.",
        "budget-saved": "Budget saved.",
        "budget-removed": "Budget removed.",
        "series-saved": "Saved. Its expenses are added on their dates.",
        "series-saved-paused": "Saved. It stays paused: nothing is added until it is resumed.",
        // A series whose expenses each wait to be confirmed (found by review: it said "added").
        "series-saved-confirm": "Saved. On each date its expense waits under “Waiting to be confirmed” until someone confirms it.",
        "series-saved-past": "Saved. Its dates up to today were added now, to the group’s expenses; the next ones are added on their dates.",
        "series-saved-confirm-past":
            "Saved. Its dates up to today wait under “Waiting to be confirmed” now; on each next date its expense waits there until someone confirms it.",
        "series-paused": "Paused: nothing is added until it is resumed.",
        "series-resumed": "Resumed from today.",
        "series-skipped": "That date will be skipped.",
        "series-ended": "Ended: nothing more is added; what was added stays.",
        "pending-confirmed": "Confirmed: it is an expense now.",
        "pending-dismissed": "Dismissed.",
        "token-revoked": "Revoked: the token no longer works.",
    ]

    /// After a successful POST: to the page that shows the result, saying what was done.
    static func redirect(_ location: String, done key: String) -> Response {
        let (path, fragment) = location.firstIndex(of: "#").map {
            (String(location[..<$0]), String(location[$0...]))
        } ?? (location, "")
        return redirect(path + (path.contains("?") ? "&" : "?") + "done=" + key + fragment)
    }

    /// The list at the top of a page whose form came back (issue 15: the first error used to
    /// sit a screen and a half below the top). Each line links to the message beside its field;
    /// the page's script moves focus here, and the field's own message stays where it was.
    struct ErrorSummary: Sendable {
        struct Line: Sendable {
            let target: String
            let message: String
        }
        let heading: String
        let lines: [Line]

        /// Field errors in the order the form shows its fields (`order`; others after, by name).
        /// A form-wide message is not repeated: the page says it at the top already.
        init?(_ errors: [String: String], order: [String]) {
            let fields = errors.keys.filter { $0 != "form" }.sorted { a, b in
                switch (order.firstIndex(of: a), order.firstIndex(of: b)) {
                case (let x?, let y?): x < y
                case (.some, nil): true
                case (nil, .some): false
                case (nil, nil): a < b
                }
            }
            guard !fields.isEmpty else { return nil }
            heading =
                fields.count == 1 ? "One thing to fix before this can be saved" : "\(fields.count) things to fix before this can be saved"
            lines = fields.map { Line(target: "\($0)-error", message: errors[$0] ?? "") }
        }
    }

    /// The tabs of a group's pages; `current` names the one shown.
    struct GroupNav: Sendable {
        let id: String
        let name: String
        let overview: Bool
        let expenses: Bool
        let balances: Bool
        let members: Bool
        let settings: Bool
        let budget: Bool
        let recurring: Bool
        let archived: Bool
        /// Occurrences of recurring expenses waiting to be confirmed: the Recurring tab's badge.
        var pending: Int?
        /// The page follows the group's live stream and updates in place (issue 17); off where
        /// the page is mostly a form being typed into.
        var live: Bool

        init(id: String, name: String, current: String, archived: Bool = false, live: Bool = true) {
            self.id = id
            self.name = name
            self.live = live
            overview = current == "overview"
            expenses = current == "expenses"
            balances = current == "balances"
            members = current == "members"
            settings = current == "settings"
            budget = current == "budget"
            recurring = current == "recurring"
            self.archived = archived
        }
    }

    /// Renders a page; one whose form came back with `errors` is a 422 unless `status` says otherwise.
    func render<Body: Sendable>(
        _ template: String, title: String, body: Body, nav: GroupNav? = nil, signedIn: Bool = true,
        errors: [String: String] = [:], errorOrder: [String] = [], status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        let web = try WebRequest.get()
        let done = URLComponents(string: web.target)?.queryItems?.first { $0.name == "done" }?.value
        var unread: Int?
        if signedIn, case .signedIn(let caller)? = RequestInfo.current?.caller {
            unread = try await api.notificationUseCases.unreadCount(caller: caller)
        }
        // A page answering a POST (a form that came back) has no address to fetch again.
        var nav = nav
        if !web.isGet { nav?.live = false }
        if let id = nav.flatMap({ UUID(uuidString: $0.id) }), case .signedIn(let caller)? = RequestInfo.current?.caller {
            let waiting = try await api.recurringUseCases.pendingCount(groupID: id, caller: caller)
            nav?.pending = waiting > 0 ? waiting : nil
        }
        let page = Page(
            title: title, csrf: web.csrfToken, signedIn: signedIn, nav: nav, body: body,
            errorSummary: ErrorSummary(errors, order: errorOrder),
            notice: errors.isEmpty ? done.flatMap { Self.notices[$0] } : nil, unread: unread.flatMap { $0 > 0 ? $0 : nil })
        guard let html = templates.render(page, withTemplate: template) else { throw APIError.internalError }
        return Self.html(html, status: status ?? (errors.isEmpty ? .ok : .unprocessableContent))
    }

    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        // Also here, not only in WebMiddleware: the browser 404 for unknown paths is made outside it.
        WebMiddleware.secure(&response.headers)
        return response
    }

    /// After a successful POST: go to the page that shows the result (303, so a reload does not
    /// post again).
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    struct ErrorBody: Sendable {
        let heading: String
        let message: String
        let requestID: String?
        /// Where to go next, when there is a better place than the list of groups.
        let link: String?
    }

    /// A friendly page for a refusal or a failure; never a stack trace or a raw envelope.
    func errorPage(
        _ status: HTTPResponse.Status, heading: String, message: String, requestID: String? = nil, link: String? = nil
    ) -> Response {
        let signedIn = WebRequest.current?.sessionToken != nil
        let csrf = WebRequest.current?.csrfToken ?? ""
        let page = Page(
            title: heading, csrf: csrf, signedIn: signedIn, nav: nil,
            body: ErrorBody(heading: heading, message: message, requestID: requestID, link: link))
        let html =
            templates.render(page, withTemplate: "error")
            ?? "<!doctype html><title>\(heading)</title><h1>\(heading)</h1>"
        return Self.html(html, status: status)
    }

    func notFoundPage() -> Response {
        errorPage(
            .notFound, heading: "Page not found",
            message: "There is nothing here, or it belongs to a group you are not in.")
    }

    /// What a page's error becomes: log in again, a friendly 403/404, the API's message for
    /// other refusals, and a 500 page with the request id (the cause goes to the log only).
    func response(for error: any Error, request: Request, context: AppRequestContext) -> Response {
        let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
        switch apiError.status {
        case .unauthorized:
            let web = WebRequest.current
            let next = request.method == .get ? web?.target ?? "/" : "/groups"
            var response = Self.redirect("/login?next=\(Self.queryEscape(next))")
            if web?.sessionToken != nil { response.setCookie(sessionCookie(value: "", maxAge: 0)) }
            return response
        case .notFound:
            // A refusal that says more than "not found" (an expired link) says it on the page too.
            if case .notFoundBecause(let message)? = error as? AppError {
                return errorPage(.notFound, heading: "Page not found", message: message)
            }
            return notFoundPage()
        case .forbidden:
            return errorPage(.forbidden, heading: "Not allowed", message: apiError.message)
        case let status where status.code < 500:
            return errorPage(status, heading: "That did not work", message: apiError.message)
        case .serviceUnavailable:
            var response = errorPage(.serviceUnavailable, heading: "Too busy", message: apiError.message)
            response.headers[.retryAfter] = apiError.headers[.retryAfter]
            return response
        default:
            context.logger.error(
                "page failed", metadata: ["path": "\(WebRequest.loggable(request.uri.path))", "error": "\(String(reflecting: error))"])
            return errorPage(
                .internalServerError, heading: "Something went wrong",
                message: "It is not your fault and it has been logged. Try again in a moment.", requestID: context.id)
        }
    }

    func sessionCookie(value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: WebRequest.sessionCookie(secure: WebRequest.current?.isSecure ?? false), value: value,
            maxAge: maxAge, path: "/", secure: WebRequest.current?.isSecure ?? false, httpOnly: true, sameSite: .lax)
    }

    static func queryEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// Runs every page: reads the cookies, checks the CSRF token of every POST before anything
/// else, passes the session to the API handlers as a bearer token, turns errors into pages and
/// sets the headers every page gets.
struct WebMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let app: WebApp

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let peer = context.remoteAddress?.ipAddress
        let isSecure = app.addresses.isSecure(request, peer: peer)
        let session = request.cookies[WebRequest.sessionCookie(secure: isSecure)].map(\.value).flatMap(
            Self.plausibleToken)
        var visitor = request.cookies[WebRequest.visitorCookie(secure: isSecure)].map(\.value)
            .flatMap(Self.plausibleToken)
        var newVisitor: String?
        if session == nil, visitor == nil {
            newVisitor = SessionToken.generate()
            visitor = newVisitor
        }
        let csrf = WebRequest.csrfToken(for: session ?? visitor ?? "")
        let target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        var web = WebRequest(
            sessionToken: session, csrfToken: csrf, form: WebForm(), isSecure: isSecure, target: target)
        web.isGet = request.method == .get

        var response: Response
        do {
            response = try await WebRequest.$current.withValue(web) {
                switch request.method {
                case .get, .head:
                    break
                case .post:
                    // An import page's file only from a signed-in page (its session cookie).
                    let limit = max(
                        app.maxBodyBytes, session == nil ? 0 : RequestBodyMiddleware.importLimit(request.uri.path) ?? 0)
                    let body = try await request.body.collect(upTo: limit)
                    web.form = WebForm(urlEncoded: String(buffer: body))
                    guard let sent = web.form["_csrf"], WebRequest.constantTimeEqual(sent, csrf) else {
                        context.logger.info(
                            "form refused: CSRF token missing or wrong", metadata: ["path": "\(WebRequest.loggable(request.uri.path))"])
                        return app.errorPage(
                            .forbidden, heading: "This form has expired",
                            message: "Go back, reload the page and try again.")
                    }
                default:
                    return app.errorPage(
                        .methodNotAllowed, heading: "Not allowed", message: "Pages take GET and POST only.")
                }
                guard var info = RequestInfo.current else { throw APIError.internalError }
                // The page's one session look-up: every use case and API handler it calls gets this caller.
                info.caller = try await CallerState.resolve(
                    token: session, isWrite: request.method == .post, with: app.callers)
                // The cookie holds a login; an access token put there is no login of the web app.
                if case .signedIn(let caller) = info.caller, caller.token != nil { info.caller = .invalid }
                return try await RequestInfo.$current.withValue(info) {
                    try await WebRequest.$current.withValue(web) { try await next(request, context) }
                }
            }
        } catch {
            response = WebRequest.$current.withValue(web) {
                app.response(for: error, request: request, context: context)
            }
        }
        if let newVisitor {
            response.setCookie(
                Cookie(
                    name: WebRequest.visitorCookie(secure: isSecure), value: newVisitor, maxAge: 30 * 24 * 3_600,
                    path: "/", secure: isSecure, httpOnly: true, sameSite: .lax))
        }
        Self.secure(&response.headers)
        return response
    }

    /// Tokens we make are 43 URL-safe characters; anything else is not worth a database look-up.
    static func plausibleToken(_ value: String) -> String? {
        guard (20...200).contains(value.utf8.count),
            value.utf8.allSatisfy({
                $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            })
        else { return nil }
        return value
    }

    /// Pages are private and never framed; scripts and styles come from this server only.
    static func secure(_ headers: inout HTTPFields) {
        headers[.cacheControl] = "no-store"
        headers[.init("Content-Security-Policy")!] =
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.init("Referrer-Policy")!] = "same-origin"
        headers[.init("X-Frame-Options")!] = "DENY"
    }
}
