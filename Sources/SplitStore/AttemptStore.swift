import Foundation
import SQLKit
import SplitCore

/// What an attempt counts against (the CHECK in migration 0020 lists the same names).
public enum AttemptScope: String, Sendable, CaseIterable {
    /// Failed logins for one account (or email or phone typed), from every address.
    case loginAccount = "login_account"
    /// Failed logins for one account from one client address.
    case loginAccountAddress = "login_account_address"
    /// Failed logins from one client address, whatever the account.
    case loginAddress = "login_address"
    /// Successful logins of one account (each costs a bcrypt).
    case loginSuccess = "login_success"
    /// Wrong current passwords in one session's password changes.
    case passwordChange = "password_change"
    /// Registration attempts from one client address.
    case registerAddress = "register_address"
    /// Failed invite-code joins from one client address.
    case joinAddress = "join_address"
    /// Password-reset requests from one client address.
    case resetAddress = "reset_address"
}

/// A sliding-window count of attempts per subject, kept in the database so that limits hold
/// across restarts and app servers (DESIGN §2, §4).
public struct AttemptStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The times of the attempts at or after `since`, oldest first.
    public func attemptTimes(_ scope: AttemptScope, subject: String, since: Int64) async throws -> [Int64] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT at FROM auth_attempts
                WHERE scope = \(bind: scope.rawValue) AND subject = \(bind: subject) AND at >= \(bind: since)
                ORDER BY at, id
                """
            ).all().map { try $0.decode(column: "at", as: Int64.self) }
        }
    }

    /// Records one attempt at `now` (committed before this returns, so concurrent requests see
    /// each other) and forgets this subject's attempts from before `forgetBefore`.
    /// - Returns: the attempt's id, for `forget(id:)`.
    @discardableResult
    public func record(_ scope: AttemptScope, subject: String, now: Int64, forgetBefore: Int64) async throws -> UUID {
        let id = UUID.random()
        try await database.transaction { sql in
            try await sql.raw(
                """
                DELETE FROM auth_attempts
                WHERE scope = \(bind: scope.rawValue) AND subject = \(bind: subject) AND at < \(bind: forgetBefore)
                """
            ).run()
            try await sql.raw(
                """
                INSERT INTO auth_attempts (id, scope, subject, at)
                VALUES (\(bind: id.text), \(bind: scope.rawValue), \(bind: subject), \(bind: now))
                """
            ).run()
        }
        return id
    }

    /// Removes one attempt (a login that turned out right does not count as a failure).
    public func forget(id: UUID) async throws {
        try await database.transaction {
            try await $0.raw("DELETE FROM auth_attempts WHERE id = \(bind: id.text)").run()
        }
    }

    /// Removes every attempt older than `before`, for subjects that never came back.
    public func prune(before: Int64) async throws {
        try await database.transaction {
            try await $0.raw("DELETE FROM auth_attempts WHERE at < \(bind: before)").run()
        }
    }
}
