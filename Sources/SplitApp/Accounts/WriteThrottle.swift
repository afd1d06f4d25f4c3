import Foundation
import Synchronization

/// Writes per account per minute (issue 14 item 10): a token bucket per user that holds
/// `perMinute` writes and refills at `perMinute` a minute, so a burst of a whole minute's writes
/// goes through at once and then one write every `60 / perMinute` seconds. Past it the write is
/// refused with `AppError.rateLimited` and the wait, before anything runs.
///
/// Counted in each server's memory, not in the database: this is a ceiling against one account
/// flooding a server (10,000 members in 84 s), not a secret to guard like a password, and a
/// database row per write would cost every write a second statement. Behind several servers an
/// account may reach the limit on each of them; logins, which guard secrets, are counted in the
/// database (`RateLimiter`).
public final class WriteThrottle: Sendable {
    /// Writes allowed per account per minute; 0 turns the limit off.
    public let perMinute: Int
    private let now: @Sendable () -> Int64
    private let state = Mutex(State())

    /// Whole numbers only: a write costs 60,000 units and the bucket gains `perMinute` units a
    /// millisecond, so a minute refills exactly `perMinute` writes.
    private struct Bucket {
        var units: Int64
        var at: Int64
    }

    private static let unitsPerWrite: Int64 = 60_000

    private struct State {
        var buckets: [UUID: Bucket] = [:]
        /// The table size that triggers the next sweep: twice what a sweep left, so a sweep that
        /// frees little is not repeated on every write.
        var sweepAt = WriteThrottle.sweepAbove
    }

    /// Buckets full again (idle accounts) are dropped when the table grows past this.
    public static let sweepAbove = 10_000

    /// Accounts with a bucket in memory.
    public var trackedAccounts: Int { state.withLock { $0.buckets.count } }

    public init(perMinute: Int, now: @escaping @Sendable () -> Int64) {
        self.perMinute = perMinute
        self.now = now
    }

    /// Counts one write of `userID`, or refuses it with the seconds until one is free.
    public func spend(_ userID: UUID) throws {
        guard perMinute > 0 else { return }
        let current = now()
        let rate = Int64(perMinute)
        let capacity = rate * Self.unitsPerWrite
        func refilled(_ bucket: Bucket) -> Int64 {
            // Past a minute the bucket is full whatever the gap, and the product cannot overflow.
            min(capacity, bucket.units + min(max(0, current - bucket.at), 60_000) * rate)
        }
        let wait: Int64? = state.withLock { state in
            if state.buckets.count >= state.sweepAt {
                state.buckets = state.buckets.filter { refilled($0.value) < capacity }
                state.sweepAt = max(Self.sweepAbove, 2 * state.buckets.count)
            }
            var bucket = state.buckets[userID].map { Bucket(units: refilled($0), at: current) }
                ?? Bucket(units: capacity, at: current)
            defer { state.buckets[userID] = bucket }
            guard bucket.units >= Self.unitsPerWrite else {
                let milliseconds = (Self.unitsPerWrite - bucket.units + rate - 1) / rate
                return (milliseconds + 999) / 1_000
            }
            bucket.units -= Self.unitsPerWrite
            return nil
        }
        if let wait { throw AppError.rateLimited(retryAfterSeconds: Int(max(1, wait))) }
    }
}
