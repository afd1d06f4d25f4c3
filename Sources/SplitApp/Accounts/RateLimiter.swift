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
        throw Self.refusal(times, counted: times.count - 1, rule, now: current)
    }

    /// Reserves an attempt under each rule in turn; when one refuses, the ones already reserved
    /// are taken back, so a refused request counts nowhere.
    public func reserve(_ each: [(rule: Rule, subject: String)]) async throws -> [Reservation] {
        var reserved: [Reservation] = []
        for (rule, subject) in each {
            do {
                reserved.append(try await reserve(rule, subject: subject))
            } catch {
                for reservation in reserved { try? await release(reservation) }
                throw error
            }
        }
        return reserved
    }

    /// Refuses, without counting anything, when the subject has used up the rule's window:
    /// for limits on what succeeded (`record` counts those afterwards).
    public func check(_ rule: Rule, subject: String) async throws {
        let window = Int64(rule.windowSeconds) * 1_000
        let current = now()
        let times = try await attempts.attemptTimes(rule.scope, subject: subject, since: current - window)
        guard times.count >= rule.limit else { return }
        throw Self.refusal(times, counted: times.count, rule, now: current)
    }

    /// The refusal once `counted` earlier attempts (in `times`, oldest first) fill the window,
    /// with the wait until fewer than `limit` remain inside it.
    private static func refusal(_ times: [Int64], counted: Int, _ rule: Rule, now current: Int64) -> AppError {
        let freeing = times[min(max(counted - rule.limit, 0), times.count - 1)]
        let window = Int64(rule.windowSeconds) * 1_000
        return .rateLimited(retryAfterSeconds: Int((freeing + window - current + 999) / 1_000))
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

    public func release(_ reservations: [Reservation]) async throws {
        for reservation in reservations { try await release(reservation) }
    }

    /// Subjects are stored hashed: typed text (emails, phone numbers, addresses) stays out of
    /// the table, and any input, however long or strange, is a fixed-size key.
    public static func subject(_ text: String) -> String { SessionToken.hash(text) }
}
