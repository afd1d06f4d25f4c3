import Foundation

// The SDK's own types for the live stream (`SplitterClient.events`, `GET /api/events`). An event
// says what changed, not how: read the objects with the change feed (`SyncEngine.pull`, or
// `SyncEngine.syncLive`, which does it for every event).

/// One thing the live stream reports: a change in a group, a group joined, a group to sync
/// again, or the connection itself opening or dropping (the stream reconnects by itself).
public struct LiveEvent: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// The stream is open: the first time, or again after a drop. Nothing is missed across a
        /// reconnect (it resumes from the last event's id); before the first connect, read the
        /// change feed to catch up (`SyncEngine.syncLive` does).
        case connected
        /// The connection dropped or could not be made; the next try is in `retryIn` seconds.
        case disconnected
        /// Objects of group `groupId` changed (`changes`), up to its change number `seq`.
        case change
        /// You joined group `groupId` after the stream opened: sync it from the start.
        case joined
        /// More changed in group `groupId` than the stream sends one by one: sync it.
        case resync
    }

    public var kind: Kind
    /// Where the stream stands after this event (`change`, `joined`, `resync`): give it to
    /// `events(lastEventID:)` to resume from here later, with nothing missed.
    public var id: String?
    public var groupId: String?
    /// The group's change number this event brings it to.
    public var seq: Int64?
    /// What changed (`change` only).
    public var changes: [LiveChange]
    /// The account that made the change (`change` only; none for what the server did itself,
    /// such as a recurring expense): a client may skip telling you of your own changes.
    public var actorUserId: String?
    /// Why the connection dropped (`disconnected` only).
    public var reason: String?
    /// Seconds until the next connection attempt (`disconnected` only).
    public var retryIn: Double?

    public init(
        kind: Kind, id: String? = nil, groupId: String? = nil, seq: Int64? = nil, changes: [LiveChange] = [],
        actorUserId: String? = nil, reason: String? = nil, retryIn: Double? = nil
    ) {
        self.kind = kind
        self.id = id
        self.groupId = groupId
        self.seq = seq
        self.changes = changes
        self.actorUserId = actorUserId
        self.reason = reason
        self.retryIn = retryIn
    }
}

/// One object a `change` event names.
public struct LiveChange: Codable, Hashable, Sendable {
    /// What kind of object: `expense`, `settlement`, `member`, `category` or `group` today; a
    /// newer server may name others, so this stays a string.
    public var entity: String
    public var id: String
    /// True when the object was deleted (or, for a member, removed).
    public var isDeleted: Bool

    enum CodingKeys: String, CodingKey {
        case entity, id
        case isDeleted = "deleted"
    }

    public init(entity: String, id: String, isDeleted: Bool) {
        self.entity = entity
        self.id = id
        self.isDeleted = isDeleted
    }
}

/// How the live stream waits between connection attempts: exponential backoff with jitter,
/// capped, starting again from `initialDelay` after every successful connect, so a server
/// restart is followed within moments but a server that stays down is not hammered.
public struct LiveReconnectPolicy: Hashable, Sendable {
    /// The wait after the first failure. The server's `retry:` hint (2 s) raises it: the server
    /// knows best how soon it wants clients back.
    public var initialDelay: Duration
    /// No wait is longer than this.
    public var maximumDelay: Duration
    /// Each failure in a row multiplies the wait by this.
    public var multiplier: Double
    /// The share of each wait drawn at random (0 none, 1 anywhere from nothing to the whole wait),
    /// so clients cut off together do not all come back in the same instant.
    public var jitter: Double

    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), multiplier: Double = 2,
        jitter: Double = 0.5
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = max(1, multiplier)
        self.jitter = min(max(0, jitter), 1)
    }

    /// The wait before the next attempt after `failures` failures in a row (1 for the first),
    /// never shorter than `atLeast`'s floor before jitter (the server's `retry:` or
    /// `Retry-After`). `random` gives a number in 0...1.
    func delay(afterFailures failures: Int, atLeast floor: Duration? = nil, random: () -> Double) -> Duration {
        let base = max(initialDelay, floor ?? .zero)
        let growth = pow(multiplier, Double(max(0, min(failures, 64) - 1)))
        let seconds = min(base.timeInterval * growth, max(maximumDelay, floor ?? .zero).timeInterval)
        let share = 1 - jitter * min(max(random(), 0), 1)
        return .milliseconds(Int64((seconds * share * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
