import Foundation
import SQLKit
import SplitCore

/// A unit of background work (docs/architecture.md, "Jobs").
public struct JobRecord: Sendable, Equatable {
    public var id: UUID
    public var kind: String
    /// At most one job ever has this key: enqueueing it again does nothing (a mail per
    /// notification, a recurring expense per date).
    public var uniqueKey: String?
    /// What the job's handler needs, as the handler's own JSON.
    public var payload: String
    public var dueAt: Int64
    /// Claims so far, this one included.
    public var attempts: Int
    public var createdAt: Int64
    public var lastError: String?
}

/// The jobs table: durable work that runs once, later, or again after a failure, on whichever
/// server claims it first. A claim is a lease: the job is the claimer's until `locked_until`;
/// a server that dies mid-job leaves it to be claimed again when the lease ends, so a handler
/// must cope with running twice for the rare crash between its effect and `complete` (a
/// mail's Message-ID, a webhook's delivery id). Two servers never hold one job at once.
public struct JobStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Adds a job, in the caller's transaction; nothing when `uniqueKey` is taken. Returns
    /// whether it was added.
    @discardableResult
    static func enqueue(
        kind: String, uniqueKey: String?, payload: String, dueAt: Int64, now: Int64, _ sql: any SQLDatabase
    ) async throws -> Bool {
        let added = try await sql.raw(
            """
            INSERT INTO jobs (id, kind, unique_key, payload, due_at, created_at)
            VALUES (\(bind: UUID.random().text), \(bind: kind), \(bind: uniqueKey), \(bind: payload), \(bind: dueAt), \(bind: now))
            ON CONFLICT (unique_key) DO NOTHING
            RETURNING id
            """
        ).first()
        if added != nil { PendingEvents.note(.jobs) }
        return added != nil
    }

    /// Adds a job in its own transaction.
    @discardableResult
    public func enqueue(kind: String, uniqueKey: String? = nil, payload: String, dueAt: Int64, now: Int64)
        async throws -> Bool
    {
        try await database.transaction { sql in
            try await Self.enqueue(kind: kind, uniqueKey: uniqueKey, payload: payload, dueAt: dueAt, now: now, sql)
        }
    }

    /// Takes up to `limit` due jobs of these kinds for `worker` until `now + lease`, oldest due
    /// first. On PostgreSQL `SKIP LOCKED` lets servers claim side by side without waiting on
    /// each other; SQLite's one writer serializes claims.
    public func claim(kinds: [String], worker: String, now: Int64, leaseMilliseconds: Int64, limit: Int)
        async throws -> [JobRecord]
    {
        guard !kinds.isEmpty, limit > 0 else { return [] }
        let skipLocked = database.backend == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE jobs SET locked_by = \(bind: worker), locked_until = \(bind: now + leaseMilliseconds),
                    attempts = attempts + 1
                WHERE id IN (
                    SELECT id FROM jobs
                    WHERE done_at IS NULL AND failed_at IS NULL AND due_at <= \(bind: now)
                          AND (locked_until IS NULL OR locked_until <= \(bind: now))
                          AND kind IN (\(binds: kinds))
                    ORDER BY due_at, id LIMIT \(bind: limit)\(unsafeRaw: skipLocked))
                RETURNING *
                """
            ).all().map(JobRecord.init(row:)).sorted { ($0.dueAt, $0.id.text) < ($1.dueAt, $1.id.text) }
        }
    }

    /// Marks a claimed job done; false when the lease had passed to another worker (whose run
    /// then counts).
    @discardableResult
    public func complete(_ id: UUID, worker: String, now: Int64) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE jobs SET done_at = \(bind: now), locked_until = NULL
                WHERE id = \(bind: id.text) AND locked_by = \(bind: worker) AND done_at IS NULL
                RETURNING id
                """
            ).first() != nil
        }
    }

    /// Gives a claimed job back after a failure: due again at `retryAt`, or failed for good
    /// when that is nil.
    public func fail(_ id: UUID, worker: String, error: String, retryAt: Int64?, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE jobs SET last_error = \(bind: String(error.prefix(2_000))), locked_until = NULL,
                    due_at = \(bind: retryAt ?? now), failed_at = \(bind: retryAt == nil ? now : nil)
                WHERE id = \(bind: id.text) AND locked_by = \(bind: worker) AND done_at IS NULL
                """
            ).run()
        }
    }

    /// Forgets jobs that finished (done or failed for good) before `before`; returns how many.
    @discardableResult
    public func prune(finishedBefore before: Int64) async throws -> Int {
        try await database.transaction { sql in
            try await sql.raw(
                """
                DELETE FROM jobs WHERE (done_at IS NOT NULL AND done_at < \(bind: before))
                    OR (failed_at IS NOT NULL AND failed_at < \(bind: before))
                RETURNING id
                """
            ).all().count
        }
    }

    /// Counts by state, for tests, benchmarks and the operator.
    public func counts() async throws -> (waiting: Int, done: Int, failed: Int) {
        try await database.read { sql in
            let row = try await sql.raw(
                """
                SELECT COALESCE(SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL THEN 1 ELSE 0 END), 0) AS waiting,
                       COALESCE(SUM(CASE WHEN done_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS done,
                       COALESCE(SUM(CASE WHEN failed_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS failed
                FROM jobs
                """
            ).first()
            return (
                try row?.decode(column: "waiting", as: Int.self) ?? 0, try row?.decode(column: "done", as: Int.self) ?? 0,
                try row?.decode(column: "failed", as: Int.self) ?? 0
            )
        }
    }
}

extension JobRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), kind: try row.decode(column: "kind", as: String.self),
            uniqueKey: try row.decode(column: "unique_key", as: String?.self),
            payload: try row.decode(column: "payload", as: String.self),
            dueAt: try row.decode(column: "due_at", as: Int64.self),
            attempts: try row.decode(column: "attempts", as: Int.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastError: try row.decode(column: "last_error", as: String?.self))
    }
}
