import Foundation
import Testing

/// `splitter import FORMAT` against the real server (issue 18).
@Suite("splitter import splitwise")
struct ImportCommandTests {
    static let csv = """
        Date,Description,Category,Cost,Currency,Aki Tanaka,Bo,Chen

        2026-05-01,Ramen,Dining out,3000,JPY,2000,-1000,-1000
        2026-05-02,Bo paid Aki,Payment,500,JPY,-500,500,0
        2026-05-03,Nothing moved,General,900,JPY,0,0,0

        2026-05-04,Total balance, , ,JPY,1500,-500,-1000

        """

    @Test("a new group from a file, a dry run into a group, a bad line and a second import refused, each said plainly")
    func importFlow() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("splitwise-\(UUID()).csv")
            try Data(Self.csv.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            // act: a new group, Aki is "Aki Tanaka" in the file
            let created = try await trip.run(
                "import", "splitwise", file.path, "--new", "From Splitwise", "--map", "Aki Tanaka=me")

            // validate
            #expect(created.status == 0, "\(created.error)")
            #expect(
                created.lines.first == "Imported 1 expense and 1 transfer into the new group From Splitwise.",
                "\(created.output)")
            #expect(created.output.contains("Members: Aki Tanaka → you (Aki); Bo → new member; Chen → new member"))
            #expect(created.output.contains("Total-balance lines checked: JPY (all match)."))
            #expect(created.output.contains("Home currency: JPY."), "\(created.output)")
            // A dry run says which it would be and how to choose another; --home-currency chooses.
            let other = try await trip.run(
                "import", "splitwise", file.path, "--new", "Elsewhere", "--home-currency", "EUR", "--dry-run")
            #expect(other.output.contains("Home currency: EUR (--home-currency CODE for another)."), "\(other.output)")
            let misplaced = try await trip.run("import", "splitwise", file.path, "--group", "Japan", "--home-currency", "EUR")
            #expect(misplaced.status == 2 && misplaced.error.contains("--home-currency is for --new"), "\(misplaced.error)")
            #expect(created.output.contains("Skipped line 5: no money moves between members"))
            // Not a terminal: plain progress lines, each quarter of the bytes, then the wait.
            #expect(created.error.contains("Sending splitwise-"), "\(created.error)")
            #expect(created.error.contains(": 100% (1 KB of 1 KB)") && created.error.contains("Importing…\nDone."), "\(created.error)")
            let balances = try await trip.run("balances", "From Splitwise")
            #expect(balances.row("Aki", "1500") != nil && balances.row("Chen", "-1000") != nil, "\(balances.output)")

            // A dry run into Japan: Bo is no member there, so he would be new; nothing is written.
            let dry = try await trip.run("import", "splitwise", file.path, "--group", "Japan", "--dry-run", "--json")
            #expect(dry.status == 0, "\(dry.error)")
            let summary = try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any]
            #expect(summary?["dryRun"] as? Bool == true)
            #expect((summary?["members"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["new", "new", "new"])
            let list = try await trip.json("expense", "list", "Japan") as? [[String: Any]]
            #expect(list?.isEmpty == true)

            // Exported and imported again: the same balances in a third group.
            let exported = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID()).csv")
            defer { try? FileManager.default.removeItem(at: exported) }
            let export = try await trip.run("export", "From Splitwise", "--output", exported.path)
            #expect(export.status == 0 && export.error.contains("Wrote From Splitwise"), "\(export.error)")
            let back = try await trip.run("import", "splitwise", exported.path, "--new", "Round trip")
            #expect(back.status == 0 && back.output.contains("Total-balance lines checked: JPY (all match)."), "\(back.output)\(back.error)")
            let zip = FileManager.default.temporaryDirectory.appendingPathComponent("all-\(UUID()).zip")
            defer { try? FileManager.default.removeItem(at: zip) }
            let all = try await trip.run("export", "--all", "--output", zip.path)
            #expect(all.status == 0 && (try? Data(contentsOf: zip))?.prefix(2) == Data("PK".utf8), "\(all.error)")
            let stdout = try await trip.run("export", "From Splitwise", "--format", "csv")
            #expect(stdout.output.hasPrefix("Date,Type,Description"), "\(stdout.output)")

            // Into Japan for real, then again: refused without --force.
            #expect(try await trip.run("import", "splitwise", file.path, "--group", "Japan", "--map", "Chen=Cho").status == 0)
            let again = try await trip.run("import", "splitwise", file.path, "--group", "Japan")
            #expect(again.status == 6 && again.error.contains("imported into this group before on 20"), "\(again.error)")
            #expect(again.error.contains("--force in the CLI"), "\(again.error)")
            #expect(again.error.range(of: #"\d{4}-\d{2}-\d{2}T\d"#, options: .regularExpression) == nil, "\(again.error)")
            #expect(try await trip.run("import", "splitwise", file.path, "--group", "Japan", "--force").status == 0)

            // A bad line: exit 7 naming it; a file that is not there: exit 2.
            try Data(Self.csv.replacingOccurrences(of: "3000,JPY", with: "30.5,JPY").utf8).write(to: file)
            let bad = try await trip.run("import", "splitwise", file.path, "--new", "Bad")
            #expect(bad.status == 7 && bad.error.contains("line 3, column “Cost”"), "\(bad.error)")
            let missing = try await trip.run("import", "splitwise", "/no/such/file.csv", "--new", "X")
            #expect(missing.status == 2 && missing.error.contains("cannot read"), "\(missing.error)")
            let neither = try await trip.run("import", "splitwise", file.path)
            #expect(neither.status != 0 && neither.error.contains("--group NAME or --new NAME"), "\(neither.error)")
        }
    }

    @Test("the whole group as JSON and back: export --format json, import json names the group itself; other apps' files")
    func jsonAndOtherApps() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("splitwise-\(UUID()).csv")
            try Data(Self.csv.utf8).write(to: file)
            let json = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID()).json")
            defer {
                try? FileManager.default.removeItem(at: file)
                try? FileManager.default.removeItem(at: json)
            }
            #expect(
                try await trip.run(
                    "import", "splitwise", file.path, "--new", "Kyoto", "--map", "Aki Tanaka=me", "--time-zone", "Asia/Tokyo"
                ).status == 0)

            // act
            let export = try await trip.run("export", "Kyoto", "--format", "json", "--output", json.path)
            let back = try await trip.run("import", "json", json.path, "--map", "Aki=me")

            // validate: the file names its group; the copy has the same balances
            #expect(export.status == 0, "\(export.error)")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
            #expect(document?["format"] as? String == "budget-splitter/group")
            #expect(back.status == 0, "\(back.error)")
            // Beside the Kyoto it came from, the copy is told apart.
            #expect(
                back.lines.first == "Imported 1 expense and 1 transfer into the new group Kyoto (imported).",
                "\(back.output)")
            let groups = try await trip.json("group", "list") as? [[String: Any]]
            let both = ["Kyoto", "Kyoto (imported)"]
            let kyotos = both.compactMap { name in groups?.first { $0["name"] as? String == name }?["id"] as? String }
            #expect(kyotos.count == 2)
            if kyotos.count == 2 {
                // The file's zone comes with it (found by review: this computer's replaced it).
                #expect(groups?.filter { both.contains($0["name"] as? String ?? "") }.allSatisfy { $0["timeZone"] as? String == "Asia/Tokyo" } == true, "\(groups ?? [])")
                let first = try await trip.run("balances", kyotos[0])
                let second = try await trip.run("balances", kyotos[1])
                #expect(first.lines.sorted() == second.lines.sorted(), "\(first.output) vs \(second.output)")
            }

            // IHateMoney's bills into Japan (JPY): weights, a reimbursement.
            let bills = FileManager.default.temporaryDirectory.appendingPathComponent("bills-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: bills) }
            try Data(
                #"[{"what":"Ramen","amount":3000.0,"currency":"JPY","date":"2026-05-01","payer_name":"Aki","payer_weight":2.0,"owers":["Aki","Ben"]},{"what":"Settlement","amount":1000.0,"currency":"JPY","date":"2026-05-02","payer_name":"Ben","payer_weight":1.0,"owers":["Aki"],"bill_type":"Reimbursement"}]"#
                    .utf8
            ).write(to: bills)
            let moved = try await trip.run("import", "ihatemoney", bills.path, "--group", "Japan", "--json")
            #expect(moved.status == 0, "\(moved.error)")
            let summary = try JSONSerialization.jsonObject(with: Data(moved.output.utf8)) as? [String: Any]
            #expect(summary?["expenses"] as? Int == 1 && summary?["settlements"] as? Int == 1, "\(moved.output)")
            let balances = try await trip.run("balances", "Japan")
            #expect(!balances.output.contains("1000"), "\(balances.output)")
            let wrong = try await trip.run("import", "spliit", bills.path, "--group", "Japan")
            #expect(wrong.status == 7 && wrong.error.contains("not a Spliit group export"), "\(wrong.error)")
        }
    }
}
