import Foundation
import Hummingbird
import SplitApp
import SplitStore

/// The account page: who is signed in, the sessions that still work (each can be signed out),
/// a new password (which signs out every other session), and deleting the account.
extension WebApp {
    struct AccountBody: Sendable {
        struct Session: Sendable {
            let id: String
            let device: String
            let address: String?
            let lastUsed: String
            let created: String
            let isCurrent: Bool
        }
        let displayName: String
        let login: String
        let sessions: [Session]
        let hasOthers: Bool
        let notice: String?
        let errors: [String: String]
    }

    func accountPage(_ request: Request) async throws -> Response {
        let notice: String? =
            switch request.uri.queryParameters["done"].map(String.init) {
            case "password": "Password changed. Every other session is signed out; this one goes on."
            case "session": "That session is signed out."
            case "others": "Every other session is signed out; this one goes on."
            default: nil
            }
        return try await renderAccount(notice: notice, errors: [:])
    }

    func changePassword(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        do {
            try await accounts.changePassword(
                try caller(), current: form["currentPassword"] ?? "", new: form["newPassword"] ?? "")
            return Self.redirect("/account?done=password")
        } catch {
            let errors = try Self.formErrors(error, shown: ["currentPassword", "newPassword"])
            return try await renderAccount(notice: nil, errors: errors, status: Self.status(of: error))
        }
    }

    /// Deletes the account after its password; the browser's cookie goes with it.
    func deleteAccount(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        do {
            try await accounts.deleteAccount(try caller(), password: form["deletePassword"] ?? "")
        } catch {
            // The form's field is deletePassword (the page has a password form too).
            var errors = try Self.formErrors(error, shown: ["password"])
            if let message = errors.removeValue(forKey: "password") { errors["deletePassword"] = message }
            if let message = errors.removeValue(forKey: "form") { errors["deleteForm"] = message }
            return try await renderAccount(notice: nil, errors: errors, status: Self.status(of: error))
        }
        var response = Self.redirect("/login?deleted=1")
        response.setCookie(sessionCookie(value: "", maxAge: 0))
        return response
    }

    func revokeOtherSessions(_ request: Request) async throws -> Response {
        try await accounts.revokeOtherSessions(try caller())
        return Self.redirect("/account?done=others")
    }

    func revokeSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("sessionId")
        // This browser's own session is ended by "Log out", which also clears the cookie.
        let caller = try caller()
        guard UUID(uuidString: id) != caller.session.id else { return Self.redirect("/account") }
        do {
            try await accounts.revokeSession(id, caller)
        } catch AppError.notFound {
            return Self.redirect("/account")
        }
        return Self.redirect("/account?done=session")
    }

    private func renderAccount(
        notice: String?, errors: [String: String], status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        let caller = try caller()
        let user = caller.user
        let sessions = try await accounts.sessions(caller)
        let body = AccountBody(
            displayName: user.displayName, login: user.email ?? user.phone ?? "",
            sessions: sessions.map {
                .init(
                    id: $0.id.text, device: $0.deviceName ?? "Unnamed device", address: $0.ipAddress,
                    lastUsed: WebFormat.dateTime(Date(milliseconds: $0.lastUsedAt)),
                    created: WebFormat.dateTime(Date(milliseconds: $0.createdAt)), isCurrent: $0.id == caller.session.id
                )
            },
            hasOthers: sessions.contains { $0.id != caller.session.id }, notice: notice, errors: errors)
        return try await render("account", title: "Your account", body: body, errors: errors, status: status)
    }
}
