import Foundation
import SQLKit

/// What an attempt counts against (the CHECK in migration 0003 lists the same names).
public enum AttemptScope: String, Sendable, CaseIterable {
    /// Failed logins (and wrong current passwords) for one email or phone, known or not.
    case loginAccount = "login_account"
    /// Failed logins from one client address.
    case loginAddress = "login_address"
    /// Registration attempts from one client address.
    case registerAddress = "register_address"
}

/// A sliding-window count of attempts per subject, kept in the database so that limits hold
/// across restarts and app servers (DESIGN §2, §4).
public struct AttemptStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The attempts at or after `since`, and the time of the oldest of them (nil when none).
    public func attempts(_ scope: AttemptScope, subject: String, since: Int64) async throws -> (
        count: Int, oldest: Int64?
    ) {
        try await database.read { sql in
            let row = try await sql.raw(
                """
                SELECT CAST(COUNT(*) AS BIGINT) AS n, MIN(at) AS oldest FROM auth_attempts
                WHERE scope = \(bind: scope.rawValue) AND subject = \(bind: subject) AND at >= \(bind: since)
                """
            ).first()
            let count = try row?.decode(column: "n", as: Int64.self) ?? 0
            return (Int(count), try row?.decode(column: "oldest", as: Int64?.self))
        }
    }

    /// Records one attempt at `now` and forgets this subject's attempts from before `forgetBefore`.
    public func record(_ scope: AttemptScope, subject: String, now: Int64, forgetBefore: Int64) async throws {
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
                VALUES (\(bind: UUID().text), \(bind: scope.rawValue), \(bind: subject), \(bind: now))
                """
            ).run()
        }
    }
}
