import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// The group, its members and its categories in one read (what a create reads before its
/// transaction, issue 16): the same as the reads of each, on both databases.
@Suite("The group with its members and categories, in one read")
struct GroupReadTests {
    @Test("agrees with the group's members and every category read apart, deleted and renamed ones included", arguments: TestDatabases.all)
    func agreesWithSeparateReads(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let groupID = try await EventBusTests.group(database)
            let groups = GroupStore(database: database)
            let categories = CategoryStore(database: database)
            let owner = try #require(try await groups.groupWithMembers(groupID: groupID)?.1.first)
            let actor = Actor(userID: try #require(owner.userID), name: "Aki")
            _ = try await categories.categories(groupID: groupID, now: 2_000)  // the defaults
            for (name, icon) in [("Onsen ♨️", "♨️"), ("Ünïcode “quotes” \\ and 'more'", "🍣"), ("Gone", "x")] {
                _ = try await categories.create(
                    CategoryRecord(
                        id: UUID(), groupID: groupID, name: name, icon: icon, color: "#A1B2C3", isDefault: false,
                        position: 0),
                    actor: actor, now: 3_000)
            }
            var gone = try #require(try await categories.allCategories(groupID: groupID).first { $0.name == "Gone" })
            gone.isDeleted = true
            _ = try await categories.update(gone, expectedVersion: gone.version, actor: actor, now: 4_000)

            let (group, members, read) = try #require(try await groups.groupWithMembersAndCategories(groupID: groupID))
            let (apartGroup, apartMembers) = try #require(try await groups.groupWithMembers(groupID: groupID))
            let apart = try await categories.allCategories(groupID: groupID)
            #expect(group == apartGroup)
            #expect(members == apartMembers)
            #expect(read == apart)
            #expect(read.count == apart.count && read.contains { $0.name == "Gone" && $0.isDeleted })
            #expect(read.contains { $0.name.hasPrefix("Ünïcode") && $0.icon == "🍣" })

            #expect(try await groups.groupWithMembersAndCategories(groupID: UUID()) == nil)
        }
    }

    @Test("a group without categories reads with none", arguments: TestDatabases.all)
    func noCategories(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let groupID = try await EventBusTests.group(database)
            try await database.transaction { sql in
                try await sql.raw("DELETE FROM categories WHERE group_id = \(bind: groupID.text)").run()
            }
            let groups = GroupStore(database: database)
            let read = try #require(try await groups.groupWithMembersAndCategories(groupID: groupID))
            #expect(read.2.isEmpty)
            #expect(read.1.count == 1)
        }
    }
}
