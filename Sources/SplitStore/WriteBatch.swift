import SQLKit

/// Writes of one transaction sent together. On PostgreSQL they go as one statement, each write
/// a data-modifying `WITH`: one round trip for all, where each was a round trip of its own with
/// two thread switches (issue 16: a create's eight writes after the expense row). On SQLite
/// they run one after another, as before: there are no round trips to save.
///
/// Only for writes that neither read what another of them writes nor write the same rows: on
/// PostgreSQL each sees the database as it was when the statement began, and foreign keys are
/// checked once all of them are done. Rows the writes reference must exist before the batch
/// runs, or be written by it.
struct WriteBatch {
    private var writes: [(statement: SQLQueryString, returns: Bool)] = []

    /// A write that returns nothing.
    mutating func add(_ statement: SQLQueryString) {
        writes.append((statement, false))
    }

    mutating func add(_ statements: [SQLQueryString]) {
        for statement in statements { add(statement) }
    }

    /// A write whose `RETURNING` clause gives one column, `value`, as text. Its values are at the
    /// returned index of what `run` returns.
    mutating func addReturning(_ statement: SQLQueryString) -> Int {
        writes.append((statement, true))
        return writes.count - 1
    }

    /// Runs the writes in the order added (on SQLite; on PostgreSQL together). Returns, at each
    /// write's index, the values a returning write gave (empty for the others).
    func run(on sql: any SQLDatabase) async throws -> [[String]] {
        var values = [[String]](repeating: [], count: writes.count)
        guard sql.dialect.name == "postgresql" else {
            for (index, write) in writes.enumerated() {
                let rows = try await sql.raw(write.statement).all()
                if write.returns {
                    values[index] = try rows.map { try $0.decode(column: "value", as: String.self) }
                }
            }
            return values
        }
        // As many writes to a statement as PostgreSQL's 65,535 bound values allow (a big import's
        // ledger is several statements of a thousand rows each).
        var start = 0
        while start < writes.count {
            var end = start
            var binds = 0
            while end < writes.count {
                let count = sql.serialize(writes[end].statement).binds.count
                if end > start && binds + count > Self.bindsPerStatement { break }
                binds += count
                end += 1
            }
            try await run(start..<end, into: &values, on: sql)
            start = end
        }
        return values
    }

    static let bindsPerStatement = 65_535

    /// Writes `range` as one PostgreSQL statement.
    private func run(_ range: Range<Int>, into values: inout [[String]], on sql: any SQLDatabase) async throws {
        var query = SQLQueryString("WITH ")
        for index in range {
            query.appendLiteral((index == range.lowerBound ? "" : ", ") + "w\(index) AS (")
            query.appendInterpolation(writes[index].statement)
            query.appendLiteral(")")
        }
        let returning = range.filter { writes[$0].returns }
        if returning.isEmpty {
            query.appendLiteral(" SELECT 0 AS part, '' AS value WHERE FALSE")
        } else {
            query.appendLiteral(
                " " + returning.map { "SELECT \($0) AS part, value FROM w\($0)" }.joined(separator: " UNION ALL "))
        }
        for row in try await sql.raw(query).all() {
            values[try row.decode(column: "part", as: Int.self)].append(try row.decode(column: "value", as: String.self))
        }
    }
}
