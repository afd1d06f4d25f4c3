import Foundation
import SplitCore

/// Sends the queue in order (DESIGN §8): safe to repeat; a refused operation is parked with its
/// error and the rest go on; a change someone else overtook is kept as a conflict with both
/// versions; an unreachable server or a dead session stops the run with the queue kept.
public struct SyncEngine: Sendable {
    public struct Report: Sendable, Equatable {
        public var sent = 0
        public var parked = 0
        public var conflicts = 0
        /// Operations left waiting because an earlier one on the same expense is refused or in
        /// conflict: they were made on top of it.
        public var held = 0
        public var remaining = 0
        /// Why the run stopped early (offline, logged out), if it did.
        public var stoppedBecause: SplitterError?
    }

    let client: SplitterClient
    let store: OfflineStore
    /// How many queued new expenses go in one request.
    let batchSize: Int
    /// How many changes a page of the feed asks for; nil for the server's most (1,000).
    var pageLimit: Int?
    /// Whether this engine has checked whose session it uses (`adoptAccount`).
    private let checked = Checked()

    /// Set once; an NSLock keeps it usable on every platform the SDK builds for.
    private final class Checked: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        var value: Bool {
            get { lock.withLock { done } }
            set { lock.withLock { done = newValue } }
        }
    }

    public init(client: SplitterClient, store: OfflineStore, batchSize: Int = SplitterClient.batchLimit) {
        self.client = client
        self.store = store
        self.batchSize = min(max(1, batchSize), SplitterClient.batchLimit)
    }

    /// Makes the store the copy of the account the client is logged in as (`OfflineStore.adopt`):
    /// another account's queue is never sent as this one's, nor its copy mixed with this one's.
    /// One request, once per engine; `push`, `pull` and `syncLive` begin with it, and throw
    /// `OfflineStoreError.otherAccountsQueue` (recorded as the last sync error) when the store
    /// holds another account's unsent changes.
    public func adoptAccount() async throws {
        guard !checked.value else { return }
        do {
            try store.adopt(try await client.me())
        } catch let error as OfflineStoreError {
            try? store.recordSyncError(error)
            throw error
        }
        checked.value = true
    }

    /// Sends the queue. Stops early, with the rest kept, when the server cannot be reached or
    /// the session ended (`Report.stoppedBecause`); throws when the store is another account's
    /// (see `adoptAccount`).
    public func push() async throws -> Report {
        var report = Report()
        do {
            try await adoptAccount()
        } catch let error as SplitterError {
            report.remaining = try store.pending().count
            report.stoppedBecause = error
            try store.recordSyncError(error)
            return report
        }
        // Expenses with an operation that did not go through: later ones on them wait.
        var blocked = Set((try store.parked() + store.conflicts()).compactMap(\.targetID))
        var queue = try store.pending()[...]
        while let queued = queue.first {
            if let target = queued.targetID, blocked.contains(target) {
                report.held += 1
                queue.removeFirst()
                continue
            }
            // New expenses in a row go in one request; each still gets its own answer, in order.
            if queued.kind == .createExpense {
                let run = queue.prefix { $0.kind == .createExpense && !blocked.contains($0.targetID ?? "") }
                    .prefix(batchSize)
                queue.removeFirst(run.count)
                if try await pushCreates(Array(run), &report, &blocked) { return report }
                continue
            }
            queue.removeFirst()
            // Re-read: an earlier operation on the same expense may have moved its base version.
            guard let operation = try store.operation(id: queued.id) else { continue }
            do {
                let version = try await send(operation)
                try store.complete(operation, resultingVersion: version)
                report.sent += 1
            } catch let error as SplitterError {
                if try await settle(operation, failedWith: error, &report, &blocked) { return report }
            }
        }
        report.remaining = try store.pending().count
        try store.recordSync(Date())
        return report
    }

    /// Sends new expenses as one batch and settles each answer as if it had been sent alone.
    /// - Returns: true when the run must stop (offline, logged out), with the queue kept.
    private func pushCreates(
        _ operations: [PendingOperation], _ report: inout Report, _ blocked: inout Set<String>
    ) async throws -> Bool {
        let decoder = JSONDecoder()
        let requests = try operations.map { operation in
            (
                request: try decoder.decode(NewExpense.self, from: operation.body),
                idempotencyKey: operation.idempotencyKey as String?
            )
        }
        let results: [Result<Expense, SplitterError>]
        do {
            results = try await client.addExpenses(requests)
        } catch let error as SplitterError {
            switch error {
            case .offline, .unauthorized, .wrongCredentials, .rateLimited, .server:
                return try await settle(operations[0], failedWith: error, &report, &blocked)
            case .validation, .forbidden, .notFound, .conflict:
                // The batch as a whole was refused (too large a body, or a server without the
                // route): one at a time, so no item is parked for another's fault.
                for operation in operations {
                    do {
                        try store.complete(operation, resultingVersion: try await send(operation))
                        report.sent += 1
                    } catch let error as SplitterError {
                        if try await settle(operation, failedWith: error, &report, &blocked) { return true }
                    }
                }
                return false
            }
        }
        // The items written, completed together up to each refusal (one write to the store).
        var sent: [(operation: PendingOperation, resultingVersion: Int64?)] = []
        for (operation, result) in zip(operations, results) {
            switch result {
            case .success(let expense):
                sent.append((operation, expense.version))
            case .failure(let error):
                try store.complete(sent)
                report.sent += sent.count
                sent = []
                // A server failure on one item stops the run there: that item and the ones after
                // it stay queued, and sending them again is safe (each has its key).
                if try await settle(operation, failedWith: error, &report, &blocked) { return true }
            }
        }
        try store.complete(sent)
        report.sent += sent.count
        return false
    }

    /// What an operation's failure does to the queue: stop the run (returns true), keep a
    /// conflict with both versions, or park the operation with its error.
    private func settle(
        _ operation: PendingOperation, failedWith error: SplitterError, _ report: inout Report,
        _ blocked: inout Set<String>
    ) async throws -> Bool {
        switch error {
        case .offline, .unauthorized, .wrongCredentials, .rateLimited, .server:
            report.stoppedBecause = error
            report.remaining = try store.pending().count
            try store.recordSyncError(error)
            return true
        case .conflict(_, "confirmRemovedShares", _):
            // A question the edit must answer (it moves the part of someone no longer in the
            // group), not a version conflict: parked with it, as a refusal is (found by review:
            // kept as a conflict, "sync --force" sent the same edit and met the same question).
            try store.park(id: operation.id, error: error.description)
            report.parked += 1
            if let target = operation.targetID { blocked.insert(target) }
        case .conflict(let message, _, let current) where operation.isChange:
            var serverSide = current
            if serverSide == nil { serverSide = try await currentExpense(operation) }
            // A replay of an edit that already went through (its answer was lost, or the
            // queue was sent twice) finds the server as it wanted it: done, not a conflict.
            if operation.kind == .updateExpense, let base = operation.baseVersion,
                let changes = operation.intendedChanges,
                let server = serverSide.flatMap({ try? Expense.decodeFromServer($0) }),
                Self.isSatisfied(changes, by: server)
            {
                // Later edits stand on it only if nobody else changed the expense since.
                // Not marked seen: the version that matches may be someone else's (found by review).
                try store.complete(
                    operation, resultingVersion: server.version == base + 1 ? server.version : nil, seen: false)
                report.sent += 1
                return false
            }
            try store.markConflict(id: operation.id, error: message, current: serverSide)
            report.conflicts += 1
            if let target = operation.targetID { blocked.insert(target) }
        case .validation, .forbidden, .notFound, .conflict:
            try store.park(id: operation.id, error: error.description)
            report.parked += 1
            if let target = operation.targetID { blocked.insert(target) }
        }
        return false
    }

    /// Sends one operation; returns the expense version it produced, when it touched one.
    private func send(_ operation: PendingOperation) async throws -> Int64? {
        let decoder = JSONDecoder()
        switch operation.kind {
        case .createExpense:
            let request = try decoder.decode(NewExpense.self, from: operation.body)
            return try await client.addExpense(request, idempotencyKey: operation.idempotencyKey).version
        case .createSettlement:
            let request = try decoder.decode(NewSettlement.self, from: operation.body)
            _ = try await client.settle(request, groupID: operation.groupID, idempotencyKey: operation.idempotencyKey)
            return nil
        case .updateExpense:
            let changes = try decoder.decode(ExpenseChanges.self, from: operation.body)
            let updated = try await client.updateExpense(
                id: try target(operation), changes, basedOn: try base(operation))
            try? store.cache(expenses: [updated])
            return updated.version
        case .deleteExpense, .restoreExpense:
            // Sent with the version it was based on: if someone changed the expense since, the
            // server refuses (a conflict with both versions), so nobody's edit is deleted unseen.
            // One already as asked comes back as it is, and is not a change of ours.
            let isDeleted = operation.kind == .deleteExpense
            let id = try target(operation)
            let version = try base(operation)
            let confirm = operation.confirmsRemovedShares
            let changed =
                isDeleted
                ? try await client.deleteExpense(id: id, basedOn: version, confirmRemovedShares: confirm)
                : try await client.restoreExpense(id: id, basedOn: version, confirmRemovedShares: confirm)
            try? store.cache(expenses: [changed])
            return changed.version == version + 1 ? changed.version : nil
        case .setSharePayment:
            let payment = try decoder.decode(SharePayment.self, from: operation.body)
            // Sent with the version it was marked on: an expense changed since (its share now
            // another amount) is a conflict, never a payment of an amount nobody saw.
            _ = try await client.setPaid(
                shareID: payment.shareID, payment.isPaid, reason: payment.reason, basedOn: operation.baseVersion)
            // Marking a share changes its expense's version by one: later queued edits made on
            // top of this payment stand on that version (if the server counted otherwise, the
            // edit is a conflict, never an overwrite).
            return operation.baseVersion.map { $0 + 1 }
        }
    }

    /// Whether every field the edit sets already has that value on the server. Anything that
    /// cannot be compared exactly counts as different: the answer is then a conflict, never a
    /// silent overwrite.
    static func isSatisfied(_ changes: ExpenseChanges, by expense: Expense) -> Bool {
        // Decimal strings compared by value ("12.5" is "12.50"); exact for money's sizes.
        func sameAmount(_ text: String?, _ other: String?) -> Bool {
            guard let text else { return true }
            let posix = Locale(identifier: "en_US_POSIX")
            let pattern = "^-?[0-9]+(\\.[0-9]+)?$"
            guard let other, text.range(of: pattern, options: .regularExpression) != nil,
                other.range(of: pattern, options: .regularExpression) != nil,
                let left = Decimal(string: text, locale: posix),
                let right = Decimal(string: other, locale: posix)
            else { return false }
            return left == right
        }
        func samePeople(_ wanted: [MemberAmount], _ actual: [MemberAmount]) -> Bool {
            let actualByMember = Dictionary(actual.map { ($0.memberId, $0.amount) }) { first, _ in first }
            return wanted.count == actual.count
                && wanted.allSatisfy { sameAmount($0.amount, actualByMember[$0.memberId]) }
        }
        if let description = changes.description,
            description.trimmingCharacters(in: .whitespacesAndNewlines) != expense.description
        {
            return false
        }
        if let currency = changes.currency, currency.uppercased() != expense.currency { return false }
        if let date = changes.expenseDate, date != expense.expenseDate { return false }
        if let category = changes.category,
            category.lowercased() != expense.category, category.lowercased() != expense.categoryName.lowercased()
        {
            return false
        }
        if let payer = changes.paidByMemberId, expense.payers.map(\.memberId) != [payer] { return false }
        if let paidBy = changes.paidBy, !samePeople(paidBy, expense.payers) { return false }
        if let split = changes.split, split != expense.split { return false }
        if let splits = changes.splits,
            !samePeople(splits, expense.splits.map { MemberAmount(memberId: $0.memberId, amount: $0.amount) })
        {
            return false
        }
        return sameAmount(changes.amount, expense.amount) && sameAmount(changes.homeAmount, expense.homeAmount)
    }

    private func target(_ operation: PendingOperation) throws -> String {
        guard let target = operation.targetID else { throw SplitterError.validation(message: "No expense", field: nil) }
        return target
    }

    private func base(_ operation: PendingOperation) throws -> Int64 {
        guard let base = operation.baseVersion else {
            throw SplitterError.validation(message: "No base version", field: "version")
        }
        return base
    }

    /// The server's side of a conflict that came without one (a 409 on a deleted expense).
    private func currentExpense(_ operation: PendingOperation) async throws -> Data? {
        guard let target = operation.targetID, let current = try? await client.expense(id: target) else { return nil }
        return try Self.encode(current)
    }

    static func encode(_ expense: Expense) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(expense)
    }
}

extension SyncEngine {
    /// Reads the group's change feed from where the last pull stopped into the offline store
    /// (changed expenses, settlements and members; tombstones applied), page by page, each page
    /// with its cursor in one transaction. Returns how many changes it applied.
    @discardableResult
    public func pull(groupID: String) async throws -> Int {
        do {
            try await adoptAccount()
            return try await pullPages(groupID: groupID)
        } catch {
            try? store.recordSyncError(error)
            throw error
        }
    }

    private func pullPages(groupID: String) async throws -> Int {
        var applied = 0
        var fetch = PageFetch(
            client: client, groupID: groupID, since: try store.feedCursor(groupID: groupID), limit: pageLimit)
        while true {
            // The next page is asked for as soon as this one's bytes are in, so the server works
            // on it while this one is decoded and written (a first sync of 10,000 expenses is 11
            // pages). If anything fails, the fetch ahead is cancelled and the cursor stays where
            // the last written page left it.
            let early = await fetch.position.value
            var ahead = early.flatMap { early in
                early.hasMore
                    ? PageFetch(client: client, groupID: groupID, since: early.cursor, limit: pageLimit) : nil
            }
            let page: Changes
            do {
                page = try await fetch.value()
                // The decoded page decides; what was read early is only ever the same. When it
                // could not be read early, the next page is asked for now, before this one is
                // written.
                if early != FeedPosition(cursor: page.cursor, hasMore: page.hasMore) {
                    ahead?.cancel()
                    ahead = nil
                }
                if ahead == nil, page.hasMore {
                    ahead = PageFetch(client: client, groupID: groupID, since: page.cursor, limit: pageLimit)
                }
                try store.apply(page, groupID: groupID)
            } catch {
                ahead?.cancel()
                throw error
            }
            applied +=
                page.expenses.count + page.settlements.count + page.members.count + page.deleted.count
                + (page.group == nil ? 0 : 1)
            guard page.hasMore, let ahead else {
                try store.recordPull(groupID: groupID, at: Date())
                return applied
            }
            fetch = ahead
        }
    }
}
