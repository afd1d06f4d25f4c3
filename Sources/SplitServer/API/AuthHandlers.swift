import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

extension APIHandler {
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard configuration.allowRegistration else {
            throw APIError(.forbidden, code: "registration_closed", message: "This server does not take new accounts.")
        }
        let request = try request
        // Every attempt counts, 409s included: they reveal which emails exist (DESIGN §4).
        _ = try await limiter.reserve(
            configuration.limits.registerAddress, subject: RateLimiter.subject("address:" + request.clientAddress))
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }

        let email = try Names.optional(body.email).map { raw in
            guard let email = AccountInput.normalizedEmail(raw) else {
                throw APIError.invalid(field: "email", "\"\(raw.prefix(100))\" is not an email address.")
            }
            return email
        }
        let phone = try Names.optional(body.phone).map { raw in
            guard let phone = AccountInput.normalizedPhone(raw) else {
                throw APIError.invalid(
                    field: "phone", "A phone number starts with + and its country code, e.g. +60 12 345 6789.")
            }
            return phone
        }
        guard email != nil || phone != nil else {
            throw APIError.invalid(field: "email", "Give an email address or a phone number.")
        }
        try Self.validateNewPassword(body.password, field: "password")
        let displayName = try Names.name(body.displayName, field: "displayName")
        let device = try Self.device(id: body.deviceId, name: body.deviceName)

        let current = now()
        let user = UserRecord(
            id: UUID(), email: email, phone: phone, displayName: displayName,
            passwordHash: try await passwords.hash(body.password), createdAt: current, updatedAt: current)
        do {
            _ = try await accounts.createUser(user)
        } catch StoreError.conflict(let field) {
            throw APIError.conflict(
                field: field,
                message: field == "phone"
                    ? "That phone number is registered already." : "That email is registered already.")
        }
        return .created(.init(body: .json(try await startSession(for: user, device: device))))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let device = try Self.device(id: body.deviceId, name: body.deviceName)
        let raw = body.emailOrPhone
        let isEmail = AccountInput.isEmailLogin(raw)
        let normalized = isEmail ? AccountInput.normalizedEmail(raw) : AccountInput.normalizedPhone(raw)
        var user: UserRecord?
        if let normalized {
            user = try await isEmail ? accounts.user(email: normalized) : accounts.user(phone: normalized)
        }
        // The account limit is keyed on the account when it exists (its email and phone share
        // one count), else on what was typed: either way the 429 comes after the same number of
        // failures, so it says nothing about whether the account exists.
        let typed = normalized ?? raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let accountKey = RateLimiter.subject(user.map { "user:" + $0.id.text } ?? "typed:" + typed)
        let accountAttempt = try await limiter.reserve(configuration.limits.loginAccount, subject: accountKey)
        let addressAttempt: RateLimiter.Reservation
        do {
            addressAttempt = try await limiter.reserve(
                configuration.limits.loginAddress, subject: RateLimiter.subject("address:" + request.clientAddress))
        } catch {
            try? await limiter.release(accountAttempt)
            throw error
        }
        // Always one bcrypt, so an unknown account answers in the same time as a wrong password.
        let matches = try await passwords.verify(body.password, against: user?.passwordHash ?? unknownAccountHash)
        guard matches, let user, user.isActive else { throw APIError.invalidCredentials }  // the attempts stay counted
        try await limiter.release(accountAttempt)
        try await limiter.release(addressAttempt)
        return .ok(.init(body: .json(try await startSession(for: user, device: device))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let caller = try await authenticate()
        _ = try await accounts.revokeSession(id: caller.session.id, userID: caller.user.id, now: now())
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try await authenticate()
        return .ok(.init(body: .json(.init(user: .init(caller.user)))))
    }

    func listSessions(_ input: Operations.ListSessions.Input) async throws -> Operations.ListSessions.Output {
        let caller = try await authenticate()
        let sessions = try await accounts.activeSessions(userID: caller.user.id, now: now())
        return .ok(.init(body: .json(.init(sessions: sessions.map { .init($0, currentID: caller.session.id) }))))
    }

    func revokeSession(_ input: Operations.RevokeSession.Input) async throws -> Operations.RevokeSession.Output {
        let caller = try await authenticate()
        guard let id = UUID(uuidString: input.path.sessionId),
            try await accounts.revokeSession(id: id, userID: caller.user.id, now: now())
        else { throw APIError.notFound("session") }
        return .noContent(.init())
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        // A stolen token must not give unlimited guesses at the password: it shares the
        // account's login limit.
        let attempt = try await limiter.reserve(
            configuration.limits.loginAccount, subject: RateLimiter.subject("user:" + caller.user.id.text))
        guard try await passwords.verify(body.currentPassword, against: caller.user.passwordHash) else {
            throw APIError.invalid(field: "currentPassword", "The current password is wrong.")
        }
        try await limiter.release(attempt)
        try Self.validateNewPassword(body.newPassword, field: "newPassword")
        try await accounts.changePassword(
            userID: caller.user.id, passwordHash: try await passwords.hash(body.newPassword),
            keepSession: caller.session.id, now: now())
        return .noContent(.init())
    }

    /// A new session with a fresh token; only the token's hash is stored (DESIGN §4).
    private func startSession(
        for user: UserRecord, device: (id: String?, name: String?)
    ) async throws -> Components.Schemas.AuthResponse {
        let token = SessionToken.generate()
        let current = now()
        let session = SessionRecord(
            id: UUID(), userID: user.id, tokenHash: SessionToken.hash(token), deviceID: device.id,
            deviceName: device.name, ipAddress: try request.clientAddress, createdAt: current, lastUsedAt: current,
            expiresAt: current + Self.sessionLifetime)
        try await accounts.createSession(session)
        return .init(
            user: .init(user), token: token, sessionId: session.id.text,
            expiresAt: Date(milliseconds: session.expiresAt))
    }

    static func validateNewPassword(_ password: String, field: String) throws {
        guard AccountInput.passwordLength.contains(password.count) else {
            throw APIError.invalid(field: field, "A password has 8 to 128 characters.")
        }
    }

    static func device(id: String?, name: String?) throws -> (id: String?, name: String?) {
        for (field, value) in [("deviceId", id), ("deviceName", name)] {
            guard let value else { continue }
            guard value.unicodeScalars.count <= 200,
                !AccountInput.containsControlCharacters(value, allowingLineBreaks: false)
            else {
                throw APIError.invalid(field: field, "\(field) has at most 200 characters and no control characters.")
            }
        }
        return (Names.optional(id), Names.optional(name))
    }
}
