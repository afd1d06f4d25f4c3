import Foundation
import SplitClient
import SplitTestSupport
import Testing

/// The SDK's live stream against the real server: changes arrive as they are made, nothing is
/// lost across a server restart, and what cannot be retried ends the stream with its error.
@Suite("SDK live events")
struct LiveEventsTests {
    @Test("a change made by another client arrives on the stream within moments; stopping the reader hangs up")
    func changeArrives() async throws {
        try await CLITrip.with { trip in
            // setup: Aki follows Japan (through a proxy that counts open connections); Ben
            // will add an expense
            let (_, ben, group) = try await Self.akiAndBen(trip)
            let proxy = try TCPProxy(to: UInt16(try #require(trip.server.baseURL.port)))
            defer { proxy.stop() }
            let aki = SplitterClient(serverURL: try proxy.url, tokens: Self.tokens(trip, "default"))
            let recorder = StreamRecorder(aki.events(groupID: group.id))
            defer { recorder.cancel() }
            try await recorder.wait("connected") { $0.contains { $0.kind == .connected } }

            // act
            let started = ContinuousClock.now
            let ramen = try await Self.addExpense("Ramen", by: ben, in: group)
            let events = try await recorder.wait("the change") { Self.expenseIDs(in: $0).contains(ramen.id) }
            let elapsed = ContinuousClock.now - started

            // validate: one change event naming the expense, its group and a resumable id
            // Arrival, not speed: with every suite running at once on two cores the create alone
            // can take seconds (the latency is measured by scripts/bench-live: p95 under 3 ms).
            #expect(elapsed < .seconds(15), "\(elapsed)")
            let change = try #require(events.first { $0.kind == .change })
            #expect(change.groupId == group.id && change.seq != nil, "\(change)")
            #expect(change.changes.contains(LiveChange(entity: "expense", id: ramen.id, isDeleted: false)))
            #expect(change.id?.hasPrefix("\(group.id).") == true, "\(change)")

            // Stopping the reader ends the stream at once, quietly, and closes the connection.
            #expect(proxy.openConnections == 1)
            let stopping = ContinuousClock.now
            await recorder.stop()
            #expect(ContinuousClock.now - stopping < .seconds(10))
            #expect(recorder.ending == .finished, "\(String(describing: recorder.ending))")
            while proxy.openConnections > 0, ContinuousClock.now - stopping < .seconds(5) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(proxy.openConnections == 0, "the stream's connection is still open")
        }
    }

    @Test("resuming with the last id after the server restarts on the same database loses nothing")
    func resumeAcrossRestart() async throws {
        try await CLITrip.with { trip in
            // setup: Aki follows Japan through a proxy that stays on one port while the server
            // moves (it comes back on a new port), with short waits between attempts
            let (_, ben, group) = try await Self.akiAndBen(trip)
            let proxy = try TCPProxy(to: UInt16(try #require(trip.server.baseURL.port)))
            defer { proxy.stop() }
            let viaProxy = SplitterClient(serverURL: try proxy.url, tokens: Self.tokens(trip, "default"))
            let policy = LiveReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
            let recorder = StreamRecorder(viaProxy.events(groupID: group.id, reconnect: policy))
            defer { recorder.cancel() }
            try await recorder.wait("connected") { $0.contains { $0.kind == .connected } }
            let one = try await Self.addExpense("One", by: ben, in: group)
            let seen = try await recorder.wait("One") { Self.expenseIDs(in: $0).contains(one.id) }
            let afterOne = try #require(seen.last { $0.kind == .change }?.id)

            // act: the server goes away (the stream drops and cannot reconnect), comes back on
            // the same database, two expenses are made before the stream is let through again,
            // and one more after
            proxy.hold()
            try await recorder.wait("the drop") { $0.contains { $0.kind == .disconnected } }
            try await trip.restartServer()
            let newBen = SplitterClient(serverURL: trip.server.baseURL, tokens: Self.tokens(trip, "ben"))
            let two = try await Self.addExpense("Two", by: newBen, in: group)
            let three = try await Self.addExpense("Three", by: newBen, in: group)
            proxy.forward(to: UInt16(try #require(trip.server.baseURL.port)))
            try await recorder.wait("Two and Three") { Set(Self.expenseIDs(in: $0)).isSuperset(of: [two.id, three.id]) }
            let four = try await Self.addExpense("Four", by: newBen, in: group)
            let events = try await recorder.wait("Four") { Self.expenseIDs(in: $0).contains(four.id) }
            await recorder.stop()
            proxy.hold()

            // validate: every expense exactly once, in order, and change numbers only going up
            #expect(Self.expenseIDs(in: events) == [one.id, two.id, three.id, four.id], "\(events)")
            let seqs = events.filter { $0.kind == .change }.compactMap(\.seq)
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "\(seqs)")
            #expect(events.filter { $0.kind == .connected }.count >= 2)

            // A new stream given the id seen after One (an app started again) gets the rest.
            let fresh = SplitterClient(serverURL: trip.server.baseURL, tokens: Self.tokens(trip, "default"))
            let resumed = StreamRecorder(fresh.events(groupID: group.id, lastEventID: afterOne))
            defer { resumed.cancel() }
            let replayed = try await resumed.wait("the replay") { Self.expenseIDs(in: $0).contains(four.id) }
            await resumed.stop()
            #expect(Self.expenseIDs(in: replayed) == [two.id, three.id, four.id], "\(replayed)")
        }
    }

    @Test("a 401 after logout ends the stream with .unauthorized; a foreign group and a bad id end it at once")
    func refusalsEndTheStream() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's stream holds its own copy of her token; Ben stays logged in
            let (aki, ben, _) = try await Self.akiAndBen(trip)
            let token = try #require(try Self.tokens(trip, "default").load())
            let streaming = SplitterClient(serverURL: aki.serverURL, tokens: InMemoryTokenStore(token: token))
            let policy = LiveReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
            let recorder = StreamRecorder(streaming.events(reconnect: policy))
            defer { recorder.cancel() }
            try await recorder.wait("connected") { $0.contains { $0.kind == .connected } }

            // act: Aki logs out on the command line, which ends her session on the server
            #expect(try await trip.run("logout").status == 0)

            // validate: the server ends the stream, the reconnect is refused, and that is final
            let ending = try await recorder.end()
            guard case .failed(SplitterError.unauthorized) = ending else {
                Issue.record("ended with \(ending), after \(recorder.events)")
                return
            }
            #expect(recorder.events.map(\.kind).suffix(1) == [.disconnected], "\(recorder.events)")

            // A group that is not Ben's: not found, without ever connecting.
            let foreign = StreamRecorder(ben.events(groupID: UUID().uuidString.lowercased()))
            let notFound = try await foreign.end()
            guard case .failed(SplitterError.notFound) = notFound else {
                Issue.record("ended with \(notFound)")
                return
            }
            #expect(foreign.events.isEmpty, "\(foreign.events)")
            // An id the server never gave out: invalid input, also at once.
            let invalid = try await StreamRecorder(ben.events(lastEventID: "not an event id")).end()
            guard case .failed(SplitterError.validation) = invalid else {
                Issue.record("ended with \(invalid)")
                return
            }
        }
    }

    @Test("syncLive pulls each event's group into the offline copy before passing the event on")
    func syncLiveKeepsTheCopy() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's offline store, empty; Ben adds one expense before the stream opens
            let (aki, ben, group) = try await Self.akiAndBen(trip)
            let early = try await Self.addExpense("Early", by: ben, in: group)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-sync-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try OfflineStore(path: folder.appendingPathComponent("offline.sqlite").path)
            let recorder = StreamRecorder(SyncEngine(client: aki, store: store).syncLive())
            defer { recorder.cancel() }

            // act + validate: the connect pulls what came before; a change is in the copy
            // by the time its update arrives
            let connected = try #require(try await recorder.wait("connected") { !$0.isEmpty }.first)
            #expect(connected.event.kind == .connected && connected.pulled > 0, "\(connected)")
            #expect(try store.cachedExpense(id: early.id)?.description == "Early")
            let late = try await Self.addExpense("Late", by: ben, in: group)
            let update = try #require(try await recorder.wait("the change") { $0.count > 1 }.last)
            #expect(update.event.kind == .change && update.pulled == 1, "\(update)")
            #expect(try store.cachedExpense(id: late.id)?.description == "Late")
            await recorder.stop()
        }
    }

    // MARK: Helpers

    /// Aki's and Ben's SDK clients (the CLI's default and "ben" profiles) and their group Japan.
    static func akiAndBen(_ trip: CLITrip) async throws -> (SplitterClient, SplitterClient, Group) {
        try await trip.setUpJapan()
        let url = try #require(URL(string: trip.url))
        let aki = SplitterClient(serverURL: url, tokens: tokens(trip, "default"))
        let ben = SplitterClient(serverURL: url, tokens: tokens(trip, "ben"))
        let group = try #require(try await aki.groups().first)
        return (aki, ben, group)
    }

    /// Where the CLI keeps a profile's token.
    static func tokens(_ trip: CLITrip, _ profile: String) -> FileTokenStore {
        FileTokenStore(path: trip.config.appendingPathComponent("profiles/\(profile)/token").path)
    }

    /// A JPY expense paid by whoever `client` is logged in as.
    static func addExpense(_ description: String, by client: SplitterClient, in group: Group) async throws -> Expense
    {
        let me = try await client.me()
        let member = try #require(try await client.members(groupID: group.id).first { $0.userId == me.id })
        return try await client.addExpense(
            NewExpense(
                groupId: group.id, description: description, amount: "1200", currency: "JPY",
                expenseDate: "2026-11-21", paidByMemberId: member.id))
    }

    /// The expenses the change events name, in the order they came.
    static func expenseIDs(in events: [LiveEvent]) -> [String] {
        events.filter { $0.kind == .change }.flatMap(\.changes).filter { $0.entity == "expense" }.map(\.id)
    }
}

/// Reads a stream in the background, keeping every element and how the stream ended, so a
/// test can wait for what it expects with a deadline instead of blocking on `next()`.
final class StreamRecorder<Element: Sendable>: @unchecked Sendable {
    enum Ending: Equatable, CustomStringConvertible {
        case finished
        case failed(SplitterError)
        case failedOther(String)

        var description: String {
            switch self {
            case .finished: "finished"
            case .failed(let error): "\(error)"
            case .failedOther(let error): error
            }
        }
    }

    // Guarded by `lock`; that is why the class may be shared with its reading task.
    private let lock = NSLock()
    private var seen: [Element] = []
    private var ended: Ending?
    private var reader: Task<Void, Never>?

    init(_ stream: AsyncThrowingStream<Element, any Error>) {
        let task = Task { [self] in
            do {
                for try await event in stream { lock.withLock { seen.append(event) } }
                lock.withLock { ended = .finished }
            } catch let error as SplitterError {
                lock.withLock { ended = .failed(error) }
            } catch {
                lock.withLock { ended = .failedOther("\(error)") }
            }
        }
        lock.withLock { reader = task }
    }

    var events: [Element] { lock.withLock { seen } }
    var ending: Ending? { lock.withLock { ended } }

    /// Waits until the events so far satisfy `condition`, and returns them.
    @discardableResult
    func wait(
        _ what: String, timeout: Duration = .seconds(20), until condition: ([Element]) -> Bool
    ) async throws -> [Element] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (events, ending) = lock.withLock { (seen, ended) }
            if condition(events) { return events }
            guard ending == nil, ContinuousClock.now < deadline else {
                throw RecorderTimeout(
                    message: "waiting for \(what): the stream \(ending.map { "ended (\($0))" } ?? "timed out") after \(events)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the stream to end by itself.
    func end(timeout: Duration = .seconds(20)) async throws -> Ending {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let ending { return ending }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw RecorderTimeout(message: "the stream did not end; it sent \(events)")
    }

    /// Stops reading, as an app leaving a screen would, and waits for the reader to finish.
    func stop() async {
        cancel()
        await lock.withLock { reader }?.value
    }

    /// Stops reading without waiting (for `defer`, so a failing test hangs up too).
    func cancel() { lock.withLock { reader }?.cancel() }

    struct RecorderTimeout: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
