import Crypto
import Foundation
import SplitCore
import SplitStore

/// An expense with what it takes to show it: its group's category names (deleted ones too:
/// expenses keep their names) and home currency.
public struct ExpenseView: Sendable, Equatable {
    public let expense: ExpenseRecord
    public let categoryNames: [UUID: String]
    public let homeCurrency: String

    public init(expense: ExpenseRecord, categoryNames: [UUID: String], homeCurrency: String) {
        self.expense = expense
        self.categoryNames = categoryNames
        self.homeCurrency = homeCurrency
    }

    /// The name of the expense's category; "Other" when the group has no such category.
    public var categoryName: String { categoryNames[expense.categoryID] ?? "Other" }

    /// The currency of the expense's home amount: the one it was given in, or the group's.
    public var homeAmountCurrency: String { expense.homeCurrency ?? homeCurrency }

    /// What it was charged in the group's home currency, as the API shows it: nil when it was
    /// charged in a former home currency (found by a new user: after the home currency went from
    /// EUR to GBP, "charged 92.00 EUR" read "92.00 GBP", and saving the form stored it so). Such a
    /// charge is kept, not counted, and shown again if the home currency goes back.
    public var shownHomeAmount: Int64? { homeAmountCurrency == homeCurrency ? expense.homeAmount : nil }
}

/// A create's `Idempotency-Key` and a hash of the request it came with (DESIGN §5).
public struct IdempotencyRequest: Sendable {
    public var key: String
    public var requestHash: String

    public init(key: String, requestHash: String) {
        self.key = key
        self.requestHash = requestHash
    }

    /// The hex SHA-256 of a request's identifying bytes (route and body).
    public static func hash(_ bytes: Data) -> String {
        Hex.string(SHA256.hash(data: bytes))
    }

    /// The key checked (1 to 200 characters, no control characters) and bound to the caller.
    func claim(for caller: Caller) throws -> IdempotencyClaim {
        guard (1...200).contains(key.utf8.count),
            !AccountInput.containsControlCharacters(key, allowingLineBreaks: false)
        else { throw AppError.badRequest("Idempotency-Key must be 1 to 200 characters.") }
        return IdempotencyClaim(userID: caller.user.id, key: key, requestHash: requestHash)
    }
}

/// What a create did: stored a new expense, or answered a retry with its first response.
public enum ExpenseCreation: Sendable {
    case created(ExpenseView)
    case replayed(StoredResponse)
}

/// The expense use cases (DESIGN §2): each checks the caller's right, checks the entered values
/// against the group and SplitCore, and runs one store transaction, which decides the right
/// again under the group's lock.
public struct ExpenseUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    // MARK: Create

    /// Stores a new expense with the client's `id`. With an idempotency key, a retry gets the
    /// first response (`render` makes it, in the caller's wire format) even if the request would
    /// no longer pass the checks.
    ///
    /// - Parameter idText: the client's id for it (a new one when nil), read after the caller's
    ///   right and a replay, as every other field.
    public func create(
        _ entered: EnteredExpense, id idText: String?, groupID: UUID, caller: Caller, origin: RequestOrigin,
        idempotency request: IdempotencyRequest?, render: @escaping @Sendable (ExpenseView) throws -> StoredResponse
    ) async throws -> ExpenseCreation {
        switch try await prepare(
            entered, id: idText, groupID: groupID, caller: caller, origin: origin, idempotency: request,
            render: render)
        {
        case .answered(let creation): return creation
        case .write(let prepared): return try await write(prepared)
        }
    }

    /// A create checked and built, ready for its transaction, with what its answer needs.
    struct PreparedCreate: Sendable {
        let new: ExpenseStore.NewExpense
        let categoryNames: [UUID: String]
        let homeCurrency: String
    }

    enum Preparation: Sendable {
        /// A retry of an earlier create, answered without writing.
        case answered(ExpenseCreation)
        case write(PreparedCreate)
    }

    /// Everything of a create before its transaction: the caller's right, a replay, the id and
    /// the entered values.
    /// `reads`: what earlier items of the same batch read of the group, read again only when
    /// missing (the transaction checks the grant and the members again under the group's lock).
    func prepare(
        _ entered: EnteredExpense, id idText: String?, groupID: UUID, caller: Caller, origin: RequestOrigin,
        idempotency request: IdempotencyRequest?, reads: BatchReads? = nil,
        render: @escaping @Sendable (ExpenseView) throws -> StoredResponse
    ) async throws -> Preparation {
        // A create alone is a batch of one: the group, its members and its categories in one read.
        let reads = reads ?? BatchReads()
        let read: (group: GroupRecord, me: MemberRecord, members: [MemberRecord])
        if let known = reads.access[groupID] {
            read = known
        } else {
            let checked = try await access.checkWithMembersAndCategories(groupID, caller, for: .addExpense)
            read = (checked.group, checked.me, checked.members)
            reads.access[groupID] = read
            if reads.categories[groupID] == nil { reads.categories[groupID] = checked.categories }
        }
        let (group, me, members) = read
        let claim = try request.map { try $0.claim(for: caller) }
        if let claim {
            let earlier: IdempotencyOutcome<StoredResponse>?
            switch reads.earlier(claim) {
            case .known(let outcome): earlier = outcome
            case .unknown: earlier = try await idempotency.lookup(claim)
            }
            if let earlier { return .answered(try Self.replay(earlier)) }
        }
        let id = try MoneyInput.clientID(idText)
        let (expense, names) = try await build(
            entered, id: id, group: group, me: me, members: members, createdBy: caller.user.id, now: now(),
            reads: reads)
        let home = group.homeCurrency
        let new = ExpenseStore.NewExpense(
            expense, actor: GroupAccess.actor(caller, me, origin: origin, for: [.addExpense]), idempotency: claim
        ) { stored in
            try render(ExpenseView(expense: stored, categoryNames: names, homeCurrency: home))
        }
        return .write(PreparedCreate(new: new, categoryNames: names, homeCurrency: home))
    }

    /// A prepared create in a transaction of its own.
    func write(_ prepared: PreparedCreate) async throws -> ExpenseCreation {
        try Self.finish(prepared, try await Self.clientIDClash { try await expenses.create(prepared.new) })
    }

    /// What the store answered, as the use case's answer.
    static func finish(_ prepared: PreparedCreate, _ outcome: IdempotencyOutcome<ExpenseRecord>) throws
        -> ExpenseCreation
    {
        if case .created(let stored, _) = outcome {
            return .created(
                ExpenseView(
                    expense: stored, categoryNames: prepared.categoryNames, homeCurrency: prepared.homeCurrency))
        }
        return try Self.replay(outcome)
    }

    /// A client id that another expense has already, as the conflict the API answers.
    static func clientIDClash<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch ExpenseStoreError.idTaken {
            throw AppError.conflict(code: "conflict", field: "id", message: "An expense with that id exists already.")
        } catch where Database.isUniqueViolation(error) {
            // The same client id created at this moment in another group.
            throw AppError.conflict(code: "conflict", field: "id", message: "An expense with that id exists already.")
        }
    }

    static func replay(_ outcome: IdempotencyOutcome<some Sendable>) throws -> ExpenseCreation {
        switch outcome {
        case .created(_, let response), .replayed(let response): return .replayed(response)
        case .keyReused: throw AppError.idempotencyKeyReused
        }
    }

    /// The payers and shares an expense would have, computed exactly as saving it would (the same
    /// checks, the same tie-break from its id), without saving: the web form's preview.
    public func preview(_ entered: EnteredExpense, id: UUID, groupID: UUID, caller: Caller) async throws
        -> ExpenseRecord
    {
        let (group, me, members) = try await access.checkWithMembers(groupID, caller, for: .read)
        // The preview of an edit keeps the members the stored expense has, as saving would.
        let stored = try await expenses.expense(id: id).flatMap { $0.groupID == group.id ? $0 : nil }
        return try await build(
            entered, id: id, group: group, me: me, members: members, createdBy: caller.user.id, now: now(),
            previous: stored
        ).0
    }

    // MARK: Read

    public func expense(_ id: UUID, caller: Caller) async throws -> ExpenseView {
        let found = try await expenseAccess(id, caller) { _ in .read }
        return found.view(found.expense)
    }

    /// One page of the group's expenses (newest first) with their category names, and whether
    /// more follow. The filter is read once the caller may see the group, so a stranger's bad
    /// filter is the same 404 as any.
    public func list(groupID: UUID, filter readFilter: () throws -> ExpenseFilter, caller: Caller) async throws -> (
        expenses: [ExpenseView], hasMore: Bool
    ) {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let (page, hasMore) = try await expenses.expenses(groupID: group.id, filter: try readFilter())
        let names = try await categoryNames(group.id)
        return (
            page.map { ExpenseView(expense: $0, categoryNames: names, homeCurrency: group.homeCurrency) }, hasMore
        )
    }

    /// Every live expense of the group, the category names and the group's exchange rates, in
    /// four queries whatever their number.
    public func liveExpenses(groupID: UUID, caller: Caller) async throws -> (
        expenses: [ExpenseRecord], categoryNames: [UUID: String], rates: [DatedRate]
    ) {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return (
            try await expenses.liveExpenses(groupID: group.id), try await categoryNames(group.id),
            try await balances.rates(groupID: group.id).compactMap(\.datedRate)
        )
    }

    // MARK: Edit, delete, restore

    /// Lays `patch` over the stored expense and saves it if it is still at the version it was
    /// based on. `basedOn` is read once the caller is known to may edit it, so a stranger learns
    /// nothing from how a malformed version is answered.
    public func edit(
        _ id: UUID, _ patch: ExpensePatch, basedOn readVersion: () throws -> Int64?, caller: Caller,
        origin: RequestOrigin
    ) async throws -> ExpenseView {
        try await Self.askingAgainIfRemoved { again in
            try await edit(id, patch, basedOn: readVersion, caller: caller, origin: origin, again: again)
        }
    }

    private func edit(
        _ id: UUID, _ patch: ExpensePatch, basedOn readVersion: () throws -> Int64?, caller: Caller,
        origin: RequestOrigin, again: Bool
    ) async throws -> ExpenseView {
        let found = try await expenseAccess(id, caller) { expense in
            .editExpense(isOwn: expense.createdByUserID == caller.user.id)
        }
        let (current, group, me, view) = (found.expense, found.group, found.me, found.view)
        guard let basedOn = try readVersion() else {
            throw AppError.versionRequired("Send the version this edit is based on, as \"version\" or If-Match.")
        }
        if basedOn != current.version { throw AppError.staleExpense(view(current)) }
        // A deleted expense counts for nothing, so an edit of it would change nothing anyone sees
        // (found by a new user: `splitter sync --force` of an edit said "Sent 1" to a deleted one).
        if current.isDeleted {
            throw AppError.conflict(
                code: "expense_deleted", field: nil, message: "The expense is deleted; restore it first, then edit it.")
        }
        let entered = try Self.entered(current, homeCurrency: group.homeCurrency).applying(
            patch, singlePayer: current.payers.count == 1 ? current.payers[0].memberID.text : nil)
        let reads = BatchReads()
        reads.categories[group.id] = found.categories
        var (updated, _) = try await build(
            entered, id: current.id, group: group, me: me, members: found.members,
            createdBy: current.createdByUserID, now: now(), previous: current, reads: reads)
        // A charged amount the edit does not give again: it stood for this amount in this
        // currency, so it goes with a new one (found by a new user: 50 GBP charged 58.37 EUR, made
        // 500 GBP, still counted as 58.37 EUR); else it stays as stored, in the currency it was
        // charged in (the base above read it in the home currency of today).
        if patch.homeAmount == nil, let charged = current.homeAmount {
            let same = updated.amount == current.amount && updated.currency == current.currency
            updated.homeAmount = same ? charged : nil
            updated.homeCurrency = same ? current.homeCurrency : nil
        }
        if !patch.confirmRemovedShares, let changed = Self.removedPartsChanged(current, updated, members: found.members) {
            throw Self.removedShareQuestion(changed, verb: "Change")
        }
        let action = GroupAction.editExpense(isOwn: current.createdByUserID == caller.user.id)
        let written = try await Self.removedPartsRefusal(again: again) {
            try await expenses.update(
                updated, expectedVersion: basedOn, removedPartsConfirmed: patch.confirmRemovedShares,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), now: now())
        }
        switch written {
        case .written(let stored): return view(stored)
        case .stale(let latest): throw AppError.staleExpense(view(latest))
        case nil: throw AppError.notFound("expense")
        }
    }

    /// Runs a write once more when the store found someone removed between the question about
    /// removed members' parts and the write (`removedPartMoves`): asked now, on the members as
    /// they are. `again` tells the write it is the second try.
    static func askingAgainIfRemoved<T>(_ write: (_ again: Bool) async throws -> T) async throws -> T {
        do {
            return try await write(false)
        } catch ExpenseStoreError.removedPartMoves {
            return try await write(true)
        }
    }

    /// The question an edit, delete or restore asks before it moves the part of someone no longer
    /// in the group (409 `removed_share_changed`): what it changes (`removedPartsChanged`), then
    /// "Change it anyway?" with the write's own verb.
    static func removedShareQuestion(_ changed: String, verb: String) -> AppError {
        AppError.conflict(
            code: "removed_share_changed", field: "confirmRemovedShares",
            message: changed + " \(verb) it anyway? Their balance moves by it, though they are no longer here to see it.")
    }

    /// The store's `removedPartMoves` on the second try (members removed twice in the moment
    /// between asking and writing) as a conflict to try again, not an error of the server.
    static func removedPartsRefusal<T>(again: Bool, _ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch ExpenseStoreError.removedPartMoves where again {
            throw AppError.conflict(
                code: "conflict", field: nil,
                message: "Someone in this expense was removed from the group just now; look at it again and retry.")
        }
    }

    /// What an edit changes of the part of members no longer in the group (their share, what
    /// they paid), said ("Carla (left) is no longer in the group; this changes their share from
    /// 11.25 EUR to 12.50 EUR."); nil when it changes nothing of theirs. Such a change reopens a
    /// settled balance of someone who may not even have an account any more (found by a new
    /// user: the form said their part was kept, and the new total changed it).
    static func removedPartsChanged(_ before: ExpenseRecord, _ after: ExpenseRecord, members: [MemberRecord]) -> String? {
        func text(_ amount: Int64, _ currency: String) -> String { "\(MoneyInput.text(amount, currency)) \(currency)" }
        var said: [String] = []
        let moving = before.membersWhosePartMoves(to: after)
        for member in members where !member.isActive && moving.contains(member.id) {
            let share = { (expense: ExpenseRecord) in expense.shares.filter { $0.memberID == member.id }.reduce(0) { $0 + $1.amount } }
            let paid = { (expense: ExpenseRecord) in expense.payers.filter { $0.memberID == member.id }.reduce(0) { $0 + $1.amount } }
            var changes: [String] = []
            for (what, amount) in [("their share", share), ("what they paid", paid)] {
                let (old, new) = (amount(before), amount(after))
                guard old != new || (before.currency != after.currency && old != 0) else { continue }
                changes.append("\(what) from \(text(old, before.currency)) to \(text(new, after.currency))")
            }
            // What it was charged in the home currency moves their home balance too (found by review).
            func charged(_ expense: ExpenseRecord) -> String {
                expense.homeAmount.map { "charged \(text($0, expense.homeCurrency ?? ""))" } ?? "at the group's rate"
            }
            if changes.isEmpty, share(before) != 0 || paid(before) != 0, charged(before) != charged(after) {
                changes.append("what their part counts in the home currency (\(charged(before)), now \(charged(after)))")
            }
            guard !changes.isEmpty else { continue }
            // What it does to their balance, said (found by a new user: "their share from 40.00 to
            // 0.00" did not say that Sven, settled, would then be owed 40.00).
            let moves = (paid(after) - share(after)) - (paid(before) - share(before))
            let balance =
                before.currency == after.currency && moves != 0
                ? ", so they would \(moves > 0 ? "be owed" : "owe") \(text(abs(moves), after.currency)) more" : ""
            let name = MemberLabel.name(member.name, active: false, left: member.hasLeft)
            said.append("\(name) is no longer in the group; this changes \(changes.joined(separator: " and "))\(balance).")
        }
        return said.isEmpty ? nil : said.joined(separator: " ")
    }

    /// Deletes or restores; with a version, only if the expense is still at it. An expense already
    /// as asked is answered as it is (a replay, or the same change by someone else). One that
    /// counts a part of someone no longer in the group is a 409 `removed_share_changed` saying
    /// what it moves, unless `confirmRemovedShares` (as an edit's).
    public func setDeleted(
        _ id: UUID, _ isDeleted: Bool, basedOn version: Int64?, confirmRemovedShares: Bool = false, caller: Caller,
        origin: RequestOrigin
    ) async throws -> ExpenseView {
        try await Self.askingAgainIfRemoved { again in
            try await setDeleted(
                id, isDeleted, basedOn: version, confirmRemovedShares: confirmRemovedShares, caller: caller,
                origin: origin, again: again)
        }
    }

    private func setDeleted(
        _ id: UUID, _ isDeleted: Bool, basedOn version: Int64?, confirmRemovedShares: Bool, caller: Caller,
        origin: RequestOrigin, again: Bool
    ) async throws -> ExpenseView {
        let found = try await expenseAccess(id, caller) { expense in
            .editExpense(isOwn: expense.createdByUserID == caller.user.id)
        }
        let (current, group, me, view) = (found.expense, found.group, found.me, found.view)
        // Deleting moves a settled balance of someone who left as much as a new total does (found
        // by a new user: the edit asked, the delete did not); restoring, back again. Asked only
        // of a change it would make, on the version it is based on.
        if !confirmRemovedShares, current.isDeleted != isDeleted, version.map({ $0 == current.version }) ?? true {
            var none = current
            none.payers = none.payers.map { PayerRecord(memberID: $0.memberID, amount: 0) }
            none.shares = none.shares.map { var share = $0; share.amount = 0; return share }
            none.homeAmount = nil
            if let changed = isDeleted
                ? Self.removedPartsChanged(current, none, members: found.members)
                : Self.removedPartsChanged(none, current, members: found.members)
            {
                throw Self.removedShareQuestion(changed, verb: isDeleted ? "Delete" : "Restore")
            }
        }
        let action = GroupAction.editExpense(isOwn: current.createdByUserID == caller.user.id)
        let written = try await Self.removedPartsRefusal(again: again) {
            try await expenses.setDeleted(
                id: current.id, groupID: group.id, isDeleted, expectedVersion: version,
                removedPartsConfirmed: confirmRemovedShares,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), now: now())
        }
        switch written {
        case .written(let stored): return view(stored)
        case .stale(let stored): throw AppError.staleExpense(view(stored))
        case nil: throw AppError.notFound("expense")
        }
    }

    // MARK: Shares

    /// Marks a share paid (recording the transfers that settle it) or unpaid (voiding them).
    /// With `version`, only while the expense is at it (else `staleExpense`, nothing recorded); a
    /// share already as asked is answered as it is, whatever the version.
    /// - Returns: the share afterwards and its expense's currency.
    public func setSharePaid(
        _ splitID: UUID, _ isPaid: Bool, reason: String?, basedOn version: Int64? = nil, caller: Caller,
        origin: RequestOrigin
    ) async throws -> (share: ShareRecord, currency: String, nothingToPay: Bool) {
        guard let found = try await expenses.share(id: splitID) else { throw AppError.notFound("share") }
        let (group, me) = try await access.check(found.expense.groupID, caller, for: .read, asUnknown: "share")
        let isDebtorOrPayer = found.share.memberID == me.id || found.expense.payers.contains { $0.memberID == me.id }
        let action = GroupAction.markSharePaid(isDebtorOrPayer: isDebtorOrPayer)
        // Decided on the membership just read (the store decides again under the group's lock).
        try GroupAccess.require([action], me, in: group)
        let reason =
            try reason.map { text in
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed.unicodeScalars.count <= 500,
                    !AccountInput.containsControlCharacters(trimmed, allowingLineBreaks: true)
                else { throw AppError.invalid(field: "reason", message: "A reason has at most 500 characters.") }
                return trimmed.isEmpty ? nil : trimmed
            } ?? nil
        let current = now()
        do {
            guard
                let (share, _, nothingToPay) = try await expenses.setPaid(
                    splitID: splitID, groupID: found.expense.groupID, isPaid, reason: reason, expectedVersion: version,
                    actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), now: current,
                    date: MoneyInput.today(current, in: group.timeZone))
            else { throw AppError.notFound("share") }
            return (share, found.expense.currency, nothingToPay)
        } catch ExpenseStoreError.expenseDeleted {
            throw AppError.conflict(
                code: "expense_deleted", field: nil, message: "The expense is deleted; restore it first.")
        } catch ExpenseStoreError.nothingToPay {
            // Found by a new user: `splitter pay` marked a payer's own share paid, recording no
            // transfer, and the share then read as paid money.
            let name =
                found.share.memberID == me.id
                ? nil : try await groups.groupWithMembers(groupID: group.id)?.1
                    .first { $0.id == found.share.memberID }?.name ?? "This member"
            throw AppError.conflict(
                code: "nothing_to_pay", field: nil,
                message: PaidShares.nothingToPaySentence(
                    member: name, isZero: found.share.amount == 0, isRefund: found.expense.amount < 0,
                    expense: found.expense.description))
        } catch let stale as StaleExpenseError {
            throw AppError.staleExpense(
                ExpenseView(
                    expense: stale.current, categoryNames: try await categoryNames(group.id),
                    homeCurrency: group.homeCurrency))
        }
    }

    /// A share's paid and unpaid marks, oldest first, and whether the caller may see where each
    /// came from (IP address and device: owners and admins, DESIGN §4).
    public func shareHistory(_ splitID: UUID, caller: Caller) async throws -> (
        history: [PaymentHistoryRecord], seesDetails: Bool
    ) {
        guard let found = try await expenses.share(id: splitID) else { throw AppError.notFound("share") }
        let (_, me) = try await access.check(found.expense.groupID, caller, for: .read, asUnknown: "share")
        let seesDetails = Permissions.decide(.seeAuditDetails, for: me.membership) == .allowed
        return (try await expenses.history(splitID: splitID), seesDetails)
    }

    // MARK: Shared steps

    /// An expense the caller may act on, and what answering about it needs.
    struct FoundExpense {
        let expense: ExpenseRecord
        let group: GroupRecord
        let me: MemberRecord
        /// Every member of the group, removed ones too.
        let members: [MemberRecord]
        /// Every category of the group, deleted ones too.
        let categories: [CategoryRecord]

        /// An expense of this group as answered, its category named.
        func view(_ expense: ExpenseRecord) -> ExpenseView {
            ExpenseView(
                expense: expense, categoryNames: Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0.name) }),
                homeCurrency: group.homeCurrency)
        }
    }

    /// The expense, when the caller may take `action` on it, then its group with the caller,
    /// every member and every category in one read (issue 16: an edit read the group, its
    /// members and its categories twice, five reads where there are two now). Another group's
    /// expense is "not found", exactly like an unknown id.
    func expenseAccess(
        _ id: UUID, _ caller: Caller, action: (ExpenseRecord) -> GroupAction
    ) async throws -> FoundExpense {
        guard let expense = try await expenses.expense(id: id) else { throw AppError.notFound("expense") }
        let (group, me, members, categories) = try await access.checkWithMembersAndCategories(
            expense.groupID, caller, for: .read, asUnknown: "expense")
        let needed = action(expense)
        do {
            if needed != .read { try GroupAccess.require([needed], me, in: group) }
        } catch AppError.forbidden where needed == .editExpense(isOwn: false) && me.role != .viewer {
            // Said who may (found by a new user: the payer's edit of an expense a friend typed in
            // was refused with "your role does not allow that").
            throw AppError.forbiddenBecause(
                GroupAction.onlyMakerMayChange(members.first { $0.userID == expense.createdByUserID }?.name))
        }
        return FoundExpense(expense: expense, group: group, me: me, members: members, categories: categories)
    }

    /// Every category name of the group by id, deleted ones too: expenses keep their names.
    public func categoryNames(_ groupID: UUID) async throws -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: try await categories.allCategories(groupID: groupID).map { ($0.id, $0.name) })
    }

    /// A stored expense as it would be entered again: the base an edit is laid over.
    static func entered(_ expense: ExpenseRecord, homeCurrency: String) throws -> EnteredExpense {
        let currency = try Currency(code: expense.currency)
        return EnteredExpense(
            description: expense.description, amount: MoneyInput.text(expense.amount, expense.currency),
            currency: expense.currency, category: expense.categoryID.text, expenseDate: expense.expenseDate,
            paidBy: expense.payers.map {
                EnteredAmount(memberId: $0.memberID.text, value: MoneyInput.text($0.amount, expense.currency))
            },
            // Shortest exact text ("10", not "10.00"), so a change of currency reads them anew.
            split: EnteredSplit(expense.rule, currency: currency, shortestAmounts: true),
            // A charge in a former home currency is not read as one in today's (`edit` keeps it).
            homeAmount: (expense.homeCurrency ?? homeCurrency) == homeCurrency
                ? expense.homeAmount.map { MoneyInput.text($0, homeCurrency) } : nil)
    }
}
