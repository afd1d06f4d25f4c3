import Foundation
import Hummingbird
import SplitApp
import SplitStore

/// The links mail carries (issue 17, issue 14): verifying an address and unsubscribing. Both
/// work without a login — the link's token or key is what proves the right — and both ask for
/// a click before they change anything, so a mail scanner that fetches links changes nothing.
extension WebApp {
    struct MailLinkBody: Sendable {
        let heading: String
        let message: String?
        let done: String?
        let action: String?
        let button: String?
    }

    func verifyEmailPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard try await api.mailUseCases.verificationLinkIsOpen(token: token) else { return try await verifyLinkGone() }
        return try await render(
            "mail-link", title: "Confirm your email",
            body: MailLinkBody(
                heading: "Confirm your email", message: "One click and notification mail can reach you.", done: nil,
                action: "/verify-email/\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                button: "Confirm my address"), signedIn: WebRequest.current?.sessionToken != nil)
    }

    func verifyEmail(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await api.mailUseCases.verify(token: try context.parameters.require("token"))
        } catch AppError.notFound, AppError.notFoundBecause {
            return try await verifyLinkGone()
        }
        return try await render(
            "mail-link", title: "Email confirmed",
            body: MailLinkBody(
                heading: "Email confirmed", message: nil,
                done: "Thank you: your address is verified, and notification mail will reach you.", action: nil,
                button: nil), signedIn: WebRequest.current?.sessionToken != nil)
    }

    /// A used, expired or unknown verification link's page: what happened and where to ask for a
    /// new one, no button that cannot work.
    private func verifyLinkGone() async throws -> Response {
        try await render(
            "mail-link", title: "Link no longer works",
            body: MailLinkBody(
                heading: "This link no longer works",
                message: "This verification link is unknown, used or expired. Your mail settings can send a new one; "
                    + "a link works for two days.", done: nil, action: nil, button: nil),
            signedIn: WebRequest.current?.sessionToken != nil, status: .notFound)
    }

    func unsubscribePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let key = try context.parameters.require("key")
        let category = try context.parameters.require("category")
        let target = try await api.mailUseCases.unsubscribeTarget(key: key, category: category)
        let what = MailComposer.label(target.category)
        if request.uri.queryParameters["done"] != nil {
            return try await render(
                "mail-link", title: "Unsubscribed",
                body: MailLinkBody(
                    heading: "Unsubscribed", message: nil,
                    done: "\(target.maskedEmail) gets no more mail about \(what).", action: nil, button: nil),
                signedIn: WebRequest.current?.sessionToken != nil)
        }
        return try await render(
            "mail-link", title: "Unsubscribe",
            body: MailLinkBody(
                heading: "Stop mail about \(what)?",
                message: "For \(target.maskedEmail). You can turn it back on in your account’s mail settings.",
                done: nil, action: "/unsubscribe/\(Self.pathPart(key))/\(Self.pathPart(category))",
                button: "Unsubscribe"), signedIn: WebRequest.current?.sessionToken != nil)
    }

    /// The unsubscribe POST, outside the pages' middleware: mail programs send RFC 8058's
    /// one-click POST (`List-Unsubscribe=One-Click`) without cookies or a CSRF token, and the
    /// key in the path is the whole right. The page's own button lands here too and goes back
    /// to the page, which then says it is done.
    func unsubscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
        let key = try context.parameters.require("key")
        let category = try context.parameters.require("category")
        let body = try await request.body.collect(upTo: 4_096)
        do {
            _ = try await api.mailUseCases.unsubscribe(key: key, category: category)
        } catch is AppError {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "This unsubscribe link is not one this server sent.\n")))
        }
        if String(buffer: body).contains("List-Unsubscribe=One-Click") {
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Unsubscribed.\n")))
        }
        return Self.redirect("/unsubscribe/\(Self.pathPart(key))/\(Self.pathPart(category))?done=1")
    }

    static func pathPart(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}

/// "Forgot your password?" (issue 14 item 18): ask for a link by address, then set a new
/// password on the page the link opens.
extension WebApp {
    struct PasswordResetBody: Sendable {
        let heading: String
        let action: String
        let asksEmail: Bool
        let email: String?
        let done: String?
        let errors: [String: String]
        /// The link cannot be used: no form, a way to ask for a new one.
        var linkGone = false
        /// This server mails nothing: said first, instead of a form whose answer would say so
        /// (found by a new user: "We mail you a link", then "This server does not send mail").
        var noMail: String? = nil
    }

    func forgotPasswordPage(_ request: Request) async throws -> Response {
        try await renderForgot(email: nil, done: nil, errors: [:])
    }

    func forgotPassword(_ request: Request) async throws -> Response {
        let email = try WebRequest.get().form.text("email") ?? ""
        do {
            try await accounts.requestPasswordReset(email: email, origin: try origin())
            return try await renderForgot(
                email: email,
                done: "If an account has that address, a link to set a new password is on its way; it works for an hour.",
                errors: [:])
        } catch {
            let errors = try Self.formErrors(error, shown: ["email"])
            return try await renderForgot(email: email, done: nil, errors: errors, status: Self.status(of: error))
        }
    }

    private func renderForgot(
        email: String?, done: String?, errors: [String: String], status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        var body = PasswordResetBody(
            heading: "Forgot your password", action: "/forgot-password", asksEmail: true, email: email, done: done,
            errors: errors)
        if !accounts.mailsResetLinks {
            body.noMail =
                "This server does not send mail, so it cannot mail you a link to set a new password. Ask whoever "
                + "runs it to set up mail, then come back here."
        }
        return try await render(
            "password-reset", title: "Forgot your password", body: body, signedIn: false, errors: errors, status: status)
    }

    func resetPasswordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard try await accounts.resetLinkIsOpen(token: token) else { return try await resetLinkGone() }
        return try await renderReset(token, errors: [:])
    }

    func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        do {
            try await accounts.resetPassword(token: token, newPassword: try WebRequest.get().form["newPassword"] ?? "")
        } catch let error as AppError where !error.fieldProblems.isEmpty {
            let errors = try Self.formErrors(error, shown: ["newPassword"])
            return try await renderReset(token, errors: errors, status: Self.status(of: error))
        } catch AppError.notFound, AppError.notFoundBecause {
            return try await resetLinkGone()
        }
        // This browser's own session (if any) ended with the others.
        var response = Self.redirect("/login?reset=1")
        response.setCookie(sessionCookie(value: "", maxAge: 0))
        return response
    }

    /// A used, expired or unknown reset link's page: what happened, and a way to ask for a new
    /// link, instead of a form that cannot work.
    private func resetLinkGone() async throws -> Response {
        let errors = [
            "form": "This password link is unknown, used or expired: each link sets one password, within an hour."
        ]
        return try await render(
            "password-reset", title: "Link no longer works",
            body: PasswordResetBody(
                heading: "This link no longer works", action: "/forgot-password", asksEmail: false, email: nil,
                done: nil, errors: errors, linkGone: true), signedIn: false, errors: errors, status: .notFound)
    }

    private func renderReset(_ token: String, errors: [String: String], status: HTTPResponse.Status? = nil)
        async throws -> Response
    {
        try await render(
            "password-reset", title: "Choose a new password",
            body: PasswordResetBody(
                heading: "Choose a new password", action: "/reset-password/\(Self.pathPart(token))", asksEmail: false,
                email: nil, done: nil, errors: errors), signedIn: false, errors: errors, status: status)
    }
}
