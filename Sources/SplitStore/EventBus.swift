import Foundation
import SplitCore
import Synchronization

/// What a committed write tells the servers' live streams (issue 17). It carries ids and the
/// group's change number only: a receiver reads what changed with its own rights.
public enum BusEvent: Sendable, Hashable {
    /// A write on a group committed with this change number.
    case group(UUID, seq: Int64)
    /// Something about an account changed that a stream must check again: a session revoked,
    /// the account deactivated or deleted, a group joined.
    case account(UUID)
    /// Something new is in this account's notification inbox.
    case inbox(UUID)
    /// New background work was queued: job runners look now rather than at their next poll.
    case jobs
    /// Events may have been missed (the PostgreSQL listener reconnected): every stream checks
    /// its groups against the change feed.
    case resync

    /// One line of a notification's payload.
    var line: String {
        switch self {
        case .group(let id, let seq): "g \(id.text) \(seq)"
        case .account(let id): "a \(id.text)"
        case .inbox(let id): "n \(id.text)"
        case .jobs: "j"
        case .resync: "r"
        }
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ")
        switch (parts.first, parts.count) {
        case ("g", 3):
            guard let id = UUID(uuidString: String(parts[1])), let seq = Int64(parts[2]) else { return nil }
            self = .group(id, seq: seq)
        case ("a", 2):
            guard let id = UUID(uuidString: String(parts[1])) else { return nil }
            self = .account(id)
        case ("n", 2):
            guard let id = UUID(uuidString: String(parts[1])) else { return nil }
            self = .inbox(id)
        case ("r", 1):
            self = .resync
        case ("j", 1):
            self = .jobs
        default:
            return nil
        }
    }

    /// The payloads of PostgreSQL notifications for `events`: lines, each payload under the
    /// 8,000 bytes `pg_notify` takes.
    static func payloads(_ events: [BusEvent], maxBytes: Int = 7_900) -> [String] {
        var payloads: [String] = []
        var current = ""
        for line in events.map(\.line) {
            if !current.isEmpty, current.utf8.count + 1 + line.utf8.count > maxBytes {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? line : "\n" + line
        }
        if !current.isEmpty { payloads.append(current) }
        return payloads
    }

    static func parse(payload: String) -> [BusEvent] {
        payload.split(separator: "\n").compactMap(BusEvent.init(line:))
    }
}

/// Fans committed writes out to the live streams of this server (issue 17). Writes reach it
/// after their transaction commits, never for one rolled back (`Database.transaction`): on
/// SQLite straight from the committing transaction, on PostgreSQL through `LISTEN/NOTIFY`, so
/// a write on one server reaches the streams held by every other.
///
/// Subscribers say what they follow (groups, an account, or everything), and a publish reaches
/// only those: with 2,000 streams open, a write costs the handful that follow its group, not
/// 2,000 calls (issue 17's benchmark saw creates 30 % slower when every stream was called).
/// `resync` and `jobs` reach every subscriber. A handler is called on the publishing task and
/// must not block: live streams hand the event to a bounded buffer of their own (a slow reader
/// never slows a writer).
public final class EventBus: Sendable {
    public typealias Handler = @Sendable (BusEvent) -> Void

    public struct Token: Hashable, Sendable {
        let id: Int
    }

    private struct State {
        var next = 0
        var handlers: [Int: Handler] = [:]
        var everything: Set<Int> = []
        var byGroup: [UUID: Set<Int>] = [:]
        var byUser: [UUID: Set<Int>] = [:]
        var groupsOf: [Int: Set<UUID>] = [:]
        var userOf: [Int: UUID] = [:]

        mutating func setGroups(_ groups: Set<UUID>, of id: Int) {
            for group in groupsOf[id] ?? [] {
                byGroup[group]?.remove(id)
                if byGroup[group]?.isEmpty == true { byGroup[group] = nil }
            }
            groupsOf[id] = groups.isEmpty ? nil : groups
            for group in groups { byGroup[group, default: []].insert(id) }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `handler` with the events of `groups` and of the account `user` (its sessions, its
    /// inbox), or with every event when `everything`; `resync` and `jobs` always. Until
    /// `unsubscribe`.
    public func subscribe(
        groups: Set<UUID> = [], user: UUID? = nil, everything: Bool = false, _ handler: @escaping Handler
    ) -> Token {
        state.withLock { state in
            state.next += 1
            let id = state.next
            state.handlers[id] = handler
            if everything { state.everything.insert(id) }
            if let user {
                state.userOf[id] = user
                state.byUser[user, default: []].insert(id)
            }
            state.setGroups(groups, of: id)
            return Token(id: id)
        }
    }

    /// Follows these groups from now on instead of the ones before.
    public func follow(_ token: Token, groups: Set<UUID>) {
        state.withLock { state in
            guard state.handlers[token.id] != nil else { return }
            state.setGroups(groups, of: token.id)
        }
    }

    public func unsubscribe(_ token: Token) {
        state.withLock { state in
            guard state.handlers.removeValue(forKey: token.id) != nil else { return }
            state.everything.remove(token.id)
            state.setGroups([], of: token.id)
            if let user = state.userOf.removeValue(forKey: token.id) {
                state.byUser[user]?.remove(token.id)
                if state.byUser[user]?.isEmpty == true { state.byUser[user] = nil }
            }
        }
    }

    /// How many subscribers there are (streams open on this server, runners).
    public var subscriberCount: Int { state.withLock { $0.handlers.count } }

    public func publish(_ events: [BusEvent]) {
        guard !events.isEmpty else { return }
        let deliveries: [(Handler, BusEvent)] = state.withLock { state in
            events.flatMap { event -> [(Handler, BusEvent)] in
                let ids: Set<Int> =
                    switch event {
                    case .group(let id, _): state.everything.union(state.byGroup[id] ?? [])
                    case .account(let id), .inbox(let id): state.everything.union(state.byUser[id] ?? [])
                    case .resync, .jobs: Set(state.handlers.keys)
                    }
                return ids.compactMap { id in state.handlers[id].map { ($0, event) } }
            }
        }
        for (handler, event) in deliveries { handler(event) }
    }
}

/// The events a running transaction will publish when it commits. Stores note them where the
/// write happens (`GroupLog.begin` for every group write; the account store for sessions and
/// accounts); `Database.transaction` publishes them after COMMIT or drops them on ROLLBACK.
final class PendingEvents: Sendable {
    /// The events noted, and how many of them went to PostgreSQL's `NOTIFY` already from a write
    /// batch (`takeUnsent`): sent in one of the transaction's statements, they are delivered at
    /// its commit like the rest.
    private let state = Mutex<(events: [BusEvent], sent: Int)>(([], 0))
    /// Whether this server sends mail (`Database.sendsMail`), so writes queue it.
    let sendsMail: Bool

    init(sendsMail: Bool = false) { self.sendsMail = sendsMail }

    @TaskLocal static var current: PendingEvents?

    /// Notes `event` for the transaction running on this task (nothing outside one).
    static func note(_ event: BusEvent) {
        current?.state.withLock { state in
            if !state.events.contains(event) { state.events.append(event) }
        }
    }

    var all: [BusEvent] { state.withLock { $0.events } }

    /// The events noted since the last call, for a `NOTIFY` in the transaction; each is taken once.
    func takeUnsent() -> [BusEvent] {
        state.withLock { state in
            defer { state.sent = state.events.count }
            return Array(state.events[state.sent...])
        }
    }
}
