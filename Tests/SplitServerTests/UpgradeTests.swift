import Foundation
import HTTPTypes
import SQLKit
import SplitServer
import SplitStore
import SplitTestSupport
import Testing

/// A database written by an earlier release (made by `scripts/make-upgrade-fixture` with the
/// code of the commit its manifest names) is opened by this code: its migrations run, and the API
/// must serve exactly what the earlier release served for it — every expense with its split as
/// entered, every share and paid mark, each share's payment history, balances, transfers, plans,
/// pairwise debts, rates, categories, members, the change feed and every activity line.
@Suite("Upgrading a database an earlier release wrote")
struct UpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/upgrade")

    @Test(
        "after the migrations the API serves what the earlier release served, to the byte", arguments: TestDatabases.all
    )
    func upgradeKeepsEverything(backend: Database.Backend) async throws {
        // setup: the earlier release's database and what it served
        let manifestName = backend == .sqlite ? "trip-sqlite.sql.json" : "trip-postgres.sql.json"
        let manifestData = try Data(contentsOf: Self.fixtures.appendingPathComponent(manifestName))
        try await TestDatabases.withConfiguration(backend, empty: true) { configuration in
            let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
            let password = try #require(manifest["password"] as? String)
            try #require((manifest["groups"] as? [[String: Any]])?.count ?? 0 >= 2)
            try await Self.restore(backend, into: configuration)
            // act: start this release on it (the migrations run), and read it as each group's owner
            let app = try await buildApplication(
                configuration: TestApp.configuration(configuration), logger: TestDatabases.logger)
            try await AppTester.run(app, live: false) { client in
                let api = API(client: client, databaseConfiguration: configuration)
                let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
                for view in manifest["groups"] as? [[String: Any]] ?? [] {
                    let readAs = try #require(view["readAs"] as? [String: Any])
                    let login = try await api.call(
                        .post, "/auth/login",
                        json: #"{"emailOrPhone":"\#(readAs["email"] as? String ?? "")","password":"\#(password)"}"#)
                    let token = try #require(login.string("token"))
                    let group = try #require(view["group"] as? [String: Any])
                    let id = try #require(group["id"] as? String)
                    // validate: each read equals the manifest's
                    let served = try await Self.read(api, token: token, groupID: id, view: view)
                    for key in view.keys.sorted() where key != "readAs" {
                        let (was, now) = try Self.withoutIntendedChanges(key, view[key] as Any, served[key] as Any)
                        let expected = try Self.canonical(was)
                        let actual = try Self.canonical(now)
                        #expect(
                            actual == expected,
                            "\(group["name"] ?? id) \(key) differs after the upgrade:\nwas \(expected.prefix(3_000))\nnow \(actual.prefix(3_000))"
                        )
                    }
                    try await Self.checkPaid(api, token: token, groupID: id, expenses: view["expenses"] as? [[String: Any]] ?? [])
                }
            }
            // Stored in our own formats now: every split is StoredSplit version 1.
            let database = try await Database.open(configuration, logger: TestDatabases.logger)
            let splits = try await database.read { sql in
                try await sql.raw("SELECT split_json FROM expenses").all().map {
                    try $0.decode(column: "split_json", as: String.self)
                }
            }
            // Every activity line was read back into data: none is kept only as its old words.
            let details = try await database.read { sql in
                try await sql.raw("SELECT action, details FROM activity").all().map {
                    "\(try $0.decode(column: "action", as: String.self)) \(try $0.decode(column: "details", as: String.self))"
                }
            }
            try await database.close()
            #expect(details.count > 20)
            #expect(
                details.allSatisfy { !$0.contains("legacyText") }, "\(details.filter { $0.contains("legacyText") })")
            #expect(!splits.isEmpty)
            #expect(splits.allSatisfy { $0.contains(#""v":1"#) && !$0.contains("memberIds") }, "\(splits.prefix(3))")
        }
    }

    /// Changes made on purpose since the fixture's release, taken out of the byte comparison and
    /// checked on their own. Issue 15: the expense list's order within a day, the groups' time zone. Issue 15: the home view counts a charged expense at its charged
    /// amount (so `home` differs where one exists) and says how many did (`homeChargedExpenses`),
    /// and whether Settle up leads in the home currency (`settleInHome`).
    /// Issue 16: the order of a change page's categories.
    /// The per-currency nets stay compared to the byte; the new home view must still sum to zero.
    static func withoutIntendedChanges(_ key: String, _ was: Any, _ now: Any) throws -> (Any, Any) {
        // Issue 15: groups have a time zone; those made before it are on UTC.
        let now = withoutLeft(withoutNothingToPay(withoutTimeZone(now)))
        // Issue 15: one day's expenses are listed by when they were entered, newest first (they
        // were by id). The same expenses, byte for byte, in that order.
        if key == "expenses", let old = was as? [[String: Any]], let new = now as? [[String: Any]] {
            func key(_ expense: [String: Any]) -> String {
                "\(expense["expenseDate"] as? String ?? "") \(expense["createdAt"] as? String ?? "")"
            }
            // The wire's times have whole seconds; the list orders by milliseconds, so only
            // "never older before newer" can be checked from here.
            #expect(zip(new, new.dropFirst()).allSatisfy { key($0) >= key($1) }, "latest entered first within a day")
            func byID(_ list: [[String: Any]]) -> [[String: Any]] {
                list.sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
            }
            return (byID(old), byID(new))
        }
        // Issue 16: a change page's categories come in id order on both databases (on PostgreSQL
        // they came in its storage order). The same categories, byte for byte.
        if key == "changes", let old = was as? [[String: Any]], let new = now as? [[String: Any]] {
            func ids(_ page: [String: Any]) -> [String] {
                (page["categories"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" }
            }
            #expect(new.allSatisfy { ids($0) == ids($0).sorted() }, "a change page's categories in id order")
            let sorted = old.map { page -> [String: Any] in
                var page = page
                if let categories = page["categories"] as? [[String: Any]] {
                    page["categories"] = categories.sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
                }
                return page
            }
            return (sorted, new)
        }
        // Each rate says whether it counts (2026-12-06): added, and true for the latest of each
        // pair; the rates themselves are as they were.
        if key == "rates", let old = was as? [[String: Any]], let new = now as? [[String: Any]] {
            let pairs = Dictionary(grouping: new) {
                Set([$0["fromCurrency"] as? String ?? "", $0["toCurrency"] as? String ?? ""])
            }
            for (pair, rates) in pairs {
                let counted = rates.filter { $0["counts"] as? Bool == true }
                let latest = rates.compactMap { $0["date"] as? String }.max()
                #expect(!counted.isEmpty && counted.allSatisfy { $0["date"] as? String == latest }, "the latest counts in \(pair)")
            }
            return (old, new.map { $0.filter { $0.key != "counts" } })
        }
        // Each expense's pairwise debts are in proportion to what each payer paid (migration 0031;
        // they were matched in member-id order): who owes whom may differ pair by pair, but each
        // member's debts and credits per currency still net to the same.
        if key == "debts", let old = was as? [String: Any], let new = now as? [String: Any] {
            func nets(_ answer: [String: Any]) -> [String: Int64] {
                var nets: [String: Int64] = [:]
                for debt in answer["debts"] as? [[String: Any]] ?? [] {
                    let currency = debt["currency"] as? String ?? ""
                    let amount = Int64((debt["amount"] as? String ?? "").replacingOccurrences(of: ".", with: "")) ?? 0
                    nets[currency + " " + (debt["fromMemberId"] as? String ?? ""), default: 0] -= amount
                    nets[currency + " " + (debt["toMemberId"] as? String ?? ""), default: 0] += amount
                }
                return nets.filter { $0.value != 0 }
            }
            #expect(!nets(old).isEmpty)
            return (nets(old), nets(new))
        }
        guard key == "balances", var old = was as? [String: Any], var new = now as? [String: Any] else {
            return (was, now)
        }
        #expect(new["homeChargedExpenses"] is Int, "balances say how many expenses counted at a charged amount")
        // 2026-12-07: whether Settle up leads in the home currency, said (a boolean, always).
        #expect(new["settleInHome"] is Bool, "balances say whether Settle up leads in the home currency")
        // One currency, written with its decimals: the digits are its minor units.
        let nets = (new["home"] as? [[String: Any]] ?? []).compactMap {
            ($0["net"] as? String).flatMap { Int64($0.replacingOccurrences(of: ".", with: "")) }
        }
        #expect(nets.count == (new["home"] as? [Any])?.count && nets.reduce(0, +) == 0, "the home view sums to zero")
        #expect((old["home"] == nil) == (new["home"] == nil), "a home view where there was one")
        for field in ["home", "homeChargedExpenses", "settleInHome"] {
            old[field] = nil
            new[field] = nil
        }
        return (old, new)
    }

    /// Each share says when it has nothing to pay (2026-12-07): written only as true, and only
    /// where its member paid at least the share themselves (a refund: received at least it); taken
    /// out here, so the shares are compared as they were.
    static func withoutNothingToPay(_ value: Any) -> Any {
        if var object = value as? [String: Any] {
            if let shares = object["splits"] as? [[String: Any]] {
                let payers = object["payers"] as? [[String: Any]] ?? []
                let refund = (object["amount"] as? String ?? "").hasPrefix("-")
                object["splits"] = shares.map { share -> [String: Any] in
                    guard let said = share["nothingToPay"] else { return share }
                    func cents(_ text: String?) -> Int64 { Int64((text ?? "0").replacingOccurrences(of: ".", with: "")) ?? 0 }
                    let paid = cents(payers.first { $0["memberId"] as? String == share["memberId"] as? String }?["amount"] as? String)
                    let owed = cents(share["amount"] as? String)
                    #expect(said as? Bool == true && (refund ? paid <= owed : paid >= owed), "nothingToPay of \(share)")
                    return share.filter { $0.key != "nothingToPay" }
                }
            }
            return object.mapValues(withoutNothingToPay)
        }
        if let list = value as? [Any] { return list.map(withoutNothingToPay) }
        return value
    }

    /// Each member says whether they left the group themselves (2026-12-07, migration 0035):
    /// false while active; taken out here, so members are compared as they were.
    static func withoutLeft(_ value: Any) -> Any {
        if var object = value as? [String: Any] {
            if object["canMarkPaid"] != nil, object["role"] != nil {
                let left = object["leftThemselves"] as? Bool
                #expect(left != nil && (object["active"] as? Bool == false || left == false), "leftThemselves of \(object)")
                object["leftThemselves"] = nil
            }
            return object.mapValues(withoutLeft)
        }
        if let list = value as? [Any] { return list.map(withoutLeft) }
        return value
    }

    /// `now` without the `timeZone` of every group in it, each checked to be UTC.
    static func withoutTimeZone(_ value: Any) -> Any {
        if var object = value as? [String: Any] {
            if object["homeCurrency"] != nil, let zone = object["timeZone"] {
                #expect(zone as? String == "UTC", "a group made before time zones is on UTC")
                object["timeZone"] = nil
            }
            return object.mapValues(withoutTimeZone)
        }
        if let list = value as? [Any] { return list.map(withoutTimeZone) }
        return value
    }

    /// Puts the fixture where `configuration` points: the earlier release's database, kept as SQL
    /// text (`sqlite3 .dump`, `pg_dump --inserts`) so no binary database file is committed,
    /// executed statement by statement into an empty database. Session settings are skipped (a
    /// pooled connection must not keep pg_dump's empty search_path), and so are the dump's own
    /// transaction lines (the statements run one by one, each committed).
    static func restore(_ backend: Database.Backend, into configuration: DatabaseConfiguration) async throws {
        let file = backend == .sqlite ? "trip-sqlite.sql" : "trip-postgres.sql"
        let dump = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        var statements: [String] = []
        var current = ""
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
            current += current.isEmpty ? String(line) : "\n" + line
            if line.hasSuffix(";") {
                statements.append(current)
                current = ""
            }
        }
        let skipped = ["SET ", "SELECT pg_catalog.set_config", "BEGIN TRANSACTION", "COMMIT"]
        let database = try await Database.open(configuration, logger: TestDatabases.logger)
        do {
            for statement in statements where !skipped.contains(where: { statement.hasPrefix($0) }) {
                try await database.transaction { try await $0.raw(SQLQueryString(statement)).run() }
            }
        } catch {
            try? await database.close()
            throw error
        }
        try await database.close()
    }

    /// What migration 0033 filled (what each member paid, kept running since) against the
    /// earlier release's expenses, summed here: each payer's amounts per currency, an expense
    /// charged in the home currency at its charged amount (exactly for one payer; over several,
    /// the sum of the currency, which apportioning keeps).
    static func checkPaid(_ api: API, token: String, groupID: String, expenses: [[String: Any]]) async throws {
        let reply = try await api.call(.get, "/api/groups/\(groupID)/spending", token: token)
        try #require(reply.status == .ok, "\(reply.text)")
        let spending = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let home = try #require(spending["currency"] as? String)
        func decimal(_ value: Any?) -> Decimal { Decimal(string: value as? String ?? "") ?? .nan }
        var expected: [String: Decimal] = [:]  // "member currency", or "* currency" for a pooled sum
        var pooled: [String: Decimal] = [:]
        for expense in expenses where expense["isDeleted"] as? Bool != true {
            let payers = expense["payers"] as? [[String: Any]] ?? []
            let currency = expense["currency"] as? String ?? ""
            // (The fixture's release did not say the charge's currency: the home currency then.)
            if let charged = expense["homeAmount"] as? String, (expense["homeCurrency"] as? String ?? home) == home,
                currency != home
            {
                if payers.count == 1 {
                    expected["\(payers[0]["memberId"] as? String ?? "") \(home)", default: 0] += decimal(charged)
                } else {
                    pooled[home, default: 0] += decimal(charged)
                }
                continue
            }
            for payer in payers {
                expected["\(payer["memberId"] as? String ?? "") \(currency)", default: 0] += decimal(payer["amount"])
            }
        }
        var served: [String: Decimal] = [:]
        for row in spending["byCurrency"] as? [[String: Any]] ?? [] {
            served["\(row["memberId"] as? String ?? "") \(row["currency"] as? String ?? "")", default: 0] += decimal(row["paid"])
        }
        #expect(!expected.isEmpty)
        for (key, amount) in served where !pooled.keys.contains(String(key.split(separator: " ").last ?? "")) {
            #expect(amount == expected[key, default: 0], "paid \(key): served \(amount), the expenses say \(expected[key, default: 0])")
        }
        for (currency, extra) in pooled {
            let sum = served.filter { $0.key.hasSuffix(" " + currency) }.values.reduce(0, +)
            let known = expected.filter { $0.key.hasSuffix(" " + currency) }.values.reduce(0, +)
            #expect(sum == known + extra, "paid in \(currency): served \(sum), the expenses say \(known + extra)")
        }
        #expect(Set(expected.filter { $0.value != 0 }.keys).isSubset(of: served.keys), "\(expected) \(served)")
    }

    /// The same reads `scripts/upgrade-fixture.py` made for the manifest (`group_view`).
    static func read(_ api: API, token: String, groupID: String, view: [String: Any]) async throws -> [String: Any] {
        func get(_ path: String) async throws -> Any {
            let reply = try await api.call(.get, path, token: token)
            try #require(reply.status == .ok, "GET \(path): \(reply.status) \(reply.text)")
            return try JSONSerialization.jsonObject(with: reply.body)
        }
        func field(_ path: String, _ key: String) async throws -> Any {
            try #require((try await get(path) as? [String: Any])?[key])
        }
        func pages(_ path: String, _ key: String) async throws -> [Any] {
            var items: [Any] = []
            var cursor: String?
            repeat {
                let separator = path.contains("?") ? "&" : "?"
                let page = try #require(
                    try await get(path + separator + "limit=200" + (cursor.map { "&cursor=\($0)" } ?? ""))
                        as? [String: Any])
                items += page[key] as? [Any] ?? []
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            return items
        }
        let base = "/api/groups/\(groupID)"
        let expenses = try await pages("\(base)/expenses?includeDeleted=true", "expenses")
        var history: [String: Any] = [:]
        for case let expense as [String: Any] in expenses {
            let id = expense["id"] as? String ?? ""
            let single = try await field("/api/expenses/\(id)", "expense")
            #expect(
                try canonical(single) == canonical(expense), "GET /api/expenses/\(id) differs from the list's entry")
            for case let share as [String: Any] in expense["splits"] as? [Any] ?? [] {
                let shareID = share["id"] as? String ?? ""
                let entries = try await field("/api/expense-splits/\(shareID)/history", "history")
                if let list = entries as? [Any], !list.isEmpty { history[shareID] = list }
            }
        }
        var plans: [String: Any] = [:]
        for currency in (view["settlementPlans"] as? [String: Any] ?? [:]).keys {
            plans[currency] = try await get("\(base)/settlement-plan?currency=\(currency)")
        }
        var changes: [Any] = []
        var since: String?
        while true {
            let page = try #require(
                try await get("\(base)/changes" + (since.map { "?since=\($0)" } ?? "")) as? [String: Any])
            changes.append(page)
            since = page["cursor"].map { "\($0)" }
            if page["hasMore"] as? Bool != true { break }
        }
        return [
            "group": try await field(base, "group"),
            "members": try await field("\(base)/members", "members"),
            "categories": try await field("\(base)/categories", "categories"),
            "expenses": expenses,
            "shareHistory": history,
            "balances": try await get("\(base)/balances"),
            "settlements": try await field("\(base)/settlements?includeDeleted=true", "settlements"),
            "settlementPlans": plans,
            "debts": try await get("\(base)/debts"),
            "rates": try await field("\(base)/rates", "rates"),
            "activity": try await pages("\(base)/activity", "activity"),
            "changes": changes,
        ]
    }

    /// JSON text with sorted keys, so two readings compare by value.
    static func canonical(_ value: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]),
            as: UTF8.self)
    }
}
