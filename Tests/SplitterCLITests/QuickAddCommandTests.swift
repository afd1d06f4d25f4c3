import Foundation
import SplitClient
import Testing

/// `splitter add` against the real server (issue 21).
@Suite("splitter add")
struct QuickAddCommandTests {
    @Test("one line: the preview with names and shares, saved with --yes; an open question is refused, nothing saved")
    func quickAdd() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // act
            let added = try await trip.run("add", "Japan", "Ramen ¥1200 paid by Ben, all", "--yes")
            // validate
            #expect(added.status == 0, "\(added.error)")
            #expect(added.output.contains("Ramen: 1200 JPY") && added.output.contains("Paid by Ben 1200"), "\(added.output)")
            #expect(added.output.contains("Shares: ") && added.output.contains("Cho 400"), "\(added.output)")
            // Its short id is known here at once, with nothing listed first (found by review).
            let short = try #require(added.lines.last?.split(separator: "(").last?.dropLast(2).description)
            let edited = try await trip.run("expense", "edit", short, "--description", "Tonkotsu")
            #expect(edited.status == 0, "\(short): \(edited.error)")
            let list = try await trip.json("expense", "list", "Japan") as? [[String: Any]]
            #expect(list?.count == 1 && list?.first?["amount"] as? String == "1200")
            // A dollar in a yen group, and nobody said who shares: refused, saying so.
            let open = try await trip.run("add", "Japan", "Coffee $5", "--yes")
            #expect(open.status == 7 && open.error.contains("Which currency"), "\(open.error)")
            let nobody = try await trip.run("add", "Japan", "Taxi 1800", "--yes")
            #expect(nobody.status == 7 && nobody.error.contains("who shares"), "\(nobody.error)")
            let after = try await trip.json("expense", "list", "Japan") as? [[String: Any]]
            #expect(after?.count == 1)
        }
    }
}
