// Over 400 lines on purpose: the SDK's whole SQLite schema, its migrations and every query on
// it (the write queue, conflicts, the offline copy) sit in this one type, so no other file of the
// SDK touches its database.

import Foundation
import GRDB

/// A write made while the server could not be reached, kept until `SyncEngine.push` sends it.
/// It carries a client-generated id and an idempotency key, so sending it twice creates nothing
/// twice (DESIGN §5, §8). Edits carry the version they were based on, so a change someone else
/// made meanwhile is a conflict, never a silent overwrite.
public struct PendingOperation: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public enum Kind: String, Codable, Sendable {
        case createExpense
        case createSettlement
        case updateExpense
        case deleteExpense
        case restoreExpense
        case setSharePayment
    }

    /// Waiting to be sent; refused by the server (422, 403, 404: kept with why); or in conflict
    /// with a change made by someone else (kept with the server's version, until resolved).
    public enum State: String, Codable, Sendable {
        case pending
        case refused
        case conflict
    }

    public static let databaseTableName = "pending_operations"

    public var id: String
    public var groupID: String
    public var kind: Kind
    /// The request body, as JSON.
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    /// Why the server refused it, or what the conflict is.
    public var error: String?
    /// A human line for `splitter status`.
    public var summary: String
    /// The expense this operation is about (creates included), so later operations on the same
    /// expense wait while an earlier one is refused or in conflict.
    public var targetID: String?
    /// The expense version the change was based on.
    public var baseVersion: Int64?
    public var state: State
    /// The server's current expense (JSON) when the operation is in conflict.
    public var serverCurrent: Data?

    public init(
        id: String, groupID: String, kind: Kind, body: Data, idempotencyKey: String, createdAt: Date,
        error: String? = nil,
        summary: String, targetID: String? = nil, baseVersion: Int64? = nil, state: State = .pending,
        serverCurrent: Data? = nil
    ) {
        self.id = id
        self.groupID = groupID
        self.kind = kind
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.error = error
        self.summary = summary
        self.targetID = targetID
        self.baseVersion = baseVersion
        self.state = state
        self.serverCurrent = serverCurrent
    }

    /// An edit, delete, restore or payment of an existing expense: what can be in conflict.
    public var isChange: Bool { kind != .createExpense && kind != .createSettlement }

    /// The server's side of a conflict.
    public var serverExpense: Expense? { serverCurrent.flatMap { try? Expense.decodeFromServer($0) } }

    /// The intended edit of an `updateExpense` (its version is `baseVersion`).
    public var intendedChanges: ExpenseChanges? {
        kind == .updateExpense ? try? JSONDecoder().decode(ExpenseChanges.self, from: body) : nil
    }

    /// Whether a queued delete or restore goes on although it moves the balance of someone no
    /// longer in the group.
    public var confirmsRemovedShares: Bool {
        struct Body: Decodable { var confirmRemovedShares: Bool? }
        return (try? JSONDecoder().decode(Body.self, from: body))?.confirmRemovedShares == true
    }

    /// The intended paid state of a `setSharePayment`.
    public var intendedPayment: SharePayment? {
        kind == .setSharePayment ? try? JSONDecoder().decode(SharePayment.self, from: body) : nil
    }
}

/// The body of a queued `pay`/`unpay`.
public struct SharePayment: Codable, Sendable, Equatable {
    public var shareID: String
    public var isPaid: Bool
    public var reason: String?

    public init(shareID: String, isPaid: Bool, reason: String?) {
        self.shareID = shareID
        self.isPaid = isPaid
        self.reason = reason
    }
}

extension PendingOperation {
    /// A queued edit of `expense` (as last seen), based on its version.
    public static func update(_ expense: Expense, _ changes: ExpenseChanges, summary: String) throws -> Self {
        var changes = changes
        changes.version = nil
        return PendingOperation(
            id: UUID().uuidString.lowercased(), groupID: expense.groupId, kind: .updateExpense,
            body: try JSONEncoder().encode(changes), idempotencyKey: UUID().uuidString, createdAt: Date(),
            summary: summary, targetID: expense.id, baseVersion: expense.version)
    }

    /// A queued delete (`isDeleted`) or restore of `expense` (as last seen); with
    /// `confirmRemovedShares`, sent with it (`SplitterClient.deleteExpense`).
    public static func setDeleted(
        _ expense: Expense, _ isDeleted: Bool, confirmRemovedShares: Bool = false, summary: String
    ) -> Self {
        PendingOperation(
            id: UUID().uuidString.lowercased(), groupID: expense.groupId,
            kind: isDeleted ? .deleteExpense : .restoreExpense,
            body: Data((confirmRemovedShares ? #"{"confirmRemovedShares":true}"# : "{}").utf8),
            idempotencyKey: UUID().uuidString, createdAt: Date(), summary: summary, targetID: expense.id,
            baseVersion: expense.version)
    }

    /// A queued pay/unpay of one share of `expense`.
    public static func setPaid(_ expense: Expense, _ payment: SharePayment, summary: String) throws -> Self {
        PendingOperation(
            id: UUID().uuidString.lowercased(), groupID: expense.groupId, kind: .setSharePayment,
            body: try JSONEncoder().encode(payment), idempotencyKey: UUID().uuidString, createdAt: Date(),
            summary: summary, targetID: expense.id, baseVersion: expense.version)
    }
}

/// What the SDK keeps on disk: the queue of pending writes and the last known groups, members
/// and expenses (so names and ids resolve while offline). One SQLite file through GRDB.
public final class OfflineStore: Sendable {
    let database: DatabaseQueue

    public init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        // WAL: a commit is one append and one fsync instead of a rollback journal's several; a
        // replay commits once per operation sent (1,000 operations: 4.1 s → see docs/benchmarks.md).
        var configuration = Configuration()
        configuration.journalMode = .wal
        // Two splitter processes on one profile (a `watch` while a `sync` pushes) wait for each
        // other's write instead of failing at once with "database is locked".
        configuration.busyMode = .timeout(10)
        database = try DatabaseQueue(path: path, configuration: configuration)
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
        // Edits, deletes and payments are queued too; a conflict keeps both sides. Operations
        // refused before this migration stay refused.
        migrator.registerMigration("0002_edits_conflicts_expense_cache") { db in
            try db.alter(table: "pending_operations") { table in
                table.add(column: "targetID", .text)
                table.add(column: "baseVersion", .integer)
                table.add(column: "state", .text).notNull().defaults(to: "pending")
                table.add(column: "serverCurrent", .blob)
            }
            try db.execute(sql: "UPDATE pending_operations SET state = 'refused' WHERE error IS NOT NULL")
            try db.create(table: "cached_expenses") { table in
                table.primaryKey("id", .text)
                table.column("groupID", .text).notNull().indexed()
                table.column("version", .integer).notNull()
                table.column("isDeleted", .boolean).notNull()
                table.column("json", .blob).notNull()
            }
        }
        // The change feed's copy: settlements beside expenses, and where each group's feed was read up to.
        migrator.registerMigration("0003_settlement_cache") { db in
            try db.create(table: "cached_settlements") { table in
                table.primaryKey("id", .text)
                table.column("groupID", .text).notNull().indexed()
                table.column("version", .integer).notNull()
                table.column("isDeleted", .boolean).notNull()
                table.column("json", .blob).notNull()
            }
        }
        // The version of each expense its user last looked at (shown, listed, or written from
        // here), apart from the copy a sync or a watch keeps current: what an edit is based on.
        migrator.registerMigration("0004_seen_versions") { db in
            try db.create(table: "seen_expenses") { table in
                table.primaryKey("id", .text)
                table.column("version", .integer).notNull()
            }
        }
        try migrator.migrate(database)
    }

    public func enqueue(_ operation: PendingOperation) throws {
        try database.write { try operation.insert($0) }
    }

    /// Waiting operations in the order they were made (refused and conflicting ones excluded).
    public func pending() throws -> [PendingOperation] { try operations(in: .pending) }

    /// Operations the server refused, with why.
    public func parked() throws -> [PendingOperation] { try operations(in: .refused) }

    /// Operations in conflict with someone else's change, with the server's version.
    public func conflicts() throws -> [PendingOperation] { try operations(in: .conflict) }

    private func operations(in state: PendingOperation.State) throws -> [PendingOperation] {
        try database.read { db in
            // Dates are stored to the millisecond: operations queued within one are kept in the
            // order they were queued by the rowid, never by their random ids.
            try PendingOperation.filter(Column("state") == state.rawValue).order(Column("createdAt"), Column.rowID)
                .fetchAll(db)
        }
    }

    /// The operation whose id is or ends with `text` (the end is what `splitter status` shows).
    public func operation(matching text: String) throws -> PendingOperation? {
        guard !text.isEmpty else { return nil }
        let found = try database.read { db in
            try PendingOperation.fetchAll(
                db, sql: "SELECT * FROM \(PendingOperation.databaseTableName) WHERE lower(substr(id, -?)) = ? LIMIT 2",
                arguments: [text.count, text.lowercased()])
        }
        return found.count == 1 ? found[0] : nil
    }

    func operation(id: String) throws -> PendingOperation? {
        try database.read { try PendingOperation.fetchOne($0, key: id) }
    }

    /// Drops a queued, refused or conflicting operation: the server's state stands.
    public func discard(id: String) throws {
        _ = try database.write { try PendingOperation.deleteOne($0, key: id) }
    }

    /// Resolves a conflict by re-basing the intended change on the server's version that the
    /// conflict showed: the next sync sends it again. If the server moved on once more, that is
    /// a new conflict, not an overwrite. Later operations on the same expense move along.
    public func force(id: String) throws {
        try database.write { db in
            guard var operation = try PendingOperation.fetchOne(db, key: id), operation.state == .conflict,
                let current = operation.serverExpense
            else { throw OfflineStoreError.notAConflict(id) }
            if let old = operation.baseVersion, let target = operation.targetID {
                try rebase(db, target: target, from: old, to: current.version, excluding: id)
            }
            operation.baseVersion = current.version
            operation.state = .pending
            operation.error = nil
            operation.serverCurrent = nil
            try operation.update(db)
        }
    }

    func remove(id: String) throws {
        _ = try database.write { try PendingOperation.deleteOne($0, key: id) }
    }

    /// Sent: removed; later operations on the same expense, made on top of the same version,
    /// now stand on the version this one produced, and so does the user's next change (the
    /// version is theirs, as seen: found by a new user, the edit after a synced one was taken for
    /// someone else's change, "someone changed Ice since version 1").
    /// `seen` false where the version may be someone else's (a replay found already done).
    func complete(_ operation: PendingOperation, resultingVersion: Int64?, seen: Bool = true) throws {
        try complete([(operation, resultingVersion)], seen: seen)
    }

    /// Several sent operations completed in order, in one write: a batch's fifty answers are one
    /// commit, not fifty.
    func complete(_ sent: [(operation: PendingOperation, resultingVersion: Int64?)], seen: Bool = true) throws {
        guard !sent.isEmpty else { return }
        try database.write { db in
            for (operation, resultingVersion) in sent {
                _ = try PendingOperation.deleteOne(db, key: operation.id)
                if let target = operation.targetID, let old = operation.baseVersion, let new = resultingVersion {
                    try rebase(db, target: target, from: old, to: new, excluding: operation.id)
                }
                // Not a paid mark's: one already as asked changes nothing, and the version after it
                // may be another's edit (found by review).
                if seen, operation.kind != .setSharePayment, let target = operation.targetID, let new = resultingVersion {
                    try Self.markSeen(db, id: target, version: new)
                }
            }
        }
    }

    private func rebase(_ db: Database, target: String, from old: Int64, to new: Int64, excluding id: String) throws {
        try db.execute(
            sql: """
                UPDATE pending_operations SET baseVersion = ?
                WHERE targetID = ? AND baseVersion = ? AND state = 'pending' AND id <> ?
                """, arguments: [new, target, old, id])
    }

    func park(id: String, error: String) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE pending_operations SET error = ?, state = 'refused' WHERE id = ?", arguments: [error, id])
        }
    }

    func markConflict(id: String, error: String, current: Data?) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE pending_operations SET error = ?, state = 'conflict', serverCurrent = ? WHERE id = ?",
                arguments: [error, current, id])
        }
    }

    // MARK: Account

    /// The account whose copy and queue this is (its id and name); nil before the first login.
    public func account() throws -> (id: String, name: String)? {
        try database.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM sync_state WHERE key IN ('account', 'accountName')")
            let values = Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as String, $0["value"] as String) })
            return values["account"].map { ($0, values["accountName"] ?? $0) }
        }
    }

    /// How many operations wait here: queued, refused or in conflict (all of them the account's).
    public func waiting() throws -> Int { try database.read(Self.waiting) }

    private static func waiting(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM pending_operations") ?? 0
    }

    /// Makes this the copy and queue of `user`, who just logged in (or whose token a sync uses).
    /// The same account: nothing changes but its name. Another account: the copy of the first is
    /// forgotten (the next sync fetches the new one's), unless changes the first made offline
    /// are still queued, refused or in conflict: they are that account's and must not be sent
    /// as another's, so this throws `otherAccountsQueue` and changes nothing. A copy made before
    /// accounts were recorded belongs to whoever logs in first.
    public func adopt(_ user: User) throws {
        try database.write { db in
            let current = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'account'")
            if let current, current != user.id {
                let queued = try Self.waiting(db)
                if queued > 0 {
                    let name = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'accountName'")
                    throw OfflineStoreError.otherAccountsQueue(account: name ?? current, count: queued)
                }
                for table in ["cached_groups", "cached_expenses", "cached_settlements", "sync_state"] {
                    try db.execute(sql: "DELETE FROM \(table)")
                }
            }
            try Self.setState(db, "account", user.id)
            try Self.setState(db, "accountName", user.displayName)
        }
    }

    // MARK: Cache

    /// Keeps the account's groups as the server listed them, every one of them.
    public func cache(groups: [Group]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try database.write { db in
            // The account's whole list: a group it left, or was removed from, is no longer named
            // offline (found by a new user: `balances Trip` still answered after `group leave`).
            let kept = groups.map(\.id)
            if kept.isEmpty {
                try db.execute(sql: "DELETE FROM cached_groups")
            } else {
                try db.execute(
                    sql: "DELETE FROM cached_groups WHERE id NOT IN (\(kept.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(kept))
            }
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

    /// Keeps the last known state of these expenses (newer versions win); with `seen`, they were
    /// also shown to the user (or written by them), which `seenVersion(id:)` then answers.
    public func cache(expenses: [Expense], seen: Bool = false) throws {
        try database.write { db in
            for expense in expenses {
                try Self.upsert(
                    db, "cached_expenses", expense.id, expense.groupId, expense.version, expense.isDeleted,
                    expense.storedJSON)
                if seen { try Self.markSeen(db, id: expense.id, version: expense.version) }
            }
        }
    }

    private static func markSeen(_ db: Database, id: String, version: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO seen_expenses (id, version) VALUES (?, ?)
                ON CONFLICT (id) DO UPDATE SET version = MAX(version, excluded.version)
                """,
            arguments: [id, version])
    }

    /// The version of an expense its user last saw here (shown, listed or written); nil when
    /// never. A sync or a watch that brings a newer copy does not change it.
    public func seenVersion(id: String) throws -> Int64? {
        try database.read { db in
            try Int64.fetchOne(db, sql: "SELECT version FROM seen_expenses WHERE id = ?", arguments: [id])
        }
    }

    public func cachedExpense(id: String) throws -> Expense? {
        try database.read { db in
            try Data.fetchOne(db, sql: "SELECT json FROM cached_expenses WHERE id = ?", arguments: [id])
        }.map { try Expense.decodeFromServer($0) }
    }

    /// The group's cached expenses, newest date first.
    public func cachedExpenses(groupID: String, includeDeleted: Bool = false) throws -> [Expense] {
        try database.read { db in
            try Data.fetchAll(
                db,
                sql: "SELECT json FROM cached_expenses WHERE groupID = ? AND (? OR NOT isDeleted)",
                arguments: [groupID, includeDeleted])
        }.map { try Expense.decodeFromServer($0) }.sorted {
            // As the server lists them (date, then made, then id: newest first).
            ($0.expenseDate, $0.createdAt, $0.id) > ($1.expenseDate, $1.createdAt, $1.id)
        }
    }

    /// Ids of cached expenses that end with `text` (for short ids on the command line, which are
    /// an id's last characters: a time-ordered id's first ones are its time).
    public func cachedExpenseIDs(endingWith text: String) throws -> [String] {
        guard !text.isEmpty else { return [] }
        return try database.read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM cached_expenses WHERE lower(substr(id, -?)) = ? ORDER BY id LIMIT 10",
                arguments: [text.count, text.lowercased()])
        }
    }

    // MARK: Change feed

    /// Where the group's change feed was read up to; nil before the first pull.
    public func feedCursor(groupID: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: ["cursor:" + groupID])
        }
    }

    /// Applies one page of the change feed in one transaction: changed objects replace older
    /// copies, tombstones mark them deleted, and the cursor moves only with them.
    public func apply(_ changes: Changes, groupID: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try database.write { db in
            if let group = changes.group {
                try db.execute(
                    sql: """
                        INSERT INTO cached_groups (id, json) VALUES (?, ?)
                        ON CONFLICT (id) DO UPDATE SET json = excluded.json
                        """, arguments: [group.id, try encoder.encode(group)])
            }
            for expense in changes.expenses {
                try Self.upsert(
                    db, "cached_expenses", expense.id, groupID, expense.version, expense.isDeleted,
                    expense.storedJSON)
            }
            for settlement in changes.settlements {
                try Self.upsert(
                    db, "cached_settlements", settlement.id, groupID, settlement.version, settlement.isDeleted,
                    encoder.encode(settlement))
            }
            var members = try Self.members(db, groupID: groupID)
            for member in changes.members {
                if let index = members.firstIndex(where: { $0.id == member.id }) {
                    members[index] = member
                } else {
                    members.append(member)
                }
            }
            for tombstone in changes.deleted {
                switch tombstone.entity {
                case .expense:
                    try Self.markDeleted(db, "cached_expenses", tombstone.id, as: Expense.self, encoder) {
                        $0.isDeleted = true
                    }
                case .settlement:
                    try Self.markDeleted(db, "cached_settlements", tombstone.id, as: Settlement.self, encoder) {
                        $0.isDeleted = true
                    }
                case .member:
                    if let index = members.firstIndex(where: { $0.id == tombstone.id }) {
                        members[index].active = false
                    }
                case .category:
                    break  // categories are not kept offline; expenses carry their category's name
                }
            }
            if !changes.members.isEmpty || changes.deleted.contains(where: { $0.entity == .member }) {
                try db.execute(
                    sql: "UPDATE cached_groups SET membersJSON = ? WHERE id = ?",
                    arguments: [try encoder.encode(members), groupID])
            }
            try Self.setState(db, "cursor:" + groupID, changes.cursor)
        }
    }

    /// The group's cached settlements (deleted ones too: they carry `isDeleted`).
    public func cachedSettlements(groupID: String) throws -> [Settlement] {
        try database.read { db in
            try Data.fetchAll(db, sql: "SELECT json FROM cached_settlements WHERE groupID = ?", arguments: [groupID])
        }.map { try Settlement.decodeFromServer($0) }
    }

    /// Balances from the offline copy, with SplitCore; nil before the group's first pull.
    public func localBalances(groupID: String) throws -> [Balance]? {
        guard try feedCursor(groupID: groupID) != nil else { return nil }
        return try LocalLedger.balances(
            expenses: try cachedExpenses(groupID: groupID), settlements: try cachedSettlements(groupID: groupID))
    }

    private static func upsert(
        _ db: Database, _ table: String, _ id: String, _ groupID: String, _ version: Int64, _ isDeleted: Bool,
        _ json: Data
    ) throws {
        // Table names come from this file only, never from input. Prepared once per connection:
        // a first sync runs this 10,000 times.
        try db.cachedStatement(
            sql: """
                INSERT INTO \(table) (id, groupID, version, isDeleted, json) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET version = excluded.version, isDeleted = excluded.isDeleted,
                    json = excluded.json
                WHERE excluded.version >= \(table).version
                """
        ).execute(arguments: [id, groupID, version, isDeleted, json])
    }

    private static func markDeleted<T: Codable>(
        _ db: Database, _ table: String, _ id: String, as type: T.Type, _ encoder: JSONEncoder,
        _ change: (inout T) -> Void
    ) throws {
        guard let data = try Data.fetchOne(db, sql: "SELECT json FROM \(table) WHERE id = ?", arguments: [id]) else {
            return
        }
        var value = try T.decodeFromServer(data)
        change(&value)
        try db.execute(
            sql: "UPDATE \(table) SET isDeleted = 1, json = ? WHERE id = ?", arguments: [try encoder.encode(value), id])
    }

    private static func members(_ db: Database, groupID: String) throws -> [Member] {
        guard
            let data = try Data.fetchOne(
                db, sql: "SELECT membersJSON FROM cached_groups WHERE id = ?", arguments: [groupID])
        else { return [] }
        return try [Member].decodeFromServer(data)
    }

    public var lastSync: Date? {
        get throws {
            try database.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'lastSync'")
                    .flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:))
            }
        }
    }

    /// When the group's copy last caught up with its change feed: what an answer computed from
    /// the copy is as of. Nil before its first complete pull.
    public func pulledAt(groupID: String) throws -> Date? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: ["pulled:" + groupID])
                .flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:))
        }
    }

    func recordPull(groupID: String, at date: Date) throws {
        try database.write { try Self.setState($0, "pulled:" + groupID, String(date.timeIntervalSince1970)) }
    }

    /// Sets one `sync_state` value (cursors, pull and sync times, the account, the last error).
    static func setState(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_state (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, arguments: [key, value])
    }

    func recordSync(_ date: Date) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM sync_state WHERE key = 'lastError'")
            try Self.setState(db, "lastSync", String(date.timeIntervalSince1970))
        }
    }
}

public enum OfflineStoreError: Error, Equatable, CustomStringConvertible {
    case notAConflict(String)
    /// Another account's changes made offline wait here unsent (`account`: its name).
    case otherAccountsQueue(account: String, count: Int)

    public var description: String {
        switch self {
        case .notAConflict(let id): "Operation \(id) is not a conflict with the server's version."
        case .otherAccountsQueue(let account, let count):
            "This device's offline copy is \(account)'s, with \(count) \(count == 1 ? "change" : "changes") \(account) "
                + "made offline not sent yet; "
                + "they are not sent as another account's. Send them logged in as \(account), or discard them."
        }
    }
}
