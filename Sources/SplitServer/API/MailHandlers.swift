import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Notification mail settings and email verification (issue 17, issue 14): wire in, one
/// `MailUseCases` call, wire out.
extension APIHandler {
    func getEmailSettings(_ input: Operations.GetEmailSettings.Input) async throws -> Operations.GetEmailSettings.Output {
        let caller = try await authenticate()
        return .ok(.init(body: .json(.init(try await mailUseCases.settings(caller: caller)))))
    }

    func putEmailSettings(_ input: Operations.PutEmailSettings.Input) async throws -> Operations.PutEmailSettings.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let settings = try await mailUseCases.update(
            mode: body.mode?.rawValue, off: body.off?.map(\.rawValue), digestHour: body.digestHour, caller: caller)
        return .ok(.init(body: .json(.init(settings))))
    }

    func requestEmailVerification(_ input: Operations.RequestEmailVerification.Input) async throws
        -> Operations.RequestEmailVerification.Output
    {
        try await mailUseCases.requestVerification(caller: try await authenticate())
        return .accepted(.init())
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await mailUseCases.verify(token: body.token)
        return .noContent(.init())
    }
}

extension Components.Schemas.EmailSettings {
    init(_ settings: MailSettingsView) {
        self.init(
            email: settings.email, verified: settings.verified, sending: settings.sending,
            mode: .init(rawValue: settings.mode.rawValue) ?? .each,
            off: MailCategory.allCases.filter(settings.off.contains).compactMap { .init(rawValue: $0.rawValue) },
            digestHour: settings.digestHour)
    }
}

/// "Forgot my password" (issue 14 item 18): a mailed link that sets a new password.
extension APIHandler {
    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws
        -> Operations.RequestPasswordReset.Output
    {
        let request = try request
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await accountUseCases.requestPasswordReset(email: body.email, origin: request.origin)
        return .accepted(.init())
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        try await accountUseCases.resetPassword(token: body.token, newPassword: body.newPassword)
        return .noContent(.init())
    }
}
