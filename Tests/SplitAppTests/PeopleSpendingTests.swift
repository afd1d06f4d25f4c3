import Foundation
import SplitApp
import SplitCore
import SplitStore
import SQLKit
import SplitTestSupport
import Testing

/// Who paid and who spent what (`BudgetUseCases.people`), on both databases: hand-picked
/// expenses of every kind, checked against figures worked out by hand and against a sum over the
/// expenses as the API reads them.
@Suite("Who paid and spent what")
struct PeopleSpendingTests {
    @Test(
        "paid and shares per person in the home currency: several payers, a payer not sharing, charged amounts, rates, a refund; a month; nothing hidden",
        arguments: TestDatabases.all)
    func figures(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let budgets = BudgetUseCases(database: trip.database, now: { milliseconds() })
            let (aki, bo, dee) = (trip.akiMember.description, trip.boMember.description, trip.deeMember.description)
            let everyone = EnteredSplit(mode: .equal, memberIds: [aki, bo, dee])
            func expense(
                _ amount: String, _ currency: String = "MYR", date: String = "2026-05-03", payer: String? = nil,
                paidBy: [EnteredAmount]? = nil, split: EnteredSplit? = nil, homeAmount: String? = nil
            ) async throws -> ExpenseView {
                try await trip.create(
                    EnteredExpense(
                        description: "E \(amount)", amount: amount, currency: currency, expenseDate: date,
                        paidBy: paidBy, paidByMemberId: paidBy == nil ? (payer ?? aki) : nil, split: split ?? everyone,
                        homeAmount: homeAmount))
            }
            // 100.00 MYR paid by Aki, thirds: 33.34 / 33.33 / 33.33.
            let thirds = try await expense("100.00")
            // 60 MYR paid by Bo (40) and Dee (20), shared by Aki and Bo only: Dee pays, shares nothing.
            _ = try await expense(
                "60.00", paidBy: [.init(memberId: bo, amount: "40.00"), .init(memberId: dee, amount: "20.00")],
                split: EnteredSplit(mode: .equal, memberIds: [aki, bo]))
            // 3,000 JPY charged as 90.00 MYR: counts at 90.00, no rate needed.
            _ = try await expense("3000", "JPY", homeAmount: "90.00")
            // 10,000 JPY at 0.03: 300.00 MYR.
            let yen = try await expense("10000", "JPY", payer: bo)
            _ = try await LedgerUseCases(database: trip.database, now: { milliseconds() }).putRates(
                [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: "2026-05-01", rate: "0.03")],
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            // 20 EUR without a rate: said, not counted, still in the sums per currency.
            _ = try await expense("20.00", "EUR", payer: dee)
            // A refund: 30 MYR came back to Aki, everyone's share goes down by 10.
            _ = try await expense("-30.00")
            // Another month, and a deleted expense.
            _ = try await expense("45.00", date: "2026-06-02", payer: dee)
            let gone = try await expense("77.00")
            _ = try await trip.expenses.setDeleted(gone.expense.id, true, basedOn: nil, caller: trip.aki, origin: trip.origin)

            let may = try await budgets.people(groupID: trip.groupID, caller: trip.vic, month: "2026-05")
            #expect(may.currency == "MYR" && may.period?.start.description == "2026-05-01")
            #expect(may.uncountedCurrencies == ["EUR"])
            let byMember = Dictionary(uniqueKeysWithValues: may.people.map { ($0.member, $0) })
            // Aki: 100 + 90 − 30 = 160.00 paid; shares 33.34 + 30 + 30 (of 90) + 100 (of 300) − 10.
            #expect(byMember[trip.akiMember]?.paid == 16_000)
            // Bo: 40 + 300 = 340.00 paid.
            #expect(byMember[trip.boMember]?.paid == 34_000)
            // Dee paid 20 MYR (and 20 EUR, not counted).
            #expect(byMember[trip.deeMember]?.paid == 2_000)
            // 100 + 60 + 90 + 300 − 30 = 520.00 in all; what was paid is what was shared.
            #expect(may.total == 52_000)
            #expect(may.people.map(\.paid).reduce(0, +) == may.total)
            #expect(may.people.map(\.share).reduce(0, +) == may.total)
            // Shares: the charged 90 and the converted 300 split in thirds exactly.
            #expect(byMember[trip.akiMember]!.share + byMember[trip.boMember]!.share == 52_000 - byMember[trip.deeMember]!.share)
            // Dee's: a third of 100.00 (which third has the extra sen goes by the expense's id),
            // 30.00 of the charged 90.00, a third of 10,000 JPY at 3 sen a yen, less 10.00.
            func deeShareOf(_ view: ExpenseView) -> Int64 { view.expense.liveShares.first { $0.memberID == trip.deeMember.uuid }!.amount }
            let deeShare: Int64 = deeShareOf(thirds) + 3_000 + 3 * deeShareOf(yen) - 1_000
            #expect(byMember[trip.deeMember]?.share == deeShare)
            // Euros: in their own currency, Dee paid 20.00 and each share is a third.
            let euros = may.byCurrency.filter { $0.currency == "EUR" }
            #expect(euros.map(\.paid).reduce(0, +) == 2_000 && euros.map(\.share).reduce(0, +) == 2_000)
            #expect(euros.first { $0.memberID == trip.deeMember.uuid }?.paid == 2_000)

            // Since the group began: June's 45 MYR too (Dee paid), the deleted one still not.
            let all = try await budgets.people(groupID: trip.groupID, caller: trip.aki)
            #expect(all.period == nil && all.total == 52_000 + 4_500)
            let deeSince = try #require(all.people.first(where: { $0.member == trip.deeMember }))
            #expect(deeSince.paid == 2_000 + 4_500)
            #expect(all.people.map(\.share).reduce(0, +) == all.total)

            // Against the expenses themselves, per currency (the API's reads, not the running totals).
            // Not charged in the home currency, so each counts in its own currency as entered.
            let listed = try await trip.expenses.list(
                groupID: trip.groupID,
                filter: {
                    var filter = ExpenseFilter()
                    filter.limit = 100
                    return filter
                }, caller: trip.aki)
            var paid: [String: Int64] = [:]
            var shared: [String: Int64] = [:]
            for view in listed.expenses where view.expense.homeAmount == nil {
                let currency = view.expense.currency
                for payer in view.expense.payers { paid[currency + payer.memberID.text, default: 0] += payer.amount }
                for share in view.expense.liveShares { shared[currency + share.memberID.text, default: 0] += share.amount }
            }
            let charged = all.byCurrency.filter { $0.currency == "MYR" }
            for sum in all.byCurrency where sum.currency != "MYR" {
                #expect(sum.paid == paid[sum.currency + sum.memberID.text, default: 0], "\(sum)")
                #expect(sum.share == shared[sum.currency + sum.memberID.text, default: 0], "\(sum)")
            }
            // MYR: the MYR expenses plus the 3,000 JPY charged as 90.00, paid by Aki.
            for member in [trip.akiMember, trip.boMember, trip.deeMember] {
                let extra: Int64 = member == trip.akiMember ? 9_000 : 0
                let sum = charged.first(where: { $0.memberID == member.uuid })?.paid ?? 0
                #expect(sum == paid["MYR" + member.uuid.text, default: 0] + extra)
            }
        }
    }

    @Test("a bad month is refused naming the field; someone outside the group finds nothing", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let budgets = BudgetUseCases(database: trip.database, now: { milliseconds() })
            for month in ["2026-5", "2026-13", "May", ""] {
                await #expect {
                    _ = try await budgets.people(groupID: trip.groupID, caller: trip.aki, month: month)
                } throws: { error in
                    guard case AppError.invalid(let field, _) = error else { return false }
                    return field == "month"
                }
            }
            await #expect {
                _ = try await budgets.people(groupID: trip.groupID, caller: trip.stranger)
            } throws: { error in
                if case AppError.notFound = error { return true }
                return false
            }
            let empty = try await budgets.people(groupID: trip.groupID, caller: trip.bo)
            #expect(empty.people.isEmpty && empty.total == 0 && empty.byCurrency.isEmpty)
        }
    }

    @Test("migration 0032 works out again the spending of groups with a charge in a former home currency", arguments: TestDatabases.all)
    func migrationRehomes(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let (aki, bo) = (trip.akiMember.description, trip.boMember.description)
            _ = try await trip.create(
                EnteredExpense(
                    description: "Onsen", amount: "3000", currency: "JPY", expenseDate: "2026-05-03", paidByMemberId: aki,
                    split: EnteredSplit(mode: .equal, memberIds: [aki, bo]), homeAmount: "90.00"))
            let budgets = BudgetStore(database: trip.database)
            #expect(try await budgets.spent(groupID: trip.groupID, from: "2026-05-01", through: "2026-05-31").map(\.currency) == ["MYR"])
            // As an earlier release left it: the home currency changed, the totals not.
            try await trip.database.transaction { sql in
                try await sql.raw("UPDATE groups SET home_currency = 'EUR' WHERE id = \(bind: trip.groupID.text)").run()
                try await sql.raw("DELETE FROM schema_migrations WHERE id = '0032_spending_in_todays_home_currency'").run()
            }
            _ = try await Migrations.run(on: trip.database)
            let spent = try await budgets.spent(groupID: trip.groupID, from: "2026-05-01", through: "2026-05-31")
            #expect(spent.map(\.currency) == ["JPY"] && spent.map(\.amount) == [3000], "\(spent)")
        }
    }
}
