import Foundation
import SQLKit
import SplitCore

/// Reading expenses: one, a page of a group's, all of a group's live ones, and a share's history.
extension ExpenseStore {
    /// The share's paid/unpaid marks, oldest first.
    public func history(splitID: UUID) async throws -> [PaymentHistoryRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM payment_history WHERE expense_split_id = \(bind: splitID.text)
                ORDER BY seq, id
                """
            ).all()
        }.map(PaymentHistoryRecord.init(row:))
    }

    /// Every share's paid/unpaid marks in a group, oldest first (for its export).
    public func history(groupID: UUID) async throws -> [PaymentHistoryRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT h.* FROM payment_history h
                JOIN expense_splits s ON s.id = h.expense_split_id
                JOIN expenses e ON e.id = s.expense_id
                WHERE e.group_id = \(bind: groupID.text)
                ORDER BY h.seq, h.id
                """
            ).all()
        }.map(PaymentHistoryRecord.init(row:))
    }

    /// One page of a group's expenses, newest date first (then the latest entered), and whether
    /// more follow.
    public func expenses(groupID: UUID, filter: ExpenseFilter) async throws -> (
        expenses: [ExpenseRecord], hasMore: Bool
    ) {
        var query = SQLQueryString(" FROM expenses WHERE group_id = \(bind: groupID.text)")
        if !filter.includeDeleted {
            query.appendInterpolation(unsafeRaw: " AND is_deleted = "); query.appendInterpolation(bind: false)
        }
        if let category = filter.categoryID {
            query.appendInterpolation(unsafeRaw: " AND category_id = ")
            query.appendInterpolation(bind: category.text)
        }
        if let from = filter.from {
            query.appendInterpolation(unsafeRaw: " AND expense_date >= ")
            query.appendInterpolation(bind: from)
        }
        if let to = filter.to {
            query.appendInterpolation(unsafeRaw: " AND expense_date <= ")
            query.appendInterpolation(bind: to)
        }
        if let text = filter.text, !text.isEmpty {
            let escaped = text.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            query.appendInterpolation(unsafeRaw: " AND lower(description) LIKE ")
            query.appendInterpolation(bind: "%" + escaped + "%")
            query.appendInterpolation(unsafeRaw: " ESCAPE '\\'")
        }
        if let member = filter.memberID {
            // Each of the group's expenses, in the page's order, looked up by its own key: payers
            // and shares have no index by member (migration 0030). `UNION ALL` keeps PostgreSQL
            // from answering the EXISTS by hashing every payer and share of that member, read
            // from the whole table.
            query.appendInterpolation(
                unsafeRaw:
                    " AND EXISTS (SELECT 1 FROM expense_payers p WHERE p.expense_id = expenses.id AND p.member_id = ")
            query.appendInterpolation(bind: member.text)
            query.appendInterpolation(
                unsafeRaw:
                    " UNION ALL SELECT 1 FROM expense_splits s WHERE s.expense_id = expenses.id AND s.member_id = ")
            query.appendInterpolation(bind: member.text)
            query.appendInterpolation(unsafeRaw: " AND s.is_removed = ")
            query.appendInterpolation(bind: false)
            query.appendInterpolation(unsafeRaw: ")")
        }
        if let after = filter.after {
            query.appendInterpolation(unsafeRaw: " AND (expense_date < ")
            query.appendInterpolation(bind: after.date)
            query.appendInterpolation(unsafeRaw: " OR (expense_date = ")
            query.appendInterpolation(bind: after.date)
            query.appendInterpolation(unsafeRaw: " AND (created_at < ")
            query.appendInterpolation(bind: after.createdAt)
            query.appendInterpolation(unsafeRaw: " OR (created_at = ")
            query.appendInterpolation(bind: after.createdAt)
            query.appendInterpolation(unsafeRaw: " AND id < ")
            query.appendInterpolation(bind: after.id.text)
            query.appendInterpolation(unsafeRaw: "))))")
        }
        // One day's expenses newest first by when they were entered (issue 15), not by id.
        query.appendInterpolation(unsafeRaw: " ORDER BY expense_date DESC, created_at DESC, id DESC LIMIT ")
        query.appendInterpolation(bind: filter.limit + 1)
        let conditions = query
        let limit = filter.limit
        // The page's rows in the query that finds them, with their payers and shares packed in
        // on PostgreSQL; on SQLite two more statements read those (issue 16: a query for the ids
        // first was one more round trip).
        return try await database.read { sql in
            if Self.packs(sql) {
                let records = try await PackedExpense.records(
                    sql.raw("SELECT *, \(unsafeRaw: PackedExpense.columns)" + conditions))
                return (Array(records.prefix(limit)), records.count > limit)
            }
            let rows = Array(try await sql.raw("SELECT *" + conditions).all())
            let page = Array(rows.prefix(limit))
            let texts = try page.map { try $0.decode(column: "id", as: String.self) }
            let (payers, shares) = try await Self.payersAndShares(of: texts, sql)
            let loaded = try Self.assemble(page, payers, shares)
            return (try page.compactMap { loaded[try $0.decodeUUID("id")] }, rows.count > limit)
        }
    }

    /// Every live expense of a group, with payers and shares, in one query on PostgreSQL and
    /// three on SQLite (for the overview's charts; the API pages instead).
    /// `chargedOnly`: only those with a "charged as" amount (the home view converts them at it).
    public func liveExpenses(groupID: UUID, chargedOnly: Bool = false) async throws -> [ExpenseRecord] {
        let group = groupID.text
        let charged: SQLQueryString = chargedOnly ? " AND e.home_amount IS NOT NULL" : ""
        let records = try await database.read { sql in
            if Self.packs(sql) {
                return try await PackedExpense.records(
                    sql.raw(
                        """
                        SELECT *, \(unsafeRaw: PackedExpense.columns) FROM expenses
                        WHERE group_id = \(bind: group) AND is_deleted = \(bind: false)\(unsafeRaw: chargedOnly ? " AND home_amount IS NOT NULL" : "")
                        """
                    ))
            }
            return Array(
                try Self.assemble(
                    try await sql.raw(
                        """
                        SELECT e.* FROM expenses e WHERE e.group_id = \(bind: group) AND e.is_deleted = \(bind: false)\(charged)
                        """
                    ).all(),
                    try await sql.raw(
                        """
                        SELECT p.* FROM expense_payers p JOIN expenses e ON e.id = p.expense_id
                        WHERE e.group_id = \(bind: group) AND e.is_deleted = \(bind: false)\(charged)
                        """
                    ).all(),
                    try await sql.raw(
                        """
                        SELECT s.* FROM expense_splits s JOIN expenses e ON e.id = s.expense_id
                        WHERE e.group_id = \(bind: group) AND e.is_deleted = \(bind: false)\(charged)
                        """
                    ).all()
                ).values)
        }
        return records.sorted { ($0.expenseDate, $0.id.text) > ($1.expenseDate, $1.id.text) }
    }

    /// Expenses by id, with payers and shares: one query on PostgreSQL, three on SQLite, whatever
    /// their number; many in two halves at once.
    public func expenses(ids: [UUID]) async throws -> [UUID: ExpenseRecord] {
        guard !ids.isEmpty else { return [:] }
        let texts = ids.map(\.text)
        if database.readsInParallel, texts.count >= Self.halvedFrom {
            // Two halves at once on two connections (a feed page of 1,000, issue 16): on
            // PostgreSQL it makes one half's rows while this server reads the other's; on SQLite
            // the halves run on two cores. Each expense still comes whole from one read, with
            // its payers and shares.
            let half = (texts.count + 1) / 2
            async let first = expenses(texts: Array(texts[..<half]))
            async let second = expenses(texts: Array(texts[half...]))
            return try await first.merging(try await second) { kept, _ in kept }
        }
        return try await expenses(texts: texts)
    }

    /// How many ids `expenses(ids:)` reads in two halves at once.
    public static let halvedFrom = 200

    private func expenses(texts: [String]) async throws -> [UUID: ExpenseRecord] {
        try await database.read { sql in
            let select = sql.select().column(SQLLiteral.all).from("expenses").where(OneOf("id", texts))
            if Self.packs(sql) {
                let records = try await PackedExpense.records(select.column(SQLRaw(PackedExpense.columns)))
                return Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            let rows = try await select.all()
            let (payers, shares) = try await Self.payersAndShares(of: texts, sql)
            return try Self.assemble(rows, payers, shares)
        }
    }

    /// Whether expense rows are read with their payers and shares packed in (`PackedExpense`):
    /// on PostgreSQL. SQLite reads them as rows of their own, cheaply enough in-process.
    static func packs(_ sql: any SQLDatabase) -> Bool { sql.dialect.name == "postgresql" }

    /// The payer and share rows of the expenses `ids` (none for none).
    static func payersAndShares(of ids: [String], _ sql: any SQLDatabase) async throws -> (
        payers: [any SQLRow], shares: [any SQLRow]
    ) {
        guard !ids.isEmpty else { return ([], []) }
        return (
            try await sql.select().column(SQLLiteral.all).from("expense_payers").where(OneOf("expense_id", ids)).all(),
            try await sql.select().column(SQLLiteral.all).from("expense_splits").where(OneOf("expense_id", ids)).all()
        )
    }

    /// Expense rows with their payer and share rows, by expense id.
    static func assemble(
        _ rows: [any SQLRow], _ payerRows: [any SQLRow], _ shareRows: [any SQLRow]
    ) throws -> [UUID: ExpenseRecord] {
        var payers: [UUID: [PayerRecord]] = [:]
        for row in payerRows { payers[try row.decodeUUID("expense_id"), default: []].append(try PayerRecord(row: row)) }
        var shares: [UUID: [ShareRecord]] = [:]
        for row in shareRows { shares[try row.decodeUUID("expense_id"), default: []].append(try ShareRecord(row: row)) }
        var result: [UUID: ExpenseRecord] = [:]
        for row in rows {
            let id = try row.decodeUUID("id")
            result[id] = try ExpenseRecord(row: row, payers: payers[id] ?? [], shares: shares[id] ?? [])
        }
        return result
    }
}

extension PaymentHistoryRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), splitID: try row.decodeUUID("expense_split_id"),
            isPaid: try row.decode(column: "action", as: String.self) == "marked_paid",
            performedByUserID: try row.decodeUUID("performed_by_user_id"),
            performedByName: try row.decode(column: "performed_by_name", as: String.self),
            performedAt: try row.decode(column: "performed_at", as: Int64.self),
            reason: try row.decode(column: "reason", as: String?.self),
            ipAddress: try row.decode(column: "ip_address", as: String?.self),
            deviceInfo: try row.decode(column: "device_info", as: String?.self))
    }
}
