import Foundation
import GRDB

/// What an app shows about its offline work (DESIGN §8): how many writes wait, how many the
/// server refused or found in conflict, when a sync last went through and why the last one stopped.
public struct SyncStatus: Sendable, Equatable {
    /// Operations waiting to be sent.
    public var pending: Int
    /// Operations the server refused (422, 403, 404), kept with why.
    public var refused: Int
    /// Operations in conflict with someone else's change, kept with both versions.
    public var conflicts: Int
    /// When a push last went through to the end.
    public var lastSync: Date?
    /// Why the last sync stopped (offline, logged out, …); nil once a sync goes through.
    public var lastError: String?

    public init(pending: Int = 0, refused: Int = 0, conflicts: Int = 0, lastSync: Date? = nil, lastError: String? = nil)
    {
        self.pending = pending
        self.refused = refused
        self.conflicts = conflicts
        self.lastSync = lastSync
        self.lastError = lastError
    }
}

extension OfflineStore {
    /// The status now.
    public func status() throws -> SyncStatus { try database.read(Self.status) }

    /// The status now, then again after every write that changes it (a queued operation, a sync
    /// sending, parking or failing), until the stream is dropped.
    public func statusUpdates() -> AsyncStream<SyncStatus> {
        let observation = ValueObservation.tracking(Self.status).removeDuplicates()
        let database = self.database
        return AsyncStream { continuation in
            let cancellable = observation.start(
                in: database, scheduling: .async(onQueue: DispatchQueue(label: "SplitClient.SyncStatus")),
                onError: { _ in continuation.finish() }, onChange: { continuation.yield($0) })
            continuation.onTermination = { _ in cancellable.cancel() }
        }
    }

    static func status(_ db: Database) throws -> SyncStatus {
        var status = SyncStatus()
        for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS count FROM pending_operations GROUP BY state") {
            let count: Int = row["count"]
            switch PendingOperation.State(rawValue: row["state"]) {
            case .pending: status.pending = count
            case .refused: status.refused = count
            case .conflict: status.conflicts = count
            case nil: break
            }
        }
        let state = Dictionary(
            try Row.fetchAll(db, sql: "SELECT key, value FROM sync_state WHERE key IN ('lastSync', 'lastError')")
                .map { (row: Row) -> (String, String) in (row["key"], row["value"]) }
        ) { first, _ in first }
        status.lastSync = state["lastSync"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        status.lastError = state["lastError"]
        return status
    }

    /// Remembers why a sync stopped, for `status()`; a sync that goes through clears it.
    func recordSyncError(_ error: any Error) throws {
        try database.write { try Self.setState($0, "lastError", String(describing: error)) }
    }
}
