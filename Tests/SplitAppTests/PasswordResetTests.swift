import Foundation
import SplitApp
import SplitStore
import SplitTestSupport
import Testing

/// A password hasher that counts its hashes (bcrypt's cost is what a flood of requests would buy).
actor CountingHasher: PasswordHashing {
    private(set) var hashes = 0

    func hash(_ password: String) async throws -> String {
        hashes += 1
        return "counted:" + password
    }

    func verify(_ password: String, against hash: String) async throws -> Bool { hash == "counted:" + password }

    nonisolated func unmatchableHash() -> String { "unmatchable" }
}

@Suite("Password reset links")
struct PasswordResetTests {
    @Test("a made-up or used link is refused before the new password is hashed", arguments: TestDatabases.all)
    func linkBeforeHash(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let hasher = CountingHasher()
            let rule = RateLimiter.Rule(scope: .loginAccount, limit: 1_000, windowSeconds: 60)
            let accounts = try await AccountUseCases(
                database: database, passwords: hasher,
                limits: AccountLimits(
                    loginAccountAddress: rule, loginAccount: rule, loginAddress: rule, loginSuccess: rule,
                    passwordChange: rule, registerAddress: rule, resetAddress: rule, sessionsPerUser: 10),
                allowRegistration: true, now: { milliseconds() })
            let atStart = await hasher.hashes
            let password = "violet mango tram 42"
            for made in ["", "made-up", String(repeating: "x", count: 64)] {
                await #expect(throws: AppError.self) { try await accounts.resetPassword(token: made, newPassword: password) }
            }
            #expect(await hasher.hashes == atStart)

            // A real link: one hash, the new password set; the same link again: refused, no hash.
            let now = milliseconds()
            let user = try await AccountStore(database: database).createUser(
                UserRecord(
                    id: UUID(), email: "reset-\(UUID())@example.com", phone: nil, displayName: "Ria",
                    passwordHash: "old", createdAt: now, updatedAt: now))
            let token = "link-\(UUID())"
            try await MailStore(database: database).addToken(
                hash: MailUseCases.hash(token), purpose: .reset, userID: user.id, email: user.email ?? "",
                expiresAt: now + 60_000, now: now)
            // A second link asked for meanwhile: the reset by the first closes it too.
            let second = "link-\(UUID())"
            try await MailStore(database: database).addToken(
                hash: MailUseCases.hash(second), purpose: .reset, userID: user.id, email: user.email ?? "",
                expiresAt: now + 60_000, now: now)
            try await accounts.resetPassword(token: token, newPassword: password)
            #expect(await hasher.hashes == atStart + 1)
            await #expect(throws: AppError.self) { try await accounts.resetPassword(token: token, newPassword: password) }
            await #expect(throws: AppError.self) { try await accounts.resetPassword(token: second, newPassword: password) }
            #expect(await hasher.hashes == atStart + 1)

            // A link asked for before a password change no longer works after it (found by a new
            // user: it set a password after the owner had changed it).
            let third = "link-\(UUID())"
            try await MailStore(database: database).addToken(
                hash: MailUseCases.hash(third), purpose: .reset, userID: user.id, email: user.email ?? "",
                expiresAt: now + 60_000, now: now)
            try await AccountStore(database: database).changePassword(
                userID: user.id, passwordHash: "counted:changed", keepSession: nil, now: now)
            await #expect(throws: AppError.self) { try await accounts.resetPassword(token: third, newPassword: password) }
        }
    }

    @Test(
        "a profile change based on an account changed meanwhile writes nothing (two tabs: the name one must not undo the email one)",
        arguments: TestDatabases.all)
    func staleProfileChange(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let store = AccountStore(database: database)
            let now = milliseconds()
            let user = try await store.createUser(
                UserRecord(
                    id: UUID(), email: "ria@example.com", phone: nil, displayName: "Ria", passwordHash: "x",
                    createdAt: now, updatedAt: now))
            // Both tabs read version 1; the email change lands first.
            let moved = try await store.updateProfile(
                userID: user.id, version: 1, displayName: "Ria", email: "ria@example.org", phone: nil, now: now)
            #expect(moved?.user.email == "ria@example.org" && moved?.user.version == 2)
            await #expect(throws: StoreError.stale) {
                _ = try await store.updateProfile(
                    userID: user.id, version: 1, displayName: "Ria T", email: "ria@example.com", phone: nil, now: now)
            }
            let stored = try await store.user(id: user.id)
            #expect(stored?.email == "ria@example.org" && stored?.displayName == "Ria")
        }
    }
}
