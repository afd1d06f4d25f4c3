import Foundation
import SplitCore
import SplitStore

/// Our own export of a group, which loses nothing (issue 18): members with their roles and
/// permissions, categories, manual rates, every live expense with its rule as entered, payers,
/// shares and their paid marks with the marks' history, transfers (with the share a paid mark
/// made each for), and the activity list. Importing it into a new group and exporting that gives
/// the same document up to ids and timestamps; the copy's activity goes on with its own
/// `group.created` and `import.completed`, and its members have no accounts linked (people claim
/// their member when they join).
///
/// Version 1, described by `docs/group-export.schema.json`. Amounts are integers in minor units
/// of their currency (JPY 1200 is ¥1,200; EUR 1250 is €12.50); dates are `YYYY-MM-DD`, moments
/// `YYYY-MM-DDTHH:MM:SSZ`; ids are the exporting group's, and only tie the document together.
public struct GroupDocument: Codable, Sendable {
    public static let formatName = "budget-splitter/group"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var exportedAt: String
    public var group: Group
    public var members: [Member]
    public var categories: [Category]
    public var rates: [Rate]
    public var expenses: [Expense]
    public var settlements: [Settlement]
    public var activity: [Activity]
    /// The group's budget (issue 20), when it has one.
    public var budget: Budget?
    /// Its recurring expenses, each with the dates waiting in the pending queue (absent in a
    /// document written before they existed).
    public var recurring: [Recurring]?

    public struct Group: Codable, Sendable {
        public var name: String
        public var description: String
        public var homeCurrency: String
        public var timeZone: String
    }

    public struct Member: Codable, Sendable {
        public var id: String
        public var name: String
        public var role: String
        public var active: Bool
        /// True for one who left the group themselves (`active` false); absent otherwise (a removal,
        /// or a file of before this field).
        public var leftThemselves: Bool?
        /// Whether an account is linked to the member (the account itself is not exported).
        public var linked: Bool
        public var permissions: Permissions
    }

    public struct Permissions: Codable, Sendable {
        public var addExpenses: Bool
        public var editOwnExpenses: Bool
        public var editAllExpenses: Bool
        public var markPaid: Bool
    }

    public struct Category: Codable, Sendable {
        public var id: String
        public var name: String
        public var icon: String
        public var color: String
        public var isDefault: Bool
        public var position: Int64
    }

    public struct Rate: Codable, Sendable {
        public var from: String
        public var to: String
        public var date: String
        public var rate: String
    }

    public struct Expense: Codable, Sendable {
        public var id: String
        public var description: String
        public var amount: Int64
        public var currency: String
        public var category: String
        public var date: String
        public var home: Amount?
        /// The rule as entered (our stored split format, version 1).
        public var split: StoredSplit.Value
        public var paidBy: [Part]
        public var shares: [Share]
    }

    public struct Amount: Codable, Sendable {
        public var amount: Int64
        public var currency: String
    }

    public struct Part: Codable, Sendable {
        public var member: String
        public var amount: Int64
    }

    public struct Share: Codable, Sendable {
        public var member: String
        public var amount: Int64
        public var paid: Bool
        public var paidAt: String?
        public var history: [Mark]
    }

    public struct Mark: Codable, Sendable {
        /// "marked_paid" or "marked_unpaid".
        public var action: String
        public var by: String
        public var at: String
        public var reason: String?
    }

    public struct Settlement: Codable, Sendable {
        public var id: String
        public var from: String
        public var to: String
        public var amount: Int64
        public var currency: String
        public var date: String
        public var note: String
        /// The share whose paid mark made this transfer.
        public var forShare: ShareRef?
        /// The share a paid mark made this transfer for before an edit of its expense voided that
        /// mark: marking the share again counts it, and unmarking gives it back as a plain transfer.
        public var voidedShare: ShareRef?
    }

    public struct ShareRef: Codable, Sendable {
        public var expense: String
        public var member: String
    }

    public struct Budget: Codable, Sendable {
        /// month or trip.
        public var period: String
        public var startDate: String?
        public var endDate: String?
        public var currency: String
        public var total: Int64?
        public var caps: [Cap]
        public var thresholds: [Int]
    }

    public struct Cap: Codable, Sendable {
        /// A category's id in this document.
        public var category: String
        public var amount: Int64
    }

    public struct Recurring: Codable, Sendable {
        public var id: String
        public var description: String
        public var amount: Int64
        public var currency: String
        public var category: String
        public var paidBy: [Part]
        public var split: StoredSplit.Value
        public var rule: Rule
        /// auto or confirm.
        public var mode: String
        /// active, paused or ended.
        public var state: String
        public var note: String?
        public var nextDate: String?
        public var skipped: [String]
        /// Dates waiting to be confirmed or dismissed.
        public var pending: [String]
    }

    public struct Rule: Codable, Sendable {
        /// day, week, month or year.
        public var every: String
        public var interval: Int
        public var weekdays: [Int]
        /// clamp or skip.
        public var monthEnd: String
        public var start: String
        public var end: String?
        public var count: Int?
    }

    public struct Activity: Codable, Sendable {
        public var action: String
        /// "group", "member", "category", "expense" or "settlement".
        public var entity: String
        public var entityId: String
        public var actor: String
        public var at: String
        public var details: ActivityEvent
    }
}

// MARK: - Writing

extension GroupDocument {
    struct Source {
        var group: GroupRecord
        var members: [MemberRecord]
        var categories: [CategoryRecord]
        var rates: [RateRecord]
        var expenses: [ExpenseRecord]
        var settlements: [SettlementRecord]
        var history: [PaymentHistoryRecord]
        /// Oldest first.
        var activity: [ActivityRecord]
        var budget: BudgetRecord? = nil
        var series: [SeriesRecord] = []
        var pending: [PendingRecord] = []
    }

    static func moment(_ milliseconds: Int64) -> String {
        UTCTimestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000)) ?? "1970-01-01T00:00:00Z"
    }

    init(_ source: Source, now: Int64) {
        let categoryIDs = Set(source.categories.map(\.id))
        // Payers and shares in the members' order: the same group is the same document.
        let order = Dictionary(source.members.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let position = { (id: UUID) in order[id] ?? Int.max }
        var history: [UUID: [PaymentHistoryRecord]] = [:]
        for line in source.history { history[line.splitID, default: []].append(line) }
        var shareOwner: [UUID: (expense: UUID, member: UUID)] = [:]
        for expense in source.expenses {
            for share in expense.liveShares { shareOwner[share.id] = (expense.id, share.memberID) }
        }
        self.init(
            format: Self.formatName, version: Self.currentVersion, exportedAt: Self.moment(now),
            group: Group(
                name: source.group.name, description: source.group.description, homeCurrency: source.group.homeCurrency,
                timeZone: source.group.timeZone),
            members: source.members.map {
                Member(
                    id: $0.id.text, name: $0.name, role: $0.role.rawValue, active: $0.isActive,
                    leftThemselves: !$0.isActive && $0.hasLeft ? true : nil, linked: $0.userID != nil,
                    permissions: Permissions(
                        addExpenses: $0.canAddExpenses, editOwnExpenses: $0.canEditOwnExpenses,
                        editAllExpenses: $0.canEditAllExpenses, markPaid: $0.canMarkPaid))
            },
            categories: source.categories.sorted { ($0.position, $0.name) < ($1.position, $1.name) }.map {
                Category(
                    id: $0.id.text, name: $0.name, icon: $0.icon, color: $0.color, isDefault: $0.isDefault,
                    position: $0.position)
            },
            rates: source.rates.map { Rate(from: $0.from, to: $0.to, date: $0.date, rate: $0.rate) },
            expenses: source.expenses.map { expense in
                Expense(
                    id: expense.id.text, description: expense.description, amount: expense.amount,
                    currency: expense.currency,
                    category: categoryIDs.contains(expense.categoryID) ? expense.categoryID.text : "",
                    date: expense.expenseDate,
                    home: expense.homeAmount.flatMap { amount in
                        expense.homeCurrency.map { Amount(amount: amount, currency: $0) }
                    },
                    split: StoredSplit.Value(expense.rule),
                    paidBy: expense.payers.sorted { position($0.memberID) < position($1.memberID) }.map {
                        Part(member: $0.memberID.text, amount: $0.amount)
                    },
                    shares: expense.liveShares.sorted { position($0.memberID) < position($1.memberID) }.map { share in
                        Share(
                            member: share.memberID.text, amount: share.amount, paid: share.isPaid,
                            paidAt: share.paidAt.map(Self.moment),
                            history: (history[share.id] ?? []).map {
                                Mark(
                                    action: $0.isPaid ? "marked_paid" : "marked_unpaid", by: $0.performedByName,
                                    at: Self.moment($0.performedAt), reason: $0.reason)
                            })
                    })
            },
            settlements: source.settlements.map { settlement in
                Settlement(
                    id: settlement.id.text, from: settlement.fromMemberID.text, to: settlement.toMemberID.text,
                    amount: settlement.amount, currency: settlement.currency, date: settlement.date, note: settlement.note,
                    forShare: settlement.expenseSplitID.flatMap { shareOwner[$0] }.map {
                        ShareRef(expense: $0.expense.text, member: $0.member.text)
                    },
                    voidedShare: settlement.voidedSplitID.flatMap { shareOwner[$0] }.map {
                        ShareRef(expense: $0.expense.text, member: $0.member.text)
                    })
            },
            activity: source.activity.map {
                Activity(
                    action: $0.action, entity: $0.entity.rawValue, entityId: $0.entityID.text, actor: $0.actorName,
                    at: Self.moment($0.at), details: Self.exported($0.event))
            },
            budget: source.budget.map { budget in
                Budget(
                    period: budget.period.rawValue, startDate: budget.startDate, endDate: budget.endDate,
                    currency: budget.currency, total: budget.total,
                    caps: budget.caps.filter { categoryIDs.contains($0.key) }.sorted { $0.key.sortsBefore($1.key) }.map {
                        Cap(category: $0.key.text, amount: $0.value)
                    }, thresholds: budget.thresholds)
            },
            recurring: source.series.sorted { ($0.createdAt, $0.id.text) < ($1.createdAt, $1.id.text) }.map { series in
                let template = series.template
                let rule = series.recurrence
                return Recurring(
                    id: series.id.text, description: template.description, amount: template.amount,
                    currency: template.currency,
                    category: categoryIDs.contains(template.categoryID) ? template.categoryID.text : "",
                    paidBy: template.payers.sorted { position($0.memberID) < position($1.memberID) }.map {
                        Part(member: $0.memberID.text, amount: $0.amount)
                    }, split: StoredSplit.Value(template.rule),
                    rule: Rule(
                        every: rule.unit.rawValue, interval: rule.interval, weekdays: rule.weekdays.sorted(),
                        monthEnd: rule.monthEnd.rawValue, start: rule.start.description, end: rule.end?.description,
                        count: rule.count), mode: series.mode.rawValue, state: series.state.rawValue, note: series.note,
                    nextDate: series.nextDate, skipped: series.skipped,
                    pending: source.pending.filter { $0.seriesID == series.id && $0.state == .pending }.map(\.date).sorted())
            })
    }

    /// The document as a file: pretty, keys sorted, so two exports compare line by line.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain values only: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}

// MARK: - Reading

extension GroupDocument {
    /// Reads a document into what an import writes, checking every reference and every bound an
    /// expense entered by hand has.
    static func read(_ data: Data) throws(ImportProblem) -> ImportedFile {
        // What the file is, before its shape: another version says so, not "has no …".
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        if let header = try? JSONDecoder().decode(Header.self, from: data) {
            if let format = header.format, format != formatName {
                throw ImportProblem(line: nil, column: "format", message: "\"\(format.prefix(60))\" is not \(formatName)")
            }
            if let version = header.version, version != currentVersion {
                throw ImportProblem(
                    line: nil, column: "version",
                    message: "version \(version) is not one this server reads (it reads \(currentVersion))")
            }
        }
        let document: GroupDocument
        do {
            document = try JSONDecoder().decode(GroupDocument.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw Self.problem(context, "is not JSON as this format writes it")
        } catch let DecodingError.keyNotFound(key, context) {
            throw Self.problem(context, "has no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw Self.problem(context, "has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw Self.problem(context, "is null")
        } catch let error as StoredSplit.DecodingError {
            throw ImportProblem(line: nil, column: "split", message: "a split this server cannot read (\(error))")
        } catch {
            throw ImportProblem(line: nil, column: nil, message: "the file is not a Budget Splitter group export (\(error))")
        }
        guard document.format == formatName else {
            throw ImportProblem(
                line: nil, column: "format", message: "\"\(document.format.prefix(60))\" is not \(formatName)")
        }
        guard document.version == currentVersion else {
            throw ImportProblem(
                line: nil, column: "version",
                message: "version \(document.version) is not one this server reads (it reads \(currentVersion))")
        }
        return try document.imported()
    }

    private static func problem(_ context: DecodingError.Context, _ what: String) -> ImportProblem {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        guard !path.isEmpty else {
            return ImportProblem(line: nil, column: nil, message: "the file is not a Budget Splitter group export: it \(what)")
        }
        return ImportProblem(line: nil, column: String(path.drop { $0 == "." }), message: "it \(what)")
    }

    func imported() throws(ImportProblem) -> ImportedFile {
        // People: by their id in the document.
        var people: [String: Int] = [:]
        for (index, member) in members.enumerated() {
            guard people.updateValue(index, forKey: member.id.lowercased()) == nil else {
                throw ImportProblem(line: nil, column: "members[\(index)].id", message: "two members have the id \(member.id.prefix(40))")
            }
        }
        // Members are told apart by id here, so two of one name (a removed Cho and a new one) are
        // kept as "Cho" and "Cho (2)" (found by review: the group's own export was refused).
        let names = members.reduce(into: [String]()) { names, member in
            names.append(ImportedFile.distinct(member.name, from: names))
        }
        try ImportedFile.checkNames(names, line: nil)
        func person(_ id: String, _ at: String) throws(ImportProblem) -> Int {
            guard let index = people[id.lowercased()] else {
                throw ImportProblem(line: nil, column: at, message: "no member has the id \(id.prefix(40))")
            }
            return index
        }
        var file = ImportedFile(format: .json, names: names)
        file.groupName = group.name
        file.sourceExpenseIDs = expenses.prefix(500).compactMap { UUID(uuidString: $0.id) }
        file.homeCurrency = try ImportedFile.currency(group.homeCurrency, line: 0, column: "group.homeCurrency").code

        var categoryNames: [String: String] = [:]
        var definitions: [ImportedFile.GroupDetails.Category] = []
        for (index, category) in categories.enumerated() {
            let at = "categories[\(index)]"
            guard let name = AccountInput.normalizedName(category.name, length: 1...50) else {
                throw ImportProblem(line: nil, column: at + ".name", message: "a category name has 1 to 50 visible characters")
            }
            let icon: String
            let color: String
            do {
                icon = try CategoryUseCases.icon(category.icon)
                color = try CategoryUseCases.color(category.color)
            } catch {
                throw ImportProblem(line: nil, column: at, message: "\(error)")
            }
            guard categoryNames.updateValue(name, forKey: category.id.lowercased()) == nil else {
                throw ImportProblem(line: nil, column: at + ".id", message: "two categories have the id \(category.id.prefix(40))")
            }
            definitions.append(.init(name: name, icon: icon, color: color, isDefault: category.isDefault, position: category.position))
        }

        var expenseIndex: [String: Int] = [:]
        for (index, expense) in expenses.enumerated() {
            let at = "expenses[\(index)]"
            let currency = try ImportedFile.currency(expense.currency, line: 0, column: at + ".currency")
            let remap = { (member: MemberID) -> MemberID in
                people[member.uuid.text].map(ImportedFile.person) ?? Self.nobody
            }
            let rule = expense.split.rule.replacingMembers(remap)
            do {
                try ExpenseLimits.check(rule)
            } catch {
                throw ImportProblem(line: nil, column: at + ".split", message: "\(error)")
            }
            guard !Self.names(rule).contains(Self.nobody) else {
                throw ImportProblem(line: nil, column: at + ".split", message: "the split names someone who is not a member")
            }
            var payers: [MemberAmount] = []
            for (position, part) in expense.paidBy.enumerated() {
                let place = "\(at).paidBy[\(position)]"
                payers.append(
                    MemberAmount(ImportedFile.person(try person(part.member, place)), try Self.amount(part.amount, place + ".amount")))
            }
            var paid: [Int: ImportedFile.PaidMark] = [:]
            var shares: [MemberAmount] = []
            for (position, share) in expense.shares.enumerated() {
                let who = try person(share.member, "\(at).shares[\(position)]")
                shares.append(MemberAmount(ImportedFile.person(who), try Self.amount(share.amount, "\(at).shares[\(position)].amount")))
                var history: [ImportedFile.HistoryEntry] = []
                for (line, mark) in share.history.enumerated() {
                    let place = "\(at).shares[\(position)].history[\(line)]"
                    guard mark.action == "marked_paid" || mark.action == "marked_unpaid" else {
                        throw ImportProblem(line: nil, column: place, message: "\"\(mark.action.prefix(40))\" is not marked_paid or marked_unpaid")
                    }
                    history.append(
                        .init(
                            markedPaid: mark.action == "marked_paid", byName: try Self.text(mark.by, place + ".by", length: 100),
                            at: try Self.milliseconds(mark.at, place + ".at"),
                            reason: try mark.reason.map { text throws(ImportProblem) in try Self.text(text, place + ".reason", length: 500) }))
                }
                if share.paid || !history.isEmpty {
                    paid[who] = .init(
                        paidAt: try share.paidAt.map { text throws(ImportProblem) in try Self.milliseconds(text, "\(at).shares[\(position)].paidAt") },
                        isPaid: share.paid, history: history)
                }
            }
            guard expenseIndex.updateValue(index, forKey: expense.id.lowercased()) == nil else {
                throw ImportProblem(line: nil, column: at + ".id", message: "two expenses have the id \(expense.id.prefix(40))")
            }
            file.expenses.append(
                ImportedFile.Expense(
                    line: index + 1, id: UUID.random(), date: try ImportedFile.date(expense.date, line: 0, column: at + ".date", anyYear: true),
                    description: ImportedFile.description(expense.description),
                    category: try Self.category(expense.category, categoryNames, at + ".category"),
                    total: try Self.amount(expense.amount, at + ".amount"), currency: currency, payers: payers, rule: rule,
                    shares: shares,
                    home: try expense.home.map { home throws(ImportProblem) in
                        Money(
                            minorUnits: try Self.amount(home.amount, at + ".home.amount"),
                            currency: try ImportedFile.currency(home.currency, line: 0, column: at + ".home.currency"))
                    }, paid: paid))
        }
        for (index, settlement) in settlements.enumerated() {
            let at = "settlements[\(index)]"
            func share(_ reference: ShareRef?, _ column: String) throws(ImportProblem) -> (expense: Int, person: Int)? {
                guard let reference else { return nil }
                guard let expense = expenseIndex[reference.expense.lowercased()] else {
                    throw ImportProblem(line: nil, column: column, message: "no expense has the id \(reference.expense.prefix(40))")
                }
                let member = try person(reference.member, column + ".member")
                guard file.expenses[expense].shares?.contains(where: { $0.memberID == ImportedFile.person(member) }) == true else {
                    throw ImportProblem(line: nil, column: column, message: "that expense has no share of that member")
                }
                return (expense, member)
            }
            let forShare = try share(settlement.forShare, at + ".forShare")
            let voidedShare = try share(settlement.voidedShare, at + ".voidedShare")
            // A mark given again stands for the transfer of the share whose mark was voided: the
            // same share, never another (found by review).
            if let forShare, let voidedShare, forShare != voidedShare {
                throw ImportProblem(
                    line: nil, column: at + ".voidedShare",
                    message: "a transfer marked for one share was voided from that share, not another")
            }
            let amount = try Self.amount(settlement.amount, at + ".amount")
            guard amount > 0 else {
                throw ImportProblem(line: nil, column: at + ".amount", message: "a transfer moves more than 0")
            }
            let from = try person(settlement.from, at + ".from")
            guard from != (try person(settlement.to, at + ".to")) else {
                throw ImportProblem(line: nil, column: at + ".to", message: "a transfer goes between two members")
            }
            // A paid share has a transfer per payer (several paid it), to its member for a refund,
            // and one more after an edit marked it again (found by review: a group's own export of
            // such a share was refused).
            for (share, column) in [(forShare, "forShare"), (voidedShare, "voidedShare")] {
                if let share, share.person != from, share.person != (try person(settlement.to, at + ".to")) {
                    throw ImportProblem(
                        line: nil, column: at + "." + column,
                        message: "a paid share's transfer is from or to that share's member")
                }
            }
            file.transfers.append(
                ImportedFile.Transfer(
                    line: index + 1, date: try ImportedFile.date(settlement.date, line: 0, column: at + ".date", anyYear: true),
                    note: try Self.text(settlement.note, at + ".note", length: 500),
                    from: try person(settlement.from, at + ".from"), to: try person(settlement.to, at + ".to"),
                    amount: amount, currency: try ImportedFile.currency(settlement.currency, line: 0, column: at + ".currency"),
                    forShare: forShare, voidedShare: voidedShare))
        }
        var settlementIndex: [String: Int] = [:]
        for (index, settlement) in settlements.enumerated() {
            guard settlementIndex.updateValue(index, forKey: settlement.id.lowercased()) == nil else {
                throw ImportProblem(
                    line: nil, column: "settlements[\(index)].id", message: "two transfers have the id \(settlement.id.prefix(40))")
            }
        }
        var activityLines: [ImportedFile.GroupDetails.Activity] = []
        for (index, line) in activity.enumerated() {
            let at = "activity[\(index)]"
            guard line.details.json.utf8.count <= 4_096 else {
                throw ImportProblem(line: nil, column: at + ".details", message: "the details are larger than 4 KB")
            }
            // The members a line names by id, as the file's people (their ids in the new group are
            // others); an id of no member in the file is dropped.
            var event = line.details
            func person(_ id: UUID?) -> UUID? { id.flatMap { people[$0.text] }.map { ImportedFile.person($0).uuid } }
            (event.fromID, event.toID, event.memberID) = (person(event.fromID), person(event.toID), person(event.memberID))
            (event.userID, event.requestID) = (nil, nil)  // accounts and payment requests are not copied
            activityLines.append(
                .init(
                    action: try Self.text(line.action, at + ".action", length: 60),
                    about: try Self.reference(
                        line, at, expenses: expenseIndex, transfers: settlementIndex, people: people,
                        categories: categoryNames),
                    actorName: try Self.text(line.actor, at + ".actor", length: 100),
                    at: try Self.milliseconds(line.at, at + ".at"), event: event))
        }
        let (budgetDetails, seriesDetails) = try readPlans(categoryNames: categoryNames, people: people)
        file.details = ImportedFile.GroupDetails(
            description: try Self.text(group.description, "group.description", length: 1000), timeZone: group.timeZone,
            people: try members.enumerated().map { index, member throws(ImportProblem) in
                guard ["owner", "admin", "member", "viewer"].contains(member.role) else {
                    throw ImportProblem(
                        line: nil, column: "members[\(index)].role", message: "\"\(member.role.prefix(20))\" is not owner, admin, member or viewer")
                }
                return .init(
                    role: member.role, isActive: member.active, hasLeft: !member.active && member.leftThemselves == true,
                    canAddExpenses: member.permissions.addExpenses,
                    canEditOwnExpenses: member.permissions.editOwnExpenses,
                    canEditAllExpenses: member.permissions.editAllExpenses, canMarkPaid: member.permissions.markPaid)
            },
            categories: definitions,
            rates: try rates.enumerated().map { index, rate throws(ImportProblem) in
                let at = "rates[\(index)]"
                let from = try ImportedFile.currency(rate.from, line: 0, column: at + ".from")
                let to = try ImportedFile.currency(rate.to, line: 0, column: at + ".to")
                guard rate.rate.count <= 40, let value = try? DecimalValue(parsing: rate.rate),
                    (try? ExchangeRate(from: from, to: to, rate: value)) != nil
                else {
                    throw ImportProblem(
                        line: nil, column: at + ".rate",
                        message: "\"\(rate.rate.prefix(40))\" is not a rate between two currencies above 0")
                }
                return .init(
                    from: from.code, to: to.code, date: try ImportedFile.date(rate.date, line: 0, column: at + ".date", anyYear: true),
                    rate: value.description)
            },
            activity: activityLines, budget: budgetDetails, series: seriesDetails)
        return file
    }

    /// The budget and the recurring expenses (issue 20), checked as their own use cases check
    /// them when entered.
    private func readPlans(
        categoryNames: [String: String], people: [String: Int]
    ) throws(ImportProblem) -> (ImportedFile.GroupDetails.Budget?, [ImportedFile.GroupDetails.Series]) {
        func person(_ id: String, _ at: String) throws(ImportProblem) -> Int {
            guard let index = people[id.lowercased()] else {
                throw ImportProblem(line: nil, column: at, message: "no member has the id \(id.prefix(40))")
            }
            return index
        }
        var budgetDetails: ImportedFile.GroupDetails.Budget?
        if let budget {
            guard ["month", "trip"].contains(budget.period) else {
                throw ImportProblem(line: nil, column: "budget.period", message: "\"\(budget.period.prefix(20))\" is not month or trip")
            }
            let currency = try ImportedFile.currency(budget.currency, line: 0, column: "budget.currency")
            var start: String?
            var end: String?
            if budget.period == "trip" {
                start = try ImportedFile.date(budget.startDate ?? "", line: 0, column: "budget.startDate", anyYear: true)
                end = try ImportedFile.date(budget.endDate ?? "", line: 0, column: "budget.endDate", anyYear: true)
                guard let start, let end, start <= end else {
                    throw ImportProblem(line: nil, column: "budget.endDate", message: "the trip ends before it starts")
                }
            }
            guard (1...5).contains(budget.thresholds.count), Set(budget.thresholds).count == budget.thresholds.count,
                budget.thresholds.allSatisfy({ (1...1_000).contains($0) })
            else {
                throw ImportProblem(line: nil, column: "budget.thresholds", message: "one to five different percentages from 1 to 1000")
            }
            guard budget.caps.count <= BudgetUseCases.maximumCaps else {
                throw ImportProblem(line: nil, column: "budget.caps", message: "at most \(BudgetUseCases.maximumCaps) caps")
            }
            var caps: [(category: String, amount: Int64)] = []
            for (index, cap) in budget.caps.enumerated() {
                let at = "budget.caps[\(index)]"
                let name = try Self.category(cap.category, categoryNames, at + ".category")
                guard !name.isEmpty, !caps.contains(where: { $0.category.lowercased() == name.lowercased() }) else {
                    throw ImportProblem(line: nil, column: at + ".category", message: "each cap names a category of the document, once")
                }
                let amount = try Self.amount(cap.amount, at + ".amount")
                guard amount >= 0 else { throw ImportProblem(line: nil, column: at + ".amount", message: "a cap is 0 or more") }
                caps.append((name, amount))
            }
            let total = try budget.total.map { value throws(ImportProblem) in try Self.amount(value, "budget.total") }
            if let total, total < 0 { throw ImportProblem(line: nil, column: "budget.total", message: "a total is 0 or more") }
            budgetDetails = .init(
                period: budget.period, startDate: start, endDate: end, currency: currency.code, total: total, caps: caps,
                thresholds: budget.thresholds)
        }
        var seriesDetails: [ImportedFile.GroupDetails.Series] = []
        let list = recurring ?? []
        guard list.count <= RecurringStore.seriesPerGroup else {
            throw ImportProblem(line: nil, column: "recurring", message: "at most \(RecurringStore.seriesPerGroup) recurring expenses")
        }
        for (index, item) in list.enumerated() {
            let at = "recurring[\(index)]"
            let currency = try ImportedFile.currency(item.currency, line: 0, column: at + ".currency")
            let rule = item.split.rule.replacingMembers { people[$0.uuid.text].map(ImportedFile.person) ?? Self.nobody }
            do {
                try ExpenseLimits.check(rule)
            } catch {
                throw ImportProblem(line: nil, column: at + ".split", message: "\(error)")
            }
            guard !Self.names(rule).contains(Self.nobody) else {
                throw ImportProblem(line: nil, column: at + ".split", message: "the split names someone who is not a member")
            }
            var payers: [MemberAmount] = []
            for (position, part) in item.paidBy.enumerated() {
                let place = "\(at).paidBy[\(position)]"
                payers.append(
                    MemberAmount(ImportedFile.person(try person(part.member, place)), try Self.amount(part.amount, place + ".amount")))
            }
            guard let unit = Recurrence.Unit(rawValue: item.rule.every), let monthEnd = Recurrence.MonthEnd(rawValue: item.rule.monthEnd)
            else {
                throw ImportProblem(line: nil, column: at + ".rule", message: "every is day, week, month or year; monthEnd clamp or skip")
            }
            let start = try ImportedFile.date(item.rule.start, line: 0, column: at + ".rule.start", anyYear: true)
            let end = try item.rule.end.map { text throws(ImportProblem) in try ImportedFile.date(text, line: 0, column: at + ".rule.end", anyYear: true) }
            let recurrence: Recurrence
            do {
                recurrence = try Recurrence(
                    unit: unit, interval: item.rule.interval, weekdays: Set(item.rule.weekdays), monthEnd: monthEnd,
                    start: CivilDate(start)!, end: end.flatMap(CivilDate.init), count: item.rule.count)
            } catch {
                throw ImportProblem(line: nil, column: at + ".rule", message: error.description)
            }
            guard ["auto", "confirm"].contains(item.mode) else {
                throw ImportProblem(line: nil, column: at + ".mode", message: "\"\(item.mode.prefix(20))\" is not auto or confirm")
            }
            guard ["active", "paused", "ended"].contains(item.state) else {
                throw ImportProblem(line: nil, column: at + ".state", message: "\"\(item.state.prefix(20))\" is not active, paused or ended")
            }
            guard item.skipped.count <= 1_000, item.pending.count <= 1_000 else {
                throw ImportProblem(line: nil, column: at, message: "at most 1,000 skipped and 1,000 pending dates")
            }
            var skipped: [String] = []
            for (position, date) in item.skipped.enumerated() {
                skipped.append(try ImportedFile.date(date, line: 0, column: "\(at).skipped[\(position)]", anyYear: true))
            }
            var pending: [String] = []
            for (position, date) in item.pending.enumerated() {
                let text = try ImportedFile.date(date, line: 0, column: "\(at).pending[\(position)]", anyYear: true)
                guard !pending.contains(text) else {
                    throw ImportProblem(line: nil, column: "\(at).pending[\(position)]", message: "a date waits once")
                }
                pending.append(text)
            }
            let amount = try Self.amount(item.amount, at + ".amount")
            guard amount != 0 else { throw ImportProblem(line: nil, column: at + ".amount", message: "an amount is not 0") }
            seriesDetails.append(
                .init(
                    description: ImportedFile.description(item.description), amount: amount, currency: currency,
                    category: try Self.category(item.category, categoryNames, at + ".category"), payers: payers, rule: rule,
                    recurrence: recurrence, mode: item.mode, state: item.state,
                    note: try item.note.map { text throws(ImportProblem) in try Self.text(text, at + ".note", length: 500) },
                    nextDate: try item.nextDate.map { text throws(ImportProblem) in
                        try ImportedFile.date(text, line: 0, column: at + ".nextDate", anyYear: true)
                    }, skipped: skipped, pending: pending))
        }
        return (budgetDetails, seriesDetails)
    }

    /// A line's details as the document has them: without the account of a claimant (accounts
    /// are not exported, and one turned down was never a member; found by review).
    static func exported(_ event: ActivityEvent) -> ActivityEvent {
        var event = event
        (event.userID, event.requestID) = (nil, nil)  // payment requests are not in it either
        return event
    }

    /// What an activity line is about, among the document's things where it is one of them.
    private static func reference(
        _ line: Activity, _ at: String, expenses: [String: Int], transfers: [String: Int], people: [String: Int],
        categories: [String: String]
    ) throws(ImportProblem) -> ImportedFile.GroupDetails.Activity.Reference {
        let other = ImportedFile.GroupDetails.Activity.Reference.other(
            entity: line.entity == "group" ? .group : ChangeEntity(rawValue: line.entity) ?? .group, id: line.entityId)
        switch line.entity {
        case "group": return .group
        case "expense": return expenses[line.entityId.lowercased()].map { .expense($0) } ?? other
        case "settlement": return transfers[line.entityId.lowercased()].map { .transfer($0) } ?? other
        case "member": return people[line.entityId.lowercased()].map { .person($0) } ?? other
        case "category": return categories[line.entityId.lowercased()].map { .category($0) } ?? other
        default:
            throw ImportProblem(line: nil, column: at + ".entity", message: "\"\(line.entity.prefix(40))\" is not a kind of thing in a group")
        }
    }

    /// An expense's category by id ("" for none: the group's Other).
    private static func category(_ id: String, _ names: [String: String], _ at: String) throws(ImportProblem) -> String {
        guard !id.isEmpty else { return "" }
        guard let name = names[id.lowercased()] else {
            throw ImportProblem(line: nil, column: at, message: "no category has the id \(id.prefix(40))")
        }
        return name
    }

    /// Where a rule names someone who is not among the members.
    private static let nobody = MemberID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))

    /// Every member a rule names.
    static func names(_ rule: SplitRule) -> Set<MemberID> {
        switch rule {
        case .equal(let members): Set(members)
        case .exact(let list): Set(list.map(\.memberID))
        case .percent(let list), .shares(let list): Set(list.map(\.memberID))
        case .adjustment(let members, let adjustments): Set(members).union(adjustments.map(\.memberID))
        case .itemized(let items, _): items.reduce(into: Set()) { $0.formUnion(names($1.rule)) }
        }
    }

    private static func amount(_ minor: Int64, _ at: String) throws(ImportProblem) -> Int64 {
        guard minor.magnitude <= MoneyInput.maximumMinorUnits.magnitude else {
            throw ImportProblem(line: nil, column: at, message: "\(minor) is larger than this server takes")
        }
        return minor
    }

    private static func milliseconds(_ text: String, _ at: String) throws(ImportProblem) -> Int64 {
        guard let date = UTCTimestamp.parse(text) else {
            throw ImportProblem(line: nil, column: at, message: "\"\(text.prefix(40))\" is not a moment like 2026-07-14T09:30:00Z")
        }
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    private static func text(_ text: String, _ at: String, length: Int) throws(ImportProblem) -> String {
        guard text.unicodeScalars.count <= length, !AccountInput.containsControlCharacters(text, allowingLineBreaks: true) else {
            throw ImportProblem(line: nil, column: at, message: "at most \(length) characters, no control characters")
        }
        return text
    }
}

