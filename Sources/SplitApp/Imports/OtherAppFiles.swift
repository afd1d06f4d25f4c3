import Foundation
import SplitCore
import SplitStore

/// Reading JSON exports of other apps: values by key, with the JSON path at fault in every
/// refusal (docs/imports.md).
struct JSONReader {
    let path: String
    let value: Any

    static func parse(_ data: Data, what: String) throws(ImportProblem) -> JSONReader {
        guard String(data: data, encoding: .utf8) != nil else {
            throw ImportProblem(line: nil, column: nil, message: "the file is not UTF-8 text")
        }
        do {
            return JSONReader(path: "", value: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            throw ImportProblem(line: nil, column: nil, message: "the file is not JSON (\(what) exports JSON)")
        }
    }

    func problem(_ message: String) -> ImportProblem {
        ImportProblem(line: nil, column: path.isEmpty ? nil : path, message: message)
    }

    func list() throws(ImportProblem) -> [JSONReader] {
        guard let list = value as? [Any] else { throw problem("is not a list") }
        return list.enumerated().map { JSONReader(path: "\(path)[\($0.offset)]", value: $0.element) }
    }

    func has(_ key: String) -> Bool {
        guard let object = value as? [String: Any], let value = object[key] else { return false }
        return !(value is NSNull)
    }

    /// The value at `key`; nil when it is absent or null.
    func optional(_ key: String) throws(ImportProblem) -> JSONReader? {
        guard let object = value as? [String: Any] else { throw problem("is not an object") }
        let child = path.isEmpty ? key : "\(path).\(key)"
        guard let value = object[key], !(value is NSNull) else { return nil }
        return JSONReader(path: child, value: value)
    }

    func required(_ key: String) throws(ImportProblem) -> JSONReader {
        guard let child = try optional(key) else {
            throw ImportProblem(line: nil, column: path.isEmpty ? key : "\(path).\(key)", message: "is missing")
        }
        return child
    }

    func string() throws(ImportProblem) -> String {
        guard let text = value as? String else { throw problem("is not text") }
        return text
    }

    func bool() throws(ImportProblem) -> Bool {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
            throw problem("is not true or false")
        }
        return number.boolValue
    }

    /// A number as the file wrote it, in decimal ("12.5", "4500"; a float's trailing ".0" gone),
    /// or a numeric string; never through a rounding of ours.
    func decimalText() throws(ImportProblem) -> String {
        var text: String
        switch value {
        case let number as NSNumber:
            // JSONSerialization gives every number (and true/false) as NSNumber; its type code
            // tells a flag ("c") from a float ("d", "f") from an integer.
            switch String(cString: number.objCType) {
            case "c": throw problem("is not a number")
            case "d", "f":
                guard number.doubleValue.isFinite else { throw problem("is not a number") }
                text = "\(number.doubleValue)"
            default: text = String(number.int64Value)
            }
        case let string as String: text = string.trimmingCharacters(in: .whitespaces)
        default: throw problem("is not a number")
        }
        if text.contains("."), !text.contains("e"), !text.contains("E") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else {
            throw problem("\"\(text.prefix(40))\" is not a plain decimal number")
        }
        return text
    }

    func integer() throws(ImportProblem) -> Int64 {
        guard let value = Int64(try decimalText()) else { throw problem("is not a whole number") }
        return value
    }

    func amount(_ currency: Currency) throws(ImportProblem) -> Int64 {
        try ImportedFile.amount(try decimalText(), currency, line: 0, column: path)
    }

    func decimal() throws(ImportProblem) -> DecimalValue {
        guard let value = try? DecimalValue(parsing: try decimalText()), !value.isNegative else {
            throw problem("is not a number of 0 or more")
        }
        return value
    }
}

extension ImportedFile {
    /// Weighted shares of `people` (by index), each weight as the app gave it.
    static func weighted(_ people: [Int], weights: [Int: DecimalValue]) -> SplitRule {
        .shares(people.map { MemberDecimal(person($0), weights[$0] ?? DecimalValue(significand: 1)) })
    }

    /// The index of `name` in `names`, adding it when new (names compared as the app compares
    /// them: exactly, after trimming). A file with more people than a group holds is refused as
    /// soon as it says so, before any more of it is read.
    static func index(of name: String, in names: inout [String], at: String) throws(ImportProblem) -> Int {
        let name = oneLine(name)
        guard !name.isEmpty else { throw ImportProblem(line: nil, column: at, message: "a name is empty") }
        if let index = NameIndex.lookup(name, in: names) { return index }
        guard names.count < GroupBounds.membersPerGroup else {
            throw ImportProblem(
                line: nil, column: at, message: "more than \(GroupBounds.membersPerGroup) people; a group holds at most that many")
        }
        names.append(name)
        return names.count - 1
    }
}

/// Looking a name up among at most a group's members (200): a scan is as quick as a hash here,
/// and the bound above keeps it so.
enum NameIndex {
    static func lookup(_ name: String, in names: [String]) -> Int? { names.firstIndex(of: name) }
}

// MARK: - IHateMoney

/// IHateMoney's `bills.json` (Settings → Export → bills, JSON): a list of bills `{what, amount,
/// currency, date, payer_name, payer_weight, owers, bill_type?}`. IHateMoney splits a bill among
/// its owers by their member weights; the file keeps only the payer's (`payer_weight`), so an
/// ower who never paid weighs 1, as IHateMoney's own import has it. A `Reimbursement` bill to one
/// ower is a transfer. Amounts are the bill's own currency; `XXX` (IHateMoney's "no currency")
/// is the group's home currency when the import goes into a group.
enum IHateMoneyFile {
    static func read(_ data: Data, homeCurrency: Currency?) throws(ImportProblem) -> ImportedFile {
        let root = try JSONReader.parse(data, what: "IHateMoney")
        guard root.value is [Any] else {
            throw root.problem(
                "the file is not IHateMoney's bills export (a list of bills); in IHateMoney, Settings → Export → bills, JSON")
        }
        let bills = try root.list()
        var names: [String] = []
        var weights: [Int: DecimalValue] = [:]
        // First the payers with their weights, as IHateMoney's import makes the members.
        for bill in bills {
            let payer = try ImportedFile.index(
                of: try bill.required("payer_name").string(), in: &names, at: bill.path + ".payer_name")
            if weights[payer] == nil, let weight = try bill.optional("payer_weight") {
                let value = try weight.decimal()
                weights[payer] = value.isZero ? DecimalValue(significand: 1) : value
            }
        }
        var file = ImportedFile(format: .ihatemoney, names: names)
        // Oldest first, as they were entered (the export lists the newest first).
        for (position, bill) in bills.enumerated().reversed() {
            if bill.has("ower") && bill.has("receiver") {
                throw bill.problem("this is IHateMoney's settlements export; export the bills instead")
            }
            let code = try bill.optional("currency")?.string() ?? ""
            let currency: Currency
            if code.isEmpty || code == "XXX" {
                guard let homeCurrency else {
                    throw ImportProblem(
                        line: nil, column: bill.path + ".currency",
                        message:
                            "the bill has no currency (IHateMoney's \"no currency\"); import the file into a group whose home currency it is, or choose the new group's home currency")
                }
                currency = homeCurrency
            } else {
                currency = try ImportedFile.currency(code, line: 0, column: bill.path + ".currency")
            }
            let total = try bill.required("amount").amount(currency)
            let payer = try ImportedFile.index(
                of: try bill.required("payer_name").string(), in: &file.names, at: bill.path + ".payer_name")
            var owers: [Int] = []
            var seen = Set<Int>()
            for ower in try bill.required("owers").list() {
                let index = try ImportedFile.index(of: try ower.string(), in: &file.names, at: ower.path)
                if seen.insert(index).inserted { owers.append(index) }
            }
            let description = ImportedFile.description(try bill.required("what").string())
            let date = try ImportedFile.date(try bill.required("date").string(), line: 0, column: bill.path + ".date")
            let kind = (try bill.optional("bill_type")?.string() ?? "expense").lowercased()
            if total == 0 || owers.isEmpty {
                file.skipped.append(.init(line: position + 1, reason: total == 0 ? "the bill is 0" : "the bill has no owers"))
                continue
            }
            if kind.hasSuffix("reimbursement"), owers.count == 1, owers[0] != payer, total > 0 {
                file.transfers.append(
                    .init(
                        line: position + 1, date: date, note: description, from: payer, to: owers[0], amount: total,
                        currency: currency))
                continue
            }
            file.expenses.append(
                .init(
                    line: position + 1, id: UUID.random(), date: date, description: description,
                    category: kind.hasSuffix("reimbursement") ? "Reimbursement" : "", total: total, currency: currency,
                    payers: [MemberAmount(ImportedFile.person(payer), total)],
                    rule: ImportedFile.weighted(owers, weights: weights)))
        }
        try ImportedFile.checkNames(file.names, line: nil)
        return file
    }
}

// MARK: - Spliit

/// Spliit's JSON export (Group → Export → JSON): the group's name and currency, its participants
/// by id, and its expenses, each paid by one participant for others in one of four modes. Amounts
/// are integers in units of Spliit's own decimals for the group's currency (`spliitDecimals`),
/// which are not always ISO 4217's: they are converted exactly, or the file is refused. Each
/// share is worked out as Spliit does (`getExpenseShares`: floor, then the leftover units by
/// largest remainder with ties rotated by a hash of the expense id), so every balance is Spliit's
/// own to the unit; a reimbursement is a transfer.
enum SpliitFile {
    static let symbols: [String: String] = [
        "€": "EUR", "$": "USD", "US$": "USD", "£": "GBP", "¥": "JPY", "円": "JPY", "₹": "INR", "₩": "KRW", "CHF": "CHF",
        "kr": "SEK", "zł": "PLN", "R$": "BRL", "A$": "AUD", "C$": "CAD", "RM": "MYR", "S$": "SGD", "฿": "THB",
        "₺": "TRY", "₽": "RUB", "₫": "VND", "₱": "PHP", "Kč": "CZK", "Ft": "HUF", "лв": "BGN",
    ]

    /// The decimals Spliit keeps amounts in (its currency-data.json): none for the yen, the
    /// forint, the króna, the rupiah, the won and the Colombian peso (ISO 4217 gives the forint,
    /// the rupiah and the Colombian peso two), two for every other code and for a group without
    /// one (Spliit's custom currency).
    static func spliitDecimals(_ code: String?) -> Int {
        guard let code, !code.isEmpty else { return 2 }
        return ["JPY", "HUF", "ISK", "IDR", "KRW", "COP"].contains(code) ? 0 : 2
    }

    static func read(_ data: Data, homeCurrency: Currency?) throws(ImportProblem) -> ImportedFile {
        let root = try JSONReader.parse(data, what: "Spliit")
        guard root.value is [String: Any], root.has("participants"), root.has("expenses") else {
            throw root.problem("the file is not a Spliit group export (Group → Export → JSON)")
        }
        let code = try root.optional("currencyCode")?.string()
        let symbol = try root.optional("currency")?.string() ?? ""
        let currency: Currency
        if let code, !code.isEmpty {
            currency = try ImportedFile.currency(code, line: 0, column: "currencyCode")
        } else if let known = symbols[symbol.trimmingCharacters(in: .whitespaces)] ?? (symbol.count == 3 ? symbol : nil),
            let found = try? Currency(code: known)
        {
            currency = found
        } else if let homeCurrency {
            currency = homeCurrency
        } else {
            throw ImportProblem(
                line: nil, column: "currency",
                message: "the group's currency \"\(symbol.prefix(10))\" is not one this server can tell; import the file into a group whose home currency it is, or choose the new group's home currency")
        }
        var ids: [String: Int] = [:]
        var names: [String] = []
        for participant in try root.required("participants").list() {
            let id = try participant.required("id").string()
            guard ids[id] == nil else { throw participant.problem("two participants have the id \(id.prefix(40))") }
            // Spliit tells people apart by id, not by name: a second "Alex" is another person,
            // kept as "Alex (2)" (found by review: the two were one member, their money added up).
            ids[id] = try ImportedFile.index(
                of: ImportedFile.distinct(try participant.required("name").string(), from: names), in: &names,
                at: participant.path + ".name")
        }
        func person(_ reader: JSONReader) throws(ImportProblem) -> Int {
            let id = try reader.string()
            guard let index = ids[id] else { throw reader.problem("no participant has the id \(id.prefix(40))") }
            return index
        }
        var file = ImportedFile(format: .spliit, names: names)
        file.groupName = try root.optional("name")?.string()
        file.homeCurrency = currency.code
        // Spliit's units to ours: 5000 forints are 5000 in Spliit and 500000 fillér here.
        let theirs = Self.spliitDecimals(code)
        let ours = currency.minorUnits
        func converted(_ value: Int64, _ reader: JSONReader) throws(ImportProblem) -> Int64 {
            var result = Int128(value)
            if ours >= theirs {
                for _ in theirs..<ours { result *= 10 }
            } else {
                var divisor: Int128 = 1
                for _ in ours..<theirs { divisor *= 10 }
                guard result % divisor == 0 else {
                    throw reader.problem(
                        "the amount \(value) has more decimals than \(currency.code) has "
                            + "(Spliit kept it with \(theirs))")
                }
                result /= divisor
            }
            guard result.magnitude <= Int128(MoneyInput.maximumMinorUnits).magnitude else {
                throw reader.problem("the amount \(value) is larger than this server takes")
            }
            return Int64(result)
        }
        for (position, expense) in try root.required("expenses").list().enumerated() {
            let id = try expense.optional("id")?.string() ?? ""
            let amount = try expense.required("amount").integer()
            guard amount.magnitude <= MoneyInput.maximumMinorUnits.magnitude else {
                throw expense.problem("the amount \(amount) is larger than this server takes")
            }
            let payer = try person(try expense.required("paidById"))
            let mode = try expense.optional("splitMode")?.string() ?? "EVENLY"
            var parts: [(person: Int, shares: Int64, id: String)] = []
            for paidFor in try expense.required("paidFor").list() {
                let reader = try paidFor.required("participantId")
                let shares = try paidFor.optional("shares")?.integer() ?? 1
                guard shares >= 0, shares <= 1_000_000_000 else { throw paidFor.problem("the shares \(shares) are out of range") }
                parts.append((try person(reader), shares, try reader.string()))
            }
            let date = try ImportedFile.date(
                String(try expense.required("expenseDate").string().prefix(10)), line: 0, column: expense.path + ".expenseDate")
            let title = ImportedFile.description(try expense.optional("title")?.string() ?? "")
            guard amount != 0, !parts.isEmpty else {
                file.skipped.append(.init(line: position + 1, reason: amount == 0 ? "the expense is 0" : "nobody shares it"))
                continue
            }
            // One entry per participant (a file that names one twice is refused, as Spliit's form does).
            guard Set(parts.map(\.person)).count == parts.count else {
                throw expense.problem("a participant is named twice in paidFor")
            }
            // Spliit's own shares: by participant id, floor, then largest remainder.
            parts.sort { Array($0.id.utf16).lexicographicallyPrecedes(Array($1.id.utf16)) }
            let weights = parts.map { mode == "EVENLY" ? 1 : $0.shares }
            guard weights.reduce(0, +) > 0 else { throw expense.problem("its shares add up to 0") }
            let amounts = Self.apportion(amount, weights: weights, offset: id.isEmpty ? 0 : Int(Self.hash(id) % UInt32(parts.count)))
            var shares: [Int: Int64] = [:]
            for (part, share) in zip(parts, amounts) {
                shares[part.person, default: 0] += try converted(share, expense)
            }
            let owed = shares.keys.sorted().map { MemberAmount(ImportedFile.person($0), shares[$0]!) }
            if try expense.optional("isReimbursement")?.bool() == true, amount > 0 {
                for entry in owed where entry.amount != 0 {
                    guard let to = ImportedFile.index(of: entry.memberID), to != payer else { continue }
                    guard entry.amount > 0 else { throw expense.problem("a reimbursement gives someone a negative share") }
                    file.transfers.append(
                        .init(line: position + 1, date: date, note: title, from: payer, to: to, amount: entry.amount, currency: currency))
                }
                continue
            }
            let members = parts.map { ImportedFile.person($0.person) }
            let rule: SplitRule =
                switch mode {
                case "EVENLY": .equal(members)
                case "BY_PERCENTAGE" where weights.reduce(0, +) == 10_000:
                    .percent(zip(members, weights).map { MemberDecimal($0, DecimalValue(significand: $1, scale: 2)) })
                case "BY_AMOUNT" where weights.reduce(0, +) == amount.magnitude: .exact(owed)
                default: .shares(zip(members, weights).map { MemberDecimal($0, DecimalValue(significand: $1, scale: 2)) })
                }
            let total = try converted(amount, expense)
            file.expenses.append(
                .init(
                    line: position + 1, id: UUID.random(), date: date, description: title,
                    category: try expense.optional("category")?.optional("name")?.string() ?? "", total: total,
                    currency: currency, payers: [MemberAmount(ImportedFile.person(payer), total)], rule: rule,
                    shares: owed))
        }
        try ImportedFile.checkNames(file.names, line: nil)
        return file
    }

    /// `amount` over `weights` as Spliit's `shares.ts` does it: each the floor of its exact part,
    /// then one more unit each to the largest remainders, ties in the order rotated by `offset`.
    static func apportion(_ amount: Int64, weights: [Int64], offset: Int) -> [Int64] {
        let total = weights.reduce(0, +)
        let count = weights.count
        var amounts: [Int64] = []
        var remainders: [(index: Int, remainder: Int64)] = []
        for (index, weight) in weights.enumerated() {
            // Exact in 128 bits: amount (≤ 10^15) × weight (≤ 10^9) does not fit 64.
            let exact = Int128(amount) * Int128(weight)
            var base = exact / Int128(total)
            if exact % Int128(total) != 0 && exact < 0 { base -= 1 }  // floor, as Math.floor
            amounts.append(Int64(base))
            remainders.append((index, Int64(exact - base * Int128(total))))
        }
        let rotated = { (index: Int) in (index - offset + count) % count }
        remainders.sort { ($0.remainder, rotated($1.index)) > ($1.remainder, rotated($0.index)) }
        let leftover = amount - amounts.reduce(0, +)
        for position in 0..<Int(max(0, min(leftover, Int64(count)))) { amounts[remainders[position].index] += 1 }
        return amounts
    }

    /// FNV-1a over UTF-16 code units, as Spliit's `hashString`.
    static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for unit in text.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 0x0100_0193
        }
        return hash
    }
}

// MARK: - Cospend

/// Cospend's CSV export (Nextcloud; project menu → Export): sections split by a blank line —
/// members `name,weight,active,color`, bills `what,amount,date,timestamp,payer_name,payer_weight,
/// payer_active,owers,…,categoryid,…,comment[,deleted]`, then optional categories, payment
/// modes and currencies. A bill is split among its owers by member weight (0 counts as 1);
/// amounts are in the project's main currency (the currencies section's rate-1 row, else the
/// group's home currency); a bill in the trash (`deleted` 1) is passed over; a bill of the
/// reimbursement category (−11) to one ower is a transfer.
enum CospendFile {
    static let builtInCategories: [String: String] = [
        "-1": "Groceries", "-2": "Leisure", "-3": "Rent", "-4": "Bills", "-5": "Culture", "-6": "Health",
        "-10": "Shopping", "-11": "Reimbursement", "-12": "Restaurant", "-13": "Accommodation", "-14": "Transport",
        "-15": "Sport",
    ]

    static func read(_ data: Data, homeCurrency: Currency?) throws(ImportProblem) -> ImportedFile {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportProblem(line: nil, column: nil, message: "the file is not UTF-8 text")
        }
        let records: [CSVRecords.Record]
        do {
            records = try CSVRecords.read(
                text, maximumRecords: ImportedFile.maximumRows + 2 * GroupBounds.membersPerGroup + 2_000, maximumFields: 40)
        } catch {
            throw ImportProblem(line: error.line, column: nil, message: error.message)
        }
        // Sections: a header, then rows, until a line with nothing in it.
        var sections: [(header: CSVRecords.Record, rows: [CSVRecords.Record])] = []
        var startsSection = true
        for record in records {
            if record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                startsSection = true
                continue
            }
            if startsSection {
                sections.append((record, []))
                startsSection = false
            } else {
                sections[sections.count - 1].rows.append(record)
            }
        }
        func columns(_ header: CSVRecords.Record) -> [String: Int] {
            Dictionary(header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces), $0) }, uniquingKeysWith: { a, _ in a })
        }
        var names: [String] = []
        var weights: [Int: DecimalValue] = [:]
        var categories: [String: String] = [:]
        var currency: Currency?
        var billSections: [(header: [String: Int], rows: [CSVRecords.Record])] = []
        for section in sections {
            let header = columns(section.header)
            let has = { (keys: [String]) in keys.allSatisfy { header[$0] != nil } }
            func field(_ record: CSVRecords.Record, _ key: String) -> String {
                header[key].flatMap { $0 < record.fields.count ? record.fields[$0] : nil }?
                    .trimmingCharacters(in: .whitespaces) ?? ""
            }
            if has(["what", "amount", "payer_name", "owers"]) && (header["date"] != nil || header["timestamp"] != nil) {
                billSections.append((header, section.rows))
            } else if has(["name", "weight", "active"]) {
                for row in section.rows {
                    let index = try ImportedFile.index(of: field(row, "name"), in: &names, at: "line \(row.line)")
                    weights[index] = try Self.weight(field(row, "weight"), line: row.line)
                }
            } else if has(["categoryname", "categoryid"]) {
                for row in section.rows { categories[field(row, "categoryid")] = field(row, "categoryname") }
            } else if has(["currencyname", "exchange_rate"]) {
                for row in section.rows where Double(field(row, "exchange_rate")) == 1 && currency == nil {
                    currency = try? Currency(code: field(row, "currencyname").uppercased())
                }
            } else if has(["paymentmodename", "paymentmodeid"]) {
                continue
            } else {
                throw ImportProblem(
                    line: section.header.line, column: nil,
                    message: "these columns are not a section of Cospend's export: \(section.header.fields.prefix(6).joined(separator: ","))")
            }
        }
        guard let bills = billSections.first, billSections.count == 1 else {
            throw ImportProblem(
                line: nil, column: nil,
                message: billSections.isEmpty
                    ? "the file has no bills (what,amount,date,…): is it Cospend's CSV export?"
                    : "the file has two bill sections")
        }
        guard let currency = currency ?? homeCurrency else {
            throw ImportProblem(
                line: nil, column: nil,
                message: "the file does not say its currency (Cospend writes it only for projects with several); import it into a group whose home currency it is, or choose the new group's home currency")
        }
        func field(_ record: CSVRecords.Record, _ key: String) -> String {
            bills.header[key].flatMap { $0 < record.fields.count ? record.fields[$0] : nil }?
                .trimmingCharacters(in: .whitespaces) ?? ""
        }
        var file = ImportedFile(format: .cospend, names: names)
        file.homeCurrency = currency.code
        for row in bills.rows {
            let line = row.line
            let what = field(row, "what")
            if field(row, "deleted") == "1" {
                file.skipped.append(.init(line: line, reason: "the bill is in Cospend's trash"))
                continue
            }
            if what == "deleteMeIfYouWant" {
                file.skipped.append(.init(line: line, reason: "a placeholder bill of Cospend's Android app"))
                continue
            }
            let total = try ImportedFile.amount(field(row, "amount"), currency, line: line, column: "amount")
            let payer = try ImportedFile.index(of: field(row, "payer_name"), in: &file.names, at: "line \(line)")
            if weights[payer] == nil, !field(row, "payer_weight").isEmpty {
                weights[payer] = try Self.weight(field(row, "payer_weight"), line: line)
            }
            var owers: [Int] = []
            var seen = Set<Int>()
            for name in field(row, "owers").split(separator: ",") {
                let index = try ImportedFile.index(of: String(name), in: &file.names, at: "line \(line)")
                if seen.insert(index).inserted { owers.append(index) }
            }
            guard !owers.isEmpty else {
                throw ImportProblem(line: line, column: "owers", message: "the bill has no owers")
            }
            let date: String
            // A Unix time of years 1970 to 9999; anything else falls back to the date column.
            if let seconds = Int64(field(row, "timestamp")), (0...253_402_300_799).contains(seconds),
                let day = UTCTimestamp.format(Date(timeIntervalSince1970: Double(seconds)))
            {
                date = String(day.prefix(10))
            } else {
                date = try ImportedFile.date(field(row, "date"), line: line)
            }
            guard total != 0 else {
                file.skipped.append(.init(line: line, reason: "the bill is 0"))
                continue
            }
            let categoryID = field(row, "categoryid")
            if categoryID == "-11", owers.count == 1, owers[0] != payer, total > 0 {
                file.transfers.append(
                    .init(
                        line: line, date: date, note: ImportedFile.description(what), from: payer, to: owers[0], amount: total,
                        currency: currency))
                continue
            }
            file.expenses.append(
                .init(
                    line: line, id: UUID.random(), date: date, description: ImportedFile.description(what),
                    category: categories[categoryID] ?? builtInCategories[categoryID] ?? "", total: total, currency: currency,
                    payers: [MemberAmount(ImportedFile.person(payer), total)],
                    rule: ImportedFile.weighted(owers, weights: weights)))
        }
        try ImportedFile.checkNames(file.names, line: nil)
        return file
    }

    /// A member weight; 0 counts as 1, as Cospend's balances have it.
    static func weight(_ text: String, line: Int) throws(ImportProblem) -> DecimalValue {
        guard let value = try? DecimalValue(parsing: text), !value.isNegative else {
            throw ImportProblem(line: line, column: "weight", message: "\"\(text.prefix(20))\" is not a weight")
        }
        return value.isZero ? DecimalValue(significand: 1) : value
    }
}
