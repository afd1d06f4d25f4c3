import Foundation
import PropertyBased
@testable import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// Moving in from IHateMoney, Spliit and Cospend (issue 18): each fixture (Fixtures/*/SOURCES.md
/// says where its layout comes from and how its balances were worked out, in the app's own
/// terms) becomes a new group whose stored balances are the app's own, to the minor unit.
@Suite("Imports: IHateMoney, Spliit and Cospend files")
struct OtherAppImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ path: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(path)) }

    struct Case: Sendable, CustomStringConvertible {
        let path: String
        let format: ImportedFile.Format
        let expenses: Int
        let transfers: Int
        let balances: [String: Int64]
        var description: String { path }
    }

    static let cases: [Case] = [
        Case(
            path: "ihatemoney/raclette-eur-cad-v5.json", format: .ihatemoney, expenses: 3, transfers: 0,
            balances: [
                "EUR/zorglub": 600, "EUR/fred": -1533, "EUR/tata": 1133, "EUR/pépé": -200, "CAD/fred": 10000,
                "CAD/zorglub": -6667, "CAD/tata": -3333,
            ]),
        Case(
            path: "ihatemoney/jpy-eur-bill-type-weights.json", format: .ihatemoney, expenses: 3, transfers: 1,
            balances: ["JPY/Zoë": -750, "JPY/李雷": 875, "JPY/Ana": -125, "EUR/Ana": 490, "EUR/Zoë": -490]),
        Case(
            path: "spliit/group-eur-all-split-modes.json", format: .spliit, expenses: 5, transfers: 1,
            balances: ["EUR/Ana": -3250, "EUR/Zoë": 5887, "EUR/李雷": -2637]),
        Case(
            path: "spliit/group-jpy-reimbursement.json", format: .spliit, expenses: 2, transfers: 1,
            balances: ["JPY/Taro": 167, "JPY/Zoë": 1166, "JPY/李雷": -1333]),
        Case(
            path: "cospend/roundtrip-usd-weights-recurring.csv", format: .cospend, expenses: 2, transfers: 0,
            balances: ["USD/Alice": 611, "USD/Bob": 2722, "USD/Carol": -3333]),
        Case(
            path: "cospend/eur-quotes-nonascii-reimbursement-deleted.csv", format: .cospend, expenses: 3, transfers: 1,
            balances: ["EUR/Zoë": -16645, "EUR/李雷": 18667, "EUR/Ana": -2022]),
        Case(
            path: "cospend/legacy-writer-jpy-no-deleted-column.csv", format: .cospend, expenses: 2, transfers: 1,
            balances: ["JPY/Taro": 143, "JPY/Zoë": 514, "JPY/李雷": -657]),
    ]

    @Test("every fixture becomes a new group whose stored balances are the app's own, to the minor unit", arguments: cases)
    func fixtures(_ example: Case) async throws {
        try await Trip.with(.sqlite) { trip in
            let data = try Self.fixture(example.path)
            let imports = ImportUseCaseTests.imports(trip)
            let dry = try await imports.importFile(
                data, format: example.format, into: .newGroup(name: "Moved in", timeZone: nil), mapping: [:], dryRun: true,
                force: false, caller: trip.bo, origin: trip.origin)
            #expect(dry.expenses == example.expenses && dry.settlements == example.transfers, "\(dry.expenses) \(dry.settlements)")

            // act
            let report = try await imports.importFile(
                data, format: example.format, into: .newGroup(name: "Moved in", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)

            // validate
            let stored = try await ImportUseCaseTests.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(stored == example.balances, "\(example.path): \(stored)")
            var nets: [String: Int64] = [:]
            for balance in report.balances where balance.net != 0 { nets["\(balance.currency)/\(balance.name)"] = balance.net }
            #expect(nets == example.balances)
        }
    }

    @Test(
        "a broken file of each app is refused whole, saying where, and writes nothing",
        arguments: [
            ("ihatemoney/refused-missing-amount.json", ImportedFile.Format.ihatemoney, "amount"),
            ("spliit/refused-unknown-payer.json", .spliit, "no participant has the id"),
            ("cospend/refused-non-numeric-amount.csv", .cospend, "is not a number"),
        ])
    func refusals(path: String, format: ImportedFile.Format, said: String) async throws {
        try await Trip.with(.sqlite) { trip in
            do {
                _ = try await ImportUseCaseTests.imports(trip).importFile(
                    try Self.fixture(path), format: format, into: .group(trip.groupID), mapping: [:], dryRun: false,
                    force: false, caller: trip.aki, origin: trip.origin)
                Issue.record("\(path) was imported")
            } catch let AppError.invalid(field, message) {
                #expect(field == "file")
                #expect(message.contains(said), "\(message)")
            }
            #expect(try await ImportUseCaseTests.balances(trip, groupID: trip.groupID, caller: trip.aki).isEmpty)
            #expect(try await GroupStore(database: trip.database).members(groupID: trip.groupID).count == 4)
        }
    }

    @Test("a file of one app read as another is refused with a sentence that says what it is not")
    func wrongFormat() throws {
        let spliit = try Self.fixture("spliit/group-jpy-reimbursement.json")
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(spliit, format: .ihatemoney) }
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(spliit, format: .cospend) }
        let ihatemoney = try Self.fixture("ihatemoney/raclette-eur-cad-v5.json")
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(ihatemoney, format: .spliit) }
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(ihatemoney, format: .json) }
    }

    @Test("files without a currency of their own take the group's home currency, or are refused for a new group")
    func homeCurrency() throws {
        let bills = Data(#"[{"what":"Pizza","amount":12.5,"currency":"XXX","date":"2026-05-01","payer_name":"A","payer_weight":1.0,"owers":["A","B"]}]"#.utf8)
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(bills, format: .ihatemoney) }
        let file = try ImportUseCases.read(bills, format: .ihatemoney, homeCurrency: try Currency(code: "MYR"))
        #expect(file.expenses.first?.currency.code == "MYR" && file.expenses.first?.total == 1250)
        // More decimals than the currency has is refused, never rounded.
        let yen = Data(#"[{"what":"Tea","amount":12.5,"currency":"JPY","date":"2026-05-01","payer_name":"A","payer_weight":1.0,"owers":["B"]}]"#.utf8)
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(yen, format: .ihatemoney) }
    }

    @Test("hostile files: a timestamp past any calendar, more people than a group holds, a participant twice")
    func hostile() throws {
        // A Unix time far past year 9999 falls back to the date column instead of trapping.
        let cospend = Data(
            "what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers\nx,1,2026-05-01,9223372036854775807,A,1,1,B\n\ncurrencyname,exchange_rate\nEUR,1\n".utf8)
        #expect(try ImportUseCases.read(cospend, format: .cospend).expenses.first?.date == "2026-05-01")
        let negative = Data(
            "what,amount,date,timestamp,payer_name,payer_weight,payer_active,owers\nx,1,,-9223372036854775808,A,1,1,B\n\ncurrencyname,exchange_rate\nEUR,1\n".utf8)
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(negative, format: .cospend) }
        // 100,000 owers: refused at the 201st name, at once.
        let owers = (0..<100_000).map { "\"p\($0)\"" }.joined(separator: ",")
        let bills = Data(#"[{"what":"x","amount":1.0,"currency":"EUR","date":"2026-05-01","payer_name":"A","payer_weight":1.0,"owers":["# .utf8)
            + Data(owers.dropFirst().dropLast().utf8) + Data(#""]}]"#.utf8)
        let started = Date()
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(bills, format: .ihatemoney) }
        #expect(Date().timeIntervalSince(started) < 10)
        // Spliit: one participant twice in paidFor is refused, not stored twice in the rule.
        var spliit = try JSONSerialization.jsonObject(with: try Self.fixture("spliit/group-jpy-reimbursement.json")) as! [String: Any]
        var expenses = spliit["expenses"] as! [[String: Any]]
        var paidFor = expenses[0]["paidFor"] as! [[String: Any]]
        paidFor.append(paidFor[0])
        expenses[0]["paidFor"] = paidFor
        spliit["expenses"] = expenses
        #expect(throws: ImportProblem.self) {
            try ImportUseCases.read(try JSONSerialization.data(withJSONObject: spliit), format: .spliit)
        }
    }

    @Test("Spliit's amounts in Spliit's decimals: forints without, a custom currency with two, converted exactly")
    func spliitDecimals() throws {
        // Found by review: Spliit keeps forints, rupiahs and Colombian pesos without decimals,
        // where ISO 4217 (and this server) gives them two, so 5,000 Ft read as 50.00 Ft.
        var forints = try JSONSerialization.jsonObject(with: try Self.fixture("spliit/group-jpy-reimbursement.json"))
            as! [String: Any]
        forints["currencyCode"] = "HUF"
        forints["currency"] = "Ft"
        let file = try ImportUseCases.read(try JSONSerialization.data(withJSONObject: forints), format: .spliit)
        let ramen = try #require(file.expenses.first)
        #expect(ramen.currency.code == "HUF" && ramen.total == 100_000)
        #expect(ramen.shares?.map(\.amount).sorted() == [33_300, 33_300, 33_400])
        #expect(file.transfers.allSatisfy { $0.amount % 100 == 0 })
        // A group without a code is Spliit's custom currency, with two decimals; "¥" is the yen.
        func custom(_ amount: Int) -> Data {
            Data(
                #"{"name":"T","currency":"¥","participants":[{"id":"a","name":"A"},{"id":"b","name":"B"}],"expenses":[{"id":"e1","expenseDate":"2025-04-01T00:00:00.000Z","title":"Ramen","amount":\#(amount),"paidById":"a","paidFor":[{"participantId":"a","shares":1},{"participantId":"b","shares":1}],"splitMode":"EVENLY"}]}"#
                    .utf8)
        }
        let yen = try ImportUseCases.read(custom(150_000), format: .spliit)
        #expect(yen.expenses.first?.total == 1_500 && yen.expenses.first?.currency.code == "JPY")
        #expect(yen.expenses.first?.shares?.map(\.amount) == [750, 750])
        #expect(throws: ImportProblem.self) { try ImportUseCases.read(custom(150_001), format: .spliit) }
    }

    @Test("Spliit's participants are told apart by id: two named Alex (and an alex) are three members, each with their own money")
    func spliitSameNames() async throws {
        // Found by review: the second Alex was looked up by name and became the first.
        let data = Data(
            #"{"name":"Dup","currencyCode":"EUR","participants":[{"id":"p1","name":"Alex"},{"id":"p2","name":"Alex"},{"id":"p3","name":"Sam"},{"id":"p4","name":"alex"}],"expenses":[{"id":"e1","expenseDate":"2024-05-01T00:00:00.000Z","title":"Hotel","amount":9000,"paidById":"p1","paidFor":[{"participantId":"p1","shares":1},{"participantId":"p3","shares":1}],"splitMode":"EVENLY"},{"id":"e2","expenseDate":"2024-05-02T00:00:00.000Z","title":"Food","amount":3000,"paidById":"p2","paidFor":[{"participantId":"p2","shares":1},{"participantId":"p3","shares":1}],"splitMode":"EVENLY"},{"id":"e3","expenseDate":"2024-05-03T00:00:00.000Z","title":"Taxi","amount":1000,"paidById":"p4","paidFor":[{"participantId":"p4","shares":1},{"participantId":"p3","shares":1}],"splitMode":"EVENLY"}]}"#
                .utf8)
        let file = try ImportUseCases.read(data, format: .spliit)
        #expect(file.names == ["Alex", "Alex (2)", "Sam", "alex (3)"])
        try await Trip.with(.sqlite) { trip in
            let report = try await ImportUseCaseTests.imports(trip).importFile(
                data, format: .spliit, into: .newGroup(name: "Dup", timeZone: nil), mapping: [:], dryRun: false,
                force: false, caller: trip.bo, origin: trip.origin)
            let stored = try await ImportUseCaseTests.balances(trip, groupID: report.group.id, caller: trip.bo)
            #expect(stored == ["EUR/Alex": 4_500, "EUR/Alex (2)": 1_500, "EUR/alex (3)": 500, "EUR/Sam": -6_500], "\(stored)")
        }
    }

    @Test("Spliit's shares: floor, then the leftover units to the largest remainders, ties rotated by the id's hash")
    func spliitShares() {
        // The fixtures' SOURCES.md: FNV-1a("j1Ramen8hZl2Wq7Tk9Vb3") % 3 = 2, so the third gets the yen.
        #expect(SpliitFile.hash("j1Ramen8hZl2Wq7Tk9Vb3") % 3 == 2)
        #expect(SpliitFile.apportion(1000, weights: [1, 1, 1], offset: 2) == [333, 333, 334])
        #expect(SpliitFile.apportion(1000, weights: [1, 1, 1], offset: 0) == [334, 333, 333])
        #expect(SpliitFile.apportion(-1000, weights: [1, 1, 1], offset: 0).reduce(0, +) == -1000)
    }

    @Test("names that look alike: case, accents, a first name, one typo; not two different short names")
    func similarNames() {
        for (one, other) in [("Aki Tanaka", "Aki"), ("Zoe", "Zoë"), ("chen", "Chen"), ("Jonathan", "Jonathon"), ("李雷", "李雷")] {
            #expect(ImportUseCases.similarName(one, other), "\(one) ~ \(other)")
        }
        for (one, other) in [("Chen", "Cho"), ("Bo", "Bob"), ("Ana", "Tom"), ("", "Aki"), ("Aki", "Kai Tanaka")] {
            #expect(!ImportUseCases.similarName(one, other), "\(one) !~ \(other)")
        }
    }

    @Test("a mutated file of each app (bytes changed, dropped, added, cut) is read or refused, never a crash")
    func mutations() async throws {
        let files = try Self.cases.map { ($0.format, Array(try Self.fixture($0.path))) }
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            Self.checkMutation(seed: seed, files: files)
        }
    }

    static func checkMutation(seed: UInt64, files: [(ImportedFile.Format, [UInt8])]) {
        var rng = SplitMix64(seed: seed)
        let (format, original) = files[Int(seed % UInt64(files.count))]
        let bytes = SplitwiseFilePropertyTests.mutated(
            original, alphabet: Array(",\"\r\n-.0123456789 :[]{}aZ€\u{0}".utf8) + [0xFF, 0xC3], rng: &rng)
        do {
            let file = try ImportUseCases.read(Data(bytes), format: format, homeCurrency: try? Currency(code: "EUR"))
            #expect(file.names.count <= GroupBounds.membersPerGroup)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
