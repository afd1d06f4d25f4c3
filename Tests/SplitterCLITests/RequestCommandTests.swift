import Foundation
import Testing

/// `splitter request` against the real server (issue 19).
@Suite("splitter request")
struct RequestCommandTests {
    @Test("Aki asks Ben for ¥1,080; Ben pays the code once; the balances move; a second pay is refused")
    func askAndPay() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()

            // act
            let created = try await trip.run("request", "create", "Japan", "1080", "JPY", "--to", "Ben", "--expires", "1h")
            #expect(created.status == 0, "\(created.error)")
            let code = try #require(created.lines.first?.split(separator: " ").dropFirst().first.map(String.init))
            #expect(created.output.contains("1080 JPY to Aki in Japan") && created.output.contains("/pay/\(code)"), "\(created.output)")
            let paid = try await trip.run("request", "pay", code.lowercased(), "--yes", "--profile", "ben")

            // validate
            #expect(paid.status == 0, "\(paid.error)")
            #expect(paid.output.contains("Paid 1080 JPY to Aki in Japan"), "\(paid.output)")
            let balances = try await trip.run("balances", "Japan")
            #expect(balances.row("Ben", "1080") != nil && balances.row("Aki", "-1080") != nil, "\(balances.output)")
            let list = try await trip.run("request", "list", "Japan")
            #expect(list.output.contains(code) && list.output.contains("paid"), "\(list.output)")
            let again = try await trip.run("request", "pay", code, "--yes", "--profile", "ben")
            #expect(again.status != 0 && again.error.contains("paid already"), "\(again.error)")

            // Cancelled before anyone pays: the code is gone.
            let other = try await trip.run("request", "create", "Japan", "500", "JPY", "--json")
            let otherCode = try #require((try JSONSerialization.jsonObject(with: Data(other.output.utf8)) as? [String: Any])?["code"] as? String)
            #expect(try await trip.run("request", "cancel", "Japan", otherCode).status == 0)
            let gone = try await trip.run("request", "pay", otherCode, "--yes", "--profile", "ben")
            #expect(gone.status != 0, "\(gone.output)")
            let bad = try await trip.run("request", "create", "Japan", "10.5", "JPY")
            #expect(bad.status != 0 && bad.error.contains("amount"), "\(bad.error)")
        }
    }
}
