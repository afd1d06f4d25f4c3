import Foundation
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

@Suite("Category use cases, without HTTP")
struct CategoryUseCaseTests {
    @Test(
        "own categories are added, renamed as of a version and deleted; the defaults stay", arguments: TestDatabases.all
    )
    func lifecycle(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let categories = CategoryUseCases(database: trip.database, now: { milliseconds() })
            // setup: the six defaults exist from the first read
            let defaults = try await categories.categories(groupID: trip.groupID, caller: trip.bo)
            #expect(defaults.count == 6)
            // act
            let onsen = try await categories.create(
                EnteredCategory(name: " Onsen ", icon: "♨️"), groupID: trip.groupID, caller: trip.aki,
                origin: trip.origin)
            // validate
            #expect(onsen.name == "Onsen")
            await #expect(
                throws: AppError.conflict(
                    code: "conflict", field: "name", message: "The group has a category with that name.")
            ) {
                try await categories.create(
                    EnteredCategory(name: "onsen"), groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            }
            let renamed = try await categories.update(
                onsen.id, EnteredCategory(name: "Hot springs"), basedOn: onsen.version, groupID: trip.groupID,
                caller: trip.aki, origin: trip.origin)
            do {
                _ = try await categories.update(
                    onsen.id, EnteredCategory(name: "Baths"), basedOn: onsen.version, groupID: trip.groupID,
                    caller: trip.aki, origin: trip.origin)
                Issue.record("a stale rename was saved")
            } catch AppError.staleCategory(let current) {
                #expect(current == renamed)
            }
            await #expect(throws: AppError.forbidden) {
                try await categories.create(
                    EnteredCategory(name: "Mine"), groupID: trip.groupID, caller: trip.bo, origin: trip.origin)
            }
            let food = try #require(defaults.first)
            await #expect(throws: AppError.forbiddenBecause(
                    "The default categories cannot be changed (name, icon or colour) or deleted; add a category of your own instead.")) {
                try await categories.delete(food.id, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            }
            try await categories.delete(onsen.id, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            let after = try await categories.categories(groupID: trip.groupID, caller: trip.aki)
            #expect(after.map(\.id) == defaults.map(\.id))
        }
    }
}
