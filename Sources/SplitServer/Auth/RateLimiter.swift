import Foundation
import SplitApp
import SplitStore

/// Sliding-window limits over `AttemptStore` (DESIGN §4): a 429 with `Retry-After` once a
/// subject has `limit` attempts inside the window.
struct RateLimiter: Sendable {
    struct Rule: Sendable {
        var scope: AttemptScope
        var limit: Int
        var windowSeconds: Int
    }

    let attempts: AttemptStore
    let now: @Sendable () -> Int64

    /// An attempt counted before the work it limits, so that requests arriving together see
    /// each other: the k-th concurrent request counts at least k attempts, so no more than
    /// `limit` get through however many arrive at once.
    struct Reservation: Sendable {
        let id: UUID
    }

    /// Records an attempt for the subject, then counts; over the limit, the attempt is taken
    /// back (refused attempts do not extend the lock) and a 429 says when to come back.
    func reserve(_ rule: Rule, subject: String) async throws -> Reservation {
        let window = Int64(rule.windowSeconds) * 1_000
        let current = now()
        let id = try await attempts.record(rule.scope, subject: subject, now: current, forgetBefore: current - window)
        let times = try await attempts.attemptTimes(rule.scope, subject: subject, since: current - window)
        guard times.count > rule.limit else { return Reservation(id: id) }
        try await attempts.forget(id: id)
        // The wait until fewer than `limit` attempts remain inside the window.
        let others = times.count - 1
        let freeing = times[min(max(others - rule.limit, 0), times.count - 1)]
        throw APIError.rateLimited(retryAfterSeconds: Int((freeing + window - current + 999) / 1_000))
    }

    /// Takes back a reserved attempt that turned out not to count (a right password).
    func release(_ reservation: Reservation) async throws {
        try await attempts.forget(id: reservation.id)
    }

    /// Subjects are stored hashed: typed text (emails, phone numbers, addresses) stays out of
    /// the table, and any input, however long or strange, is a fixed-size key.
    static func subject(_ text: String) -> String { SessionToken.hash(text) }
}

extension ServerConfiguration.Limits {
    var loginAccount: RateLimiter.Rule {
        .init(scope: .loginAccount, limit: failedLoginsPerAccount, windowSeconds: loginWindowSeconds)
    }
    var loginAddress: RateLimiter.Rule {
        .init(scope: .loginAddress, limit: failedLoginsPerAddress, windowSeconds: loginWindowSeconds)
    }
    var registerAddress: RateLimiter.Rule {
        .init(scope: .registerAddress, limit: registrationsPerAddress, windowSeconds: registrationWindowSeconds)
    }
}
