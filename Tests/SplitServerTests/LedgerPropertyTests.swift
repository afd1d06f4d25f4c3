import Foundation
import HTTPTypes
import SQLKit
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// DESIGN §3 end to end: after random sequences of adds, edits, deletes, restores, paid toggles
/// and settlements through the API, the ledger's balances equal a SplitCore recomputation from
/// what the API lists, equal the store's recomputation from the rows, and sum to zero.
@Suite("Ledger properties over HTTP")
struct LedgerPropertyTests {
    @Test("random operation sequences keep the ledger equal to a full recomputation", arguments: TestDatabases.all)
    func randomSequences(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            var groups: [UUID] = []
            for seed: UInt64 in [1, 2, 3] {
                let trip = try await Trip.make(api)
                var random = SplitMix64(seed: seed)
                var state = Model()
                for _ in 0..<40 {
                    try await Self.step(api, trip, &state, &random)
                }
                try await Self.check(api, trip)
                groups.append(try #require(UUID(uuidString: trip.groupID)))
            }

            // Migration 0006 fills the pairwise ledger from the rows already there: dropped and
            // run again, it gives every group the debts the running ledger had.
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            let store = BalanceStore(database: database)
            var before: [PairwiseDebts] = []
            for group in groups { before.append(try await store.pairwiseDebts(groupID: group)) }
            try await database.transaction { sql in
                try await sql.raw("DROP TABLE pair_debts").run()
                try await sql.raw("DELETE FROM schema_migrations WHERE id = '0006_pairwise_ledger'").run()
            }
            let applied = try await Migrations.run(on: database)
            var after: [PairwiseDebts] = []
            for group in groups { after.append(try await store.pairwiseDebts(groupID: group)) }
            try await database.close()
            #expect(applied == ["0006_pairwise_ledger"])
            #expect(after == before && before.allSatisfy { $0 != PairwiseDebts() })
        }
    }

    struct Model {
        var expenses: [String: Int64] = [:]  // id → version
        var deleted: Set<String> = []
        var shares: [String] = []
        var settlements: [String] = []
        /// The currencies of the expenses made: a transfer in another is refused (422 on currency).
        var used: Set<String> = ["JPY"]
    }

    static let currencies = ["JPY", "USD", "KWD"]

    static func step(_ api: API, _ trip: Trip, _ state: inout Model, _ random: inout SplitMix64) async throws {
        let names = ["Aki", "Ben", "Cho", "Dan"]
        let token = trip.tokens["Aki"]
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:  // add
            let currency = currencies.randomElement(using: &random)!
            let minor = Int64.random(in: 1...200_000, using: &random)
            let amount = WireMoney.text(minor, currency)
            let payers = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
            let first = payers.count == 2 ? Int64.random(in: 0...minor, using: &random) : minor
            var paidBy = [(payers[0], WireMoney.text(first, currency))]
            if payers.count == 2, minor - first > 0 {
                paidBy.append((payers[1], WireMoney.text(minor - first, currency)))
            }
            if first == 0 { paidBy = [(payers[1], amount)] }
            let participants = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
            let split: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0: split = #"{"mode":"equal","memberIds":[\#(trip.ids(participants))]}"#
            case 1:
                let weights = participants.map {
                    #"{"memberId":"\#(trip.members[$0]!)","shares":"\#(Int.random(in: 1...5, using: &random))"}"#
                }
                split = #"{"mode":"shares","shares":[\#(weights.joined(separator: ","))]}"#
            default:
                var rest = minor
                var parts: [String] = []
                for (index, name) in participants.enumerated() {
                    let part = index == participants.count - 1 ? rest : Int64.random(in: 0...rest, using: &random)
                    rest -= part
                    parts.append(
                        #"{"memberId":"\#(trip.members[name]!)","amount":"\#(WireMoney.text(part, currency))"}"#)
                }
                split = #"{"mode":"exact","amounts":[\#(parts.joined(separator: ","))]}"#
            }
            let reply = try await api.call(
                .post, "/api/expenses", token: token,
                json: trip.expense("E", amount, currency, paidBy: paidBy, split: split))
            try #require(reply.status == .created, "\(reply.text)")
            let id = reply.string("expense", "id")!
            state.expenses[id] = 1
            state.used.insert(currency)
            state.shares += reply.list("expense", "splits").compactMap { $0.string("id") }
        case 4:  // edit: a new amount for a one-payer equal split
            guard
                let (id, version) = state.expenses.filter({ !state.deleted.contains($0.key) }).randomElement(
                    using: &random)
            else { return }
            let currency = try await api.call(.get, "/api/expenses/\(id)", token: token).string("expense", "currency")!
            let amount = WireMoney.text(Int64.random(in: 1...200_000, using: &random), currency)
            let participants = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
            let reply = try await api.call(
                .patch, "/api/expenses/\(id)", token: token,
                json: #"""
                    {"amount":"\#(amount)","version":\#(version),"paidByMemberId":"\#(trip.members["Ben"]!)",
                     "split":{"mode":"equal","memberIds":[\#(trip.ids(participants))]}}
                    """#)
            try #require(reply.status == .ok, "\(reply.text)")
            state.expenses[id] = Int64(reply.int("expense", "version")!)
            state.shares += reply.list("expense", "splits").compactMap { $0.string("id") }
        case 5:  // delete or restore
            guard let id = state.expenses.keys.randomElement(using: &random) else { return }
            let deleting = !state.deleted.contains(id)
            let reply = try await api.call(
                deleting ? .delete : .post, deleting ? "/api/expenses/\(id)" : "/api/expenses/\(id)/restore",
                token: token)
            try #require(reply.status == .ok, "\(reply.text)")
            state.expenses[id] = Int64(reply.int("expense", "version")!)
            if deleting { state.deleted.insert(id) } else { state.deleted.remove(id) }
        case 6, 7:  // toggle a share
            guard let share = state.shares.randomElement(using: &random) else { return }
            let reply = try await api.call(
                .patch, "/api/expense-splits/\(share)/payment", token: token,
                json: #"{"isPaid":\#(Bool.random(using: &random))}"#)
            // A share of a deleted expense is a 409, one an edit dropped a 404: part of the property too.
            #expect([.ok, .conflict, .notFound].contains(reply.status), "\(reply.text)")
            // Versions move with a toggle; refresh them.
            for id in state.expenses.keys {
                if let version = try await api.call(.get, "/api/expenses/\(id)", token: token).int("expense", "version")
                {
                    state.expenses[id] = Int64(version)
                }
            }
        case 8:  // record a settlement
            let pair = Array(names.shuffled(using: &random).prefix(2))
            let currency = currencies.randomElement(using: &random)!
            let reply = try await api.call(
                .post, "/api/groups/\(trip.groupID)/settlements", token: token,
                json: #"""
                    {"fromMemberId":"\#(trip.members[pair[0]]!)","toMemberId":"\#(trip.members[pair[1]]!)",
                     "amount":"\#(WireMoney.text(Int64.random(in: 1...50_000, using: &random), currency))","currency":"\#(currency)"}
                    """#)
            // A currency none of the group's money is in yet is refused, and changes nothing.
            guard state.used.contains(currency) else {
                #expect(reply.status == .unprocessableContent && reply.string("error", "details", "field") == "currency", "\(reply.text)")
                return
            }
            try #require(reply.status == .created, "\(reply.text)")
            state.settlements.append(reply.string("settlement", "id")!)
        default:  // delete a settlement
            guard let id = state.settlements.randomElement(using: &random) else { return }
            let reply = try await api.call(.delete, "/api/settlements/\(id)", token: token)
            #expect(reply.status == .ok, "\(reply.text)")
        }
    }

    /// Ledger == SplitCore over the listed expenses and settlements == the store's recomputation; Σ = 0.
    static func check(_ api: API, _ trip: Trip) async throws {
        let token = trip.tokens["Aki"]
        var splits: [ExpenseSplit] = []
        var cursor: String?
        repeat {
            let page = try await api.call(
                .get, "/api/groups/\(trip.groupID)/expenses?limit=7" + (cursor.map { "&cursor=\($0)" } ?? ""),
                token: token)
            for expense in page.list("expenses") {
                let currency = try Currency(code: expense.string("currency")!)
                func amounts(_ key: String) throws -> [MemberAmount] {
                    try expense.list(key).map {
                        MemberAmount(
                            MemberID(uuidString: $0.string("memberId")!)!,
                            try Money(parsing: $0.string("amount")!, currency: currency).minorUnits)
                    }
                }
                splits.append(
                    try ExpenseSplit.compute(
                        total: try Money(parsing: expense.string("amount")!, currency: currency),
                        payers: try amounts("payers"),
                        rule: .exact(try amounts("splits")), tieBreak: TieBreak(seed: expense.string("id")!)))
            }
            cursor = page.string("nextCursor")
        } while cursor != nil
        let transfers = try await api.call(.get, "/api/groups/\(trip.groupID)/settlements", token: token).list(
            "settlements"
        )
        .map { entry in
            try Transfer(
                from: MemberID(uuidString: entry.string("fromMemberId")!)!,
                to: MemberID(uuidString: entry.string("toMemberId")!)!,
                amount: try Money(
                    parsing: entry.string("amount")!, currency: try Currency(code: entry.string("currency")!)))
        }
        let expected = try Balances(expenses: splits, transfers: transfers)
        let ledger = try await api.call(.get, "/api/groups/\(trip.groupID)/balances", token: token).list("balances")
        var actual: [String: Int64] = [:]
        for entry in ledger {
            let currency = try Currency(code: entry.string("currency")!)
            actual["\(currency.code)/\(entry.string("memberId")!)"] =
                try Money(parsing: entry.string("net")!, currency: currency, allowNegative: true).minorUnits
        }
        var recomputed: [String: Int64] = [:]
        for entry in expected.entries where !entry.net.isZero {
            recomputed["\(entry.net.currency.code)/\(entry.memberID.description)"] = entry.net.minorUnits
        }
        #expect(actual == recomputed)
        for currency in currencies {
            #expect(actual.filter { $0.key.hasPrefix(currency) }.values.reduce(0, +) == 0)
        }
        let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
        let store = BalanceStore(database: database)
        let groupID = UUID(uuidString: trip.groupID)!
        let fromRows = try await store.recomputedBalances(groupID: groupID)
        // The pairwise view comes from its own ledger: it must equal SplitCore over the same
        // expenses and transfers, and the store's recomputation from the rows.
        let ledgerDebts = try await store.pairwiseDebts(groupID: groupID)
        let recomputedDebts = try await store.recomputedPairwiseDebts(groupID: groupID)
        try await database.close()
        var rows: [String: Int64] = [:]
        for entry in fromRows { rows["\(entry.currency)/\(entry.memberID.text)"] = entry.net }
        #expect(rows == actual)

        let expectedDebts = try PairwiseDebts(expenses: splits, transfers: transfers)
        #expect(ledgerDebts == expectedDebts && recomputedDebts == expectedDebts)
        let served = try await api.call(.get, "/api/groups/\(trip.groupID)/debts", token: token).list("debts").map {
            entry in
            let currency = try Currency(code: entry.string("currency")!)
            let amount = try Money(parsing: entry.string("amount")!, currency: currency).minorUnits
            return "\(currency.code) \(entry.string("fromMemberId")!) → \(entry.string("toMemberId")!) \(amount)"
        }
        let wanted = expectedDebts.currencies.flatMap { currency in
            expectedDebts.debts(in: currency).map { "\(currency.code) \($0.from) → \($0.to) \($0.amount)" }
        }
        #expect(served == wanted)
    }
}

/// The wire's decimal text for minor units (the tests' own copy of the rule, from SplitCore).
enum WireMoney {
    static func text(_ minor: Int64, _ code: String) -> String {
        Money(minorUnits: minor, currency: try! Currency(code: code)).decimalString
    }
}
