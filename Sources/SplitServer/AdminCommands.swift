import Foundation
import Logging
import SplitApp
import SplitStore

/// What the server's operator runs beside the server, on the same database and configuration:
/// `splitter-server delete-account EMAIL` deletes an account the way its owner would (issue 14
/// item 17: a person who cannot log in any more asks the operator), without the password.
public enum AdminCommands {
    /// Deletes the account with this email; throws `AppError` (not found, owns shared groups).
    public static func deleteAccount(email: String, configuration: ServerConfiguration) async throws {
        var logger = Logger(label: "splitter-server")
        logger.logLevel = .warning
        let database = try await Database.open(configuration.database, logger: logger)
        do {
            try await Migrations.run(on: database)
            let now: @Sendable () -> Int64 = { Clock.milliseconds() }
            let accounts = try await AccountUseCases(
                database: database, passwords: PasswordHasher(cost: configuration.bcryptCost),
                limits: configuration.limits.accounts, allowRegistration: configuration.allowRegistration, now: now)
            try await accounts.deleteAccount(email: email)
        } catch {
            try? await database.close()
            throw error
        }
        try await database.close()
    }

    /// An `AppError` as one line for the terminal.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case AppError.notFound: "no active account has that email"
        case AppError.conflict(_, _, let message): message
        default: "\(error)"
        }
    }
}
