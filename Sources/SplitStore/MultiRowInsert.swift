import SQLKit

/// `INSERT INTO … (columns) VALUES (…), (…), … [tail]` for rows of bound values: a write of many
/// rows is one statement, not one per row. Rows go in statements of at most 1,000, so even the
/// largest (a migration filling a big group's ledger) stays under PostgreSQL's 65,535 values.
enum MultiRowInsert {
    static let rowsPerStatement = 1_000

    /// - Parameters:
    ///   - head: `INSERT INTO table (a, b, c)`, from this module's code only, never from input.
    ///   - rows: one array of values per row, each as long as the column list.
    ///   - tail: what follows the values, such as an `ON CONFLICT` clause.
    static func run(
        _ head: String, _ rows: [[any Encodable & Sendable]], then tail: String = "", on sql: any SQLDatabase
    ) async throws {
        _ = try await returning(head, rows, then: tail, on: sql, read: { _ in })
    }

    /// The same, handing each row a `RETURNING` tail yields to `read`.
    static func returning(
        _ head: String, _ rows: [[any Encodable & Sendable]], then tail: String, on sql: any SQLDatabase,
        read: (any SQLRow) throws -> Void
    ) async throws {
        for statement in statements(head, rows, then: tail) {
            for row in try await sql.raw(statement).all() { try read(row) }
        }
    }

    /// The statements `run` sends (none for no rows), for a `WriteBatch`.
    static func statements(_ head: String, _ rows: [[any Encodable & Sendable]], then tail: String = "")
        -> [SQLQueryString]
    {
        stride(from: 0, to: rows.count, by: rowsPerStatement).map { start in
            var query = SQLQueryString(head + " VALUES ")
            for (index, row) in rows[start..<min(start + rowsPerStatement, rows.count)].enumerated() {
                query.appendLiteral(index == 0 ? "(" : ", (")
                for (column, value) in row.enumerated() {
                    if column > 0 { query.appendLiteral(", ") }
                    query.appendInterpolation(bind: value)
                }
                query.appendLiteral(")")
            }
            if !tail.isEmpty { query.appendLiteral(" " + tail) }
            return query
        }
    }
}
