import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The account operations: wire ⇄ `AccountUseCases`.
extension APIHandler {
    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let started = try await accountUseCases.register(
            NewAccount(
                email: body.email, phone: body.phone, password: body.password, displayName: body.displayName,
                device: EnteredDevice(id: body.deviceId, name: body.deviceName)),
            origin: request.origin)
        return .created(.init(body: .json(.init(started))))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let started = try await accountUseCases.login(
            emailOrPhone: body.emailOrPhone, password: body.password,
            device: EnteredDevice(id: body.deviceId, name: body.deviceName), origin: request.origin)
        return .ok(.init(body: .json(.init(started))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await accountUseCases.logout(try await authenticate())
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try await authenticate()
        return .ok(.init(body: .json(.init(user: .init(caller.user)))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let change = try await accountUseCases.updateProfile(
            ProfilePatch(
                displayName: body.displayName, email: body.email, phone: body.phone,
                currentPassword: body.currentPassword), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(user: .init(change.user)))))
    }

    /// `getMe`'s answer as the generated server writes it (`PlainRoutes`).
    func meJSON() async throws -> [UInt8] {
        let caller = try await authenticate()
        return [UInt8](try ExpenseJSON.generatedEncoder().encode(Components.Schemas.UserResponse(user: .init(caller.user))))
    }

    func listSessions(_ input: Operations.ListSessions.Input) async throws -> Operations.ListSessions.Output {
        let caller = try await authenticate()
        let sessions = try await accountUseCases.sessions(caller)
        return .ok(.init(body: .json(.init(sessions: sessions.map { .init($0, currentID: caller.session.id) }))))
    }

    func revokeSession(_ input: Operations.RevokeSession.Input) async throws -> Operations.RevokeSession.Output {
        try await accountUseCases.revokeSession(input.path.sessionId, try await authenticate())
        return .noContent(.init())
    }

    func revokeOtherSessions(
        _ input: Operations.RevokeOtherSessions.Input
    ) async throws -> Operations.RevokeOtherSessions.Output {
        try await accountUseCases.revokeOtherSessions(try await authenticate())
        return .noContent(.init())
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await accountUseCases.changePassword(caller, current: body.currentPassword, new: body.newPassword)
        return .noContent(.init())
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await accountUseCases.deleteAccount(caller, password: body.password)
        return .noContent(.init())
    }
}

extension Components.Schemas.AuthResponse {
    init(_ started: StartedSession) {
        self.init(
            user: .init(started.user), token: started.token, sessionId: started.session.id.text,
            expiresAt: Date(milliseconds: started.session.expiresAt))
    }
}
