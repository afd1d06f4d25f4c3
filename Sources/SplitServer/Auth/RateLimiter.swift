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

    /// Throws a 429 when the subject is at its limit; the wait is until the oldest attempt in
    /// the window leaves it.
    func check(_ rule: Rule, subject: String) async throws {
        let window = Int64(rule.windowSeconds) * 1_000
        let current = now()
        let (count, oldest) = try await attempts.attempts(rule.scope, subject: subject, since: current - window)
        guard count >= rule.limit else { return }
        let waitMilliseconds = (oldest ?? current) + window - current
        throw APIError.rateLimited(retryAfterSeconds: Int((waitMilliseconds + 999) / 1_000))
    }

    func record(_ rule: Rule, subject: String) async throws {
        let current = now()
        try await attempts.record(
            rule.scope, subject: subject, now: current, forgetBefore: current - Int64(rule.windowSeconds) * 1_000)
    }
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
