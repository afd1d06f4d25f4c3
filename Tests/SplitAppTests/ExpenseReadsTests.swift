import Foundation
import SQLKit
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// Every way the store reads expenses gives each one whole, as its tables hold it. On PostgreSQL
/// an expense's payers and shares come packed into its row (`PackedRecords`, issue 16); on SQLite
/// as rows of their own. Either way the reads must agree with the tables, read here apart.
@Suite("Expense reads: whole expenses from every read")
struct ExpenseReadsTests {
    @Test("random expenses (several payers, refunds, paid and removed shares, deleted) read back as stored", arguments: TestDatabases.all)
    func readsAgree(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            var rng = SplitMix64(seed: 16)
            let members = [trip.akiMember, trip.boMember, trip.deeMember]
            var written: [UUID: ExpenseRecord] = [:]
            for index in 0..<40 {
                let debtors = members.filter { _ in Bool.random(using: &rng) }.nonEmpty ?? [trip.boMember]
                let refund = index % 7 == 3
                let cents = Int.random(in: 1...99_999, using: &rng)
                let amount = (refund ? "-" : "") + "\(cents / 100).\(String(format: "%02d", cents % 100))"
                var entered = EnteredExpense(
                    description: "Item \(index) “ü” 🍣", amount: amount, currency: "MYR",
                    expenseDate: "2026-05-\(String(format: "%02d", index % 28 + 1))",
                    split: EnteredSplit(mode: .equal, memberIds: debtors.map(\.description)))
                if index % 3 == 0 && cents >= 2 {
                    // Two payers: Aki pays a cent, Bo the rest.
                    let rest = cents - 1
                    let sign = refund ? "-" : ""
                    entered.paidBy = [
                        EnteredAmount(memberId: trip.akiMember.description, value: sign + "0.01"),
                        EnteredAmount(
                            memberId: trip.boMember.description,
                            value: sign + "\(rest / 100).\(String(format: "%02d", rest % 100))"),
                    ]
                } else {
                    entered.paidByMemberId = members[Int.random(in: 0..<3, using: &rng)].description
                }
                var view = try await trip.create(entered)
                if debtors.count > 1 && index % 4 == 1 {
                    // One debtor dropped by an edit: the share stays, removed.
                    view = try await trip.expenses.edit(
                        view.expense.id,
                        ExpensePatch(split: EnteredSplit(mode: .equal, memberIds: debtors.dropLast().map(\.description))),
                        basedOn: { view.expense.version }, caller: trip.aki, origin: trip.origin)
                }
                // A share with something to settle: one its member covered themselves is refused.
                let payers = view.expense.payers
                if index % 5 == 2,
                    let share = view.expense.liveShares.first(where: { share in
                        share.amount != 0
                            && !payers.contains { $0.memberID == share.memberID && abs($0.amount) >= abs(share.amount) }
                    })
                {
                    _ = try await trip.expenses.setSharePaid(
                        share.id, true, reason: "cash", caller: trip.aki, origin: trip.origin)
                }
                if index % 9 == 4 {
                    _ = try await trip.expenses.setDeleted(
                        view.expense.id, true, basedOn: nil, caller: trip.aki, origin: trip.origin)
                }
                written[view.expense.id] = view.expense
            }

            let store = ExpenseStore(database: trip.database)
            let byID = try await store.expenses(ids: Array(written.keys) + [UUID()])
            #expect(Set(byID.keys) == Set(written.keys))
            // Enough ids to be read in two halves at once (both halves holding some of them).
            let ids = Array(written.keys)
            let many = Array(ids[..<20]) + (0..<ExpenseStore.halvedFrom).map { _ in UUID() } + Array(ids[20...])
            #expect(try await store.expenses(ids: many) == byID)
            var paged: [UUID: ExpenseRecord] = [:]
            var filter = ExpenseFilter()
            filter.includeDeleted = true
            filter.limit = 7
            while true {
                let (page, hasMore) = try await store.expenses(groupID: trip.groupID, filter: filter)
                for record in page { paged[record.id] = record }
                guard hasMore, let last = page.last else { break }
                filter.after = (last.expenseDate, last.createdAt, last.id)
            }
            let live = try await store.liveExpenses(groupID: trip.groupID)
            #expect(paged == byID)
            #expect(live == byID.values.filter { !$0.isDeleted }.sorted { ($0.expenseDate, $0.id.text) > ($1.expenseDate, $1.id.text) })
            #expect(live.count < byID.count)

            // The tables, read row by row.
            let (payerRows, shareRows) = try await trip.database.read { sql in
                (
                    try await sql.raw("SELECT expense_id, member_id, amount FROM expense_payers").all().map { row in
                        (
                            try row.decode(column: "expense_id", as: String.self),
                            PayerRecord(
                                memberID: UUID(uuidString: try row.decode(column: "member_id", as: String.self))!,
                                amount: try row.decode(column: "amount", as: Int64.self))
                        )
                    },
                    try await sql.raw("SELECT * FROM expense_splits").all().map { row in
                        (
                            try row.decode(column: "expense_id", as: String.self),
                            ShareRecord(
                                id: UUID(uuidString: try row.decode(column: "id", as: String.self))!,
                                memberID: UUID(uuidString: try row.decode(column: "member_id", as: String.self))!,
                                amount: try row.decode(column: "amount", as: Int64.self),
                                isPaid: try row.decode(column: "is_paid", as: Bool.self),
                                paidAt: try row.decode(column: "paid_at", as: Int64?.self),
                                isRemoved: try row.decode(column: "is_removed", as: Bool.self))
                        )
                    }
                )
            }
            var sawTwoPayers = false, sawRemoved = false, sawPaid = false, sawRefund = false
            for (id, record) in byID {
                let payers = payerRows.filter { $0.0 == id.text.lowercased() }.map(\.1)
                let shares = shareRows.filter { $0.0 == id.text.lowercased() }.map(\.1)
                #expect(record.payers == payers.sorted { $0.memberID.sortsBefore($1.memberID) })
                #expect(record.shares == shares.sorted { $0.memberID.sortsBefore($1.memberID) })
                #expect(record.shares.map(\.amount).reduce(0, +) != 0 || record.amount == 0)
                // What the writes answered, but for later marks and deletions.
                var expected = try #require(written[id])
                expected.shares = record.shares
                expected.isDeleted = record.isDeleted
                expected.version = record.version
                expected.updatedAt = record.updatedAt
                #expect(record == expected)
                sawTwoPayers = sawTwoPayers || record.payers.count == 2
                sawRemoved = sawRemoved || record.shares.contains(where: \.isRemoved)
                sawPaid = sawPaid || record.shares.contains { $0.isPaid && $0.paidAt != nil }
                sawRefund = sawRefund || record.amount < 0
            }
            #expect(sawTwoPayers && sawRemoved && sawPaid && sawRefund)
        }
    }
}

extension Array {
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}
