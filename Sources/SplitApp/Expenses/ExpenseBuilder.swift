import Foundation
import SplitCore
import SplitStore

extension ExpenseUseCases {
    /// Checks an entered expense against the group (members, category, currency) and SplitCore,
    /// and makes the record to store: payers and owed shares in minor units (DESIGN §3).
    /// `previous` is the stored expense an edit changes: members removed from the group since
    /// keep their part of it (issue 15), while a new expense names active members only.
    /// `members` is every member of the group, removed ones too.
    func build(
        _ entered: EnteredExpense, id: UUID, group: GroupRecord, me: MemberRecord, members: [MemberRecord],
        createdBy: UUID, now: Int64, previous: ExpenseRecord? = nil, reads: BatchReads? = nil
    ) async throws -> (ExpenseRecord, categoryNames: [UUID: String]) {
        // Every field that can be read on its own is read before any refusal is thrown, so one
        // answer names everything that is wrong (issue 15); what needs an earlier field (an
        // amount needs its currency) is read once that field was.
        var checks = FieldChecks()
        let description = try checks.run { try Self.description(entered.description) }
        let currency = try checks.run { try MoneyInput.currency(entered.currency, field: "currency") }
        let total = try currency.flatMap { currency in
            // Below zero is a refund (issue 18); SplitCore refuses zero and says why.
            try checks.run { try MoneyInput.amount(entered.amount, currency, field: "amount", allowNegative: true) }
        }
        // A date stored before dates kept to 1900-2199 stays editable as it is.
        let date = try checks.run {
            try MoneyInput.date(
                entered.expenseDate, field: "expenseDate",
                years: entered.expenseDate == previous?.expenseDate ? 1...9999 : MoneyInput.years)
        }
        let resolved = try await checks.run {
            try await resolveCategory(
                entered.category, groupID: group.id, now: now, reads: reads, keeping: previous?.categoryID)
        }
        let home = try Currency(code: group.homeCurrency)
        let homeAmount: Int64? = try entered.homeAmount.flatMap { text in
            try checks.run { try Self.homeAmount(text, home, refund: (total ?? 0) < 0) }
        }
        // An expense in the home currency charged another amount of it: said, not dropped unsaid
        // (found by a new user: 10 EUR "charged 11 EUR" was stored as 10 without a word).
        // On an edit, only when the expense was in the home currency already: then the charge
        // came with the edit (a stored one of another currency going home is dropped, as ever).
        if previous.map({ $0.currency == home.code }) ?? true, currency == home, let homeAmount, let total,
            homeAmount != total
        {
            _ = try checks.run { () throws -> Void in
                throw AppError.invalid(
                    field: "homeAmount",
                    message: "It is in \(home.code), the home currency: what it was charged is its amount. "
                        + "Leave this out, or give the amount the card took.")
            }
        }
        let active = Set(members.filter(\.isActive).map { MemberID($0.id) })

        var reader = EnteredSplitReader(currency: currency ?? home)
        var noted: [(MemberID, String)] = []
        var payers: [MemberAmount]?
        if let paidBy = entered.paidBy {
            // Judged in the expense's currency, so only once that is known.
            payers = try currency.flatMap { currency in try checks.run {
                try ExpenseLimits.checkCount(paidBy.count, atMost: ExpenseLimits.membersPerSplit, field: "paidBy")
                return try paidBy.enumerated().map { index, entry in
                    let id = try MoneyInput.member(entry.memberId, field: "paidBy[\(index)].memberId")
                    noted.append((id, "paidBy[\(index)].memberId"))
                    return MemberAmount(
                        id,
                        try MoneyInput.amount(
                            entry.value, currency, field: "paidBy[\(index)].amount", allowNegative: true))
                }
            } }
        } else if let payer = try checks.run({
            try entered.paidByMemberId.map { try MoneyInput.member($0, field: "paidByMemberId") } ?? MemberID(me.id)
        }) {
            noted.append((payer, "paidByMemberId"))
            payers = total.map { [MemberAmount(payer, $0)] }
        }
        // The split is read in the expense's currency; with no currency yet, its amounts would
        // be judged by the wrong one, so it waits for the next try.
        let rule: SplitRule? =
            currency == nil
            ? nil
            : try checks.run {
                if let split = entered.split { return try reader.rule(split, field: "split") }
                if let splits = entered.splits {
                    return try reader.rule(EnteredSplit(mode: .exact, amounts: splits), field: "splits")
                }
                // Nothing said: equally among everyone still in the group who shares costs (a
                // viewer watches; named in a split, they share it like anyone).
                let sharing = members.filter { $0.isActive && $0.role != .viewer }.map { MemberID($0.id) }
                return try reader.rule(
                    EnteredSplit(mode: .equal, memberIds: sharing.sorted().map(\.description)), field: "split")
            }
        try checks.finish()
        // Each of these is nil only when its refusal was thrown just above.
        guard let description, let currency, let total, let date, let resolved, let payers, let rule else {
            throw AppError.invalid(field: "amount", message: "The amount is needed.")
        }
        let (category, categoryNames) = resolved
        try ExpenseLimits.checkStoredSize(rule)
        let kept = Set((previous?.countedMemberIDs ?? []).map(MemberID.init))
        for (member, field) in noted + reader.members where !active.contains(member) && !kept.contains(member) {
            guard let removed = members.first(where: { $0.id == member.uuid }) else {
                throw AppError.invalid(field: field, message: "There is no such member in this group.")
            }
            throw AppError.invalid(
                field: field,
                message: "\(removed.name) is no longer in the group; leave them out, or an owner or admin can restore them first.")
        }
        let computed: ExpenseSplit
        do {
            computed = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: currency), payers: payers, rule: rule,
                tieBreak: TieBreak(seed: id.text))
        } catch {
            let names = Dictionary(members.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            var problems = [AppError.FieldProblem(field: error.field, message: error.description(naming: { names[$0.uuid] }))]
            // What the payers paid and how it is split are two things to mend: said together
            // (found by a new user: payers that did not sum were said, and percentages summing to
            // 90 only once they were mended). The split is checked on its own, as one payer's.
            if error.field == "paidBy", let first = payers.first,
                let split = Self.splitRefusal(
                    Money(minorUnits: total, currency: currency), paidBy: first.memberID, rule: rule, seed: id.text),
                split.field != "paidBy", split.field != "amount"
            {
                problems.append(AppError.FieldProblem(field: split.field, message: split.description(naming: { names[$0.uuid] })))
            }
            guard problems.count > 1 else { throw AppError.invalid(field: problems[0].field, message: problems[0].message) }
            throw AppError.invalidFields(problems)
        }
        let record = ExpenseRecord(
            id: id, groupID: group.id, description: description, amount: total, currency: currency.code,
            categoryID: category, expenseDate: date, rule: rule,
            homeAmount: currency == home ? nil : homeAmount,
            homeCurrency: currency == home || homeAmount == nil ? nil : home.code,
            createdByUserID: createdBy, createdAt: now,
            updatedAt: now, payers: computed.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
            shares: computed.owed.map { ShareRecord(id: UUID.timeOrdered(), memberID: $0.memberID.uuid, amount: $0.amount) })
        return (record, categoryNames)
    }

    /// Why the split alone is refused, with one payer of the whole: nil when it holds.
    static func splitRefusal(_ total: Money, paidBy payer: MemberID, rule: SplitRule, seed: String) -> SplitError? {
        do {
            _ = try ExpenseSplit.compute(total: total, payers: [MemberAmount(payer, total.minorUnits)], rule: rule, tieBreak: TieBreak(seed: seed))
            return nil
        } catch {
            return error
        }
    }

    static func description(_ text: String) throws -> String {
        let description = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !description.isEmpty else {
            throw AppError.invalid(field: "description", message: "Say what it was, e.g. “Ramen dinner”.")
        }
        guard description.unicodeScalars.count <= 200 else {
            throw AppError.invalid(field: "description", message: "A description has 1 to 200 characters.")
        }
        // Said as what it is (found by review: a line break was refused as a length).
        guard !AccountInput.containsControlCharacters(description, allowingLineBreaks: false) else {
            throw AppError.invalid(
                field: "description", message: "A description is one line, without line breaks or tabs.")
        }
        return description
    }

    /// What it cost in the home currency: more than zero, or below zero for a refund.
    static func homeAmount(_ text: String, _ home: Currency, refund: Bool) throws -> Int64 {
        let amount = try MoneyInput.amount(text, home, field: "homeAmount", allowNegative: true)
        if refund {
            guard amount < 0 else {
                throw AppError.invalid(
                    field: "homeAmount", message: "A refund is credited below zero, like its amount: write it like -12.50.")
            }
        } else {
            guard amount > 0 else {
                throw AppError.invalid(field: "homeAmount", message: "What you were charged must be more than zero.")
            }
        }
        return amount
    }

    /// A category by id or by name (any case); none means the default "Other". Also every
    /// category's name, from the same read. `keeping`: an edited expense's own category, which
    /// it keeps though the category was deleted since (found by a new user: every edit of such
    /// an expense was refused, "There is no category …").
    private func resolveCategory(
        _ text: String?, groupID: UUID, now: Int64, reads: BatchReads?, keeping: UUID? = nil
    ) async throws -> (UUID, names: [UUID: String]) {
        var all: [CategoryRecord]
        if let known = reads?.categories[groupID] {
            all = known
        } else {
            all = try await categories.allCategories(groupID: groupID)
        }
        if !all.contains(where: { !$0.isDeleted }) {
            _ = try await categories.categories(groupID: groupID, now: now)  // makes the defaults
            all = try await categories.allCategories(groupID: groupID)
        }
        reads?.categories[groupID] = all
        let names = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.name) })
        let live = all.filter { !$0.isDeleted }
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            let other = live.first { $0.isDefault && $0.name == "Other" } ?? live[live.count - 1]
            return (other.id, names)
        }
        if let id = UUID(uuidString: text), let match = live.first(where: { $0.id == id }) { return (match.id, names) }
        if let keeping, UUID(uuidString: text) == keeping { return (keeping, names) }
        if let match = live.first(where: { AccountInput.nameKey($0.name) == AccountInput.nameKey(text) }) {
            return (match.id, names)
        }
        // With the ones there are (found by a new user: the CLI had no way to list them).
        throw AppError.invalid(
            field: "category",
            message: "There is no category \"\(text.prefix(50))\" in this group; it has "
                + live.sorted { $0.position < $1.position }.map(\.name).joined(separator: ", ") + ".")
    }
}

/// What the items of one batch read of their groups, kept for the next items (issue 16: each
/// item read its group, its caller and the categories again, three round trips on PostgreSQL).
/// One batch's (a create alone is a batch of one), used by one task item after item, never shared.
final class BatchReads {
    var access: [UUID: (group: GroupRecord, me: MemberRecord, members: [MemberRecord])] = [:]
    var categories: [UUID: [CategoryRecord]] = [:]
    /// The batch's idempotency keys as stored before its first item, read in one go.
    var keys: [String: StoredKey]?
    private var usedKeys: Set<String> = []

    /// What was stored under `claim`'s key before the batch (nil: nothing, the key is new), or
    /// `.unknown` when it must be read now: an earlier item of the batch used the key, or there
    /// was no read in one go.
    func earlier(_ claim: IdempotencyClaim) -> KnownKey {
        defer { usedKeys.insert(claim.key) }
        guard let keys, !usedKeys.contains(claim.key) else { return .unknown }
        return .known(keys[claim.key]?.outcome(for: claim))
    }

    enum KnownKey {
        case known(IdempotencyOutcome<StoredResponse>?)
        case unknown
    }
}
