import Crypto
import Foundation
@testable import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// Moving in from Splitwise (issue 18), through the use case on a real database: real exports
/// (Fixtures/splitwise/SOURCES.md), exact to the minor unit, or refused whole.
@Suite("Imports: Splitwise files")
struct ImportUseCaseTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/splitwise")

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    static func imports(_ trip: Trip) -> ImportUseCases {
        ImportUseCases(database: trip.database, now: { milliseconds() }, makeInviteCode: { UUID().uuidString })
    }

    /// The group's stored balances by "currency/member name".
    static func balances(_ trip: Trip, groupID: UUID, caller: Caller) async throws -> [String: Int64] {
        let ledger = LedgerUseCases(database: trip.database, now: { milliseconds() })
        let members = try await GroupStore(database: trip.database).members(groupID: groupID)
        let names = Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0.name) })
        var result: [String: Int64] = [:]
        for net in try await ledger.balances(groupID: groupID, caller: caller).nets where net.net != 0 {
            result["\(net.currency)/\(names[net.memberID] ?? "?")"] = net.net
        }
        return result
    }

    /// What the file's lines say each name's balance is: its footers, or its columns added up.
    static func expected(_ file: SplitwiseFile) -> [String: Int64] {
        var sums: [String: Int64] = [:]
        for row in file.rows {
            for (name, cell) in zip(file.names, row.cells) { sums["\(row.currency.code)/\(name)", default: 0] += cell }
        }
        return sums.filter { $0.value != 0 }
    }

    @Test(
        "every real export that balances becomes a new group whose stored balances are its footers to the cent",
        arguments: [
            ("brazil-expenses-brl-10-members.csv", 33, 0), ("hayat-usd-two-person.csv", 152, 0),
            ("partage-elm-eur-gbp.csv", 8, 4), ("spliit-cloud-drift-crlf-nofooter.csv", 15, 6),
            ("spliit-cloud-friend-note-preamble.csv", -1, -1), ("spliit-cloud-mkd-two-person.csv", -1, -1),
            ("spliit-cloud-multi-payer-3cur.csv", 5, 0),
        ])
    func realExports(name: String, expenses: Int, settlements: Int) async throws {
        try await Trip.with(.sqlite) { trip in
            let data = try Self.fixture(name)
            let file = try SplitwiseFile.read(data)

            // act
            let report = try await Self.imports(trip).importFile(
                data, format: .splitwise, into: .newGroup(name: "From Splitwise", timeZone: "Europe/Paris"), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)

            // validate: every footer checked; the stored balances are what the file's lines say
            #expect(report.footersChecked.sorted() == Set(file.footers.map(\.currency.code)).sorted())
            if expenses >= 0 {
                #expect(report.expenses == expenses && report.settlements == settlements, "\(report.expenses) \(report.settlements)")
            }
            #expect(report.expenses + report.settlements >= file.rows.count)
            let stored = try await Self.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(stored == Self.expected(file), "\(name)")
            for footer in file.footers {
                for (member, cell) in zip(file.names, footer.cells) {
                    #expect(stored["\(footer.currency.code)/\(member)", default: 0] == cell, "\(name) \(member)")
                }
            }
            // Each name is a name-only member with exactly that name; the importer owns the group.
            let members = try await GroupStore(database: trip.database).members(groupID: report.group.id)
            #expect(Set(members.filter { $0.userID == nil }.map(\.name)) == Set(file.names))
            #expect(members.first { $0.userID == trip.bo.user.id }?.role == .owner)
            #expect(report.group.timeZone == "Europe/Paris")
        }
    }

    @Test("2,000 generated rows (several currencies, refunds, payments) import exactly; a file with no rows is refused", arguments: TestDatabases.all)
    func largeAndEmpty(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let written = SplitwiseFilePropertyTests.write(seed: 2026, rows: 2_000)
            let report = try await Self.imports(trip).importFile(
                Data(written.text.utf8), format: .splitwise, into: .newGroup(name: "Big", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)
            #expect(report.expenses + report.settlements >= written.rows && written.rows > 1_500)
            let stored = try await Self.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(stored == written.balances)

            // A header alone is refused, not an empty group (found by a new user: "Imported 0").
            do {
                _ = try await Self.imports(trip).importFile(
                    Data("Date,Description,Category,Cost,Currency,A,B\n".utf8), format: .splitwise,
                    into: .newGroup(name: "Empty", timeZone: nil), mapping: [:], dryRun: false, force: false, caller: trip.bo,
                    origin: trip.origin)
                Issue.record("a file without rows made a group")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "file" && message.contains("no expenses or transfers to import"), "\(message)")
            }
        }
    }

    @Test("a payment to two, a multi-payer row, a refund and Splitwise's categories come in as they were")
    func rowsByKind() async throws {
        try await Trip.with(.sqlite) { trip in
            let csv = """
                Date,Description,Category,Cost,Currency,Alice,Bob,Charlie

                2025-11-15,Dinner,Dining out,30.00,EUR,20.00,-10.00,-10.00
                2025-11-16,"Hotel, two nights",Hotel,30.00,EUR,5.00,5.00,-10.00
                2025-11-17,Deposit back,General,-30.00,EUR,-20.00,10.00,10.00
                2025-11-20,Alice paid Bob and Charlie,Payment,15.00,EUR,15.00,-10.00,-5.00
                2025-11-21,Self-paid,General,90.00,EUR,0.00,0.00,0.00

                2025-11-22,Total balance, , ,EUR,20.00,-5.00,-15.00

                """
            let report = try await Self.imports(trip).importFile(
                Data(csv.utf8), format: .splitwise, into: .newGroup(name: "Kinds", timeZone: nil), mapping: ["Alice": "me"],
                dryRun: false, force: false, caller: trip.bo, origin: trip.origin)
            #expect(report.expenses == 3 && report.settlements == 2)
            #expect(report.skipped == [.init(line: 7, reason: "no money moves between members (every member's cell is 0)")])
            #expect(report.members.first?.kind == .me && report.members.first?.memberName == "Bo")
            #expect(report.newCategories == ["Dining out", "General"])
            #expect(report.group.homeCurrency == "EUR")
            let stored = try await Self.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(stored == ["EUR/Bo": 2000, "EUR/Bob": -500, "EUR/Charlie": -1500])
            let expenses = try await trip.expenses.list(
                groupID: report.group.id, filter: { ExpenseFilter() }, caller: trip.bo)
            let hotel = try #require(expenses.expenses.first { $0.expense.description == "Hotel, two nights" })
            // 30.00 paid by Bo (as Alice) and Bob, 15.00 each in proportion to their cells; their
            // own shares 10.00 each, Charlie 10.00.
            #expect(hotel.expense.payers.map(\.amount).sorted() == [1500, 1500])
            #expect(hotel.expense.shares.map(\.amount).sorted() == [1000, 1000, 1000])
            #expect(hotel.categoryNames[hotel.expense.categoryID] == "Hotel")
            let refund = try #require(expenses.expenses.first { $0.expense.description == "Deposit back" })
            #expect(refund.expense.amount == -3000)

            // The importer may choose the new group's home currency (found by review: it was the
            // file's without asking); one this server does not know is refused on its field.
            let chosen = try await Self.imports(trip).importFile(
                Data(csv.utf8), format: .splitwise, into: .newGroup(name: "Kinds", timeZone: nil, homeCurrency: "gbp"),
                mapping: ["Alice": "me"], dryRun: true, force: false, caller: trip.bo, origin: trip.origin)
            #expect(chosen.group.homeCurrency == "GBP")
            do {
                _ = try await Self.imports(trip).importFile(
                    Data(csv.utf8), format: .splitwise, into: .newGroup(name: "Kinds", timeZone: nil, homeCurrency: "XXQ"),
                    mapping: [:], dryRun: true, force: false, caller: trip.bo, origin: trip.origin)
                Issue.record("XXQ was taken as a home currency")
            } catch AppError.invalid(let field, _) {
                #expect(field == "homeCurrency")
            }
        }
    }

    @Test("an old export's rows that do not add up to zero put their missing part on “Not in the file”; the file's balances are kept and the footer matches (the 2013 export was refused whole)")
    func legacyUnbalancedRows() async throws {
        try await Trip.with(.sqlite) { trip in
            let data = try Self.fixture("moneystack-2013-legacy.csv")
            let file = try SplitwiseFile.read(data)
            // act
            let report = try await Self.imports(trip).importFile(
                data, format: .splitwise, into: .newGroup(name: "Moneystack", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)
            // validate: every row came in; the footer was checked; the balances are the footer's
            #expect(report.footersChecked == ["USD"])
            #expect(report.expenses + report.settlements == file.rows.count)
            #expect(report.members.map(\.name) == ["Christian", "Bobz", "Krissy", "Not in the file"])
            let stored = try await Self.balances(trip, groupID: report.group.id, caller: trip.bo)
            // The missing parts of the 101 rows add up to nothing over the file: its people owe
            // each other what the footer says, and "Not in the file" is square.
            #expect(stored == ["USD/Christian": 6348, "USD/Bobz": -22629, "USD/Krissy": 16281], "\(stored)")
            #expect(report.notes.count == 1)
            #expect(report.notes.first?.hasPrefix("101 lines, the first line 3, do not add up to zero") == true, "\(report.notes)")
            // The maids: 85.00, of which the three owed 17.00 each; the rest is the missing people's.
            let (expenses, _, _) = try await trip.expenses.liveExpenses(groupID: report.group.id, caller: trip.bo)
            let maids = try #require(expenses.first { $0.description == "Maids" && $0.expenseDate == "2012-08-29" })
            #expect(maids.amount == 8500 && maids.liveShares.map(\.amount).sorted() == [1700, 1700, 1700, 3400], "\(maids.shares) \(maids.payers)")
        }
    }

    @Test(
        "a row that costs 0 but moves money is the transfers its cells say, and said so (it refused the file)",
        arguments: ["spliit-pr483-basic-nofooter.csv", "spliit-pr483-german-header.csv"])
    func zeroCostRow(name: String) async throws {
        try await Trip.with(.sqlite) { trip in
            let data = try Self.fixture(name)
            let file = try SplitwiseFile.read(data)
            let report = try await Self.imports(trip).importFile(
                data, format: .splitwise, into: .newGroup(name: "Edge cases", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)
            #expect(report.notes == ["1 line, line 10, costs 0 but moves money: imported as the transfers its cells say."])
            #expect(try await Self.balances(trip, groupID: report.group.id, caller: trip.bo) == Self.expected(file))
            let transfers = try await LedgerUseCases(database: trip.database, now: { milliseconds() }).settlements(
                groupID: report.group.id, includeDeleted: false, caller: trip.bo)
            #expect(transfers.contains { $0.amount == 1000 && $0.date == "2025-11-22" }, "\(transfers)")
        }
    }

    @Test("a problem with an expense names its line in a CSV file and its place in a JSON one")
    func problemPlaces() {
        func said(_ format: ImportedFile.Format) -> String {
            ImportedFile(format: format, names: []).problem(at: 4, "the shares add up to more than the total").description
        }
        #expect(said(.splitwise) == "line 4: the shares add up to more than the total")
        #expect(said(.cospend) == "line 4: the shares add up to more than the total")
        #expect(said(.json) == "at “expenses[3]”: the shares add up to more than the total")
        #expect(said(.spliit) == "at “expenses[3]”: the shares add up to more than the total")
        #expect(said(.ihatemoney) == "at “[3]”: the shares add up to more than the total")
    }

    @Test("a corrupted footer refuses the file, naming the currency, the member and both amounts")
    func corruptedFooter() async throws {
        try await Trip.with(.sqlite) { trip in
            var text = String(decoding: try Self.fixture("partage-elm-eur-gbp.csv"), as: UTF8.self)
            text = text.replacingOccurrences(
                of: "Total balance, , ,GBP,0.00,0.00,0.00", with: "Total balance, , ,GBP,0.00,0.01,-0.01")
            let problem = await Self.refusal(trip, Data(text.utf8))
            #expect(
                problem
                    == "line 17, column “Matthieu Pizenberg”: the file's total balance for Matthieu Pizenberg in GBP is 0.01, but its lines add up to 0.00; nothing was imported")
        }
    }

    @Test("a file is known whatever carried it: the hashes looked for include the shapes imports stored before")
    func sameFileHashes() {
        func hash(_ text: String) -> String { Hex.string(SHA256.hash(data: Data(text.utf8))) }
        // An import stored before hashed the bytes as they came: LF with a last newline from the
        // CLI; the web's text box sends CRLF without one.
        let fromWeb = ImportUseCases.contentHashes(Data("Date,Cost\r\n2026-01-01,5".utf8))
        for earlier in ["Date,Cost\n2026-01-01,5\n", "Date,Cost\n2026-01-01,5", "\u{FEFF}Date,Cost\r\n2026-01-01,5\r\n"] {
            #expect(fromWeb.contains(hash(earlier)), "\(earlier.debugDescription)")
        }
        // The first is what is stored now, the same for every shape of the same text.
        #expect(ImportUseCases.contentHashes(Data("Date,Cost\n2026-01-01,5\n".utf8)).first == fromWeb.first)
        // Another text is another file.
        #expect(!fromWeb.contains(hash("Date,Cost\n2026-01-01,6\n")))
    }

    @Test("an amount with zeros past its currency's decimals is read as it is: 2400.00 yen, 12.500 euros")
    func trailingZeros() throws {
        #expect(try ImportedFile.amount("2400.00", .jpy, line: 2, column: "Cost") == 2_400)
        #expect(try ImportedFile.amount("-1200.0", .jpy, line: 2, column: "Cost") == -1_200)
        #expect(try ImportedFile.amount("12.500", .eur, line: 2, column: "Cost") == 1_250)
        #expect(try ImportedFile.amount("12.5", .eur, line: 2, column: "Cost") == 1_250)
        #expect(try ImportedFile.amount("7", .jpy, line: 2, column: "Cost") == 7)
        #expect(throws: ImportProblem.self) { try ImportedFile.amount("2400.50", .jpy, line: 2, column: "Cost") }
    }

    @Test(
        "malformed files: each refusal names its line and column",
        arguments: [
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,12,50,EUR,6.25,-6.25\n", "line 2: 8 fields, but the header has 7"),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,\"12,50\",EUR,6.25,-6.25\n", "line 2, column “Cost”: \"12,50\" is not a number"),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,1.005,EUR,1.005,-1.005\n", "line 2, column “A”: \"1.005\" has more decimals than EUR has (2); it is not rounded"),
            // Zeros past the decimals are read; other digits are not (a zero before one is no help).
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,1.0050,EUR,1.0050,-1.0050\n", "line 2, column “A”: \"1.0050\" has more decimals than EUR has (2); it is not rounded"),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,1200,XYZ,600,-600\n", "line 2, column “Currency”: \"XYZ\" is not an ISO 4217 currency code"),
            ("Date,Description,Category,Cost,Currency,A,B\n01/02/2025,X,General,12,EUR,6,-6\n", "line 2, column “Date”: \"01/02/2025\" is not a date like 2026-07-14"),
            // Years as for an expense entered by hand (found by review: 9999 was taken).
            ("Date,Description,Category,Cost,Currency,A,B\n9999-11-01,X,General,12,EUR,6,-6\n", "line 2, column “Date”: “9999-11-01” is in the year 9999: write a date from 1900 to 2199"),
            ("Date,Description,Category,Cost,Currency,A,A\n", "line 1, column “A”: two member columns are named \"A\""),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,\"X,General,12,EUR,6,-6\n", "line 2: a quoted field that is never closed"),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,5,EUR,6,-6\n", "line 2: the cost is less than what the others owe the payers"),
            ("Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,Payment,5,EUR,6,-6\n", "line 2: the payment's amount is not what its payers' cells say they sent"),
            ("just some text\n", "no header"),
            // Another app's JSON, or a file saved in another encoding and read by a browser.
            (#"{"name":"Trip","expenses":[]}"#, "this looks like a JSON file, not Splitwise's CSV"),

            (
                "Date,Description,Category,Cost,Currency,A,B\n2025-01-01,X,General,10,EUR,5,-5\n"
                    + "2025-01-02,Total balance, , ,EUR,5,-5\n2025-01-02,Total balance, , ,EUR,5,-5\n",
                "line 4: a second total-balance line for EUR (the first is line 3)"
            ),
            (
                "Date,Description,Category,Cost,Currency," + (1...201).map { "M\($0)" }.joined(separator: ",") + "\n",
                "line 1: 201 member columns; a group holds at most 200 members"
            ),
            (String(repeating: ",", count: 400) + "\n", "line 1: more than 305 fields on one line"),
        ])
    func malformed(text: String, words: String) async throws {
        try await Trip.with(.sqlite) { trip in
            let problem = await Self.refusal(trip, Data(text.utf8))
            #expect(problem?.contains(words) == true, "\(problem ?? "imported")")
        }
    }

    @Test("a description longer than an expense keeps is cut, and the check says so")
    func longDescription() throws {
        let long = String(repeating: "Tea and cake ", count: 40)
        let text = "Date,Description,Category,Cost,Currency,A,B\n2025-01-01,\(long),General,12,EUR,6,-6\n2025-01-02,Short,General,12,EUR,6,-6\n"
        let file = try ImportUseCases.read(Data(text.utf8), format: .splitwise)
        #expect(file.expenses.first?.description.unicodeScalars.count == 200 && file.expenses.first?.description.hasSuffix("…") == true)
        #expect(file.notes == ["1 description, at line 2, was longer than 200 characters and is cut there, ending in “…”."], "\(file.notes)")
    }

    @Test("a file that is not UTF-8 is refused plainly")
    func notUTF8() async throws {
        try await Trip.with(.sqlite) { trip in
            let problem = await Self.refusal(trip, Data([0x44, 0x61, 0xFF, 0xFE, 0x0A]))
            #expect(problem == "the file is not UTF-8 text (save it as CSV, UTF-8)")
        }
    }

    /// The message of the refusal of a file imported into a new group; nil when it imported.
    static func refusal(_ trip: Trip, _ data: Data) async -> String? {
        do {
            _ = try await imports(trip).importFile(
                data, format: .splitwise, into: .newGroup(name: "X", timeZone: nil), mapping: [:], dryRun: true, force: false,
                caller: trip.bo, origin: trip.origin)
            return nil
        } catch AppError.invalid(_, let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "into a group: names matched to its members, a new one added, a dry run writes nothing, the same file twice is refused unless forced",
        arguments: TestDatabases.all)
    func intoGroup(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let csv = """
                Date,Description,Category,Cost,Currency,aki,Bo,Chen
                2026-05-01,Ramen,Meal,3000,JPY,2000,-1000,-1000
                2026-05-02,Taxi,Transport,45.50,MYR,-15.17,30.33,-15.16
                2026-05-03,Total balance, , ,JPY,2000,-1000,-1000
                2026-05-03,Total balance, , ,MYR,-15.17,30.33,-15.16
                """
            let data = Data(csv.utf8)
            let imports = Self.imports(trip)
            let dry = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: true, force: false, caller: trip.aki,
                origin: trip.origin)
            #expect(dry.members.map(\.kind) == [.me, .existing, .new])
            #expect(dry.members.map(\.memberName) == ["Aki", "Bo", "Chen"])
            #expect(dry.footersChecked == ["JPY", "MYR"])
            #expect(try await Self.balances(trip, groupID: trip.groupID, caller: trip.aki).isEmpty)

            // act
            let report = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: false, force: false, caller: trip.aki,
                origin: trip.origin)

            // validate
            #expect(report.expenses == 2)
            let expected: [String: Int64] = [
                "JPY/Aki": 2000, "JPY/Bo": -1000, "JPY/Chen": -1000, "MYR/Aki": -1517, "MYR/Bo": 3033,
                "MYR/Chen": -1516,
            ]
            #expect(try await Self.balances(trip, groupID: trip.groupID, caller: trip.aki) == expected)
            // Bo, whom the file names, hears of it (found by review: an import told nobody).
            let inbox = try await NotificationUseCases(database: trip.database, now: { milliseconds() })
                .inbox(caller: trip.bo, cursor: nil, limit: 50)
            #expect(inbox.notifications.contains { $0.activity.action == "import.completed" })
            await #expect(throws: AppError.self) {
                try await imports.importFile(
                    data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: false, force: false, caller: trip.aki,
                    origin: trip.origin)
            }
            #expect(try await Self.balances(trip, groupID: trip.groupID, caller: trip.aki) == expected)
            _ = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: false, force: true, caller: trip.aki,
                origin: trip.origin)
            #expect(
                try await Self.balances(trip, groupID: trip.groupID, caller: trip.aki) == expected.mapValues { $0 * 2 })
            let members = try await GroupStore(database: trip.database).members(groupID: trip.groupID)
            #expect(members.filter { $0.name == "Chen" }.count == 1)
        }
    }

    @Test("a removed member is never written to: a same-name column gets a new member, a mapping to them is refused")
    func removedMembers() async throws {
        try await Trip.with(.sqlite) { trip in
            let members = MemberUseCases(database: trip.database, now: { milliseconds() })
            _ = try await members.remove(
                trip.deeMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki, origin: trip.origin)
            let data = Data("Date,Description,Category,Cost,Currency,Aki,Dee\n2026-05-01,X,Meal,10,JPY,5,-5\n".utf8)
            let imports = Self.imports(trip)
            let report = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: true, force: false, caller: trip.aki,
                origin: trip.origin)
            #expect(report.members.map(\.kind) == [.me, .new])
            do {
                _ = try await imports.importFile(
                    data, format: .splitwise, into: .group(trip.groupID), mapping: ["Dee": trip.deeMember.description], dryRun: true,
                    force: false, caller: trip.aki, origin: trip.origin)
                Issue.record("a removed member was taken")
            } catch AppError.invalid(let field, let message) {
                #expect(field == "map" && message.contains("Dee is no longer in the group"), "\(message)")
            }
        }
    }

    @Test("who may import into a group: the owner and admins; a member is refused, a stranger sees no group")
    func rights() async throws {
        try await Trip.with(.sqlite) { trip in
            let data = Data("Date,Description,Category,Cost,Currency,A,B\n2026-05-01,X,Meal,10,JPY,5,-5\n".utf8)
            await #expect(throws: AppError.forbidden) {
                try await Self.imports(trip).importFile(
                    data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: true, force: false, caller: trip.bo,
                    origin: trip.origin)
            }
            await #expect(throws: AppError.notFound("group")) {
                try await Self.imports(trip).importFile(
                    data, format: .splitwise, into: .group(trip.groupID), mapping: [:], dryRun: true, force: false, caller: trip.stranger,
                    origin: trip.origin)
            }
        }
    }

    @Test("mapping: to a member by name, me, or new; an unknown name or two names to one member are refused")
    func mapping() async throws {
        try await Trip.with(.sqlite) { trip in
            let data = Data("Date,Description,Category,Cost,Currency,Alice,Bob\n2026-05-01,X,Meal,10,JPY,5,-5\n".utf8)
            let imports = Self.imports(trip)
            let mapped = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: ["alice": "Dee", "Bob": "me"], dryRun: true, force: false,
                caller: trip.aki, origin: trip.origin)
            #expect(mapped.members.map(\.memberName) == ["Dee", "Aki"])
            #expect(mapped.members.map(\.kind) == [.existing, .me])
            // Names match as everywhere else, without case or accents: "Dée" is Dee, "Bób" is Bob.
            let accented = try await imports.importFile(
                data, format: .splitwise, into: .group(trip.groupID), mapping: ["Alicé": "Dée", "bób": "me"], dryRun: true,
                force: false, caller: trip.aki, origin: trip.origin)
            #expect(accented.members.map(\.memberName) == ["Dee", "Aki"])
            for (mapping, words) in [
                (["Carol": "me"], "The file has no member \"Carol\""),
                (["Alice": "Nobody"], "which is no member of this group"),
                (["Alice": "me", "Bob": "Aki"], "both go to Aki"),
            ] {
                do {
                    _ = try await imports.importFile(
                        data, format: .splitwise, into: .group(trip.groupID), mapping: mapping, dryRun: true, force: false,
                        caller: trip.aki, origin: trip.origin)
                    Issue.record("\(mapping) was taken")
                } catch AppError.invalid(let field, let message) {
                    #expect(field == "map" && message.contains(words), "\(message)")
                }
            }
        }
    }

    @Test("into a new group, the importer's own name in the file is the importer; a second member of a name already taken is refused")
    func ownNameInNewGroup() async throws {
        // Found by review: a new group from an export that names its maker got two members
        // called Aki (the owner, and a name-only one holding the file's money).
        try await Trip.with(.sqlite) { trip in
            let data = Data("Date,Description,Category,Cost,Currency,aki,Bo\n2026-05-01,X,Meal,10,JPY,5,-5\n".utf8)
            let imports = Self.imports(trip)
            let report = try await imports.importFile(
                data, format: .splitwise, into: .newGroup(name: "Copy", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.aki, origin: trip.origin)
            #expect(report.members.map(\.kind) == [.me, .new])
            #expect(report.members.map(\.memberName) == ["Aki", "Bo"])
            #expect(try await Self.balances(trip, groupID: report.group.id, caller: trip.aki) == ["JPY/Aki": 5, "JPY/Bo": -5])
            // Asked for a new member of the importer's name, or of an existing member's name: refused.
            for (target, mapping, words) in [
                (ImportTarget.newGroup(name: "Copy 2", timeZone: nil), ["aki": "new"], "second member called Aki; map it to me"),
                (ImportTarget.group(trip.groupID), ["Bo": "new"], "second member called Bo; map it to Bo"),
            ] {
                do {
                    _ = try await imports.importFile(
                        data, format: .splitwise, into: target, mapping: mapping, dryRun: true, force: false,
                        caller: trip.aki, origin: trip.origin)
                    Issue.record("\(mapping) was taken")
                } catch AppError.invalid(let field, let message) {
                    #expect(field == "map" && message.contains(words), "\(message)")
                }
            }
        }
    }
}
