import Crypto
import Foundation
import SQLKit
import SplitCore

/// What each occurrence of a recurring expense is made from (issue 20): an expense without an id
/// or a date. Stored as our own versioned JSON (never a wire type):
///
///     {"v":1,"description":"Rent","amount":120000,"currency":"MYR","category":"…",
///      "payers":[{"m":"…","a":120000}],"split":{"v":1,"mode":"equal",…},"members":["…"],
///      "homeAmount":null,"homeCurrency":null}
public struct ExpenseTemplate: Sendable, Equatable {
    public var description: String
    public var amount: Int64
    public var currency: String
    public var categoryID: UUID
    public var rule: SplitRule
    public var payers: [PayerRecord]
    /// Everyone the expense names (payers and sharers), checked active before each occurrence.
    public var members: [UUID]
    public var homeAmount: Int64?
    public var homeCurrency: String?

    public init(
        description: String, amount: Int64, currency: String, categoryID: UUID, rule: SplitRule,
        payers: [PayerRecord], members: [UUID], homeAmount: Int64? = nil, homeCurrency: String? = nil
    ) {
        self.description = description
        self.amount = amount
        self.currency = currency
        self.categoryID = categoryID
        self.rule = rule
        self.payers = payers
        self.members = members
        self.homeAmount = homeAmount
        self.homeCurrency = homeCurrency
    }

    /// The template of an expense as built for a date (its id and date are dropped).
    public init(_ expense: ExpenseRecord) {
        self.init(
            description: expense.description, amount: expense.amount, currency: expense.currency,
            categoryID: expense.categoryID, rule: expense.rule, payers: expense.payers,
            members: Array(Set(expense.memberIDs)).sorted { $0.sortsBefore($1) }, homeAmount: expense.homeAmount,
            homeCurrency: expense.homeCurrency)
    }

    private struct Stored: Codable {
        struct Payer: Codable {
            var m: String
            var a: Int64
        }
        var v: Int
        var description: String
        var amount: Int64
        var currency: String
        var category: String
        var payers: [Payer]
        var split: StoredSplit.Value
        var members: [String]
        var homeAmount: Int64?
        var homeCurrency: String?
    }

    public var json: String {
        let stored = Stored(
            v: 1, description: description, amount: amount, currency: currency, category: categoryID.text,
            payers: payers.map { .init(m: $0.memberID.text, a: $0.amount) }, split: .init(rule),
            members: members.map(\.text), homeAmount: homeAmount, homeCurrency: homeCurrency)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(stored)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> ExpenseTemplate {
        let stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
        guard stored.v == 1, let category = UUID(uuidString: stored.category) else {
            throw StoredSplit.DecodingError.unknownVersion(stored.v)
        }
        return ExpenseTemplate(
            description: stored.description, amount: stored.amount, currency: stored.currency, categoryID: category,
            rule: stored.split.rule,
            payers: try stored.payers.map {
                guard let id = UUID(uuidString: $0.m) else { throw StoredSplit.DecodingError.unreadable("payer id") }
                return PayerRecord(memberID: id, amount: $0.a)
            }, members: stored.members.compactMap(UUID.init(uuidString:)), homeAmount: stored.homeAmount,
            homeCurrency: stored.homeCurrency)
    }
}

/// A recurrence rule as `recurring_series.rule` holds it (version 1).
///
///     {"v":1,"unit":"month","interval":1,"weekdays":[],"monthEnd":"clamp","start":"2026-01-31","end":null,"count":12}
enum StoredRecurrence {
    private struct Stored: Codable {
        var v: Int
        var unit: String
        var interval: Int
        var weekdays: [Int]
        var monthEnd: String
        var start: String
        var end: String?
        var count: Int?
    }

    static func encode(_ rule: Recurrence) -> String {
        let stored = Stored(
            v: 1, unit: rule.unit.rawValue, interval: rule.interval, weekdays: rule.weekdays.sorted(),
            monthEnd: rule.monthEnd.rawValue, start: rule.start.description, end: rule.end?.description,
            count: rule.count)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(stored)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> Recurrence {
        let stored = try JSONDecoder().decode(Stored.self, from: Data(text.utf8))
        guard stored.v == 1, let unit = Recurrence.Unit(rawValue: stored.unit),
            let monthEnd = Recurrence.MonthEnd(rawValue: stored.monthEnd), let start = CivilDate(stored.start)
        else { throw StoredSplit.DecodingError.unknownVersion(stored.v) }
        return try Recurrence(
            unit: unit, interval: stored.interval, weekdays: Set(stored.weekdays), monthEnd: monthEnd, start: start,
            end: stored.end.flatMap(CivilDate.init), count: stored.count)
    }
}

/// Why a series cannot go on: the note it is paused with (by a member's change, or by the pass
/// that finds it due), also said when someone tries to resume it.
public enum SeriesStop {
    /// Its maker may no longer add expenses (a series adds as its maker), or left the group.
    public static func makerStopped(_ name: String?, inGroup: Bool) -> String {
        let maker = name.map { "\($0), who made it," } ?? "Whoever made it"
        return inGroup
            ? "\(maker) may no longer add expenses; someone who still may can make it again."
            : "\(maker) is no longer in the group; someone who may add expenses can make it again."
    }

    /// Said to a series' maker who may no longer add expenses, when they try to resume or change
    /// it (a viewer may not even end it: an admin does).
    public static func ownRefused(_ group: String, mayEnd: Bool) -> String {
        "You may no longer add expenses in \(group), and this series adds as you, so it cannot go on; "
            + (mayEnd
                ? "end it, or ask an admin to give you back the right to add expenses."
                : "an admin can end it, or give you back the right to add expenses.")
    }

    /// Why `series` cannot go on once `member` is as given (the rule `pause(after:)` applies in a
    /// member's change, and what the web warns of before one): its maker may no longer add
    /// expenses (a series adds as its maker), or deleted their account (`deletedAccount`), or a
    /// member it names (a payer, or in the split) is out of the group. Nil when it can go on.
    public static func reason(_ series: SeriesRecord, after member: MemberRecord, deletedAccount: UUID? = nil) -> String? {
        if let deletedAccount, series.createdByUserID == deletedAccount {
            return makerDeleted(member.name)
        }
        if series.createdByUserID == member.userID, Permissions.decide(.addExpense, for: member.membership) != .allowed {
            return makerStopped(member.name, inGroup: member.isActive)
        }
        if !member.isActive, series.template.members.contains(member.id) { return memberGone(member.name) }
        return nil
    }

    /// Its maker deleted their account (their member stays, name-only).
    public static func makerDeleted(_ name: String) -> String {
        "\(name), who made it, deleted their account; someone who may add expenses can make it again."
    }

    /// Its category was deleted: its next expenses would be put in a category nobody may choose.
    public static func categoryGone(_ name: String) -> String {
        "Its category \(name) was deleted; choose another, then resume it."
    }

    /// Whether `note` is one of these (each ends so): once nothing stops the series any more (a
    /// member restored, a right given back), such a note no longer says anything true.
    public static func isStop(_ note: String) -> Bool {
        note.hasSuffix("can make it again.") || note.hasSuffix("then resume it.")
    }

    /// Someone it names (a payer, or in the split) is no longer in the group.
    public static func memberGone(_ name: String) -> String {
        "\(name) is no longer in the group; take them out of this series (or restore them), then resume it."
    }
}

/// A recurring expense: its template, its rule, and where it stands.
public struct SeriesRecord: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Each occurrence becomes an expense at once.
        case auto
        /// Each occurrence waits in the pending queue to be confirmed or dismissed.
        case confirm
    }

    public enum State: String, Sendable, CaseIterable {
        case active, paused, ended
    }

    public var id: UUID
    public var groupID: UUID
    public var template: ExpenseTemplate
    public var recurrence: Recurrence
    public var mode: Mode
    public var state: State
    /// Why the server paused it, or what it could not catch up on; nil otherwise.
    public var note: String?
    /// The next occurrence not yet made (nil when none is left).
    public var nextDate: String?
    /// Occurrences skipped one by one, in order.
    public var skipped: [String]
    public var createdByUserID: UUID
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, groupID: UUID, template: ExpenseTemplate, recurrence: Recurrence, mode: Mode, state: State = .active,
        note: String? = nil, nextDate: String?, skipped: [String] = [], createdByUserID: UUID, version: Int64 = 1,
        createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.groupID = groupID
        self.template = template
        self.recurrence = recurrence
        self.mode = mode
        self.state = state
        self.note = note
        self.nextDate = nextDate
        self.skipped = skipped
        self.createdByUserID = createdByUserID
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An occurrence waiting for a member to confirm or dismiss it.
public struct PendingRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        case pending, confirmed, dismissed
    }

    public var id: UUID
    public var groupID: UUID
    public var seriesID: UUID
    public var date: String
    public var template: ExpenseTemplate
    public var state: State
    public var expenseID: UUID?
    public var decidedByUserID: UUID?
    public var decidedAt: Int64?
    public var createdAt: Int64

    public init(
        id: UUID, groupID: UUID, seriesID: UUID, date: String, template: ExpenseTemplate, state: State = .pending,
        expenseID: UUID? = nil, decidedByUserID: UUID? = nil, decidedAt: Int64? = nil, createdAt: Int64
    ) {
        self.id = id
        self.groupID = groupID
        self.seriesID = seriesID
        self.date = date
        self.template = template
        self.state = state
        self.expenseID = expenseID
        self.decidedByUserID = decidedByUserID
        self.decidedAt = decidedAt
        self.createdAt = createdAt
    }
}

/// The occurrences one pass makes for one series, read and built outside the transaction.
public struct SeriesBatch: Sendable {
    public var seriesID: UUID
    /// The version read; a series changed since (edited, paused, made by another server) is left.
    public var expectedVersion: Int64
    public var mode: SeriesRecord.Mode
    public var description: String
    /// For `auto`, the expense of each date; for `confirm`, none (a pending row is made).
    public var occurrences: [(date: String, expense: ExpenseRecord?)]
    public var template: ExpenseTemplate
    public var nextDate: String?
    public var state: SeriesRecord.State
    public var note: String?
    /// Who the expenses are by: the series' creator.
    public var actor: Actor

    public init(
        seriesID: UUID, expectedVersion: Int64, mode: SeriesRecord.Mode, description: String,
        occurrences: [(date: String, expense: ExpenseRecord?)], template: ExpenseTemplate, nextDate: String?,
        state: SeriesRecord.State, note: String?, actor: Actor
    ) {
        self.seriesID = seriesID
        self.expectedVersion = expectedVersion
        self.mode = mode
        self.description = description
        self.occurrences = occurrences
        self.template = template
        self.nextDate = nextDate
        self.state = state
        self.note = note
        self.actor = actor
    }
}

public enum RecurringStoreError: Error, Equatable, Sendable {
    /// The group has `RecurringStore.seriesPerGroup` series already.
    case tooMany
    /// The pending occurrence was confirmed or dismissed already.
    case decided(PendingRecord.State)
}

/// Recurring expenses and the pending queue (issue 20). Every write starts with `GroupLog.begin`,
/// so it is serialized with the group's other writes; an occurrence is made once whatever servers
/// run, because `recurring_occurrences` has (series, date) as its key and is written first.
public struct RecurringStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Series one group may have, ended ones included.
    public static let seriesPerGroup = 1_000

    /// The id of one occurrence's pending row, and the seed of its shares' tie-break: the same on
    /// every server. (An expense made from it gets an id of its own.)
    public static func occurrenceID(seriesID: UUID, date: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("occurrence:\(seriesID.text):\(date)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    // MARK: Series

    /// Inserts a new series, once per idempotency key: with `claim`, the key is claimed in the
    /// same transaction and answers `response` from then on; a key claimed before gets its
    /// stored answer (`.replayed`) or `.keyReused`, and nothing is written.
    public func create(
        _ series: SeriesRecord, actor: Actor, claim: IdempotencyClaim? = nil, response: StoredResponse? = nil
    ) async throws -> IdempotencyOutcome<SeriesRecord> {
        try await database.transaction { sql in
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: series.groupID, now: series.createdAt, actor: actor, involving: series.template.members)
            else { throw WriteRefusal.notFound }
            return try await Idempotency.run(claim, now: series.createdAt, expected: response, sql) {
                // Ended series stay (what they made is history) and count only toward a far
                // larger bound, so that ending one makes room as the refusal says.
                let counts = try await sql.raw(
                    """
                    SELECT COUNT(CASE WHEN state <> 'ended' THEN 1 END) AS live, COUNT(*) AS n FROM recurring_series
                    WHERE group_id = \(bind: series.groupID.text)
                    """
                ).first()
                let live = try counts?.decode(column: "live", as: Int.self) ?? 0
                let all = try counts?.decode(column: "n", as: Int.self) ?? 0
                guard live < Self.seriesPerGroup, all < 10 * Self.seriesPerGroup else { throw RecurringStoreError.tooMany }
                try await Self.insert([series], sql)
                try await log.changed(.group, series.groupID, sql)
                try await log.activity(
                    actor, "recurring.created", .group, series.groupID,
                    ActivityEvent(subject: series.template.description, amount: series.template.amount, currency: series.template.currency),
                    sql)
                return (series, response ?? StoredResponse(status: 201, body: Data()))
            }
        }
    }

    /// New series rows (a create, or a group copied from a file).
    static func insert(_ series: [SeriesRecord], _ sql: any SQLDatabase) async throws {
        try await MultiRowInsert.run(
            """
            INSERT INTO recurring_series (id, group_id, template, rule, mode, state, note, next_date, skipped,
                                          created_by_user_id, version, created_at, updated_at)
            """,
            series.map {
                [
                    $0.id.text, $0.groupID.text, $0.template.json, StoredRecurrence.encode($0.recurrence), $0.mode.rawValue,
                    $0.state.rawValue, $0.note, $0.nextDate, $0.skipped.joined(separator: ","), $0.createdByUserID.text,
                    $0.version, $0.createdAt, $0.updatedAt,
                ]
            }, on: sql)
    }

    /// Waiting occurrences copied from a file.
    static func insert(_ pending: [PendingRecord], _ sql: any SQLDatabase) async throws {
        try await MultiRowInsert.run(
            "INSERT INTO pending_expenses (id, group_id, series_id, occurrence_date, template, state, created_at)",
            pending.map { [$0.id.text, $0.groupID.text, $0.seriesID.text, $0.date, $0.template.json, $0.state.rawValue, $0.createdAt] },
            on: sql)
    }

    public func series(id: UUID) async throws -> SeriesRecord? {
        try await database.read { try await Self.load(id, $0) }
    }

    static func load(_ id: UUID, _ sql: any SQLDatabase) async throws -> SeriesRecord? {
        try await sql.raw("SELECT * FROM recurring_series WHERE id = \(bind: id.text)").first().map(SeriesRecord.init(row:))
    }

    /// The dates of the series already made (or waiting to be confirmed) from `date` on, at
    /// most `limit`, in order.
    public func madeDates(seriesID: UUID, from date: String, limit: Int = 400) async throws -> [String] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT occurrence_date FROM recurring_occurrences
                WHERE series_id = \(bind: seriesID.text) AND occurrence_date >= \(bind: date)
                ORDER BY occurrence_date LIMIT \(bind: limit)
                """
            ).all().map { try $0.decode(column: "occurrence_date", as: String.self) }
        }
    }

    /// The group's series, newest first.
    public func list(groupID: UUID) async throws -> [SeriesRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM recurring_series WHERE group_id = \(bind: groupID.text)
                ORDER BY created_at DESC, id DESC LIMIT \(bind: Self.seriesPerGroup)
                """
            ).all()
        }.map(SeriesRecord.init(row:))
    }

    /// Writes a changed series if it is still at `expectedVersion`; `action` names the change in
    /// the activity list (recurring.updated, .paused, .resumed, .skipped, .ended).
    public func update(
        _ series: SeriesRecord, expectedVersion: Int64, action: String, actor: Actor?, now: Int64
    ) async throws -> VersionedWrite<SeriesRecord>? {
        try await database.transaction { sql in
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: series.groupID, now: now, actor: actor,
                    involving: series.state == .active ? series.template.members : [])
            else { return nil }
            guard let current = try await Self.load(series.id, sql), current.groupID == series.groupID else {
                return nil
            }
            guard current.version == expectedVersion else { return .stale(current) }
            var next = series
            next.version = current.version + 1
            next.updatedAt = now
            next.createdAt = current.createdAt
            next.createdByUserID = current.createdByUserID
            try await sql.raw(
                """
                UPDATE recurring_series SET template = \(bind: next.template.json),
                    rule = \(bind: StoredRecurrence.encode(next.recurrence)), mode = \(bind: next.mode.rawValue),
                    state = \(bind: next.state.rawValue), note = \(bind: next.note), next_date = \(bind: next.nextDate),
                    skipped = \(bind: next.skipped.joined(separator: ",")), version = \(bind: next.version),
                    updated_at = \(bind: now)
                WHERE id = \(bind: next.id.text)
                """
            ).run()
            try await log.changed(.group, next.groupID, sql)
            let creator = try await Self.memberOf(userID: next.createdByUserID, groupID: next.groupID, sql)
            try await log.activity(
                actor, action, .group, next.groupID,
                ActivityEvent(
                    subject: next.template.description, reason: action == "recurring.paused" ? next.note : nil,
                    period: action == "recurring.skipped" ? Self.skippedNow(current, next) : nil),
                concerning: creator.map { [$0] } ?? [], sql)
            return .written(next)
        }
    }

    /// The days a skip added ("2026-12-24,2026-12-31"), for its activity line; nil when none.
    static func skippedNow(_ before: SeriesRecord, _ after: SeriesRecord) -> String? {
        let added = Set(after.skipped).subtracting(before.skipped).sorted()
        return added.isEmpty ? nil : added.joined(separator: ",")
    }

    /// Pauses, in the transaction of a change to a member, the group's active series that cannot
    /// go on after it: those they made once they may no longer add expenses (a series adds as its
    /// maker), and, once they are out of the group, those that name them (a payer, or in the
    /// split); each with a note saying why. Before, such a series stayed "active" until its date,
    /// and changing anything else in it was refused as "someone was removed meanwhile" (found by
    /// a new user). `deletedAccount`: the account of `member` (now name-only) was deleted.
    static func pause(
        after member: MemberRecord, deletedAccount: UUID? = nil, log: GroupLog, now: Int64, _ sql: any SQLDatabase
    ) async throws {
        try await pause(groupID: member.groupID, log: log, now: now, sql) { series in
            SeriesStop.reason(series, after: member, deletedAccount: deletedAccount)
        }
    }

    /// Pauses, in the caller's transaction, each active series of the group that `note` gives a
    /// reason for, with that reason as its note, an activity line for its maker, and the change
    /// in the group's feed.
    static func pause(
        groupID: UUID, log: GroupLog, now: Int64, _ sql: any SQLDatabase, note: (SeriesRecord) -> String?
    ) async throws {
        let active = try await sql.raw(
            "SELECT * FROM recurring_series WHERE group_id = \(bind: groupID.text) AND state = 'active'"
        ).all().compactMap { try? SeriesRecord(row: $0) }  // one unreadable series never blocks the change
        var paused = false
        for series in active {
            guard let note = note(series) else { continue }
            try await sql.raw(
                """
                UPDATE recurring_series SET state = 'paused', note = \(bind: note), version = version + 1,
                    updated_at = \(bind: now)
                WHERE id = \(bind: series.id.text)
                """
            ).run()
            let creator = try await Self.memberOf(userID: series.createdByUserID, groupID: series.groupID, sql)
            try await log.activity(
                nil, "recurring.paused", .group, series.groupID,
                ActivityEvent(subject: series.template.description, reason: note),
                concerning: creator.map { [$0] } ?? [], sql)
            paused = true
        }
        if paused { try await log.changed(.group, groupID, sql) }
    }

    static func memberOf(userID: UUID, groupID: UUID, _ sql: any SQLDatabase) async throws -> UUID? {
        try await sql.raw(
            "SELECT id FROM members WHERE group_id = \(bind: groupID.text) AND user_id = \(bind: userID.text)"
        ).first()?.decodeUUID("id")
    }

    /// Active series whose next occurrence is on or before `through` (YYYY-MM-DD), the earliest
    /// first, after `after` (the next date and id of a previous page's last), of `groupIDs` only
    /// when given, at most `limit`.
    public func due(
        through: String, after: (String, UUID)? = nil, groupIDs: [UUID]? = nil, limit: Int
    ) async throws -> [SeriesRecord] {
        let (afterDate, afterID) = (after?.0 ?? "", after?.1.text ?? "")
        let groups = groupIDs?.map(\.text)
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM recurring_series
                WHERE state = 'active' AND next_date IS NOT NULL AND next_date <= \(bind: through)
                      AND (next_date > \(bind: afterDate) OR (next_date = \(bind: afterDate) AND id > \(bind: afterID)))
                      AND (\(bind: groups == nil) OR group_id IN (\(binds: groups ?? [""])))
                ORDER BY next_date, id LIMIT \(bind: limit)
                """
            ).all()
        }.map(SeriesRecord.init(row:))
    }

    /// Makes the occurrences of several series of one group in one transaction: each (series,
    /// date) once — a pair made already (by another server) is left — then the expenses in bulk
    /// with the ledger, spending and change feed, or the pending rows; then each series moves on.
    /// A series changed since it was read is left whole for the next pass.
    ///
    /// - Returns: how many occurrences this call made.
    @discardableResult
    public func materialize(groupID: UUID, batches: [SeriesBatch], now: Int64) async throws -> Int {
        guard !batches.isEmpty else { return 0 }
        return try await database.longTransaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now) else { return 0 }
            // What the pass checked before, decided again under the group's lock by the one
            // decision every write takes (`WriteGrant.refusal`): in a group archived since, or by
            // a creator removed or no longer allowed to add expenses since, nothing is made (the
            // next pass pauses the series and says why).
            var memberships: [UUID: Membership] = [:]
            for row in try await sql.raw(
                """
                SELECT * FROM members
                WHERE group_id = \(bind: groupID.text)
                      AND user_id IN (\(binds: Set(batches.map(\.actor.userID.text)).sorted()))
                """
            ).all() {
                let member = try MemberRecord(row: row)
                if let user = member.userID { memberships[user] = member.membership }
            }
            func allowed(_ batch: SeriesBatch) -> Bool {
                WriteGrant.refusal(
                    for: [.addExpense], by: memberships[batch.actor.userID], groupIsArchived: log.isArchived) == nil
            }
            var versions: [UUID: Int64] = [:]
            for row in try await sql.select().column("id").column("version").from("recurring_series")
                .where("id", .in, batches.map(\.seriesID.text)).all()
            {
                versions[try row.decodeUUID("id")] = try row.decode(column: "version", as: Int64.self)
            }
            let current = batches.filter {
                versions[$0.seriesID] == $0.expectedVersion && allowed($0)
            }
            guard !current.isEmpty else { return 0 }
            try await GroupLog.requireActive(
                Array(Set(current.filter { !$0.occurrences.isEmpty }.flatMap(\.template.members))), groupID: groupID, sql)
            var made = Set<String>()
            try await MultiRowInsert.returning(
                "INSERT INTO recurring_occurrences (series_id, occurrence_date, expense_id, pending_id, created_at)",
                current.flatMap { batch in
                    batch.occurrences.map { occurrence -> [any Encodable & Sendable] in
                        let pending = Self.occurrenceID(seriesID: batch.seriesID, date: occurrence.date).text
                        return [
                            batch.seriesID.text, occurrence.date, occurrence.expense?.id.text,
                            batch.mode == .confirm ? pending : nil, now,
                        ]
                    }
                },
                then: "ON CONFLICT DO NOTHING RETURNING series_id, occurrence_date", on: sql
            ) { row in
                made.insert(
                    try row.decode(column: "series_id", as: String.self) + "|"
                        + row.decode(column: "occurrence_date", as: String.self))
            }
            var expenses: [ExpenseRecord] = []
            var pending: [[any Encodable & Sendable]] = []
            var counts: [UUID: (count: Int, last: UUID)] = [:]
            for batch in current {
                for occurrence in batch.occurrences where made.contains(batch.seriesID.text + "|" + occurrence.date) {
                    var id = Self.occurrenceID(seriesID: batch.seriesID, date: occurrence.date)
                    if batch.mode == .auto, let expense = occurrence.expense {
                        expenses.append(expense)
                        id = expense.id
                    } else {
                        pending.append([
                            id.text, groupID.text, batch.seriesID.text, occurrence.date, batch.template.json,
                            "pending", now,
                        ])
                    }
                    counts[batch.seriesID] = ((counts[batch.seriesID]?.count ?? 0) + 1, id)
                }
            }
            if !expenses.isEmpty {
                try await ImportStore.insert(expenses, sql)
                try await log.changed(.expense, expenses.map(\.id), sql)
                for effect in Ledger.effects(expenses: expenses) { try await Ledger.apply(effect, groupID: groupID, sql) }
                try await Spending.apply(
                    expenses.reduce(into: [:]) { parts, expense in
                        parts.merge(Spending.parts(of: expense, sign: 1, home: log.homeCurrency), uniquingKeysWith: +)
                    }, groupID: groupID, sql)
            }
            try await MultiRowInsert.run(
                """
                INSERT INTO pending_expenses (id, group_id, series_id, occurrence_date, template, state, created_at)
                """, pending, on: sql)
            for batch in current {
                try await sql.raw(
                    """
                    UPDATE recurring_series SET next_date = \(bind: batch.nextDate), state = \(bind: batch.state.rawValue),
                        note = \(bind: batch.note), version = version + 1, updated_at = \(bind: now)
                    WHERE id = \(bind: batch.seriesID.text)
                    """
                ).run()
            }
            try await log.changed(.group, groupID, sql)
            // One line per series and pass: "Rent was added" (or is waiting), with how many.
            for batch in current {
                guard let (count, last) = counts[batch.seriesID] else { continue }
                try await log.activity(
                    batch.actor, batch.mode == .auto ? "recurring.added" : "recurring.pending",
                    batch.mode == .auto ? .expense : .group, batch.mode == .auto ? last : groupID,
                    ActivityEvent(
                        subject: batch.description, amount: batch.template.amount, currency: batch.template.currency,
                        count: count),
                    concerning: batch.template.members, sql)
            }
            // Budgets hear of the new spending once per period and category.
            try await BudgetAlerts.check(
                groupID: groupID, spending: expenses.map { ($0.expenseDate, $0.categoryID) }, log: log, sql)
            return counts.values.reduce(0) { $0 + $1.count }
        }
    }

    // MARK: Pending

    /// The group's occurrences waiting for a decision, oldest first.
    public func pending(groupID: UUID, limit: Int = 500) async throws -> [PendingRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM pending_expenses WHERE group_id = \(bind: groupID.text) AND state = 'pending'
                ORDER BY occurrence_date, id LIMIT \(bind: limit)
                """
            ).all()
        }.map(PendingRecord.init(row:))
    }

    /// How many dates wait, by series (the list above stops at 500).
    public func pendingCounts(groupID: UUID) async throws -> [UUID: Int] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT series_id, COUNT(*) AS n FROM pending_expenses
                WHERE group_id = \(bind: groupID.text) AND state = 'pending' GROUP BY series_id
                """
            ).all().reduce(into: [UUID: Int]()) { counts, row in
                counts[try row.decodeUUID("series_id")] = try row.decode(column: "n", as: Int.self)
            }
        }
    }

    public func pendingCount(groupID: UUID) async throws -> Int {
        try await database.read { sql in
            try await sql.raw(
                "SELECT COUNT(*) AS n FROM pending_expenses WHERE group_id = \(bind: groupID.text) AND state = 'pending'"
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    public func pendingItem(id: UUID) async throws -> PendingRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM pending_expenses WHERE id = \(bind: id.text)").first()
        }.map(PendingRecord.init(row:))
    }

    /// Confirms: the expense (its id is the pending row's) is written like any new one, and the
    /// row is marked, in one transaction. A row decided already is refused.
    public func confirm(_ pendingID: UUID, expense: ExpenseRecord, actor: Actor, now: Int64) async throws -> ExpenseRecord? {
        try await database.transaction { sql in
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: expense.groupID, now: now, actor: actor, involving: expense.memberIDs)
            else { return nil }
            guard
                let row = try await sql.raw(
                    "SELECT * FROM pending_expenses WHERE id = \(bind: pendingID.text)"
                ).first(), case let item = try PendingRecord(row: row), item.groupID == expense.groupID
            else { return nil }
            guard item.state == .pending else { throw RecurringStoreError.decided(item.state) }
            guard try await ExpenseStore.insertNew(expense, actor: actor, log: log, sql) else {
                throw ExpenseStoreError.idTaken
            }
            try await sql.raw(
                """
                UPDATE pending_expenses SET state = 'confirmed', expense_id = \(bind: expense.id.text),
                    decided_by_user_id = \(bind: actor.userID.text), decided_at = \(bind: now)
                WHERE id = \(bind: pendingID.text)
                """
            ).run()
            try await log.changed(.group, expense.groupID, sql)
            return expense
        }
    }

    /// Dismisses every waiting occurrence of a series, with one activity line saying how many;
    /// nil when the series is not in the group.
    public func dismissWaiting(seriesID: UUID, groupID: UUID, actor: Actor, now: Int64) async throws -> Int? {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor),
                let series = try await Self.load(seriesID, sql), series.groupID == groupID
            else { return nil }
            let dismissed = try await sql.raw(
                """
                UPDATE pending_expenses SET state = 'dismissed', decided_by_user_id = \(bind: actor.userID.text),
                    decided_at = \(bind: now)
                WHERE series_id = \(bind: seriesID.text) AND group_id = \(bind: groupID.text) AND state = 'pending'
                RETURNING occurrence_date, template
                """
            ).all().map {
                (date: try $0.decode(column: "occurrence_date", as: String.self),
                 template: try ExpenseTemplate.decode(try $0.decode(column: "template", as: String.self)))
            }
            guard let first = dismissed.first else { return 0 }
            try await log.changed(.group, groupID, sql)
            // The amount only when every date had it (each keeps the template it was made with;
            // found by review: "each" after the series' amount changed), the day when one.
            let alike = dismissed.allSatisfy {
                $0.template.amount == first.template.amount && $0.template.currency == first.template.currency
            }
            try await log.activity(
                actor, "pending.dismissed", .group, groupID,
                ActivityEvent(
                    subject: series.template.description, amount: alike ? first.template.amount : nil,
                    currency: alike ? first.template.currency : nil, count: dismissed.count,
                    period: dismissed.count == 1 ? first.date : nil),
                sql)
            return dismissed.count
        }
    }

    /// Dismisses a waiting occurrence; nil when there is none with that id in the group.
    public func dismiss(_ pendingID: UUID, groupID: UUID, actor: Actor, now: Int64) async throws -> PendingRecord? {
        try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            guard
                let row = try await sql.raw(
                    "SELECT * FROM pending_expenses WHERE id = \(bind: pendingID.text)"
                ).first(), case var item = try PendingRecord(row: row), item.groupID == groupID
            else { return nil }
            guard item.state == .pending else { throw RecurringStoreError.decided(item.state) }
            try await sql.raw(
                """
                UPDATE pending_expenses SET state = 'dismissed', decided_by_user_id = \(bind: actor.userID.text),
                    decided_at = \(bind: now)
                WHERE id = \(bind: pendingID.text)
                """
            ).run()
            item.state = .dismissed
            item.decidedAt = now
            item.decidedByUserID = actor.userID
            try await log.changed(.group, groupID, sql)
            try await log.activity(
                actor, "pending.dismissed", .group, groupID,
                ActivityEvent(
                    subject: item.template.description, amount: item.template.amount, currency: item.template.currency,
                    period: item.date),
                sql)
            return item
        }
    }
}

extension SeriesRecord {
    init(row: any SQLRow) throws {
        let skipped = try row.decode(column: "skipped", as: String.self)
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            template: try ExpenseTemplate.decode(try row.decode(column: "template", as: String.self)),
            recurrence: try StoredRecurrence.decode(try row.decode(column: "rule", as: String.self)),
            mode: Mode(rawValue: try row.decode(column: "mode", as: String.self)) ?? .auto,
            state: State(rawValue: try row.decode(column: "state", as: String.self)) ?? .paused,
            note: try row.decode(column: "note", as: String?.self),
            nextDate: try row.decode(column: "next_date", as: String?.self),
            skipped: skipped.isEmpty ? [] : skipped.split(separator: ",").map(String.init),
            createdByUserID: try row.decodeUUID("created_by_user_id"),
            version: try row.decode(column: "version", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}

extension PendingRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            seriesID: try row.decodeUUID("series_id"),
            date: try row.decode(column: "occurrence_date", as: String.self),
            template: try ExpenseTemplate.decode(try row.decode(column: "template", as: String.self)),
            state: State(rawValue: try row.decode(column: "state", as: String.self)) ?? .pending,
            expenseID: try row.decode(column: "expense_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            decidedByUserID: try row.decode(column: "decided_by_user_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            decidedAt: try row.decode(column: "decided_at", as: Int64?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }
}
