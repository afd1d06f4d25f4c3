import Foundation
import SplitTestSupport
import Testing

/// Looking after a group from the command line (found by a new user: a transfer recorded by
/// mistake, a group to rename or archive, a category to add could only be done in the web app).
@Suite("splitter group edit/archive, category, transfers")
struct ManageCommandTests {
    @Test("group edit renames and changes the currency; archive stops changes until unarchive; a member may not")
    func editAndArchive() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // Nothing to change is said before anything is sent.
            let nothing = try await trip.run("group", "edit", "Japan")
            #expect(nothing.status != 0 && nothing.error.contains("Say what to change"), "\(nothing.error)")
            // act: renamed, described, another time zone
            let edited = try await trip.run(
                "group", "edit", "Japan", "--name", "Japan 2026", "--description", "Spring trip", "--time-zone",
                "Asia/Tokyo")
            #expect(edited.status == 0, "\(edited.error)")
            #expect(
                edited.output == "Saved Japan 2026: home currency JPY, time zone Asia/Tokyo, \"Spring trip\".\n",
                "\(edited.output)")
            #expect(try await trip.run("group", "list").output.contains("Japan 2026"))
            // Ben is a member: the server refuses him, and says so.
            let benEdit = try await trip.run("group", "edit", "Japan 2026", "--name", "Mine", "--profile", "ben")
            #expect(benEdit.status == 4, "\(benEdit.status) \(benEdit.error)")
            let benArchive = try await trip.run("group", "archive", "Japan 2026", "--profile", "ben")
            #expect(benArchive.status == 4, "\(benArchive.status) \(benArchive.error)")
            // act: archived; an expense is then refused; unarchived, it is taken
            let archived = try await trip.run("group", "archive", "Japan 2026")
            #expect(archived.status == 0 && archived.output.contains("Archived Japan 2026"), "\(archived.error)")
            #expect(archived.output.contains("splitter group unarchive 'Japan 2026'"), "\(archived.output)")
            #expect(try await trip.run("group", "list").output.contains("Japan 2026 (archived)"))
            let shown = try await trip.run("group", "show", "Japan 2026")
            #expect(shown.output.contains("Spring trip") && shown.output.contains("Archived: nothing in it changes"), "\(shown.output)")
            #expect(!shown.output.contains("Invite code"), "\(shown.output)")
            #expect(try await trip.run("group", "archive", "Japan 2026").output == "Japan 2026 is archived already.\n")
            let refused = try await trip.run("expense", "add", "Japan 2026", "Taxi", "3000")
            #expect(refused.status == 6 && refused.error.contains("archived"), "\(refused.status) \(refused.error)")
            let back = try await trip.run("group", "unarchive", "Japan 2026")
            #expect(back.status == 0 && back.output == "Japan 2026 is active again.\n", "\(back.error)")
            #expect(try await trip.run("expense", "add", "Japan 2026", "Taxi", "3000").status == 0)
            // Handing the group over is asked first, then done; Aki is an admin after it.
            let asked = try await trip.run("member", "role", "Japan 2026", "Ben", "owner")
            #expect(asked.status == 6 && asked.error.contains("Run again with --yes"), "\(asked.error)")
            let handed = try await trip.run("member", "role", "Japan 2026", "Ben", "owner", "--yes")
            #expect(handed.status == 0 && handed.output == "Ben is now the owner of Japan 2026; you are an admin.\n", "\(handed.error)")
            let mine = (try await trip.json("group", "show", "Japan 2026") as? [String: Any])?["group"] as? [String: Any]
            #expect(mine?["myRole"] as? String == "admin", "\(String(describing: mine))")
        }
    }

    @Test("category add, list, edit and delete; an unknown one names those there are; defaults stay; a member may not")
    func categories() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let added = try await trip.run("category", "add", "Japan", "Onsen", "--icon", "♨️", "--color", "#AA3322")
            #expect(added.status == 0 && added.output == "Added ♨️ Onsen to Japan.\n", "\(added.error)")
            let listed = try await trip.json("category", "list", "Japan") as? [String: Any]
            let names = ((listed?["categories"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(names.last == "Onsen" && names.count > 1, "\(names)")
            // An expense takes it by name.
            let bath = try await trip.run("expense", "add", "Japan", "Bath", "1200", "--category", "onsen")
            #expect(bath.status == 0, "\(bath.error)")
            // act: renamed and recoloured, found by name in any case
            let edited = try await trip.run("category", "edit", "Japan", "ONSEN", "--name", "Hot springs", "--color", "#112233")
            #expect(edited.status == 0 && edited.output == "Saved ♨️ Hot springs (#112233).\n", "\(edited.error)")
            let unknown = try await trip.run("category", "edit", "Japan", "Sauna", "--name", "X")
            #expect(unknown.status == 7 && unknown.error.contains("Hot springs"), "\(unknown.error)")
            let notMine = try await trip.run("category", "add", "Japan", "Snacks", "--profile", "ben")
            #expect(notMine.status == 4, "\(notMine.status) \(notMine.error)")
            // A default one cannot be renamed or deleted: the server's answer is passed on.
            let first = try #require(names.first)
            let defaultDelete = try await trip.run("category", "delete", "Japan", first)
            #expect(defaultDelete.status == 4, "\(defaultDelete.status) \(defaultDelete.error)")
            let series = try await trip.run(
                "recurring", "add", "Japan", "Bath pass", "3000", "--every", "month", "--category", "Hot springs")
            #expect(series.status == 0, "\(series.error)")
            // act: deleted; the expense keeps showing it; the series of it is paused, and said so
            let deleted = try await trip.run("category", "delete", "Japan", "hot springs")
            #expect(deleted.status == 0 && deleted.output.contains("Deleted Hot springs"), "\(deleted.error)")
            #expect(deleted.output.contains("Paused: the recurring Bath pass"), "\(deleted.output)")
            let after = try await trip.json("category", "list", "Japan") as? [String: Any]
            #expect(((after?["categories"] as? [[String: Any]]) ?? []).count == names.count - 1)
        }
    }

    @Test("transfers lists them with names; delete takes an id's last characters; a paid mark's is left to unpay")
    func transfers() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            #expect(try await trip.run("transfers", "Japan").output == "No transfers in Japan yet.\n")
            // A profile never logged in is told so, with its login command, before any server is asked.
            for command in [["me"], ["group", "list"], ["balances", "Japan"]] {
                let never = try await CLITests.splitter(command + ["--profile", "zed"], config: trip.config)
                #expect(
                    never.status == 3
                        && never.error == "splitter: Not logged in on profile zed: run `splitter login --profile zed` (or `splitter register --profile zed` for a new account).\n",
                    "\(command): \(never.status) \(never.error)")
            }
            let mcp = try await CLITests.splitter(["mcp", "--profile", "zed"], stdin: "", config: trip.config)
            #expect(mcp.status == 3 && mcp.error.hasPrefix("splitter: Not logged in on profile zed"), "\(mcp.status) \(mcp.error)")
            // A currency none of the group's money is in is refused (the server says so), as
            // Settle up on the web offers only the group's; the home currency in any case goes.
            let euros = try await trip.run("settle", "Japan", "--from", "Ben", "--to", "Aki", "50", "--currency", "eur")
            #expect(euros.status == 7 && euros.error.contains("Nothing in Japan is in EUR; its currency"), "\(euros.error)")
            #expect(try await trip.run("transfers", "Japan").output == "No transfers in Japan yet.\n")
            try #require(
                try await trip.run("settle", "Japan", "--from", "Ben", "--to", "Aki", "5000", "--note", "cash", "--currency", "JPY")
                    .status == 0)
            try #require(try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--equal", "Aki,Cho").status == 0)
            let taxi = try await trip.expenseID("Taxi")
            try #require(try await trip.run("pay", taxi, "--member", "Cho").status == 0)
            let listed = try await trip.run("transfers", "Japan")
            #expect(listed.status == 0, "\(listed.error)")
            #expect(listed.output.contains("Ben") && listed.output.contains("5000 JPY") && listed.output.contains("cash"))
            #expect(listed.output.contains("(a paid share)"), "\(listed.output)")
            let all = try await trip.json("transfers", "Japan") as? [String: Any]
            let rows = (all?["settlements"] as? [[String: Any]]) ?? []
            let cash = try #require(rows.first { $0["note"] as? String == "cash" }?["id"] as? String)
            let share = try #require(rows.first { $0["expenseSplitId"] is String }?["id"] as? String)
            // A paid mark's transfer is undone with unpay.
            let markDelete = try await trip.run("transfers", "delete", "Japan", share)
            #expect(markDelete.status == 6 && markDelete.error.contains("Cho's share of Taxi"), "\(markDelete.error)")
            #expect(markDelete.error.contains("`splitter unpay \(taxi.suffix(8)) --member Cho`"), "\(markDelete.error)")
            let unknown = try await trip.run("transfers", "delete", "Japan", "ffffffff")
            #expect(unknown.status == 5, "\(unknown.status) \(unknown.error)")
            // act: deleted by the last eight characters of its id, as an expense is named
            let deleted = try await trip.run("transfers", "delete", "Japan", String(cash.suffix(8)))
            #expect(deleted.status == 0 && deleted.output == "Deleted: Ben paid Aki 5000 JPY.\n", "\(deleted.error)")
            // validate: listed as deleted only when asked, and Ben owes nothing he did not
            #expect(!(try await trip.run("transfers", "Japan").output.contains("cash")))
            #expect(try await trip.run("transfers", "Japan", "--deleted").output.contains("cash (deleted)"))

            // A share paid, its expense made dearer, paid again: what moved now and before is said.
            try #require(try await trip.run("expense", "add", "Japan", "Lunch", "3000", "--equal", "Aki,Ben").status == 0)
            let lunch = try await trip.expenseID("Lunch")
            try #require(try await trip.run("pay", String(lunch.suffix(8)), "--member", "Ben").status == 0)
            let dearer = try await trip.run("expense", "edit", String(lunch.suffix(8)), "--amount", "6000")
            try #require(dearer.status == 0, "\(dearer.error)")
            let again = try await trip.run("pay", String(lunch.suffix(8)), "--member", "Ben")
            #expect(again.status == 0, "\(again.error)")
            #expect(
                again.output.contains("1500 JPY moved now; 1500 JPY was paid for it before the expense changed."),
                "\(again.output)")
            // Logging out twice is done twice (the second finds no session, and says so as done).
            for _ in 0..<2 {
                let out = try await trip.run("logout", "--profile", "ben")
                #expect(out.status == 0 && out.output == "Logged out.\n", "\(out.status) \(out.error)")
            }
        }
    }
}
