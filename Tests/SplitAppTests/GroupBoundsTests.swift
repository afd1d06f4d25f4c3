import Foundation
import SplitApp
import SplitCore
import SplitStore
import SQLKit
import SplitTestSupport
import Testing

/// Issue 14 items 1, 2 and 10: what one expense may hold, and the bounds that keep a group's sums
/// inside Int64 — each driven to its edge on both databases.
@Suite("Group and expense bounds, without HTTP")
struct GroupBoundsTests {
    /// The largest amount one expense takes: 10^13 minor units.
    static let largest = String(MoneyInput.maximumMinorUnits)

    /// What the API and the web would answer for an error (the store's refusals included).
    static func appError(_ error: any Error) -> AppError? {
        (error as? AppError) ?? (error as? WriteRefusal).map(AppError.init)
    }

    @Test(
        "balances stop at 10^15 per member: the write past it is refused whole and the ledger stays exact",
        arguments: TestDatabases.all)
    func balanceBound(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: Aki pays the largest amount for Bo, 100 times: Aki's net lands exactly on the bound
            func loan() -> EnteredExpense {
                EnteredExpense(
                    description: "Loan", amount: Self.largest, currency: "JPY", expenseDate: "2026-05-01",
                    paidByMemberId: trip.akiMember.description,
                    split: EnteredSplit(
                        mode: .exact,
                        amounts: [EnteredAmount(memberId: trip.boMember.description, value: Self.largest)]))
            }
            for _ in 0..<100 { _ = try await trip.create(loan()) }
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            let atBound = try await ledger.balances(groupID: trip.groupID, caller: trip.aki).nets
            #expect(atBound.first { $0.memberID == trip.akiMember.uuid }?.net == GroupBounds.balance)
            // act: one more, and a transfer that would push Aki further
            var refusal: AppError?
            do { _ = try await trip.create(loan()) } catch { refusal = Self.appError(error) }
            var transferRefusal: (any Error)?
            do {
                _ = try await ledger.recordSettlement(
                    EnteredSettlement(
                        fromMemberId: trip.akiMember.description, toMemberId: trip.boMember.description,
                        amount: "1", currency: "JPY"),
                    groupID: trip.groupID, caller: trip.aki, origin: trip.origin, idempotency: nil,
                    render: { _ in StoredResponse(status: 201, body: Data()) })
            } catch { transferRefusal = error }
            // validate: both refused with the amount named, nothing of either stored
            guard case .invalid(let field, let message) = refusal else {
                Issue.record("expected a 422, got \(String(describing: refusal))")
                return
            }
            #expect(field == "amount")
            #expect(message.contains("(1000000000000000 JPY per member)"), "\(message)")
            #expect(transferRefusal.flatMap(Self.appError) == refusal)
            let (expenses, _, _) = try await trip.expenses.liveExpenses(groupID: trip.groupID, caller: trip.aki)
            #expect(expenses.count == 100)
            #expect(try await ledger.balances(groupID: trip.groupID, caller: trip.aki).nets == atBound)
            let recomputed = try await BalanceStore(database: trip.database).recomputedBalances(groupID: trip.groupID)
            #expect(recomputed.map(\.net).sorted() == atBound.map(\.net).sorted())
            // Writes that bring a balance back toward zero still go through.
            _ = try await ledger.recordSettlement(
                EnteredSettlement(
                    fromMemberId: trip.boMember.description, toMemberId: trip.akiMember.description, amount: "1",
                    currency: "JPY"),
                groupID: trip.groupID, caller: trip.bo, origin: trip.origin, idempotency: nil,
                render: { _ in StoredResponse(status: 201, body: Data()) })
        }
    }

    @Test("a group holds at most 200 members; the 201st is refused", arguments: TestDatabases.all)
    func memberBound(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let members = MemberUseCases(database: trip.database, now: { milliseconds() })
            let present = try await members.members(groupID: trip.groupID, caller: trip.aki).count
            for index in present..<GroupBounds.membersPerGroup {
                _ = try await members.add(
                    name: "Friend \(index)", id: nil, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            }
            var refusal: (any Error)?
            do {
                _ = try await members.add(
                    name: "One too many", id: nil, groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            } catch { refusal = error }
            #expect(
                refusal.flatMap(Self.appError)
                    == .invalid(
                        field: "group", message: "This group has 200 members, the most one group holds."))
            #expect(try await members.members(groupID: trip.groupID, caller: trip.aki).count == 200)
        }
    }

    @Test(
        "an account is in at most 500 groups: creating or joining one more is refused, nothing written",
        arguments: TestDatabases.all)
    func groupsPerUser(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: Bo is in the trip already; Bo creates groups up to the bound
            let groups = GroupUseCases(database: trip.database, now: { milliseconds() }, makeInviteCode: { UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") })
            let present = try await groups.groups(of: trip.bo).count
            for index in present..<GroupBounds.groupsPerUser {
                _ = try await groups.create(EnteredGroup(name: "Trip \(index)", homeCurrency: "JPY"), caller: trip.bo)
            }
            let aGroupOfAkis = try await groups.create(EnteredGroup(name: "Aki's", homeCurrency: "JPY"), caller: trip.aki)
            // act: one more group, and joining Aki's
            var createRefusal: (any Error)?
            do {
                _ = try await groups.create(EnteredGroup(name: "One too many", homeCurrency: "JPY"), caller: trip.bo)
            } catch { createRefusal = error }
            var joinRefusal: (any Error)?
            do {
                _ = try await groups.join(
                    code: try #require(aGroupOfAkis.group.inviteCode), memberId: nil, name: nil, caller: trip.bo,
                    origin: trip.origin)
            } catch { joinRefusal = error }
            // validate: both are the same 422 and Bo is still in exactly 500 groups
            let expected = AppError.invalid(
                field: "group", message: "You are in 500 groups, the most one account may be in.")
            #expect(createRefusal.flatMap(Self.appError) == expected)
            #expect(joinRefusal.flatMap(Self.appError) == expected)
            #expect(try await groups.groups(of: trip.bo).count == GroupBounds.groupsPerUser)
            #expect(try await groups.groups(of: trip.aki).count == 2)
        }
    }

    @Test(
        "an itemized split past its counts, lengths or stored size is refused by field",
        arguments: [Database.Backend.sqlite])
    func expenseSize(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let everyone = [trip.akiMember, trip.boMember, trip.deeMember].map(\.description)
            func itemized(items: Int, text: String = "Beer", extras: Int = 0, members: [String]? = nil)
                -> EnteredExpense
            {
                let members = members ?? everyone
                return EnteredExpense(
                    description: "Bill", amount: String(items * members.count), currency: "JPY",
                    expenseDate: "2026-05-01", paidByMemberId: trip.akiMember.description,
                    split: EnteredSplit(
                        mode: .itemized,
                        items: (0..<items).map { _ in
                            EnteredSplit.Item(
                                description: text, amount: String(members.count),
                                split: EnteredSplit(
                                    mode: .exact, amounts: members.map { EnteredAmount(memberId: $0, value: "1") }))
                        },
                        extras: (0..<extras).map { _ in EnteredSplit.Extra(description: "Tip", amount: "0") }))
            }
            func field(_ entered: EnteredExpense) async -> String? {
                do {
                    _ = try await trip.create(entered)
                    return nil
                } catch {
                    guard case .invalid(let field, _) = Self.appError(error) else { return "\(error)" }
                    return field
                }
            }
            #expect(await field(itemized(items: 101)) == "split.items")
            #expect(await field(itemized(items: 1, extras: 21)) == "split.extras")
            #expect(
                await field(itemized(items: 1, text: String(repeating: "x", count: 201)))
                    == "split.items[0].description")
            #expect(await field(itemized(items: 1, text: "Beer\u{0007}")) == "split.items[0].description")
            // Within every count, yet 100 items naming 200 members each is far past 64 KiB.
            let crowd = (0..<200).map { _ in UUID().uuidString.lowercased() }
            #expect(await field(itemized(items: 100, members: crowd)) == "split")
            // The largest allowed description still saves.
            #expect(await field(itemized(items: 100, text: String(repeating: "é", count: 200))) == nil)
            let (stored, _, _) = try await trip.expenses.liveExpenses(groupID: trip.groupID, caller: trip.aki)
            #expect(stored.count == 1)
        }
    }
}

@Suite("The SQLite file")
struct SQLiteFileModeTests {
    @Test("is created readable by its owner only, and an existing one open to others is narrowed")
    func ownerOnly() async throws {
        let files = FileManager.default
        let fresh = files.temporaryDirectory.appendingPathComponent("mode-\(UUID()).sqlite").path
        let shared = files.temporaryDirectory.appendingPathComponent("mode-\(UUID()).sqlite").path
        defer {
            for path in [fresh, shared] {
                for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: path + suffix) }
            }
        }
        #expect(files.createFile(atPath: shared, contents: nil, attributes: [.posixPermissions: 0o644]))
        for path in [fresh, shared] {
            let database = try await Database.open(.sqlite(path: path), logger: TestDatabases.logger)
            try await Migrations.run(on: database)
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                let mode = try files.attributesOfItem(atPath: path + suffix)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(path + suffix): \(String(mode ?? 0, radix: 8))")
            }
            try await database.close()
        }
    }
}

@Suite("The audit trail")
struct AuditTrailTests {
    @Test(
        "payment history and activity refuse UPDATE and DELETE from any connection (issue 14 item 15)",
        arguments: TestDatabases.all)
    func appendOnly(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: an expense and a paid mark leave one row in each table
            let view = try await trip.create(trip.ramen())
            let share = try #require(view.expense.liveShares.first { $0.memberID == trip.boMember.uuid })
            _ = try await trip.expenses.setSharePaid(share.id, true, reason: nil, caller: trip.bo, origin: trip.origin)
            func count(_ table: String) async throws -> Int {
                try await trip.database.read { sql in
                    try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()!.decode(
                        column: "n", as: Int.self)
                }
            }
            let before = (try await count("payment_history"), try await count("activity"))
            #expect(before.0 == 1 && before.1 >= 2)
            // act and validate: every change is refused and nothing moves
            for statement in [
                "UPDATE payment_history SET reason = 'edited'", "DELETE FROM payment_history",
                "UPDATE activity SET actor_name = 'someone else'", "DELETE FROM activity",
            ] {
                await #expect(throws: (any Error).self, "\(statement)") {
                    try await trip.database.transaction { try await $0.raw("\(unsafeRaw: statement)").run() }
                }
            }
            #expect(try await count("payment_history") == before.0)
            #expect(try await count("activity") == before.1)
        }
    }
}
