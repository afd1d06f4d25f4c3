import Foundation
@testable import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing
import ZIPFoundation

/// Moving out (issue 18): a group exported in Splitwise's layout reads back, through our own
/// import, to the same balances; its total lines are the group's balances.
@Suite("Exports: Splitwise's layout and a flat sheet")
struct ExportUseCaseTests {
    @Test(
        "export → import into a new group → the same balances, every split mode, a refund, several payers, a transfer, two currencies",
        arguments: TestDatabases.all)
    func roundTrip(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            // setup: a group's history in two currencies; the ramen in a category that starts like
            // a formula (found by review: it came back with the export's apostrophe)
            let formula = try await CategoryUseCases(database: trip.database, now: { milliseconds() })
                .create(EnteredCategory(name: "@SUM(A1)"), groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            var ramen = trip.ramen("1000")
            ramen.category = formula.id.text
            _ = try await trip.create(ramen)
            _ = try await trip.create(
                EnteredExpense(
                    description: "=HYPERLINK(\"x\"), hotel", amount: "30000", currency: "JPY", expenseDate: "2026-05-02",
                    paidBy: [
                        EnteredAmount(memberId: trip.akiMember.description, value: "20000"),
                        EnteredAmount(memberId: trip.boMember.description, value: "10000"),
                    ],
                    split: EnteredSplit(
                        mode: .shares,
                        shares: [
                            .init(memberId: trip.akiMember.description, shares: "2"),
                            .init(memberId: trip.deeMember.description, shares: "1"),
                        ])))
            _ = try await trip.create(
                EnteredExpense(
                    description: "Deposit back", amount: "-45.50", currency: "MYR", expenseDate: "2026-05-03",
                    paidByMemberId: trip.boMember.description,
                    split: EnteredSplit(
                        mode: .equal, memberIds: [trip.akiMember, trip.boMember, trip.deeMember].map(\.description))))
            let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
            _ = try await ledger.recordSettlement(
                EnteredSettlement(
                    fromMemberId: trip.deeMember.description, toMemberId: trip.akiMember.description, amount: "500",
                    currency: "JPY"),
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin, idempotency: nil,
                render: { _ in StoredResponse(status: 201, body: Data()) })
            let before = try await ImportUseCaseTests.balances(trip, groupID: trip.groupID, caller: trip.aki)

            // act
            let exports = ExportUseCases(database: trip.database, now: { milliseconds() })
            let file = try await exports.export(trip.groupID, format: .splitwiseCSV, caller: trip.vic)
            let report = try await ImportUseCaseTests.imports(trip).importFile(
                file.data, format: .splitwise, into: .newGroup(name: "Back again", timeZone: nil), mapping: [:], dryRun: false, force: false,
                caller: trip.bo, origin: trip.origin)

            // validate: both total lines checked, and the new group's balances are the old one's
            #expect(report.footersChecked == ["JPY", "MYR"])
            #expect(report.expenses == 3 && report.settlements == 1)
            let after = try await ImportUseCaseTests.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(after == before, "\(String(decoding: file.data, as: UTF8.self))")
            let text = String(decoding: file.data, as: UTF8.self)
            let header = text.split(separator: "\n").first.map { $0.split(separator: ",").map(String.init) } ?? []
            #expect(header.prefix(5) == ["Date", "Description", "Category", "Cost", "Currency"])
            #expect(Set(header.dropFirst(5)) == ["Aki", "Bo", "Vic", "Dee"], "\(text)")
            #expect(text.contains("\"'=HYPERLINK(\"\"x\"\"), hotel\""), "a formula is kept from running: \(text)")
            #expect(text.contains(",Payment,500,JPY,"))
            let back = try await trip.expenses.list(groupID: report.group.id, filter: { ExpenseFilter() }, caller: trip.bo)
            #expect(back.expenses.contains { $0.expense.description == "=HYPERLINK(\"x\"), hotel" }, "the apostrophe comes off")
            #expect(text.contains(",'@SUM(A1),"), "a category that starts like a formula is kept from running: \(text)")
            let categories = try await CategoryStore(database: trip.database).allCategories(groupID: report.group.id)
            #expect(categories.contains { $0.name == "@SUM(A1)" } && !categories.contains { $0.name.hasPrefix("'") },
                    "the category's apostrophe comes off: \(categories.map(\.name))")
            #expect(file.filename.hasSuffix("-splitwise.csv") && file.filename.hasPrefix("Japan-"))

            // The flat sheet: a row per member of each line, and each member's balance at the end.
            let flat = String(decoding: try await exports.export(trip.groupID, format: .csv, caller: trip.aki).data, as: UTF8.self)
            #expect(flat.hasPrefix("Date,Type,Description,Category,Currency,Total,Member,Paid,Owed,Net\n"))
            // Bo received 45.50 and his third of it is 15.16 or 15.17 (the tie-break decides).
            #expect(
                flat.contains(",refund,Deposit back,Other,MYR,-45.50,Bo,-45.50,-15.16,-30.34")
                    || flat.contains(",refund,Deposit back,Other,MYR,-45.50,Bo,-45.50,-15.17,-30.33"), "\(flat)")
            let totals = flat.split(separator: "\n").filter { $0.hasPrefix(",balance,") }
            #expect(totals.count == before.count, "\(flat)")
            await #expect(throws: AppError.notFound("group")) {
                try await exports.export(trip.groupID, format: .csv, caller: trip.stranger)
            }
        }
    }

    @Test("a file's name goes in Content-Disposition in ASCII, with the name as it is after it where it has other letters")
    func disposition() {
        let plain = ExportedFile(filename: "Partage-2026-12-07.json", contentType: "application/json", data: Data())
        #expect(plain.disposition == #"attachment; filename="Partage-2026-12-07.json""#)
        let accented = ExportedFile(filename: "Café-東京-2026-12-07.json", contentType: "application/json", data: Data())
        #expect(
            accented.disposition
                == #"attachment; filename="Caf_-__-2026-12-07.json"; filename*=UTF-8''Caf%C3%A9-%E6%9D%B1%E4%BA%AC-2026-12-07.json"#,
            "\(accented.disposition)")
    }

    @Test("an expense in a category called Payment stays an expense through the Splitwise file")
    func paymentCategory() async throws {
        try await Trip.with(.sqlite) { trip in
            // Found by review: the reader takes a "Payment" row for a transfer, so such an
            // expense came back as one (or, with the payer's own share, was refused).
            let category = try await CategoryUseCases(database: trip.database, now: { milliseconds() })
                .create(EnteredCategory(name: "Payment"), groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            var entered = trip.ramen("900")
            entered.category = category.id.text
            _ = try await trip.create(entered)
            let before = try await ImportUseCaseTests.balances(trip, groupID: trip.groupID, caller: trip.aki)
            let file = try await ExportUseCases(database: trip.database, now: { milliseconds() })
                .export(trip.groupID, format: .splitwiseCSV, caller: trip.aki)
            let report = try await ImportUseCaseTests.imports(trip).importFile(
                file.data, format: .splitwise, into: .newGroup(name: "Back", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.aki, origin: trip.origin)
            #expect(report.expenses == 1 && report.settlements == 0, "\(String(decoding: file.data, as: UTF8.self))")
            #expect(try await ImportUseCaseTests.balances(trip, groupID: report.group.id, caller: trip.aki) == before)
        }
    }

    @Test("members who share a name get distinct columns, never one a member already has, and the file imports back")
    func sameNames() async throws {
        try await Trip.with(.sqlite) { trip in
            let groups = GroupStore(database: trip.database)
            // A removed "bo" beside Bo (two active members of one name are refused).
            for (name, active) in [("Bo (2)", true), ("bo", false)] {
                try await groups.addMember(
                    MemberRecord(
                        id: UUID(), groupID: trip.groupID, userID: nil, name: name, role: .member, isActive: active,
                        createdAt: milliseconds(), updatedAt: milliseconds()))
            }
            _ = try await trip.create(trip.ramen("900"))
            let file = try await ExportUseCases(database: trip.database, now: { milliseconds() })
                .export(trip.groupID, format: .splitwiseCSV, caller: trip.aki)
            let header = String(decoding: file.data, as: UTF8.self).split(separator: "\n")[0].split(separator: ",")
            #expect(Set(header.dropFirst(5).map { $0.lowercased() }).count == header.count - 5, "\(header)")
            let report = try await ImportUseCaseTests.imports(trip).importFile(
                file.data, format: .splitwise, into: .newGroup(name: "Names", timeZone: nil), mapping: [:], dryRun: false, force: false,
                caller: trip.bo, origin: trip.origin)
            #expect(report.expenses == 1)
        }
    }

    @Test("an account's export: one zip with account.json and each group's spreadsheets and JSON; a removed membership is left out")
    func accountZip() async throws {
        try await Trip.with(.sqlite) { trip in
            _ = try await trip.create(trip.ramen("900"))
            let exports = ExportUseCases(database: trip.database, now: { milliseconds() })
            let file = try await exports.exportAccount(caller: trip.bo)
            #expect(file.contentType == "application/zip" && file.filename.hasSuffix(".zip"))
            let archive = try Archive(data: file.data, accessMode: .read)
            var entries: [String: Data] = [:]
            for entry in archive {
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                entries[entry.path] = data
            }
            #expect(
                Set(entries.keys) == ["account.json", "Japan/splitwise.csv", "Japan/shares.csv", "Japan/group.json"],
                "\(entries.keys)")
            let group = try await exports.export(trip.groupID, format: .splitwiseCSV, caller: trip.bo)
            #expect(entries["Japan/splitwise.csv"] == group.data)
            let account = try JSONSerialization.jsonObject(with: entries["account.json"] ?? Data()) as? [String: Any]
            #expect(account?["displayName"] as? String == "Bo")
            #expect((account?["groups"] as? [[String: Any]])?.first?["role"] as? String == "member")
            // The stranger is in no group: only the profile.
            let alone = try Archive(data: try await exports.exportAccount(caller: trip.stranger).data, accessMode: .read)
            #expect(alone.map(\.path) == ["account.json"])
            // Groups whose names make one folder, in any case, get one each (found by a new user:
            // two got "Euro-Trip-01a24cbd" and unzip kept one).
            let groups = GroupUseCases(
                database: trip.database, now: { milliseconds() }, makeInviteCode: { UUID().uuidString.lowercased() })
            for name in ["Euro Trip", "euro trip", "Euro-Trip"] {
                _ = try await groups.create(EnteredGroup(name: name, homeCurrency: "EUR"), caller: trip.stranger)
            }
            let three = try Archive(data: try await exports.exportAccount(caller: trip.stranger).data, accessMode: .read)
            let folders = Set(three.map(\.path).filter { $0.hasSuffix("/group.json") }.map { $0.dropLast("/group.json".count).lowercased() })
            #expect(folders == ["euro-trip", "euro-trip-2", "euro-trip-3"], "\(three.map(\.path))")
        }
    }

    @Test("a real Splitwise export, imported and exported again, carries the same total lines")
    func realExportRoundTrip() async throws {
        try await Trip.with(.sqlite) { trip in
            let original = try ImportUseCaseTests.fixture("partage-elm-eur-gbp.csv")
            let first = try await ImportUseCaseTests.imports(trip).importFile(
                original, format: .splitwise, into: .newGroup(name: "Partage", timeZone: nil), mapping: [:], dryRun: false, force: false,
                caller: trip.bo, origin: trip.origin)
            let exported = try await ExportUseCases(database: trip.database, now: { milliseconds() })
                .export(first.group.id, format: .splitwiseCSV, caller: trip.bo)
            let again = try await ImportUseCaseTests.imports(trip).importFile(
                exported.data, format: .splitwise, into: .newGroup(name: "Partage again", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)
            #expect(again.expenses == first.expenses && again.settlements == first.settlements)
            let a = try await ImportUseCaseTests.balances(trip, groupID: first.group.id, caller: trip.bo)
            let b = try await ImportUseCaseTests.balances(trip, groupID: again.group.id, caller: trip.bo)
            #expect(a == b)
        }
    }
}
