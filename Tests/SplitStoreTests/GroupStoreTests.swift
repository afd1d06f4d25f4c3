import Foundation
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

@Suite("Groups and members in the store")
struct GroupStoreTests {
    /// A migrated database with two users; Aki owns a group "Japan 2026" with invite code "CODE1".
    struct Fixture {
        let accounts: AccountStore
        let groups: GroupStore
        let aki: UserRecord
        let ben: UserRecord
        let group: GroupRecord
        let owner: MemberRecord

        /// Adds a friend without an account to the group.
        func addNameOnly(_ name: String, at time: Int64) async throws -> MemberRecord {
            let member = MemberRecord(
                id: UUID(), groupID: group.id, userID: nil, name: name, role: .member, createdAt: time,
                updatedAt: time)
            try await groups.addMember(member)
            return member
        }
    }

    static func withFixture(_ backend: Database.Backend, _ body: (Fixture) async throws -> Void) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let accounts = AccountStore(database: database)
            let groups = GroupStore(database: database)
            let aki = try await accounts.createUser(AccountStoreTests.user(email: "aki@example.com"))
            let ben = try await accounts.createUser(AccountStoreTests.user(email: "ben@example.com"))
            let (group, owner) = try await groups.createGroup(
                GroupRecord(
                    id: UUID(), name: "Japan 2026", homeCurrency: "JPY", ownerUserID: aki.id, inviteCode: "CODE1",
                    createdAt: 1_000, updatedAt: 1_000),
                ownerName: "Aki")
            try await body(Fixture(accounts: accounts, groups: groups, aki: aki, ben: ben, group: group, owner: owner))
        }
    }

    @Test(
        "the creator is the owner and first member; the group is listed for members only", arguments: TestDatabases.all)
    func create(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            #expect(try await f.groups.group(id: f.group.id) == f.group)
            #expect(try await f.groups.members(groupID: f.group.id) == [f.owner])
            #expect(f.owner.role == .owner && f.owner.userID == f.aki.id)
            #expect(try await f.groups.groups(ofUser: f.aki.id).map(\.group.id) == [f.group.id])
            #expect(try await f.groups.groups(ofUser: f.aki.id).map(\.member) == [f.owner])
            #expect(try await f.groups.groups(ofUser: f.ben.id).isEmpty)
            #expect(try await f.groups.membership(groupID: f.group.id, userID: f.ben.id) == nil)
        }
    }

    @Test("joining by code adds a member once; joining again returns the same member", arguments: TestDatabases.all)
    func join(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            let (group, member) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000).joined)
            #expect(group.id == f.group.id && member.role == .member && member.userID == f.ben.id)
            let again = try await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 3_000)
            #expect(again.joined?.member == member)
            await #expect(throws: GroupStoreError.notFound) {
                try await f.groups.join(
                    inviteCode: "WRONG", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000)
            }
        }
    }

    @Test("concurrent joins with one code: one member per user, no errors", arguments: TestDatabases.all)
    func concurrentJoins(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            var users: [UserRecord] = []
            for index in 0..<5 {
                users.append(try await f.accounts.createUser(AccountStoreTests.user(email: "u\(index)@example.com")))
            }
            let joiners = users + users  // each user joins twice at once
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in joiners {
                    group.addTask {
                        _ = try await f.groups.join(
                            inviteCode: "CODE1", userID: user.id, name: user.id.uuidString, claimMemberID: nil, now: 2_000)
                    }
                }
                try await group.waitForAll()
            }
            let members = try await f.groups.members(groupID: f.group.id)
            #expect(members.count == 1 + users.count)
            #expect(Set(members.compactMap(\.userID)).count == members.count)
        }
    }

    @Test(
        "claiming a name-only member links it; a second claim of the same member is refused",
        arguments: TestDatabases.all)
    func claim(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            let cho = try await f.addNameOnly("Cho", at: 1_500)
            let (_, claimed) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: cho.id, now: 2_000).joined)
            #expect(claimed.id == cho.id && claimed.userID == f.ben.id && claimed.version == 2)
            let dan = try await f.accounts.createUser(AccountStoreTests.user(email: "dan@example.com"))
            await #expect(throws: GroupStoreError.memberAlreadyClaimed) {
                try await f.groups.join(
                    inviteCode: "CODE1", userID: dan.id, name: "Dan", claimMemberID: cho.id, now: 2_000)
            }
            await #expect(throws: GroupStoreError.notFound) {
                try await f.groups.join(
                    inviteCode: "CODE1", userID: dan.id, name: "Dan", claimMemberID: UUID(), now: 2_000)
            }
        }
    }

    @Test(
        "the group with every member in one read: removed and name-only ones too, as `members` lists them",
        arguments: TestDatabases.all)
    func groupWithMembers(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            _ = try await f.addNameOnly("Cho", at: 1_500)
            var (_, ben) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000).joined)
            ben.isActive = false
            _ = try await f.groups.updateMember(ben, now: 3_000)
            let (group, members) = try #require(await f.groups.groupWithMembers(groupID: f.group.id))
            #expect(try await group == #require(f.groups.group(id: f.group.id)))
            #expect(try await members == f.groups.members(groupID: f.group.id))
            #expect(members.map(\.name) == ["Aki", "Ben", "Cho"] && members.map(\.isActive) == [true, false, true])
            #expect(try await f.groups.groupWithMembers(groupID: UUID()) == nil)
        }
    }

    @Test(
        "a removed member keeps their name and loses access; rejoining by code brings the same member back",
        arguments: TestDatabases.all)
    func removal(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            var (_, ben) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000).joined)
            ben.isActive = false
            guard case .written(let stored) = try await f.groups.updateMember(ben, now: 3_000) else {
                Issue.record("removal was not written")
                return
            }
            #expect(stored.isActive == false && stored.version == ben.version + 1)
            #expect(try await f.groups.members(groupID: f.group.id).map(\.name).contains("Ben"))
            #expect(try await f.groups.groups(ofUser: f.ben.id).isEmpty)
            #expect(Permissions.decide(.read, for: stored.membership) == .notFound)
            // Issue 15: a removed member with the code rejoins as themself (shares and balance kept).
            let back = try #require(
                await f.groups.join(inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 4_000)
                    .joined)
            #expect(back.member.id == ben.id && back.member.isActive && back.member.version == stored.version + 1)
        }
    }

    @Test("an edit based on an old version writes nothing and returns the current row", arguments: TestDatabases.all)
    func staleVersions(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            // act: two edits based on version 1
            let first = try await f.groups.updateGroup(
                id: f.group.id, name: "Kyoto", description: "", homeCurrency: "JPY", timeZone: "UTC", expectedVersion: 1, now: 2_000)
            let second = try await f.groups.updateGroup(
                id: f.group.id, name: "Osaka", description: "", homeCurrency: "JPY", timeZone: "UTC", expectedVersion: 1, now: 3_000)
            // validate
            guard case .written(let written) = first, case .stale(let current) = second else {
                Issue.record(
                    "expected one write and one stale answer, got \(String(describing: first)), \(String(describing: second))"
                )
                return
            }
            #expect(written.name == "Kyoto" && written.version == 2)
            #expect(current == written)
            #expect(try await f.groups.group(id: f.group.id)?.name == "Kyoto")
            var renamed = f.owner
            renamed.name = "Aki-san"
            guard case .stale(let member) = try await f.groups.updateMember(renamed, expectedVersion: 7, now: 4_000)
            else {
                Issue.record("a stale member edit was written")
                return
            }
            #expect(member == f.owner)
            let archived = try #require(try await f.groups.setArchived(groupID: f.group.id, true, now: 5_000))
            #expect(archived.isArchived && archived.version == 3)
        }
    }

    @Test("a member of another group cannot be updated through this one", arguments: TestDatabases.all)
    func foreignMember(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            var foreign = f.owner
            foreign.groupID = UUID()
            foreign.name = "Hijacked"
            #expect(try await f.groups.updateMember(foreign, now: 2_000) == nil)
            #expect(try await f.groups.member(id: f.owner.id, groupID: foreign.groupID) == nil)
            #expect(try await f.groups.members(groupID: f.group.id).first?.name == "Aki")
        }
    }

    @Test(
        "ownership moves in one step; a name-only member cannot own; a disabled code stops joins",
        arguments: TestDatabases.all)
    func ownershipAndCodes(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            let (_, ben) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000).joined)
            let cho = MemberRecord(
                id: UUID(), groupID: f.group.id, userID: nil, name: "Cho", role: .member, createdAt: 2_000,
                updatedAt: 2_000)
            try await f.groups.addMember(cho)
            await #expect(throws: GroupStoreError.ownerMustHaveAccount) {
                try await f.groups.transferOwnership(groupID: f.group.id, from: f.aki.id, to: cho.id, now: 3_000)
            }
            try await f.groups.transferOwnership(groupID: f.group.id, from: f.aki.id, to: ben.id, now: 3_000)
            let roles = Dictionary(
                uniqueKeysWithValues: try await f.groups.members(groupID: f.group.id).map { ($0.name, $0.role) })
            #expect(roles == ["Aki": .admin, "Ben": .owner, "Cho": .member])
            #expect(try await f.groups.group(id: f.group.id)?.ownerUserID == f.ben.id)

            try await f.groups.setInviteCode(groupID: f.group.id, code: nil, now: 4_000)
            let dan = try await f.accounts.createUser(AccountStoreTests.user(email: "dan@example.com"))
            await #expect(throws: GroupStoreError.notFound) {
                try await f.groups.join(
                    inviteCode: "CODE1", userID: dan.id, name: "Dan", claimMemberID: nil, now: 5_000)
            }
        }
    }

    @Test("two transfers at once leave exactly one owner; a former owner cannot transfer", arguments: TestDatabases.all)
    func concurrentTransfers(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            // setup: Ben and Dan are members with accounts
            let (_, ben) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: nil, now: 2_000).joined)
            let danUser = try await f.accounts.createUser(AccountStoreTests.user(email: "dan@example.com"))
            let (_, dan) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: danUser.id, name: "Dan", claimMemberID: nil, now: 2_000).joined)
            // act: Aki hands the group to Ben and to Dan at the same time
            let groups = f.groups
            let group = f.group.id
            let aki = f.aki.id
            async let toBen: Void = groups.transferOwnership(groupID: group, from: aki, to: ben.id, now: 3_000)
            async let toDan: Void = groups.transferOwnership(groupID: group, from: aki, to: dan.id, now: 3_000)
            var successes = 0
            if (try? await toBen) != nil { successes += 1 }
            if (try? await toDan) != nil { successes += 1 }
            // validate
            #expect(successes == 1)
            let owners = try await f.groups.members(groupID: f.group.id).filter { $0.role == .owner }
            #expect(owners.count == 1)
            await #expect(throws: GroupStoreError.notOwner) {
                try await groups.transferOwnership(groupID: group, from: aki, to: ben.id, now: 4_000)
            }
        }
    }

    @Test("claiming a name-only member does not hand over its admin role", arguments: TestDatabases.all)
    func claimResetsRole(backend: Database.Backend) async throws {
        try await Self.withFixture(backend) { f async throws in
            let cho = MemberRecord(
                id: UUID(), groupID: f.group.id, userID: nil, name: "Cho", role: .admin, canEditAllExpenses: true,
                createdAt: 2_000, updatedAt: 2_000)
            try await f.groups.addMember(cho)
            let (_, claimed) = try #require(await f.groups.join(
                inviteCode: "CODE1", userID: f.ben.id, name: "Ben", claimMemberID: cho.id, now: 3_000).joined)
            #expect(claimed.id == cho.id && claimed.role == .member && !claimed.canEditAllExpenses)
        }
    }
}
