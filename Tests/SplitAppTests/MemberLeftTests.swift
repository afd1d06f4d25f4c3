import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitApp
@testable import SplitStore

/// One who left is told from one who was removed (found by a new user: "Ben (removed)" for Ben,
/// who had left), in the store, in the words, and in the migration that fills it.
@Suite("Members who left")
struct MemberLeftTests {
    @Test("leaving marks the member as left; removal by an admin does not; coming back clears it; 0035 fills it from the activity",
        arguments: TestDatabases.all)
    func leftOrRemoved(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let members = MemberUseCases(database: trip.database, now: { milliseconds() })
            let store = GroupStore(database: trip.database)
            func bo() async throws -> MemberRecord {
                try #require(try await store.members(groupID: trip.groupID).first { $0.id == trip.boMember.uuid })
            }
            func dee() async throws -> MemberRecord {
                try #require(try await store.members(groupID: trip.groupID).first { $0.id == trip.deeMember.uuid })
            }
            // Bo leaves; Aki removes Dee.
            let left = try await members.remove(
                trip.boMember.description, groupID: trip.groupID, caller: trip.bo, origin: trip.origin)
            _ = try await members.remove(trip.deeMember.description, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            #expect(left.hasLeft && !left.isActive)
            let (boLeft, deeLeft) = (try await bo().hasLeft, try await dee().hasLeft)
            #expect(boLeft && !deeLeft)
            #expect(MemberLabel.name("Bo", active: false, left: true) == "Bo (left)")
            #expect(MemberLabel.name("Dee", active: false, left: false) == "Dee (removed)")
            #expect(MemberLabel.name("Dee", active: true, left: false) == "Dee")

            // Filled by the migration from the activity: the last removal's actor was Bo himself.
            func refill() async throws {
                try await trip.database.transaction { sql in
                    try await sql.raw("ALTER TABLE members DROP COLUMN has_left").run()
                    try await sql.raw("DELETE FROM schema_migrations WHERE id = '0035_members_who_left'").run()
                }
                #expect(try await Migrations.run(on: trip.database) == ["0035_members_who_left"])
            }
            try await refill()
            let (boFilled, deeFilled) = (try await bo().hasLeft, try await dee().hasLeft)
            #expect(boFilled && !deeFilled)

            // Restored by Aki: no longer "left"; removed by Aki afterwards: "removed", and the
            // migration reads the last removal, Aki's.
            let back = try await members.update(
                trip.boMember.description, MemberPatch(active: true), groupID: trip.groupID, caller: trip.aki,
                origin: trip.origin)
            #expect(back.isActive && !back.hasLeft)
            _ = try await members.remove(trip.boMember.description, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            let removed = try await bo().hasLeft
            #expect(!removed)
            try await refill()
            let refilled = try await bo().hasLeft
            #expect(!refilled)
        }
    }
}
