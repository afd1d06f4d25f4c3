import Foundation
import SplitAPI
import SplitClient
import SplitTestSupport
import Testing

/// The queue's new expenses go to the server in batches; every item is settled as if it had been
/// sent alone: sent, or parked with its error while the rest go on, and whatever was queued on
/// top of a parked one waits.
@Suite("SDK replay in batches")
struct BatchReplayTests {
    @Test("a refused expense inside a batch is parked, the others are created once, an edit on it waits")
    func mixedBatch() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's group; a queue of four new expenses (the second with yen cents, which
            // the server refuses) and an edit of the refused one, queued after it
            try await trip.setUpJapan()
            let tokens = FileTokenStore(path: trip.config.appendingPathComponent("profiles/default/token").path)
            let client = SplitterClient(serverURL: try #require(URL(string: trip.url)), tokens: tokens)
            let group = try #require(try await client.groups().first)
            let aki = try #require(try await client.members(groupID: group.id).first { $0.name == "Aki" })
            let store = try OfflineStore(
                path: FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID()).sqlite").path)
            var ids: [String] = []
            // All queued in one instant: the queue must keep the order they were made in.
            let queuedAt = Date()
            for (index, amount) in ["1000", "1200.5", "3000", "4000"].enumerated() {
                let id = UUID().uuidString.lowercased()
                ids.append(id)
                let request = Components.Schemas.CreateExpenseRequest(
                    id: id, groupId: group.id, description: "Item \(index + 1)", amount: amount, currency: "JPY",
                    expenseDate: "2026-11-21", paidByMemberId: aki.id)
                try store.enqueue(
                    PendingOperation(
                        id: id, groupID: group.id, kind: .createExpense, body: try JSONEncoder().encode(request),
                        idempotencyKey: UUID().uuidString, createdAt: queuedAt, summary: "Item \(index + 1)",
                        targetID: id))
                if index == 1 {
                    try store.enqueue(
                        PendingOperation(
                            id: UUID().uuidString.lowercased(), groupID: group.id, kind: .updateExpense,
                            body: try JSONEncoder().encode(ExpenseChanges(description: "Item 2, renamed")),
                            idempotencyKey: UUID().uuidString, createdAt: queuedAt, summary: "rename Item 2",
                            targetID: id, baseVersion: 1))
                }
            }

            // act: two per request, so the refusal sits inside a batch and batches cross the edit
            let engine = SyncEngine(client: client, store: store, batchSize: 2)
            let first = try await engine.push()
            let second = try await engine.push()

            // validate
            #expect(first.sent == 3 && first.parked == 1 && first.held == 1 && first.stoppedBecause == nil, "\(first)")
            let parked = try store.parked()
            let pending = try store.pending()
            #expect(parked.map(\.summary) == ["Item 2"], "\(parked)")
            #expect(parked.first?.error?.contains("amount") == true, "\(parked)")
            #expect(pending.map(\.summary) == ["rename Item 2"], "\(pending)")
            #expect(second.sent == 0 && second.held == 1, "\(second)")
            let onServer = try await client.expenses(groupID: group.id)
            #expect(onServer.map(\.description).sorted() == ["Item 1", "Item 3", "Item 4"])
            #expect(Set(onServer.map(\.id)) == Set([ids[0], ids[2], ids[3]]))
        }
    }
}
