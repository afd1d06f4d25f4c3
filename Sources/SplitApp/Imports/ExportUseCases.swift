import Foundation
import SplitCore
import SplitStore
import ZIPFoundation

/// The spreadsheet layouts a group is exported in (issue 18: moving out loses nothing).
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Splitwise's own layout (a row per expense or transfer, each member's paid − owed, a
    /// "Total balance" line per currency), so people can go back, and our import reads it.
    case splitwiseCSV = "splitwise-csv"
    /// One row per member per expense or transfer, for spreadsheets; each member's total per
    /// currency at the end.
    case csv
    /// Our own document, which loses nothing (`GroupDocument`); the import reads it back.
    case json

    /// The file's name in the account export's folder for a group.
    var entryName: String {
        switch self {
        case .splitwiseCSV: "splitwise.csv"
        case .csv: "shares.csv"
        case .json: "group.json"
        }
    }
}

/// A group written out as a file.
public struct ExportedFile: Sendable {
    public let filename: String
    public let contentType: String
    public let data: Data

    /// The `Content-Disposition` that has a browser or client save it under `filename`: in ASCII,
    /// with the name as it is after it (RFC 6266) where it has other letters ("Café-…").
    public var disposition: String {
        let ascii = String(filename.unicodeScalars.map { $0.isASCII ? Character($0) : "_" })
        guard ascii != filename else { return "attachment; filename=\"\(filename)\"" }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

/// Exports of a group, for any of its members (viewers too): everything live — expenses with
/// their payers and shares, transfers — and the balances the ledger holds, which the file's
/// total lines are (a test imports the file back and compares).
public struct ExportUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    public func export(_ groupID: UUID, format: ExportFormat, caller: Caller) async throws -> ExportedFile {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let members = try await groups.members(groupID: group.id).sorted { ($0.createdAt, $0.id.text) < ($1.createdAt, $1.id.text) }
        if format == .json {
            return ExportedFile(
                filename: Self.fileStem(group.name) + "-\(Self.today(now())).json", contentType: "application/json",
                data: try await document(group, members: members).encoded())
        }
        let names = Self.columnNames(members)
        let categoryNames = Dictionary(
            uniqueKeysWithValues: try await categories.allCategories(groupID: group.id).map { ($0.id, $0.name) })
        let lines = try Self.lines(
            expenses: try await expenses.liveExpenses(groupID: group.id),
            settlements: try await settlements.settlements(groupID: group.id, includeDeleted: false),
            names: names, categoryNames: categoryNames)
        let nets = try await balances.balances(groupID: group.id)
        let today = Self.today(now())
        let text: String
        switch format {
        case .splitwiseCSV:
            text = Self.splitwise(lines: lines, members: members, names: names, nets: nets, date: today)
        case .csv, .json:
            text = Self.flat(lines: lines, members: members, names: names, nets: nets)
        }
        return ExportedFile(
            filename: Self.fileStem(group.name) + "-\(today)"
                + (format == .splitwiseCSV ? "-splitwise" : "") + ".csv",
            contentType: "text/csv; charset=utf-8", data: Data(text.utf8))
    }

    /// Everything the caller can see, for data portability (issue 18): one zip with
    /// `account.json` (the profile and the groups) and, per group the caller is an active member
    /// of, its two spreadsheets in a folder named after it.
    public func exportAccount(caller: Caller) async throws -> ExportedFile {
        try caller.requireWholeAccount()
        let memberships = try await groups.groups(ofUser: caller.user.id).filter { $0.member.isActive }
        let archive = try Archive(accessMode: .create)
        var listed: [[String: String]] = []
        // Folder names told apart without case (macOS and Windows do not), with a number when
        // taken (found by a new user: "Euro Trip" and "Euro-Trip", made within a minute, both got
        // "Euro-Trip-01a24cbd", the start of a time-ordered id, and unzip kept one).
        var folders = Set<String>()
        for (group, member) in memberships {
            let stem = Self.fileStem(group.name)
            var folder = stem
            var number = 1
            while !folders.insert(folder.lowercased()).inserted {
                number += 1
                folder = "\(stem)-\(number)"
            }
            for format in ExportFormat.allCases {
                let file = try await export(group.id, format: format, caller: caller)
                let path = "\(folder)/\(format.entryName)"
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(file.data.count), compressionMethod: .deflate
                ) { position, size in
                    file.data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            listed.append([
                "id": group.id.text, "name": group.name, "homeCurrency": group.homeCurrency, "role": member.role.rawValue,
                "memberName": member.name, "folder": folder,
            ])
        }
        let today = Self.today(now())
        let account: [String: Any] = [
            "exportedOn": today, "displayName": caller.user.displayName, "email": caller.user.email ?? NSNull(),
            "phone": caller.user.phone ?? NSNull(), "groups": listed,
        ]
        let json = try JSONSerialization.data(withJSONObject: account, options: [.prettyPrinted, .sortedKeys])
        try archive.addEntry(
            with: "account.json", type: .file, uncompressedSize: Int64(json.count), compressionMethod: .deflate
        ) { position, size in
            json.subdata(in: Int(position)..<Int(position) + size)
        }
        guard let data = archive.data else { throw AppError.notFound("export") }
        return ExportedFile(filename: "budget-splitter-\(today).zip", contentType: "application/zip", data: data)
    }

    /// The group as our own lossless document.
    func document(_ group: GroupRecord, members: [MemberRecord]) async throws -> GroupDocument {
        var activity: [ActivityRecord] = []
        var before: (seq: Int64, id: UUID)?
        while true {
            let page = try await log.activity(groupID: group.id, before: before, limit: 1_000)
            activity += page
            guard page.count == 1_000, let last = page.last else { break }
            before = (last.seq, last.id)
        }
        return GroupDocument(
            .init(
                group: group, members: members, categories: try await categories.categories(groupID: group.id, now: now()),
                rates: try await balances.rates(groupID: group.id),
                expenses: try await expenses.liveExpenses(groupID: group.id).sorted {
                    ($0.expenseDate, $0.createdAt, $0.id.text) < ($1.expenseDate, $1.createdAt, $1.id.text)
                },
                settlements: try await settlements.settlements(groupID: group.id, includeDeleted: false).sorted {
                    ($0.date, $0.createdAt, $0.id.text) < ($1.date, $1.createdAt, $1.id.text)
                },
                history: try await expenses.history(groupID: group.id), activity: activity.reversed(),
                budget: try await budgets.budget(groupID: group.id), series: try await recurring.list(groupID: group.id),
                pending: try await recurring.pending(groupID: group.id)),
            now: now())
    }

    static func fileStem(_ name: String) -> String {
        let stem = String(name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" })
            .split(separator: "-").joined(separator: "-")
        return stem.isEmpty ? "group" : stem
    }

    static func today(_ milliseconds: Int64) -> String {
        UTCTimestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000)).map { String($0.prefix(10)) }
            ?? "1970-01-01"
    }

    /// An expense or a transfer as the files show it: each member's paid − owed (or sent −
    /// received), in the row's currency.
    struct Line {
        let date: String
        let createdAt: Int64
        let description: String
        let category: String
        let cost: Money
        let cells: [UUID: Int64]
        let paid: [UUID: Int64]
        let owed: [UUID: Int64]
        let isTransfer: Bool
    }

    static func lines(
        expenses: [ExpenseRecord], settlements: [SettlementRecord], names: [UUID: String], categoryNames: [UUID: String]
    ) throws -> [Line] {
        var lines: [Line] = []
        for expense in expenses {
            var paid: [UUID: Int64] = [:]
            var owed: [UUID: Int64] = [:]
            for payer in expense.payers { paid[payer.memberID, default: 0] += payer.amount }
            for share in expense.liveShares { owed[share.memberID, default: 0] += share.amount }
            var cells: [UUID: Int64] = [:]
            for (member, amount) in paid { cells[member, default: 0] += amount }
            for (member, amount) in owed { cells[member, default: 0] -= amount }
            lines.append(
                Line(
                    date: expense.expenseDate, createdAt: expense.createdAt, description: expense.description,
                    category: categoryNames[expense.categoryID] ?? "General",
                    cost: Money(minorUnits: expense.amount, currency: try Currency(code: expense.currency)),
                    cells: cells, paid: paid, owed: owed, isTransfer: false))
        }
        for settlement in settlements {
            let from = names[settlement.fromMemberID] ?? "?"
            let to = names[settlement.toMemberID] ?? "?"
            lines.append(
                Line(
                    date: settlement.date, createdAt: settlement.createdAt,
                    description: settlement.note.isEmpty ? "\(from) paid \(to)" : settlement.note, category: "Payment",
                    cost: Money(minorUnits: settlement.amount, currency: try Currency(code: settlement.currency)),
                    cells: [settlement.fromMemberID: settlement.amount, settlement.toMemberID: -settlement.amount],
                    paid: [settlement.fromMemberID: settlement.amount], owed: [settlement.toMemberID: settlement.amount],
                    isTransfer: true))
        }
        return lines.sorted { ($0.date, $0.createdAt) < ($1.date, $1.createdAt) }
    }

    /// Each member's column name: their name, made unique (Splitwise's layout, and our import,
    /// need one column per member).
    static func columnNames(_ members: [MemberRecord]) -> [UUID: String] {
        var taken = Set(members.map { $0.name.lowercased() })
        var seen = Set<String>()
        var names: [UUID: String] = [:]
        for member in members {
            if seen.insert(member.name.lowercased()).inserted {
                names[member.id] = member.name
                continue
            }
            // A second member of this name: the first free "Name (n)".
            var number = 2
            while taken.contains("\(member.name) (\(number))".lowercased()) { number += 1 }
            names[member.id] = "\(member.name) (\(number))"
            taken.insert("\(member.name) (\(number))".lowercased())
        }
        return names
    }

    static func splitwise(
        lines: [Line], members: [MemberRecord], names: [UUID: String], nets: [BalanceRecord], date: String
    ) -> String {
        var text = CSVText.row(["Date", "Description", "Category", "Cost", "Currency"] + members.map { names[$0.id]! })
        text += "\n"
        for line in lines {
            // Splitwise files a transfer under "Payment" (and the same word in other languages);
            // an expense in a category of that name would read back as one, so it is marked.
            let category =
                !line.isTransfer && SplitwiseFile.paymentWords.contains(line.category.lowercased())
                ? line.category + " (expense)" : line.category
            text += CSVText.row(
                [line.date, line.description, category, line.cost.decimalString, line.cost.currency.code]
                    + members.map {
                        Money(minorUnits: line.cells[$0.id] ?? 0, currency: line.cost.currency).decimalString
                    })
        }
        text += "\n"
        for code in Set(nets.map(\.currency)).sorted() {
            guard let currency = try? Currency(code: code) else { continue }
            text += CSVText.row(
                [date, "Total balance", " ", " ", code]
                    + members.map { member in
                        Money(
                            minorUnits: nets.first { $0.currency == code && $0.memberID == member.id }?.net ?? 0,
                            currency: currency
                        ).decimalString
                    })
        }
        return text
    }

    static func flat(lines: [Line], members: [MemberRecord], names: [UUID: String], nets: [BalanceRecord]) -> String {
        var text = CSVText.row(
            ["Date", "Type", "Description", "Category", "Currency", "Total", "Member", "Paid", "Owed", "Net"])
        for line in lines {
            let money = { (minor: Int64) in Money(minorUnits: minor, currency: line.cost.currency).decimalString }
            for member in members where line.cells[member.id] != nil || line.owed[member.id] != nil {
                let paid = line.paid[member.id] ?? 0
                let owed = line.owed[member.id] ?? 0
                text += CSVText.row(
                    [
                        line.date, line.isTransfer ? "transfer" : (line.cost.minorUnits < 0 ? "refund" : "expense"),
                        line.description, line.category, line.cost.currency.code, money(line.cost.minorUnits),
                        names[member.id]!, money(paid), money(owed), money(paid - owed),
                    ])
            }
        }
        for net in nets.sorted(by: { ($0.currency, names[$0.memberID] ?? "") < ($1.currency, names[$1.memberID] ?? "") }) {
            guard let currency = try? Currency(code: net.currency) else { continue }
            text += CSVText.row(
                ["", "balance", "Total balance", "", net.currency, "", names[net.memberID] ?? "?", "", "",
                 Money(minorUnits: net.net, currency: currency).decimalString])
        }
        return text
    }
}

/// RFC 4180 text: a field is quoted when it holds a comma, a quote or a line break (a quote
/// doubled); a formula's first character is kept from spreadsheets by a leading apostrophe.
enum CSVText {
    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    static func field(_ text: String) -> String {
        var value = text
        // Text starting like a formula (=, +, -, @) would run in a spreadsheet; numbers stay numbers.
        if let first = value.first, "=+@".contains(first) || (first == "-" && Double(value) == nil) {
            value = "'" + value
        }
        guard value.contains(where: { ",\"\n\r".contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
