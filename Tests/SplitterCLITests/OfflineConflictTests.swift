import Foundation
import SplitClient
import SplitTestSupport
import Testing

/// Offline edits, deletes and payments against the real binaries: a change someone else
/// overtook is a conflict with both versions, kept until the user resolves it; a session that
/// ends mid-sync stops the sync with the rest of the queue kept.
@Suite("splitter offline: conflicts and a revoked session")
struct OfflineConflictTests {
    @Test("a change the server refuses is kept and sync exits 7, saying so; a good one beside it is sent")
    func refusedExitsNonZero() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let offline = try CLITrip.unreachableURL()
            // A category the group does not have: only the server says so, once it is reached
            // (yen with decimals is refused offline already).
            #expect(try await trip.run("expense", "add", "Japan", "Bad", "1200", "--category", "Nope", "--server", offline).status == 0)
            #expect(try await trip.run("expense", "add", "Japan", "Worse", "12.5", "--server", offline).status == 7)
            #expect(try await trip.run("expense", "add", "Japan", "Good", "1200", "--server", offline).status == 0)

            // act
            let sync = try await trip.run("sync", "--server", trip.url)

            // validate (found by review: "refused 1" and exit 0, so a script could not tell)
            #expect(sync.status == 7 && sync.lines.first == "Sent 1, refused 1, conflicts 0, still queued 0.", "\(sync.output)\(sync.error)")
            #expect(sync.error.contains("1 change refused by the server is kept"), "\(sync.error)")
            let listed = try await trip.run("expense", "list", "Japan")
            #expect(listed.output.contains("Good") && !listed.output.contains("Bad"), "\(listed.output)")
            // The refused one is shown by the id `status` gives it, with why (it was "No expense … known here").
            let status = try await trip.run("status")
            let refusedID = try #require(
                status.lines.first { $0.contains("Bad") }?.split(separator: " ").first { $0.count == 8 }.map(String.init),
                "\(status.output)")
            let shown = try await trip.run("expense", "show", refusedID)
            #expect(
                shown.status == 0 && shown.lines.first?.hasSuffix("(refused by the server)") == true
                    && shown.output.contains("The server refused it: ") && shown.output.contains("--discard \(refusedID)"),
                "\(shown.output)\(shown.error)")
        }
    }

    @Test("an offline edit of an expense that someone changed meanwhile is a conflict; neither edit is lost")
    func editConflict() async throws {
        try await CLITrip.with { trip in
            // setup: Ben's taxi and hotel; Aki (owner) and Ben have both seen them (version 1)
            try await trip.setUpJapan()
            for (what, amount) in [("Taxi", "3000"), ("Hotel", "30000")] {
                let added = try await trip.run(
                    "expense", "add", "Japan", what, amount, "--paid-by", "ben", "--profile", "ben")
                try #require(added.status == 0, "\(added.error)")
            }
            let taxi = try await trip.expenseID("Taxi")
            let hotel = try await trip.expenseID("Hotel")
            let online = trip.url
            let offline = try CLITrip.unreachableURL()

            // act: Aki, offline, changes the taxi's amount, pays her share of it, deletes the hotel
            let edit = try await trip.run("expense", "edit", taxi, "--amount", "3600", "--server", offline)
            #expect(
                edit.status == 0 && edit.output.contains("queued (based on version 1)"), "\(edit.output)\(edit.error)")
            #expect(try await trip.run("pay", taxi, "--reason", "coins").output.contains("is queued"))
            #expect(try await trip.run("expense", "delete", hotel).output.contains("queued"))
            // …while Ben, online, renames the taxi and moves the hotel's date
            #expect(
                try await trip.run("expense", "edit", taxi, "--description", "Taxi to Shinjuku", "--profile", "ben")
                    .status == 0)
            #expect(
                try await trip.run("expense", "edit", hotel, "--date", "2026-05-02", "--profile", "ben").status == 0)

            // validate: Aki's sync reports both conflicts with both versions, sends nothing, exits 6
            let sync = try await trip.run("sync", "--server", online)
            #expect(sync.status == 6, "\(sync.output)\(sync.error)")
            #expect(sync.lines.first == "Sent 0, refused 0, conflicts 2, still queued 1.", "\(sync.output)")
            #expect(sync.output.contains("yours:  amount 3600"), "\(sync.output)")
            #expect(sync.output.contains("server: version 2: \"Taxi to Shinjuku\" 3000 JPY"), "\(sync.output)")
            #expect(sync.output.contains("yours:  delete it"))
            #expect(sync.output.contains("server: version 2: \"Hotel\" 30000 JPY on 2026-05-02"))
            // Ben's edits stand on the server; nothing of Aki's overwrote them
            let serverTaxi = try await trip.expense(taxi, profile: "ben")
            #expect(
                serverTaxi["description"] as? String == "Taxi to Shinjuku" && serverTaxi["amount"] as? String == "3000")
            #expect(try await trip.expense(hotel, profile: "ben")["isDeleted"] as? Bool == false)
            // Aki's changes are kept: status shows the conflicts (both sides) and the payment waiting
            let status = try #require(try await trip.json("status") as? [String: Any])
            let conflicts = try #require(status["conflicts"] as? [[String: Any]])
            #expect(conflicts.count == 2)
            let taxiConflict = try #require(conflicts.first { $0["kind"] as? String == "updateExpense" })
            #expect((taxiConflict["yourChanges"] as? [String: Any])?["amount"] as? String == "3600")
            #expect((taxiConflict["server"] as? [String: Any])?["description"] as? String == "Taxi to Shinjuku")
            #expect(taxiConflict["baseVersion"] as? Int == 1)
            let pending = try #require(status["pending"] as? [[String: Any]])
            #expect(pending.map { $0["kind"] as? String } == ["setSharePayment"])
            let human = try await trip.run("status")
            #expect(human.output.contains("Conflicts: 2") && human.output.contains("(waits for"), "\(human.output)")
            // A second sync without resolving sends nothing: the payment waits for the taxi's edit.
            let again = try await trip.run("sync")
            #expect(again.status == 6 && again.lines.first == "Sent 0, refused 0, conflicts 2, still queued 1.")

            // act: Aki keeps her amount on top of Ben's version, and lets Ben's hotel date win
            let taxiOp = try #require(taxiConflict["id"] as? String)
            let hotelOp = try #require(conflicts.first { $0["kind"] as? String == "deleteExpense" }?["id"] as? String)
            let resolved = try await trip.run("sync", "--force", String(taxiOp.suffix(8)), "--discard", hotelOp)
            #expect(resolved.status == 0, "\(resolved.output)\(resolved.error)")
            #expect(resolved.lines.contains("Sent 2, refused 0, conflicts 0, still queued 0."), "\(resolved.output)")

            // validate: both edits are in the taxi, Aki's share is paid, the hotel lives with Ben's date
            let merged = try await trip.expense(taxi, profile: "ben")
            #expect(merged["description"] as? String == "Taxi to Shinjuku" && merged["amount"] as? String == "3600")
            let shares = try #require(merged["splits"] as? [[String: Any]])
            #expect(shares.filter { $0["isPaid"] as? Bool == true }.count == 1)
            #expect(merged["version"] as? Int == 4, "Ben's edit, Aki's edit, Aki's payment")
            let liveHotel = try await trip.expense(hotel, profile: "ben")
            #expect(liveHotel["isDeleted"] as? Bool == false && liveHotel["expenseDate"] as? String == "2026-05-02")
            let history = try #require(try await trip.json("history", taxi) as? [[String: Any]])
            #expect(history.map { $0["reason"] as? String } == ["coins"])
            #expect(try await trip.run("status").output.hasPrefix("Queued: 0\nLast sync:"))
        }
    }

    /// Aki and Ben in Japan (`setUpJapan`), and Ben's 3000 yen taxi; its id.
    static func bensTaxi(_ trip: CLITrip) async throws -> String {
        try await trip.setUpJapan()
        #expect(
            try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--paid-by", "ben", "--profile", "ben")
                .status == 0)
        return try await trip.expenseID("Taxi")
    }

    @Test("replaying a queue of an edit and a payment a second time changes nothing and reports no conflict")
    func replayEdits() async throws {
        try await CLITrip.with { trip in
            // setup: Ben's taxi, seen by Aki; Aki, offline, edits it and pays her share
            let taxi = try await Self.bensTaxi(trip)
            let online = trip.url
            #expect(
                try await trip.run(
                    "expense", "edit", taxi, "--amount", "3600", "--description", "Taxi home", "--server",
                    try CLITrip.unreachableURL()
                ).output.contains("queued"))
            #expect(try await trip.run("pay", taxi, "--reason", "coins").output.contains("queued"))
            let queue = trip.config.appendingPathComponent("profiles/default/offline.sqlite")
            let copy = trip.config.appendingPathComponent("queue-copy.sqlite")
            try FileManager.default.copyItem(at: queue, to: copy)
            let first = try await trip.run("sync", "--server", online)
            #expect(
                first.lines.first == "Sent 2, refused 0, conflicts 0, still queued 0.", "\(first.output)\(first.error)")
            #expect(try await trip.expense(taxi)["version"] as? Int == 3)

            // act: the same queue is sent again (an answer lost, a backup restored)
            try FileManager.default.removeItem(at: queue)
            try FileManager.default.copyItem(at: copy, to: queue)
            let replay = try await trip.run("sync")

            // validate: the server already is as the edit wanted; nothing changes, nothing conflicts
            #expect(replay.status == 0, "\(replay.output)\(replay.error)")
            #expect(replay.lines.first == "Sent 2, refused 0, conflicts 0, still queued 0.", "\(replay.output)")
            let after = try await trip.expense(taxi, profile: "ben")
            #expect(after["version"] as? Int == 3 && after["amount"] as? String == "3600")
            #expect(try #require(try await trip.json("history", taxi) as? [[String: Any]]).count == 1)
        }
    }

    @Test("a conflict that a paid mark made says which shares are paid (the two versions read alike)")
    func paidMarkConflict() async throws {
        try await CLITrip.with { trip in
            let taxi = try await Self.bensTaxi(trip)
            _ = try await trip.expense(taxi)  // Aki has seen it at version 1
            let edit = try await trip.run(
                "expense", "edit", taxi, "--description", "Taxi home", "--server", try CLITrip.unreachableURL())
            #expect(edit.output.contains("queued"), "\(edit.output)\(edit.error)")
            // Ben, online, marks Cho's share paid: the expense's version moves.
            #expect(try await trip.run("pay", taxi, "--member", "Cho", "--profile", "ben").status == 0)
            let sync = try await trip.run("sync", "--server", trip.url)
            #expect(sync.status == 6, "\(sync.output)\(sync.error)")
            #expect(sync.output.contains("Cho 1000 (paid)") && sync.output.contains("Aki 1000,"), "\(sync.output)")
        }
    }

    @Test("an offline payment of a share whose expense someone changed meanwhile is a conflict; nothing is paid")
    func paymentConflict() async throws {
        try await CLITrip.with { trip in
            let taxi = try await Self.bensTaxi(trip)
            _ = try await trip.expense(taxi)  // Aki has seen it at version 1
            // Aki, offline, pays her share of 3000; Ben, online, makes the taxi 30000.
            let pay = try await trip.run("pay", taxi, "--reason", "coins", "--server", try CLITrip.unreachableURL())
            #expect(pay.output.contains("queued"), "\(pay.output)\(pay.error)")
            #expect(
                try await trip.run("expense", "edit", taxi, "--amount", "30000", "--profile", "ben").status == 0)

            let sync = try await trip.run("sync", "--server", trip.url)
            // Found by review: the payment was sent without its version, so the server marked the
            // share paid at its new amount, a transfer ten times what Aki paid.
            #expect(sync.status == 6, "\(sync.output)\(sync.error)")
            #expect(sync.lines.first == "Sent 0, refused 0, conflicts 1, still queued 0.", "\(sync.output)")
            let server = try await trip.expense(taxi, profile: "ben")
            #expect(server["amount"] as? String == "30000" && server["version"] as? Int == 2)
            let shares = try #require(server["splits"] as? [[String: Any]])
            // The conflict says what --force would mark paid now, and every share (found by a new
            // user: a cash payment was forced into a larger transfer, and nothing said so).
            let japan = try await trip.json("group", "show", "Japan") as? [String: Any]
            let akiID = try #require((japan?["group"] as? [String: Any])?["myMemberId"] as? String)
            let akiShare = try #require(shares.first { $0["memberId"] as? String == akiID }?["amount"] as? String)
            #expect(sync.output.contains("now:    Aki's share is \(akiShare) JPY; --force marks that much paid"), "\(sync.output)")
            #expect(sync.output.contains("shares: Aki \(akiShare), Ben 10000, Cho 10000"), "\(sync.output)")
            #expect(shares.allSatisfy { $0["isPaid"] as? Bool == false }, "\(shares)")
            #expect(try #require(try await trip.json("history", taxi) as? [[String: Any]]).isEmpty)
        }
    }

    @Test("an offline payment of a share its member has since covered themselves: no --force advised, and forced it is refused, kept for --discard")
    func paymentNowCovered() async throws {
        try await CLITrip.with { trip in
            let taxi = try await Self.bensTaxi(trip)
            _ = try await trip.expense(taxi)
            // Aki, offline, pays her share; Ben makes Aki pay 2000 of the 3000 (her share is 1000).
            let pay = try await trip.run("pay", taxi, "--server", try CLITrip.unreachableURL())
            #expect(pay.output.contains("queued"), "\(pay.output)\(pay.error)")
            let edit = try await trip.run("expense", "edit", taxi, "--paid-by", "aki=2000,ben=1000", "--profile", "ben")
            try #require(edit.status == 0, "\(edit.error)")
            let sync = try await trip.run("sync", "--server", trip.url)
            #expect(sync.status == 6, "\(sync.output)\(sync.error)")
            #expect(sync.output.contains("You paid at least your own share of Taxi: there is nothing to settle. Discard it."),
                "\(sync.output)")
            // Not in the header either: only --discard is said.
            #expect(!sync.output.contains("--force"), "\(sync.output)")
            #expect(sync.output.contains("Conflicts: 1 (resolve with `splitter sync --discard <op>`)"), "\(sync.output)")
            // Forced anyway: the server refuses; it is kept as refused (exit 7), not as a conflict.
            let op = try #require(sync.output.split(separator: "\n").first { $0.contains("mark Aki's share") }?
                .split(separator: " ").first.map(String.init))
            let forced = try await trip.run("sync", "--force", op)
            #expect(forced.status == 7, "\(forced.output)\(forced.error)")
            #expect(forced.lines.first == "Sent 0, refused 1, conflicts 0, still queued 0.", "\(forced.output)")
            #expect(try await trip.run("sync", "--discard", op).status == 0)
        }
    }

    @Test("a profile's offline changes go only as the account that made them: another login there waits for them")
    func queueKeepsItsAccount() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's profile holds a copy of Japan and of a group of hers alone
            try await trip.setUpJapan()
            try #require(try await trip.run("group", "create", "Aki alone", "--currency", "JPY").status == 0)
            try #require(try await trip.run("sync").status == 0)
            let online = trip.url
            let offline = try CLITrip.unreachableURL()

            // act: Aki, offline, adds a taxi (paid by herself, unsaid); then Ben logs in on her profile
            let added = try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--server", offline)
            try #require(added.status == 0 && added.output.contains("queued"), "\(added.output)\(added.error)")
            let configFile = trip.config.appendingPathComponent("profiles/default/config.json")
            let savedConfig = try Data(contentsOf: configFile)
            let ben = try await trip.run(
                "login", "ben@example.com", "--password-stdin", "--server", online, stdin: "correct horse")

            // validate: refused with exit 6, saying why and what to do; the profile is still Aki's,
            // with her server (her token is never sent to one given by the refused login)
            // Found by review: Ben's next sync sent Aki's queue as his.
            #expect(ben.status == 6, "\(ben.output)\(ben.error)")
            #expect(ben.error.contains("offline copy is Aki's, with 1 change made offline"), "\(ben.error)")
            #expect(ben.error.contains("Log in here as Aki"), "\(ben.error)")
            #expect(try Data(contentsOf: configFile) == savedConfig)
            #expect(try await trip.run("whoami", "--server", online).output.hasPrefix("Aki ("))
            // Registering a new account there is refused before the account is made.
            let cy = try await trip.run(
                "register", "--email", "cy@example.com", "--name", "Cy", "--password-stdin", stdin: "correct horse")
            #expect(cy.status == 6 && cy.error.contains("Aki's"), "\(cy.output)\(cy.error)")
            let cyElsewhere = try await trip.run(
                "register", "--profile", "cy", "--server", online, "--email", "cy@example.com", "--name", "Cy",
                "--password-stdin", stdin: "correct horse")
            #expect(cyElsewhere.status == 0, "the address was taken by the refused registration: \(cyElsewhere.error)")
            // A token of Ben's put there otherwise (a copied file): sync refuses the same way, sends nothing.
            let profiles = trip.config.appendingPathComponent("profiles")
            let akisToken = try Data(contentsOf: profiles.appendingPathComponent("default/token"))
            try Data(contentsOf: profiles.appendingPathComponent("ben/token"))
                .write(to: profiles.appendingPathComponent("default/token"))
            let bensSync = try await trip.run("sync")
            #expect(bensSync.status == 6 && bensSync.error.contains("Aki's"), "\(bensSync.output)\(bensSync.error)")
            try akisToken.write(to: profiles.appendingPathComponent("default/token"))
            #expect((try await trip.json("expense", "list", "Japan", "--profile", "ben") as? [[String: Any]])?.isEmpty == true)
            // Aki's sync sends it as hers: Aki paid, Aki entered it
            let sync = try await trip.run("sync")
            #expect(sync.lines.first == "Sent 1, refused 0, conflicts 0, still queued 0.", "\(sync.output)\(sync.error)")
            let group = try #require((try await trip.json("group", "show", "Japan") as? [String: Any])?["group"] as? [String: Any])
            let taxi = try await trip.expense(try await trip.expenseID("Taxi"))
            let aki = try #require(try await trip.json("whoami") as? [String: Any])
            #expect(
                (taxi["payers"] as? [[String: Any]])?.map { $0["memberId"] as? String } == [group["myMemberId"] as? String],
                "\(taxi)")
            #expect(taxi["createdByUserId"] as? String == aki["id"] as? String, "\(taxi)")

            // act: with nothing left queued, Ben may log in on this profile
            let again = try await trip.run("login", "ben@example.com", "--password-stdin", stdin: "correct horse")
            #expect(again.status == 0 && again.output == "Logged in as Ben.\n", "\(again.output)\(again.error)")
            // validate: Aki's copy left with her; offline, Ben's profile knows nothing of her group
            try await trip.server.stop {
                let mine = try await trip.run("balances", "Aki alone")
                #expect(mine.status == 9 && !mine.error.contains("Offline: computed"), "\(mine.output)\(mine.error)")
            }
            #expect(try OfflineStore(path: trip.config.appendingPathComponent("profiles/default/offline.sqlite").path)
                .cachedGroups().isEmpty)
        }
    }

    @Test("a write whose answer a gateway lost (504) is queued with its id and key; sync does it once, not twice")
    func gatewayLostAnswer() async throws {
        try await CLITrip.with { trip in
            // setup: Aki has a copy of Japan (its members), and reaches the server through a proxy
            // that loses every answer
            try await trip.setUpJapan()
            try #require(try await trip.run("sync").status == 0)
            let proxy = try TCPProxy(to: UInt16(try #require(trip.server.baseURL.port)))
            defer { proxy.stop() }
            proxy.loseAnswers(true)
            let through = try proxy.url.absoluteString
            // The SDK reads the gateway's page as "unknown outcome", not as a server failure.
            let viaProxy = SplitterClient(
                serverURL: try proxy.url,
                tokens: FileTokenStore(path: trip.config.appendingPathComponent("profiles/default/token").path))
            do {
                _ = try await viaProxy.me()
                Issue.record("a 504 page was read as an answer")
            } catch SplitterError.offline(let message) {
                #expect(message.contains("HTTP 504"), "\(message)")
            }

            // act: a taxi and a transfer; each reaches the server, each answer is a 504 page
            // Found by review: a 502/504 failed the command, and running it again made a second one.
            let taxi = try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--server", through)
            #expect(taxi.status == 0 && taxi.output.contains("Offline: Taxi is queued"), "\(taxi.output)\(taxi.error)")
            let settle = try await trip.run("settle", "Japan", "--from", "ben", "--to", "aki", "500")
            #expect(settle.status == 0 && settle.output.contains("queued"), "\(settle.output)\(settle.error)")
            // both were done already: Ben sees them
            let seen = try await trip.run("balances", "Japan", "--profile", "ben")
            #expect(seen.row("Ben", "-500") != nil && seen.row("Aki", "1500") != nil, "\(seen.output)")

            // act: the proxy answers again; Aki syncs
            proxy.loseAnswers(false)
            let sync = try await trip.run("sync")

            // validate: both replayed as done, nothing twice
            #expect(sync.lines.first == "Sent 2, refused 0, conflicts 0, still queued 0.", "\(sync.output)\(sync.error)")
            let after = try await trip.run("balances", "Japan", "--profile", "ben")
            #expect(after.row("Ben", "-500") != nil && after.row("Aki", "1500") != nil, "\(after.output)")
            let list = try #require(try await trip.json("expense", "list", "Japan", "--profile", "ben") as? [[String: Any]])
            #expect(list.count == 1, "\(list)")
        }
    }

    @Test("a session revoked in the middle of a sync stops it with exit 3 and keeps the rest of the queue")
    func revokedMidSync() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's group (cached while online); six expenses queued while the server is away
            try await trip.setUpJapan()
            try #require(try await trip.run("expense", "add", "Japan", "Online", "1000").status == 0)
            try await trip.restartServer()
            let offline = try CLITrip.unreachableURL()
            for index in 1...6 {
                let queued = try await trip.run("expense", "add", "Japan", "Meal \(index)", "100", "--server", offline)
                try #require(queued.output.contains("queued"), "\(queued.output)\(queued.error)")
            }
            // The same session also lives in a second profile (as on a second device).
            let profiles = trip.config.appendingPathComponent("profiles")
            try FileManager.default.createDirectory(
                at: profiles.appendingPathComponent("phone"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: profiles.appendingPathComponent("default/token"),
                to: profiles.appendingPathComponent("phone/token"))
            #expect(try await trip.run("whoami", "--profile", "phone", "--server", trip.url).output.hasPrefix("Aki"))

            // act: sync, three new expenses per request; before its second batch (its third request:
            // the first asks whose session it is), the session is logged out from the other profile
            let config = trip.config
            let tokens = RevokingTokenStore(
                FileTokenStore(path: profiles.appendingPathComponent("default/token").path), beforeLoad: 3
            ) {
                _ = try? CLITests.splitterNow(["logout", "--profile", "phone"], config: config)
            }
            let store = try OfflineStore(path: profiles.appendingPathComponent("default/offline.sqlite").path)
            let client = SplitterClient(serverURL: try #require(URL(string: trip.url)), tokens: tokens)
            let report = try await SyncEngine(client: client, store: store, batchSize: 3).push()

            // validate: three went through, the session's end stopped the rest, which are kept in order
            #expect(report.sent == 3 && report.remaining == 3, "\(report)")
            guard case .unauthorized = report.stoppedBecause else {
                Issue.record("expected unauthorized, got \(String(describing: report.stoppedBecause))")
                return
            }
            #expect(try store.pending().map(\.summary) == (4...6).map { "expense Meal \($0) 100 JPY in Japan" })
            // The command line says so clearly, with the exit code for "not logged in", and keeps the queue.
            let sync = try await trip.run("sync", "--server", trip.url)
            #expect(sync.status == 3, "\(sync.output)\(sync.error)")
            #expect(sync.error == "splitter: Not logged in, or the session ended: run `splitter login`.\n")
            #expect(sync.output == "Sent 0, refused 0, conflicts 0, still queued 3.\n")
            #expect(try await trip.run("status").output.contains("Queued: 3"))
            let seen = try #require(
                try await trip.json("expense", "list", "Japan", "--profile", "ben", "--server", trip.url)
                    as? [[String: Any]])
            #expect(Set(seen.compactMap { $0["description"] as? String }) == ["Online", "Meal 1", "Meal 2", "Meal 3"])

            // After logging in again the rest goes, each expense exactly once.
            #expect(
                try await trip.run("login", "aki@example.com", "--password-stdin", stdin: "correct horse").status == 0)
            let resumed = try await trip.run("sync")
            #expect(resumed.status == 0 && resumed.output.hasPrefix("Sent 3,"), "\(resumed.output)\(resumed.error)")
            let all = try #require(
                try await trip.json("expense", "list", "Japan", "--profile", "ben") as? [[String: Any]])
            #expect(
                all.compactMap { $0["description"] as? String }.sorted() == [
                    "Meal 1", "Meal 2", "Meal 3", "Meal 4", "Meal 5", "Meal 6", "Online",
                ])
        }
    }
}

/// A token store that runs `revoke` just before handing out the token for the `beforeLoad`-th
/// request: the session ends between two requests of one sync, deterministically.
final class RevokingTokenStore: TokenStore, @unchecked Sendable {
    // `loads` is guarded by `lock`; `inner` and `revoke` are immutable. That is why it may be shared.
    private let lock = NSLock()
    private var loads = 0
    private let inner: any TokenStore
    private let beforeLoad: Int
    private let revoke: @Sendable () -> Void

    init(_ inner: any TokenStore, beforeLoad: Int, revoke: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.beforeLoad = beforeLoad
        self.revoke = revoke
    }

    func load() throws -> String? {
        let count = lock.withLock {
            loads += 1
            return loads
        }
        if count == beforeLoad { revoke() }
        return try inner.load()
    }

    func save(_ token: String?) throws { try inner.save(token) }
}
