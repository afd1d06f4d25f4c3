import Foundation
import SplitStore

/// Sliding-window limits over `AttemptStore` (DESIGN §4): `AppError.rateLimited` with the wait
/// once a subject has `limit` attempts inside the window.
public struct RateLimiter: Sendable {
    public struct Rule: Sendable {
        public var scope: AttemptScope
        public var limit: Int
        public var windowSeconds: Int

        public init(scope: AttemptScope, limit: Int, windowSeconds: Int) {
            self.scope = scope
            self.limit = limit
            self.windowSeconds = windowSeconds
        }
    }

    let attempts: AttemptStore
    let now: @Sendable () -> Int64

    public init(attempts: AttemptStore, now: @escaping @Sendable () -> Int64) {
        self.attempts = attempts
        self.now = now
    }

    /// An attempt counted before the work it limits, so that requests arriving together see
    /// each other: the k-th concurrent request counts at least k attempts, so no more than
    /// `limit` get through however many arrive at once.
    public struct Reservation: Sendable {
        let id: UUID
    }

    /// Records an attempt for the subject, then counts; over the limit, the attempt is taken
    /// back (refused attempts do not extend the lock) and the refusal says when to come back.
    public func reserve(_ rule: Rule, subject: String) async throws -> Reservation {
        let window = Int64(rule.windowSeconds) * 1_000
        let current = now()
        let id = try await attempts.record(rule.scope, subject: subject, now: current, forgetBefore: current - window)
        let times = try await attempts.attemptTimes(rule.scope, subject: subject, since: current - window)
        guard times.count > rule.limit else { return Reservation(id: id) }
        try await attempts.forget(id: id)
        // The wait until fewer than `limit` attempts remain inside the window.
        let others = times.count - 1
        let freeing = times[min(max(others - rule.limit, 0), times.count - 1)]
        throw AppError.rateLimited(retryAfterSeconds: Int((freeing + window - current + 999) / 1_000))
    }

    /// Refuses, without counting anything, when the subject has used up the rule's window:
    /// for limits on what succeeded (`record` counts those afterwards).
    public func check(_ rule: Rule, subject: String) async throws {
        let window = Int64(rule.windowSeconds) * 1_000
        let current = now()
        let times = try await attempts.attemptTimes(rule.scope, subject: subject, since: current - window)
        guard times.count >= rule.limit else { return }
        let freeing = times[times.count - rule.limit]
        throw AppError.rateLimited(retryAfterSeconds: Int((freeing + window - current + 999) / 1_000))
    }

    /// Counts one attempt that already happened.
    public func record(_ rule: Rule, subject: String) async throws {
        let current = now()
        try await attempts.record(
            rule.scope, subject: subject, now: current, forgetBefore: current - Int64(rule.windowSeconds) * 1_000)
    }

    /// Takes back a reserved attempt that turned out not to count (a right password).
    public func release(_ reservation: Reservation) async throws {
        try await attempts.forget(id: reservation.id)
    }

    /// Subjects are stored hashed: typed text (emails, phone numbers, addresses) stays out of
    /// the table, and any input, however long or strange, is a fixed-size key.
    public static func subject(_ text: String) -> String { SessionToken.hash(text) }
}
