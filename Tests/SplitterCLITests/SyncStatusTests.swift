import Foundation
import SplitClient
import Testing

/// The SDK's observable sync status follows the queue and the outcome of each sync.
@Suite("Sync status in the SDK")
struct SyncStatusTests {
    @Test("the status stream reports a queued write, then why a sync stopped, with the write still pending")
    func statusFollowsQueueAndFailures() async throws {
        // setup: an empty store, and a server address nothing listens on
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-status-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try OfflineStore(path: folder.appendingPathComponent("store.sqlite").path)
        let client = SplitterClient(serverURL: URL(string: "http://127.0.0.1:1")!, tokens: InMemoryTokenStore())
        var updates = store.statusUpdates().makeAsyncIterator()
        #expect(try await next(&updates) == SyncStatus())

        // act: a write made offline is queued
        let (id, groupID) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let request = NewExpense(
            id: id, groupId: groupID, description: "Taxi", amount: "3000", currency: "JPY", expenseDate: "2026-11-21")
        try store.enqueue(
            PendingOperation(
                id: id, groupID: groupID, kind: .createExpense, body: try JSONEncoder().encode(request),
                idempotencyKey: UUID().uuidString, createdAt: Date(), summary: "Taxi", targetID: id))
        // validate
        #expect(try await next(&updates) == SyncStatus(pending: 1))

        // act: a sync that cannot reach the server
        let report = try await SyncEngine(client: client, store: store).push()
        // validate: the stop is reported, the write still waits, nothing counts as synced
        let status = try await next(&updates)
        #expect(report.stoppedBecause?.description == status.lastError)
        #expect(status.pending == 1 && status.lastSync == nil)
        #expect(status.lastError?.hasPrefix("The server cannot be reached") == true, "\(status)")
        #expect(try store.status() == status)
    }

    /// The next value, or a failure after a deadline (the observation delivers on its own queue).
    private func next(_ updates: inout AsyncStream<SyncStatus>.Iterator) async throws -> SyncStatus {
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            Issue.record("no status update within 10 s")
        }
        defer { deadline.cancel() }
        return try #require(await updates.next())
    }
}
