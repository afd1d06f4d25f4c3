import Foundation
import SQLKit
import SplitApp
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// On PostgreSQL an expense row is read into its record as it arrives, while PostgreSQL makes the
/// rows after it (`PackedExpense.records`, issue 16): the records keep the query's order, and a
/// row that cannot be read fails the whole read instead of being left out. Many ids are read in
/// two halves at once, and come back as one read would give them.
@Suite("Packed expense rows, read as they arrive")
struct PackedExpenseReadTests {
    static var postgres: [Database.Backend] { TestDatabases.all.filter { $0 == .postgres } }

    @Test("records come whole and in the query's order, many ids in two halves alike; one unreadable row fails the read", arguments: postgres)
    func orderAndFailure(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            var made: [UUID] = []
            for index in 1...30 {
                let view = try await trip.create(trip.ramen("\(index * 100)"))
                made.append(view.expense.id)
            }
            let store = ExpenseStore(database: trip.database)
            let byID = try await store.expenses(ids: made)
            #expect(Set(byID.keys) == Set(made))
            // Enough ids to be read in two halves at once: the made ones in both halves, among
            // ids of no expense.
            let unknown = (0..<ExpenseStore.halvedFrom).map { _ in UUID() }
            let many = Array(made[..<15]) + unknown + Array(made[15...])
            #expect(try await store.expenses(ids: many) == byID)
            let group = trip.groupID.text
            let read = try await trip.database.read { sql in
                try await PackedExpense.records(
                    sql.raw(
                        """
                        SELECT *, \(unsafeRaw: PackedExpense.columns) FROM expenses
                        WHERE group_id = \(bind: group) ORDER BY amount DESC
                        """))
            }
            #expect(read.map(\.id) == made.reversed())
            #expect(read == made.reversed().map { byID[$0] })

            // The 17th expense's payers as a column of another type.
            await #expect(throws: PackedRecords.Malformed.self) {
                try await trip.database.read { sql in
                    try await PackedExpense.records(
                        sql.raw(
                            """
                            SELECT *,
                                CASE WHEN amount = 1700 THEN (SELECT array_agg(ROW(7::int4)))
                                ELSE (SELECT array_agg(ROW(p.member_id, p.amount)) FROM expense_payers p
                                      WHERE p.expense_id = expenses.id) END AS packed_payers,
                                (SELECT array_agg(ROW(s.id, s.member_id, s.amount, s.is_paid, s.paid_at, s.is_removed))
                                 FROM expense_splits s WHERE s.expense_id = expenses.id) AS packed_shares
                            FROM expenses WHERE group_id = \(bind: group) ORDER BY amount
                            """))
                }
            }
        }
    }
}
