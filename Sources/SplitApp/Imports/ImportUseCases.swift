import Crypto
import Foundation
import SplitCore
import SplitStore

/// Where an import goes: a new group made from the file, or a group the caller manages.
public enum ImportTarget: Sendable {
    /// A new group of this name (nil: the name the file gives), owned by the caller; its time
    /// zone when the client knows it; its home currency when the importer chose one (nil: the
    /// file's own, else the one most of it is in).
    case newGroup(name: String?, timeZone: String?, homeCurrency: String? = nil)
    case group(UUID)
}

/// What an import did, or would do on a dry run (issue 18).
public struct ImportReport: Sendable {
    /// How one name of the file was matched.
    public struct Mapping: Sendable, Equatable {
        public enum Kind: String, Sendable { case existing, me, new }
        /// The name as the file has it.
        public let name: String
        public let kind: Kind
        /// The group's member (nil for a new one on a dry run of a new group).
        public let memberID: UUID?
        /// That member's name in the group.
        public let memberName: String
    }

    /// What the file moves for one of its names in one currency (paid − owed + sent − received).
    public struct Balance: Sendable, Equatable {
        public let name: String
        public let currency: String
        public let net: Int64
    }

    /// The group the file went into (after a dry run of a new group: the one that would be made).
    public let group: GroupRecord
    /// The caller's member in it.
    public let me: MemberRecord
    public let dryRun: Bool
    public let expenses: Int
    public let settlements: Int
    public let members: [Mapping]
    public let newCategories: [String]
    public let balances: [Balance]
    /// The currencies whose footer line was checked against the imported balances (all matched).
    public let footersChecked: [String]
    public let skipped: [ImportedFile.Skipped]
    /// Rows the reader read in a way of its own, said in words (`ImportedFile.notes`).
    public let notes: [String]
    /// On a forced check of a file this group imported before: when that was.
    public var importedBefore: Int64? = nil
}

/// Moving in from other apps (issue 18): a file becomes expenses and transfers in one
/// transaction, exact to the minor unit, or is refused whole naming the line at fault.
public struct ImportUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64
    let makeInviteCode: @Sendable () -> String

    /// The largest file taken (the HTTP layer refuses a larger body before it is read).
    public static let maximumBytes = 20 << 20

    public init(database: Database, now: @escaping @Sendable () -> Int64, makeInviteCode: @escaping @Sendable () -> String) {
        self.database = database
        self.now = now
        self.makeInviteCode = makeInviteCode
    }

    /// Imports a file of another app or one of our own exports.
    ///
    /// - Parameters:
    ///   - mapping: file name → "me", "new", or a member of the group by id or name; a name not
    ///     mapped goes to the group's member of that name (any case) or becomes a new name-only
    ///     member with exactly that name.
    ///   - dryRun: check everything and say what would be written; write nothing.
    ///   - force: import a file this group has imported before.
    public func importFile(
        _ data: Data, format: ImportedFile.Format, into target: ImportTarget, mapping: [String: String], dryRun: Bool,
        force: Bool, caller: Caller, origin: RequestOrigin
    ) async throws -> ImportReport {
        guard data.count <= Self.maximumBytes else {
            throw AppError.invalid(field: "file", message: "The file is larger than 20 MB.")
        }
        // Who may import, before the file is read: a stranger learns nothing from it.
        let current = now()
        var group: GroupRecord
        var me: MemberRecord
        var existing: [MemberRecord]
        var newGroup: GroupRecord?
        var givenTimeZone: String?
        var givenHome: Currency?
        switch target {
        case .newGroup(let name, let timeZone, let homeCurrency):
            try caller.requireWholeAccount()
            givenTimeZone = timeZone
            givenHome = try homeCurrency.map { try MoneyInput.currency($0.uppercased(), field: "homeCurrency") }
            group = GroupRecord(
                id: UUID.random(), name: try name.map { try Names.name($0, field: "name") } ?? "", homeCurrency: "USD",
                timeZone: try timeZone.map(MoneyInput.timeZone) ?? "UTC", ownerUserID: caller.user.id,
                inviteCode: makeInviteCode(), createdAt: current, updatedAt: current)
            me = GroupStore.owner(of: group, name: caller.user.displayName)
            existing = [me]
            newGroup = group
        case .group(let id):
            (group, me) = try await access.check(id, caller, for: .updateGroup)
            existing = try await groups.members(groupID: group.id)
        }
        let file: ImportedFile
        do {
            // A file that does not say its currency is in the home currency of the group it goes into.
            file = try Self.read(
                data, format: format, homeCurrency: newGroup == nil ? try? Currency(code: group.homeCurrency) : givenHome)
        } catch {
            throw AppError.invalid(field: "file", message: error.description)
        }
        // A group's own export read back into it would count everything twice (found by a new
        // user: every balance doubled, with no word): a copy goes into a new group.
        if newGroup == nil, try await imports.holdsAny(groupID: group.id, expenseIDs: file.sourceExpenseIDs) {
            throw AppError.invalid(
                field: "file",
                message: "This file is this group's own export: imported here, every expense and transfer would count "
                    + "twice. To make a copy of the group, import it as a new group.")
        }
        if newGroup != nil {
            if group.name.isEmpty {
                guard let name = file.groupName.flatMap({ try? Names.name($0, field: "name") }) else {
                    throw AppError.invalid(field: "name", message: "Give the new group a name.")
                }
                // The file's name beside a group of mine of that name (a group's own export read
                // back) is told apart: "Japan (imported)" (found by a new user: two "Japan").
                let mine = Set(try await groups.groups(ofUser: caller.user.id).map { QuickEntry.folded($0.group.name) })
                let candidates = [name, "\(name) (imported)"] + (2...20).map { "\(name) (imported \($0))" }
                group.name =
                    candidates.first { !mine.contains(QuickEntry.folded($0)) && (try? Names.name($0, field: "name")) != nil }
                    ?? name
            }
            if let details = file.details {
                group.description = details.description
                // The file's zone as it is written ("UTC" stays "UTC"), when this server knows it.
                if givenTimeZone == nil, (try? MoneyInput.timeZone(details.timeZone)) != nil { group.timeZone = details.timeZone }
            }
            // A new group's home currency is the one chosen, else the file's own, else the one
            // most of the file is in (a dry run says which, and the importer may choose another).
            var counts: [String: Int] = [:]
            for expense in file.expenses { counts[expense.currency.code, default: 0] += 1 }
            group.homeCurrency =
                givenHome?.code ?? file.homeCurrency
                ?? counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.first?.key
                ?? file.totals.first?.currency.code ?? "USD"
            newGroup = group
        }

        let (mappings, memberIDs, mapped) = try Self.map(
            file.names, mapping: mapping, existing: existing, me: me, groupID: group.id, now: current)
        // Our own format says each person's role and permissions; a new group takes them (its
        // owner is the importer: an "owner" of the file becomes an admin). Into a group that
        // exists, new people come in as members, as anyone added by name does.
        // What the file holds is entered in its order, a millisecond apart: lists that show the
        // latest entered first, and our own export, keep the file's order.
        var newMembers = mapped
        for index in newMembers.indices { newMembers[index].createdAt = current + 1 + Int64(index) }
        if newGroup != nil, let people = file.details?.people {
            for index in newMembers.indices {
                guard let position = memberIDs.firstIndex(of: newMembers[index].id) else { continue }
                let person = people[position]
                newMembers[index].role = Role(rawValue: person.role).map { $0 == .owner ? .admin : $0 } ?? .member
                newMembers[index].isActive = person.isActive
                newMembers[index].hasLeft = person.hasLeft
                newMembers[index].canAddExpenses = person.canAddExpenses
                newMembers[index].canEditOwnExpenses = person.canEditOwnExpenses
                newMembers[index].canEditAllExpenses = person.canEditAllExpenses
                newMembers[index].canMarkPaid = person.canMarkPaid
            }
        }
        // The group's bound, said before anything is written (a dry run says it too). Members
        // removed from the group count, as the store counts them: they keep their balances.
        guard existing.count + newMembers.count <= GroupBounds.membersPerGroup else {
            throw AppError.invalid(
                field: "file",
                message: "The file adds \(newMembers.count) members to \(existing.count) (removed members count too); "
                    + "a group holds at most \(GroupBounds.membersPerGroup).")
        }
        let planned = (file.details?.budget?.caps.map(\.category) ?? []) + (file.details?.series.map(\.category) ?? [])
        let (categoryIDs, newCategories) = try await Self.categories(
            file.expenses.map(\.category) + planned, definitions: file.details?.categories ?? [], group: group,
            isNewGroup: newGroup != nil, store: categories, now: current)

        let member = { (id: MemberID) in ImportedFile.index(of: id).map { MemberID(memberIDs[$0]) } ?? id }
        // A split's refusal names people as the file does, never by the ids they are given here.
        let fileNames = Dictionary(zip(memberIDs, file.names).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        let named = { (error: SplitError) in error.description(naming: { fileNames[$0.uuid] }) }
        var expenses: [ExpenseRecord] = []
        var history: [ImportBatch.HistoryLine] = []
        for (position, expense) in file.expenses.enumerated() {
            let entered = current + Int64(position)
            let split: ExpenseSplit
            do {
                // The bounds any expense has (counts, texts, the stored size), whatever the file.
                try ExpenseLimits.check(expense.rule)
            } catch AppError.invalid(_, let message) {
                throw AppError.invalid(field: "file", message: file.problem(at: expense.line, message).description)
            }
            do {
                // A rule kept beside the file's own shares must itself be one that splits the total.
                if expense.shares != nil {
                    _ = try ExpenseSplit.compute(
                        total: Money(minorUnits: expense.total, currency: expense.currency),
                        payers: expense.payers.map { MemberAmount(member($0.memberID), $0.amount) },
                        rule: expense.rule.replacingMembers(member), tieBreak: TieBreak(seed: expense.id.text))
                }
                split = try ExpenseSplit.compute(
                    total: Money(minorUnits: expense.total, currency: expense.currency),
                    payers: expense.payers.map { MemberAmount(member($0.memberID), $0.amount) },
                    rule: expense.shares.map { shares in .exact(shares.map { MemberAmount(member($0.memberID), $0.amount) }) }
                        ?? expense.rule.replacingMembers(member),
                    tieBreak: TieBreak(seed: expense.id.text))
            } catch {
                throw AppError.invalid(field: "file", message: file.problem(at: expense.line, named(error)).description)
            }
            var shares: [ShareRecord] = []
            for owed in split.owed {
                var share = ShareRecord(id: UUID.timeOrdered(), memberID: owed.memberID.uuid, amount: owed.amount)
                if let person = memberIDs.firstIndex(of: owed.memberID.uuid), let mark = expense.paid[person] {
                    share.isPaid = mark.isPaid
                    share.paidAt = mark.paidAt
                    history += mark.history.map {
                        .init(splitID: share.id, markedPaid: $0.markedPaid, byName: $0.byName, at: $0.at, reason: $0.reason)
                    }
                }
                shares.append(share)
            }
            expenses.append(
                ExpenseRecord(
                    id: expense.id, groupID: group.id, description: expense.description, amount: expense.total,
                    currency: expense.currency.code,
                    categoryID: categoryIDs[expense.category.lowercased()] ?? categoryIDs[""]!,
                    expenseDate: expense.date, rule: expense.rule.replacingMembers(member),
                    homeAmount: expense.home?.minorUnits, homeCurrency: expense.home?.currency.code,
                    createdByUserID: caller.user.id, createdAt: entered, updatedAt: entered,
                    payers: split.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) }, shares: shares))
        }
        let settlements = file.transfers.enumerated().map { position, transfer in
            SettlementRecord(
                id: UUID.random(), groupID: group.id, fromMemberID: memberIDs[transfer.from], toMemberID: memberIDs[transfer.to],
                amount: transfer.amount, currency: transfer.currency.code, date: transfer.date, note: transfer.note,
                expenseSplitID: transfer.forShare.flatMap { share in
                    expenses[share.expense].shares.first { $0.memberID == memberIDs[share.person] }?.id
                },
                voidedSplitID: transfer.voidedShare.flatMap { share in
                    expenses[share.expense].shares.first { $0.memberID == memberIDs[share.person] }?.id
                }, createdByUserID: caller.user.id, createdAt: current + Int64(position),
                updatedAt: current + Int64(position))
        }

        let balances = Self.balances(
            names: file.names, memberIDs: memberIDs, expenses: expenses, settlements: settlements)
        let checked = try Self.checkTotals(file, balances: balances)
        var report = ImportReport(
            group: group, me: me, dryRun: dryRun, expenses: expenses.count, settlements: settlements.count,
            members: mappings, newCategories: newCategories.map(\.name), balances: balances,
            footersChecked: checked, skipped: file.skipped, notes: file.notes)
        // A check says what the import would answer: a file this group imported before is
        // refused there too (found by a new user: the check said it would go in); a forced
        // check says when it was.
        if dryRun, newGroup == nil,
            let at = try await imports.importedAt(groupID: group.id, contentHashes: Self.contentHashes(data))
        {
            guard force else { throw Self.alreadyImported(at) }
            report.importedBefore = at
        }
        if dryRun { return report }

        var batch = ImportBatch(
            groupID: group.id, newGroup: newGroup, owner: newGroup == nil ? nil : me,
            involving: newGroup == nil ? Set(memberIDs).subtracting(newMembers.map(\.id)).sorted { $0.sortsBefore($1) } : [],
            members: newMembers,
            categories: newCategories, expenses: expenses, settlements: settlements, format: format.rawValue,
            contentHashes: Self.contentHashes(data), forced: force)
        // A copy's rates, paid-mark history and activity go into a new group only: a group that
        // exists keeps its own history, which nothing written later may rewrite or predate.
        if newGroup != nil, let details = file.details {
            batch.rates = details.rates.map { RateRecord(from: $0.from, to: $0.to, date: $0.date, rate: $0.rate) }
            if let budget = details.budget {
                batch.budget = BudgetRecord(
                    groupID: group.id, period: BudgetRecord.Period(rawValue: budget.period) ?? .month,
                    startDate: budget.startDate, endDate: budget.endDate, currency: budget.currency, total: budget.total,
                    caps: Dictionary(
                        budget.caps.compactMap { cap in categoryIDs[cap.category.lowercased()].map { ($0, cap.amount) } },
                        uniquingKeysWith: { first, _ in first }), thresholds: budget.thresholds, updatedAt: current)
            }
            for (position, series) in details.series.enumerated() {
                // The template must split its amount, as a series entered by hand must.
                let payers = series.payers.map { MemberAmount(member($0.memberID), $0.amount) }
                let rule = series.rule.replacingMembers(member)
                let split: ExpenseSplit
                do {
                    split = try ExpenseSplit.compute(
                        total: Money(minorUnits: series.amount, currency: series.currency), payers: payers, rule: rule,
                        tieBreak: .none)
                } catch {
                    throw AppError.invalid(
                        field: "file", message: ImportProblem(line: nil, column: "recurring[\(position)]", message: named(error)).description)
                }
                let template = ExpenseTemplate(
                    description: series.description, amount: series.amount, currency: series.currency.code,
                    categoryID: categoryIDs[series.category.lowercased()] ?? categoryIDs[""]!, rule: rule,
                    payers: split.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
                    members: Array(Set(split.paid.map(\.memberID.uuid) + split.owed.map(\.memberID.uuid))).sorted { $0.sortsBefore($1) })
                let id = UUID.random()
                batch.series.append(
                    SeriesRecord(
                        id: id, groupID: group.id, template: template, recurrence: series.recurrence,
                        mode: SeriesRecord.Mode(rawValue: series.mode) ?? .confirm,
                        state: SeriesRecord.State(rawValue: series.state) ?? .paused, note: series.note,
                        nextDate: series.nextDate, skipped: series.skipped, createdByUserID: caller.user.id,
                        createdAt: current + Int64(position), updatedAt: current + Int64(position)))
                batch.pending += series.pending.map {
                    PendingRecord(
                        id: RecurringStore.occurrenceID(seriesID: id, date: $0), groupID: group.id, seriesID: id, date: $0,
                        template: template, createdAt: current)
                }
            }
            batch.history = history
            // A line about something the file does not hold keeps a fresh id of its own, the
            // same for every line about that thing.
            var others: [String: UUID] = [:]
            batch.activity = details.activity.compactMap { line in
                let (entity, id): (ChangeEntity, UUID)
                switch line.about {
                case .group: (entity, id) = (.group, group.id)
                case .expense(let index): (entity, id) = (.expense, expenses[index].id)
                case .transfer(let index): (entity, id) = (.settlement, settlements[index].id)
                case .person(let index): (entity, id) = (.member, memberIDs[index])
                case .category(let name):
                    guard let category = categoryIDs[name.lowercased()] else { return nil }
                    (entity, id) = (.category, category)
                case .other(let kind, let key):
                    let fresh = others[key] ?? UUID.random()
                    others[key] = fresh
                    (entity, id) = (kind, fresh)
                }
                // The members it names by id, as they are in the new group.
                var event = line.event
                func member(_ id: UUID?) -> UUID? {
                    id.flatMap { ImportedFile.index(of: MemberID($0)) }.map { memberIDs[$0] }
                }
                (event.fromID, event.toID, event.memberID) = (member(event.fromID), member(event.toID), member(event.memberID))
                return .init(
                    action: line.action, entity: entity, entityID: id, actorName: line.actorName, at: line.at, event: event)
            }
        }
        do {
            try await imports.run(
                batch, actor: GroupAccess.actor(caller, me, origin: origin, for: newGroup == nil ? [.updateGroup] : []),
                now: current)
        } catch ImportStoreError.alreadyImported(let at) {
            throw Self.alreadyImported(at)
        } catch ImportStoreError.groupNotFound {
            throw AppError.notFound("group")
        }
        return report
    }

    /// The file's hashes, as a group's earlier imports are looked up by: its text with every line
    /// end one LF and none at the end, without a byte-order mark (found by a new user: a file
    /// imported by the CLI went in a second time through the web, whose text box sends CRLF, and
    /// doubled every balance); then its bytes as they came, which imports stored until then.
    /// Imports stored before that hashed the bytes as they came, so the same file is also looked
    /// for in the shapes it most likely came in then: LF or CRLF line ends, with a last line end
    /// or without, behind a byte-order mark or not (found by review: a file the CLI imported
    /// before, LF with a last newline, came from the web's CRLF text box a second time).
    static func contentHashes(_ data: Data) -> [String] {
        let alike = alikeText(data)
        let crlf = alike.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { Array($0) }.joined(separator: [0x0D, 0x0A]).map { $0 }
        var hashes: [String] = []
        for shape in [alike, alike + [0x0A], crlf, crlf + [0x0D, 0x0A], [UInt8](data)] {
            for bytes in [shape, [0xEF, 0xBB, 0xBF] + shape] {
                let hash = Hex.string(SHA256.hash(data: Data(bytes)))
                if !hashes.contains(hash) { hashes.append(hash) }
            }
        }
        return hashes
    }

    /// A file's text with every line end one LF, none at the end and no byte-order mark: what
    /// tells the same file whatever carried it.
    public static func alikeText(_ data: Data) -> [UInt8] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var alike: [UInt8] = []
        alike.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                alike.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                alike.append(byte)
            }
            index += 1
        }
        while let last = alike.last, last == 0x0A || last == 0x20 || last == 0x09 { alike.removeLast() }
        return alike
    }

    /// How a file imported before goes in again, as the API says it (`importedBefore` without it
    /// for a page, which says it its own way).
    static let againHow =
        "To add it a second time, import it again saying so (the box on the web page, --force in the CLI, force=true in the API)."

    static func alreadyImported(_ at: Int64) -> AppError {
        AppError.conflict(
            code: "already_imported", field: "file", message: importedBefore(at) + "; nothing was written. " + Self.againHow)
    }

    /// "This file was imported into this group before (on …)", without the way on, which each
    /// surface says its own way.
    public static func importedBefore(_ at: Int64?) -> String {
        "This file was imported into this group before\(at.map(Self.when) ?? "")"
    }

    /// Reads a file of `format` into what an import writes.
    public static func read(_ data: Data, format: ImportedFile.Format, homeCurrency: Currency? = nil) throws(ImportProblem)
        -> ImportedFile
    {
        // A JSON file sent as a CSV layout: said as that, not as a quote in the wrong place.
        if format == .splitwise,
            let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        {
            throw ImportProblem(
                line: nil, column: nil,
                message: "this looks like a JSON file, not Splitwise's CSV: choose the app it came from "
                    + "(json for a Budget Splitter export)")
        }
        var file: ImportedFile
        switch format {
        case .splitwise: file = try SplitwiseFile.read(data).imported()
        case .json: file = try GroupDocument.read(data)
        case .ihatemoney: file = try IHateMoneyFile.read(data, homeCurrency: homeCurrency)
        case .spliit: file = try SpliitFile.read(data, homeCurrency: homeCurrency)
        case .cospend: file = try CospendFile.read(data, homeCurrency: homeCurrency)
        }
        guard file.expenses.count + file.transfers.count <= ImportedFile.maximumRows else {
            throw ImportProblem(
                line: nil, column: nil,
                message: "the file has \(file.expenses.count + file.transfers.count) expenses and transfers; at most \(ImportedFile.maximumRows) are imported at once")
        }
        // A file with nothing in it would make an empty group (found by a new user: a header
        // alone "imported 0 expenses"); our own export of a group without any still copies it.
        if file.expenses.isEmpty, file.transfers.isEmpty, format != .json {
            // Every line skipped: why, for the first (found by review: the reasons were lost).
            let why = file.skipped.first.map {
                " (\(file.skipped.count == 1 ? "its one line was" : "its \(file.skipped.count) lines were") skipped; "
                    + "line \($0.line): \($0.reason))"
            } ?? ""
            throw ImportProblem(line: nil, column: nil, message: "the file has no expenses or transfers to import" + why)
        }
        // Said, not done silently (found by review): a description longer than we keep is cut.
        let cut = file.expenses.filter(\.wasShortened)
        if let first = cut.first {
            file.notes.append(
                cut.count == 1
                    ? "1 description, at line \(first.line), was longer than \(ImportedFile.descriptionLimit) characters "
                        + "and is cut there, ending in “…”."
                    : "\(cut.count) descriptions, the first at line \(first.line), were longer than "
                        + "\(ImportedFile.descriptionLimit) characters and are cut there, ending in “…”.")
        }
        return file
    }

    // MARK: - Members

    /// Whether a file's name looks like a member's: the same letters whatever the case and
    /// accents, one name's words the start of the other's ("Aki" and "Aki Tanaka"), or one typo
    /// apart (two for long names). The web page proposes such a member; nothing maps by it alone.
    public static func similarName(_ one: String, _ other: String) -> Bool {
        let fold = { (text: String) in
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        }
        let (a, b) = (fold(one), fold(other))
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        if short.count < long.count, Array(long.prefix(short.count)) == short { return true }
        let (x, y) = (Array(a.joined(separator: " ")), Array(b.joined(separator: " ")))
        let allowed = min(x.count, y.count) >= 8 ? 2 : min(x.count, y.count) >= 4 ? 1 : 0
        return allowed > 0 && editDistance(x, y, atMost: allowed) <= allowed
    }

    /// Levenshtein distance, stopping once it is past `limit`.
    static func editDistance(_ x: [Character], _ y: [Character], atMost limit: Int) -> Int {
        guard abs(x.count - y.count) <= limit else { return limit + 1 }
        var previous = Array(0...y.count)
        for (i, left) in x.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: y.count)
            for (j, right) in y.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[y.count]
    }

    /// Each file name's member: as mapped, else the group's member of that name, else a new one.
    static func map(
        _ names: [String], mapping: [String: String], existing: [MemberRecord], me: MemberRecord, groupID: UUID,
        now: Int64
    ) throws -> (mappings: [ImportReport.Mapping], ids: [UUID], new: [MemberRecord]) {
        for key in mapping.keys where !names.contains(where: { QuickEntry.sameName($0, key) }) {
            throw AppError.invalid(
                field: "map", message: "The file has no member \"\(key.prefix(100))\"; its names are \(names.joined(separator: ", ")).")
        }
        var mappings: [ImportReport.Mapping] = []
        var ids: [UUID] = []
        var new: [MemberRecord] = []
        var taken: [UUID: String] = [:]
        for name in names {
            let choice = mapping.first { QuickEntry.sameName($0.key, name) }?.value
                .trimmingCharacters(in: .whitespaces)
            let member: MemberRecord?
            let kind: ImportReport.Mapping.Kind
            switch choice?.lowercased() {
            case "me"?:
                member = me
                kind = .me
            case "new"?:
                member = nil
                kind = .new
            case let text?:
                guard
                    let found = existing.first(where: {
                        $0.isActive && ($0.id.text == text || QuickEntry.sameName($0.name, text))
                    })
                else {
                    if let removed = existing.first(where: { $0.id.text == text || QuickEntry.sameName($0.name, text) }) {
                        throw AppError.invalid(
                            field: "map",
                            message: "\(removed.name) is no longer in the group; leave them out, or an owner or admin can restore them first.")
                    }
                    throw AppError.invalid(
                        field: "map",
                        message: "\"\(name)\" is mapped to \"\(choice!.prefix(100))\", which is no member of this group (give a member's name or id, me, or new).")
                }
                member = found
                kind = found.id == me.id ? .me : .existing
            case nil:
                // The group's member of that name: in a new group, which has only its owner, the
                // importer's own name is the importer (an export names whoever made it); every
                // other name becomes its own member.
                member = existing.first { $0.isActive && QuickEntry.sameName($0.name, name) }
                kind = member == nil ? .new : (member?.id == me.id ? .me : .existing)
            }
            let resolved: MemberRecord
            if let member {
                resolved = member
            } else {
                let memberName = try Self.memberName(name)
                // Two active members of one name could not be told apart (as adding one refuses).
                if let same = existing.first(where: { $0.isActive && QuickEntry.sameName($0.name, memberName) }) {
                    throw AppError.invalid(
                        field: "map",
                        message: "\"\(name)\" would be a second member called \(same.name); map it to \(same.id == me.id ? "me" : same.name), or rename one of them first.")
                }
                resolved = MemberRecord(
                    id: UUID.random(), groupID: groupID, userID: nil, name: memberName, role: .member,
                    createdAt: now, updatedAt: now)
                new.append(resolved)
            }
            if let other = taken[resolved.id] {
                throw AppError.invalid(
                    field: "map",
                    message: "\"\(other)\" and \"\(name)\" both go to \(resolved.name); each name of the file needs its own member.")
            }
            taken[resolved.id] = name
            mappings.append(.init(name: name, kind: kind, memberID: resolved.id, memberName: resolved.name))
            ids.append(resolved.id)
        }
        return (mappings, ids, new)
    }

    private static func memberName(_ name: String) throws -> String {
        do {
            return try Names.name(name, field: "file")
        } catch {
            throw AppError.invalid(
                field: "file",
                message: "The member column \"\(name.prefix(100))\" cannot be a member's name here (1 to 100 visible characters, without direction controls).")
        }
    }

    // MARK: - Categories

    /// Each category name of the file (lowercased) → the group's category of that name, made
    /// when the group has none; "" → Other, for a row with no category.
    static func categories(
        _ names: [String], definitions: [ImportedFile.GroupDetails.Category] = [], group: GroupRecord, isNewGroup: Bool, store: CategoryStore, now: Int64
    ) async throws -> ([String: UUID], [CategoryRecord]) {
        var byName: [String: UUID] = [:]
        var position: Int64 = 0
        if isNewGroup {
            for (index, category) in CategoryStore.defaults.enumerated() {
                byName[category.name.lowercased()] = CategoryStore.defaultID(groupID: group.id, name: category.name)
                position = Int64(index)
            }
        } else {
            for category in try await store.categories(groupID: group.id, now: now) {
                byName[category.name.lowercased()] = category.id
                position = max(position, category.position)
            }
        }
        // Rows without a category go to Other, or to the first category by name when the group
        // has none called that (not whichever the dictionary gives first).
        byName[""] = byName["other"] ?? byName.min { $0.key < $1.key }?.value
        var created: [CategoryRecord] = []
        // Our own format lists the group's categories, used or not, with their looks and order.
        let defined = Dictionary(definitions.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for raw in definitions.sorted(by: { $0.position < $1.position }).map(\.name) + names {
            let key = raw.lowercased()
            guard byName[key] == nil else { continue }
            // A name we cannot keep as a category (too long, controls) goes to Other.
            guard created.count < 100, let name = AccountInput.normalizedName(raw, length: 1...50) else {
                byName[key] = byName[""]
                continue
            }
            position += 1
            let looks = defined[key].flatMap { ($0.icon, $0.color) }
            let category = CategoryRecord(
                id: UUID.random(), groupID: group.id, name: name, icon: looks?.0 ?? "🏷️", color: looks?.1 ?? "#6C757D",
                isDefault: false, position: position)
            created.append(category)
            byName[key] = category.id
        }
        return (byName, created)
    }

    // MARK: - Balances and the footer check

    /// Per file name and currency, what the imported expenses and transfers move.
    static func balances(
        names: [String], memberIDs: [UUID], expenses: [ExpenseRecord], settlements: [SettlementRecord]
    ) -> [ImportReport.Balance] {
        var nets: [String: [UUID: Int64]] = [:]
        for expense in expenses {
            for payer in expense.payers { nets[expense.currency, default: [:]][payer.memberID, default: 0] += payer.amount }
            for share in expense.shares { nets[expense.currency, default: [:]][share.memberID, default: 0] -= share.amount }
        }
        for settlement in settlements {
            nets[settlement.currency, default: [:]][settlement.fromMemberID, default: 0] += settlement.amount
            nets[settlement.currency, default: [:]][settlement.toMemberID, default: 0] -= settlement.amount
        }
        return nets.keys.sorted().flatMap { currency in
            zip(names, memberIDs).map { name, id in
                ImportReport.Balance(name: name, currency: currency, net: nets[currency]?[id] ?? 0)
            }
        }
    }

    /// " on 2026-12-06 at 08:41 UTC" (found by review: the raw timestamp was shown).
    static func when(_ milliseconds: Int64) -> String {
        guard let stamp = UTCTimestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000)), stamp.count >= 16
        else { return "" }
        return " on \(stamp.prefix(10)) at \(stamp.dropFirst(11).prefix(5)) UTC"
    }

    /// Every footer line against the imported balances; the whole file is refused on any
    /// difference, naming the currency, the member and both amounts.
    static func checkTotals(_ file: ImportedFile, balances: [ImportReport.Balance]) throws -> [String] {
        var checked: [String] = []
        var nets: [String: [String: Int64]] = [:]
        for balance in balances { nets[balance.currency, default: [:]][balance.name] = balance.net }
        for footer in file.totals {
            let code = footer.currency.code
            for (name, expected) in zip(file.names, footer.cells) {
                let imported = nets[code]?[name] ?? 0
                guard imported == expected else {
                    let money = { (minor: Int64) in Money(minorUnits: minor, currency: footer.currency).decimalString }
                    throw AppError.invalid(
                        field: "file",
                        message: ImportProblem(
                            line: footer.line, column: name,
                            message:
                                "the file's total balance for \(name) in \(code) is \(money(expected)), but its lines add up to \(money(imported)); nothing was imported"
                        ).description)
                }
            }
            if !checked.contains(code) { checked.append(code) }
        }
        return checked
    }
}
