import Foundation
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitClient
@testable import SplitterCLI

/// The offline store's copy of an expense is written by hand (`Expense.storedJSON`); it must be
/// what `JSONEncoder` writes with sorted keys and `.iso8601` dates, to the byte, and read back the same.
@Suite("The offline store's expense JSON")
struct StoredExpenseJSONTests {
    /// Text with what JSON escapes (quotes, backslashes, `/`, control characters) and what it does
    /// not (accents, CJK, emoji), or plain.
    static func text(_ random: inout SplitMix64) -> String {
        let pieces = ["Ramen", "a/b", "\"quoted\"", "back\\slash", "tab\there", "new\nline", "\u{01}", "\u{1F}",
                      "café", "寿司", "🍜", "é", " ", "", "\u{7F}", "\u{2028}", "</script>"]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    static func id(_ random: inout SplitMix64) -> String {
        UUID(uuid: (0..<16).reduce(into: [UInt8]()) { bytes, _ in bytes.append(.random(in: 0...255, using: &random)) }
            .withUnsafeBytes { $0.load(as: uuid_t.self) }).uuidString.lowercased()
    }

    static func date(_ random: inout SplitMix64) -> Date {
        // Whole seconds and fractions (the server sends whole seconds; `.iso8601` drops fractions).
        let seconds = Double(Int64.random(in: 0...4_102_444_800, using: &random))
        let fraction = Bool.random(using: &random) ? 0 : Double.random(in: 0..<1, using: &random)
        return Date(timeIntervalSince1970: seconds + fraction)
    }

    static func entries<Kind>(_ random: inout SplitMix64) -> [MemberEntry<Kind>] {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in
            let value = ["1200", "12.50", "-3", "33.333", text(&random)].randomElement(using: &random)!
            return MemberEntry(memberId: id(&random), value: value)
        }
    }

    static func split(_ random: inout SplitMix64, depth: Int = 0) -> SplitInput {
        var split = SplitInput(mode: SplitInput.Mode.allCases.randomElement(using: &random)!)
        if Bool.random(using: &random) {
            split.memberIds = (0..<Int.random(in: 0...3, using: &random)).map { _ in id(&random) }
        }
        if Bool.random(using: &random) { split.amounts = entries(&random) }
        if Bool.random(using: &random) { split.percents = entries(&random) }
        if Bool.random(using: &random) { split.shares = entries(&random) }
        if Bool.random(using: &random) { split.adjustments = entries(&random) }
        if depth == 0, Bool.random(using: &random) {
            split.items = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                .init(description: text(&random), amount: "4.50", split: Self.split(&random, depth: 1))
            }
        }
        if Bool.random(using: &random) {
            split.extras = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                .init(description: text(&random), amount: "-1")
            }
        }
        return split
    }

    static func expense(_ random: inout SplitMix64) -> Expense {
        Expense(
            id: id(&random), groupId: id(&random), description: text(&random), amount: "1200", currency: "JPY",
            category: id(&random), categoryName: text(&random), expenseDate: "2026-11-28", createdByUserId: id(&random),
            payers: entries(&random),
            splits: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                let paid = Bool.random(using: &random)
                return ExpenseShare(
                    id: id(&random), memberId: id(&random), amount: "400", isPaid: paid,
                    paidAt: paid && Bool.random(using: &random) ? date(&random) : nil,
                    nothingToPay: !paid && Bool.random(using: &random))
            }, split: split(&random), homeAmount: Bool.random(using: &random) ? text(&random) : nil,
            version: Int64.random(in: 0...Int64.max, using: &random), createdAt: date(&random),
            updatedAt: date(&random), isDeleted: Bool.random(using: &random))
    }

    @Test("the same bytes as JSONEncoder with sorted keys and .iso8601 dates, on 3,000 random expenses of every shape")
    func sameBytes() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        var random = SplitMix64(seed: 20_261_128)
        for _ in 0..<3_000 {
            let expense = Self.expense(&random)
            let expected = try encoder.encode(expense)
            let written = expense.storedJSON
            let at = Array(zip(written, expected)).firstIndex { $0 != $1 } ?? min(written.count, expected.count)
            #expect(
                written == expected,
                """
                from byte \(at): \(Self.around(at, in: written))
                JSONEncoder: \(Self.around(at, in: expected))
                """)
            if written != expected { break }
            // And it reads back as the store reads it, to the second.
            let read = try Expense.decodeFromServer(written)
            #expect(read.id == expense.id && read.split == expense.split && read.splits.count == expense.splits.count)
        }
    }

    static func around(_ index: Int, in data: Data) -> String {
        String(decoding: data.dropFirst(max(0, index - 60)).prefix(120), as: UTF8.self).debugDescription
    }
}

@Suite("A queued expense in the offline list")
struct QueuedAmountTests {
    @Test("its amount is written with its currency's decimals, as the server will write it; one that does not read stays as typed")
    func written() {
        func added(_ amount: String, _ currency: String) -> NewExpense {
            NewExpense(groupId: "g", description: "Taxi", amount: amount, currency: currency, expenseDate: "2026-12-07")
        }
        #expect(SplitterCLI.queuedAmount(added("33", "EUR")) == "33.00 EUR")
        #expect(SplitterCLI.queuedAmount(added("1200", "JPY")) == "1200 JPY")
        #expect(SplitterCLI.queuedAmount(added("-4.5", "USD")) == "-4.50 USD")
        #expect(SplitterCLI.queuedAmount(added("abc", "EUR")) == "abc EUR")
    }
}
