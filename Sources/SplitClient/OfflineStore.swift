import Foundation
import GRDB
import SplitAPI

/// A write made while the server could not be reached, kept until `SyncEngine.push` sends it.
/// It carries a client-generated id and an idempotency key, so sending it twice creates nothing
/// twice (DESIGN §5, §8).
public struct PendingOperation: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public enum Kind: String, Codable, Sendable {
        case createExpense
        case createSettlement
    }

    public static let databaseTableName = "pending_operations"

    public var id: String
    public var groupID: String
    public var kind: Kind
    /// The request body, as JSON.
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    /// Set when the server refused it (422, 403, 404, 409): kept, with why, for the user to see.
    public var error: String?
    /// A human line for `splitter status`.
    public var summary: String

    public init(
        id: String, groupID: String, kind: Kind, body: Data, idempotencyKey: String, createdAt: Date,
        error: String? = nil,
        summary: String
    ) {
        self.id = id
        self.groupID = groupID
        self.kind = kind
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.error = error
        self.summary = summary
    }
}

/// What the SDK keeps on disk: the queue of pending writes and the last known groups and
/// members (so names resolve while offline). One SQLite file through GRDB.
public final class OfflineStore: Sendable {
    let database: DatabaseQueue

    public init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        database = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("0001_queue_and_cache") { db in
            try db.create(table: "pending_operations") { table in
                table.primaryKey("id", .text)
                table.column("groupID", .text).notNull()
                table.column("kind", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("idempotencyKey", .text).notNull()
                table.column("createdAt", .datetime).notNull()
                table.column("error", .text)
                table.column("summary", .text).notNull()
            }
            try db.create(table: "cached_groups") { table in
                table.primaryKey("id", .text)
                table.column("json", .blob).notNull()
                table.column("membersJSON", .blob)
            }
            try db.create(table: "sync_state") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
        }
        try migrator.migrate(database)
    }

    public func enqueue(_ operation: PendingOperation) throws {
        try database.write { try operation.insert($0) }
    }

    /// Waiting operations in the order they were made (parked ones excluded).
    public func pending() throws -> [PendingOperation] {
        try database.read { db in
            try PendingOperation.filter(Column("error") == nil).order(Column("createdAt"), Column("id")).fetchAll(db)
        }
    }

    /// Operations the server refused, with why.
    public func parked() throws -> [PendingOperation] {
        try database.read { db in
            try PendingOperation.filter(Column("error") != nil).order(Column("createdAt"), Column("id")).fetchAll(db)
        }
    }

    func remove(id: String) throws {
        _ = try database.write { try PendingOperation.deleteOne($0, key: id) }
    }

    func park(id: String, error: String) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE pending_operations SET error = ? WHERE id = ?", arguments: [error, id])
        }
    }

    // MARK: Cache

    public func cache(groups: [Group]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try database.write { db in
            for group in groups {
                try db.execute(
                    sql: """
                        INSERT INTO cached_groups (id, json) VALUES (?, ?)
                        ON CONFLICT (id) DO UPDATE SET json = excluded.json
                        """, arguments: [group.id, try encoder.encode(group)])
            }
        }
    }

    public func cache(members: [Member], groupID: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try database.write { db in
            try db.execute(
                sql: "UPDATE cached_groups SET membersJSON = ? WHERE id = ?",
                arguments: [try encoder.encode(members), groupID])
        }
    }

    public func cachedGroups() throws -> [Group] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try database.read { db in
            try Data.fetchAll(db, sql: "SELECT json FROM cached_groups ORDER BY id").map {
                try decoder.decode(Group.self, from: $0)
            }
        }
    }

    public func cachedMembers(groupID: String) throws -> [Member] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try database.read { db in
            guard
                let data = try Data.fetchOne(
                    db, sql: "SELECT membersJSON FROM cached_groups WHERE id = ?", arguments: [groupID])
            else { return [] }
            return try decoder.decode([Member].self, from: data)
        }
    }

    public var lastSync: Date? {
        get throws {
            try database.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'lastSync'")
                    .flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:))
            }
        }
    }

    func recordSync(_ date: Date) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_state (key, value) VALUES ('lastSync', ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, arguments: [String(date.timeIntervalSince1970)])
        }
    }
}

/// Sends the queue in order (DESIGN §8): safe to repeat, a refused operation is parked with its
/// error and the rest go on, and an unreachable server or a dead session stops the run with the
/// queue kept.
public struct SyncEngine: Sendable {
    public struct Report: Sendable, Equatable {
        public var sent = 0
        public var parked = 0
        public var remaining = 0
        /// Why the run stopped early (offline, logged out), if it did.
        public var stoppedBecause: SplitterError?
    }

    let client: SplitterClient
    let store: OfflineStore

    public init(client: SplitterClient, store: OfflineStore) {
        self.client = client
        self.store = store
    }

    public func push() async throws -> Report {
        var report = Report()
        let queue = try store.pending()
        let decoder = JSONDecoder()
        for (index, operation) in queue.enumerated() {
            do {
                switch operation.kind {
                case .createExpense:
                    let request = try decoder.decode(Components.Schemas.CreateExpenseRequest.self, from: operation.body)
                    _ = try await client.addExpense(request, idempotencyKey: operation.idempotencyKey)
                case .createSettlement:
                    let request = try decoder.decode(
                        Components.Schemas.CreateSettlementRequest.self, from: operation.body)
                    _ = try await client.settle(
                        groupID: operation.groupID, from: request.fromMemberId, to: request.toMemberId,
                        amount: request.amount,
                        currency: request.currency, note: request.note, id: request.id,
                        idempotencyKey: operation.idempotencyKey)
                }
                try store.remove(id: operation.id)
                report.sent += 1
            } catch let error as SplitterError {
                switch error {
                case .offline, .unauthorized, .rateLimited, .server:
                    report.stoppedBecause = error
                    report.remaining = queue.count - index
                    return report
                case .validation, .forbidden, .notFound, .conflict:
                    try store.park(id: operation.id, error: error.description)
                    report.parked += 1
                }
            }
        }
        try store.recordSync(Date())
        return report
    }
}
