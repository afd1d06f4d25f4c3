import Foundation
import SplitClient
import SplitTestSupport
import Testing

/// The queue's new expenses go to the server in batches; every item is settled as if it had been
/// sent alone: sent, or parked with its error while the rest go on, and whatever was queued on
/// top of a parked one waits.
@Suite("SDK replay in batches")
struct BatchReplayTests {
    @Test("a refused expense inside a batch is parked, the others are created once, an edit on it waits")
    func mixedBatch() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's group; a queue of four new expenses (the second with yen cents, which
            // the server refuses) and an edit of the refused one, queued after it
            let (client, group, aki, store) = try await Self.akiOffline(trip)
            // All queued in one instant: the queue must keep the order they were made in.
            let queuedAt = Date()
            let ids = try Self.queueCreates(
                ["1000", "1200.5", "3000", "4000"], in: group.id, paidBy: aki.id, at: queuedAt, store
            ) { index, id in
                guard index == 1 else { return }
                try store.enqueue(
                    PendingOperation(
                        id: UUID().uuidString.lowercased(), groupID: group.id, kind: .updateExpense,
                        body: try JSONEncoder().encode(ExpenseChanges(description: "Item 2, renamed")),
                        idempotencyKey: UUID().uuidString, createdAt: queuedAt, summary: "rename Item 2",
                        targetID: id, baseVersion: 1))
            }

            // act: two per request, so the refusal sits inside a batch and batches cross the edit
            let engine = SyncEngine(client: client, store: store, batchSize: 2)
            let first = try await engine.push()
            let second = try await engine.push()

            // validate
            #expect(first.sent == 3 && first.parked == 1 && first.held == 1 && first.stoppedBecause == nil, "\(first)")
            let parked = try store.parked()
            let pending = try store.pending()
            #expect(parked.map(\.summary) == ["Item 2"], "\(parked)")
            #expect(parked.first?.error?.contains("amount") == true, "\(parked)")
            #expect(pending.map(\.summary) == ["rename Item 2"], "\(pending)")
            #expect(second.sent == 0 && second.held == 1, "\(second)")
            let onServer = try await client.expenses(groupID: group.id)
            #expect(onServer.map(\.description).sorted() == ["Item 1", "Item 3", "Item 4"])
            #expect(Set(onServer.map(\.id)) == Set([ids[0], ids[2], ids[3]]))
        }
    }

    @Test("several wrong fields come back as one error that says each of them")
    func severalFields() async throws {
        try await CLITrip.with { trip in
            let (client, group, aki, _) = try await Self.akiOffline(trip)
            do {
                _ = try await client.addExpense(
                    NewExpense(
                        groupId: group.id, description: " ", amount: "12.5", currency: "JPY",
                        expenseDate: "2026-02-30", paidByMemberId: aki.id))
                Issue.record("the server took an expense with three wrong fields")
            } catch SplitterError.validation(let message, let field) {
                #expect(field == "description")
                #expect(message.contains("Say what it was") && message.contains("amount: JPY has no cents"), "\(message)")
                #expect(message.contains("expenseDate: Pick a date"), "\(message)")
            }
        }
    }

    @Test("a batch the server refuses as a whole (over its body limit) is sent one expense at a time")
    func wholeBatchRefused() async throws {
        // A 4 KiB body limit: one expense fits, a batch of 40 (about 10 KiB) does not.
        try await CLITrip.with(serverEnvironment: ["MAX_BODY_BYTES": "4096"]) { trip in
            // setup: 40 new expenses queued offline, the 21st with yen cents
            let (client, group, aki, store) = try await Self.akiOffline(trip)
            let amounts = (1...40).map { $0 == 21 ? "1200.5" : "\($0 * 100)" }
            let ids = try Self.queueCreates(amounts, in: group.id, paidBy: aki.id, at: Date(), store)
            // The premise: sent as one request, the queue is refused whole and creates nothing.
            let whole = try store.pending().map {
                (
                    request: try JSONDecoder().decode(NewExpense.self, from: $0.body),
                    idempotencyKey: $0.idempotencyKey as String?
                )
            }
            do {
                _ = try await client.addExpenses(whole)
                Issue.record("the server took a batch over its body limit")
            } catch SplitterError.validation(let message, _) {
                #expect(message.contains("too large"), "\(message)")
            }
            #expect(try await client.expenses(groupID: group.id).isEmpty)

            // act: the whole queue in one batch, which the server answers with a 413
            let engine = SyncEngine(client: client, store: store, batchSize: 40)
            let report = try await engine.push()
            let again = try await engine.push()

            // validate: each expense as if it had been sent alone; only the bad one parked
            #expect(report.sent == 39 && report.parked == 1 && report.stoppedBecause == nil, "\(report)")
            #expect(try store.parked().map(\.summary) == ["Item 21"])
            #expect(try store.pending().isEmpty)
            #expect(again.sent == 0 && again.parked == 0, "\(again)")
            let onServer = try await client.expenses(groupID: group.id)
            #expect(Set(onServer.map(\.id)) == Set(ids.enumerated().filter { $0.offset != 20 }.map(\.element)))
            #expect(onServer.count == 39)
        }
    }

    /// Aki's SDK client (the CLI's default profile), her group Japan, her member and an empty
    /// offline store for the queue.
    static func akiOffline(_ trip: CLITrip) async throws -> (SplitterClient, Group, Member, OfflineStore) {
        try await trip.setUpJapan()
        let tokens = FileTokenStore(path: trip.config.appendingPathComponent("profiles/default/token").path)
        let client = SplitterClient(serverURL: try #require(URL(string: trip.url)), tokens: tokens)
        let group = try #require(try await client.groups().first)
        let aki = try #require(try await client.members(groupID: group.id).first { $0.name == "Aki" })
        let store = try OfflineStore(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("queue-\(UUID()).sqlite").path)
        return (client, group, aki, store)
    }

    /// Queues one new JPY expense per amount, "Item 1", "Item 2", …, paid by one member; `after`
    /// runs after each is queued (to queue something on top of it). Returns their ids in order.
    static func queueCreates(
        _ amounts: [String], in groupID: String, paidBy payer: String, at queuedAt: Date, _ store: OfflineStore,
        after: (Int, String) throws -> Void = { _, _ in }
    ) throws -> [String] {
        var ids: [String] = []
        for (index, amount) in amounts.enumerated() {
            let id = UUID().uuidString.lowercased()
            ids.append(id)
            let request = NewExpense(
                id: id, groupId: groupID, description: "Item \(index + 1)", amount: amount, currency: "JPY",
                expenseDate: "2026-11-21", paidByMemberId: payer)
            try store.enqueue(
                PendingOperation(
                    id: id, groupID: groupID, kind: .createExpense, body: try JSONEncoder().encode(request),
                    idempotencyKey: UUID().uuidString, createdAt: queuedAt, summary: "Item \(index + 1)",
                    targetID: id))
            try after(index, id)
        }
        return ids
    }
}
