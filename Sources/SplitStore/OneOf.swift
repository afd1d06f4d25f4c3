import SQLKit

/// `column IN (values)` for a list as long as a page of ids (issue 16). On SQLite it is that, one
/// bind per value. On PostgreSQL it is `column = ANY($1)` with the list bound as one `text[]`: one
/// statement text whatever the count, so it runs as a named prepared statement (`PreparedNames`)
/// and PostgreSQL plans it once instead of on every page. An `IN` list of 50 ids took 0.5 ms to
/// plan, and on a payers table of 10,000 rows the planner chose to scan it all (2.0 ms at the
/// database, against 0.09 ms by the primary key with the prepared plan); a page of 1,000 of a
/// feed spent 2.8 ms planning and 7.6 ms scanning the shares, against 3.7 ms (docs/benchmarks.md).
struct OneOf: SQLExpression {
    let column: String
    let values: [String]

    init(_ column: String, _ values: [String]) {
        self.column = column
        self.values = values
    }

    func serialize(to serializer: inout SQLSerializer) {
        SQLColumn(column).serialize(to: &serializer)
        if serializer.dialect.name == "postgresql" {
            serializer.write(" = ANY(")
            serializer.write(bind: values)
            serializer.write(")")
        } else {
            serializer.write(" IN (")
            for (index, value) in values.enumerated() {
                if index > 0 { serializer.write(", ") }
                serializer.write(bind: value)
            }
            serializer.write(")")
        }
    }
}
