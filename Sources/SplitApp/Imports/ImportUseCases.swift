import Crypto
import Foundation
import SplitCore
import SplitStore

/// Where an import goes: a new group made from the file, or a group the caller manages.
public enum ImportTarget: Sendable {
    /// A new group of this name, owned by the caller; its time zone when the client knows it.
    case newGroup(name: String, timeZone: String?)
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
    public let skipped: [SplitwiseFile.Skipped]
}

/// Moving in from other apps (issue 18): a file becomes expenses and transfers in one
/// transaction, exact to the minor unit, or is refused whole naming the line at fault.
public struct ImportUseCases: Sendable {
    let access: GroupAccess
    let groups: GroupStore
    let categories: CategoryStore
    let imports: ImportStore
    let now: @Sendable () -> Int64
    let makeInviteCode: @Sendable () -> String

    /// The largest file taken (the HTTP layer refuses a larger body before it is read).
    public static let maximumBytes = 20 << 20

    public init(database: Database, now: @escaping @Sendable () -> Int64, makeInviteCode: @escaping @Sendable () -> String) {
        groups = GroupStore(database: database)
        access = GroupAccess(groups: groups)
        categories = CategoryStore(database: database)
        imports = ImportStore(database: database)
        self.now = now
        self.makeInviteCode = makeInviteCode
    }

    /// Imports a Splitwise export.
    ///
    /// - Parameters:
    ///   - mapping: file name → "me", "new", or a member of the group by id or name; a name not
    ///     mapped goes to the group's member of that name (any case) or becomes a new name-only
    ///     member with exactly that name.
    ///   - dryRun: check everything and say what would be written; write nothing.
    ///   - force: import a file this group has imported before.
    public func importSplitwise(
        _ data: Data, into target: ImportTarget, mapping: [String: String], dryRun: Bool, force: Bool,
        caller: Caller, origin: RequestOrigin
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
        switch target {
        case .newGroup(let name, let timeZone):
            group = GroupRecord(
                id: UUID(), name: try Names.name(name, field: "name"), homeCurrency: "USD",
                timeZone: try timeZone.map(MoneyInput.timeZone) ?? "UTC", ownerUserID: caller.user.id,
                inviteCode: makeInviteCode(), createdAt: current, updatedAt: current)
            me = GroupStore.owner(of: group, name: caller.user.displayName)
            existing = [me]
            newGroup = group
        case .group(let id):
            (group, me) = try await access.check(id, caller, for: .updateGroup)
            existing = try await groups.members(groupID: group.id)
        }
        let file: SplitwiseFile
        do {
            file = try SplitwiseFile.read(data)
        } catch {
            throw AppError.invalid(field: "file", message: error.description)
        }
        if newGroup != nil {
            // A new group's home currency is the one most of the file is in.
            var counts: [String: Int] = [:]
            for row in file.rows { counts[row.currency.code, default: 0] += 1 }
            group.homeCurrency =
                counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.first?.key
                ?? file.footers.first?.currency.code ?? "USD"
            newGroup = group
        }

        let (mappings, memberIDs, newMembers) = try Self.map(
            file.names, mapping: mapping, existing: existing, me: me, groupID: group.id, isNewGroup: newGroup != nil,
            now: current)
        // The group's bound, said before anything is written (a dry run says it too).
        let active = existing.filter(\.isActive).count
        guard active + newMembers.count <= GroupBounds.membersPerGroup else {
            throw AppError.invalid(
                field: "file",
                message: "The file adds \(newMembers.count) members to \(active); a group holds at most \(GroupBounds.membersPerGroup).")
        }
        let (categoryIDs, newCategories) = try await Self.categories(
            file.rows.filter { !$0.isPayment }.map(\.category), group: group, isNewGroup: newGroup != nil, store: categories, now: current)

        var expenses: [ExpenseRecord] = []
        var settlements: [SettlementRecord] = []
        for row in file.rows {
            let cells = zip(memberIDs, row.cells).map { MemberAmount(MemberID($0), $1) }
            do {
                if row.isPayment {
                    for transfer in try NetCells.transfers(amount: row.cost, cells: cells) {
                        settlements.append(
                            SettlementRecord(
                                id: UUID(), groupID: group.id, fromMemberID: transfer.from.uuid,
                                toMemberID: transfer.to.uuid, amount: transfer.amount, currency: row.currency.code,
                                date: row.date, note: row.description, createdByUserID: caller.user.id,
                                createdAt: current, updatedAt: current))
                    }
                } else {
                    let id = UUID()
                    let (payers, shares) = try NetCells.expense(
                        cost: row.cost, cells: cells, tieBreak: TieBreak(seed: id.text))
                    // The same checks as any expense: payers and shares add up to the cost.
                    let split = try ExpenseSplit.compute(
                        total: Money(minorUnits: row.cost, currency: row.currency), payers: payers,
                        rule: .exact(shares), tieBreak: TieBreak(seed: id.text))
                    expenses.append(
                        ExpenseRecord(
                            id: id, groupID: group.id, description: row.description, amount: row.cost,
                            currency: row.currency.code,
                            categoryID: categoryIDs[row.category.lowercased()] ?? categoryIDs[""]!,
                            expenseDate: row.date, rule: .exact(split.owed), createdByUserID: caller.user.id,
                            createdAt: current, updatedAt: current,
                            payers: split.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
                            shares: split.owed.map { ShareRecord(id: UUID(), memberID: $0.memberID.uuid, amount: $0.amount) }))
                }
            } catch let error as any Error & CustomStringConvertible where error is NetCellsError || error is SplitError {
                throw AppError.invalid(
                    field: "file", message: ImportProblem(line: row.line, column: nil, message: error.description).description)
            }
        }

        let balances = Self.balances(
            names: file.names, memberIDs: memberIDs, expenses: expenses, settlements: settlements)
        let checked = try Self.checkFooters(file, balances: balances)
        let report = ImportReport(
            group: group, me: me, dryRun: dryRun, expenses: expenses.count, settlements: settlements.count,
            members: mappings, newCategories: newCategories.map(\.name), balances: balances,
            footersChecked: checked, skipped: file.skipped)
        if dryRun { return report }

        let contentHash = Hex.string(SHA256.hash(data: data))
        do {
            try await imports.run(
                ImportBatch(
                    groupID: group.id, newGroup: newGroup, owner: newGroup == nil ? nil : me,
                    involving: newGroup == nil ? Set(memberIDs).subtracting(newMembers.map(\.id)).sorted { $0.text < $1.text } : [],
                    members: newMembers,
                    categories: newCategories, expenses: expenses, settlements: settlements, format: "splitwise",
                    contentHash: contentHash, forced: force),
                actor: GroupAccess.actor(caller, me, origin: origin, for: newGroup == nil ? [.updateGroup] : []),
                now: current)
        } catch ImportStoreError.alreadyImported(let at) {
            throw AppError.conflict(
                code: "already_imported", field: "file",
                message:
                    "This file was imported into this group before (\(UTCTimestamp.format(Date(timeIntervalSince1970: Double(at) / 1000)) ?? "earlier")); nothing was written. Import it again with force to add it twice.")
        } catch ImportStoreError.groupNotFound {
            throw AppError.notFound("group")
        }
        return report
    }

    // MARK: - Members

    /// Each file name's member: as mapped, else the group's member of that name, else a new one.
    static func map(
        _ names: [String], mapping: [String: String], existing: [MemberRecord], me: MemberRecord, groupID: UUID,
        isNewGroup: Bool, now: Int64
    ) throws -> (mappings: [ImportReport.Mapping], ids: [UUID], new: [MemberRecord]) {
        for key in mapping.keys where !names.contains(where: { $0.lowercased() == key.lowercased() }) {
            throw AppError.invalid(
                field: "map", message: "The file has no member \"\(key.prefix(100))\"; its names are \(names.joined(separator: ", ")).")
        }
        var mappings: [ImportReport.Mapping] = []
        var ids: [UUID] = []
        var new: [MemberRecord] = []
        var taken: [UUID: String] = [:]
        for name in names {
            let choice = mapping.first { $0.key.lowercased() == name.lowercased() }?.value
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
                        $0.isActive && ($0.id.text == text || $0.name.lowercased() == text)
                    })
                else {
                    if let removed = existing.first(where: { $0.id.text == text || $0.name.lowercased() == text }) {
                        throw AppError.invalid(
                            field: "map",
                            message: "\(removed.name) was removed from the group; an owner or admin can restore them first.")
                    }
                    throw AppError.invalid(
                        field: "map",
                        message: "\"\(name)\" is mapped to \"\(choice!.prefix(100))\", which is no member of this group (give a member's name or id, me, or new).")
                }
                member = found
                kind = found.id == me.id ? .me : .existing
            case nil:
                // A new group has only its owner: every name becomes its own member there.
                member = isNewGroup ? nil : existing.first { $0.isActive && $0.name.lowercased() == name.lowercased() }
                kind = member == nil ? .new : (member?.id == me.id ? .me : .existing)
            }
            let resolved: MemberRecord
            if let member {
                resolved = member
            } else {
                resolved = MemberRecord(
                    id: UUID(), groupID: groupID, userID: nil, name: try Self.memberName(name), role: .member,
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
        _ names: [String], group: GroupRecord, isNewGroup: Bool, store: CategoryStore, now: Int64
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
        byName[""] = byName["other"] ?? byName.values.first
        var created: [CategoryRecord] = []
        for raw in names {
            let key = raw.lowercased()
            guard byName[key] == nil else { continue }
            // A name we cannot keep as a category (too long, controls) goes to Other.
            guard created.count < 100, let name = AccountInput.normalizedName(raw, length: 1...50) else {
                byName[key] = byName[""]
                continue
            }
            position += 1
            let category = CategoryRecord(
                id: UUID(), groupID: group.id, name: name, icon: "🏷️", color: "#6C757D", isDefault: false,
                position: position)
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

    /// Every footer line against the imported balances; the whole file is refused on any
    /// difference, naming the currency, the member and both amounts.
    static func checkFooters(_ file: SplitwiseFile, balances: [ImportReport.Balance]) throws -> [String] {
        var checked: [String] = []
        var nets: [String: [String: Int64]] = [:]
        for balance in balances { nets[balance.currency, default: [:]][balance.name] = balance.net }
        for footer in file.footers {
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
