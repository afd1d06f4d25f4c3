import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitStore

/// What a bus subscriber received, for tests that wait on it.
final class ReceivedEvents: Sendable {
    private let events = Mutex<[BusEvent]>([])

    func add(_ event: BusEvent) { events.withLock { $0.append(event) } }
    var all: [BusEvent] { events.withLock { $0 } }

    /// Waits until `condition` holds of what came, or `seconds` pass; what came either way.
    func wait(seconds: Double = 3, until condition: ([BusEvent]) -> Bool) async -> [BusEvent] {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(all), Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return all
    }
}

@Suite("The event bus: published after commit, never for a rollback")
struct EventBusTests {
    static func group(_ database: Database) async throws -> UUID {
        let now: Int64 = 1_000
        let accounts = AccountStore(database: database)
        let user = try await accounts.createUser(
            UserRecord(
                id: UUID(), email: "\(UUID())@example.com", phone: nil, displayName: "Aki", passwordHash: "x",
                createdAt: now, updatedAt: now))
        let (group, _) = try await GroupStore(database: database).createGroup(
            GroupRecord(
                id: UUID(), name: "Japan", homeCurrency: "JPY", ownerUserID: user.id, inviteCode: nil, createdAt: now,
                updatedAt: now),
            ownerName: "Aki")
        return group.id
    }

    /// A migrated database with one group, listening for events, and what a subscriber to
    /// everything received.
    static func withGroupAndListener(
        _ backend: Database.Backend,
        _ body: @escaping @Sendable (Database, UUID, ReceivedEvents) async throws -> Void
    ) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let groupID = try await Self.group(database)
            try await listening(database) {
                let received = ReceivedEvents()
                let token = database.events.subscribe(everything: true) { received.add($0) }
                defer { database.events.unsubscribe(token) }
                try await body(database, groupID, received)
            }
        }
    }

    @Test("a committed group write is published with its change number; a rolled-back one is not", arguments: TestDatabases.all)
    func afterCommitOnly(backend: Database.Backend) async throws {
        try await Self.withGroupAndListener(backend) { database, groupID, received in
            // act: a write that fails after taking its change number, then one that commits
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await database.transaction { sql in
                    _ = try await GroupLog.begin(sql, groupID: groupID, now: 2_000)
                    throw Refused()
                }
            }
            let seq = try await database.transaction { sql in
                try #require(try await GroupLog.begin(sql, groupID: groupID, now: 2_000)).seq
            }
            // validate: only the committed one, once
            let events = await received.wait { $0.contains(.group(groupID, seq: seq)) }
            #expect(events.filter { if case .group = $0 { true } else { false } } == [.group(groupID, seq: seq)])
            // The rolled-back write's number was given back: the committed write has it.
            #expect(seq == 2)
        }
    }

    @Test(
        "events a write batch sends (on PostgreSQL in its statement) arrive once, after commit, with those noted after it; a rolled-back batch's never",
        arguments: TestDatabases.all)
    func sentByWriteBatch(backend: Database.Backend) async throws {
        try await Self.withGroupAndListener(backend) { database, groupID, received in
            @Sendable func touch() -> WriteBatch {
                var batch = WriteBatch()
                batch.add("UPDATE groups SET updated_at = updated_at + 1 WHERE id = \(bind: groupID.text)")
                return batch
            }
            // act: a batch whose transaction then fails, then one that commits with an event
            // noted after the batch and a second batch with nothing new to send
            struct Refused: Error {}
            let refusedUser = UUID()
            await #expect(throws: Refused.self) {
                try await database.transaction { sql in
                    _ = try await GroupLog.begin(sql, groupID: groupID, now: 2_000)
                    PendingEvents.note(.account(refusedUser))
                    _ = try await touch().run(on: sql)
                    throw Refused()
                }
            }
            let user = UUID()
            let seq = try await database.transaction { sql in
                let seq = try #require(try await GroupLog.begin(sql, groupID: groupID, now: 2_000)).seq
                _ = try await touch().run(on: sql)
                PendingEvents.note(.account(user))
                _ = try await touch().run(on: sql)
                _ = try await WriteBatch().run(on: sql)
                return seq
            }
            // validate: each committed event once (a late duplicate has time to arrive), no
            // rolled-back one, and the writes made
            _ = await received.wait { $0.count >= 2 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(received.all.count == 2)
            #expect(Set(received.all) == [.group(groupID, seq: seq), .account(user)])
            let updated: Int64 = try await database.read { sql in
                let row = try #require(
                    try await sql.raw("SELECT updated_at FROM groups WHERE id = \(bind: groupID.text)").first())
                return try row.decode(column: "updated_at", as: Int64.self)
            }
            #expect(updated == 1_002)
        }
    }

    @Test("a write on one server reaches the bus of another on the same PostgreSQL database")
    func acrossServers() async throws {
        guard TestDatabases.all.contains(.postgres) else { return }
        try await TestDatabases.withConfiguration(.postgres) { configuration in
            let serverA = try await Database.open(configuration, logger: TestDatabases.logger)
            let serverB = try await Database.open(configuration, logger: TestDatabases.logger)
            do {
                try await Migrations.run(on: serverA)
                let groupID = try await Self.group(serverA)
                try await listening(serverB) {
                    let received = ReceivedEvents()
                    let token = serverB.events.subscribe(everything: true) { received.add($0) }
                    defer { serverB.events.unsubscribe(token) }
                    let user = UUID()
                    let seq = try await serverA.transaction { sql in
                        PendingEvents.note(.account(user))
                        return try #require(try await GroupLog.begin(sql, groupID: groupID, now: 2_000)).seq
                    }
                    let events = await received.wait { $0.count >= 2 }
                    #expect(Set(events) == [.group(groupID, seq: seq), .account(user)])
                }
            } catch {
                try? await serverA.close()
                try? await serverB.close()
                throw error
            }
            try await serverA.close()
            try await serverB.close()
        }
    }

    @Test("a server on PostgreSQL's Unix socket shares the database and its events with one on TCP")
    func overTheSocket() async throws {
        guard TestDatabases.all.contains(.postgres) else { return }
        try await TestDatabases.withConfiguration(.postgres) { configuration in
            guard case .postgres(let url) = configuration, var components = URLComponents(string: url) else {
                Issue.record("not PostgreSQL: \(configuration)")
                return
            }
            let overTCP = try await Database.open(configuration, logger: TestDatabases.logger)
            do {
                // The socket's directory and port, from the server itself; the URL as libpq takes it.
                let (directory, port) = try await overTCP.read { sql in
                    let row = try #require(
                        try await sql.raw(
                            "SELECT current_setting('unix_socket_directories') AS d, current_setting('port') AS p"
                        ).first())
                    return (try row.decode(column: "d", as: String.self), try row.decode(column: "p", as: String.self))
                }
                components.host = ""
                components.port = nil
                let first = directory.split(separator: ",")[0].trimmingCharacters(in: .whitespaces)
                components.queryItems = [
                    URLQueryItem(name: "host", value: first),
                    URLQueryItem(name: "port", value: port),
                ]
                let socketURL = try #require(components.string)
                #expect(DatabaseConfiguration.postgresSocketPath(socketURL) != nil)
                let overSocket = try await Database.open(
                    try DatabaseConfiguration(databaseURL: socketURL), logger: TestDatabases.logger)
                do {
                    try await Migrations.run(on: overTCP)
                    // A write over the socket is read back over TCP.
                    let groupID = try await Self.group(overSocket)
                    let name = try await overTCP.read { sql in
                        try await sql.raw("SELECT name FROM groups WHERE id = \(bind: groupID.text)").first()?
                            .decode(column: "name", as: String.self)
                    }
                    #expect(name == "Japan")
                    // A write over TCP reaches the bus of the server on the socket.
                    try await listening(overSocket) {
                        let received = ReceivedEvents()
                        let token = overSocket.events.subscribe(everything: true) { received.add($0) }
                        defer { overSocket.events.unsubscribe(token) }
                        let seq = try await overTCP.transaction { sql in
                            try #require(try await GroupLog.begin(sql, groupID: groupID, now: 2_000)).seq
                        }
                        let events = await received.wait { $0.contains(.group(groupID, seq: seq)) }
                        #expect(events.contains(.group(groupID, seq: seq)))
                    }
                } catch {
                    try? await overSocket.close()
                    throw error
                }
                try await overSocket.close()
            } catch {
                try? await overTCP.close()
                throw error
            }
            try await overTCP.close()
        }
    }

    @Test("a publish reaches only who follows its group or account (and everyone for resync and jobs)")
    func routing() {
        let bus = EventBus()
        let (g1, g2, user) = (UUID(), UUID(), UUID())
        let (a, b, c) = (ReceivedEvents(), ReceivedEvents(), ReceivedEvents())
        let tokenA = bus.subscribe(groups: [g1]) { a.add($0) }
        let tokenB = bus.subscribe(user: user) { b.add($0) }
        let tokenC = bus.subscribe(everything: true) { c.add($0) }
        bus.publish([.group(g2, seq: 1), .group(g1, seq: 2), .inbox(user), .account(UUID()), .jobs])
        #expect(a.all == [.group(g1, seq: 2), .jobs])
        #expect(b.all == [.inbox(user), .jobs])
        #expect(c.all.count == 5)
        // Following other groups, and leaving.
        bus.follow(tokenA, groups: [g2])
        bus.unsubscribe(tokenB)
        bus.publish([.group(g1, seq: 3), .group(g2, seq: 4), .inbox(user)])
        #expect(a.all.suffix(1) == [.group(g2, seq: 4)])
        #expect(b.all.count == 2)
        bus.unsubscribe(tokenA)
        bus.unsubscribe(tokenC)
        #expect(bus.subscriberCount == 0)
    }

    @Test("payloads split under PostgreSQL's 8,000 bytes and read back to the same events")
    func payloads() {
        let events = (0..<500).map { BusEvent.group(UUID(), seq: Int64($0)) } + [.account(UUID()), .resync]
        let payloads = BusEvent.payloads(events)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= 7_900 })
        #expect(payloads.flatMap(BusEvent.parse(payload:)) == events)
        #expect(BusEvent.parse(payload: "g nonsense 1\nx\n\ng \(UUID().uuidString) -") == [])
    }
}
