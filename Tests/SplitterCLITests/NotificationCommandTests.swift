import Foundation
import SplitClient
import Testing

/// `splitter notifications` and the SDK's inbox calls: the real binary and client against the
/// real server, with two accounts in one group.
@Suite("splitter notifications")
struct NotificationCommandTests {
    @Test("an expense Aki shares with Ben reaches Ben's inbox; read --all empties it; level none stops new ones")
    func inboxFromTheCommandLine() async throws {
        try await CLITrip.with { trip in
            // setup: Aki and Ben in Japan; Aki adds an expense shared with Ben
            try await trip.setUpJapan()
            let added = try await trip.run(
                "expense", "add", "Japan", "Dinner", "9000", "--paid-by", "aki", "--equal", "aki,ben")
            try #require(added.status == 0, "\(added.error)")
            let dinnerID = try await trip.expenseID("Dinner")

            // act + validate: Ben's inbox lists it, unread, for people and as JSON
            let listed = try await trip.run("notifications", "--profile", "ben")
            #expect(listed.status == 0, "\(listed.error)")
            let row = try #require(listed.row("Aki added Dinner"), "\(listed.output)")
            #expect(row.contains("*") && row.contains("Japan"), "\(row)")
            #expect(listed.lines.first?.hasPrefix("WHEN") == true, "\(listed.output)")
            #expect(listed.output.contains("unread; `splitter notifications read --all`"), "\(listed.output)")
            let inbox = try #require(try await trip.json("notifications", "--profile", "ben") as? [String: Any])
            let items = try #require(inbox["notifications"] as? [[String: Any]])
            let dinner = try #require(items.first { $0["entityId"] as? String == dinnerID }, "\(items)")
            #expect(dinner["action"] as? String == "expense.created" && dinner["read"] as? Bool == false, "\(dinner)")
            #expect(dinner["groupName"] as? String == "Japan" && dinner["actorName"] as? String == "Aki", "\(dinner)")
            #expect((inbox["unread"] as? Int ?? 0) >= 1 && inbox["more"] as? Bool == false, "\(inbox)")
            // Never your own actions: Aki's inbox does not have it.
            let akis = try #require(try await trip.json("notifications") as? [String: Any])
            #expect(
                !((akis["notifications"] as? [[String: Any]]) ?? []).contains { $0["entityId"] as? String == dinnerID },
                "\(akis)")

            // read --all: nothing unread left
            let read = try await trip.run("notifications", "read", "--all", "--profile", "ben")
            #expect(read.status == 0 && read.output == "All marked read.\n", "\(read.output)\(read.error)")
            let afterRead = try #require(try await trip.json("notifications", "--profile", "ben") as? [String: Any])
            #expect(afterRead["unread"] as? Int == 0, "\(afterRead)")
            let unreadOnly = try await trip.run("notifications", "--unread", "--profile", "ben")
            #expect(unreadOnly.output == "No unread notifications.\n", "\(unreadOnly.output)\(unreadOnly.error)")
            #expect(
                try await trip.run("notifications", "--profile", "ben").row("Aki added Dinner")?.contains("*") == false)

            // settings: mine by default; none, and a new expense shared with Ben adds nothing
            let shown = try await trip.run("notifications", "settings", "--group", "japan", "--profile", "ben")
            #expect(shown.status == 0 && shown.output.hasPrefix("Japan: mine"), "\(shown.output)\(shown.error)")
            let none = try await trip.json(
                "notifications", "settings", "--group", "Japan", "--level", "none", "--profile", "ben")
            #expect((none as? [String: Any])?["level"] as? String == "none", "\(none)")
            #expect(
                try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--paid-by", "aki", "--equal", "aki,ben")
                    .status == 0)
            let quiet = try #require(try await trip.json("notifications", "--profile", "ben") as? [String: Any])
            let quietItems = try #require(quiet["notifications"] as? [[String: Any]])
            #expect(quiet["unread"] as? Int == 0, "\(quiet)")
            #expect(!quietItems.contains { ($0["summary"] as? String)?.contains("Taxi") == true }, "\(quietItems)")
            #expect(quietItems.count == items.count, "\(quietItems)")

            // all: even what does not concern Ben (an expense only Aki and Cho share) arrives
            #expect(
                try await trip.run(
                    "notifications", "settings", "--group", "japan", "--level", "ALL", "--profile", "ben"
                )
                .output.hasPrefix("Japan: all"))
            #expect(
                try await trip.run("expense", "add", "Japan", "Tea", "600", "--paid-by", "aki", "--equal", "aki,cho")
                    .status == 0)
            let everything = try await trip.run("notifications", "--unread", "--profile", "ben")
            #expect(everything.row("Aki added Tea")?.contains("*") == true, "\(everything.output)\(everything.error)")

            // A level that is not one is a clear error (bad command line), and nothing changes.
            let bad = try await trip.run(
                "notifications", "settings", "--group", "japan", "--level", "loud", "--profile", "ben")
            #expect(bad.status == 2 && bad.error.contains("all, mine or none"), "\(bad.error)")
            let still = try await trip.run("notifications", "settings", "--group", "japan", "--profile", "ben")
            #expect(still.output.hasPrefix("Japan: all"), "\(still.output)")
            // So is a group that is not one of yours.
            let nowhere = try await trip.run("notifications", "settings", "--group", "Peru", "--profile", "ben")
            #expect(nowhere.status == 5 && nowhere.error.contains("Peru"), "\(nowhere.error)")
        }
    }

    @Test("read takes ids or their first characters; --limit shows the newest and says more are there")
    func readByIDAndLimit() async throws {
        try await CLITrip.with { trip in
            // setup: three expenses Aki shares with Ben
            try await trip.setUpJapan()
            for name in ["One", "Two", "Three"] {
                let added = try await trip.run(
                    "expense", "add", "Japan", name, "300", "--paid-by", "aki", "--equal", "aki,ben")
                try #require(added.status == 0, "\(added.error)")
            }
            let inbox = try #require(try await trip.json("notifications", "--profile", "ben") as? [String: Any])
            let items = try #require(inbox["notifications"] as? [[String: Any]])
            let unread = try #require(inbox["unread"] as? Int)
            func id(_ name: String) throws -> String {
                try #require(
                    items.first { ($0["summary"] as? String)?.contains("added \(name) ") == true }?["id"] as? String,
                    "\(items)")
            }

            // act: one read by the short id the table shows, one by its full id
            let short = String(try id("Two").suffix(8))
            let listed = try await trip.run("notifications", "--profile", "ben")
            #expect(listed.row("Aki added Two")?.last == short, "\(listed.output)")
            let one = try await trip.run("notifications", "read", short, "--profile", "ben")
            #expect(one.status == 0 && one.output == "Marked read; \(unread - 1) unread left.\n", "\(one.output)\(one.error)")
            let two = try #require(
                try await trip.json("notifications", "read", try id("One"), "--profile", "ben") as? [String: Any])
            #expect(two["unread"] as? Int == unread - 2, "\(two)")

            // validate: only Three is still unread
            let left = try await trip.run("notifications", "--unread", "--profile", "ben")
            #expect(left.row("Aki added Three") != nil && left.row("Aki added Two") == nil, "\(left.output)")
            #expect(left.row("Aki added One") == nil, "\(left.output)")

            // Unknown, too short, both ids and --all, neither: each refused with its exit code.
            let unknown = try await trip.run("notifications", "read", "ffffffff", "--profile", "ben")
            #expect(unknown.status == 5 && unknown.error.contains("ffffffff"), "\(unknown.error)")
            #expect(try await trip.run("notifications", "read", "ab", "--profile", "ben").status == 2)
            #expect(try await trip.run("notifications", "read", short, "--all", "--profile", "ben").status == 2)
            #expect(try await trip.run("notifications", "read", "--profile", "ben").status == 2)

            // --limit: the newest only, and a line saying there are more; --all: every one.
            let newest = try await trip.run("notifications", "--limit", "2", "--profile", "ben")
            #expect(newest.lines.count == 5 && newest.row("Aki added Three") != nil, "\(newest.output)")
            #expect(newest.output.contains("Newest 2 shown; --all lists every one."), "\(newest.output)")
            let every = try #require(
                try await trip.json("notifications", "--all", "--profile", "ben") as? [String: Any])
            #expect((every["notifications"] as? [[String: Any]])?.count == items.count, "\(every)")
            #expect(every["more"] as? Bool == false)
        }
    }

    @Test("SDK: the inbox pages with its cursor, newest first; marking read and the level answer what they did")
    func sdkPaging() async throws {
        try await CLITrip.with { trip in
            // setup: Aki adds 5 expenses (shared equally by everyone, Ben too)
            let (aki, ben, group) = try await LiveEventsTests.akiAndBen(trip)
            var added: [String] = []
            for index in 1...5 {
                added.append(try await LiveEventsTests.addExpense("Meal \(index)", by: aki, in: group).id)
            }

            // act: Ben reads the inbox two at a time
            var pages: [NotificationPage] = []
            var cursor: String?
            repeat {
                let page = try await ben.notifications(cursor: cursor, limit: 2)
                pages.append(page)
                cursor = page.nextCursor
            } while cursor != nil && pages.count < 10

            // validate: every expense once, newest first, across pages of at most 2
            let items = pages.flatMap(\.items)
            #expect(pages.count >= 3 && pages.allSatisfy { $0.items.count <= 2 }, "\(pages.map(\.items.count))")
            #expect(Set(items.map(\.id)).count == items.count, "an item came twice")
            let expenses = items.filter { $0.action == "expense.created" }
            #expect(expenses.count == 5 && Set(expenses.map(\.entityId)) == Set(added), "\(expenses.map(\.summary))")
            #expect(items.map(\.at) == items.map(\.at).sorted(by: >))
            #expect(expenses.allSatisfy { !$0.isRead && $0.groupId == group.id && $0.groupName == "Japan" })
            let unread = try #require(pages.first?.unread)
            #expect(unread == items.filter { !$0.isRead }.count)

            // Marking read answers the unread count left; all of them leaves none.
            #expect(try await ben.markNotificationsRead(ids: [expenses[0].id, expenses[1].id]) == unread - 2)
            let marked = Set([expenses[0].id, expenses[1].id])
            let after = try await ben.notifications(limit: 200).items.filter { $0.action == "expense.created" }
            #expect(after.filter(\.isRead).map(\.id).sorted() == marked.sorted(), "\(after)")
            #expect(try await ben.markAllNotificationsRead() == 0)
            #expect(try await ben.notifications().unread == 0)

            // The level: mine by default; set and read back.
            #expect(try await ben.notificationLevel(groupID: group.id) == .mine)
            #expect(try await ben.setNotificationLevel(.none, groupID: group.id) == NotificationLevel.none)
            #expect(try await ben.notificationLevel(groupID: group.id) == NotificationLevel.none)
            _ = try await LiveEventsTests.addExpense("Meal 6", by: aki, in: group)
            #expect(try await ben.notifications().unread == 0)

            // Errors map like every other call: a group that is not one of yours, a cursor the server never gave.
            await #expect(throws: SplitterError.self) {
                try await ben.notificationLevel(groupID: UUID().uuidString.lowercased())
            }
            do {
                _ = try await ben.notifications(cursor: "nonsense")
                Issue.record("a made-up cursor was accepted")
            } catch SplitterError.validation(_, let field) {
                #expect(field == "cursor")
            }
        }
    }

    @Test("notifications email shows and sets the mail settings; a server without a relay says it sends none")
    func emailSettingsFromTheCommandLine() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // act + validate: the defaults, for people and as JSON
            let shown = try await trip.run("notifications", "email")
            #expect(shown.status == 0, "\(shown.error)")
            #expect(shown.output.contains("(not verified)") && shown.output.contains("This server sends no mail."))
            #expect(shown.output.contains("a mail for each notification"), "\(shown.output)")

            // Set: a daily digest at 06:00 UTC, no expense or member mail; then members back on.
            let set = try #require(
                try await trip.json(
                    "notifications", "email", "--mode", "daily", "--off", "expenses,members", "--digest-hour", "6")
                    as? [String: Any])
            #expect(set["mode"] as? String == "daily" && set["digestHour"] as? Int == 6)
            #expect(Set((set["off"] as? [String]) ?? []) == ["expenses", "members"], "\(set)")
            let back = try #require(try await trip.json("notifications", "email", "--on", "members") as? [String: Any])
            #expect(back["off"] as? [String] == ["expenses"] && back["mode"] as? String == "daily")

            // Bad input is refused before anything is sent; the server's refusals are said plainly.
            let badMode = try await trip.run("notifications", "email", "--mode", "weekly")
            #expect(badMode.status == 2 && badMode.error.contains("each, daily or off"))
            let badKind = try await trip.run("notifications", "email", "--off", "spam")
            #expect(badKind.status == 2 && badKind.error.contains("expenses, payments, members or group"))
            let badHour = try await trip.run("notifications", "email", "--digest-hour", "24")
            #expect(badHour.status == 2)
            let noRelay = try await trip.run("notifications", "email", "--send-verification")
            #expect(noRelay.status != 0 && noRelay.error.contains("does not send mail"), "\(noRelay.error)")
            let badToken = try await trip.run("notifications", "email", "--verify", "nonsense")
            #expect(badToken.status != 0 && badToken.error.contains("verification link"), "\(badToken.error)")
        }
    }
}
