import Foundation
import SplitTestSupport
import Testing

@testable import SplitClient

/// `SyncEngine.pull` asks for the next page of the change feed while it decodes and stores the
/// one before (`FeedPosition`): the copy must be the one a pull page by page makes.
@Suite("a pull of many pages")
struct PagedPullTests {
    @Test("pages of 7, each asked for while the one before is stored, make the same offline copy as one page")
    func pagesAhead() async throws {
        try await CLITrip.with { trip in
            // setup: 40 expenses, 2 of them deleted, and a transfer
            let (client, group, aki, _) = try await BatchReplayTests.akiOffline(trip)
            let ben = try #require(try await client.members(groupID: group.id).first { $0.name == "Ben" })
            var ids: [String] = []
            for index in 1...40 {
                let expense = try await client.addExpense(
                    NewExpense(
                        groupId: group.id, description: "Item \(index)", amount: "\(100 * index)", currency: "JPY",
                        expenseDate: "2026-11-21", paidByMemberId: index % 2 == 0 ? aki.id : ben.id))
                ids.append(expense.id)
            }
            _ = try await client.deleteExpense(id: ids[3])
            _ = try await client.deleteExpense(id: ids[17])
            _ = try await client.settle(groupID: group.id, from: ben.id, to: aki.id, amount: "700", currency: "JPY")

            // act: one pull in pages of 7, one in a single page
            func pulled(pageLimit: Int?) async throws -> (OfflineStore, Int) {
                let store = try OfflineStore(
                    path: FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID()).sqlite").path)
                var engine = SyncEngine(client: client, store: store)
                engine.pageLimit = pageLimit
                return (store, try await engine.pull(groupID: group.id))
            }
            let (paged, pagedCount) = try await pulled(pageLimit: 7)
            let (whole, wholeCount) = try await pulled(pageLimit: nil)

            // validate
            #expect(pagedCount >= 40 && pagedCount == wholeCount)
            let live = try await client.expenses(groupID: group.id)
            #expect(try paged.cachedExpenses(groupID: group.id).count == 38 && live.count == 38)
            #expect(try paged.cachedExpenses(groupID: group.id, includeDeleted: true)
                == whole.cachedExpenses(groupID: group.id, includeDeleted: true))
            #expect(try paged.cachedSettlements(groupID: group.id) == whole.cachedSettlements(groupID: group.id))
            #expect(try paged.cachedMembers(groupID: group.id) == whole.cachedMembers(groupID: group.id))
            #expect(try paged.feedCursor(groupID: group.id) == whole.feedCursor(groupID: group.id))
            #expect(try paged.localBalances(groupID: group.id) == whole.localBalances(groupID: group.id))
            // The position is read from the server's real bytes, before the page is decoded.
            let told = Told()
            let first = try await client.changes(groupID: group.id, since: nil, limit: 7) { told.add($0) }
            #expect(told.positions == [FeedPosition(cursor: first.cursor, hasMore: true)])
            // Nothing new: the next pull brings nothing.
            var again = SyncEngine(client: client, store: paged)
            again.pageLimit = 7
            #expect(try await again.pull(groupID: group.id) == 0)
        }
    }

    @Test("the position read early from a page's bytes is the page's own")
    func positionScanned() {
        func scan(_ text: String) -> FeedPosition? { FeedPosition(scanning: Array(text.utf8)) }
        #expect(
            scan(#"{"categories":[],"cursor":"123","deleted":[],"hasMore":true}"#)
                == .init(cursor: "123", hasMore: true))
        #expect(scan(#"{"cursor":"9","hasMore":false}"#) == .init(cursor: "9", hasMore: false))
        // A description that talks about cursors is a string: its quotes are escaped.
        #expect(
            scan(
                #"{"categories":[{"name":"\"cursor\":\"1\""}],"cursor":"77","#
                    + #""expenses":[{"d":"\"hasMore\":true"}],"hasMore":false}"#)
                == .init(cursor: "77", hasMore: false))
        #expect(scan(#"{"cursor":"12a","hasMore":true}"#) == nil)
        #expect(scan(#"{"cursor":"12","hasMore":null}"#) == nil)
        #expect(scan(#"{"hasMore":true}"#) == nil)
        #expect(scan("") == nil)
    }

    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [FeedPosition?] = []
        func add(_ position: FeedPosition?) { lock.withLock { told.append(position) } }
        var positions: [FeedPosition?] { lock.withLock { told } }
    }
}
