import Foundation
import SplitSpawn
import SplitTestSupport
import Testing

/// The account commands of issue 14 as a user runs them: signing out elsewhere (item 9),
/// claims of a name-only member with history (item 5), deleting an account by its owner and by
/// the operator (item 17).
@Suite("splitter logout --others, member claims, delete-account, token")
struct AccountCommandTests {
    @Test("a wrong password says so; logout --others ends the laptop's session and keeps this one")
    func signOutElsewhere() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // A wrong password is the server's answer, not "log in again" (which it would only repeat)
            let wrong = try await trip.run(
                "login", "aki@example.com", "--profile", "laptop", "--server", trip.url, "--password-stdin",
                stdin: "wrong horse")
            #expect(wrong.status == 3, "\(wrong.error)")
            #expect(wrong.error == "splitter: Wrong email, phone or password.\n", "\(wrong.error)")
            // setup: Aki logs in a second time, as profile "laptop"
            let laptop = try await trip.run(
                "login", "aki@example.com", "--profile", "laptop", "--server", trip.url, "--password-stdin",
                stdin: "correct horse")
            try #require(laptop.status == 0, "\(laptop.error)")
            #expect(try await trip.run("whoami", "--profile", "laptop").output.contains("Aki"))
            // act
            let out = try await trip.run("logout", "--others")
            // validate: the laptop's token no longer works; this profile goes on
            #expect(out.status == 0 && out.output.contains("Signed out everywhere else"), "\(out.error)")
            let refused = try await trip.run("whoami", "--profile", "laptop")
            #expect(refused.status != 0 && refused.output.isEmpty, "\(refused.output)")
            #expect(try await trip.run("whoami").output.contains("Aki"))
        }
    }

    @Test("login takes --email as register does, or the address as its argument; never two at once")
    func loginWithEmailOption() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let option = try await trip.run(
                "login", "--email", "aki@example.com", "--profile", "tablet", "--server", trip.url, "--password-stdin",
                stdin: "correct horse")
            #expect(option.status == 0 && option.output == "Logged in as Aki.\n", "\(option.error)")
            #expect(try await trip.run("whoami", "--profile", "tablet").output.contains("Aki"))
            let both = try await trip.run(
                "login", "aki@example.com", "--email", "aki@example.com", "--profile", "tablet2", "--server", trip.url,
                "--password-stdin", stdin: "correct horse")
            #expect(both.status != 0 && both.error.contains("Give one email or phone number."), "\(both.error)")
        }
    }

    @Test("a claim of a name-only member with history waits; a second meanwhile is refused; the owner lists and approves it")
    func claims() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // setup: Cho (no account) paid for a taxi; Dee and Eve have accounts
            let taxi = try await trip.run("expense", "add", "Japan", "Taxi", "3000", "--paid-by", "Cho")
            try #require(taxi.status == 0, "\(taxi.error)")
            for name in ["Dee", "Eve"] {
                let reply = try await trip.run(
                    "register", "--profile", name.lowercased(), "--server", trip.url, "--email",
                    "\(name.lowercased())@example.com", "--name", name, "--password-stdin", stdin: "correct horse")
                try #require(reply.status == 0, "\(reply.error)")
            }
            let shown = try await trip.json("group", "show", "Japan") as? [String: Any]
            let code = try #require((shown?["group"] as? [String: Any])?["inviteCode"] as? String)
            // act: Dee and Eve both say they are Cho
            let asked = try await trip.run("group", "join", code, "--as", "Cho", "--profile", "dee")
            #expect(asked.status == 0 && asked.output.contains("Asked to join Japan as Cho"), "\(asked.error)")
            let second = try await trip.run("group", "join", code, "--as", "Cho", "--profile", "eve")
            // validate: one claim waits at a time; Ben (a member) may not see it; Aki (owner) does
            #expect(second.status != 0 && !second.error.isEmpty, "\(second.output)")
            #expect(try await trip.run("member", "claims", "Japan", "--profile", "ben").status != 0)
            let listed = try await trip.run("member", "claims", "Japan")
            #expect(listed.row("Cho", "Dee", "dee@example.com") != nil, "\(listed.output)")
            let claims = try #require(try await trip.json("member", "claims", "Japan") as? [[String: Any]])
            #expect(claims.count == 1)
            // act: Aki approves Dee's
            let approved = try await trip.run("member", "approve", "Japan", "Cho")
            // validate: Cho is Dee's now, with Cho's money; nobody is waiting
            #expect(approved.status == 0 && approved.output.contains("Cho is now linked"), "\(approved.error)")
            let members = try #require(try await trip.json("member", "list", "Japan") as? [[String: Any]])
            let cho = try #require(members.first { $0["name"] as? String == "Cho" })
            #expect(cho["userId"] as? String != nil)
            #expect(try await trip.run("member", "claims", "Japan").output.contains("Nobody is waiting."))
            let deeGroups = try await trip.run("balances", "Japan", "--profile", "dee")
            #expect(deeGroups.status == 0, "\(deeGroups.error)")
            #expect(try await trip.run("balances", "Japan", "--profile", "eve").status != 0)
        }
    }

    @Test("member rename: one's own name, or the owner another's; group leave asks about a balance, then leaves; the owner cannot")
    func renameAndLeave() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // Ben renames himself; he may not rename Cho; Aki (owner) may.
            let own = try await trip.run("member", "rename", "Japan", "Ben", "Benji", "--profile", "ben")
            #expect(own.output == "Ben is now Benji.\n", "\(own.output)\(own.error)")
            #expect(try await trip.run("member", "rename", "Japan", "Cho", "Chloe", "--profile", "ben").status != 0)
            #expect(try await trip.run("member", "rename", "Japan", "Cho", "Chloe").output == "Cho is now Chloe.\n")
            // Aki paid 3000 for Aki and Benji: Benji owes 1500.
            let tea = try await trip.run("expense", "add", "Japan", "Tea", "3000", "--equal", "aki,benji")
            try #require(tea.status == 0, "\(tea.error)")
            let asked = try await trip.run("group", "leave", "Japan", "--profile", "ben")
            #expect(asked.status == 6, "\(asked.output)\(asked.error)")
            #expect(asked.error.contains("You owe 1,500 JPY. Leave anyway?") && asked.error.contains("--confirm-balance"))
            let left = try await trip.run("group", "leave", "Japan", "--confirm-balance", "--profile", "ben")
            #expect(left.output == "You left Japan.\n", "\(left.output)\(left.error)")
            #expect(try await trip.run("balances", "Japan", "--profile", "ben").status != 0)
            // Nor does his offline copy answer for it any more (found by a new user).
            let offline = try await trip.run(
                "balances", "Japan", "--profile", "ben", "--server", try CLITrip.unreachableURL())
            #expect(offline.status != 0 && offline.output.isEmpty, "\(offline.output)")
            let owner = try await trip.run("group", "leave", "Japan")
            #expect(owner.status != 0 && owner.error.contains("make another member the owner first"), "\(owner.error)")
            let members = try await trip.run("member", "list", "Japan")
            #expect(members.row("Benji (left)") != nil, "\(members.output)")
            // Who has an account, as `group show` says it (found by a new user).
            #expect(members.row("Chloe", "member", "no") != nil && members.row("Aki", "owner", "yes") != nil, "\(members.output)")
        }
    }

    @Test("account: a name without the password; a new email asks for it, and a wrong one changes nothing")
    func account() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            #expect(try await trip.run("account").status == 2)
            let named = try await trip.run("account", "--name", "Aki Tanaka")
            #expect(named.output == "Aki Tanaka (aki@example.com)\n", "\(named.output)\(named.error)")
            let wrong = try await trip.run(
                "account", "--email", "aki@example.org", "--password-stdin", stdin: "wrong horse")
            #expect(wrong.status == 7 && wrong.error.contains("The current password is wrong."), "\(wrong.error)")
            let moved = try await trip.run(
                "account", "--email", "aki@example.org", "--password-stdin", stdin: "correct horse")
            #expect(moved.lines.first == "Aki Tanaka (aki@example.org)", "\(moved.output)\(moved.error)")
            #expect(try await trip.run("whoami").output == "Aki Tanaka (aki@example.org)\n")
            // Ben's address is his: refused, by name.
            let taken = try await trip.run(
                "account", "--email", "ben@example.com", "--password-stdin", stdin: "correct horse")
            #expect(taken.status == 6 && taken.error.contains("That email is another account's."), "\(taken.error)")
        }
    }

    @Test("delete-account: a wrong password changes nothing; the right one deletes it and the group keeps the name")
    func deleteOwnAccount() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            #expect(try await trip.run("expense", "add", "Japan", "Ramen", "2000", "--paid-by", "Ben").status == 0)
            let before = try await trip.json("balances", "Japan") as? [String: Any]
            // act: a wrong password first
            let wrong = try await trip.run("delete-account", "--profile", "ben", "--password-stdin", stdin: "wrong horse")
            #expect(wrong.status != 0)
            #expect(try await trip.run("whoami", "--profile", "ben").output.contains("Ben"))
            let deleted = try await trip.run("delete-account", "--profile", "ben", "--password-stdin", stdin: "correct horse")
            // validate: gone, cannot log in; Ben stays in Japan by name with his balance
            #expect(deleted.status == 0 && deleted.output.contains("Account deleted"), "\(deleted.error)")
            let login = try await trip.run(
                "login", "ben@example.com", "--profile", "ben2", "--server", trip.url, "--password-stdin",
                stdin: "correct horse")
            #expect(login.status == 3 && login.error.contains("Wrong email, phone or password."), "\(login.error)")
            let members = try #require(try await trip.json("member", "list", "Japan") as? [[String: Any]])
            let ben = try #require(members.first { $0["name"] as? String == "Ben" })
            #expect(ben["userId"] == nil || ben["userId"] is NSNull)
            let after = try await trip.json("balances", "Japan") as? [String: Any]
            let nets = { (reply: [String: Any]?) in
                (reply?["balances"] as? [[String: Any]] ?? []).filter { $0["memberId"] as? String == ben["id"] as? String }
                    .compactMap { $0["net"] as? String }
            }
            #expect(nets(before).count == 1 && nets(before) != ["0"] && nets(after) == nets(before))
        }
    }

    @Test("splitter-server delete-account EMAIL deletes without the password; an unknown address exits 1")
    func operatorDeletes() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // act: the operator, on the server's database; Aki owns Japan, which Ben's account is in
            let owner = try await Self.serverCommand(["delete-account", "aki@example.com"], database: trip.databasePath)
            let first = try await Self.serverCommand(["delete-account", "ben@example.com"], database: trip.databasePath)
            let again = try await Self.serverCommand(["delete-account", "ben@example.com"], database: trip.databasePath)
            // validate: the owner of a group shared with other accounts must hand it over first
            #expect(owner.status == 1 && owner.error.contains("cannot delete aki@example.com"), "\(owner.error)")
            #expect(try await trip.run("whoami").output.contains("Aki"))
            #expect(first.status == 0 && first.output.contains("Deleted the account of ben@example.com"), "\(first.error)")
            #expect(again.status == 1 && again.error.contains("no active account has that email"), "\(again.error)")
            #expect(try await trip.run("whoami", "--profile", "ben").status != 0)
            let members = try #require(try await trip.json("member", "list", "Japan") as? [[String: Any]])
            #expect(members.contains { $0["name"] as? String == "Ben" })
        }
    }

    @Test("token create prints the secret once; another profile logs in with it and writes in its group only; revoke stops it")
    func tokens() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            #expect(try await trip.run("group", "create", "Home", "--currency", "EUR").status == 0)
            // act: a write token for Japan only
            let made = try await trip.run("token", "create", "trip bot", "--write", "--group", "Japan", "--expires-in-days", "30")
            #expect(made.status == 0 && made.error.contains("not shown again"), "\(made.error)")
            let secret = made.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(secret.hasPrefix("spt_") && !secret.contains("\n"))
            let listed = try await trip.run("token", "list")
            #expect(listed.row("trip", "bot", "read+write", "1") != nil, "\(listed.output)")
            #expect(!listed.output.contains(secret))
            // validate: the bot profile uses it
            let bot = try await trip.run("login", "--profile", "bot", "--server", trip.url, "--token-stdin", stdin: secret)
            #expect(bot.status == 0 && bot.output.contains("Using a token of Aki's"), "\(bot.error)")
            #expect(try await trip.run("expense", "add", "Japan", "Gyoza", "900", "--profile", "bot").status == 0)
            let home = try await trip.run("balances", "Home", "--profile", "bot")
            #expect(home.status != 0, "\(home.output)")
            let group = try await trip.run("group", "create", "Other", "--currency", "EUR", "--profile", "bot")
            #expect(group.status == 4 && group.error.contains("only some of your groups"), "\(group.error)")
            let password = try await trip.run("token", "list", "--profile", "bot")
            #expect(password.status == 4 && password.error.contains("cannot manage"), "\(password.error)")
            // a bad token is not kept
            let wrong = try await trip.run("login", "--profile", "bot2", "--server", trip.url, "--token-stdin", stdin: "spt_" + String(repeating: "x", count: 43))
            #expect(wrong.status == 3)
            // revoke by name: the bot is logged out
            let revoked = try await trip.run("token", "revoke", "trip bot")
            #expect(revoked.status == 0 && revoked.output.contains("Revoked trip bot"), "\(revoked.error)")
            #expect(try await trip.run("balances", "Japan", "--profile", "bot").status == 3)
            #expect(try await trip.run("token", "list").output.contains("No tokens."))
        }
    }

    /// Runs `splitter-server` with these arguments on the SQLite file, and waits (on a Dispatch thread).
    static func serverCommand(_ arguments: [String], database: String) async throws -> CLITests.Result {
        try await CLITests.Result(
            ChildProgram.runDetached(
                ServerProcess.binaryPath(), arguments,
                environment: ProcessInfo.processInfo.environment.merging(["DATABASE_URL": "sqlite:\(database)"]) { $1 }))
    }
}
