import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// The write path of webhooks (issue 17): the write that makes an activity line queues a
/// delivery and its job for exactly the group's enabled webhooks that want that kind, in its own
/// transaction.
@Suite("Webhook deliveries queued by writes")
struct WebhookStoreTests {
    struct Fixture {
        let database: Database
        let store: WebhookStore
        let groups: GroupStore
        let group: GroupRecord
        let owner: MemberRecord
        let aki: UserRecord
        var grant: WriteGrant { WriteGrant(memberID: owner.id, actions: [.manageWebhooks]) }

        func webhook(_ kinds: [String]?) async throws -> WebhookRecord {
            let record = WebhookRecord(
                id: UUID(), groupID: group.id, url: "https://example.org/\(UUID())", secret: "whsec_test", kinds: kinds,
                createdByUserID: aki.id, createdAt: 1_000, updatedAt: 1_000)
            guard case .created(let stored) = try await store.create(record, grant: grant) else {
                throw WriteRefusal.forbidden
            }
            return stored
        }

        /// (webhook id, kind) of every delivery, and the jobs waiting.
        func deliveries() async throws -> (deliveries: [String], jobs: Int) {
            let rows = try await database.read { sql in
                try await sql.raw("SELECT webhook_id, kind FROM webhook_deliveries ORDER BY webhook_id").all().map {
                    "\(try $0.decode(column: "webhook_id", as: String.self)) \(try $0.decode(column: "kind", as: String.self))"
                }
            }
            return (rows, try await JobStore(database: database).counts().waiting)
        }
    }

    static func with(_ backend: Database.Backend, _ body: (Fixture) async throws -> Void) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let aki = try await AccountStore(database: database).createUser(
                AccountStoreTests.user(email: "aki@example.com"))
            let groups = GroupStore(database: database)
            let (group, owner) = try await groups.createGroup(
                GroupRecord(
                    id: UUID(), name: "Japan", homeCurrency: "JPY", ownerUserID: aki.id, inviteCode: nil,
                    createdAt: 1_000, updatedAt: 1_000),
                ownerName: "Aki")
            try await body(
                Fixture(
                    database: database, store: WebhookStore(database: database), groups: groups, group: group,
                    owner: owner, aki: aki))
        }
    }

    @Test(
        "a write queues one delivery and one job per enabled webhook that wants its kind", arguments: TestDatabases.all)
    func onlySubscribedAndEnabled(backend: Database.Backend) async throws {
        try await Self.with(backend) { f in
            // setup: four webhooks; one wants member.added, one everything, one expenses only, one
            // everything but is disabled
            let members = try await f.webhook(["member.added", "member.removed"])
            let everything = try await f.webhook(nil)
            _ = try await f.webhook(["expense.created"])
            let disabled = try await f.webhook(nil)
            _ = try await f.store.update(
                disabled.id, groupID: f.group.id, .init(enabled: false, disabledBy: "Aki"), grant: f.grant, by: f.aki.id,
                now: 2_000)
            // act: a member is added, with the owner as actor
            let actor = Actor(userID: f.aki.id, name: "Aki")
            try await f.groups.addMember(
                MemberRecord(
                    id: UUID(), groupID: f.group.id, userID: nil, name: "Bo", role: .member, createdAt: 3_000,
                    updatedAt: 3_000),
                actor: actor)
            // validate
            let (deliveries, jobs) = try await f.deliveries()
            #expect(
                deliveries.sorted()
                    == ["\(members.id.text) member.added", "\(everything.id.text) member.added"].sorted())
            #expect(jobs == 2)
            let queued = try await f.store.deliveries(webhookID: members.id, before: nil, limit: 10)
            #expect(queued.count == 1 && queued[0].state == .pending && queued[0].body == nil)
            #expect(queued[0].activityID != nil && queued[0].attempts == 0)
        }
    }

    @Test("a write that rolls back queues nothing", arguments: TestDatabases.all)
    func nothingOnRollback(backend: Database.Backend) async throws {
        try await Self.with(backend) { f in
            _ = try await f.webhook(nil)
            struct Boom: Error {}
            // act: a logged write that fails after its activity line
            await #expect(throws: Boom.self) {
                try await f.database.transaction { sql in
                    let log = try #require(try await GroupLog.begin(sql, groupID: f.group.id, now: 5_000))
                    try await log.activity(
                        Actor(userID: f.aki.id, name: "Aki"), "expense.created", .expense, UUID(),
                        ActivityEvent(subject: "Ramen"), sql)
                    throw Boom()
                }
            }
            // validate
            let (deliveries, jobs) = try await f.deliveries()
            #expect(deliveries.isEmpty && jobs == 0)
        }
    }

    @Test("kinds match exactly: an underscore in a kind is not a wildcard", arguments: TestDatabases.all)
    func exactKinds(backend: Database.Backend) async throws {
        try await Self.with(backend) { f in
            let paid = try await f.webhook(["share.marked_paid"])
            try await f.database.transaction { sql in
                let log = try #require(try await GroupLog.begin(sql, groupID: f.group.id, now: 5_000))
                // Same length, another letter where the underscore is.
                try await log.activity(nil, "share.markedXpaid", .expense, UUID(), ActivityEvent(), sql)
                try await log.activity(nil, "share.marked_unpaid", .expense, UUID(), ActivityEvent(), sql)
                try await log.activity(nil, "share.marked_paid", .expense, UUID(), ActivityEvent(), sql)
            }
            #expect(try await f.deliveries().deliveries == ["\(paid.id.text) share.marked_paid"])
        }
    }

    @Test("at most ten webhooks a group; a deleted one frees its place and keeps its log", arguments: TestDatabases.all)
    func limitAndDelete(backend: Database.Backend) async throws {
        try await Self.with(backend) { f in
            var made: [WebhookRecord] = []
            for _ in 0..<WebhookKinds.perGroup { made.append(try await f.webhook(nil)) }
            let record = WebhookRecord(
                id: UUID(), groupID: f.group.id, url: "https://example.org/x", secret: "s", kinds: nil,
                createdByUserID: f.aki.id, createdAt: 1, updatedAt: 1)
            #expect(try await f.store.create(record, grant: f.grant) == .full)
            #expect(try await f.store.delete(made[0].id, groupID: f.group.id, grant: f.grant, now: 9_000))
            #expect(try await f.store.webhook(made[0].id, groupID: f.group.id) == nil)
            #expect(try await f.store.webhooks(groupID: f.group.id).count == WebhookKinds.perGroup - 1)
            #expect(try await f.store.create(record, grant: f.grant) == .created(record))
            // A member who is not an admin is refused under the lock as well.
            let bo = MemberRecord(
                id: UUID(), groupID: f.group.id, userID: nil, name: "Bo", role: .member, createdAt: 1, updatedAt: 1)
            try await f.groups.addMember(bo)
            await #expect(throws: WriteRefusal.forbidden) {
                try await f.store.delete(
                    record.id, groupID: f.group.id, grant: WriteGrant(memberID: bo.id, actions: [.manageWebhooks]),
                    now: 9_500)
            }
        }
    }
}
