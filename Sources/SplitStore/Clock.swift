import Foundation

/// Timestamps are stored in one canonical form on both databases: UTC epoch milliseconds.
public enum Clock {
    public static func milliseconds(_ date: Date = Date()) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
    }
}
