import Foundation
import SplitStore
import SplitTestSupport
import Testing

@Suite("Accounts and sessions in the store")
struct AccountStoreTests {
    static let day: Int64 = 86_400_000

    static func user(email: String? = "aki@example.com", phone: String? = nil) -> UserRecord {
        UserRecord(
            id: UUID(), email: email, phone: phone, displayName: "Aki", passwordHash: "hash", createdAt: 1_000,
            updatedAt: 1_000)
    }

    static func session(for user: UserRecord, token: String, expiresAt: Int64 = 30 * day) -> SessionRecord {
        SessionRecord(
            id: UUID(), userID: user.id, tokenHash: token, deviceName: "phone", createdAt: 1_000, lastUsedAt: 1_000,
            expiresAt: expiresAt)
    }

    /// Migrated database and its account store.
    static func withStore(_ backend: Database.Backend, _ body: (AccountStore) async throws -> Void) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            try await body(AccountStore(database: database))
        }
    }

    @Test("a user is found by id, email and phone, exactly as stored", arguments: TestDatabases.all)
    func roundTrip(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            // setup
            let created = try await store.createUser(Self.user(phone: "+60123456789"))
            // act, validate
            #expect(try await store.user(id: created.id) == created)
            #expect(try await store.user(email: "aki@example.com") == created)
            #expect(try await store.user(phone: "+60123456789") == created)
            #expect(try await store.user(email: "ben@example.com") == nil)
            #expect(try await store.user(id: UUID()) == nil)
        }
    }

    @Test("a taken email or phone is a conflict naming the field", arguments: TestDatabases.all)
    func conflicts(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            _ = try await store.createUser(Self.user(email: "aki@example.com", phone: "+60123456789"))
            await #expect(throws: StoreError.conflict(field: "email")) {
                try await store.createUser(Self.user(email: "aki@example.com"))
            }
            await #expect(throws: StoreError.conflict(field: "phone")) {
                try await store.createUser(Self.user(email: "other@example.com", phone: "+60123456789"))
            }
        }
    }

    @Test("twenty concurrent registrations of one email: one account, nineteen conflicts", arguments: TestDatabases.all)
    func registrationRace(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await store.createUser(Self.user(email: "race@example.com"))
                            return "created"
                        } catch let error as StoreError {
                            return error == .conflict(field: "email") ? "conflict" : "other: \(error)"
                        } catch {
                            return "other: \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "created" }.count == 1)
            #expect(outcomes.filter { $0 == "conflict" }.count == 19)
        }
    }

    @Test("a session works until it expires or is revoked, and records its last use", arguments: TestDatabases.all)
    func sessions(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            let user = try await store.createUser(Self.user())
            let session = Self.session(for: user, token: "t1", expiresAt: 10 * Self.day)
            try await store.createSession(session)

            let found = try #require(try await store.authenticate(tokenHash: "t1", now: 5 * Self.day))
            #expect(found.0.id == session.id && found.1 == user)
            #expect(found.0.lastUsedAt == 5 * Self.day)
            #expect(
                try await store.activeSessions(userID: user.id, now: 5 * Self.day).first?.lastUsedAt == 5 * Self.day)
            #expect(try await store.authenticate(tokenHash: "t1", now: 10 * Self.day) == nil)  // expired
            #expect(try await store.authenticate(tokenHash: "unknown", now: 1 * Self.day) == nil)

            #expect(try await store.revokeSession(id: session.id, userID: user.id, now: 6 * Self.day))
            #expect(try await store.authenticate(tokenHash: "t1", now: 6 * Self.day) == nil)
            #expect(try await store.revokeSession(id: session.id, userID: user.id, now: 7 * Self.day) == false)
        }
    }

    @Test("another user's session id cannot be revoked", arguments: TestDatabases.all)
    func foreignSession(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            let aki = try await store.createUser(Self.user(email: "aki@example.com"))
            let ben = try await store.createUser(Self.user(email: "ben@example.com"))
            let akisSession = Self.session(for: aki, token: "aki-token")
            try await store.createSession(akisSession)
            #expect(try await store.revokeSession(id: akisSession.id, userID: ben.id, now: 2_000) == false)
            #expect(try await store.authenticate(tokenHash: "aki-token", now: 2_000) != nil)
        }
    }

    @Test("past the cap, a login ends the session used longest ago, not the one made first", arguments: TestDatabases.all)
    func capEndsLeastUsed(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            let user = try await store.createUser(Self.user())
            func made(_ token: String, at time: Int64) async throws -> SessionRecord {
                var session = Self.session(for: user, token: token)
                session.createdAt = time
                session.lastUsedAt = time
                try await store.createSession(session, keepingAtMost: 3)
                return session
            }
            // setup: the phone signed in first and is used daily; the laptop and tablet not since
            let phone = try await made("phone", at: 1_000)
            let laptop = try await made("laptop", at: 2_000)
            _ = try await made("tablet", at: 3_000)
            #expect(try await store.authenticate(tokenHash: "phone", now: 10 * 60_000) != nil)
            // act: a fourth login
            _ = try await made("desk", at: 11 * 60_000)
            // validate: the laptop went; the phone stays
            let live = try await store.activeSessions(userID: user.id, now: 11 * 60_000).map(\.id)
            #expect(live.contains(phone.id) && !live.contains(laptop.id) && live.count == 3)
        }
    }

    @Test("a password change revokes the other sessions; deactivation stops all at once", arguments: TestDatabases.all)
    func revokeAll(backend: Database.Backend) async throws {
        try await Self.withStore(backend) { store in
            let user = try await store.createUser(Self.user())
            let current = Self.session(for: user, token: "current")
            try await store.createSession(current)
            try await store.createSession(Self.session(for: user, token: "laptop"))
            try await store.createSession(Self.session(for: user, token: "tablet"))

            try await store.revokeOtherSessions(userID: user.id, except: current.id, now: 2_000)
            #expect(try await store.activeSessions(userID: user.id, now: 2_000).map(\.id) == [current.id])

            try await store.deactivate(userID: user.id, now: 3_000)
            #expect(try await store.authenticate(tokenHash: "current", now: 3_000) == nil)
            #expect(try await store.activeSessions(userID: user.id, now: 3_000).isEmpty)
            #expect(try await store.user(id: user.id)?.isActive == false)
        }
    }
}

@Suite("Login attempts")
struct AttemptStoreTests {
    @Test(
        "attempts are counted per scope and subject inside the window, old ones forgotten", arguments: TestDatabases.all
    )
    func window(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            // setup
            try await Migrations.run(on: database)
            let store = AttemptStore(database: database)
            for at: Int64 in [1_000, 2_000, 3_000] {
                try await store.record(.loginAccount, subject: "aki@example.com", now: at, forgetBefore: 0)
            }
            try await store.record(.loginAddress, subject: "aki@example.com", now: 3_000, forgetBefore: 0)
            // validate
            #expect(
                try await store.attemptTimes(.loginAccount, subject: "aki@example.com", since: 2_000) == [2_000, 3_000])
            #expect(try await store.attemptTimes(.loginAccount, subject: "ben@example.com", since: 0).isEmpty)
            // act: a new attempt forgets those before 2,500; one is taken back; old ones are pruned
            let latest = try await store.record(
                .loginAccount, subject: "aki@example.com", now: 4_000, forgetBefore: 2_500)
            #expect(
                try await store.attemptTimes(.loginAccount, subject: "aki@example.com", since: 0) == [3_000, 4_000])
            try await store.forget(id: latest)
            #expect(try await store.attemptTimes(.loginAccount, subject: "aki@example.com", since: 0) == [3_000])
            try await store.prune(before: 3_500)
            #expect(try await store.attemptTimes(.loginAddress, subject: "aki@example.com", since: 0).isEmpty)
        }
    }
}
