import Foundation
import SplitCore
import SplitStore

/// A file of another app (or one of our own exports), read into what an import writes (issue
/// 18): the people it names, the expenses and transfers between them, and the totals the file
/// states about itself. Each format's reader makes one; `ImportUseCases` matches its names to a
/// group's members, checks it and writes it, the same way for every format.
///
/// Before its names are matched, the file's people are `person(0)`, `person(1)`, … in payers
/// and split rules; `ImportUseCases` puts the group's members in their place.
public struct ImportedFile: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case splitwise, ihatemoney, spliit, cospend, json

        /// The format's name for people.
        public var title: String {
            switch self {
            case .splitwise: "Splitwise CSV"
            case .ihatemoney: "IHateMoney JSON"
            case .spliit: "Spliit JSON"
            case .cospend: "Cospend CSV"
            case .json: "Budget Splitter JSON"
            }
        }
    }

    public struct Expense: Sendable {
        /// Whether `description(_:)` cut the file's description to the limit.
        var wasShortened: Bool {
            description.unicodeScalars.count == ImportedFile.descriptionLimit
                && description.unicodeScalars.last == ImportedFile.cutMark
        }

        /// Where the expense stands in the file (a line, or an entry of a JSON list), for messages.
        public var line: Int
        /// The expense's id once written; fixed when read, as its tie-break's seed.
        public var id: UUID
        public var date: String
        public var description: String
        /// The category's name in the file ("" for none: the group's Other).
        public var category: String
        /// Minor units of `currency`; below zero for a refund.
        public var total: Int64
        public var currency: Currency
        public var payers: [MemberAmount]
        /// The rule as entered (kept for editing).
        public var rule: SplitRule
        /// The shares as the file states them (our own format): the import keeps them as they
        /// are, checked against the total, rather than working them out from `rule` again
        /// (whose leftover minor units go by the expense's and members' ids, which are new).
        public var shares: [MemberAmount]? = nil
        /// What it came to in the group's home currency, when the file says so.
        public var home: Money?
        /// Shares marked paid, by person (our own format keeps them).
        public var paid: [Int: PaidMark] = [:]
    }

    /// A share marked paid, with the transfer the mark made and the marks' history.
    public struct PaidMark: Sendable {
        public var paidAt: Int64?
        public var isPaid: Bool
        public var history: [HistoryEntry]
    }

    public struct HistoryEntry: Sendable, Equatable {
        public var markedPaid: Bool
        public var byName: String
        public var at: Int64
        public var reason: String?
    }

    public struct Transfer: Sendable {
        public var line: Int
        public var date: String
        public var note: String
        public var from: Int
        public var to: Int
        public var amount: Int64
        public var currency: Currency
        /// The share (expense index in `expenses`, person) whose paid mark made this transfer.
        public var forShare: (expense: Int, person: Int)?
        /// The share a paid mark made it for before an edit voided the mark (our own export).
        public var voidedShare: (expense: Int, person: Int)? = nil
    }

    /// A total the file states about itself (Splitwise's "Total balance" lines): each person's
    /// balance in one currency, which the imported lines must come to exactly.
    public struct Total: Sendable {
        public var line: Int
        public var currency: Currency
        /// Per person, in `names` order.
        public var cells: [Int64]
    }

    /// A line with no money in it, and why it was passed over.
    public struct Skipped: Sendable, Equatable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// What our own format keeps besides expenses and transfers.
    public struct GroupDetails: Sendable {
        public struct Person: Sendable {
            public var role: String
            public var isActive: Bool
            /// Out of the group by leaving it (not a removal).
            public var hasLeft: Bool
            public var canAddExpenses: Bool
            public var canEditOwnExpenses: Bool
            public var canEditAllExpenses: Bool
            public var canMarkPaid: Bool
        }

        public struct Category: Sendable {
            public var name: String
            public var icon: String
            public var color: String
            public var isDefault: Bool
            public var position: Int64
        }

        public struct Rate: Sendable, Equatable {
            public var from: String
            public var to: String
            public var date: String
            public var rate: String
        }

        public struct Activity: Sendable {
            /// What a line is about: one of the file's things, or one the file does not hold (a
            /// deleted expense), known by the other copy's id.
            public enum Reference: Sendable {
                case group
                case expense(Int)
                case transfer(Int)
                case person(Int)
                /// A category, by name.
                case category(String)
                case other(entity: ChangeEntity, id: String)
            }

            public var action: String
            public var about: Reference
            public var actorName: String
            public var at: Int64
            public var event: ActivityEvent
        }

        /// A budget (issue 20), its caps by category name.
        public struct Budget: Sendable {
            public var period: String
            public var startDate: String?
            public var endDate: String?
            public var currency: String
            public var total: Int64?
            public var caps: [(category: String, amount: Int64)]
            public var thresholds: [Int]
        }

        /// A recurring expense: its template (payers and rule naming the file's people, as
        /// `person`), its rule and where it stands, and the dates waiting to be confirmed.
        public struct Series: Sendable {
            public var description: String
            public var amount: Int64
            public var currency: Currency
            /// A category name ("" for Other).
            public var category: String
            public var payers: [MemberAmount]
            public var rule: SplitRule
            public var recurrence: Recurrence
            public var mode: String
            public var state: String
            public var note: String?
            public var nextDate: String?
            public var skipped: [String]
            public var pending: [String]
        }

        public var description: String
        public var timeZone: String
        /// Per person, in `names` order.
        public var people: [Person]
        public var categories: [Category]
        public var rates: [Rate]
        public var activity: [Activity]
        public var budget: Budget? = nil
        public var series: [Series] = []
    }

    public var format: Format
    /// The people, in file order: each a distinct name (any case), trimmed, on one line.
    public var names: [String]
    /// The group's name and home currency, for a format that says them.
    public var groupName: String?
    public var homeCurrency: String?
    public var expenses: [Expense] = []
    public var transfers: [Transfer] = []
    public var totals: [Total] = []
    public var skipped: [Skipped] = []
    /// What the reader did that the importer should know: rows read in a way of their own.
    public var notes: [String] = []
    public var details: GroupDetails?
    /// Our own export: the ids its expenses had in the group it came from.
    public var sourceExpenseIDs: [UUID] = []

    /// The most expense and transfer lines a file may hold.
    public static let maximumRows = 100_000

    public init(format: Format, names: [String]) {
        self.format = format
        self.names = names
    }

    /// A problem with the expense or transfer at `line` (1-based): its line in a CSV file, its
    /// place in a JSON one ("at “expenses[3]”"; found by review: our own JSON's errors said
    /// "line 4", which a JSON file does not have).
    public func problem(at line: Int, _ message: String) -> ImportProblem {
        switch format {
        case .splitwise, .cospend: ImportProblem(line: line, column: nil, message: message)
        case .json, .spliit: ImportProblem(line: nil, column: "expenses[\(line - 1)]", message: message)
        case .ihatemoney: ImportProblem(line: nil, column: "[\(line - 1)]", message: message)
        }
    }

    /// The file's person at `index`, as payers and rules name them before mapping.
    public static func person(_ index: Int) -> MemberID {
        var bytes: uuid_t = (0xB5, 0x11, 0x7F, 0x11, 0xE0, 0x00, 0x40, 0x00, 0x80, 0x00, 0, 0, 0, 0, 0, 0)
        bytes.12 = UInt8(truncatingIfNeeded: index >> 24)
        bytes.13 = UInt8(truncatingIfNeeded: index >> 16)
        bytes.14 = UInt8(truncatingIfNeeded: index >> 8)
        bytes.15 = UInt8(truncatingIfNeeded: index)
        return MemberID(UUID(uuid: bytes))
    }

    /// The index `person(_:)` made `member` from.
    public static func index(of member: MemberID) -> Int? {
        let bytes = withUnsafeBytes(of: member.uuid.uuid) { Array($0) }
        let prefix = withUnsafeBytes(of: person(0).uuid.uuid) { Array($0.prefix(12)) }
        guard bytes.prefix(12).elementsEqual(prefix) else { return nil }
        return bytes[12...].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Checks the names every reader shares: present, one line, none twice (any case), and no
    /// more than a group holds.
    static func checkNames(_ names: [String], line: Int?) throws(ImportProblem) {
        guard names.count <= GroupBounds.membersPerGroup else {
            throw ImportProblem(
                line: line, column: nil,
                message: "\(names.count) people; a group holds at most \(GroupBounds.membersPerGroup) members")
        }
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            guard !name.isEmpty else {
                throw ImportProblem(line: line, column: "member \(index + 1)", message: "a person has no name")
            }
            guard seen.insert(name.lowercased()).inserted else {
                throw ImportProblem(line: line, column: name, message: "two people are named \"\(name)\"")
            }
        }
    }

    /// `name` on one line, or when a person before it has it (in any case) `name (2)`, `name (3)`…
    static func distinct(_ name: String, from names: [String]) -> String {
        let name = oneLine(name)
        func taken(_ candidate: String) -> Bool { names.contains { $0.lowercased() == candidate.lowercased() } }
        guard !name.isEmpty, taken(name) else { return name }
        var number = 2
        while taken("\(name) (\(number))") { number += 1 }
        return "\(name) (\(number))"
    }

    /// Text on one line: control characters (line breaks, tabs) become spaces; trimmed.
    static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
        ).trimmingCharacters(in: .whitespaces)
    }

    /// A description as we keep one: one line, at most 200 characters (a longer one is cut with
    /// "…"), never empty.
    static func description(_ text: String) -> String {
        let oneLine = Self.oneLine(text)
        guard !oneLine.isEmpty else { return "(no description)" }
        guard oneLine.unicodeScalars.count > descriptionLimit else { return oneLine }
        var cut = String.UnicodeScalarView(oneLine.unicodeScalars.prefix(descriptionLimit - 1))
        cut.append(Self.cutMark)
        return String(cut)
    }

    /// The longest description kept, in Unicode scalars, as for an expense entered by hand.
    static let descriptionLimit = 200
    static let cutMark: Unicode.Scalar = "…"

    /// An amount in `currency`'s minor units from text ("12.50", "-3"); more decimals than the
    /// currency has is refused, not rounded (a rounding would make any total check meaningless).
    /// Zeros past the currency's decimals are no rounding, and are read ("2400.00" yen, as a file
    /// that writes every amount with two decimals has it; found by a new user).
    static func amount(_ text: String, _ currency: Currency, line: Int, column: String) throws(ImportProblem) -> Int64 {
        var digits = text
        if let point = digits.firstIndex(of: ".") {
            while digits.distance(from: point, to: digits.endIndex) - 1 > currency.minorUnits, digits.last == "0" {
                digits.removeLast()
            }
            if digits.last == "." { digits.removeLast() }
        }
        do {
            let minor = try Money(parsing: digits, currency: currency, allowNegative: true).minorUnits
            guard minor.magnitude <= MoneyInput.maximumMinorUnits.magnitude else {
                throw ImportProblem(line: line, column: column, message: "\"\(text)\" is larger than this server takes")
            }
            return minor
        } catch let problem as ImportProblem {
            throw problem
        } catch AmountError.tooManyDecimals {
            throw ImportProblem(
                line: line, column: column,
                message: "\"\(text)\" has more decimals than \(currency.code) has (\(currency.minorUnits)); it is not rounded")
        } catch {
            throw ImportProblem(line: line, column: column, message: "\"\(text.prefix(40))\" is not a number")
        }
    }

    static func currency(_ text: String, line: Int, column: String = "Currency") throws(ImportProblem) -> Currency {
        do {
            return try Currency(code: text.trimmingCharacters(in: .whitespaces).uppercased())
        } catch {
            throw ImportProblem(line: line, column: column, message: "\"\(text.prefix(20))\" is not an ISO 4217 currency code")
        }
    }

    /// A file's date: in the years an expense may be entered in (found by review: another app's
    /// "9999-11-01" was taken), or any year for our own export (`anyYear`), which brings a group
    /// back as it was kept.
    static func date(_ text: String, line: Int, column: String = "Date", anyYear: Bool = false) throws(ImportProblem)
        -> String
    {
        let day = String(text.trimmingCharacters(in: .whitespaces).prefix(10))
        do {
            return try MoneyInput.date(day, field: column, years: anyYear ? 1...9999 : MoneyInput.years)
        } catch AppError.invalid(_, let message) where (try? MoneyInput.date(day, field: column, years: 1...9999)) != nil {
            throw ImportProblem(line: line, column: column, message: message)
        } catch {
            throw ImportProblem(line: line, column: column, message: "\"\(text.prefix(40))\" is not a date like 2026-07-14")
        }
    }
}

extension SplitRule {
    /// The same rule over other members: `member(id)` for each member it names.
    func replacingMembers(_ member: (MemberID) -> MemberID) -> SplitRule {
        func amounts(_ list: [MemberAmount]) -> [MemberAmount] { list.map { MemberAmount(member($0.memberID), $0.amount) } }
        func decimals(_ list: [MemberDecimal]) -> [MemberDecimal] { list.map { MemberDecimal(member($0.memberID), $0.value) } }
        switch self {
        case .equal(let members): return .equal(members.map(member))
        case .exact(let list): return .exact(amounts(list))
        case .percent(let list): return .percent(decimals(list))
        case .shares(let list): return .shares(decimals(list))
        case .adjustment(let members, let adjustments):
            return .adjustment(members: members.map(member), adjustments: amounts(adjustments))
        case .itemized(let items, let extras):
            return .itemized(
                items: items.map {
                    SplitItem(description: $0.description, amount: $0.amount, rule: $0.rule.replacingMembers(member))
                }, extras: extras)
        }
    }
}
