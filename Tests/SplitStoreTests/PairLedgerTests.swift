import Foundation
import SQLKit
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

/// The pairwise ledger's writes (`Ledger.apply`) hold up for the largest effects: a migration's
/// fill carries every pair of a group at once.
@Suite("Pairwise ledger")
struct PairLedgerTests {
    @Test("an effect with more pairs than one statement takes is written whole", arguments: TestDatabases.all)
    func manyPairs(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            // setup: a group of 170: 14,365 pairs, 71,825 values, more than one PostgreSQL statement
            // takes (65,535)
            try await Migrations.run(on: database)
            let owner = try await AccountStore(database: database).createUser(
                AccountStoreTests.user(email: "aki@example.com"))
            let groups = GroupStore(database: database)
            let (group, first) = try await groups.createGroup(
                GroupRecord(
                    id: UUID(), name: "Big trip", homeCurrency: "JPY", ownerUserID: owner.id, inviteCode: "BIG1",
                    createdAt: 1_000, updatedAt: 1_000),
                ownerName: "Aki")
            var members = [first.id]
            for index in 1..<170 {
                let member = MemberRecord(
                    id: UUID(), groupID: group.id, userID: nil, name: "M\(index)", role: .member, createdAt: 1_500,
                    updatedAt: 1_500)
                try await groups.addMember(member)
                members.append(member.id)
            }
            var effect = Ledger.Effect(currency: "JPY")
            var expected = PairwiseDebts()
            for (index, debtor) in members.enumerated() {
                for creditor in members[(index + 1)...] {
                    let debt = PlannedTransfer(
                        from: MemberID(debtor), to: MemberID(creditor), amount: Int64(effect.debts.count + 1))
                    effect.debts.append(debt)
                    try expected.add([debt], in: try Currency(code: "JPY"))
                }
            }
            #expect(effect.debts.count == 14_365)

            // act: applied twice, then taken back once
            for sign: Int64 in [1, 1, -1] {
                let step = Ledger.Effect(
                    currency: "JPY",
                    debts: effect.debts.map { PlannedTransfer(from: $0.from, to: $0.to, amount: sign * $0.amount) })
                try await database.transaction { sql in try await Ledger.apply(step, groupID: group.id, sql) }
            }

            // validate
            let stored = try await BalanceStore(database: database).pairwiseDebts(groupID: group.id)
            #expect(stored == expected)
            #expect(stored.debts(in: try Currency(code: "JPY")).count == 14_365)
        }
    }
}
