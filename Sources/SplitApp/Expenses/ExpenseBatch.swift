import Foundation
import SplitStore

/// One expense of a batch (`POST /api/expenses/batch`): what a single create takes.
public struct BatchedExpense: Sendable {
    public var entered: EnteredExpense
    public var id: String?
    public var groupID: UUID
    public var idempotency: IdempotencyRequest?

    public init(_ entered: EnteredExpense, id: String?, groupID: UUID, idempotency: IdempotencyRequest?) {
        self.entered = entered
        self.id = id
        self.groupID = groupID
        self.idempotency = idempotency
    }
}

extension ExpenseUseCases {
    /// The most creates a batch writes in one transaction. Each holds the group's lock (on
    /// SQLite the database's) to its commit: 50 keep that under about 50 ms, and a commit is
    /// paid once for 50 instead of 50 times.
    static let createsPerTransaction = 50

    /// Creates each expense of a batch, in order, with each item's answer exactly what `create`
    /// would give it alone: its checks, its idempotency, its refusal. Items are checked one by
    /// one and written up to 50 to a transaction (`ExpenseStore.createEach`), one group to a
    /// transaction, so each takes one group's lock as a single create does. An item whose key an
    /// item still waiting has too waits for that one to be written first, so it is answered from
    /// it as it would be alone. When a write of several fails, none of them was written, and
    /// each is written again alone, so only the item at fault gets the error.
    public func createEach(
        _ items: [BatchedExpense], caller: Caller, origin: RequestOrigin,
        render: @escaping @Sendable (ExpenseView) throws -> StoredResponse
    ) async -> [Result<ExpenseCreation, any Error>] {
        var results = [Result<ExpenseCreation, any Error>?](repeating: nil, count: items.count)
        var waiting: [(index: Int, prepared: PreparedCreate)] = []
        var waitingKeys: Set<String> = []
        let reads = BatchReads()
        // Every item's key in one read; should it fail, each item reads its own.
        reads.keys = try? await idempotency.lookup(
            userID: caller.user.id, keys: items.compactMap { try? $0.idempotency?.claim(for: caller).key })
        func writeWaiting() async {
            defer {
                waiting = []
                waitingKeys = []
            }
            guard !waiting.isEmpty else { return }
            if let outcomes = try? await expenses.createEach(waiting.map(\.prepared.new)) {
                for (write, outcome) in zip(waiting, outcomes) {
                    results[write.index] = Result { try Self.finish(write.prepared, outcome) }
                }
                return
            }
            for write in waiting {
                do {
                    results[write.index] = .success(try await self.write(write.prepared))
                } catch {
                    results[write.index] = .failure(error)
                }
            }
        }
        for (index, item) in items.enumerated() {
            if let first = waiting.first?.prepared.new.expense,
                waiting.count == Self.createsPerTransaction || first.groupID != item.groupID
                    || item.idempotency.map({ waitingKeys.contains($0.key) }) == true
            {
                await writeWaiting()
            }
            do {
                switch try await prepare(
                    item.entered, id: item.id, groupID: item.groupID, caller: caller, origin: origin,
                    idempotency: item.idempotency, reads: reads, render: render)
                {
                case .answered(let creation): results[index] = .success(creation)
                case .write(let prepared):
                    waiting.append((index, prepared))
                    if let key = item.idempotency?.key { waitingKeys.insert(key) }
                }
            } catch {
                results[index] = .failure(error)
            }
        }
        await writeWaiting()
        return results.map { result in
            guard let result else { preconditionFailure("each item is answered by its check or its write") }
            return result
        }
    }
}
