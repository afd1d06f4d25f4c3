import Foundation
import SplitClient
import SplitTestSupport
import Testing

/// `splitter sync` reads the change feed into the offline copy; with the server gone, balances
/// and plans are computed on the device with SplitCore and match what the server said.
@Suite("splitter offline copy from the change feed")
struct OfflineCopyTests {
    @Test(
        "after a sync, balances and plans computed offline equal the server's, and deletions made elsewhere are applied"
    )
    func balancesOffline() async throws {
        try await CLITrip.with { trip in
            // setup: expenses in two currencies, a refund, a paid share, a settlement; Aki has seen
            // "Mistake"
            try await trip.setUpJapan()
            for arguments in [
                ["Hotel", "30000", "--paid-by", "aki=20000,ben=10000"],
                ["Dinner", "9000", "--paid-by", "ben", "--shares", "aki=2,ben=1,cho=1"],
                ["Gift", "12.50", "--currency", "USD", "--paid-by", "cho", "--equal", "aki,cho"],
                ["Mistake", "777", "--paid-by", "ben"],
                // Found by review: a refund's amounts are below zero, and the offline ledger
                // refused them, so a group with one had no offline balances at all.
                ["Deposit back", "3000", "--refund", "--paid-by", "ben", "--equal", "aki,ben"],
            ] {
                let added = try await CLITests.splitter(
                    ["expense", "add", "Japan"] + arguments + ["--profile", "ben"], config: trip.config)
                try #require(added.status == 0, "\(added.error)")
            }
            let dinner = try await trip.expenseID("Dinner")
            let mistake = try await trip.expenseID("Mistake")
            #expect(try await trip.run("pay", dinner, "--reason", "cash").status == 0)
            #expect(try await trip.run("settle", "Japan", "--from", "cho", "--to", "aki", "5500").status == 0)

            // act: the first sync copies everything; Ben then deletes "Mistake" and adds "Late";
            // the next sync brings only those two changes
            let first = try await trip.run("sync")
            #expect(first.status == 0, "\(first.error)")
            #expect(try await trip.run("expense", "delete", mistake, "--profile", "ben").status == 0)
            #expect(
                try await trip.run("expense", "add", "Japan", "Late", "1200", "--paid-by", "cho", "--profile", "ben")
                    .status == 0)
            let second = try await trip.run("sync")
            #expect(second.lines.last == "Pulled 2 changes in 1 group.", "\(second.output)\(second.error)")
            // The copy is as of its last complete pull, which the offline note names; a push alone
            // (the SDK's) moves only the last sync. Found by review: the note named the push's time.
            let profile = trip.config.appendingPathComponent("profiles/default")
            let store = try OfflineStore(path: profile.appendingPathComponent("offline.sqlite").path)
            let japan = try #require((try await trip.json("group", "show", "Japan") as? [String: Any])?["group"] as? [String: Any])
            let japanID = try #require(japan["id"] as? String)
            let pulled = try #require(try store.pulledAt(groupID: japanID))
            let client = SplitterClient(
                serverURL: try #require(URL(string: trip.url)),
                tokens: FileTokenStore(path: profile.appendingPathComponent("token").path))
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await SyncEngine(client: client, store: store).push().sent == 0)
            #expect(try store.pulledAt(groupID: japanID) == pulled)
            #expect(try #require(try store.lastSync) > pulled)
            let onlineBalances = try #require(
                (try await trip.json("balances", "Japan") as? [String: Any])?["balances"] as? [[String: String]])
            let onlinePlan = try await trip.run("plan", "Japan")
            let onlineUSD = try await trip.run("plan", "Japan", "--currency", "USD")
            let onlineTable = try await trip.run("balances", "Japan")
            #expect(
                onlinePlan.lines.count >= 3 && onlineUSD.lines.count == 2
                    && onlineUSD.lines.last
                        == "Also open in JPY: add --currency JPY (with an exchange rate for each, `splitter rates set`, --home settles everything in JPY).",
                "\(onlinePlan.output)\(onlineUSD.output)")

            // validate: with the server gone, the device gives the same answers from its copy
            try await trip.server.stop {
                let offline = try await trip.run("balances", "Japan", "--json")
                #expect(offline.status == 0, "\(offline.error)")
                #expect(offline.error.hasPrefix("Offline: computed on this device"), "\(offline.error)")
                let offlineBalances = try #require(
                    (try JSONSerialization.jsonObject(with: Data(offline.output.utf8)) as? [String: Any])?["balances"]
                        as? [[String: String]])
                #expect(offlineBalances == onlineBalances)
                #expect(Set(offlineBalances.map { $0["currency"] ?? "" }) == ["JPY", "USD"])
                #expect(
                    try await trip.run("balances", "Japan").output.hasPrefix(onlineTable.output.split(separator: "\n\n")[0])
                )
                // The same plan; --home, which needs the server, is not offered offline.
                func withoutHome(_ text: String) -> String {
                    text.replacingOccurrences(
                        of: " (with an exchange rate for each, `splitter rates set`, --home settles everything in JPY).", with: ".")
                }
                #expect(try await trip.run("plan", "Japan").output == withoutHome(onlinePlan.output))
                // The groups too, as this device last saw them, saying so (it exited 9).
                let groups = try await trip.run("group", "list")
                #expect(groups.status == 0 && groups.output.contains("Japan"), "\(groups.error)")
                #expect(groups.error.hasPrefix("Offline: your groups as this device last saw them"), "\(groups.error)")
                let me = try await trip.run("me")
                #expect(me.status == 9 && me.error.contains("`splitter balances GROUP`"), "\(me.error)")
                #expect(try await trip.run("plan", "Japan", "--currency", "USD").output == withoutHome(onlineUSD.output))
                // A transfer in a currency none of the copy's money is in is refused, as the
                // server would; one in USD (an expense's) would be queued.
                let euros = try await trip.run("settle", "Japan", "--from", "cho", "--to", "aki", "5", "--currency", "EUR")
                #expect(euros.status == 7 && euros.error.contains("Nothing in Japan is in EUR; it is in JPY, USD."), "\(euros.error)")
                // The deletion made elsewhere is applied to the copy; the new expense is in it.
                let list = try await trip.run("expense", "list", "Japan")
                #expect(list.row("Mistake") == nil && list.row("Late") != nil && list.lines.count == 6, "\(list.output)")
                #expect(try await trip.expense(mistake)["isDeleted"] as? Bool == true)

                // An expense queued offline is not in the copy's balances yet, and the note says so.
                #expect(try await trip.run("expense", "add", "Japan", "Taxi", "3000").output.contains("queued"))
                let withQueued = try await trip.run("balances", "Japan", "--json")
                #expect(withQueued.error.contains("1 queued change is not in it yet"), "\(withQueued.error)")
                #expect(
                    (try JSONSerialization.jsonObject(with: Data(withQueued.output.utf8)) as? [String: Any])?["balances"]
                        as? [[String: String]] == onlineBalances)
                // An expense in EUR queued first makes EUR the group's by the time a transfer in it
                // is sent: the transfer is queued too (found by review: it was refused).
                #expect(try await trip.run("expense", "add", "Japan", "Crepe", "6", "--currency", "EUR").output.contains("queued"))
                let eurosNow = try await trip.run("settle", "Japan", "--from", "cho", "--to", "aki", "3", "--currency", "EUR")
                #expect(eurosNow.status == 0 && eurosNow.output.contains("queued"), "\(eurosNow.output)\(eurosNow.error)")
            }
        }
    }
}
