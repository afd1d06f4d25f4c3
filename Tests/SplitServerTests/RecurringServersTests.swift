import Foundation
import SQLKit
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// Issue 20: two real server processes on one PostgreSQL race over 1,000 recurring series that
/// fell due while no server ran, and each occurrence is made exactly once.
@Suite("Recurring expenses on two servers")
struct RecurringServersTests {
    @Test("two servers on one PostgreSQL make 1,000 series' 8,000 due occurrences, each exactly once")
    func twoServersRace() async throws {
        guard TestDatabases.all.contains(.postgres) else { return }
        try await TestDatabases.withConfiguration(.postgres) { configuration in
            guard case .postgres(let url) = configuration else { return }
            let database = try await Database.open(configuration, logger: TestDatabases.logger)
            try await Migrations.run(on: database)
            // 20 groups of 3, 50 series each: daily from a week ago, so 8 dates each are due today.
            let now = Clock.milliseconds()
            // A day behind UTC's: today or earlier wherever the servers' clocks are on that day.
            let today = CivilDate(String(UTCTimestamp.format(Date())!.prefix(10)))!
            let start = today.adding(days: -7)
            let accounts = AccountStore(database: database)
            let groups = GroupStore(database: database)
            let recurring = RecurringStore(database: database)
            let owner = try await accounts.createUser(
                UserRecord(
                    id: UUID(), email: "owner-\(UUID())@example.com", phone: nil, displayName: "Aki",
                    passwordHash: "unused", createdAt: now, updatedAt: now))
            for groupIndex in 0..<20 {
                let (group, akiMember) = try await groups.createGroup(
                    GroupRecord(
                        id: UUID(), name: "Flat \(groupIndex)", homeCurrency: "EUR", ownerUserID: owner.id, inviteCode: nil,
                        createdAt: now, updatedAt: now),
                    ownerName: "Aki")
                var members = [akiMember.id]
                for name in ["Bo", "Chen"] {
                    let member = MemberRecord(
                        id: UUID(), groupID: group.id, userID: nil, name: name, role: .member, createdAt: now, updatedAt: now)
                    try await groups.addMember(member)
                    members.append(member.id)
                }
                for seriesIndex in 0..<50 {
                    let template = ExpenseTemplate(
                        description: "Bill \(seriesIndex)", amount: 1_000 + Int64(seriesIndex), currency: "EUR",
                        categoryID: CategoryStore.defaultID(groupID: group.id, name: "Other"),
                        rule: .equal(members.map(MemberID.init)), payers: [PayerRecord(memberID: members[0], amount: 1_000 + Int64(seriesIndex))],
                        members: members)
                    _ = try await recurring.create(
                        SeriesRecord(
                            id: UUID(), groupID: group.id, template: template,
                            recurrence: try Recurrence(unit: .day, start: start), mode: .auto,
                            nextDate: start.description, createdByUserID: owner.id, createdAt: now, updatedAt: now),
                        actor: Actor(userID: owner.id, name: "Aki"))
                }
            }
            // act: two servers at once, each looking every second
            let environment = ["DATABASE_URL": url, "RECURRING_INTERVAL": "1"]
            async let first = ServerProcess(environment: environment)
            async let second = ServerProcess(environment: environment)
            let servers = try await [first, second]
            let deadline = ContinuousClock.now + .seconds(120)
            var made = 0
            while ContinuousClock.now < deadline {
                made = try await database.read { sql in
                    try await sql.raw("SELECT COUNT(*) AS n FROM expenses").first()?.decode(column: "n", as: Int.self) ?? 0
                }
                if made >= 8_000 { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            // A few more passes of both, which must make nothing more.
            try await Task.sleep(for: .seconds(3))
            var statuses: [Int32] = []
            for server in servers { statuses.append(try await server.stop()) }
            let logs = servers.map(\.log)

            // validate
            #expect(statuses == [0, 0], "logs:\n\(logs.joined(separator: "\n---\n"))")
            let counts = try await database.read { sql in
                (
                    expenses: try await sql.raw("SELECT COUNT(*) AS n FROM expenses").first()?
                        .decode(column: "n", as: Int.self) ?? 0,
                    occurrences: try await sql.raw("SELECT COUNT(*) AS n FROM recurring_occurrences").first()?
                        .decode(column: "n", as: Int.self) ?? 0,
                    distinct: try await sql.raw(
                        "SELECT COUNT(DISTINCT description || '|' || group_id || '|' || expense_date) AS n FROM expenses"
                    ).first()?.decode(column: "n", as: Int.self) ?? 0,
                    late: try await sql.raw(
                        "SELECT COUNT(*) AS n FROM recurring_series WHERE next_date <= \(bind: today.description)"
                    ).first()?.decode(column: "n", as: Int.self) ?? 0
                )
            }
            #expect(counts.expenses == 8_000 && counts.occurrences == 8_000 && counts.distinct == 8_000)
            #expect(counts.late == 0)
            // Each server's log says how many it made; together, every one, none twice.
            let perServer = logs.map { log in
                log.components(separatedBy: "\n").filter { $0.contains("recurring expenses made") }.compactMap { line in
                    line.range(of: #"count=\d+"#, options: .regularExpression).flatMap { Int(line[$0].dropFirst(6)) }
                }.reduce(0, +)
            }
            print("recurring occurrences made per server: \(perServer)")
            #expect(perServer.reduce(0, +) == 8_000, "made per server: \(perServer)")
            // The ledger holds what the expenses say: every group's nets sum to zero.
            let unbalanced = try await database.read { sql in
                try await sql.raw(
                    "SELECT group_id FROM balances GROUP BY group_id, currency HAVING SUM(net) <> 0"
                ).all().count
            }
            #expect(unbalanced == 0)
            try await database.close()
        }
    }
}
