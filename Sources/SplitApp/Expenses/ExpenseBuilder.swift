import Foundation
import SplitCore
import SplitStore

extension ExpenseUseCases {
    /// Checks an entered expense against the group (members, category, currency) and SplitCore,
    /// and makes the record to store: payers and owed shares in minor units (DESIGN §3).
    /// `previous` is the stored expense an edit changes: members removed from the group since
    /// keep their part of it (issue 15), while a new expense names active members only.
    func build(
        _ entered: EnteredExpense, id: UUID, group: GroupRecord, me: MemberRecord, createdBy: UUID, now: Int64,
        previous: ExpenseRecord? = nil
    ) async throws -> (ExpenseRecord, categoryNames: [UUID: String]) {
        let description = entered.description.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(description.unicodeScalars.count),
            !AccountInput.containsControlCharacters(description, allowingLineBreaks: false)
        else { throw AppError.invalid(field: "description", message: "A description has 1 to 200 characters.") }
        let currency = try MoneyInput.currency(entered.currency, field: "currency")
        let total = try MoneyInput.amount(entered.amount, currency, field: "amount")
        let date = try MoneyInput.date(entered.expenseDate, field: "expenseDate")
        let (category, categoryNames) = try await resolveCategory(entered.category, groupID: group.id, now: now)
        let members = try await groups.members(groupID: group.id)
        let active = Set(members.filter(\.isActive).map { MemberID($0.id) })

        var reader = EnteredSplitReader(currency: currency)
        var noted: [(MemberID, String)] = []
        let payers: [MemberAmount]
        if let paidBy = entered.paidBy {
            try ExpenseLimits.checkCount(paidBy.count, atMost: ExpenseLimits.membersPerSplit, field: "paidBy")
            payers = try paidBy.enumerated().map { index, entry in
                let id = try MoneyInput.member(entry.memberId, field: "paidBy[\(index)].memberId")
                noted.append((id, "paidBy[\(index)].memberId"))
                return MemberAmount(id, try MoneyInput.amount(entry.value, currency, field: "paidBy[\(index)].amount"))
            }
        } else {
            let payer =
                try entered.paidByMemberId.map { try MoneyInput.member($0, field: "paidByMemberId") } ?? MemberID(me.id)
            noted.append((payer, "paidByMemberId"))
            payers = [MemberAmount(payer, total)]
        }
        let rule: SplitRule
        if let split = entered.split {
            rule = try reader.rule(split, field: "split")
        } else if let splits = entered.splits {
            rule = try reader.rule(EnteredSplit(mode: .exact, amounts: splits), field: "splits")
        } else {
            // Nothing said: equally among everyone still in the group.
            rule = try reader.rule(
                EnteredSplit(mode: .equal, memberIds: active.sorted().map(\.description)), field: "split")
        }
        try ExpenseLimits.checkStoredSize(rule)
        let kept = Set((previous?.memberIDs ?? []).map(MemberID.init))
        for (member, field) in noted + reader.members where !active.contains(member) && !kept.contains(member) {
            guard let removed = members.first(where: { $0.id == member.uuid }) else {
                throw AppError.invalid(field: field, message: "There is no such member in this group.")
            }
            throw AppError.invalid(
                field: field,
                message: "\(removed.name) was removed from the group; an owner or admin can restore them first.")
        }
        let computed: ExpenseSplit
        do {
            computed = try ExpenseSplit.compute(
                total: Money(minorUnits: total, currency: currency), payers: payers, rule: rule,
                tieBreak: TieBreak(seed: id.text))
        } catch {
            throw AppError.invalid(field: error.field, message: error.description)
        }
        let home = try Currency(code: group.homeCurrency)
        let homeAmount = try entered.homeAmount.map { try MoneyInput.amount($0, home, field: "homeAmount") }
        if homeAmount == 0 {
            throw AppError.invalid(field: "homeAmount", message: "homeAmount must be more than zero.")
        }
        let record = ExpenseRecord(
            id: id, groupID: group.id, description: description, amount: total, currency: currency.code,
            categoryID: category, expenseDate: date, rule: rule,
            homeAmount: currency == home ? nil : homeAmount,
            homeCurrency: currency == home || homeAmount == nil ? nil : home.code,
            createdByUserID: createdBy, createdAt: now,
            updatedAt: now, payers: computed.paid.map { PayerRecord(memberID: $0.memberID.uuid, amount: $0.amount) },
            shares: computed.owed.map { ShareRecord(id: UUID(), memberID: $0.memberID.uuid, amount: $0.amount) })
        return (record, categoryNames)
    }

    /// A category by id or by name (any case); none means the default "Other". Also every
    /// category's name, from the same read.
    private func resolveCategory(
        _ text: String?, groupID: UUID, now: Int64
    ) async throws -> (UUID, names: [UUID: String]) {
        var all = try await categories.allCategories(groupID: groupID)
        if !all.contains(where: { !$0.isDeleted }) {
            _ = try await categories.categories(groupID: groupID, now: now)  // makes the defaults
            all = try await categories.allCategories(groupID: groupID)
        }
        let names = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.name) })
        let live = all.filter { !$0.isDeleted }
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            let other = live.first { $0.isDefault && $0.name == "Other" } ?? live[live.count - 1]
            return (other.id, names)
        }
        if let id = UUID(uuidString: text), let match = live.first(where: { $0.id == id }) { return (match.id, names) }
        if let match = live.first(where: { $0.name.lowercased() == text.lowercased() }) { return (match.id, names) }
        throw AppError.invalid(field: "category", message: "There is no category \"\(text.prefix(50))\" in this group.")
    }
}
