import Foundation
import SplitApp
import SplitCore
import SplitStore
import SQLKit
import SplitTestSupport
import Testing

@Suite("Ledger use cases, without HTTP")
struct LedgerUseCaseTests {
    @Test(
        "a member's transfer sent again (same key, or same id) is answered as recorded though nothing is owed now; another transfer under its id is a conflict",
        arguments: TestDatabases.all)
    func transferSentAgain(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // arrange: Aki paid 900 JPY for three, so Bo owes Aki 300; Bo pays it in two transfers,
            // the first under an Idempotency-Key, the second with an id of his own.
            _ = try await trip.create(trip.ramen("900"))
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            let id = UUID().uuidString.lowercased()
            func record(_ amount: String, id: String? = nil, key: String? = nil, to member: MemberID? = nil)
                async throws -> IdempotencyOutcome<SettlementRecord>
            {
                try await ledger.recordSettlement(
                    EnteredSettlement(
                        id: id, fromMemberId: trip.boMember.description,
                        toMemberId: (member ?? trip.akiMember).description, amount: amount, currency: "JPY"),
                    groupID: trip.groupID, caller: trip.bo, origin: trip.origin,
                    idempotency: key.map { IdempotencyRequest(key: $0, requestHash: "transfer \(amount)") },
                    render: { stored in StoredResponse(status: 201, body: Data(stored.id.uuidString.utf8)) })
            }
            guard case .created(let keyed, _) = try await record("100", key: "k1"),
                case .created(let first, _) = try await record("200", id: id)
            else {
                Issue.record("not created")
                return
            }
            let balances = try await ledger.balances(groupID: trip.groupID, caller: trip.aki).nets
            #expect(balances.first { $0.memberID == trip.boMember.uuid }?.net ?? 0 == 0)

            // act, validate: both sent again are answered as recorded, not measured against
            // Bo's debt, which they settled.
            guard case .replayed(let replay) = try await record("100", key: "k1") else {
                Issue.record("the key sent again was not replayed")
                return
            }
            #expect(replay.body == Data(keyed.id.uuidString.utf8))
            guard case .created(let again, _) = try await record("200", id: id) else {
                Issue.record("the id sent again was not answered with the transfer")
                return
            }
            #expect(again == first)
            // Another amount or another payee under the taken id is a conflict.
            for attempt in [{ try await record("50", id: id) }, { try await record("200", id: id, to: trip.deeMember) }] {
                do {
                    _ = try await attempt()
                    Issue.record("a different transfer with a taken id was recorded")
                } catch AppError.conflict(_, let field, _) {
                    #expect(field == "id")
                }
            }
            // A new transfer is still measured against the debt: Bo owes nothing now.
            await #expect(throws: AppError.self) { try await record("100", id: UUID().uuidString) }
            #expect(try await ledger.balances(groupID: trip.groupID, caller: trip.aki).nets == balances)
            #expect(
                Set(try await ledger.settlements(groupID: trip.groupID, includeDeleted: true, caller: trip.aki).map(\.id))
                    == [keyed.id, first.id])
        }
    }

    @Test(
        "a recorded transfer moves the balances and the plan; taking it back moves them back",
        arguments: TestDatabases.all)
    func transferRoundTrip(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: Aki paid 900 JPY for three; Bo and Dee owe 300 each
            _ = try await trip.create(trip.ramen("900"))
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            let before = try await ledger.plan(groupID: trip.groupID, currency: "JPY", caller: trip.bo)
            #expect(Set(before.transfers.map(\.amount)) == [300])
            // act: Bo pays Aki back
            let outcome = try await ledger.recordSettlement(
                EnteredSettlement(
                    fromMemberId: trip.boMember.description, toMemberId: trip.akiMember.description, amount: "300",
                    currency: "JPY"),
                groupID: trip.groupID, caller: trip.bo, origin: trip.origin, idempotency: nil,
                render: { _ in StoredResponse(status: 201, body: Data()) })
            guard case .created(let settlement, _) = outcome else {
                Issue.record("not created")
                return
            }
            // validate
            let after = try await ledger.plan(groupID: trip.groupID, currency: "JPY", caller: trip.aki)
            #expect(after.transfers == [PlannedTransfer(from: trip.deeMember, to: trip.akiMember, amount: 300)])
            let balances = try await ledger.balances(groupID: trip.groupID, caller: trip.aki)
            #expect(balances.nets.map(\.net).reduce(0, +) == 0)
            #expect(balances.missing == [.jpy])  // no JPY→MYR rate yet: no home total
            #expect(balances.homeBalances == nil)
            _ = try await ledger.putRates(
                [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: "2026-05-01", rate: "0.031")],
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            let home = try await ledger.balances(groupID: trip.groupID, caller: trip.aki)
            #expect(home.missing.isEmpty)
            #expect(home.homeBalances?.values.reduce(0, +) == 0)
            // Only who recorded it (or the owner, an admin) takes it back; strangers see nothing.
            await #expect(throws: AppError.notFound("settlement")) {
                try await ledger.deleteSettlement(settlement.id, caller: trip.stranger, origin: trip.origin)
            }
            _ = try await ledger.deleteSettlement(settlement.id, caller: trip.aki, origin: trip.origin)
            #expect(
                try await ledger.plan(groupID: trip.groupID, currency: "JPY", caller: trip.aki).transfers
                    == before.transfers)
        }
    }

    @Test(
        "a plain member records at most what settling up asks; the receiver, the owner or an admin any amount",
        arguments: TestDatabases.all)
    func transfersAboveTheDebt(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: Aki paid 900 JPY for three (Bo and Dee owe 300 each); 1 JPY = 0.031 MYR (home)
            _ = try await trip.create(trip.ramen("900"))
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            _ = try await ledger.putRates(
                [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: "2026-05-01", rate: "0.031")],
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            func record(_ from: MemberID, _ to: MemberID, _ amount: String, _ currency: String, by caller: Caller)
                async throws
            {
                _ = try await ledger.recordSettlement(
                    EnteredSettlement(
                        fromMemberId: from.description, toMemberId: to.description, amount: amount,
                        currency: currency),
                    groupID: trip.groupID, caller: caller, origin: trip.origin, idempotency: nil,
                    render: { _ in StoredResponse(status: 201, body: Data()) })
            }
            let tail = "A larger transfer can be recorded by Aki, the owner or an admin."
            // act + validate: Bo, a plain member, above his debt in JPY, in MYR (converted), to Dee
            await #expect(
                throws: AppError.invalid(field: "amount", message: "Bo owes Aki at most 300 JPY now. \(tail)")
            ) {
                try await record(trip.boMember, trip.akiMember, "301", "JPY", by: trip.bo)
            }
            await #expect(
                throws: AppError.invalid(field: "amount", message: "Bo owes Aki at most 300 JPY now. \(tail)")
            ) {
                try await record(trip.boMember, trip.akiMember, "100000000000", "JPY", by: trip.bo)
            }
            await #expect(
                throws: AppError.invalid(field: "amount", message: "Bo owes Aki at most 9.30 MYR now. \(tail)")
            ) {
                try await record(trip.boMember, trip.akiMember, "9.31", "MYR", by: trip.bo)
            }
            await #expect(
                throws: AppError.invalid(
                    field: "amount",
                    message: "Bo owes Dee nothing in JPY now. A larger transfer can be recorded by Dee, the owner or an admin.")
            ) {
                try await record(trip.boMember, trip.deeMember, "1", "JPY", by: trip.bo)
            }
            #expect(try await ledger.settlements(groupID: trip.groupID, includeDeleted: true, caller: trip.aki).isEmpty)
            // Exactly the debt is fine, in the home currency through the rate too; so is any amount
            // Bo receives (he confirms it), and any amount the owner records.
            try await record(trip.boMember, trip.akiMember, "9.30", "MYR", by: trip.bo)
            try await record(trip.deeMember, trip.boMember, "5000", "JPY", by: trip.bo)
            try await record(trip.deeMember, trip.akiMember, "100000", "JPY", by: trip.aki)
            let recorded = try await ledger.settlements(groupID: trip.groupID, includeDeleted: true, caller: trip.aki)
            #expect(recorded.map(\.amount).sorted() == [930, 5000, 100_000])
            // A limit of thousands is grouped as everywhere else (it said "71954 JPY").
            // (Bo: −300 − 5,000 received from Dee − 120,000; Aki: 600 − 100,000 + 240,000.)
            _ = try await trip.create(trip.ramen("360000"))
            await #expect(
                throws: AppError.invalid(field: "amount", message: "Bo owes Aki at most 125,300 JPY now. \(tail)")
            ) {
                try await record(trip.boMember, trip.akiMember, "125301", "JPY", by: trip.bo)
            }
        }
    }

    @Test(
        "the home view counts a charged expense at what was charged, the rest at the rate, and says how many",
        arguments: TestDatabases.all)
    func chargedInHome(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: 1 JPY = 0.0300 MYR (home); a 3000 JPY ramen for three, charged 135.00 MYR
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            _ = try await ledger.putRates(
                [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: "2026-05-01", rate: "0.0300")],
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            var ramen = trip.ramen("3000")
            ramen.homeAmount = "135.00"
            _ = try await trip.create(ramen)
            // act
            let charged = try await ledger.balances(groupID: trip.groupID, caller: trip.aki)
            // validate: Bo and Dee owe 45.00 MYR each (135 / 3), not 30.00 (1000 JPY at the rate)
            #expect(charged.homeBalances?[trip.boMember] == -4500 && charged.homeBalances?[trip.deeMember] == -4500)
            #expect(charged.homeBalances?[trip.akiMember] == 9000 && charged.chargedCount == 1)
            // A plain JPY expense beside it goes at the rate.
            _ = try await trip.create(trip.ramen("300"))
            let both = try await ledger.balances(groupID: trip.groupID, caller: trip.aki)
            #expect(both.homeBalances?[trip.boMember] == -4500 - 300 && both.chargedCount == 1)
            #expect(both.homeBalances?.values.reduce(0, +) == 0)
        }
    }

    @Test(
        "settling everything in the home currency takes fewer transfers, lists its rate, and needs every rate",
        arguments: TestDatabases.all)
    func homePlan(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: Aki paid 3000 JPY for three; Bo paid 90 MYR (home) for three
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            _ = try await trip.create(trip.ramen("3000"))
            var dinner = trip.ramen("90", currency: "MYR")
            dinner.paidByMemberId = trip.boMember.description
            _ = try await trip.create(dinner)
            // No JPY rate yet: the home plan says which rate is missing.
            await #expect(throws: AppError.self) { try await ledger.homePlan(groupID: trip.groupID, caller: trip.bo) }
            _ = try await ledger.putRates(
                [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: "2026-05-01", rate: "0.03")],
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            // act
            let perCurrency =
                try await ledger.plan(groupID: trip.groupID, currency: "JPY", caller: trip.bo).transfers.count
                + ledger.plan(groupID: trip.groupID, currency: "MYR", caller: trip.bo).transfers.count
            let home = try await ledger.homePlan(groupID: trip.groupID, caller: trip.bo)
            // validate: 4 transfers one currency at a time, 2 in MYR (Dee pays Aki 30 and Bo 30)
            #expect(perCurrency == 4)
            #expect(home.currency.code == "MYR" && home.transfers.count == 2)
            #expect(Set(home.transfers.map(\.from)) == [trip.deeMember] && home.transfers.allSatisfy { $0.amount == 3000 })
            #expect(home.rates.map(\.from) == ["JPY"] && home.rates.first?.rate == "0.03")
        }
    }

    @Test("refusals: one member on both sides, a viewer recording, nothing at all", arguments: TestDatabases.all)
    func refusals(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            func record(_ from: MemberID, _ to: MemberID, _ amount: String, in currency: String = "MYR", by caller: Caller)
                async throws
            {
                _ = try await ledger.recordSettlement(
                    EnteredSettlement(
                        fromMemberId: from.description, toMemberId: to.description, amount: amount, currency: currency),
                    groupID: trip.groupID, caller: caller, origin: trip.origin, idempotency: nil,
                    render: { _ in StoredResponse(status: 201, body: Data()) })
            }
            await #expect(
                throws: AppError.invalid(field: "toMemberId", message: "A transfer goes between two members.")
            ) {
                try await record(trip.boMember, trip.boMember, "100", by: trip.bo)
            }
            await #expect(throws: AppError.forbidden) {
                try await record(trip.boMember, trip.akiMember, "100", by: trip.vic)
            }
            await #expect(throws: AppError.invalid(field: "amount", message: "A transfer is more than zero.")) {
                try await record(trip.boMember, trip.akiMember, "0", by: trip.bo)
            }
            // A currency none of the group's money is in (the owner's too): it would only start a
            // debt the other way.
            await #expect(
                throws: AppError.invalid(
                    field: "currency",
                    message: "Nothing in Japan is in JPY; its currency is MYR. Money paid in another currency is "
                        + "recorded in the currency of the debt, converted.")
            ) {
                try await record(trip.boMember, trip.akiMember, "100", in: "JPY", by: trip.aki)
            }
            // An expense in JPY makes JPY the group's, even one its payer alone shares (which
            // moves no balance, so leaves the ledger no row: found by review).
            let own = EnteredExpense(
                description: "Own snack", amount: "500", currency: "JPY", expenseDate: "2026-05-03",
                paidByMemberId: trip.akiMember.description,
                split: EnteredSplit(mode: .equal, memberIds: [trip.akiMember.description]))
            _ = try await trip.expenses.create(
                own, id: nil, groupID: trip.groupID, caller: trip.aki, origin: trip.origin, idempotency: nil,
                render: { _ in StoredResponse(status: 201, body: Data()) })
            try await record(trip.boMember, trip.akiMember, "100", in: "JPY", by: trip.aki)
            let recorded = try await ledger.settlements(groupID: trip.groupID, includeDeleted: true, caller: trip.aki)
            #expect(recorded.map(\.currency) == ["JPY"])
        }
    }

    @Test(
        "a rate dated ahead is refused (it would outdo every rate until that day); tomorrow is allowed, for a day begun elsewhere",
        arguments: TestDatabases.all)
    func futureRates(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // 2026-05-10 12:00 UTC; the group is on UTC.
            let ledger = LedgerUseCases(database: trip.database, now: { 1_778_414_400_000 })
            func put(_ date: String) async throws -> [LedgerUseCases.RateView] {
                try await ledger.putRates(
                    [EnteredRate(fromCurrency: "JPY", toCurrency: "MYR", date: date, rate: "0.03")], groupID: trip.groupID,
                    caller: trip.aki, origin: trip.origin)
            }
            let tomorrow = try await put("2026-05-11")
            #expect(tomorrow.map(\.rate.date) == ["2026-05-11"])
            for date in ["2026-05-12", "2062-12-01"] {
                await #expect(
                    throws: AppError.invalid(
                        field: "rates[0].date", message: "A rate is for a day that has come: \(date) is more than a day after today (2026-05-10).")
                ) { _ = try await put(date) }
            }
            let kept = try await ledger.rates(groupID: trip.groupID, caller: trip.aki)
            #expect(kept.count == 1)
            // One stored ahead before this rule (found by review): its day can still be corrected.
            try await trip.database.transaction { sql in
                try await sql.raw(
                    """
                    INSERT INTO rates (group_id, from_currency, to_currency, rate_date, rate, updated_by_user_id, updated_at)
                    VALUES (\(bind: trip.groupID.text), 'USD', 'MYR', '2062-12-01', '0.43', \(bind: trip.aki.user.id.text), 0)
                    """
                ).run()
            }
            let corrected = try await ledger.putRates(
                [EnteredRate(fromCurrency: "USD", toCurrency: "MYR", date: "2062-12-01", rate: "4.3")], groupID: trip.groupID,
                caller: trip.aki, origin: trip.origin)
            #expect(corrected.first { $0.rate.from == "USD" }?.rate.rate == "4.3")
        }
    }

    @Test(
        "a rate entered by mistake is deleted (owner, admin) and the pair's one before it counts again; each rate says whether it counts",
        arguments: TestDatabases.all)
    func deleteRate(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // 2026-05-10 12:00 UTC; the group's home currency is MYR.
            let ledger = LedgerUseCases(database: trip.database, now: { 1_778_414_400_000 })
            func rate(_ from: String, _ to: String, _ date: String, _ value: String) -> EnteredRate {
                EnteredRate(fromCurrency: from, toCurrency: to, date: date, rate: value)
            }
            let entered = try await ledger.putRates(
                [
                    rate("USD", "MYR", "2026-05-01", "4.2"), rate("USD", "MYR", "2026-05-09", "43"),
                    rate("MYR", "USD", "2026-05-05", "0.24"), rate("EUR", "USD", "2026-05-01", "1.1"),
                    rate("USD", "EUR", "2026-05-01", "0.9"),
                ], groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            func counting(_ views: [LedgerUseCases.RateView]) -> [String] {
                views.filter(\.counts).map { "\($0.rate.from)→\($0.rate.to) \($0.rate.date)" }.sorted()
            }
            // The latest of each pair (05-09); two opposite rates of one day both count, each
            // for its own direction.
            #expect(counting(entered) == ["EUR→USD 2026-05-01", "USD→EUR 2026-05-01", "USD→MYR 2026-05-09"])
            // A dollar expense, to see which rate the balances in MYR read.
            var dinner = trip.ramen("10.00", currency: "USD")
            dinner.split = EnteredSplit(mode: .equal, memberIds: [trip.akiMember, trip.boMember].map(\.description))
            _ = try await trip.create(dinner)
            func boOwesInMYR() async throws -> Int64? {
                try await ledger.balances(groupID: trip.groupID, caller: trip.aki).homeBalances?[trip.boMember]
            }
            #expect(try await boOwesInMYR() == -21_500)  // 5.00 USD at 43

            // Refusals change nothing: a member, a stranger, a code or date that cannot be read, no such rate.
            func delete(_ from: String, _ to: String, _ date: String, by caller: Caller? = nil) async throws
                -> [LedgerUseCases.RateView]
            {
                try await ledger.deleteRate(
                    from: from, to: to, date: date, groupID: trip.groupID, caller: caller ?? trip.aki, origin: trip.origin)
            }
            await #expect(throws: AppError.forbidden) { _ = try await delete("USD", "MYR", "2026-05-09", by: trip.bo) }
            await #expect(throws: AppError.notFound("group")) {
                _ = try await delete("USD", "MYR", "2026-05-09", by: trip.stranger)
            }
            func refusedField(_ from: String, _ to: String, _ date: String) async -> String? {
                do {
                    _ = try await delete(from, to, date)
                    return nil
                } catch AppError.invalid(let field, _) {
                    return field
                } catch {
                    return "\(error)"
                }
            }
            #expect(await refusedField("US", "MYR", "2026-05-09") == "fromCurrency")
            #expect(await refusedField("USD", "MYR", "2026-5-9") == "date")
            #expect(await refusedField("MYR", "MYR", "2026-05-09") == "toCurrency")
            await #expect(throws: AppError.notFoundBecause("The group has no rate of USD to MYR on 2026-05-08.")) {
                _ = try await delete("usd", "MYR", "2026-05-08")
            }
            #expect(try await ledger.rates(groupID: trip.groupID, caller: trip.aki).count == 5)

            // The mistake goes: the opposite pair's 05-05 counts now (newer than 05-01).
            let left = try await delete("USD", "MYR", "2026-05-09")
            #expect(left.count == 4)
            #expect(counting(left) == ["EUR→USD 2026-05-01", "MYR→USD 2026-05-05", "USD→EUR 2026-05-01"])
            #expect(try await boOwesInMYR() == -2_083)  // 5.00 USD at 1 / 0.24
            await #expect(throws: AppError.notFoundBecause("The group has no rate of USD to MYR on 2026-05-09.")) {
                _ = try await delete("USD", "MYR", "2026-05-09")
            }
            let (activity, _) = try await FeedUseCases(database: trip.database).activity(
                groupID: trip.groupID, limit: 1, cursor: nil, caller: trip.aki)
            #expect(activity.first?.action == "rates.deleted")
            #expect(activity.first?.event.subject == "1 USD = 43 MYR from 2026-05-09")
        }
    }
}
