import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitApp

/// Generated and mutated Splitwise files (issue 18: fuzz the parsers): a file written from random
/// expenses, refunds and payments, in random quoting, line endings and header language, reads
/// back exactly and its footers check; any mutation of it is read or refused, never a crash.
@Suite("Splitwise files: generated and mutated")
struct SplitwiseFilePropertyTests {
    /// A random group's history written as Splitwise writes it, with what each name's balance is.
    struct Written {
        var text: String
        var names: [String]
        var rows: Int
        var balances: [String: Int64]  // "CUR/name"
    }

    static let headers = [
        ["Date", "Description", "Category", "Cost", "Currency"], ["Datum", "Beschreibung", "Kategorie", "Kosten", "Währung"],
        ["Fecha", "Descripción", "Categoría", "Costo", "Moneda"], ["日付", "説明", "カテゴリ", "費用", "通貨"],
    ]
    static let names = ["Aki", "Bo Chen", "Zoë, \"Z\"", "李雷", "O'Brien", "Ana María", "Dee\nSecond line", "Éva"]

    static func write(seed: UInt64, rows rowCount: Int? = nil) -> Written {
        var sizes = SplitMix64(seed: seed ^ 0x5EED)
        var builder = ScenarioBuilder(seed: seed, memberCount: Int.random(in: 2...6, using: &sizes))
        let count = builder.memberCount
        let names = Array(Self.names.shuffled(using: &builder.rng).prefix(count))
        var quoteAll = Bool.random(using: &builder.rng)
        let newline = Bool.random(using: &builder.rng) ? "\r\n" : "\n"
        func field(_ text: String) -> String {
            if quoteAll || text.contains(where: { ",\"\n\r".contains($0) }) {
                return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            return text
        }
        func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + newline }
        var text = ""
        if Bool.random(using: &builder.rng) { text += "Note: does not include group expenses" + newline + newline }
        text += line(Self.headers.randomElement(using: &builder.rng)! + names) + newline
        var sums: [String: Int64] = [:]
        var rows = 0
        for index in 0..<(rowCount ?? Int.random(in: 0...25, using: &builder.rng)) {
            quoteAll = Bool.random(using: &builder.rng)
            let cost: Int64
            let currency: Currency
            var cells = [Int64](repeating: 0, count: count)
            let isPayment = Int.random(in: 0..<5, using: &builder.rng) == 0
            if isPayment {
                let nets = builder.nets(count: count, magnitude: 50_000)
                for (id, net) in nets { cells[Int(id.description.suffix(12))! - 1] = net }
                cost = nets.values.filter { $0 > 0 }.reduce(0, +)
                currency = builder.currency()
            } else {
                let expense = builder.expense()
                for payer in expense.paid { cells[Int(payer.memberID.description.suffix(12))! - 1] += payer.amount }
                for share in expense.owed { cells[Int(share.memberID.description.suffix(12))! - 1] -= share.amount }
                cost = expense.total.minorUnits
                currency = expense.currency
            }
            let money = { (minor: Int64) in Money(minorUnits: minor, currency: currency).decimalString }
            text += line(
                ["2026-0\(1 + index % 9)-1\(index % 10)", "Row \(index), \"quoted\"", isPayment ? "Payment" : "General",
                 money(cost), currency.code] + cells.map(money))
            if Bool.random(using: &builder.rng) { text += newline }
            if cells.contains(where: { $0 != 0 }) { rows += 1 }
            for (name, cell) in zip(names, cells) {
                sums["\(currency.code)/\(SplitwiseFile.oneLine(name))", default: 0] += cell
            }
        }
        text += newline
        for code in Set(sums.keys.map { String($0.prefix(3)) }).sorted() {
            let currency = try! Currency(code: code)
            text += line(
                ["2026-12-31", "Total balance", " ", " ", code]
                    + names.map { Money(minorUnits: sums["\(code)/\(SplitwiseFile.oneLine($0))"] ?? 0, currency: currency).decimalString })
        }
        return Written(text: text, names: names, rows: rows, balances: sums.filter { $0.value != 0 })
    }

    /// What the file's rows, rebuilt as expenses and transfers, move for each name, or the refusal.
    static func imported(_ file: SplitwiseFile) throws -> [String: Int64] {
        var nets: [String: Int64] = [:]
        for row in file.rows {
            let cells = row.cells.enumerated().map { MemberAmount(member($0.offset + 1), $0.element) }
            var moved: [MemberID: Int64] = [:]
            if row.isPayment {
                for transfer in try NetCells.transfers(amount: row.cost, cells: cells) {
                    moved[transfer.from, default: 0] += transfer.amount
                    moved[transfer.to, default: 0] -= transfer.amount
                }
            } else {
                let (payers, shares) = try NetCells.expense(cost: row.cost, cells: cells, tieBreak: .none)
                for payer in payers { moved[payer.memberID, default: 0] += payer.amount }
                for share in shares { moved[share.memberID, default: 0] -= share.amount }
            }
            for (index, name) in file.names.enumerated() {
                nets["\(row.currency.code)/\(name)", default: 0] += moved[member(index + 1)] ?? 0
            }
        }
        return nets.filter { $0.value != 0 }
    }

    @Test("a generated file reads back exactly: its names, its rows, and balances equal to its footers")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            try Self.checkRoundTrip(seed: seed)
        }
    }

    static func checkRoundTrip(seed: UInt64) throws {
        let written = Self.write(seed: seed)
        let file = try SplitwiseFile.read(Data(written.text.utf8))
        #expect(file.names == written.names.map { SplitwiseFile.oneLine($0) })
        #expect(file.rows.count == written.rows)
        let nets = try Self.imported(file)
        #expect(nets == written.balances, "seed \(seed)")
        for footer in file.footers {
            for (name, cell) in zip(file.names, footer.cells) {
                #expect(nets["\(footer.currency.code)/\(name)", default: 0] == cell, "seed \(seed)")
            }
        }
    }

    @Test("a mutated file (bytes changed, dropped, added, cut) is read or refused with a line, never a crash")
    func mutations() async {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
            Self.checkMutation(seed: seed)
        }
    }

    /// A file with 1 to 8 random changes: a byte replaced (from `alphabet`), dropped or added,
    /// or the end cut off. Every importer's fuzz test mutates files this way.
    static func mutated(_ original: [UInt8], alphabet: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &rng) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: bytes[at] = alphabet.randomElement(using: &rng)!
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
            default: bytes.removeLast(Int.random(in: 0...(bytes.count - at), using: &rng))
            }
        }
        return bytes
    }

    static func checkMutation(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let bytes = Self.mutated(
            Array(Self.write(seed: seed).text.utf8), alphabet: Array(",\"\r\n-.0123456789 aZ€\u{0}".utf8) + [0xFF, 0xC3],
            rng: &rng)
        do {
            let file = try SplitwiseFile.read(Data(bytes))
            // Read: each row is rebuilt exactly or refused as a row.
            _ = try? Self.imported(file)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }

    @Test("records after a wide one keep buffers of their own size (a wide header and many empty lines)")
    func recordBuffers() throws {
        // Found by review: each record after a 305-field header kept a buffer for 305 fields,
        // so 200,000 empty lines (200 KB) held over a gigabyte.
        let text = String(repeating: "a,", count: 304) + "a" + String(repeating: "\n", count: 20_000)
        let records = try CSVRecords.read(text, maximumRecords: 30_000, maximumFields: 305)
        #expect(records.count >= 20_000 && records[0].fields.count == 305)
        #expect(records.dropFirst().allSatisfy { $0.fields.capacity < 16 })
    }
}
