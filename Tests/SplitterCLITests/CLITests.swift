import Foundation
import SplitSpawn
import SplitStore
import SplitTestSupport
import Testing

/// The real `splitter` binary against the real `splitter-server`, as a user would run them.
@Suite("splitter command line")
struct CLITests {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// The built `splitter` binary.
    static func splitterPath() -> String {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("splitter").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// This environment with a config folder of the test's own.
    static func splitterEnvironment(config: URL) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["SPLITTER_CONFIG_DIR": config.path]) { $1 }
    }

    /// Runs `splitter` with a config folder of the test's own; the wait is on a Dispatch thread.
    static func splitter(
        _ arguments: [String], stdin: String? = nil, config: URL, environment: [String: String] = [:]
    ) async throws -> Result {
        try await onDispatchThread { try splitterNow(arguments, stdin: stdin, config: config, environment: environment) }
    }

    /// The same, blocking the calling thread (for a token store that must act between two requests).
    static func splitterNow(
        _ arguments: [String], stdin: String? = nil, config: URL, environment: [String: String] = [:]
    ) throws -> Result {
        Result(
            try ChildProgram.run(
                splitterPath(), arguments,
                environment: splitterEnvironment(config: config).merging(environment) { $1 },
                input: stdin.map { Data(($0 + "\n").utf8) }))
    }

    @Test("a bad command line exits 2 with what is wrong, as --help says: an unknown command, a missing argument, an unknown option")
    func badCommandLine() async throws {
        // Found by review: ArgumentParser's own exit code for these is 64.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: config) }
        for (arguments, words) in [
            (["frobnicate"], "Unexpected argument 'frobnicate'"),
            (["expense", "add", "Japan"], "Missing expected argument"),
            (["balances", "Japan", "--colour"], "Unknown option '--colour'"),
            // Found by review: a minus sign read as an option, said without why.
            (["expense", "add", "Japan", "Lunch", "-10"], "“-10” is read as an option"),
        ] {
            let result = try await Self.splitter(arguments, config: config)
            #expect(result.status == 2 && result.error.contains(words), "\(arguments): \(result.status) \(result.error)")
        }
        #expect(try await Self.splitter(["--help"], config: config).status == 0)
    }

    @Test("a whole trip from the command line: accounts, a group, expenses in two currencies, balances, plan, settle")
    func wholeTrip() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-cli-\(UUID())")
            defer { try? FileManager.default.removeItem(at: config) }
            func run(_ arguments: String..., stdin: String? = nil) async throws -> Result {
                try await Self.splitter(arguments, stdin: stdin, config: config)
            }
            let url = server.baseURL.absoluteString
            // setup: two people, one group
            let aki = try await run(
                "register", "--server", url, "--email", "aki@example.com", "--name", "Aki", "--password-stdin",
                stdin: "correct horse")
            #expect(aki.status == 0, "\(aki.error)")
            let ben = try await run(
                "register", "--profile", "ben", "--server", url, "--phone", "+65 9123 4567", "--name", "Ben",
                "--password-stdin", stdin: "correct horse")
            #expect(ben.status == 0, "\(ben.error)")
            #expect(try await run("group", "create", "Japan", "--currency", "JPY").status == 0)
            let shown = try await run("group", "show", "japan", "--json")
            let group = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
            let code = try #require((group?["group"] as? [String: Any])?["inviteCode"] as? String)
            // The invite link pasted whole joins as its code does (found by a new user: "No such invite code").
            let joined = try await run("group", "join", "\(url)/join/\(code)", "--profile", "ben")
            #expect(joined.output.contains("Joined Japan as Ben"), "\(joined.output)\(joined.error)")
            #expect(try await run("member", "add", "Japan", "Cho").status == 0)
            // act: expenses with several payers, shares, an equal split in USD, and a bad amount
            #expect(
                try await run("expense", "add", "Japan", "Hotel", "30000", "--paid-by", "aki=20000,ben=10000").status
                    == 0)
            let dinner = try await run(
                "expense", "add", "Japan", "Dinner", "9000", "--paid-by", "ben", "--shares", "aki=2,ben=1,cho=1")
            #expect(dinner.output.contains("Aki 4500"), "\(dinner.output)\(dinner.error)")
            #expect(
                try await run(
                    "expense", "add", "Japan", "Gift", "12.50", "--currency", "USD", "--paid-by", "cho", "--equal",
                    "aki,cho"
                )
                .status == 0)
            let bad = try await run("expense", "add", "Japan", "Bad", "1200.5")
            #expect(bad.status == 7 && bad.error.contains("JPY"), "\(bad.error)")
            let unknown = try await run("expense", "add", "Japan", "Bad", "100", "--paid-by", "dan")
            #expect(unknown.status == 7 && unknown.error.contains("dan"))

            // validate: balances sum to zero per currency; the plan settles JPY; a settlement moves it
            let balances = try await run("balances", "Japan", "--json")
            let list = try #require(
                (try JSONSerialization.jsonObject(with: Data(balances.output.utf8)) as? [String: Any])?["balances"]
                    as? [[String: Any]])
            for currency in ["JPY", "USD"] {
                let nets = list.filter { $0["currency"] as? String == currency }.compactMap {
                    Double($0["net"] as? String ?? "")
                }
                #expect(!nets.isEmpty && abs(nets.reduce(0, +)) < 0.001, "\(currency): \(nets)")
            }
            #expect(try await run("balances", "Japan").output.contains("Cho     -12250  JPY"))
            // Who paid and spent what: in yen, most paid first; the dollars, with no rate, apart.
            let spending = try await run("spending", "Japan")
            let rows = spending.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.first == ["Since", "the", "group", "began,", "in", "JPY", "(most", "paid", "first):"], "\(spending.output)")
            #expect(
                Array(rows.dropFirst(2).prefix(4))
                    == [["Aki", "20000", "14500"], ["Ben", "19000", "12250"], ["Cho", "0", "12250"], ["Total", "39000", "39000"]],
                "\(spending.output)")
            #expect(spending.output.contains("Not counted (no rate yet from USD to JPY):"), "\(spending.output)")
            #expect(rows.contains(["Cho", "12.50", "6.25", "USD"]), "\(spending.output)")
            let badMonth = try await run("spending", "Japan", "--month", "2026-5")
            #expect(badMonth.status == 7 && badMonth.error.contains("2026-11"), "\(badMonth.error)")
            // The singular, which a new user typed, is the same command.
            #expect(try await run("balance", "Japan").output.contains("Cho     -12250  JPY"))
            let plan = try await run("plan", "Japan")
            #expect(
                plan.output.contains("Cho pays Ben 6750 JPY") && plan.output.contains("Cho pays Aki 5500 JPY"),
                "\(plan.output)")
            #expect(try await run("settle", "Japan", "--from", "cho", "--to", "aki", "5500").status == 0)
            // The gift's USD stays open, and the answer says so rather than look settled.
            #expect(
                try await run("plan", "Japan").output
                    == "Cho pays Ben 6750 JPY\nAlso open in USD: add --currency USD (with an exchange rate for each, "
                    + "`splitter rates set`, --home settles everything in JPY).\n")
            // Everything in JPY needs a USD rate first, and the answer says which is missing.
            let noRate = try await run("plan", "Japan", "--home")
            #expect(noRate.status != 0 && noRate.error.contains("No rate to JPY yet for USD"), "\(noRate.error)")
            // The CLI gives the rate (it had no way to); then everything settles in JPY.
            #expect(try await run("rates", "Japan").output == "No exchange rates yet: `splitter rates set GROUP USD 150`.\n")
            let future = try await run("rates", "set", "Japan", "USD", "150", "--date", "2099-01-01")
            #expect(future.status == 7 && future.error.contains("more than a day after today"), "\(future.error)")
            #expect(try await run("rates", "set", "Japan", "USD", "140", "--date", "2026-01-01").status == 0)
            let set = try await run("rates", "set", "Japan", "USD", "150")
            #expect(set.status == 0 && set.lines.first?.hasPrefix("1 USD = 150 JPY from ") == true, "\(set.output)\(set.error)")
            let listed = try await run("rates", "Japan").lines.map { $0.split(separator: " ").map(String.init) }
            #expect(listed.dropFirst().map { $0.prefix(3) + $0.dropFirst(4) }
                == [["USD", "150", "JPY", "yes"], ["USD", "140", "JPY"]], "\(listed)")
            // The opposite rate of the same day counts too, for converting its own way; converting
            // into JPY still reads 150 (the plan below).
            #expect(try await run("rates", "set", "Japan", "JPY", "0.0068", "--to", "USD").status == 0)
            let both = try await run("rates", "Japan").lines.map { $0.split(separator: " ").map(String.init) }
            #expect(both.contains { $0.first == "USD" && $0.last == "yes" } && both.contains { $0.first == "JPY" && $0.last == "yes" }, "\(both)")
            let home = try await run("plan", "Japan", "--home")
            #expect(home.status == 0 && home.output.contains("1 USD = 150 JPY"), "\(home.output)\(home.error)")
            // With a rate for each currency, the plain plan is everything in JPY too, as the web's
            // Settle up (found by new users: JPY's own plan told whoever had been paid in yen for
            // converted debts to pay it back); --currency still gives one currency's own.
            let plain = try await run("plan", "Japan")
            #expect(plain.output.hasPrefix("Everything in JPY, converted at 1 USD = 150 JPY"), "\(plain.output)")
            #expect(
                plain.lines.dropFirst().first == home.lines.dropFirst().first
                    && plain.output.contains("One currency's own plan: add --currency"), "\(plain.output)\(home.output)")
            #expect(try await run("plan", "Japan", "--currency", "JPY").output.hasPrefix("Cho pays Ben 6750 JPY\n"))
            // A rate entered by mistake is deleted; the pair's one before it counts again.
            let wrong = try await run("rates", "set", "Japan", "USD", "1500", "--date", "2026-11-01")
            #expect(wrong.status == 0, "\(wrong.error)")
            let today = try #require(set.lines.first?.split(separator: " ").last.map { String($0.dropLast()) })
            let deleted = try await run("rates", "delete", "Japan", "usd", today)
            #expect(deleted.lines.first == "Deleted the rate of 1 USD in JPY from \(today).", "\(deleted.output)\(deleted.error)")
            let after = deleted.lines.dropFirst().map { $0.split(separator: " ").map(String.init) }
            // Of the pair, the opposite rate of today is now the latest (the same day's USD one won before).
            #expect(after.dropFirst() == [["JPY", "0.0068", "USD", today, "yes"], ["USD", "1500", "JPY", "2026-11-01"],
                ["USD", "140", "JPY", "2026-01-01"]], "\(after)")
            let again = try await run("rates", "delete", "Japan", "USD", today)
            #expect(again.status != 0 && again.error.contains("no rate of USD to JPY on \(today)"), "\(again.error)")
            #expect(try await run("rates", "delete", "Japan", "USD", "2026-11-01").status == 0)
            #expect(try await run("rates", "set", "Japan", "USD", "150").status == 0)
            // Cho still owes Ben: removing him says so; confirmed, he goes, and restore brings him back.
            let refused = try await run("member", "remove", "Japan", "cho")
            #expect(refused.status != 0 && refused.error.contains("Cho owes 6,750 JPY"), "\(refused.error)")
            #expect(try await run("member", "remove", "Japan", "cho", "--confirm-balance").status == 0)
            // Removed, Cho still owes, and is marked so (a new Cho could join beside him).
            #expect(try await run("balances", "Japan").output.contains("Cho (removed)  -"), "removed members are marked")
            let restored = try await run("member", "restore", "Japan", "cho")
            #expect(restored.output.contains("Cho is back in Japan"), "\(restored.output)\(restored.error)")
            let twice = try await run("member", "restore", "Japan", "cho")
            #expect(twice.status == 0 && twice.output == "Cho is in Japan already; nothing changed.\n", "\(twice.output)\(twice.error)")
            #expect(try await run("expense", "list", "Japan").output.split(separator: "\n").count == 4)
            #expect(try await run("whoami", "--profile", "ben").output.hasPrefix("Ben"))
            // "I am Dee", by name: the CLI cannot list the group before joining.
            #expect(try await run("member", "add", "Japan", "Dee").status == 0)
            let dee = try await run(
                "register", "--profile", "dee", "--server", url, "--email", "dee@example.com", "--name", "D",
                "--password-stdin", stdin: "correct horse")
            #expect(dee.status == 0, "\(dee.error)")
            let nobody = try await run("group", "join", code, "--as", "Nobody", "--profile", "dee")
            #expect(nobody.status != 0 && nobody.error.contains("the names are: Cho, Dee."), "\(nobody.error)")
            let asDee = try await run("group", "join", code, "--as", "dee", "--profile", "dee")
            #expect(asDee.output.contains("Joined Japan as Dee"), "\(asDee.output)\(asDee.error)")
            // Eve, new, has the name of a name-only Eve: asked which, then joins under another name.
            #expect(try await run("member", "add", "Japan", "Eve").status == 0)
            #expect(
                try await run(
                    "register", "--profile", "eve", "--server", url, "--email", "eve@example.com", "--name", "eve",
                    "--password-stdin", stdin: "correct horse"
                ).status == 0)
            let sameName = try await run("group", "join", code, "--profile", "eve")
            #expect(sameName.status == 6 && sameName.error.contains("“Eve” is in this group already"), "\(sameName.error)")
            #expect(sameName.error.contains("--as NAME`") && sameName.error.contains("--name \"Another name\""), "\(sameName.error)")
            let renamed = try await run("group", "join", code, "--name", "Eve B", "--profile", "eve")
            #expect(renamed.output.contains("Joined Japan as Eve B"), "\(renamed.output)\(renamed.error)")

            // Logged out is exit 3; a stopped server is exit 9, with one friendly line.
            #expect(try await run("logout").status == 0)
            let loggedOut = try await run("whoami")
            #expect(loggedOut.status == 3 && loggedOut.error.contains("splitter login"))
            try await server.stop {
                let offline = try await run("whoami", "--profile", "ben")
                #expect(offline.status == 9 && offline.error.split(separator: "\n").count == 1, "\(offline.error)")
            }
        }
    }

    @Test("offline: two clients queue 50 expenses and 10 transfers, sync once each, and nothing is lost or doubled")
    func offlineQueue() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-cli-\(UUID())")
            defer { try? FileManager.default.removeItem(at: config) }
            func run(_ arguments: [String], stdin: String? = nil) async throws -> Result {
                try await Self.splitter(arguments, stdin: stdin, config: config)
            }
            // setup, online: Aki's group, Ben joins; each adds one expense (which caches the group)
            var server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            let url = server.baseURL.absoluteString
            for (profile, name) in [("default", "Aki"), ("ben", "Ben")] {
                let reply = try await run(
                    [
                        "register", "--profile", profile, "--server", url, "--email",
                        "\(name.lowercased())@example.com", "--name", name,
                        "--password-stdin",
                    ], stdin: "correct horse")
                try #require(reply.status == 0, "\(reply.error)")
            }
            _ = try await run(["group", "create", "Trip", "--currency", "EUR"])
            let shown = try await run(["group", "show", "Trip", "--json"])
            let code = try #require(
                ((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["group"]
                    as? [String: Any])?[
                        "inviteCode"] as? String)
            _ = try await run(["group", "join", code, "--profile", "ben"])
            for profile in ["default", "ben"] {
                let reply = try await run(["expense", "add", "Trip", "Online", "10.00", "--profile", profile])
                try #require(reply.status == 0, "\(reply.error)")
            }
            // act: the server goes away; each client records 25 expenses and 5 transfers
            let benQueue = config.appendingPathComponent("profiles/ben/offline.sqlite")
            let copy = config.appendingPathComponent("ben-queue-copy.sqlite")
            try await server.stop {
                for index in 0..<25 {
                    for (profile, payer) in [("default", "aki"), ("ben", "ben")] {
                        let reply = try await run(
                            [
                                "expense", "add", "Trip", "Meal \(index)", "\(index + 1).50", "--paid-by", payer,
                                "--profile", profile,
                            ])
                        #expect(reply.status == 0 && reply.output.contains("queued"), "\(reply.output)\(reply.error)")
                    }
                }
                for index in 0..<5 {
                    #expect(
                        try await run([
                            "settle", "Trip", "--from", "ben", "--to", "aki", "\(index + 1)", "--profile", "ben",
                        ]).status == 0)
                    #expect(try await run(["settle", "Trip", "--from", "aki", "--to", "ben", "\(index + 2)"]).status == 0)
                }
                // What the server would refuse is refused offline too, and not queued (found by a new
                // user: each was "queued" and refused only at the next sync).
                for refused in [
                    ["expense", "add", "Trip", "Odd", "12.345"], ["expense", "add", "Trip", "Odd", "10", "--exact", "aki=3,ben=3"],
                    ["expense", "add", "Trip", "Odd", "10", "--percent", "aki=30,ben=30"],
                    ["settle", "Trip", "--from", "aki", "--to", "aki", "5"], ["settle", "Trip", "--from", "ben", "--to", "aki", "12.345"],
                    ["settle", "Trip", "--from", "ben", "--to", "aki", "0"],
                ] {
                    let reply = try await run(refused)
                    #expect(reply.status == 7 && reply.error.contains("Nothing was queued"), "\(refused): \(reply.output)\(reply.error)")
                }
                #expect(try await run(["status"]).output.contains("Queued: 30"))
                // The offline list shows what is queued, newest first, above what was last seen;
                // such an expense is shown as entered, saying it is not sent yet.
                let listed = try await run(["expense", "list", "Trip"])
                #expect(listed.status == 0 && listed.error.contains("and 25 queued to send"), "\(listed.error)")
                let rows = listed.output.split(separator: "\n")
                #expect(rows.count >= 27 && rows[1].contains("Meal 24 (queued)") && rows[25].contains("Meal 0 (queued)"), "\(listed.output)")
                #expect(rows[26].contains("Online") && !rows[26].contains("queued"), "\(listed.output)")
                let queuedID = try #require(rows[1].split(separator: " ").last.map(String.init))
                let shownQueued = try await run(["expense", "show", queuedID])
                #expect(
                    shownQueued.status == 0 && shownQueued.lines.first?.hasPrefix("Meal 24: 25.50 EUR on 20") == true
                        && shownQueued.lines.first?.hasSuffix(", Other (queued, not sent yet)") == true
                        && shownQueued.lines.dropFirst().prefix(2) == ["Paid by Aki", "Split: equal among Aki, Ben"]
                        && shownQueued.output.contains("`splitter sync --discard \(queuedID)` drops it."),
                    "\(shownQueued.output)\(shownQueued.error)")
                let queuedJSON = try await run(["expense", "show", queuedID, "--json"])
                let queuedObject = try JSONSerialization.jsonObject(with: Data(queuedJSON.output.utf8)) as? [String: Any]
                #expect(
                    (queuedObject?["queued"] as? String)?.hasSuffix(queuedID) == true
                        && (queuedObject?["expense"] as? [String: Any])?["description"] as? String == "Meal 24",
                    "\(queuedJSON.output)")
                // A change to it waits until it is sent.
                let editQueued = try await run(["expense", "edit", queuedID, "--amount", "3"])
                #expect(
                    editQueued.status == 5 && editQueued.error.contains("That is the queued expense Meal 24 25.50"),
                    "\(editQueued.error)")
                // No copy of the group synced yet: balances say so, and how to get one.
                let noCopy = try await run(["balances", "Trip", "--profile", "ben"])
                #expect(
                    noCopy.status == 9 && noCopy.error.contains("this device has no copy of Trip to work from yet: `splitter sync` makes one"),
                    "\(noCopy.output)\(noCopy.error)")
                // a group the offline copy does not know: the server cannot be reached, not "no such group"
                let unknown = try await run(["expense", "add", "Elsewhere", "Meal", "1.00"])
                #expect(unknown.status == 9 && unknown.error.contains("cannot be reached"), "\(unknown.error)")
                let offlineSync = try await run(["sync"])
                #expect(offlineSync.status == 9)
                // Keep a copy of Ben's queue to replay it a second time later.
                try FileManager.default.copyItem(at: benQueue, to: copy)
            }

            // the server is back (same data, a new port); both sync
            server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            let newURL = server.baseURL.absoluteString
            for profile in ["default", "ben"] {
                let reply = try await run(["sync", "--profile", profile, "--server", newURL])
                #expect(reply.status == 0 && reply.output.contains("Sent 30"), "\(reply.output)\(reply.error)")
            }
            // Replaying the same queue again creates nothing new.
            try FileManager.default.removeItem(at: benQueue)
            try FileManager.default.copyItem(at: copy, to: benQueue)
            let replay = try await run(["sync", "--profile", "ben"])
            #expect(replay.status == 0 && replay.output.contains("Sent 30"), "\(replay.output)\(replay.error)")

            // validate: 52 expenses, 10 transfers, and both clients see the same balances
            let list = try await run(["expense", "list", "Trip", "--json"])
            let expenses = try #require(
                try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
            #expect(expenses.count == 52)
            let akiBalances = try await run(["balances", "Trip", "--json"]).output
            let benBalances = try await run(["balances", "Trip", "--json", "--profile", "ben"]).output
            #expect(akiBalances == benBalances && akiBalances.contains("EUR"))
            #expect(try await run(["status"]).output.contains("Queued: 0"))
            _ = try await server.stop()
        }
    }
}

extension CLITests.Result {
    init(_ finished: ChildProgram.Finished) {
        self.init(status: finished.status, output: finished.outputText, error: finished.errorText)
    }
}
