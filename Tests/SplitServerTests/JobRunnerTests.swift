import Foundation
import Logging
import SQLKit
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitServer

/// How many times each job ran.
final class Runs: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func ran(_ payload: String) { counts.withLock { $0[payload, default: 0] += 1 } }
    var all: [String: Int] { counts.withLock { $0 } }

    func wait(seconds: Double = 60, until condition: ([String: Int]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(all), Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return condition(all)
    }
}

@Suite("The jobs table and its runner (durable background work)")
struct JobRunnerTests {
    /// Failures are what some of these tests are about: not worth a log line each.
    static let quiet: Logger = {
        var logger = Logger(label: "jobs-test")
        logger.logLevel = .critical
        return logger
    }()

    static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }

    /// The runners' lease in these tests. A lease that ends while its holder still runs lets
    /// another runner claim the job: that is the lease's purpose (a dead server's work is not
    /// lost) and `leaseExpiry` tests it with a lease of its own. A test process sharing two
    /// cores with the whole suite can stall longer than 10 s (CI once saw a job run twice that
    /// way), so the runners here hold their jobs for two minutes.
    static let lease: Int64 = 120_000

    static func runner(
        _ database: Database, _ handler: @escaping JobRunner.Handler,
        retryDelay: @escaping @Sendable (Int) -> Int64? = { _ in 0 }
    ) -> JobRunner {
        JobRunner(
            database: database, kinds: ["test": .init(retryDelay: { retryDelay($0.attempts) }, handle: handler)],
            now: { milliseconds() }, poll: .milliseconds(50), leaseMilliseconds: lease, logger: quiet)
    }

    @Test(
        "a unique key queues once; two runners on one database run each of 200 jobs exactly once",
        arguments: TestDatabases.all)
    func exactlyOnce(backend: Database.Backend) async throws {
        try await TestDatabases.withConfiguration(backend) { configuration in
            let serverA = try await Database.open(configuration, logger: TestDatabases.logger)
            let serverB = try await Database.open(configuration, logger: TestDatabases.logger)
            try await Migrations.run(on: serverA)
            let store = JobStore(database: serverA)
            #expect(try await store.enqueue(kind: "test", uniqueKey: "once", payload: "once", dueAt: 0, now: 0))
            #expect(
                try await store.enqueue(kind: "test", uniqueKey: "once", payload: "again", dueAt: 0, now: 0) == false)
            for index in 0..<200 {
                try await store.enqueue(kind: "test", payload: "job-\(index)", dueAt: 0, now: 0)
            }
            // act: a runner on each "server"
            let runs = Runs()
            let handler: JobRunner.Handler = { job in runs.ran(job.payload) }
            let tasks = [serverA, serverB].map { database in
                Task { try await Self.runner(database, handler).run() }
            }
            let finished = await runs.wait { $0.count == 201 }
            // A handler's return comes a moment before its job is recorded done.
            let deadline = Date().addingTimeInterval(60)
            while try await store.counts().done < 201, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            tasks.forEach { $0.cancel() }
            // validate
            #expect(finished, "ran \(runs.all.count) of 201")
            #expect(runs.all.values.allSatisfy { $0 == 1 }, "some ran twice: \(runs.all.filter { $0.value > 1 })")
            #expect(runs.all["again"] == nil)
            let counts = try await store.counts()
            #expect(counts.waiting == 0 && counts.done == 201 && counts.failed == 0)
            try await serverA.close()
            try await serverB.close()
        }
    }

    @Test(
        "a failing job is retried after its delay, then kept as failed with its error",
        arguments: [Database.Backend.sqlite])
    func retries(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let store = JobStore(database: database)
            try await store.enqueue(kind: "test", payload: "flaky", dueAt: 0, now: 0)
            try await store.enqueue(kind: "test", payload: "broken", dueAt: 0, now: 0)
            struct Failure: Error, CustomStringConvertible { var description: String { "the far end said no" } }
            let runs = Runs()
            // "flaky" fails twice then works; "broken" always fails and gets three attempts.
            let task = Task {
                try await Self.runner(
                    database,
                    { job in
                        runs.ran(job.payload)
                        if job.payload == "broken" || job.attempts < 3 { throw Failure() }
                    }, retryDelay: { $0 < 3 ? 0 : nil }
                ).run()
            }
            #expect(await runs.wait { $0["flaky"] == 3 && $0["broken"] == 3 })
            let deadline = Date().addingTimeInterval(60)
            while try await store.counts().waiting > 0, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            task.cancel()
            #expect(runs.all == ["flaky": 3, "broken": 3])
            let counts = try await store.counts()
            #expect(counts.done == 1 && counts.failed == 1 && counts.waiting == 0)
            let failed = try await database.read { sql in
                try await sql.raw("SELECT last_error FROM jobs WHERE payload = 'broken'").first()?
                    .decode(column: "last_error", as: String?.self)
            }
            #expect(failed == "the far end said no")
        }
    }

    @Test(
        "a job whose worker died is claimed again when its lease ends; the dead worker's completion does not count",
        arguments: TestDatabases.all)
    func leaseExpiry(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let store = JobStore(database: database)
            try await store.enqueue(kind: "test", payload: "orphan", dueAt: 0, now: 0)
            let now = Self.milliseconds()
            let taken = try await store.claim(
                kinds: ["test"], worker: "dead", now: now, leaseMilliseconds: 300, limit: 5)
            #expect(taken.map(\.payload) == ["orphan"])
            // While the lease holds nobody else gets it.
            #expect(
                try await store.claim(
                    kinds: ["test"], worker: "other", now: now + 100, leaseMilliseconds: 300, limit: 5
                ).isEmpty)
            // act: after it, a live runner does
            let runs = Runs()
            let task = Task { try await Self.runner(database, { job in runs.ran(job.payload) }).run() }
            #expect(await runs.wait { $0["orphan"] == 1 })
            let deadline = Date().addingTimeInterval(60)
            while try await store.counts().done < 1, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            task.cancel()
            #expect(try await store.complete(taken[0].id, worker: "dead", now: Self.milliseconds()) == false)
            #expect(try await store.counts().done == 1)
        }
    }
}
