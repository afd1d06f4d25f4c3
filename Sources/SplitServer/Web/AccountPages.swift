import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
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
        let formName: String
        let formEmail: String
        let formPhone: String
        let sessions: [Session]
        let hasOthers: Bool
        let mail: MailSection
        let notice: String?
        let errors: [String: String]
        /// How I like to be paid: my ways, then an empty row to add one.
        let payRows: [PayRow]
    }

    struct PayRow: Sendable {
        struct Kind: Sendable {
            let value: String
            let label: String
            let selected: Bool
        }
        let index: Int
        let number: Int
        let kinds: [Kind]
        let value: String
        let bic: String
        let name: String
    }

    static let payKinds: [(String, String)] = [
        ("", "—"), ("iban", "Bank account (IBAN)"), ("upi", "UPI"), ("paypal", "PayPal.me"), ("revolut", "Revolut"),
        ("duitnow", "DuitNow"), ("paynow", "PayNow"), ("text", "Other (in words)"),
    ]

    static func payRows(_ methods: [Components.Schemas.PayMethod]) -> [PayRow] {
        payRows(methods.map { ($0.kind.rawValue, $0.value, $0.bic ?? "", $0.name ?? "") })
    }

    /// The rows as kind, value, BIC and name, and an empty one to add another (at most the bound).
    static func payRows(_ methods: [(kind: String, value: String, bic: String, name: String)]) -> [PayRow] {
        (methods + [("", "", "", "")]).prefix(PayDetails.maximumMethods).enumerated().map { index, method in
            PayRow(
                index: index, number: index + 1,
                kinds: payKinds.map { .init(value: $0.0, label: $0.1, selected: $0.0 == method.kind) },
                value: method.value, bic: method.bic, name: method.name)
        }
    }

    /// Saves the account's pay details from its rows (a row without a kind or a value is left out).
    func savePayDetails(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        var entered: [EnteredPayMethod] = []
        for index in 0..<PayDetails.maximumMethods {
            guard let kind = form["pay_kind_\(index)"], !kind.isEmpty,
                let value = form["pay_value_\(index)"], !value.trimmingCharacters(in: .whitespaces).isEmpty
            else { continue }
            entered.append(
                EnteredPayMethod(kind: kind, value: value, bic: form["pay_bic_\(index)"], name: form["pay_name_\(index)"]))
        }
        do {
            _ = try await api.payDetailsUseCases.save(entered, caller: try caller())
            return Self.redirect("/account?done=pay")
        } catch {
            let errors = try Self.formErrors(error, shown: Set((0..<PayDetails.maximumMethods).map { "methods[\($0)]" }))
            // The rows as typed, to be put right (found by review: they came back empty).
            let typed = (0..<PayDetails.maximumMethods).map { index in
                (
                    kind: form["pay_kind_\(index)"] ?? "", value: form["pay_value_\(index)"] ?? "",
                    bic: form["pay_bic_\(index)"] ?? "", name: form["pay_name_\(index)"] ?? ""
                )
            }.filter { !$0.kind.isEmpty || !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }
            return try await renderAccount(
                notice: nil, errors: ["pay": errors.values.first ?? "Check the ways to be paid."], status: Self.status(of: error),
                payRows: Self.payRows(typed))
        }
    }

    /// The account's notification mail: its address, verified or not, and what it gets.
    struct MailSection: Sendable {
        struct Option: Sendable {
            let value: String
            let label: String
            let checked: Bool
        }
        let email: String?
        let verified: Bool
        let sending: Bool
        let modes: [Option]
        let categories: [Option]
        let hours: [Option]
    }

    func accountPage(_ request: Request) async throws -> Response {
        let notice: String? =
            switch request.uri.queryParameters["done"].map(String.init) {
            case "profile": "Saved."
            case "profile-email": "Saved. A link to verify the new email is on its way."
            case "profile-email-later":
                "Saved. No link to verify it could be sent now: five went out in the last day. Send one from Email below later."
            case "profile-email-no-mail": "Saved. This server sends no mail, so the address stays unverified."
            case "password": "Password changed. Every other session is signed out; this one goes on."
            case "session": "That session is signed out."
            case "others": "Every other session is signed out; this one goes on."
            case "email": "Mail settings saved."
            case "verification": "A verification link is on its way; it works for 48 hours."
            case "pay": "Saved: the members of your groups see it when they pay you."
            default: nil
            }
        return try await renderAccount(notice: notice, errors: [:])
    }

    /// Name, email, phone; the password only when the email or phone changes. The form's
    /// errors have keys of their own (`profileEmail`…): the password and pay forms below have a
    /// `currentPassword` and a `phone` too.
    func updateProfile(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let caller = try caller()
        func changed(_ field: String, _ current: String?) -> String? {
            guard let value = form.text(field) ?? (current == nil ? nil : ""), value != current else { return nil }
            return value
        }
        do {
            let email = changed("email", caller.user.email)
            let change = try await accounts.updateProfile(
                ProfilePatch(
                    displayName: changed("displayName", caller.user.displayName), email: email,
                    phone: changed("phone", caller.user.phone), currentPassword: form["profilePassword"]),
                caller: caller, origin: try origin())
            let done =
                switch (email, change.linkSent) {
                case (nil, _): "profile"
                case (_, false?): "profile-email-later"
                case (_, true?): "profile-email"
                case (_, nil): "profile-email-no-mail"
                }
            return Self.redirect("/account?done=\(done)")
        } catch {
            var errors: [String: String] = [:]
            for (key, message) in try Self.formErrors(error, shown: ["displayName", "email", "phone", "currentPassword"]) {
                let keys = [
                    "displayName": "profileName", "email": "profileEmail", "phone": "profilePhone",
                    "currentPassword": "profilePassword",
                ]
                errors[keys[key] ?? "profileForm"] = message
            }
            return try await renderAccount(notice: nil, errors: errors, status: Self.status(of: error), typed: form)
        }
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

    func updateMailSettings(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let off = MailCategory.allCases.filter { form["get-\($0.rawValue)"] == nil }.map(\.rawValue)
        do {
            _ = try await api.mailUseCases.update(
                mode: form["mode"] ?? "", off: off, digestHour: Int(form["digestHour"] ?? "") ?? -1, caller: try caller())
            return Self.redirect("/account?done=email#email")
        } catch {
            var errors = try Self.formErrors(error, shown: ["mode", "digestHour"])
            if let message = errors.removeValue(forKey: "form") { errors["mailForm"] = message }
            return try await renderAccount(notice: nil, errors: errors, status: Self.status(of: error))
        }
    }

    func requestVerification(_ request: Request) async throws -> Response {
        do {
            try await api.mailUseCases.requestVerification(caller: try caller())
            return Self.redirect("/account?done=verification#email")
        } catch let error as AppError {
            switch error {
            case .conflict(_, _, let message):
                return try await renderAccount(notice: nil, errors: ["mailForm": message], status: .conflict)
            case .rateLimited(let seconds):
                // Said on the page, beside the button (found by a new user: an error page).
                return try await renderAccount(
                    notice: nil,
                    errors: [
                        "mailForm": "\(MailStore.linksPerDay) links were sent in the last day; the next can be sent in "
                            + "\(WaitText.phrase(seconds: seconds))."
                    ], status: .tooManyRequests)
            default:
                throw error
            }
        }
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
        notice: String?, errors: [String: String], status: HTTPResponse.Status? = nil, payRows typedRows: [PayRow]? = nil,
        typed form: WebForm? = nil
    ) async throws -> Response {
        let caller = try caller()
        let user = caller.user
        let sessions = try await accounts.sessions(caller)
        let mail = try await api.mailUseCases.settings(caller: caller)
        var rows = typedRows ?? []
        if typedRows == nil {
            rows = Self.payRows(try await api.payDetailsUseCases.mine(caller: caller).map(Components.Schemas.PayMethod.init))
        }
        let body = AccountBody(
            displayName: user.displayName, login: user.email ?? user.phone ?? "",
            // The profile form: as typed when it was refused, else the account's.
            formName: form?["displayName"] ?? user.displayName, formEmail: form?["email"] ?? user.email ?? "",
            formPhone: form?["phone"] ?? user.phone ?? "",
            sessions: sessions.map {
                .init(
                    id: $0.id.text, device: $0.deviceName ?? "Unnamed device", address: $0.ipAddress,
                    lastUsed: ZonedTime.dateTime(Date(milliseconds: $0.lastUsedAt)),
                    created: ZonedTime.dateTime(Date(milliseconds: $0.createdAt)), isCurrent: $0.id == caller.session.id
                )
            },
            hasOthers: sessions.contains { $0.id != caller.session.id }, mail: Self.mailSection(mail), notice: notice,
            errors: errors,
            payRows: rows)
        return try await render("account", title: "Your account", body: body, errors: errors, status: status)
    }

    static func mailSection(_ mail: MailSettingsView) -> MailSection {
        MailSection(
            email: mail.email, verified: mail.verified, sending: mail.sending,
            modes: [
                .init(value: "each", label: "A mail for each notification", checked: mail.mode == .each),
                .init(value: "daily", label: "One digest a day", checked: mail.mode == .daily),
                .init(value: "off", label: "No mail", checked: mail.mode == .off),
            ],
            categories: MailCategory.allCases.map {
                .init(value: $0.rawValue, label: MailComposer.label($0).capitalizedFirst, checked: !mail.off.contains($0))
            },
            hours: (0..<24).map {
                .init(value: "\($0)", label: String(format: "%02d:00 UTC", $0), checked: mail.digestHour == $0)
            })
    }
}

extension String {
    /// "Expenses" from "expenses".
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
