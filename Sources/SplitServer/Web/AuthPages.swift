import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Log in, register, log out. The session the API starts is kept in an HttpOnly, SameSite=Lax
/// cookie (Secure over HTTPS) that lives as long as the session.
extension WebApp {
    struct AuthBody: Sendable {
        let next: String
        let emailOrPhone: String
        let displayName: String
        let email: String
        let errors: [String: String]
        let registrationOpen: Bool
        /// `next` written for a URL query.
        let nextQuery: String
        /// Said above the form (after an account was deleted).
        var notice: String? = nil
        /// The group an invite link that led here opens.
        var joining: String? = nil
    }

    /// The group named by an invite link the visitor came from (`next=/join/CODE`), if any.
    func joining(_ next: String?) async -> String? {
        guard let next, next.hasPrefix("/join/"), let origin = try? origin() else { return nil }
        return try? await groupUseCases.invitedGroupName(code: String(next.dropFirst("/join/".count)), origin: origin)
    }

    func authBody(
        next: String?, emailOrPhone: String = "", displayName: String = "", email: String = "",
        errors: [String: String] = [:]
    ) -> AuthBody {
        AuthBody(
            next: WebRequest.safeNext(next), emailOrPhone: emailOrPhone, displayName: displayName, email: email,
            errors: errors, registrationOpen: api.configuration.allowRegistration,
            nextQuery: Self.queryEscape(WebRequest.safeNext(next)))
    }

    func loginPage(_ request: Request) async throws -> Response {
        let next = request.uri.queryParameters["next"].map(String.init)
        var body = authBody(next: next)
        body.joining = await joining(next)
        if request.uri.queryParameters["reset"] != nil {
            body.notice = "Your new password is set, and every other session is signed out. Log in with it."
        }
        if request.uri.queryParameters["deleted"] != nil {
            body.notice = "Your account is deleted. Your groups keep your name and what you paid and owed."
        }
        return try await render("login", title: "Log in", body: body, signedIn: false)
    }

    func login(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let next = WebRequest.safeNext(form["next"])
        let emailOrPhone = form.text("emailOrPhone") ?? ""
        do {
            let started = try await accounts.login(
                emailOrPhone: emailOrPhone, password: form["password"] ?? "",
                device: EnteredDevice(name: WebFormat.deviceName(userAgent: try origin().userAgent)), origin: try origin())
            return await signedIn(token: started.token, next: next)
        } catch {
            let errors = try Self.formErrors(error, shown: ["password"], including: [401])
            return try await render(
                "login", title: "Log in", body: authBody(next: next, emailOrPhone: emailOrPhone, errors: errors),
                signedIn: false, errors: errors, status: Self.status(of: error))
        }
    }

    func registerPage(_ request: Request) async throws -> Response {
        let next = request.uri.queryParameters["next"].map(String.init)
        var body = authBody(next: next)
        body.joining = await joining(next)
        return try await render("register", title: "Create an account", body: body, signedIn: false)
    }

    func register(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let next = WebRequest.safeNext(form["next"])
        let displayName = form["displayName"] ?? ""
        let email = form.text("email") ?? ""
        do {
            let started = try await accounts.register(
                NewAccount(
                    email: email.isEmpty ? nil : email, phone: nil, password: form["password"] ?? "",
                    displayName: displayName, device: EnteredDevice(name: WebFormat.deviceName(userAgent: try origin().userAgent))),
                origin: try origin())
            return await signedIn(token: started.token, next: next)
        } catch {
            let errors = try Self.formErrors(error, shown: ["displayName", "email", "password"])
            return try await render(
                "register", title: "Create an account",
                body: authBody(next: next, displayName: displayName, email: email, errors: errors), signedIn: false,
                errors: errors, errorOrder: ["displayName", "email", "password"], status: Self.status(of: error))
        }
    }

    func logout(_ request: Request) async throws -> Response {
        // An already-dead session is as logged out as it gets.
        if let caller = try? caller() { try? await accounts.logout(caller) }
        var response = Self.redirect("/login")
        response.setCookie(sessionCookie(value: "", maxAge: 0))
        return response
    }

    private func signedIn(token: String, next: String) async -> Response {
        // A session this browser had before (another account, or the same) ends here: one
        // browser, one session.
        if let caller = try? caller() { try? await accounts.logout(caller) }
        var response = Self.redirect(next)
        response.setCookie(sessionCookie(value: token, maxAge: Int(AccountUseCases.sessionLifetime / 1_000)))
        return response
    }

    // MARK: Form errors

    /// A refusal the user can fix on the same form, keyed by the form field it names (the part of
    /// the API's `details.field` before the first `.` or `[`) when the page shows errors for that
    /// field (`shown`), else by `form` (shown at the top), so no message is ever dropped.
    /// Anything else (not found, forbidden, a failure) is rethrown to become its page.
    static func formErrors(_ error: any Error, shown: Set<String>, including extra: Set<Int> = []) throws
        -> [String: String]
    {
        // Read as the API would answer it (the one mapping); anything unknown is not the form's.
        let apiError = ErrorEnvelopeMiddleware.apiError(for: error)
        guard
            [400, 409, 412, 413, 422, 428, 429].contains(apiError.status.code) || extra.contains(apiError.status.code)
        else { throw error }
        guard case .string(let field)? = apiError.details["field"] else { return ["form": sentence(apiError.message)] }
        // Several wrong fields at once: each next to its own field (the first word for a field).
        var problems = [(field, apiError.message)]
        if let app = error as? AppError, case .invalidFields(let list) = app {
            problems = list.map { ($0.field, $0.message) }
        }
        var errors: [String: String] = [:]
        for (field, said) in problems {
            let message = sentence(said)
            let key = String(field.prefix { $0 != "." && $0 != "[" })
            let shownAt = shown.contains(key) ? key : "form"
            if let said = errors[shownAt] {
                if !said.contains(message) { errors[shownAt] = "\(said) \(message)" }
            } else {
                errors[shownAt] = message
            }
        }
        return errors
    }

    /// A message as a sentence on a page: the money engine's ("the total cannot be zero") begin
    /// in lower case and end without a stop, to be quoted in other messages; here they stand alone.
    static func sentence(_ message: String) -> String {
        // Not a field's name ("paidBy is missing").
        guard let first = message.first, first.isLowercase,
            !message.prefix(while: { !$0.isWhitespace }).contains(where: \.isUppercase)
        else { return message }
        let ended = message.last.map { ".!?".contains($0) } ?? true
        return first.uppercased() + message.dropFirst() + (ended ? "" : ".")
    }

    static func status(of error: any Error) -> HTTPResponse.Status {
        let status = ErrorEnvelopeMiddleware.apiError(for: error).status
        return status == .internalServerError ? .unprocessableContent : status
    }
}
