import Foundation
import Synchronization
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
        let updates = Updates(store.statusUpdates())
        #expect(try await updates.next() == SyncStatus())

        // act: a write made offline is queued
        let (id, groupID) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let request = NewExpense(
            id: id, groupId: groupID, description: "Taxi", amount: "3000", currency: "JPY", expenseDate: "2026-11-21")
        try store.enqueue(
            PendingOperation(
                id: id, groupID: groupID, kind: .createExpense, body: try JSONEncoder().encode(request),
                idempotencyKey: UUID().uuidString, createdAt: Date(), summary: "Taxi", targetID: id))
        // validate
        #expect(try await updates.next() == SyncStatus(pending: 1))

        // act: a sync that cannot reach the server
        let report = try await SyncEngine(client: client, store: store).push()
        // validate: the stop is reported, the write still waits, nothing counts as synced
        let status = try await updates.next()
        #expect(report.stoppedBecause?.description == status.lastError)
        #expect(status.pending == 1 && status.lastSync == nil)
        #expect(status.lastError?.hasPrefix("The server cannot be reached") == true, "\(status)")
        #expect(try store.status() == status)
    }

}

/// The statuses a stream delivers, read by a task of its own (the observation delivers on its
/// own queue), so that a missing update fails the test after a deadline instead of hanging it.
///
/// The reading task runs on a Dispatch queue of its own, not in the cooperative pool: the test
/// runs beside hundreds of others, and on two cores those can hold both of the pool's threads for
/// longer than the deadline, which once failed CI with the update delivered but not yet read.
final class Updates: Sendable {
    private final class Received: Sendable {
        let statuses = Mutex<[SyncStatus]>([])
    }
    private let received: Received
    private let taken = Mutex(0)
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<SyncStatus>) {
        let received = Received()
        self.received = received
        task = Task(executorPreference: QueueExecutor()) {
            for await status in stream { received.statuses.withLock { $0.append(status) } }
        }
    }

    deinit { task.cancel() }

    /// The next status not yet taken; a recorded failure after 10 s without one.
    func next() async throws -> SyncStatus {
        let index = taken.withLock { $0 }
        let deadline = Date().addingTimeInterval(10)
        while received.statuses.withLock({ $0.count }) <= index, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let status = try #require(
            received.statuses.withLock { $0.count > index ? $0[index] : nil }, "no status update within 10 s")
        taken.withLock { $0 += 1 }
        return status
    }
}

/// Runs a task's jobs one at a time on a Dispatch queue, a thread the system schedules, whatever
/// holds the cooperative pool.
final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "SyncStatusTests.Updates")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
