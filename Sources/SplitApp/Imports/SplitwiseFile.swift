import Foundation
import SplitCore
import SplitStore

/// A Splitwise "Export as spreadsheet" file, read (issue 18). The layout, whatever the
/// language of its words: an optional `Note: …` line; a header `Date, Description, Category,
/// Cost, Currency, <one column per member>` (columns are known by position, never by their
/// localized names); one row per expense or payment, where each member's cell is what they paid
/// less what they owed (a row sums to zero); a footer line per currency, `<date>, Total balance,
/// , , <currency>, <each member's balance>`, known by its empty category and cost. Blank lines and
/// lines of empty fields (`,,,,`) anywhere are passed over.
public struct SplitwiseFile: Sendable {
    public struct Row: Sendable {
        public let line: Int
        public let date: String
        public let description: String
        public let category: String
        /// Minor units of `currency`; below zero for a refund.
        public let cost: Int64
        public let currency: Currency
        /// Paid − owed per member column, in minor units.
        public let cells: [Int64]
        /// A settle-up ("Payment" in the category, in any of Splitwise's languages).
        public let isPayment: Bool
    }

    public struct Footer: Sendable {
        public let line: Int
        public let currency: Currency
        public let cells: [Int64]
    }

    public typealias Skipped = ImportedFile.Skipped

    /// The member columns' names, trimmed, in file order.
    public let names: [String]
    public let rows: [Row]
    public let footers: [Footer]
    public let skipped: [Skipped]
    /// What the file says before its header ("Note: does not include group expenses"), one text a
    /// line: said with the check, not passed over (found by a new user).
    public var preamble: [String] = []

    /// The most rows a file may hold.
    public static let maximumRows = 100_000
    /// The most member columns: a group's own bound.
    public static let maximumMembers = GroupBounds.membersPerGroup

    /// "Payment" as Splitwise writes the category of a settle-up, in the languages it exports.
    static let paymentWords: Set<String> = [
        "payment", "zahlung", "pago", "paiement", "pagamento", "betaling", "płatność", "platba", "платеж",
        "платёж", "支払い", "付款", "付款记录", "결제", "ödeme", "πληρωμή", "maksu", "betalning",
    ]

    /// Reads a file; a file that cannot be read as this layout is refused whole, naming the line
    /// (and the column) at fault.
    public static func read(_ data: Data) throws(ImportProblem) -> SplitwiseFile {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportProblem(line: nil, column: nil, message: "the file is not UTF-8 text (save it as CSV, UTF-8)")
        }
        let records: [CSVRecords.Record]
        do {
            // Blank lines may stand between rows (older exports): twice the rows, and room for a
            // header, notes and footers. A member column more than a group holds is refused below.
            records = try CSVRecords.read(
                text, maximumRecords: 2 * maximumRows + 1_000, maximumFields: 5 + maximumMembers + 100)
        } catch {
            throw ImportProblem(line: error.line, column: nil, message: error.message)
        }
        let content = records.filter { record in
            record.fields.contains { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        }
        // The header is the first line with the five fixed columns and at least one member; a
        // note before it ("Note: does not include group expenses") is passed over.
        guard let headerIndex = content.firstIndex(where: { $0.fields.count >= 6 }) else {
            throw ImportProblem(
                line: content.first?.line, column: nil,
                message: "no header: Splitwise's export starts with Date, Description, Category, Cost, Currency and one column per member")
        }
        let header = content[headerIndex]
        // A name is kept on one line, as a member's name must be (a line break becomes a space).
        let names = header.fields.dropFirst(5).map { Self.oneLine($0) }
        guard names.count <= maximumMembers else {
            throw ImportProblem(
                line: header.line, column: nil,
                message: "\(names.count) member columns; a group holds at most \(maximumMembers) members")
        }
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            guard !name.isEmpty else {
                throw ImportProblem(line: header.line, column: "member \(index + 1)", message: "a member column has no name")
            }
            guard seen.insert(name.lowercased()).inserted else {
                throw ImportProblem(line: header.line, column: name, message: "two member columns are named \"\(name)\"")
            }
        }
        let lines = content[(headerIndex + 1)...]
        guard lines.count <= maximumRows else {
            throw ImportProblem(
                line: nil, column: nil, message: "the file has \(lines.count) lines; at most \(maximumRows) are imported at once")
        }
        var rows: [Row] = []
        var footers: [Footer] = []
        var skipped: [Skipped] = []
        for record in lines {
            var fields = record.fields
            // A line may end with empty fields past the header's (a spreadsheet's trailing commas).
            while fields.count > header.fields.count, fields.last?.trimmingCharacters(in: .whitespaces).isEmpty == true {
                fields.removeLast()
            }
            guard fields.count == header.fields.count else {
                throw ImportProblem(
                    line: record.line, column: nil,
                    message: "\(fields.count) fields, but the header has \(header.fields.count)")
            }
            let trimmed = fields.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let currency = try Self.currency(trimmed[4], line: record.line)
            let cells = try zip(names, trimmed.dropFirst(5)).map { name, text throws(ImportProblem) in
                try Self.amount(text, currency, line: record.line, column: name)
            }
            if trimmed[2].isEmpty && trimmed[3].isEmpty {
                // The footer: each member's balance in this currency, once per currency.
                if let earlier = footers.first(where: { $0.currency == currency }) {
                    throw ImportProblem(
                        line: record.line, column: nil,
                        message: "a second total-balance line for \(currency.code) (the first is line \(earlier.line))")
                }
                footers.append(Footer(line: record.line, currency: currency, cells: cells))
                continue
            }
            let cost = try Self.amount(trimmed[3], currency, line: record.line, column: "Cost")
            if cells.allSatisfy({ $0 == 0 }) {
                skipped.append(
                    Skipped(line: record.line, reason: "no money moves between members (every member's cell is 0)"))
                continue
            }
            let date = try ImportedFile.date(trimmed[0], line: record.line)
            rows.append(
                Row(
                    // The category without our export's formula apostrophe, as the description and
                    // names (found by review: "'@SUM(A1)" came back with its apostrophe).
                    line: record.line, date: date, description: Self.description(fields[1]),
                    category: Self.oneLine(trimmed[2]),
                    cost: cost, currency: currency, cells: cells,
                    isPayment: paymentWords.contains(trimmed[2].lowercased())))
        }
        var file = SplitwiseFile(names: names, rows: rows, footers: footers, skipped: skipped)
        file.preamble = content[..<headerIndex].map { record in
            record.fields.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: ", ")
        }
        return file
    }

    /// A description as we keep one (`ImportedFile.description`), read as `oneLine` reads.
    static func description(_ text: String) -> String { ImportedFile.description(oneLine(text)) }

    /// Text on one line (`ImportedFile.oneLine`), without the apostrophe our own export puts
    /// before text that starts like a formula (`CSVText`), which keeps a spreadsheet from running it.
    static func oneLine(_ text: String) -> String {
        var line = ImportedFile.oneLine(text)
        if line.hasPrefix("'"), let second = line.dropFirst().first, "=+-@".contains(second) {
            line.removeFirst()
        }
        return line
    }

    private static func currency(_ text: String, line: Int) throws(ImportProblem) -> Currency {
        try ImportedFile.currency(text, line: line)
    }

    /// An amount in the currency's minor units; an empty cell is 0.
    private static func amount(_ text: String, _ currency: Currency, line: Int, column: String) throws(ImportProblem)
        -> Int64
    {
        text.isEmpty ? 0 : try ImportedFile.amount(text, currency, line: line, column: column)
    }

    /// The name of the person a row's missing part is put on, when some row's cells do not add
    /// up to zero; "Not in the file (2)" if a member column is called that already.
    static func othersName(besides names: [String]) -> String {
        let taken = Set(names.map { $0.lowercased() })
        let base = "Not in the file"
        var name = base
        var number = 2
        while taken.contains(name.lowercased()) {
            name = "\(base) (\(number))"
            number += 1
        }
        return name
    }

    /// The file as an import writes it: each row an expense rebuilt from its cells (`NetCells`),
    /// each payment the transfers that move its cells; the footers are the totals to check.
    ///
    /// Two kinds of row that older exports hold are kept rather than refusing the file (found by
    /// review: the 2013 export of a real group was refused whole):
    /// - cells that do not add up to zero: someone in the row is not in the file (a member who
    ///   left). Their part goes to one more person, "Not in the file", whom the import maps like
    ///   any name, so every row keeps its meaning and each member's balance is the file's;
    /// - a cost of 0 whose cells move money: read as the transfers its cells say.
    /// `notes` says so, with the first line of each.
    public func imported() throws(ImportProblem) -> ImportedFile {
        var file = ImportedFile(format: .splitwise, names: names)
        file.totals = footers.map { ImportedFile.Total(line: $0.line, currency: $0.currency, cells: $0.cells) }
        file.skipped = skipped
        for line in preamble.prefix(3) {
            file.notes.append("Before its header the file says “\(line.prefix(200))”: check that it holds everything you mean to bring.")
        }
        var missing: [Int: Int64] = [:]
        for row in rows {
            var sum: Int64 = 0
            for cell in row.cells {
                let (next, overflow) = sum.addingReportingOverflow(cell)
                guard !overflow else { throw ImportProblem(line: row.line, column: nil, message: "an amount is too large") }
                sum = next
            }
            if sum != 0 { missing[row.line] = -sum }
        }
        if let first = rows.first(where: { missing[$0.line] != nil }) {
            let name = Self.othersName(besides: names)
            file.names.append(name)
            file.notes.append(
                (missing.count == 1
                    ? "1 line, line \(first.line), does not add up to zero between the file's members: "
                    : "\(missing.count) lines, the first line \(first.line), do not add up to zero between the file's members: ")
                    + "someone in them is not in the file. Their part is put on “\(name)”; map it to a member, or keep it as a member of its own.")
        }
        let zeroCost = rows.filter { !$0.isPayment && $0.cost == 0 }
        if let first = zeroCost.first {
            file.notes.append(
                zeroCost.count == 1
                    ? "1 line, line \(first.line), costs 0 but moves money: imported as the transfers its cells say."
                    : "\(zeroCost.count) lines, the first line \(first.line), cost 0 but move money: imported as the "
                        + "transfers their cells say.")
        }
        for row in rows {
            var cells = row.cells.enumerated().map { MemberAmount(ImportedFile.person($0.offset), $0.element) }
            if let part = missing[row.line] { cells.append(MemberAmount(ImportedFile.person(names.count), part)) }
            do {
                if row.isPayment || row.cost == 0 {
                    // A zero-cost row sends what its members above zero put in.
                    let sent = row.isPayment ? row.cost : cells.filter { $0.amount > 0 }.reduce(0) { $0 + $1.amount }
                    for transfer in try NetCells.transfers(amount: sent, cells: cells) {
                        file.transfers.append(
                            ImportedFile.Transfer(
                                line: row.line, date: row.date, note: row.description,
                                from: ImportedFile.index(of: transfer.from)!, to: ImportedFile.index(of: transfer.to)!,
                                amount: transfer.amount, currency: row.currency))
                    }
                } else {
                    let id = UUID.random()
                    let (payers, shares) = try NetCells.expense(
                        cost: row.cost, cells: cells, tieBreak: TieBreak(seed: id.text))
                    file.expenses.append(
                        ImportedFile.Expense(
                            line: row.line, id: id, date: row.date, description: row.description, category: row.category,
                            total: row.cost, currency: row.currency, payers: payers, rule: .exact(shares)))
                }
            } catch {
                throw ImportProblem(line: row.line, column: nil, message: error.description)
            }
        }
        return file
    }
}

/// Why a file cannot be imported, with the line and column at fault where there is one.
public struct ImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int?
    public let column: String?
    public let message: String

    public init(line: Int?, column: String?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// "line 17, column “Cost”: "12,50" is not a number" in a CSV file; in a JSON file, which
    /// has no lines to speak of, "at “expenses[3].amount”: …" (found by review: it said
    /// "line 0, column “[0].amount”").
    public var description: String {
        if let line, line > 0 {
            return "line \(line)" + (column.map { ", column “\($0)”" } ?? "") + ": " + message
        }
        return column.map { "at “\($0)”: " + message } ?? message
    }
}
