import Foundation
import Logging
import ServiceLifecycle
import SplitCore
import SplitStore
import Synchronization

/// Runs the jobs table's work on this server (docs/architecture.md, "Jobs"): every server runs
/// one, and each job runs on whichever claims it first. It looks for due work when a write
/// queues some (`BusEvent.jobs`, from any server) and every `poll` besides (for work that falls
/// due later and for retries). A handler that throws is retried with exponential backoff
/// (`retryDelay`), and after its last attempt the job is kept as failed, with its error.
///
/// On SIGTERM it takes no new job and finishes the one it is running, so a restart neither
/// loses work nor runs a job twice; only a crash mid-job leaves it to run again once its lease
/// ends.
public struct JobRunner: Service {
    public typealias Handler = @Sendable (JobRecord) async throws -> Void

    /// What runs a kind of job, and how it is retried.
    public struct Kind: Sendable {
        public var handle: Handler
        /// The wait before the next attempt after `job.attempts` failed ones; nil: give up.
        public var retryDelay: @Sendable (_ job: JobRecord) -> Int64?

        public init(
            retryDelay: @escaping @Sendable (JobRecord) -> Int64? = { JobRunner.backoff($0.attempts) },
            handle: @escaping Handler
        ) {
            self.handle = handle
            self.retryDelay = retryDelay
        }
    }

    let jobs: JobStore
    let bus: EventBus
    let kinds: [String: Kind]
    let worker: String
    let now: @Sendable () -> Int64
    let poll: Duration
    let leaseMilliseconds: Int64
    let logger: Logger

    public init(
        database: Database, kinds: [String: Kind], now: @escaping @Sendable () -> Int64,
        poll: Duration = .seconds(5), leaseMilliseconds: Int64 = 300_000, logger: Logger
    ) {
        jobs = JobStore(database: database)
        bus = database.events
        self.kinds = kinds
        worker = UUID.random().uuidString.lowercased()
        self.now = now
        self.poll = poll
        self.leaseMilliseconds = leaseMilliseconds
        self.logger = logger
    }

    /// How long finished jobs stay in the table.
    public static let keepFinished: Int64 = 7 * 86_400_000

    /// 30 s, 1, 2, 4 … minutes, at most an hour apart, for about a day (30 attempts).
    public static let backoff: @Sendable (Int) -> Int64? = { attempts in
        guard attempts < 30 else { return nil }
        return min(30_000 << min(attempts - 1, 20), 3_600_000)
    }

    /// Thrown by a handler for a failure that no retry can mend (a mailbox that does not
    /// exist, a webhook that was deleted): the job is kept as failed at once.
    public struct PermanentFailure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public func run() async throws {
        // A service that returns early would stop the server with it.
        guard !kinds.isEmpty else { return try await gracefulShutdown() }
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let token = bus.subscribe(everything: true) { event in
            if event == .jobs || event == .resync { wake.yield() }
        }
        defer { bus.unsubscribe(token) }
        let stopping = Atomic<Bool>(false)
        let ticker = Task {
            var lastPrune: Int64 = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: poll)
                wake.yield()
                // Finished jobs are kept a week (for the operator and the delivery log), then go.
                if now() - lastPrune > 3_600_000 {
                    lastPrune = now()
                    _ = try? await jobs.prune(finishedBefore: lastPrune - Self.keepFinished)
                }
            }
        }
        defer { ticker.cancel() }
        await withGracefulShutdownHandler {
            var iterator = wakes.makeAsyncIterator()
            repeat {
                await drain(while: { !stopping.load(ordering: .relaxed) })
            } while await iterator.next() != nil && !stopping.load(ordering: .relaxed)
        } onGracefulShutdown: {
            stopping.store(true, ordering: .relaxed)
            wake.finish()
        }
    }

    /// Runs due jobs one at a time until none is due or `going` says stop.
    func drain(while going: () -> Bool) async {
        let names = Array(kinds.keys)
        while going() {
            let claimed: [JobRecord]
            do {
                claimed = try await jobs.claim(
                    kinds: names, worker: worker, now: now(), leaseMilliseconds: leaseMilliseconds, limit: 1)
            } catch {
                logger.warning("claiming jobs failed", metadata: ["error": "\(String(reflecting: error))"])
                return
            }
            guard let job = claimed.first, let kind = kinds[job.kind] else { return }
            do {
                try await kind.handle(job)
            } catch {
                let retryAt = error is PermanentFailure ? nil : kind.retryDelay(job).map { now() + $0 }
                logger.warning(
                    "job failed",
                    metadata: [
                        "kind": "\(job.kind)", "attempts": "\(job.attempts)", "retry": "\(retryAt != nil)",
                        "error": "\(String(reflecting: error))",
                    ])
                await record("a failed job") {
                    try await jobs.fail(job.id, worker: worker, error: "\(error)", retryAt: retryAt, now: now())
                }
                continue
            }
            await record("a finished job") { _ = try await jobs.complete(job.id, worker: worker, now: now()) }
        }
    }

    /// Writes a job's outcome, trying three times: an outcome that is not written leaves the
    /// job leased until its lease ends (a finished job would run again, a failed one would wait
    /// the whole lease instead of its retry delay).
    func record(_ what: String, _ write: () async throws -> Void) async {
        for attempt in 1...3 {
            do {
                return try await write()
            } catch {
                logger.warning(
                    "recording \(what) failed",
                    metadata: ["attempt": "\(attempt)", "error": "\(String(reflecting: error))"])
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }
}
