import Foundation
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

/// Reads a live stream on its own task, keeping what came and whether it ended.
final class StreamReader: Sendable {
    private final class State: Sendable {
        let value = Mutex<(messages: [LiveMessage], ended: Bool, error: String?)>(([], false, nil))
    }
    private let box = State()
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    init(_ stream: LiveStream) {
        let box = box
        let task = Task {
            do {
                for try await message in stream {
                    if message != .heartbeat { box.value.withLock { $0.messages.append(message) } }
                }
                box.value.withLock { $0.ended = true }
            } catch {
                box.value.withLock {
                    $0.error = "\(error)"
                    $0.ended = true
                }
            }
        }
        self.task.withLock { $0 = task }
    }

    var messages: [LiveMessage] { box.value.withLock { $0.messages } }
    /// What a failed wait prints: the messages, and how the stream ended if it did.
    var report: String {
        box.value.withLock { "\($0.messages) ended: \($0.ended) error: \($0.error ?? "none")" }
    }
    var ended: Bool { box.value.withLock { $0.ended } }

    /// The change messages' (group, seq, changed ids).
    var changes: [(UUID, Int64, [UUID])] {
        messages.compactMap {
            if case .changes(let group, let seq, let changes, _, _) = $0 { (group, seq, changes.map(\.entityID)) } else { nil }
        }
    }

    /// Waits until `condition` holds, at most `seconds`; whether it did. A full `scripts/test`
    /// runs every suite at once on 2 cores, and each task of every test queues for the same two
    /// threads: a stream's reader on SQLite has received nothing for 10 s on CI, and for over a
    /// minute in a run beside two builds (never alone or in a lighter run). So the bound is two
    /// minutes; a stream that hangs still fails.
    @discardableResult
    func wait(seconds: Double = 120, until condition: (StreamReader) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(self), Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return condition(self)
    }

    func stop() { task.withLock { $0?.cancel() } }

    deinit { stop() }
}

@Suite("Live streams, without HTTP (issue 17)")
struct LiveUseCaseTests {
    static func live(_ trip: Trip, heartbeat: Duration = .seconds(15)) -> LiveUseCases {
        LiveUseCases(database: trip.database, now: { milliseconds() }, heartbeat: heartbeat)
    }

    @Test("a member's stream gets each committed change of the group once; a refused write sends nothing", arguments: TestDatabases.all)
    func committedChanges(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                let reader = StreamReader(try await Self.live(trip).open(caller: trip.bo, groupID: nil, lastEventID: nil))
                // act: Aki adds an expense; Vic (a viewer) is refused one; Aki adds another
                let first = try await trip.create(trip.ramen("900"))
                await #expect(throws: AppError.forbidden) { try await trip.create(trip.ramen(), by: trip.vic) }
                let second = try await trip.create(trip.ramen("300"))
                // validate: two messages, in order, each naming its expense, positions moving on
                #expect(await reader.wait { $0.changes.count >= 2 }, "\(reader.report)")
                let changes = reader.changes
                #expect(changes.map(\.2) == [[first.expense.id], [second.expense.id]])
                #expect(changes.map(\.0) == [trip.groupID, trip.groupID])
                #expect(changes[1].1 == changes[0].1 + 1)
                guard case .changes(_, _, _, let actor, let position) = reader.messages.last else { return }
                #expect(position.seqs[trip.groupID] == changes[1].1)
                // and who made it: Aki
                #expect(actor == trip.aki.user.id)
            }
        }
    }

    @Test("Last-Event-ID resumes with everything after it, then carries on live", arguments: TestDatabases.all)
    func resume(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                let live = Self.live(trip)
                // setup: a stream was at the present, then went away while three expenses came
                let before = try await GroupLogStore(database: trip.database).currentSeq(groupID: trip.groupID)
                var missed: [UUID] = []
                for amount in ["100", "200", "300"] { missed.append(try await trip.create(trip.ramen(amount)).expense.id) }
                // act: reconnect with the last id it had
                let reader = StreamReader(
                    try await live.open(
                        caller: trip.bo, groupID: trip.groupID, lastEventID: "\(trip.groupID.uuidString).\(before)"))
                #expect(await reader.wait { $0.changes.count >= 3 }, "\(reader.report)")
                let live4 = try await trip.create(trip.ramen("400")).expense.id
                // validate: the three missed, then the live one, nothing twice
                #expect(await reader.wait { $0.changes.count >= 4 }, "\(reader.report)")
                #expect(reader.changes.flatMap(\.2) == missed + [live4])
            }
        }
    }

    @Test("a removed member's stream ends at the removal, not at a heartbeat; so do a revoked session's and a deactivated account's", arguments: TestDatabases.all)
    func accessLost(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                // A heartbeat an hour away: only the events can end these streams in time.
                let live = Self.live(trip, heartbeat: .seconds(3_600))
                let bo = StreamReader(try await live.open(caller: trip.bo, groupID: trip.groupID, lastEventID: nil))
                let vic = StreamReader(try await live.open(caller: trip.vic, groupID: nil, lastEventID: nil))
                let aki = StreamReader(try await live.open(caller: trip.aki, groupID: nil, lastEventID: nil))
                // act: Aki removes Bo; Vic's session is revoked
                let members = MemberUseCases(database: trip.database, now: { milliseconds() })
                _ = try await members.remove(
                    trip.boMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki,
                    origin: trip.origin)
                // Ended by the removal's own event, not a timer (the heartbeat is an hour away).
                #expect(await bo.wait { $0.ended }, "Bo's stream is still open")
                _ = try await AccountStore(database: trip.database).revokeSession(
                    id: trip.vic.session.id, userID: trip.vic.user.id, now: milliseconds())
                #expect(await vic.wait { $0.ended }, "Vic's stream is still open")
                // and a deactivated account's (its sessions go with it)
                let stranger = StreamReader(try await live.open(caller: trip.stranger, groupID: nil, lastEventID: nil))
                try await AccountStore(database: trip.database).deactivate(userID: trip.stranger.user.id, now: milliseconds())
                #expect(await stranger.wait { $0.ended }, "the deactivated account's stream is still open")
                // validate: Aki's goes on, and saw the removal
                #expect(!aki.ended)
                #expect(await aki.wait { $0.changes.contains { $0.2.contains(trip.boMember.uuid) } })
            }
        }
    }

    @Test("a stream of all groups announces a group joined later", arguments: TestDatabases.all)
    func joined(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                let reader = StreamReader(try await Self.live(trip).open(caller: trip.stranger, groupID: nil, lastEventID: nil))
                let groups = GroupUseCases(
                    database: trip.database, now: { milliseconds() },
                    makeInviteCode: { UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") })
                let created = try await groups.create(
                    EnteredGroup(name: "Zed's book", homeCurrency: "EUR"), caller: trip.stranger)
                #expect(
                    await reader.wait {
                        $0.messages.contains {
                            if case .joined(let id, _, let position) = $0 {
                                id == created.group.id && position.seqs[id] != nil
                            } else {
                                false
                            }
                        }
                    }, "\(reader.report)")
                // And follows it from there.
                _ = try await groups.update(created.group.id, GroupPatch(name: "Zed's books"), caller: trip.stranger, origin: trip.origin)
                #expect(await reader.wait { $0.changes.contains { $0.0 == created.group.id } }, "\(reader.report)")
            }
        }
    }

    @Test("resuming all groups announces a group joined while the client was away", arguments: TestDatabases.all)
    func joinedWhileAway(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let live = Self.live(trip)
            let before = try await GroupLogStore(database: trip.database).currentSeq(groupID: trip.groupID)
            let groups = GroupUseCases(
                database: trip.database, now: { milliseconds() },
                makeInviteCode: { UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") })
            let created = try await groups.create(EnteredGroup(name: "Bo's book", homeCurrency: "EUR"), caller: trip.bo)
            let reader = StreamReader(
                try await live.open(caller: trip.bo, groupID: nil, lastEventID: "\(trip.groupID.uuidString).\(before)"))
            #expect(
                await reader.wait {
                    $0.messages.contains {
                        if case .joined(let id, _, let position) = $0 {
                            id == created.group.id && position.seqs[trip.groupID] == before
                        } else {
                            false
                        }
                    }
                }, "\(reader.report)")
        }
    }

    @Test("refused up front: another group is not found, a made-up Last-Event-ID is a 422", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let live = Self.live(trip)
            await #expect(throws: AppError.notFound("group")) {
                _ = try await live.open(caller: trip.stranger, groupID: trip.groupID, lastEventID: nil)
            }
            for bad in ["", "x", "\(trip.groupID.uuidString)", "\(trip.groupID.uuidString).-1", "a.1,b.2"] {
                do {
                    _ = try await live.open(caller: trip.bo, groupID: nil, lastEventID: bad)
                    Issue.record("\(bad) was taken")
                } catch AppError.invalid(let field, _) {
                    #expect(field == "Last-Event-ID")
                }
            }
        }
    }

    @Test("a reader that falls behind gets 'overflow' and the stream ends; writers never wait", arguments: [Database.Backend.sqlite])
    func overflow(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let stream = try await Self.live(trip).open(caller: trip.bo, groupID: trip.groupID, lastEventID: nil)
            // act: more events than a stream holds, while nobody reads
            let clock = ContinuousClock()
            let took = clock.measure {
                trip.database.events.publish(
                    (1...(LiveUseCases.bufferedEvents + 10)).map { .group(trip.groupID, seq: 1_000 + Int64($0)) })
            }
            // validate
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next() == .overflow)
            #expect(try await iterator.next() == nil)
            #expect(took < .milliseconds(100))
        }
    }

    @Test("a stream catching up stops at the caller's removal: nothing made after it reaches them", arguments: TestDatabases.all)
    func removalStopsCatchUp(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                // Bo's stream is open but not read yet: what follows is waiting in its buffer.
                let stream = try await Self.live(trip).open(caller: trip.bo, groupID: trip.groupID, lastEventID: nil)
                _ = try await MemberUseCases(database: trip.database, now: { milliseconds() }).remove(
                    trip.boMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki,
                    origin: trip.origin)
                let after = try await trip.create(
                    EnteredExpense(
                        description: "After Bo left", amount: "50.00", currency: "MYR", expenseDate: "2026-05-03",
                        paidByMemberId: trip.akiMember.description,
                        split: EnteredSplit(mode: .equal, memberIds: [trip.akiMember, trip.deeMember].map(\.description))))
                let reader = StreamReader(stream)
                #expect(await reader.wait { $0.ended }, "\(reader.report)")
                // Found by review: the catch-up sent the whole page (the expense made after the
                // removal, with its id and its author) before it checked.
                #expect(!reader.changes.contains { $0.2.contains(after.expense.id) }, "\(reader.report)")
                #expect(reader.changes.contains { $0.2.contains(trip.boMember.uuid) }, "\(reader.report)")
            }
        }
    }

    @Test("after the listener comes back (resync), a stream says the inbox may have changed", arguments: [Database.Backend.sqlite])
    func resyncTellsInbox(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                let reader = StreamReader(try await Self.live(trip).open(caller: trip.bo, groupID: nil, lastEventID: nil))
                // What the PostgreSQL listener publishes when it reconnects: inbox events may
                // have been lost meanwhile.
                trip.database.events.publish([.resync])
                // Found by review: a resync caught up the groups but never the unread count.
                #expect(await reader.wait { $0.messages.contains(.notification) }, "\(reader.report)")
            }
        }
    }

    @Test("a login that pushes the oldest out past the cap ends that session's stream at once", arguments: [Database.Backend.sqlite])
    func pushedOutSessionEndsStream(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                // A heartbeat an hour away: only the event can end the stream in time.
                let reader = StreamReader(
                    try await Self.live(trip, heartbeat: .seconds(3_600)).open(caller: trip.bo, groupID: nil, lastEventID: nil))
                let accounts = AccountStore(database: trip.database)
                for _ in 0..<3 {
                    let now = milliseconds()
                    try await accounts.createSession(
                        SessionRecord(
                            id: UUID(), userID: trip.bo.user.id, tokenHash: SessionToken.hash(SessionToken.generate()),
                            createdAt: now, lastUsedAt: now, expiresAt: now + 3_600_000),
                        keepingAtMost: 2)
                }
                #expect(try await accounts.isSessionLive(id: trip.bo.session.id, now: milliseconds()) == false)
                // Found by review: pushing a session out revoked it without telling its streams.
                #expect(await reader.wait { $0.ended }, "\(reader.report)")
            }
        }
    }

    @Test("a quiet stream sends heartbeats; a session past its expiry ends it", arguments: [Database.Backend.sqlite])
    func heartbeatAndExpiry(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let stream = try await Self.live(trip, heartbeat: .milliseconds(50)).open(
                caller: trip.bo, groupID: nil, lastEventID: nil)
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next() == .heartbeat)
            // A session that ends in 300 ms: its stream ends then.
            let accounts = AccountStore(database: trip.database)
            let token = SessionToken.generate()
            let now = milliseconds()
            try await accounts.createSession(
                SessionRecord(
                    id: UUID(), userID: trip.bo.user.id, tokenHash: SessionToken.hash(token), createdAt: now,
                    lastUsedAt: now, expiresAt: now + 300))
            let short = try #require(
                try await CallerResolver(accounts: accounts, now: { milliseconds() }).resolve(token: token))
            // A heartbeat an hour away: only the session's end can end the stream.
            let reader = StreamReader(
                try await Self.live(trip, heartbeat: .seconds(3_600)).open(caller: short, groupID: nil, lastEventID: nil))
            #expect(await reader.wait { $0.ended })
        }
    }
}
