import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

/// One expense's life through the real `splitter` and `splitter-server`: show, edit, pay with a
/// reason, unpay, history, delete, restore, activity.
@Suite("splitter expense show, edit, delete, restore; pay, unpay, history, activity")
struct ExpenseCommandTests {
    @Test("with no split said, everyone but a viewer shares, as on the server; named, the viewer shares too")
    func viewers() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            try #require(try await trip.run("member", "role", "Japan", "Cho", "viewer").status == 0)

            // act: Aki, Ben and Cho (a viewer) are in Japan
            let added = try await trip.run("expense", "add", "Japan", "Tea", "900")

            // validate: Aki and Ben share it, Cho watches
            #expect(added.status == 0, "\(added.error)")
            #expect(added.output.contains("Aki 450") && added.output.contains("Ben 450") && !added.output.contains("Cho"), "\(added.output)")
            let named = try await trip.run("expense", "add", "Japan", "Cake", "900", "--equal", "aki,cho")
            #expect(named.status == 0 && named.output.contains("Cho 450"), "\(named.output)\(named.error)")
            // A name typed without its accent, as quick entry takes it (found by review).
            try #require(try await trip.run("member", "add", "Japan", "Chloé").status == 0)
            let unaccented = try await trip.run("expense", "add", "Japan", "Pie", "900", "--equal", "aki,chloe")
            #expect(unaccented.status == 0 && unaccented.output.contains("Chloé 450"), "\(unaccented.output)\(unaccented.error)")
        }
    }

    @Test("edit --adjust without --equal adjusts the expense's own sharers, not everyone")
    func adjustKeepsSharers() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            try #require(try await trip.run("expense", "add", "Japan", "Tea", "900", "--equal", "aki,ben").status == 0)
            try #require(try await trip.run("expense", "add", "Japan", "Cake", "900", "--shares", "aki=2,cho=1").status == 0)
            let tea = String(try await trip.expenseID("Tea").suffix(8))
            let cake = String(try await trip.expenseID("Cake").suffix(8))

            // act: Ben had the bigger cup; Cho the bigger slice
            let adjusted = try await trip.run("expense", "edit", tea, "--adjust", "ben=+100")
            let cakeAdjusted = try await trip.run("expense", "edit", cake, "--adjust", "cho=+300")

            // validate: still Aki and Ben (Cho was never in it), and Aki and Cho
            #expect(adjusted.status == 0, "\(adjusted.error)")
            #expect(adjusted.row("Aki", "400") != nil && adjusted.row("Ben", "500") != nil, "\(adjusted.output)")
            #expect(!adjusted.output.contains("Cho"), "\(adjusted.output)")
            #expect(cakeAdjusted.status == 0, "\(cakeAdjusted.error)")
            #expect(cakeAdjusted.row("Aki", "300") != nil && cakeAdjusted.row("Cho", "600") != nil, "\(cakeAdjusted.output)")
            #expect(!cakeAdjusted.output.contains("Ben"), "\(cakeAdjusted.output)")
        }
    }

    @Test("an edit is based on the version this profile last saw: another's change since is shown, not overwritten")
    func editBasedOnLastSeen() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            try #require(try await trip.run("expense", "add", "Japan", "Tea", "900", "--profile", "ben").status == 0)
            let short = String(try await trip.expenseID("Tea").suffix(8))
            try #require(try await trip.run("expense", "edit", short, "--amount", "1200").status == 0)

            // act: Ben, who added it (version 1), changes the amount after Aki did; reading the
            // history of its shares is not looking at it
            try #require(try await trip.run("history", short, "--profile", "ben").status == 0)
            // nor is a sync that brings Aki's version into his offline copy (found by review)
            try #require(try await trip.run("sync", "--profile", "ben").status == 0)
            let unseen = try await trip.run("expense", "edit", short, "--amount", "1000", "--profile", "ben")

            // validate: refused with both versions (found by review: it was based on the version
            // just read, so Aki's 1200 was overwritten unseen); once he has looked, it goes through
            #expect(unseen.status == 6 && unseen.error.contains("theirs: version 2"), "\(unseen.output)\(unseen.error)")
            #expect(try await trip.expense(try await trip.expenseID("Tea"))["amount"] as? String == "1200")
            let again = try await trip.run("expense", "edit", short, "--amount", "1000", "--profile", "ben")
            #expect(again.status == 0 && again.output.contains("now version 3"), "\(again.output)\(again.error)")
            // His own paid mark (version 4; of Cho's share: his own he paid himself) does not make
            // his next edit look stale.
            try #require(try await trip.run("pay", short, "--member", "cho", "--profile", "ben").status == 0)
            let afterPay = try await trip.run("expense", "edit", short, "--description", "Green tea", "--profile", "ben")
            #expect(afterPay.status == 0 && afterPay.output.contains("now version 5"), "\(afterPay.output)\(afterPay.error)")
            // A delete is based on what was last seen too: Aki last saw version 2.
            let staleDelete = try await trip.run("expense", "delete", short)
            #expect(staleDelete.status == 6 && staleDelete.error.contains("since you saw it; nothing was done"), "\(staleDelete.error)")
            #expect(try await trip.expense(try await trip.expenseID("Green tea"))["isDeleted"] as? Bool == false)
        }
    }

    @Test("an edit moving the part of someone who left asks first: online with the flag to go on, offline refused at sync, not a conflict")
    func removedShareAsked() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            try #require(try await trip.run("expense", "add", "Japan", "Tea", "900", "--equal", "aki,ben,cho").status == 0)
            try #require(try await trip.run("expense", "add", "Japan", "Cake", "600", "--equal", "aki,ben,cho").status == 0)
            let short = String(try await trip.expenseID("Tea").suffix(8))
            let cake = String(try await trip.expenseID("Cake").suffix(8))
            try #require(try await trip.run("member", "remove", "Japan", "Cho", "--confirm-balance").status == 0)

            // act: online without the flag, then with it; then offline without it
            let asked = try await trip.run("expense", "edit", short, "--amount", "1200")
            let confirmed = try await trip.run("expense", "edit", short, "--amount", "1200", "--confirm-removed-shares")
            let queued = try await trip.run("expense", "edit", short, "--amount", "1500", "--server", try CLITrip.unreachableURL())
            let synced = try await trip.run("sync", "--server", trip.url)

            // validate
            #expect(
                asked.status == 6 && asked.error.contains("Cho (removed) is no longer in the group; this changes their share from 300 JPY to 400 JPY, so they would owe 100 JPY more.")
                    && asked.error.contains("--confirm-removed-shares"),
                "\(asked.output)\(asked.error)")
            #expect(confirmed.status == 0, "\(confirmed.output)\(confirmed.error)")
            #expect(queued.status == 0 && queued.output.contains("queued"), "\(queued.output)\(queued.error)")
            // Refused at sync with the question, kept to be entered again, not a conflict that
            // `sync --force` would send unchanged forever (found by review).
            #expect(synced.status == 7 && synced.error.contains("refused by the server"), "\(synced.output)\(synced.error)")
            let status = try await trip.run("status")
            #expect(status.output.contains("Refused by the server: 1") && status.output.contains("Cho (removed) is no longer in the group"), "\(status.output)")
            // And how to make it anyway (found by a new user: nothing said how to answer it).
            #expect(
                status.output.contains("To change it anyway: `splitter sync --discard ")
                    && status.output.contains("`splitter expense edit \(short)` with your change and --confirm-removed-shares."),
                "\(status.output)")
            #expect(try await trip.expense(try await trip.expenseID("Tea"))["amount"] as? String == "1200")
            // A delete asks the same; with the flag, offline too, it goes through at sync.
            let deleteAsked = try await trip.run("expense", "delete", cake)
            #expect(
                deleteAsked.status == 6 && deleteAsked.error.contains("this changes their share from 200 JPY to 0 JPY, so they would be owed 200 JPY more. Delete it anyway?")
                    && deleteAsked.error.contains("--confirm-removed-shares"),
                "\(deleteAsked.output)\(deleteAsked.error)")
            let queuedDelete = try await trip.run(
                "expense", "delete", cake, "--confirm-removed-shares", "--server", try CLITrip.unreachableURL())
            #expect(queuedDelete.status == 0 && queuedDelete.output.contains("queued"), "\(queuedDelete.output)\(queuedDelete.error)")
            let sent = try await trip.run("sync", "--server", trip.url)
            #expect(sent.output.contains("Sent 1"), "\(sent.output)\(sent.error)")
            let cakeID = try #require(
                (try await trip.json("expense", "list", "Japan", "--deleted") as? [[String: Any]])?
                    .first { $0["description"] as? String == "Cake" }?["id"] as? String)
            #expect(try await trip.expense(cakeID)["isDeleted"] as? Bool == true)
        }
    }

    @Test("offline, the list marks each expense with a change waiting (an edit, a delete); a member's change to another's expense is refused before it is queued")
    func offlineListMarksChanges() async throws {
        // Found by a new user: an expense deleted offline was listed as if nothing had happened.
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            for (name, amount) in [("Tea", "900"), ("Cake", "600"), ("Taxi", "3000")] {
                try #require(try await trip.run("expense", "add", "Japan", name, amount, "--equal", "aki,ben").status == 0)
            }
            let (tea, cake) = (String(try await trip.expenseID("Tea").suffix(8)), String(try await trip.expenseID("Cake").suffix(8)))
            let offline = try CLITrip.unreachableURL()

            // Ben, a member, may not change what Aki added: refused offline too, before it is
            // queued, saying who may (found by a new user: refused only at sync, "your role").
            _ = try await trip.expenseID("Tea", profile: "ben")
            let bens = try await trip.run("expense", "edit", tea, "--amount", "1000", "--server", offline, "--profile", "ben")
            #expect(
                bens.status == 4
                    && bens.error.contains("Only Aki, who added it, or someone the owner lets change every expense may change this one. Nothing was queued."),
                "\(bens.output)\(bens.error)")
            let bensOnline = try await trip.run("expense", "delete", cake, "--profile", "ben")
            #expect(bensOnline.status == 4 && bensOnline.error.contains("Only Aki, who added it,"), "\(bensOnline.error)")

            // act: Tea edited and Cake deleted offline; the list read offline
            #expect(try await trip.run("expense", "edit", tea, "--amount", "1200", "--server", offline).status == 0)
            #expect(try await trip.run("expense", "delete", cake, "--server", offline).status == 0)
            let listed = try await trip.run("expense", "list", "Japan", "--server", offline)

            // validate
            let rows = listed.output.split(separator: "\n").map(String.init)
            #expect(listed.status == 0 && listed.error.contains("2 with a change waiting, marked"), "\(listed.error)")
            #expect(rows.contains { $0.contains("Tea (edit queued)") }, "\(listed.output)")
            #expect(rows.contains { $0.contains("Cake (delete queued)") }, "\(listed.output)")
            #expect(rows.contains { $0.contains("Taxi") && !$0.contains("queued") }, "\(listed.output)")
            // Sent, nothing is marked any more.
            #expect(try await trip.run("sync", "--server", trip.url).status == 0)
            // The next edit stands on the version the synced one made, not on the one seen before
            // it (found by a new user: "someone changed Tea since version 1", of their own edit).
            let next = try await trip.run("expense", "edit", tea, "--amount", "1500")
            #expect(next.status == 0 && next.output.contains("Changed Tea (now version 3)."), "\(next.output)\(next.error)")
            let online = try await trip.run("expense", "list", "Japan")
            #expect(online.status == 0 && !online.output.contains("queued") && !online.output.contains("Cake"), "\(online.output)")
        }
    }

    @Test("--refund records money received: below zero, said as received, and the balances turn round")
    func refund() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()

            // act: the deposit came back to Aki, shared by Aki and Ben
            let added = try await trip.run(
                "expense", "add", "Japan", "Deposit back", "30000", "--refund", "--paid-by", "aki", "--equal", "aki,ben")

            // validate
            #expect(added.status == 0, "\(added.error)")
            #expect(
                added.lines.first == "Added refund Deposit back: -30000 JPY, received by Aki 30000", "\(added.output)")
            // Said as received and owed, above zero (found by a new user: "received by Emil -120.00").
            #expect(added.output.contains("Is owed: Aki 15000, Ben 15000"), "\(added.output)")
            let id = try await trip.expenseID("Deposit back")
            let shown = try await trip.run("expense", "show", String(id.suffix(8)))
            #expect(shown.output.contains("Refund received by Aki 30000") && shown.output.contains("IS OWED"), "\(shown.output)")
            let balances = try await trip.run("balances", "Japan")
            #expect(balances.row("Aki")?.contains("-15000") == true, "\(balances.output)")
            #expect(balances.row("Ben")?.contains("15000") == true, "\(balances.output)")
            // An edit of a refund keeps it one, amounts as said (found by a new user: "--amount
            // 36000" made it a cost of 36,000, a swing of 66,000 in the balances).
            let more = try await trip.run("expense", "edit", String(id.suffix(8)), "--amount", "36000")
            #expect(more.status == 0 && more.output.contains("-36000 JPY"), "\(more.output)\(more.error)")
            let exact = try await trip.run("expense", "edit", String(id.suffix(8)), "--exact", "aki=16000,ben=20000")
            #expect(exact.status == 0 && exact.lines.contains { $0.split(separator: " ").dropFirst().starts(with: ["Ben", "20000"]) }, "\(exact.output)\(exact.error)")
            let after = try await trip.run("balances", "Japan")
            #expect(after.row("Ben")?.contains("20000") == true && after.row("Aki")?.contains("-20000") == true, "\(after.output)")
            // What the card took in yen: shown, kept by an edit that leaves the amount, dropped by
            // one that changes it (found by a new user: the CLI could neither give nor show it).
            let charged = try await trip.run(
                "expense", "add", "Japan", "Museum", "30", "--currency", "USD", "--charged", "4500", "--equal", "aki,ben")
            #expect(charged.status == 0 && charged.output.contains("30.00 USD (charged 4500 in the home currency)"), "\(charged.output)\(charged.error)")
            let museum = String(try await trip.expenseID("Museum").suffix(8))
            let renamed = try await trip.run("expense", "edit", museum, "--description", "Museum tickets")
            #expect(renamed.output.contains("(charged 4500 in the home currency)"), "\(renamed.output)\(renamed.error)")
            let recounted = try await trip.run("expense", "edit", museum, "--amount", "40")
            #expect(recounted.status == 0 && !recounted.output.contains("charged"), "\(recounted.output)\(recounted.error)")
            _ = try await trip.run("expense", "delete", museum)
            // A payer's amount with --refund is below zero however it is typed; a wrong sign is refused plainly.
            let several = try await trip.run(
                "expense", "add", "Japan", "Cashback", "1000", "--refund", "--paid-by", "aki=600,ben=-400")
            #expect(several.status == 0, "\(several.error)")
            // An adjustment is said as for the refund: Ben gets 500 more of 1000 back than Aki.
            let adjusted = try await trip.run(
                "expense", "add", "Japan", "Adjusted", "1000", "--refund", "--paid-by", "aki", "--equal", "aki,ben",
                "--adjust", "ben=+500", "--json")
            #expect(adjusted.status == 0, "\(adjusted.error)")
            #expect(adjusted.output.contains("\"-750\"") && adjusted.output.contains("\"-250\""), "\(adjusted.output)")
            // A minus without --refund is refused, saying how (found by review: it saved a refund,
            // and `recurring add` a monthly one, unsaid); nothing is written.
            let minus = try await trip.run("expense", "add", "Japan", "Oops", "--", "-3000")
            #expect(minus.status == 7 && minus.error.contains("add --refund and give the amount without a minus"), "\(minus.output)\(minus.error)")
            let monthly = try await trip.run("recurring", "add", "Japan", "Oops", "--every", "month", "--", "-3000")
            #expect(monthly.status == 7 && monthly.error.contains("--refund"), "\(monthly.output)\(monthly.error)")
            #expect(!(try await trip.run("expense", "list", "Japan").output.contains("Oops")))
            let mixed = try await trip.run("expense", "add", "Japan", "Bad", "1000", "--refund", "--exact", "aki=1500,ben=-500")
            #expect(mixed.status == 7, "\(mixed.output)\(mixed.error)")
            #expect(mixed.error.contains("exact amounts sum to -2,000 JPY, the refund is -1,000 JPY"), "\(mixed.error)")
        }
    }

    @Test("a charge and its refund that net to zero in dollars but not in yen: balances and plan settle the yen the card lost")
    func chargedGap() async throws {
        // Found by a new user: "Everyone is settled up" and "Nothing to settle", while the card
        // took 15,000 yen and gave back 14,000.
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            for (name, extra) in [("Deposit", ["--charged", "15000"]), ("Deposit back", ["--refund", "--charged", "14000"])] {
                let added = try await CLITests.splitter(
                    ["expense", "add", "Japan", name, "100", "--currency", "USD", "--paid-by", "aki", "--equal", "aki,ben"] + extra,
                    config: trip.config)
                try #require(added.status == 0, "\(added.output)\(added.error)")
            }

            // act
            let balances = try await trip.run("balances", "Japan")
            let plan = try await trip.run("plan", "Japan")

            // validate
            #expect(
                balances.status == 0 && balances.output.contains("Settled up in each currency, but not in what was charged in JPY.")
                    && balances.row("Ben")?.contains("-500") == true,
                "\(balances.output)\(balances.error)")
            #expect(plan.status == 0 && plan.output.contains("Ben pays Aki 500 JPY"), "\(plan.output)\(plan.error)")
            // Paid: yen are now open on their own, nothing converted; said, not an empty table.
            #expect(try await trip.run("settle", "Japan", "--from", "ben", "--to", "aki", "500").status == 0)
            let after = try await trip.run("balances", "Japan")
            #expect(
                after.output.contains("In JPY: everyone is settled up, converted (the currencies offset each other).")
                    && !after.output.contains("In JPY:\n"),
                "\(after.output)\(after.error)")
        }
    }

    @Test(
        "an expense is shown, edited, paid and unpaid with reasons, deleted and restored, and all of it is in the history and activity"
    )
    func expenseLife() async throws {
        try await CLITrip.with { trip in
            // setup: Ben pays dinner; Aki owes 2 shares, Ben and Cho one each
            try await trip.setUpJapan()
            let added = try await trip.run(
                "expense", "add", "Japan", "Dinner", "9000", "--paid-by", "ben", "--shares", "aki=2,ben=1,cho=1",
                "--profile", "ben")
            try #require(added.status == 0, "\(added.error)")
            let list = try await trip.run("expense", "list", "Japan")
            let id = try await trip.expenseID("Dinner")
            #expect(list.row("Dinner")?.last == String(id.suffix(8)), "\(list.output)")
            let short = String(id.suffix(6))

            // act + validate: show by a short id, with each share and its id
            let shown = try await trip.run("expense", "show", short)
            #expect(shown.status == 0, "\(shown.error)")
            #expect(shown.lines.first == "Dinner: 9000 JPY on \(today()), Other", "\(shown.output)")
            #expect(shown.output.contains("Paid by Ben 9000"))
            #expect(shown.row("Aki", "4500").map { Array($0.suffix(3)) } == ["Aki", "4500", "no"], "\(shown.output)")
            #expect(shown.row("Cho").map { Array($0.suffix(3)) } == ["Cho", "2250", "no"])
            #expect(shown.output.contains("Id \(id), version 1"))
            // Each share by its own short id (time-ordered ids made together share their start).
            let shareIDs = ["Aki", "Ben", "Cho"].compactMap { shown.row($0)?.first }
            #expect(shareIDs.count == 3 && Set(shareIDs).count == 3, "\(shown.output)")

            // edit: a new amount and description; the one payer and the shares follow
            let edited = try await trip.run("expense", "edit", short, "--amount", "12000", "--description", "Ramen")
            #expect(edited.status == 0, "\(edited.error)")
            #expect(edited.lines.first == "Changed Ramen (now version 2).", "\(edited.output)")
            #expect(edited.row("Aki", "6000").map { Array($0.suffix(3)) } == ["Aki", "6000", "no"], "\(edited.output)")
            let afterEdit = try await trip.expense(id, profile: "ben")
            #expect(afterEdit["amount"] as? String == "12000" && afterEdit["version"] as? Int == 2)
            let nothing = try await trip.run("expense", "edit", short)
            #expect(nothing.status == 2 && nothing.error.contains("Nothing to change"), "\(nothing.error)")
            // What it says already: said so, and no new version.
            let same = try await trip.run("expense", "edit", short, "--amount", "12000", "--description", "Ramen")
            #expect(
                same.status == 0 && same.lines.first == "Nothing changed: Ramen already says that (version 2).",
                "\(same.output)\(same.error)")
            #expect(try await trip.expense(id)["version"] as? Int == 2)
            let stale = try await trip.run("expense", "edit", short, "--description", "Old", "--version", "1")
            #expect(stale.status == 6 && stale.error.contains("theirs: version 2: \"Ramen\""), "\(stale.error)")
            #expect(try await trip.expense(id)["description"] as? String == "Ramen")

            // pay Aki's own share (the default) and Cho's, then unpay Cho's, each with a reason
            let paid = try await trip.run("pay", short, "--reason", "cash at the table")
            #expect(
                paid.output == "Marked Aki's share of Ramen (6000 JPY) paid: cash at the table\n",
                "\(paid.output)\(paid.error)")
            #expect(try await trip.run("pay", short, "--member", "cho", "--reason", "PayNow").status == 0)
            // Again: it is paid already, and nothing more is recorded (it said "Marked …").
            let again = try await trip.run("pay", short, "--member", "cho")
            #expect(again.status == 0 && again.output == "Cho's share of Ramen (3000 JPY) is already paid.\n", "\(again.output)")
            let unpaid = try await trip.run("unpay", short, "--member", "Cho", "--reason", "wrong person")
            #expect(unpaid.output.contains("Marked Cho's share of Ramen (3000 JPY) unpaid: wrong person"))
            let noShare = try await trip.run("pay", short, "--member", "dan")
            #expect(noShare.status == 7 && noShare.error.split(separator: "\n").count == 1)
            // Ben paid the whole bill, his own share included: nothing to mark paid, online or
            // offline (found by a new user: it was marked paid with no transfer).
            let covered = "Ben paid at least their own share of Ramen: there is nothing to settle."
            let coveredOnline = try await trip.run("pay", short, "--member", "ben")
            #expect(coveredOnline.status == 7 && coveredOnline.error.contains(covered), "\(coveredOnline.error)")
            let coveredOffline = try await trip.run(
                "pay", short, "--member", "ben", "--server", try CLITrip.unreachableURL())
            #expect(coveredOffline.status == 7 && coveredOffline.error.contains(covered), "\(coveredOffline.error)")
            #expect(
                try await trip.run("sync", "--server", trip.url).lines.first
                    == "Sent 0, refused 0, conflicts 0, still queued 0.")
            let afterPay = try await trip.run("expense", "show", short)
            #expect(afterPay.row("Aki", "6000")?[3] == "yes", "\(afterPay.output)")
            #expect(afterPay.row("Cho", "3000")?.last == "no")
            // Ben's own share: nothing to pay, said so (it read "no", like an unpaid debt).
            #expect(afterPay.output.contains("paid it"), "\(afterPay.output)")

            // Times are said in this computer's zone (found by review: always UTC).
            let inTokyo = try await trip.run("history", short, environment: ["TZ": "Asia/Tokyo"])
            #expect(inTokyo.lines.count == 4 && inTokyo.lines.dropFirst().allSatisfy { $0.prefix(25).hasSuffix("+09:00") }, "\(inTokyo.output)")
            // history: three entries, oldest first, with who and why
            let history = try await trip.run("history", short)
            #expect(history.status == 0, "\(history.error)")
            #expect(history.lines.count == 4, "\(history.output)")
            // Times on the wire are whole seconds, so only each share's own order is certain.
            let rows = history.lines.dropFirst().map { String($0.dropFirst(22)) }
            #expect(
                Set(rows) == [
                    "Aki       paid    Aki  cash at the table", "Cho       paid    Aki  PayNow",
                    "Cho       unpaid  Aki  wrong person",
                ], "\(history.output)")
            #expect(rows.filter { $0.hasPrefix("Cho") }.map { $0.contains("unpaid") } == [false, true])
            let choHistory = try #require(
                try await trip.json("history", short, "--member", "cho", "--profile", "ben") as? [[String: Any]])
            #expect(choHistory.map { $0["action"] as? String } == ["marked_paid", "marked_unpaid"])
            #expect(choHistory.map { $0["reason"] as? String } == ["PayNow", "wrong person"])

            // the paid share moved money: Aki is settled for this expense, Cho still owes
            var nets = try await netsByName(trip)
            #expect(nets == ["Ben": "3000", "Cho": "-3000"])

            // delete: gone from the list, balances drop it, the transfer Aki made stays
            let deleted = try await trip.run("expense", "delete", short)
            #expect(deleted.output.contains("Deleted Ramen; `splitter expense restore \(id.suffix(8))`"))
            #expect(try await trip.run("expense", "list", "Japan").output == "No expenses in Japan yet.\n")
            #expect(
                try await trip.run("expense", "list", "Japan", "--deleted").row("Ramen (deleted)") != nil)
            nets = try await netsByName(trip)
            #expect(nets == ["Aki": "6000", "Ben": "-6000"])
            let payDeleted = try await trip.run("pay", short, "--member", "cho")
            #expect(payDeleted.status == 6 && payDeleted.error.contains("restore it first"), "\(payDeleted.error)")

            // restore: back, with its paid share
            let restored = try await trip.run("expense", "restore", short, "--profile", "ben")
            #expect(restored.output == "Restored Ramen.\n", "\(restored.output)\(restored.error)")
            let restoredAgain = try await trip.run("expense", "restore", short, "--profile", "ben")
            #expect(restoredAgain.status == 0 && restoredAgain.output == "Ramen is not deleted; nothing to restore.\n", "\(restoredAgain.output)\(restoredAgain.error)")
            nets = try await netsByName(trip)
            #expect(nets == ["Ben": "3000", "Cho": "-3000"])

            // activity: newest first, every step above, by whom
            let activity = try await trip.run("activity", "Japan")
            #expect(activity.status == 0, "\(activity.error)")
            // After the timestamp column, what happened, which says who (once: a WHO column said it twice).
            let summaries = activity.lines.dropFirst().map { String($0.dropFirst(22)) }
            #expect(
                Array(summaries.prefix(7)) == [
                    "Ben restored Ramen", "Aki deleted Ramen",
                    "Aki marked Cho's share of Ramen unpaid (3,000 JPY): “wrong person”",
                    "Aki marked Cho's share of Ramen paid (3,000 JPY): “PayNow”",
                    "Aki marked their share of Ramen paid (6,000 JPY): “cash at the table”",
                    "Aki changed Ramen (12,000 JPY, was 9,000 JPY)", "Ben added Dinner (9,000 JPY)",
                ], "\(activity.output)")
            let limited = try #require(try await trip.json("activity", "Japan", "--limit", "2") as? [[String: Any]])
            #expect(limited.map { $0["action"] as? String } == ["expense.restored", "expense.deleted"])

            // A group named with a run of spaces is stored with one, and found however it is typed.
            let flat = try await trip.run("group", "create", "Flat  Share", "--currency", "EUR")
            #expect(flat.status == 0 && flat.output.contains("Flat Share") && !flat.output.contains("Flat  Share"), "\(flat.output)")
            let typed = try await trip.run("member", "list", "flat   SHARE")
            #expect(typed.status == 0 && typed.output.contains("Aki"), "\(typed.output)\(typed.error)")

            // unknown ids: one friendly line, exit 5
            let unknown = try await trip.run("expense", "show", "ffffffff")
            #expect(unknown.status == 5 && unknown.error.split(separator: "\n").count == 1, "\(unknown.error)")

            // Aki paid 20 of 90 shared by three: marking her share paid moves only the rest, said so.
            let groceries = try await trip.run("expense", "add", "Japan", "Groceries", "90", "--paid-by", "aki=20,ben=70", "--json")
            let groceriesID = try #require(
                (try JSONSerialization.jsonObject(with: Data(groceries.output.utf8)) as? [String: Any])?["id"] as? String,
                "\(groceries.output)\(groceries.error)")
            let partial = try await trip.run("pay", groceriesID)
            #expect(
                partial.output.hasSuffix("paid.\nOnly 10 JPY moved: Aki paid the other 20 themselves.\n"),
                "\(partial.output)\(partial.error)")

            // A deleted category is said so in the list, as on the web (a new one may have its name).
            let token = try String(contentsOf: trip.config.appendingPathComponent("profiles/default/token"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let groupID = try #require((try await trip.json("group", "show", "Japan") as? [String: Any]).flatMap {
                ($0["group"] as? [String: Any])?["id"] as? String
            })
            func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> Data {
                var request = URLRequest(url: try #require(URL(string: trip.url + path)))
                request.httpMethod = method
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = body.map { Data($0.utf8) }
                return try await URLSession.shared.data(for: request).0
            }
            let made = try await call("POST", "/api/groups/\(groupID)/categories", #"{"name":"Bar"}"#)
            let barID = try #require(
                ((try JSONSerialization.jsonObject(with: made) as? [String: Any])?["category"] as? [String: Any])?["id"] as? String)
            #expect(try await trip.run("expense", "add", "Japan", "Beer", "600", "--category", "bar").status == 0)
            _ = try await call("DELETE", "/api/groups/\(groupID)/categories/\(barID)")
            let withDeleted = try await trip.run("expense", "list", "Japan")
            #expect(withDeleted.row("Beer")?.contains("(deleted)") == true, "\(withDeleted.output)")

            // An itemized bill shows its items with who shares each (found by a new user: only "Split: itemized").
            let ids = Dictionary(
                uniqueKeysWithValues: try #require(try await trip.json("member", "list", "Japan") as? [[String: Any]]).compactMap { m in
                    (m["name"] as? String).flatMap { name in (m["id"] as? String).map { (name, $0) } }
                })
            let bill = try await call(
                "POST", "/api/expenses",
                #"{"groupId":"\#(groupID)","description":"Izakaya","amount":"990","currency":"JPY","expenseDate":"2026-11-20","split":{"mode":"itemized","items":[{"description":"Beer","amount":"600","split":{"mode":"equal","memberIds":["\#(ids["Aki"] ?? "")","\#(ids["Ben"] ?? "")"]}},{"description":"Edamame","amount":"300","split":{"mode":"equal","memberIds":["\#(ids["Cho"] ?? "")"]}}],"extras":[{"description":"Tax","amount":"90"}]}}"#)
            let billID = try #require(
                ((try JSONSerialization.jsonObject(with: bill) as? [String: Any])?["expense"] as? [String: Any])?["id"] as? String,
                "\(String(decoding: bill, as: UTF8.self))")
            let itemized = try await trip.run("expense", "show", billID)
            #expect(
                itemized.output.contains("  Beer: 600, Aki, Ben\n  Edamame: 300, Cho\n  Tax: 90, in proportion"),
                "\(itemized.output)\(itemized.error)")
        }
    }

    /// Each member's JPY net by name (settled members left out).
    private func netsByName(_ trip: CLITrip) async throws -> [String: String] {
        let members = try #require(try await trip.json("member", "list", "Japan") as? [[String: Any]])
        let names = Dictionary(
            uniqueKeysWithValues: members.compactMap { member in
                (member["id"] as? String).map { ($0, member["name"] as? String ?? "?") }
            })
        let balances = try #require(
            (try await trip.json("balances", "Japan") as? [String: Any])?["balances"] as? [[String: Any]])
        var nets: [String: String] = [:]
        for balance in balances where balance["currency"] as? String == "JPY" {
            guard let member = balance["memberId"] as? String, let net = balance["net"] as? String, net != "0"
            else { continue }
            nets[names[member] ?? member] = net
        }
        return nets
    }

    private func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
