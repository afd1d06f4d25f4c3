import SQLKit

/// Writes of one transaction sent together. On PostgreSQL they go as one statement, each write
/// a data-modifying `WITH`: one round trip for all, where each was a round trip of its own with
/// two thread switches (issue 16: a create's eight writes after the expense row). On SQLite
/// they run one after another, as before: there are no round trips to save. On PostgreSQL the
/// first statement also sends the transaction's events noted so far (`pg_notify`), which would
/// otherwise be a round trip of their own before COMMIT.
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
        guard !writes.isEmpty else { return values }
        // The transaction's events noted so far are sent by the first statement, not by one of
        // their own before COMMIT (`Database.transaction` sends the rest): each `pg_notify` is
        // delivered at commit all the same, and never after a rollback.
        let payloads = BusEvent.payloads(PendingEvents.current?.takeUnsent() ?? [])
        try await run(writes.indices, notifying: payloads, into: &values, on: sql)
        return values
    }

    static let bindsPerStatement = 65_535

    /// Writes `range` as one PostgreSQL statement, serialized once; when it would bind more values
    /// than PostgreSQL's 65,535, as two halves, each the same way (a big import's ledger is several
    /// statements of a thousand rows each). A create's batch is far below the bound: its
    /// statement is serialized once, not once to count its binds and again to send it.
    private func run(
        _ range: Range<Int>, notifying payloads: [String], into values: inout [[String]], on sql: any SQLDatabase
    ) async throws {
        let statement = sql.serialize(query(range, notifying: payloads))
        if statement.binds.count > Self.bindsPerStatement && range.count > 1 {
            let middle = range.lowerBound + range.count / 2
            try await run(range.lowerBound..<middle, notifying: payloads, into: &values, on: sql)
            try await run(middle..<range.upperBound, notifying: [], into: &values, on: sql)
            return
        }
        let serialized = Serialized(sql: statement.sql, binds: statement.binds)
        for row in try await sql.raw("\(serialized)").all() {
            let part = try row.decode(column: "part", as: Int.self)
            guard part != Self.notified else { continue }
            values[part].append(try row.decode(column: "value", as: String.self))
        }
    }

    /// `range`'s writes as one statement, each a data-modifying `WITH`, its rows the returning
    /// writes' values and the `pg_notify` of each payload.
    private func query(_ range: Range<Int>, notifying payloads: [String]) -> SQLQueryString {
        var query = SQLQueryString("WITH ")
        for index in range {
            query.appendLiteral((index == range.lowerBound ? "" : ", ") + "w\(index) AS (")
            query.appendInterpolation(writes[index].statement)
            query.appendLiteral(")")
        }
        let returning = range.filter { writes[$0].returns }
        if returning.isEmpty && payloads.isEmpty {
            query.appendLiteral(" SELECT 0 AS part, '' AS value WHERE FALSE")
        } else {
            query.appendLiteral(
                " " + returning.map { "SELECT \($0) AS part, value FROM w\($0)" }.joined(separator: " UNION ALL "))
            for (index, payload) in payloads.enumerated() {
                query.appendLiteral(returning.isEmpty && index == 0 ? "" : " UNION ALL ")
                query.appendLiteral("SELECT \(Self.notified) AS part, pg_notify(")
                query.appendInterpolation(bind: Database.eventChannel)
                query.appendLiteral(", ")
                query.appendInterpolation(bind: payload)
                query.appendLiteral(")::text AS value")
            }
        }
        return query
    }

    /// A whole statement already serialized: its text, placeholders numbered from `$1`, and its
    /// values, written as they are.
    private struct Serialized: SQLExpression {
        let sql: String
        let binds: [any Encodable & Sendable]

        func serialize(to serializer: inout SQLSerializer) {
            serializer.write(sql)
            serializer.binds.append(contentsOf: binds)
        }
    }

    /// The `part` of the row each `pg_notify` gives.
    private static let notified = -1
}
