import Foundation

/// One live event once the offline copy has caught up with it (`SyncEngine.syncLive`).
public struct LiveSyncUpdate: Hashable, Sendable {
    public var event: LiveEvent
    /// How many changes the pull for this event applied to the offline copy (0 when there was
    /// nothing to pull, or when the pull could not reach the server: see `syncLive`).
    public var pulled: Int

    public init(event: LiveEvent, pulled: Int) {
        self.event = event
        self.pulled = pulled
    }
}

extension SyncEngine {
    /// Keeps the offline copy current while it runs: follows `client.events(groupID:)` and, for
    /// each event, runs the same delta pull as `pull(groupID:)` — the group of a `change`,
    /// `joined` or `resync`, and on every `connected` the stream's groups, which catches up with
    /// whatever happened before the stream opened. Each update comes after its pull is written,
    /// so a reader of the store sees what the event announced.
    ///
    /// A pull that cannot reach the server (or meets a failing one, or a group you left) is skipped: the stream
    /// drops too, and the pull on its reconnect brings everything since the store's cursor, so
    /// nothing is lost. A dead session ends the stream with `.unauthorized`, as `events` does, and
    /// a copy holding another account's unsent changes with `OfflineStoreError.otherAccountsQueue`.
    /// The writes queued offline are not sent: that stays `push()`'s job.
    public func syncLive(
        groupID: String? = nil, lastEventID: String? = nil, reconnect: LiveReconnectPolicy = LiveReconnectPolicy()
    ) -> AsyncThrowingStream<LiveSyncUpdate, any Error> {
        let events = client.events(groupID: groupID, lastEventID: lastEventID, reconnect: reconnect)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        let pulled = try await follow(event, streamGroupID: groupID)
                        continuation.yield(LiveSyncUpdate(event: event, pulled: pulled))
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The pull one event calls for; returns how many changes it applied.
    private func follow(_ event: LiveEvent, streamGroupID: String?) async throws -> Int {
        do {
            // Nothing is written to the copy before it is known to be this session's account's
            // (`adoptAccount`; checked once, at the first event the server can be asked about).
            if event.kind != .disconnected { try await adoptAccount() }
            switch event.kind {
            case .disconnected:
                return 0
            case .connected:
                var groupIDs = streamGroupID.map { [$0] } ?? []
                if streamGroupID == nil {
                    let groups = try await client.groups()
                    try store.cache(groups: groups)
                    groupIDs = groups.map(\.id)
                }
                var pulled = 0
                for id in groupIDs { pulled += try await pull(groupID: id) }
                return pulled
            case .joined, .change, .resync:
                guard let groupID = event.groupId else { return 0 }
                // A new group goes into the cached list (name, currency) before its feed.
                if event.kind == .joined { try store.cache(groups: try await client.groups()) }
                return try await pull(groupID: groupID)
            }
        } catch SplitterError.offline, SplitterError.server, SplitterError.rateLimited {
            return 0
        } catch SplitterError.notFound {
            // A group left meanwhile: the stream says so itself (it ends, and a stream of that
            // one group is refused on reconnect); the other groups go on.
            return 0
        }
    }
}
