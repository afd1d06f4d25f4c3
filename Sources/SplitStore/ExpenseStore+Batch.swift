import Foundation
import SQLKit
import SplitCore

/// Several creates in one transaction: what `POST /api/expenses/batch` writes, a phone's queue
/// of expenses made offline.
extension ExpenseStore {
    /// Several creates of one group by one caller, each exactly as `create` would make it, in
    /// one transaction: one commit for all (issue 16: a phone sending its queue of 1,000 expenses
    /// made 1,000 commits). The group's lock is taken, and the caller's grant and every member
    /// the expenses involve checked under it, once for all, so they share one change number:
    /// they are written together. When any of them throws, nothing of any is written and the
    /// error is thrown: the caller then makes each alone to learn which one failed and why.
    public func createEach(_ items: [NewExpense]) async throws -> [IdempotencyOutcome<ExpenseRecord>] {
        guard let first = items.first else { return [] }
        precondition(
            items.allSatisfy { $0.expense.groupID == first.expense.groupID && $0.actor.userID == first.actor.userID },
            "one transaction writes one group's expenses by one caller")
        return try await database.transaction { sql in
            guard
                let log = try await GroupLog.begin(
                    sql, groupID: first.expense.groupID, now: first.expense.createdAt, actor: first.actor,
                    involving: Array(Set(items.flatMap(\.expense.memberIDs))))
            else {
                throw ExpenseStoreError.notFound
            }
            let keys = items.compactMap(\.idempotency?.key)
            // A budget's alerts are decided expense by expense, and an id or key twice would
            // have the second see the first half written: those go one after another.
            guard !log.hasBudget, Set(items.map(\.expense.id)).count == items.count, Set(keys).count == keys.count
            else {
                var outcomes: [IdempotencyOutcome<ExpenseRecord>] = []
                for (index, item) in items.enumerated() {
                    outcomes.append(
                        try await Self.create(item, log: log.at(item.expense.createdAt), sweepingKeys: index == 0, sql))
                }
                return outcomes
            }
            return try await Self.createTogether(items, log: log, sql)
        }
    }

    /// The creates written together, each answered as `create` answers it: their keys claimed
    /// in one statement, their expense rows written in one, and what moves with them in one
    /// `WriteBatch` (`writeMovements`; issue 16: on PostgreSQL a phone's 50 creates were 150
    /// round trips, now about ten).
    private static func createTogether(_ items: [NewExpense], log: GroupLog, _ sql: any SQLDatabase) async throws
        -> [IdempotencyOutcome<ExpenseRecord>]
    {
        // What each key will store unless the id turns out to be taken, as `create` does.
        let planned = try items.map { try $0.stored($0.expense) }
        let claimed = try await Idempotency.claim(
            items.indices.compactMap { index in items[index].idempotency.map { ($0, planned[index]) } },
            now: log.now, sweeping: true, sql)
        var outcomes = [IdempotencyOutcome<ExpenseRecord>?](repeating: nil, count: items.count)
        for (index, item) in items.enumerated() {
            if let claim = item.idempotency, !claimed.contains(claim.key) {
                outcomes[index] = try await Idempotency.stored(claim, sql)
            }
        }
        let writing = items.indices.filter { outcomes[$0] == nil }
        let inserted = try await insertRows(writing.map { items[$0].expense }, sql)
        var written: [Int] = []
        for index in writing {
            let item = items[index]
            if inserted.contains(item.expense.id) {
                outcomes[index] = .created(item.expense, planned[index])
                written.append(index)
                continue
            }
            // A client id used again: the same expense again is a retry; anything else is a clash.
            let existing = try await retried(item.expense, sql)
            let response = try item.stored(existing)
            if let claim = item.idempotency, response != planned[index] {
                try await Idempotency.store(response, for: claim, sql)
            }
            outcomes[index] = .created(existing, response)
        }

        try await writeMovements(
            of: written.map { (items[$0].expense, items[$0].actor, log.at(items[$0].expense.createdAt)) }, sql)
        return outcomes.map { outcome in
            guard let outcome else { preconditionFailure("each item is answered by its key or its write") }
            return outcome
        }
    }
}
