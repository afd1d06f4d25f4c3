import Foundation
import SQLKit
import SplitCore

/// An `Idempotency-Key` as the client sent it, with a hash of what it was sent with.
public struct IdempotencyClaim: Sendable, Equatable {
    public var userID: UUID
    public var key: String
    /// SHA-256 (hex) of the route and the request body.
    public var requestHash: String

    public init(userID: UUID, key: String, requestHash: String) {
        self.userID = userID
        self.key = key
        self.requestHash = requestHash
    }
}

/// What a create answered, stored under its key so a retry gets the same bytes (DESIGN §5).
public struct StoredResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

public enum IdempotencyOutcome<Record: Sendable>: Sendable {
    /// The create ran now.
    case created(Record, StoredResponse)
    /// The key was used before with the same request: its first response.
    case replayed(StoredResponse)
    /// The key was used before with another request: nothing was done (422).
    case keyReused
}

/// Reads a key before any work is done, so a retry gets its first answer even if the request
/// would no longer pass validation (a member removed since, say).
public struct IdempotencyStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// The first response for this key and request, `.keyReused` for another request, nil when new.
    public func lookup(_ claim: IdempotencyClaim) async throws -> IdempotencyOutcome<StoredResponse>? {
        try await lookup(userID: claim.userID, keys: [claim.key])[claim.key].map { $0.outcome(for: claim) }
    }

    /// Makes a claimed key answer `response` from now on: for a create whose answer is known
    /// only after work done after its transaction (a recurring series' first occurrences). Until
    /// then the key answers what it was claimed with.
    public func answer(_ claim: IdempotencyClaim, with response: StoredResponse) async throws {
        try await database.transaction { sql in try await Idempotency.store(response, for: claim, sql) }
    }

    /// Several keys of one account in one read (a batch's): the key's stored answer by key, for
    /// `StoredKey.outcome(for:)`; a key not in it is new.
    public func lookup(userID: UUID, keys: [String]) async throws -> [String: StoredKey] {
        guard !keys.isEmpty else { return [:] }
        var found: [String: StoredKey] = [:]
        for start in stride(from: 0, to: keys.count, by: 500) {
            let some = Array(keys[start..<min(start + 500, keys.count)])
            let rows = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT key, request_hash, status, body FROM idempotency_keys
                    WHERE user_id = \(bind: userID.text) AND key IN (\(binds: some))
                    """
                ).all()
            }
            for row in rows {
                found[try row.decode(column: "key", as: String.self)] = try StoredKey(row: row)
            }
        }
        return found
    }
}

/// A key's row: what it was first sent with and answered.
public struct StoredKey: Sendable {
    let requestHash: String
    let response: StoredResponse

    init(row: any SQLRow) throws {
        requestHash = try row.decode(column: "request_hash", as: String.self)
        response = StoredResponse(
            status: Int(try row.decode(column: "status", as: Int64.self)),
            body: Data(try row.decode(column: "body", as: String.self).utf8))
    }

    /// The first response again for the same request; `.keyReused` for another.
    public func outcome(for claim: IdempotencyClaim) -> IdempotencyOutcome<StoredResponse> {
        requestHash == claim.requestHash ? .replayed(response) : .keyReused
    }
}

enum Idempotency {
    /// How long a key answers with its first response: 30 days, longer than an offline phone
    /// plausibly holds a queued create (a create past it is still caught by its client id).
    /// Older keys are removed by the next keyed create (issue 14 item 10: they were kept forever).
    static let window: Int64 = 30 * 86_400_000

    /// Runs `create` once per key, inside the caller's transaction. The key row is inserted
    /// first: a concurrent request with the same key waits on it (PostgreSQL's unique index;
    /// SQLite's single writer) and then finds the stored response, so 20 requests at once make
    /// one row. When `create` throws, the transaction rolls back with the key. `sweeping`: remove
    /// expired keys first (a transaction of several creates does it for the first). `expected`:
    /// the response `create` will most likely give, stored with the key as it is claimed, so the
    /// key is written again only when `create` answers otherwise (one statement less a create).
    static func run<Record: Sendable>(
        _ claim: IdempotencyClaim?, now: Int64, sweeping: Bool = true, expected: StoredResponse? = nil,
        _ sql: any SQLDatabase,
        create: () async throws -> (Record, StoredResponse)
    ) async throws -> IdempotencyOutcome<Record> {
        guard let claim else {
            let (record, response) = try await create()
            return .created(record, response)
        }
        let claimed = try await Self.claim([(claim, expected)], now: now, sweeping: sweeping, sql)
        guard claimed.contains(claim.key) else { return try await Self.stored(claim, sql) }
        let (record, response) = try await create()
        if response != expected { try await Self.store(response, for: claim, sql) }
        return .created(record, response)
    }

    /// Claims keys of one account, each with the answer it is expected to get (none: an empty
    /// one until `store`), in one statement; returns those claimed now, the others having been
    /// claimed before. `sweeping`: remove expired keys first.
    static func claim(
        _ claims: [(claim: IdempotencyClaim, expected: StoredResponse?)], now: Int64, sweeping: Bool,
        _ sql: any SQLDatabase
    ) async throws -> Set<String> {
        // No key, nothing to claim, and the sweep can wait for a transaction that claims one.
        guard !claims.isEmpty else { return [] }
        if sweeping {
            // Index range on created_at: nothing to read when nothing has expired.
            try await sql.raw("DELETE FROM idempotency_keys WHERE created_at < \(bind: now - window)").run()
        }
        var claimed: Set<String> = []
        try await MultiRowInsert.returning(
            "INSERT INTO idempotency_keys (user_id, key, request_hash, status, body, created_at)",
            claims.map { claim, expected in
                [
                    claim.userID.text, claim.key, claim.requestHash, Int64(expected?.status ?? 0),
                    expected.map { String(decoding: $0.body, as: UTF8.self) } ?? "", now,
                ]
            },
            then: "ON CONFLICT (user_id, key) DO NOTHING RETURNING key", on: sql
        ) { claimed.insert(try $0.decode(column: "key", as: String.self)) }
        return claimed
    }

    /// A key claimed before: its first answer for the same request, `.keyReused` for another.
    static func stored<Record: Sendable>(_ claim: IdempotencyClaim, _ sql: any SQLDatabase) async throws
        -> IdempotencyOutcome<Record>
    {
        guard
            let row = try await sql.raw(
                """
                SELECT request_hash, status, body FROM idempotency_keys
                WHERE user_id = \(bind: claim.userID.text) AND key = \(bind: claim.key)
                """
            ).first()
        else { throw IdempotencyError.vanished }
        switch try StoredKey(row: row).outcome(for: claim) {
        case .replayed(let response): return .replayed(response)
        default: return .keyReused
        }
    }

    /// The answer a claimed key gives from now on.
    static func store(_ response: StoredResponse, for claim: IdempotencyClaim, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE idempotency_keys SET status = \(bind: Int64(response.status)),
                body = \(bind: String(decoding: response.body, as: UTF8.self))
            WHERE user_id = \(bind: claim.userID.text) AND key = \(bind: claim.key)
            """
        ).run()
    }
}

enum IdempotencyError: Error {
    /// The key row disappeared between the conflict and the read (it cannot, short of manual deletes).
    case vanished
}
