import SQLKit

/// `column IN (values)` for a list of ids. On SQLite it is that, one bind per value. On
/// PostgreSQL a list of up to `PreparedNames.maxBinds` is `column = ANY($1)` with the list bound
/// as one `text[]`: one statement text whatever the count, prepared once by name, whose plan
/// (made for an array of unknown length) probes the primary key. A page of 50 expenses read its
/// payers with an `IN` list whose plan scanned the whole payers table: 2.0 ms at the database on
/// a table of 10,000 rows, against 0.09 ms (issue 16, docs/benchmarks.md). Longer lists (a feed
/// page's 1,000) stay `IN` lists and run unnamed: as `ANY` they cost the server 7 % more CPU for
/// a feed of 10,000 (722 against 675 ms; likely because a named statement's rows come through an
/// async sequence and an unnamed one's through a callback, not measured apart). The limit is the
/// bind limit on purpose: no `IN` list is ever short enough to be named (each length would be a
/// name of its own).
struct OneOf: SQLExpression {
    let column: String
    let values: [String]
    /// The table (or its alias) the column is of, when the query names several.
    let table: String?

    init(_ column: String, _ values: [String], table: String? = nil) {
        self.column = column
        self.values = values
        self.table = table
    }

    func serialize(to serializer: inout SQLSerializer) {
        SQLColumn(column, table: table).serialize(to: &serializer)
        if serializer.dialect.name == "postgresql" && values.count <= PreparedNames.maxBinds {
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
