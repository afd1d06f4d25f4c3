import Foundation
import SplitCore
import SplitStore
import Synchronization

/// Where a live stream stands: the last change number it delivered for each of its groups. Its
/// text is the Server-Sent Events id (`<group id>.<seq>` joined by commas), which a client
/// sends back as `Last-Event-ID` to resume with no gap.
public struct LivePosition: Sendable, Equatable {
    public var seqs: [UUID: Int64]

    public init(_ seqs: [UUID: Int64] = [:]) { self.seqs = seqs }

    public var text: String {
        seqs.map { ($0.key.text, $0.value) }.sorted { $0.0 < $1.0 }.map { "\($0.0).\($0.1)" }
            .joined(separator: ",")
    }

    /// Reads an id this server gave out; a 422 naming `Last-Event-ID` for anything else.
    public init(parsing text: String) throws {
        var seqs: [UUID: Int64] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: ".")
            guard pieces.count == 2, let id = UUID(uuidString: String(pieces[0])), let seq = Int64(pieces[1]),
                seq >= 0, seqs.count < GroupBounds.groupsPerUser
            else {
                throw AppError.invalid(
                    field: "Last-Event-ID", message: "Last-Event-ID is not an event id this server gave out.")
            }
            seqs[id] = seq
        }
        self.seqs = seqs
    }
}

/// One message of a live stream (issue 17).
public enum LiveMessage: Sendable, Equatable {
    /// Objects of a group changed up to change number `seq` (the change feed since the
    /// previous message of that group says how), by `actorUserID` when an account made it.
    case changes(groupID: UUID, seq: Int64, changes: [ChangeRecord], actorUserID: UUID?, position: LivePosition)
    /// The caller joined a group after the stream opened: sync it from the start.
    case joined(groupID: UUID, seq: Int64, position: LivePosition)
    /// More changed in a group than a stream sends as events: sync it with the change feed.
    case resync(groupID: UUID, seq: Int64, position: LivePosition)
    /// Something new is in the caller's notification inbox.
    case notification
    /// The stream fell behind and ends: reconnect with the last event id.
    case overflow
    /// Nothing happened for a while (keeps proxies from closing the connection).
    case heartbeat
}

/// Live streams of a caller's groups (issue 17): what changed, as it commits, on this server or
/// any other (`EventBus`). A message carries ids and change numbers only; the client reads the
/// objects through the change feed with its own rights. The stream ends when the caller's
/// session is revoked or expires, their account is deactivated, or they leave a group of the
/// stream, and when its reader falls too far behind.
public struct LiveUseCases: Sendable, UsesStores {
    let database: Database
    let bus: EventBus
    let now: @Sendable () -> Int64
    /// How long a quiet stream waits before a heartbeat (and a check that its session still works).
    let heartbeat: Duration

    /// Events a stream holds for a reader that has not taken them; one more and it ends.
    public static let bufferedEvents = 256
    /// Catch-up pages (of `catchUpPage` changes) a stream sends before it says "resync".
    static let catchUpPages = 10
    static let catchUpPage = 500

    public init(database: Database, now: @escaping @Sendable () -> Int64, heartbeat: Duration = .seconds(15)) {
        self.database = database
        bus = database.events
        self.now = now
        self.heartbeat = heartbeat
    }

    /// Opens a stream of the caller's groups, or of one group. Refuses up front, like every
    /// route: a group the caller is not in is not found, a malformed `lastEventID` is a 422.
    /// Without `lastEventID` the stream starts at each group's current change number; with it,
    /// it first sends what changed since.
    public func open(caller: Caller, groupID: UUID?, lastEventID: String?) async throws -> LiveStream {
        let resume = try lastEventID.map(LivePosition.init(parsing:))
        let subscription = LiveSubscription(bus: bus, userID: caller.user.id, buffer: Self.bufferedEvents)
        // Subscribed before the positions are read, so nothing committed in between is missed.
        let members: [UUID]
        if let groupID {
            _ = try await access.check(groupID, caller, for: .read)
            members = [groupID]
        } else {
            members = try await groups.groups(ofUser: caller.user.id).map(\.group.id).filter(caller.reaches)
        }
        subscription.watch(Set(members))
        let current = try await log.currentSeqs(groupIDs: members)
        // Checked again after the positions: a removal committed in between was not followed.
        if let groupID { _ = try await access.check(groupID, caller, for: .read) }
        var position = LivePosition()
        for id in members {
            let now = current[id] ?? 0
            position.seqs[id] = min(resume?.seqs[id] ?? now, now)
        }
        // Resumed without a group of the caller's: it was joined while the client was away.
        let joined: [LiveMessage] =
            resume.map { resume in
                members.filter { groupID == nil && resume.seqs[$0] == nil }.sorted { $0.sortsBefore($1) }.map {
                    .joined(groupID: $0, seq: current[$0] ?? 0, position: position)
                }
            } ?? []
        subscription.startTicker(every: heartbeat, expiresAt: caller.session.expiresAt, now: now)
        let state = LiveStream.State(
            cases: self, caller: caller, singleGroup: groupID, position: position, subscription: subscription)
        state.outbox = joined
        // Groups resumed behind the present catch up first, from the change feed.
        state.lagging = current.filter { (position.seqs[$0.key] ?? 0) < $0.value }.keys.sorted { $0.sortsBefore($1) }
        return LiveStream(state: state)
    }
}

/// The messages of one live stream; iterate it once.
public struct LiveStream: AsyncSequence, Sendable {
    public typealias Element = LiveMessage
    let state: State

    public func makeAsyncIterator() -> Iterator { Iterator(state: state) }

    /// Ends the stream from outside (the server shutting down): the reader gets nil next.
    public func end() { state.subscription.cancel() }

    final class State: @unchecked Sendable {
        // Used by the one iterator only (a stream is iterated once), so no lock.
        let cases: LiveUseCases
        let caller: Caller
        let singleGroup: UUID?
        var position: LivePosition
        let subscription: LiveSubscription
        var outbox: [LiveMessage] = []
        /// Groups to catch up from the change feed before anything else, one at a time.
        var lagging: [UUID] = []
        var ended = false

        init(cases: LiveUseCases, caller: Caller, singleGroup: UUID?, position: LivePosition, subscription: LiveSubscription) {
            self.cases = cases
            self.caller = caller
            self.singleGroup = singleGroup
            self.position = position
            self.subscription = subscription
        }
    }

    public struct Iterator: AsyncIteratorProtocol {
        let state: State

        public mutating func next() async throws -> LiveMessage? {
            while state.outbox.isEmpty {
                guard !state.ended else { return nil }
                if !state.lagging.isEmpty {
                    let id = state.lagging.removeFirst()
                    if let from = state.position.seqs[id] { try await catchUp(id, from: from) }
                    continue
                }
                guard let input = await state.subscription.next() else { return nil }
                try await handle(input)
            }
            return state.outbox.removeFirst()
        }

        private func handle(_ input: LiveSubscription.Input) async throws {
            let cases = state.cases
            switch input {
            case .overflow:
                state.outbox.append(.overflow)
                end()
            case .expired:
                end()
            case .tick:
                guard try await cases.accounts.isSessionLive(id: state.caller.session.id, now: cases.now()) else {
                    return end()
                }
                state.outbox.append(.heartbeat)
            case .bus(.group(let id, let seq)):
                guard let from = state.position.seqs[id], seq > from else { return }
                try await catchUp(id, from: from)
            case .bus(.inbox):
                // The inbox spans the account's groups: a token for some of them is not told.
                if state.caller.token?.groupIDs == nil { state.outbox.append(.notification) }
            case .bus(.account):
                try await recheckAccess()
            case .bus(.jobs):
                return
            case .bus(.resync):
                // Events may have been lost: the account and every group are checked again, and
                // the inbox may have new lines (its events are not replayed).
                try await recheckAccess()
                guard !state.ended else { return }
                if state.caller.token?.groupIDs == nil { state.outbox.append(.notification) }
                let current = try await cases.log.currentSeqs(groupIDs: Array(state.position.seqs.keys))
                state.lagging = current.filter { $0.value > state.position.seqs[$0.key] ?? $0.value }.keys
                    .sorted { $0.sortsBefore($1) }
            }
        }

        /// Sends what changed in a group after `from`, one message per change number; past
        /// `catchUpPages` pages, one "resync" instead. A change to the group or its members
        /// checks, before anything after it is sent, that the caller is still in it; if not, the
        /// stream ends there.
        private func catchUp(_ groupID: UUID, from: Int64) async throws {
            var since = from
            for _ in 0..<LiveUseCases.catchUpPages {
                let (changes, hasMore) = try await state.changes(groupID, since: since)
                var actors: [Int64: UUID] = [:]
                if let last = changes.last {
                    actors = try await state.cases.log.actors(groupID: groupID, after: since, through: last.seq)
                }
                var index = changes.startIndex
                while index < changes.endIndex {
                    let seq = changes[index].seq
                    let end = changes[index...].firstIndex { $0.seq != seq } ?? changes.endIndex
                    let batch = Array(changes[index..<end])
                    state.position.seqs[groupID] = seq
                    state.outbox.append(
                        .changes(
                            groupID: groupID, seq: seq, changes: batch, actorUserID: actors[seq], position: state.position))
                    index = end
                    since = seq
                    // Removed by this change: nothing made after it reaches the caller.
                    if batch.contains(where: { $0.entity == .member || $0.entity == .group }) {
                        try await checkStillIn(groupID)
                        if state.ended { return }
                    }
                }
                guard hasMore else { return }
            }
            let current = try await state.cases.log.currentSeq(groupID: groupID)
            state.position.seqs[groupID] = current
            state.outbox.append(.resync(groupID: groupID, seq: current, position: state.position))
            try await checkStillIn(groupID)
        }

        /// The session, and the caller's groups: a stream whose session or group is gone ends.
        private func recheckAccess() async throws {
            guard try await state.cases.accounts.isSessionLive(id: state.caller.session.id, now: state.cases.now())
            else { return end() }
            if let group = state.singleGroup {
                try await checkStillIn(group)
            } else {
                try await refreshGroups()
            }
        }

        private func checkStillIn(_ groupID: UUID) async throws {
            let found = try await state.cases.groups.groupAndMembership(groupID: groupID, userID: state.caller.user.id)
            if found?.1.isActive != true { end() }
        }

        /// The caller's groups again, after an account event: a group left ends the stream, a
        /// group joined is announced and followed from its current change number.
        private func refreshGroups() async throws {
            let now = Set(
                try await state.cases.groups.groups(ofUser: state.caller.user.id).map(\.group.id).filter(state.caller.reaches))
            let had = Set(state.position.seqs.keys)
            guard had.isSubset(of: now) else { return end() }
            let added = now.subtracting(had)
            guard !added.isEmpty else { return }
            state.subscription.watch(now)
            let current = try await state.cases.log.currentSeqs(groupIDs: Array(added))
            for id in added.sorted(by: { $0.sortsBefore($1) }) {
                let seq = current[id] ?? 0
                state.position.seqs[id] = seq
                state.outbox.append(.joined(groupID: id, seq: seq, position: state.position))
            }
        }

        private func end() {
            state.ended = true
            state.subscription.cancel()
        }
    }
}

extension LiveStream.State {
    func changes(_ groupID: UUID, since: Int64) async throws -> (changes: [ChangeRecord], hasMore: Bool) {
        try await cases.log.changes(groupID: groupID, since: since, limit: LiveUseCases.catchUpPage)
    }
}

/// A stream's link to the bus: the events of its groups and account in a bounded buffer, a
/// heartbeat tick, and the session's expiry. Ends its subscription when released or cancelled.
final class LiveSubscription: @unchecked Sendable {
    enum Input: Sendable {
        case bus(BusEvent)
        case tick
        case expired
        case overflow
    }

    /// What the bus's handler writes from publishing tasks.
    private final class Shared: Sendable {
        let overflowed = Atomic<Bool>(false)
    }

    let inbox: AsyncStream<Input>.Continuation
    /// Read by the stream's one iterator only.
    private var iterator: AsyncStream<Input>.Iterator
    private let bus: EventBus
    private let shared = Shared()
    private let token = Mutex<EventBus.Token?>(nil)
    private let ticker = Mutex<Task<Void, Never>?>(nil)

    init(bus: EventBus, userID: UUID, buffer: Int) {
        let (stream, inbox) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingOldest(buffer))
        self.inbox = inbox
        iterator = stream.makeAsyncIterator()
        self.bus = bus
        let shared = shared
        token.withLock {
            $0 = bus.subscribe(user: userID) { event in
                if case .jobs = event { return }
                if case .dropped = inbox.yield(.bus(event)) { shared.overflowed.store(true, ordering: .relaxed) }
            }
        }
    }

    /// Follows these groups from now on (the bus sends only their events).
    func watch(_ ids: Set<UUID>) {
        if let token = token.withLock({ $0 }) { bus.follow(token, groups: ids) }
    }

    /// Ticks every `interval`, and says "expired" when the session's time is up.
    func startTicker(every interval: Duration, expiresAt: Int64, now: @escaping @Sendable () -> Int64) {
        let inbox = inbox
        let task = Task {
            while !Task.isCancelled {
                let left = Duration.milliseconds(max(expiresAt - now(), 0))
                try? await Task.sleep(for: min(interval, left))
                guard !Task.isCancelled else { return }
                if now() >= expiresAt {
                    inbox.yield(.expired)
                    return
                }
                inbox.yield(.tick)
            }
        }
        ticker.withLock { $0 = task }
    }

    /// The next input; `overflow` once the buffer lost an event.
    func next() async -> Input? {
        if shared.overflowed.load(ordering: .relaxed) { return .overflow }
        let input = await iterator.next()
        if shared.overflowed.load(ordering: .relaxed) { return .overflow }
        return input
    }

    func cancel() {
        if let token = token.withLock({ token in
            defer { token = nil }
            return token
        }) {
            bus.unsubscribe(token)
        }
        ticker.withLock { $0?.cancel() }
        inbox.finish()
    }

    deinit { cancel() }
}
