import Foundation
import SQLKit
import SplitCore

/// Expenses and their shares: every write is one transaction that also moves the ledger and
/// logs the change (DESIGN §3, §6).
public struct ExpenseStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// An expense to insert, with what its write needs: who writes it, its idempotency claim,
    /// and `render`, which makes the response a retry with the same key gets back.
    public struct NewExpense: Sendable {
        public var expense: ExpenseRecord
        public var actor: Actor
        public var idempotency: IdempotencyClaim?
        public var render: @Sendable (ExpenseRecord) throws -> StoredResponse

        public init(
            _ expense: ExpenseRecord, actor: Actor, idempotency: IdempotencyClaim?,
            render: @escaping @Sendable (ExpenseRecord) throws -> StoredResponse
        ) {
            self.expense = expense
            self.actor = actor
            self.idempotency = idempotency
            self.render = render
        }

        /// What a key stores for `record`: `render`'s answer when there is a key; otherwise
        /// nothing is kept, and rendering it would be wasted work.
        func stored(_ record: ExpenseRecord) throws -> StoredResponse {
            idempotency != nil ? try render(record) : StoredResponse(status: 201, body: Data())
        }
    }

    /// Inserts an expense and moves the balances. With a claim, runs once per idempotency key;
    /// `render` makes the response that a retry with the same key gets back.
    ///
    /// The expense row is written in the same `WriteBatch` as everything that moves with it (on
    /// PostgreSQL one round trip less: a create was eight). An id that exists already then fails
    /// the whole transaction with a unique violation, and the create runs again with the row
    /// written first on its own, which finds the expense there: a retry, or a clash.
    public func create(_ new: NewExpense) async throws -> IdempotencyOutcome<ExpenseRecord> {
        do {
            return try await database.transaction { sql in try await Self.create(new, rowInBatch: true, sql) }
        } catch where Database.isUniqueViolation(error) {
            return try await database.transaction { sql in try await Self.create(new, rowInBatch: false, sql) }
        }
    }

    private static func create(_ new: NewExpense, rowInBatch: Bool, _ sql: any SQLDatabase) async throws
        -> IdempotencyOutcome<ExpenseRecord>
    {
        let expense = new.expense
        guard
            let log = try await GroupLog.begin(
                sql, groupID: expense.groupID, now: expense.createdAt, actor: new.actor, involving: expense.memberIDs)
        else {
            throw ExpenseStoreError.notFound
        }
        return try await create(new, log: log, sweepingKeys: true, rowInBatch: rowInBatch, sql)
    }

    /// A create under a log already begun. `sweepingKeys`: whether to remove expired
    /// idempotency keys first (once a transaction is enough). `rowInBatch`: as `insertNew`.
    static func create(
        _ new: NewExpense, log: GroupLog, sweepingKeys: Bool, rowInBatch: Bool = false, _ sql: any SQLDatabase
    ) async throws -> IdempotencyOutcome<ExpenseRecord> {
        let expense = new.expense
        // What the key will store unless the id turns out to be taken: rendered before it is claimed.
        let planned = try new.stored(expense)
        return try await Idempotency.run(
            new.idempotency, now: expense.createdAt, sweeping: sweepingKeys,
            expected: new.idempotency != nil ? planned : nil, sql
        ) {
            guard try await insertNew(expense, actor: new.actor, log: log, rowInBatch: rowInBatch, sql) else {
                // A client id used again: the same expense again is a retry; anything else is a clash.
                let existing = try await retried(expense, sql)
                return (existing, try new.stored(existing))
            }
            return (expense, planned)
        }
    }

    /// A new expense with everything that moves with it: the ledger, the spending totals, the
    /// change feed, the activity line and the budget's alerts. False, writing nothing, when the id
    /// exists already. `rowInBatch`: the row is the first write of the batch of what moves with
    /// it, so an id that exists already throws a unique violation instead (the transaction is then
    /// to be rolled back).
    static func insertNew(
        _ expense: ExpenseRecord, actor: Actor, log: GroupLog, rowInBatch: Bool = false, _ sql: any SQLDatabase
    ) async throws -> Bool {
        if !rowInBatch {
            guard try await insertRow(expense, sql) else { return false }
        }
        try await writeMovements(of: [(expense, actor, log)], withRows: rowInBatch, sql)
        try await BudgetAlerts.check(
            groupID: expense.groupID, day: expense.expenseDate, categoryID: expense.categoryID, log: log, sql)
        return true
    }

    /// What moves with new expenses whose rows are written (one group's, each with who made it
    /// and its log): their payers and shares, the ledger and the spending totals (added up, each
    /// row once), the change feed and an activity line each. One `WriteBatch`: on PostgreSQL one
    /// statement where a create had eight (issue 16). `withRows`: the expense rows themselves
    /// are its first writes (plain inserts: an id that exists already fails it).
    static func writeMovements(
        of created: [(expense: ExpenseRecord, actor: Actor, log: GroupLog)], withRows: Bool = false,
        _ sql: any SQLDatabase
    ) async throws {
        guard let groupLog = created.first?.log else { return }
        let expenses = created.map(\.expense)
        var batch = WriteBatch()
        if withRows { batch.add(MultiRowInsert.statements(rowsHead, expenses.map(rowValues))) }
        addPayersAndShares(expenses, to: &batch)
        let ledgers = Ledger.effects(expenses: expenses).map { Ledger.write($0, groupID: groupLog.groupID, into: &batch) }
        var spending: [Spending.Key: Spending.Sums] = [:]
        for expense in expenses {
            spending.merge(Spending.parts(of: expense, sign: 1, home: groupLog.homeCurrency), uniquingKeysWith: +)
        }
        Spending.write(spending, groupID: groupLog.groupID, into: &batch)
        batch.add(groupLog.changes(.expense, expenses.map(\.id)))
        let lines = created.map { expense, actor, log in
            log.activity(
                actor, "expense.created", .expense, expense.id,
                ActivityEvent(subject: expense.description, amount: expense.amount, currency: expense.currency),
                concerning: expense.memberIDs, into: &batch)
        }
        let values = try await batch.run(on: sql)
        for ledger in ledgers { try ledger.check(values) }
        for line in lines { try await line.deliver(values, sql) }
    }

    public func expense(id: UUID) async throws -> ExpenseRecord? {
        try await database.read { try await Self.load(id, $0) }
    }

    /// Writes `updated` (its payers and shares recomputed by the caller) if the stored version is
    /// still `expectedVersion`. Shares keep their ids and paid state by member; a member no longer
    /// in the split keeps a removed share. The ledger moves by the difference.
    ///
    /// Unless `removedPartsConfirmed`, an edit that moves the part of a member no longer active
    /// (under the group's lock) is refused with `ExpenseStoreError.removedPartMoves`: the caller
    /// asked on the members it read before, and one may have been removed since.
    public func update(
        _ updated: ExpenseRecord, expectedVersion: Int64, removedPartsConfirmed: Bool = false, actor: Actor, now: Int64
    ) async throws -> VersionedWrite<ExpenseRecord>? {
        // Saved as it was (a form's Save with nothing changed): no new version, no line in the
        // activity, no change number for other devices to wake for (found by a new user: "Lena
        // changed Chalet" for a form saved unchanged). Decided before the write takes the group's
        // change number (found by review); nothing is written, so nothing is decided again.
        if let current = try await expense(id: updated.id), current.groupID == updated.groupID,
            current.version == expectedVersion, Self.next(updated, over: current, now: now).saysTheSame(as: current)
        {
            return .written(current)
        }
        let forUpdate = database.forUpdate
        return try await database.transaction { sql in
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: updated.groupID, now: now, actor: actor, reading: updated.memberIDs)
            else { return nil }
            guard let current = try await Self.load(updated.id, sql, lock: forUpdate),
                current.groupID == updated.groupID
            else { return nil }
            guard current.version == expectedVersion else { return .stale(current) }
            // Members removed from the group keep their part of expenses they were in (issue 15);
            // only members new to this expense must be active.
            let before = Set(current.countedMemberIDs)
            try log.requireActive(updated.memberIDs.filter { !before.contains($0) })
            var next = Self.next(updated, over: current, now: now)
            // The same as it is now, found under the lock (someone made it so meanwhile).
            if next.saysTheSame(as: current) { return .written(current) }
            if !removedPartsConfirmed {
                try await Self.requireActive(current.membersWhosePartMoves(to: next), log: log, sql)
            }
            try await Self.unmarkChangedPaidShares(current: current, next: &next, actor: actor, log: log, sql)
            // The rows and what moves with the edit in one write batch (one statement on
            // PostgreSQL, where an edit's writes were five): the expense, its payers and shares,
            // the ledger and the spending totals by the difference, each row once, the change
            // and the activity line.
            var batch = WriteBatch()
            Self.rewrite(next, into: &batch)
            var ledgers: [Ledger.Written] = []
            if !current.isDeleted {
                ledgers = Ledger.merged([Ledger.effect(of: current, sign: -1), Ledger.effect(of: next, sign: 1)]).map {
                    Ledger.write($0, groupID: next.groupID, into: &batch)
                }
                Spending.write(
                    Spending.parts(of: current, sign: -1, home: log.homeCurrency)
                        .merging(Spending.parts(of: next, sign: 1, home: log.homeCurrency), uniquingKeysWith: +),
                    groupID: next.groupID, into: &batch)
            }
            batch.add(log.change(.expense, next.id, isDeleted: next.isDeleted))
            // What it was before, when the money changed (found by a new user: "Lena changed Chalet
            // (2,470.00 CHF)" said the new amount only).
            let was =
                current.amount != next.amount || current.currency != next.currency
                ? (try? Currency(code: current.currency)).map { Money(minorUnits: current.amount, currency: $0).description } : nil
            let line = log.activity(
                actor, "expense.updated", .expense, next.id,
                ActivityEvent(subject: next.description, amount: next.amount, currency: next.currency, from: was),
                concerning: current.memberIDs + next.memberIDs, into: &batch)
            let values = try await batch.run(on: sql)
            for ledger in ledgers { try ledger.check(values) }
            try await line.deliver(values, sql)
            if !next.isDeleted {
                try await BudgetAlerts.check(
                    groupID: next.groupID, day: next.expenseDate, categoryID: next.categoryID, log: log, sql)
            }
            return .written(next)
        }
    }

    /// Soft-deletes or restores; the balances drop or regain the expense. Transfers recorded by
    /// paid shares stay: money that moved is never erased (DESIGN §3). `removedPartsConfirmed`
    /// as for `update`.
    public func setDeleted(
        id: UUID, groupID: UUID, _ isDeleted: Bool, expectedVersion: Int64?, removedPartsConfirmed: Bool = false,
        actor: Actor, now: Int64
    ) async throws -> VersionedWrite<ExpenseRecord>? {
        let forUpdate = database.forUpdate
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            guard var expense = try await Self.load(id, sql, lock: forUpdate), expense.groupID == groupID else {
                return nil
            }
            // Already as asked: done, whatever version it was based on (a replay, or the same
            // change by someone else); nothing of anyone's is lost by answering so.
            guard expense.isDeleted != isDeleted else { return .written(expense) }
            if let expectedVersion, expense.version != expectedVersion { return .stale(expense) }
            if !removedPartsConfirmed {
                try await Self.requireActive(expense.membersWhosePartMoves(to: nil), log: log, sql)
            }
            // The ledger, the spending, the row, the change feed and the activity line in one
            // `WriteBatch`: on PostgreSQL one statement where there were six.
            let sign: Int64 = isDeleted ? -1 : 1
            var batch = WriteBatch()
            let ledger = Ledger.write(Ledger.effect(of: expense, sign: sign), groupID: groupID, into: &batch)
            Spending.write(Spending.parts(of: expense, sign: sign, home: log.homeCurrency), groupID: groupID, into: &batch)
            expense.isDeleted = isDeleted
            expense.version += 1
            expense.updatedAt = now
            batch.add(
                """
                UPDATE expenses SET is_deleted = \(bind: isDeleted), version = \(bind: expense.version),
                    updated_at = \(bind: now)
                WHERE id = \(bind: id.text)
                """)
            batch.add(log.change(.expense, id, isDeleted: isDeleted))
            let line = log.activity(
                actor, isDeleted ? "expense.deleted" : "expense.restored", .expense, id,
                ActivityEvent(subject: expense.description), concerning: expense.memberIDs, into: &batch)
            let values = try await batch.run(on: sql)
            try ledger.check(values)
            try await line.deliver(values, sql)
            if !isDeleted {
                try await BudgetAlerts.check(
                    groupID: groupID, day: expense.expenseDate, categoryID: expense.categoryID, log: log, sql)
            }
            return .written(expense)
        }
    }

    /// The share, its expense, for permission checks.
    public func share(id: UUID) async throws -> (share: ShareRecord, expense: ExpenseRecord)? {
        try await database.read { sql in
            guard let expense = try await Self.load(ofShare: id, sql),
                let share = expense.shares.first(where: { $0.id == id })
            else { return nil }
            return (share, expense)
        }
    }

    /// Marks a share paid (recording the transfers debtor → payers and linking them) or unpaid
    /// (voiding them). Asking for the state it has changes and records nothing; the expense row is
    /// locked, after the group's (`GroupLog.begin`), so concurrent toggles make one history row per
    /// real change.
    /// - Returns: the share afterwards and whether anything changed; nil when unknown.
    public func setPaid(
        splitID: UUID, groupID: UUID, _ isPaid: Bool, reason: String?, expectedVersion: Int64? = nil, actor: Actor,
        now: Int64, date: String
    ) async throws -> (share: ShareRecord, changed: Bool, nothingToPay: Bool)? {
        let forUpdate = database.forUpdate
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor) else { return nil }
            guard
                let expense = try await Self.load(ofShare: splitID, sql, lock: forUpdate), expense.groupID == groupID,
                var share = expense.shares.first(where: { $0.id == splitID }), !share.isRemoved
            else { return nil }
            // Whether it has anything to pay, on the expense as it is under the lock.
            guard share.isPaid != isPaid else { return (share, false, expense.nothingToPay(share)) }
            guard !expense.isDeleted else { throw ExpenseStoreError.expenseDeleted }
            if let grant = actor.grant {
                // Whether the actor owes this share or paid the expense, on the expense as it is
                // under the lock: an edit since the server's check may have changed either.
                let isDebtorOrPayer =
                    share.memberID == grant.memberID || expense.payers.contains { $0.memberID == grant.memberID }
                try log.require([.markSharePaid(isDebtorOrPayer: isDebtorOrPayer)])
            }
            // Based on a version the expense no longer has: the share may now be another amount,
            // so nothing is recorded (an offline payment replayed after someone's edit).
            if let expectedVersion, expense.version != expectedVersion { throw StaleExpenseError(current: expense) }
            // The transfers, the ledger, the share, the expense's version, the history, the change
            // feed and the activity line in one `WriteBatch`: on PostgreSQL one statement where
            // there were ten or more.
            var batch = WriteBatch()
            var effects: [Ledger.Effect] = []
            // What the mark moved (paid) or took back (unpaid), for the activity line.
            var moved: Int64 = 0
            if isPaid {
                guard !expense.nothingToPay(share) else { throw ExpenseStoreError.nothingToPay }
                // What was paid for this share before an edit voided its mark counts first: the
                // mark stands for those transfers again, and only the rest moves now. It counts
                // toward the whole share, not only toward the payer it went to: paid to Aki before
                // the expense was paid by Aki and Ben, its part beyond Aki's is Ben's part too
                // (the payers settle between them in the balances), so the member never pays more
                // than the share (found by a new user). Matched by who paid whom in the share's
                // direction, so a refund's (paid out by the one who received it) is found as an
                // expense's is (found by review).
                let debts = PaidShares.transfers(settling: MemberID(share.memberID), of: try expense.split())
                let paysOut = debts.first.map { $0.to.uuid == share.memberID } ?? false
                let earlier = try await sql.raw(
                    """
                    SELECT * FROM settlements
                    WHERE voided_split_id = \(bind: splitID.text) AND expense_split_id IS NULL AND is_deleted = \(bind: false)
                          AND \(ident: paysOut ? "to_member_id" : "from_member_id") = \(bind: share.memberID.text)
                          AND currency = \(bind: expense.currency)
                    ORDER BY created_at, id
                    """
                ).all().map { try SettlementRecord(row: $0) }
                struct Pair: Hashable {
                    let from: UUID
                    let to: UUID
                }
                var paidBefore = Dictionary(
                    earlier.map { (Pair(from: $0.fromMemberID, to: $0.toMemberID), $0.amount) }, uniquingKeysWith: +)
                // What is still owed to (or by) each payer after what went to them before…
                var rests = debts.map { debt -> (debt: PlannedTransfer, rest: Int64) in
                    let pair = Pair(from: debt.from.uuid, to: debt.to.uuid)
                    let covered = min(max(paidBefore[pair] ?? 0, 0), debt.amount)
                    paidBefore[pair, default: 0] -= covered
                    return (debt, debt.amount - covered)
                }
                // …less what went beyond a payer's part, or to someone who is no payer now.
                var spare = paidBefore.values.reduce(0) { $0 + max($1, 0) }
                for index in rests.indices where spare > 0 {
                    let taken = min(spare, rests[index].rest)
                    rests[index].rest -= taken
                    spare -= taken
                }
                let relinked = earlier.map(\.id)
                var settlements: [SettlementRecord] = []
                for (debt, rest) in rests where rest > 0 {
                    settlements.append(
                        SettlementRecord(
                            id: UUID.timeOrdered(), groupID: groupID, fromMemberID: debt.from.uuid,
                            toMemberID: debt.to.uuid, amount: rest, currency: expense.currency,
                            date: date, note: "Share of \(expense.description)", expenseSplitID: splitID,
                            createdByUserID: actor.userID, createdAt: now, updatedAt: now))
                }
                if !relinked.isEmpty {
                    batch.add(
                        """
                        UPDATE settlements SET expense_split_id = \(bind: splitID.text), version = version + 1,
                            updated_at = \(bind: now)
                        WHERE id IN (\(binds: relinked.map(\.text)))
                        """)
                    batch.add(log.changes(.settlement, relinked))
                }
                moved = settlements.reduce(0) { $0 + $1.amount }
                for settlement in settlements { batch.add(SettlementStore.insertion(settlement)) }
                effects = settlements.map { Ledger.effect(of: $0, sign: 1) }
                batch.add(log.changes(.settlement, settlements.map(\.id)))
            } else {
                // Transfers made before an edit voided an earlier mark go back to being plain
                // transfers (that money moved); the ones this mark made are taken back.
                let earlier = try await sql.raw(
                    """
                    UPDATE settlements SET expense_split_id = NULL, version = version + 1, updated_at = \(bind: now)
                    WHERE expense_split_id = \(bind: splitID.text) AND voided_split_id = \(bind: splitID.text)
                          AND is_deleted = \(bind: false)
                    RETURNING id
                    """
                ).all().map { try $0.decodeUUID("id") }
                if !earlier.isEmpty { batch.add(log.changes(.settlement, earlier)) }
                let linked = try await sql.raw(
                    """
                    SELECT * FROM settlements WHERE expense_split_id = \(bind: splitID.text) AND is_deleted = \(bind: false)
                    """
                ).all().map { try SettlementRecord(row: $0) }
                if !linked.isEmpty {
                    moved = linked.reduce(0) { $0 + $1.amount }
                    batch.add(SettlementStore.deletion(linked.map(\.id), now: now))
                    effects = linked.map { Ledger.effect(of: $0, sign: -1) }
                    batch.add(log.changes(.settlement, linked.map(\.id), isDeleted: true))
                }
            }
            let ledgers = Ledger.merged(effects).map { Ledger.write($0, groupID: groupID, into: &batch) }
            let whose = try await SettlementStore.memberNames([share.memberID], sql)[share.memberID]
            share.isPaid = isPaid
            share.paidAt = isPaid ? now : nil
            batch.add(
                """
                UPDATE expense_splits SET is_paid = \(bind: isPaid), paid_at = \(bind: share.paidAt)
                WHERE id = \(bind: splitID.text)
                """)
            batch.add(
                "UPDATE expenses SET version = version + 1, updated_at = \(bind: now) WHERE id = \(bind: expense.id.text)")
            batch.add(Self.history(splitID, isPaid: isPaid, reason: reason, actor: actor, log: log))
            batch.add(log.change(.expense, expense.id))
            let line = log.activity(
                actor, isPaid ? "share.marked_paid" : "share.marked_unpaid", .expense, expense.id,
                ActivityEvent(
                    subject: expense.description, amount: moved == 0 ? nil : moved,
                    currency: moved == 0 ? nil : expense.currency, reason: reason, member: whose,
                    memberID: share.memberID),
                concerning: [share.memberID] + expense.payers.map(\.memberID), into: &batch)
            let values = try await batch.run(on: sql)
            for ledger in ledgers { try ledger.check(values) }
            try await line.deliver(values, sql)
            return (share, true, expense.nothingToPay(share))
        }
    }

    // MARK: - Rows

    /// One expense with its payers and shares (`lock`: `FOR UPDATE` on PostgreSQL, locking its
    /// row): one statement on PostgreSQL (`PackedExpense`), three on SQLite.
    static func load(_ id: UUID, _ sql: any SQLDatabase, lock: String = "") async throws -> ExpenseRecord? {
        if packs(sql) {
            return try await sql.raw(
                """
                SELECT *, \(unsafeRaw: PackedExpense.columns) FROM expenses WHERE id = \(bind: id.text)\(unsafeRaw: lock)
                """
            ).first().map(PackedExpense.record)
        }
        guard
            let row = try await sql.raw("SELECT * FROM expenses WHERE id = \(bind: id.text)\(unsafeRaw: lock)").first()
        else { return nil }
        let payers = try await sql.raw("SELECT * FROM expense_payers WHERE expense_id = \(bind: id.text)").all()
            .map { try PayerRecord(row: $0) }
        let shares = try await sql.raw("SELECT * FROM expense_splits WHERE expense_id = \(bind: id.text)").all()
            .map { try ShareRecord(row: $0) }
        return try ExpenseRecord(row: row, payers: payers, shares: shares)
    }

    /// The expense a share is of; nil when there is no such share. On PostgreSQL one statement.
    static func load(ofShare splitID: UUID, _ sql: any SQLDatabase, lock: String = "") async throws -> ExpenseRecord? {
        if packs(sql) {
            return try await sql.raw(
                """
                SELECT *, \(unsafeRaw: PackedExpense.columns) FROM expenses
                WHERE id = (SELECT expense_id FROM expense_splits WHERE id = \(bind: splitID.text))\(unsafeRaw: lock)
                """
            ).first().map(PackedExpense.record)
        }
        guard let row = try await sql.raw("SELECT expense_id FROM expense_splits WHERE id = \(bind: splitID.text)").first()
        else { return nil }
        return try await load(try row.decodeUUID("expense_id"), sql, lock: lock)
    }

    /// The expense's own row; false, writing nothing, when the id exists already.
    private static func insertRow(_ expense: ExpenseRecord, _ sql: any SQLDatabase) async throws -> Bool {
        try await insertRows([expense], sql).contains(expense.id)
    }

    /// Expense rows, one statement per thousand; returns the ids written, leaving out those that
    /// exist already.
    static func insertRows(_ expenses: [ExpenseRecord], _ sql: any SQLDatabase) async throws -> Set<UUID> {
        var inserted: Set<UUID> = []
        try await MultiRowInsert.returning(
            rowsHead, expenses.map(rowValues), then: "ON CONFLICT (id) DO NOTHING RETURNING id", on: sql
        ) { inserted.insert(try $0.decodeUUID("id")) }
        return inserted
    }

    private static let rowsHead = """
        INSERT INTO expenses (id, group_id, description, amount, currency, category_id, expense_date, split_json,
                              home_amount, home_currency, created_by_user_id, is_deleted, version, created_at,
                              updated_at)
        """

    /// An expense's row, in `rowsHead`'s columns.
    private static func rowValues(_ expense: ExpenseRecord) -> [any Encodable & Sendable] {
        [
            expense.id.text, expense.groupID.text, expense.description, expense.amount, expense.currency,
            expense.categoryID.text, expense.expenseDate, StoredSplit.encode(expense.rule),
            expense.homeAmount, expense.homeCurrency, expense.createdByUserID.text, expense.isDeleted,
            expense.version, expense.createdAt, expense.updatedAt,
        ]
    }

    /// For a create whose client id exists already: the stored expense when it is the same one
    /// (a retry: every field the request sets is as stored); `idTaken` for anything else, such as
    /// a queued expense sent again after its payer was changed, which would otherwise be answered
    /// with the first payer as if saved.
    static func retried(_ expense: ExpenseRecord, _ sql: any SQLDatabase) async throws -> ExpenseRecord {
        guard let existing = try await load(expense.id, sql), existing.groupID == expense.groupID,
            existing.createdByUserID == expense.createdByUserID, existing.amount == expense.amount,
            existing.currency == expense.currency, existing.description == expense.description,
            existing.rule == expense.rule, Set(existing.memberPayers) == Set(expense.memberPayers),
            existing.expenseDate == expense.expenseDate, existing.categoryID == expense.categoryID,
            existing.homeAmount == expense.homeAmount
        else { throw ExpenseStoreError.idTaken }
        return existing
    }

    /// New expenses' payers and all their shares, a statement each (per thousand rows).
    static func addPayersAndShares(_ expenses: [ExpenseRecord], to batch: inout WriteBatch) {
        batch.add(payerRows(expenses))
        batch.add(
            MultiRowInsert.statements(
                "INSERT INTO expense_splits (id, expense_id, member_id, amount, is_paid, paid_at, is_removed)",
                expenses.flatMap { expense in
                    expense.shares.map {
                        [$0.id.text, expense.id.text, $0.memberID.text, $0.amount, $0.isPaid, $0.paidAt, $0.isRemoved]
                    }
                }))
    }

    private static func payerRows(_ expenses: [ExpenseRecord]) -> [SQLQueryString] {
        MultiRowInsert.statements(
            "INSERT INTO expense_payers (expense_id, member_id, amount)",
            expenses.flatMap { expense in expense.payers.map { [expense.id.text, $0.memberID.text, $0.amount] } })
    }

    /// An edited expense's row, payers and shares, as writes of a `WriteBatch`: each touches rows
    /// none of the others does (payers no longer paying are deleted, the others upserted), so
    /// they may run in one PostgreSQL statement.
    private static func rewrite(_ expense: ExpenseRecord, into batch: inout WriteBatch) {
        batch.add(
            """
            UPDATE expenses SET description = \(bind: expense.description), amount = \(bind: expense.amount),
                currency = \(bind: expense.currency), category_id = \(bind: expense.categoryID.text),
                expense_date = \(bind: expense.expenseDate), split_json = \(bind: StoredSplit.encode(expense.rule)),
                home_amount = \(bind: expense.homeAmount), home_currency = \(bind: expense.homeCurrency),
                version = \(bind: expense.version),
                updated_at = \(bind: expense.updatedAt)
            WHERE id = \(bind: expense.id.text)
            """)
        // Every expense has a payer; were there none, the NOT IN of nothing would delete them all.
        batch.add(
            """
            DELETE FROM expense_payers WHERE expense_id = \(bind: expense.id.text)
                AND member_id NOT IN (\(binds: expense.payers.isEmpty ? [""] : expense.payers.map(\.memberID.text)))
            """)
        batch.add(
            MultiRowInsert.statements(
                "INSERT INTO expense_payers (expense_id, member_id, amount)",
                expense.payers.map { [expense.id.text, $0.memberID.text, $0.amount] },
                then: "ON CONFLICT (expense_id, member_id) DO UPDATE SET amount = excluded.amount"))
        // Every share in one statement, each member's row once: updated in place (keeping its id,
        // so its paid history stays with it), or added for a member new to the expense.
        batch.add(
            MultiRowInsert.statements(
                "INSERT INTO expense_splits (id, expense_id, member_id, amount, is_paid, paid_at, is_removed)",
                expense.shares.map {
                    [$0.id.text, expense.id.text, $0.memberID.text, $0.amount, $0.isPaid, $0.paidAt, $0.isRemoved]
                },
                then: """
                    ON CONFLICT (expense_id, member_id)
                    DO UPDATE SET amount = excluded.amount, is_removed = excluded.is_removed, is_paid = excluded.is_paid,
                                  paid_at = excluded.paid_at
                    """))
    }

    /// The paid shares an edit voids (`PaidShares.voidedByEdit`, DESIGN §3) become unpaid, with
    /// a history line saying why; their transfers stay as plain settlements (money that moved is
    /// never erased), so the balances show what is still owed either way.
    private static func unmarkChangedPaidShares(
        current: ExpenseRecord, next: inout ExpenseRecord, actor: Actor, log: GroupLog, _ sql: any SQLDatabase
    ) async throws {
        let voided = PaidShares.voidedByEdit(
            before: (current.memberPayers, try Currency(code: current.currency), current.shares.map(\.owed)),
            after: (next.memberPayers, try Currency(code: next.currency), next.shares.map(\.owed)))
        for id in voided {
            // Kept as the share's voided transfers: marking it paid again moves only the rest.
            let linked = try await sql.raw(
                """
                UPDATE settlements SET voided_split_id = expense_split_id, expense_split_id = NULL,
                    version = version + 1, updated_at = \(bind: log.now)
                WHERE expense_split_id = \(bind: id.text) AND is_deleted = \(bind: false)
                RETURNING id
                """
            ).all()
            for row in linked { try await log.changed(.settlement, try row.decodeUUID("id"), sql) }
            if let index = next.shares.firstIndex(where: { $0.id == id }) {
                next.shares[index].isPaid = false
                next.shares[index].paidAt = nil
            }
            try await sql.raw(
                history(
                    id, isPaid: false, reason: "The expense was edited; the transfer stays recorded as a settlement.",
                    actor: actor, log: log)
            ).run()
        }
    }

    /// The insert of one line of a share's payment history (append-only, DESIGN §6).
    private static func history(
        _ splitID: UUID, isPaid: Bool, reason: String?, actor: Actor, log: GroupLog
    ) -> SQLQueryString {
        """
        INSERT INTO payment_history (id, expense_split_id, action, performed_by_user_id, performed_by_name,
                                     performed_at, seq, reason, ip_address, device_info)
        VALUES (\(bind: UUID.timeOrdered().text), \(bind: splitID.text), \(bind: isPaid ? "marked_paid" : "marked_unpaid"),
                \(bind: actor.userID.text), \(bind: actor.name), \(bind: log.now), \(bind: log.seq), \(bind: reason),
                \(bind: actor.ipAddress), \(bind: actor.deviceInfo))
        """
    }

    /// `updated` as it would be written over `current`: the next version, `current`'s creation and
    /// deletion kept, shares keeping their ids and paid marks by member (`mergeShares`).
    static func next(_ updated: ExpenseRecord, over current: ExpenseRecord, now: Int64) -> ExpenseRecord {
        var next = updated
        next.version = current.version + 1
        next.updatedAt = now
        next.createdAt = current.createdAt
        next.createdByUserID = current.createdByUserID
        next.isDeleted = current.isDeleted
        next.shares = Self.mergeShares(old: current.shares, new: updated.shares)
        return next
    }

    /// Refuses (`removedPartMoves`) when any of `members` is not active under the group's lock:
    /// those `begin` read are known, the rest are read.
    static func requireActive(_ members: Set<UUID>, log: GroupLog, _ sql: any SQLDatabase) async throws {
        guard !members.isEmpty else { return }
        guard members.intersection(log.readMembers).isSubset(of: log.activeMembers) else {
            throw ExpenseStoreError.removedPartMoves
        }
        do {
            try await GroupLog.requireActive(Array(members.subtracting(log.readMembers)), groupID: log.groupID, sql)
        } catch WriteRefusal.inactiveMember {
            throw ExpenseStoreError.removedPartMoves
        }
    }

    /// The new shares by member over the old (`PaidShares.merge`): ids and paid marks survive.
    static func mergeShares(old: [ShareRecord], new: [ShareRecord]) -> [ShareRecord] {
        PaidShares.merge(old: old.map(\.owed), new: new.map(\.owed)).map(ShareRecord.init)
    }
}
