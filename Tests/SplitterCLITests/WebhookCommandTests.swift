import Foundation
import SplitClient
import Testing

/// `splitter webhooks` and the SDK's webhook calls: the real binary and client against the real
/// server (with WEBHOOK_ALLOW_PRIVATE=1, so a loopback URL is accepted).
@Suite("splitter webhooks")
struct WebhookCommandTests {
    @Test(
        "add prints the secret once; list, ping and deliveries show the rest; update, rotate and remove work; a member is refused"
    )
    func webhooksFromTheCommandLine() async throws {
        try await CLITrip.with(serverEnvironment: ["WEBHOOK_ALLOW_PRIVATE": "1"]) { trip in
            try await trip.setUpJapan()
            // Nobody listens there: every delivery fails at once, and the log says so.
            let url = try CLITrip.unreachableURL() + "/hook"

            // add: the secret, once
            let added = try await trip.json("webhooks", "add", "--group", "japan", url, "--kinds", "expense.created")
            let created = try #require(added as? [String: Any])
            let secret = try #require(created["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            let id = try #require((created["webhook"] as? [String: Any])?["id"] as? String)
            let short = String(id.suffix(8))

            // list: the webhook, never the secret
            let listed = try await trip.run("webhooks", "list", "--group", "Japan")
            #expect(listed.status == 0 && listed.output.contains(short) && listed.output.contains("expense.created"))
            #expect(!listed.output.contains("whsec_"))
            let listedJSON = try await trip.run("webhooks", "--group", "Japan", "--json")
            #expect(!listedJSON.output.contains("whsec_") && listedJSON.output.contains(id), "\(listedJSON.output)")

            // ping: queued, then attempted by the server's worker (and failed: nothing listens)
            let ping = try await trip.run("webhooks", "ping", "--group", "Japan", short)
            #expect(ping.status == 0 && ping.output.hasPrefix("Test delivery"), "\(ping.output)\(ping.error)")
            var attempted = false
            let deadline = Date().addingTimeInterval(20)
            while !attempted, Date() < deadline {
                let log = try #require(
                    try await trip.json("webhooks", "deliveries", "--group", "Japan", short) as? [String: Any])
                let first = (log["deliveries"] as? [[String: Any]])?.first
                attempted = (first?["attempts"] as? Int ?? 0) >= 1
                if attempted {
                    #expect(first?["type"] as? String == "ping" && first?["state"] as? String == "pending")
                    #expect((first?["lastError"] as? String)?.contains("connect") == true, "\(log)")
                } else {
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            #expect(attempted)
            let table = try await trip.run("webhooks", "deliveries", "--group", "Japan", short)
            #expect(table.output.hasPrefix("WHEN") && table.output.contains("ping"), "\(table.output)")

            // update, rotate
            let off = try await trip.run("webhooks", "update", "--group", "Japan", short, "--disable")
            #expect(off.status == 0 && off.output.contains("is off"), "\(off.output)\(off.error)")
            let on = try await trip.run("webhooks", "update", "--group", "Japan", short, "--enable", "--kinds", "*")
            #expect(on.status == 0 && on.output.contains("is on"), "\(on.output)\(on.error)")
            let rotated = try await trip.run("webhooks", "rotate", "--group", "Japan", short)
            #expect(rotated.status == 0 && rotated.output.contains("whsec_") && !rotated.output.contains(secret))

            // bad input: an unknown kind (7), a member who is not an admin (4)
            let unknown = try await trip.run("webhooks", "add", "--group", "Japan", url, "--kinds", "expense.exploded")
            #expect(unknown.status == 7 && unknown.error.contains("expense.exploded"), "\(unknown.error)")
            let member = try await trip.run("webhooks", "list", "--group", "Japan", "--profile", "ben")
            #expect(member.status == 4, "\(member.output)\(member.error)")

            // remove
            let removed = try await trip.run("webhooks", "remove", "--group", "Japan", short)
            #expect(removed.status == 0, "\(removed.error)")
            let empty = try await trip.run("webhooks", "list", "--group", "Japan")
            #expect(empty.output.hasPrefix("No webhooks"), "\(empty.output)")
        }
    }
}
