import SplitCore
import Foundation
import SplitAPI
import Testing

@testable import SplitClient

/// The SDK's own types against the generated ones they replaced (a wire-level test, so it names
/// generated types). Earlier SDKs kept the generated types' JSON on disk: the offline copy
/// (groups, members, expenses, settlements), the queue's request bodies (new expenses, edits,
/// transfers) and the server's side of a conflict. The SDK's types must write the same JSON and
/// read what was written, or an upgrade would lose an offline copy or a queued write.
@Suite("SDK types and the wire")
struct WireCompatibilityTests {
    typealias Wire = Components.Schemas

    @Test("answers the offline copy keeps: the same JSON as the generated types, read back as they were")
    func answers() throws {
        for group in Samples.groups { try expectSameJSON(group, Group(group)) }
        for member in Samples.members { try expectSameJSON(member, Member(member)) }
        try expectSameJSON(Samples.members, Samples.members.map(Member.init))
        for expense in Samples.expenses { try expectSameJSON(expense, Expense(expense)) }
        for settlement in Samples.settlements { try expectSameJSON(settlement, Settlement(settlement)) }
        try expectSameJSON(Samples.changes, Changes(Samples.changes))
        try expectSameJSON(Samples.user, User(Samples.user))
        for entry in Samples.history { try expectSameJSON(entry, HistoryEntry(entry)) }
        try expectSameJSON(Samples.activity, ActivityEntry(Samples.activity))
        for balances in Samples.balances { try expectSameJSON(balances, GroupBalances(balances)) }
        try expectSameJSON(Samples.transfer, PlannedTransfer(Samples.transfer))
        for item in Samples.inbox.notifications { try expectSameJSON(item, InboxItem(item)) }
        for page in [Samples.inbox, .init(notifications: [], unread: 0)] {
            try expectSameJSON(page, NotificationPage(page))
        }
    }

    @Test("balances from a server before homeChargedExpenses and settleInHome read, with both unsaid")
    func olderBalances() throws {
        // Found by review: both were required, so the SDK could not read an older server's answer.
        let json = #"{"balances":[],"homeCurrency":"EUR","missingRates":["USD"]}"#
        let wire = try JSONDecoder().decode(Wire.BalancesResponse.self, from: Data(json.utf8))
        let balances = GroupBalances(wire)
        #expect(balances.homeChargedExpenses == nil && balances.settleInHome == nil && balances.missingRates == ["USD"])
    }

    @Test("requests the queue keeps: the same JSON as the generated requests, and read from theirs")
    func requests() throws {
        for expense in Samples.newExpenses {
            try expectSameJSON(expense.wire, expense)
            #expect(expense.wire == (try Self.decode(Wire.CreateExpenseRequest.self, Self.queueBody(expense))))
        }
        for changes in Samples.expenseChanges {
            try expectSameJSON(changes.wire, changes)
            #expect(changes.wire == (try Self.decode(Wire.UpdateExpenseRequest.self, Self.queueBody(changes))))
        }
        for settlement in Samples.newSettlements {
            try expectSameJSON(settlement.wire, settlement)
            #expect(settlement.wire == (try Self.decode(Wire.CreateSettlementRequest.self, Self.queueBody(settlement))))
        }
    }

    @Test("an export's file name: filename*, with its own letters, before the ASCII stand-in")
    func exportFilename() {
        #expect(SplitterClient.filename(#"attachment; filename="Partage-2026-12-07.json""#) == "Partage-2026-12-07.json")
        let accented = #"attachment; filename="Caf_-2026-12-07.json"; filename*=UTF-8''Caf%C3%A9-2026-12-07.json"#
        #expect(SplitterClient.filename(accented) == "Café-2026-12-07.json")
        // As the generated client hands it on, decoded once already.
        #expect(SplitterClient.filename(accented.removingPercentEncoding) == "Café-2026-12-07.json")
        #expect(SplitterClient.filename(nil) == nil)
    }

    @Test("enums keep the spec's raw values, every case mapped both ways")
    func enums() {
        #expect(SplitClient.Role.allCases.map(\.rawValue) == Wire.Role.allCases.map(\.rawValue))
        #expect(SplitClient.Role.allCases.map(\.wire) == Wire.Role.allCases)
        #expect(Wire.Role.allCases.map(SplitClient.Role.init) == SplitClient.Role.allCases)
        #expect(SplitInput.Mode.allCases.map(\.rawValue) == Wire.SplitInput.ModePayload.allCases.map(\.rawValue))
        #expect(SplitInput.Mode.allCases.map(\.wire) == Wire.SplitInput.ModePayload.allCases)
        #expect(Wire.SplitInput.ModePayload.allCases.map(SplitInput.Mode.init(wire:)) == SplitInput.Mode.allCases)
        #expect(
            HistoryEntry.Action.allCases.map(\.rawValue) == Wire.HistoryEntry.ActionPayload.allCases.map(\.rawValue))
        #expect(Wire.HistoryEntry.ActionPayload.allCases.map(HistoryEntry.Action.init) == HistoryEntry.Action.allCases)
        #expect(Tombstone.Entity.allCases.map(\.rawValue) == Wire.Tombstone.EntityPayload.allCases.map(\.rawValue))
        #expect(Wire.Tombstone.EntityPayload.allCases.map(Tombstone.Entity.init) == Tombstone.Entity.allCases)
        typealias Level = Wire.NotificationSettings.LevelPayload
        #expect(NotificationLevel.allCases.map(\.rawValue) == Level.allCases.map(\.rawValue))
        #expect(NotificationLevel.allCases.map(\.wire) == Level.allCases)
        #expect(Level.allCases.map(NotificationLevel.init) == NotificationLevel.allCases)
    }

    @Test("a conflict an earlier SDK kept (its edit and the server's expense, as generated JSON) reads back whole")
    func storedConflict() throws {
        // setup: the rows an earlier SDK wrote for a conflicting edit: the edit's body (the generated
        // request without its version, plain JSONEncoder) and the server's side (sorted keys, ISO dates)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wire-compat-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try OfflineStore(path: folder.appendingPathComponent("offline.sqlite").path)
        let server = Samples.expenses[0]
        let edit = Wire.UpdateExpenseRequest(
            description: "Dinner at Ichiran", amount: "9600", split: Samples.splits[0], homeAmount: "72.10")
        let serverSide = try {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(server)
        }()
        try store.enqueue(
            PendingOperation(
                id: "0d9f6f6e-5b0c-4a39-9a52-2f4f1a1d2c01", groupID: server.groupId, kind: .updateExpense,
                body: try JSONEncoder().encode(edit), idempotencyKey: "key", createdAt: Samples.at, error: "changed",
                summary: "edit Dinner", targetID: server.id, baseVersion: 2, state: .conflict,
                serverCurrent: serverSide))

        // act
        let conflict = try #require(try store.conflicts().first)

        // validate
        #expect(conflict.serverExpense == Expense(server))
        #expect(conflict.intendedChanges?.wire == edit)
        #expect(try OfflineStore(path: folder.appendingPathComponent("offline.sqlite").path).conflicts() == [conflict])
    }

    @Test("a queue written by an earlier SDK (generated request bodies) is sent after the upgrade")
    func earlierQueueReplays() async throws {
        try await CLITrip.with { trip in
            // setup: Aki's group; queued offline as the earlier SDK and CLI wrote them: a new expense,
            // an edit of it based on version 1, and a transfer from Ben to Aki
            let (client, group, aki, store) = try await BatchReplayTests.akiOffline(trip)
            let ben = try #require(try await client.members(groupID: group.id).first { $0.name == "Ben" })
            let (expenseID, settlementID) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
            let created = Wire.CreateExpenseRequest(
                id: expenseID, groupId: group.id, description: "Taxi", amount: "3000", currency: "JPY",
                expenseDate: "2026-11-21", paidByMemberId: aki.id,
                split: .init(mode: .equal, memberIds: [aki.id, ben.id]))
            let edited = Wire.UpdateExpenseRequest(amount: "3600")
            let transfer = Wire.CreateSettlementRequest(
                id: settlementID, fromMemberId: ben.id, toMemberId: aki.id, amount: "500", currency: "JPY",
                note: "coins")
            let queuedAt = Date()
            func queue(
                _ kind: PendingOperation.Kind, _ body: some Encodable, id: String, target: String?, base: Int64? = nil
            ) throws {
                try store.enqueue(
                    PendingOperation(
                        id: id, groupID: group.id, kind: kind, body: try JSONEncoder().encode(body),
                        idempotencyKey: UUID().uuidString, createdAt: queuedAt, summary: kind.rawValue,
                        targetID: target, baseVersion: base))
            }
            try queue(.createExpense, created, id: expenseID, target: expenseID)
            try queue(.updateExpense, edited, id: UUID().uuidString.lowercased(), target: expenseID, base: 1)
            try queue(.createSettlement, transfer, id: settlementID, target: nil)

            // act
            let engine = SyncEngine(client: client, store: store)
            let report = try await engine.push()
            try await engine.pull(groupID: group.id)

            // validate: all three went through once, as they were meant
            #expect(report.sent == 3 && report.parked == 0 && report.conflicts == 0, "\(report)")
            let taxi = try await client.expense(id: expenseID)
            #expect(taxi.amount == "3600" && taxi.version == 2 && taxi.split.mode == .equal)
            #expect(Set(taxi.splits.map(\.amount)) == ["1800"])
            let settlement = try #require(
                try store.cachedSettlements(groupID: group.id).first { $0.id == settlementID })
            #expect(settlement.amount == "500" && settlement.note == "coins" && settlement.fromMemberId == ben.id)
            #expect(try store.cachedExpense(id: expenseID) == taxi)
        }
    }

    // MARK: Helpers

    /// Both encode to the same JSON document, and each reads the other's bytes as the same value:
    /// what an earlier SDK wrote is read by this one, and the other way round.
    private func expectSameJSON<Generated: Codable & Equatable, Own: Codable & Equatable>(
        _ generated: Generated, _ own: Own, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let sorted = JSONEncoder()
        sorted.dateEncodingStrategy = .iso8601
        sorted.outputFormatting = .sortedKeys
        let ownJSON = String(decoding: try sorted.encode(own), as: UTF8.self)
        let generatedJSON = String(decoding: try sorted.encode(generated), as: UTF8.self)
        #expect(ownJSON == generatedJSON, sourceLocation: sourceLocation)
        #expect(try Self.decode(Own.self, Self.storeBytes(generated)) == own, sourceLocation: sourceLocation)
        #expect(try Self.decode(Generated.self, Self.storeBytes(own)) == generated, sourceLocation: sourceLocation)
    }

    /// As OfflineStore writes its copy of groups, members, expenses and settlements.
    private static func storeBytes(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    /// As the CLI and `PendingOperation` write a queued request's body.
    private static func queueBody(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }
}

/// Generated values with every optional field both set and absent and every enum case.
private enum Samples {
    typealias Wire = Components.Schemas

    static let at = Date(timeIntervalSince1970: 1_795_000_000)
    static let later = Date(timeIntervalSince1970: 1_795_003_661)
    static let aki = "5f0c3c1e-1c2b-4c52-9a33-0b8c1d2e3f40"
    static let ben = "6a1d4d2f-2d3c-4d63-8b44-1c9d2e3f4051"
    static let cho = "7b2e5e30-3e4d-4e74-9c55-2dae3f405162"
    static let groupID = "8c3f6f41-4f5e-4f85-8d66-3ebf40516273"

    static let splits: [Wire.SplitInput] = [
        .init(
            mode: .itemized,
            items: [
                .init(description: "Ramen", amount: "1800", split: .init(mode: .equal, memberIds: [aki, ben])),
                .init(
                    description: "Gyoza", amount: "600",
                    split: .init(mode: .exact, amounts: [.init(memberId: cho, amount: "600")])),
            ],
            extras: [.init(description: "Tip", amount: "240"), .init(description: "Coupon", amount: "-40")]),
        .init(mode: .equal, memberIds: [aki, ben, cho]),
        .init(mode: .exact, amounts: [.init(memberId: aki, amount: "12.50"), .init(memberId: ben, amount: "7.50")]),
        .init(mode: .percent, percents: [.init(memberId: aki, percent: "60"), .init(memberId: ben, percent: "40")]),
        .init(mode: .shares, shares: [.init(memberId: aki, shares: "2"), .init(memberId: cho, shares: "1.5")]),
        .init(
            mode: .adjustment, memberIds: [aki, ben],
            adjustments: [.init(memberId: aki, amount: "500"), .init(memberId: ben, amount: "-500")]),
        .init(
            mode: .equal, memberIds: [], amounts: [], percents: [], shares: [], adjustments: [], items: [], extras: []),
    ]

    static let groups: [Wire.Group] =
        [
            .init(
                id: groupID, name: "Japan 🗾", description: "Spring \"trip\"\n", homeCurrency: "JPY",
                timeZone: "Asia/Tokyo", ownerId: aki,
                inviteCode: "K7P2QX", isArchived: false, myMemberId: aki, myRole: .owner, version: 3, createdAt: at,
                updatedAt: later)
        ]
        + [Wire.Role.admin, .member, .viewer].map {
            .init(
                id: groupID, name: "Japan", description: "", homeCurrency: "JPY", timeZone: "UTC", ownerId: aki,
                isArchived: true,
                myMemberId: ben, myRole: $0, version: 1, createdAt: at, updatedAt: at)
        }

    static let members: [Wire.Member] = [
        .init(
            id: aki, groupId: groupID, userId: "9d4070a2-5060-4096-9e77-4fc051627384", name: "Aki", role: .owner,
            canAddExpenses: true, canEditOwnExpenses: true, canEditAllExpenses: true, canMarkPaid: true, active: true,
            leftThemselves: false, version: 2, updatedAt: later),
        .init(
            id: cho, groupId: groupID, name: "Cho", role: .member, canAddExpenses: false, canEditOwnExpenses: true,
            canEditAllExpenses: false, canMarkPaid: false, active: false, version: 4, updatedAt: at),
    ]

    static let expenses: [Wire.Expense] =
        [
            .init(
                id: "a0e18173-6171-41a7-8f88-50d162738495", groupId: groupID, description: "Dinner", amount: "2600",
                currency: "JPY", category: "b1f29284-7282-42b8-9099-61e2738495a6", categoryName: "Food",
                expenseDate: "2026-11-21", createdByUserId: aki,
                payers: [.init(memberId: aki, amount: "2000"), .init(memberId: ben, amount: "600")],
                splits: [
                    .init(
                        id: "c2039395-8393-43c9-a1aa-72f38495a6b7", memberId: aki, amount: "1020", isPaid: true,
                        paidAt: later),
                    .init(id: "d314a4a6-94a4-44da-b2bb-8304953a7c18", memberId: ben, amount: "1020", isPaid: false),
                ],
                split: splits[0], homeAmount: "19.60", version: 3, createdAt: at, updatedAt: later, isDeleted: false)
        ]
        + splits.dropFirst().enumerated().map { index, split in
            .init(
                id: "e425b5b7-a5b5-45eb-83cc-9415a64b8d2\(index)", groupId: groupID, description: "Item \(index)",
                amount: "20.00", currency: "USD", category: "b1f29284-7282-42b8-9099-61e2738495a6",
                categoryName: "Other", expenseDate: "2026-11-22", createdByUserId: ben,
                payers: [.init(memberId: ben, amount: "20.00")], splits: [], split: split, version: 1, createdAt: at,
                updatedAt: at, isDeleted: index % 2 == 0)
        }

    static let settlements: [Wire.Settlement] = [
        .init(
            id: "f536c6c8-b6c6-46fc-94dd-a526b75c9e30", groupId: groupID, fromMemberId: ben, toMemberId: aki,
            amount: "1020", currency: "JPY", date: "2026-11-23", note: "",
            expenseSplitId: "d314a4a6-94a4-44da-b2bb-8304953a7c18",
            createdByUserId: ben, isDeleted: false, version: 1, createdAt: later),
        .init(
            id: "0647d7d9-c7d7-470d-a5ee-b637c86daf41", groupId: groupID, fromMemberId: cho, toMemberId: ben,
            amount: "5.25", currency: "USD", date: "2026-11-24", note: "cash, thanks", createdByUserId: cho,
            isDeleted: true, version: 2, createdAt: at),
    ]

    static let changes = Wire.ChangesResponse(
        cursor: "1042", hasMore: true, group: groups[0], expenses: expenses, settlements: settlements,
        members: members,
        categories: [
            .init(
                id: "b1f29284-7282-42b8-9099-61e2738495a6", name: "Food", icon: "🍜", color: "#FF8800", isDefault: true,
                position: 0, version: 1),
            .init(
                id: "1758e8ea-d8e8-481e-b6ff-c748d97eb052", name: "Onsen", icon: "♨️", color: "#3366cc",
                isDefault: false, position: 7, version: 3),
        ],
        deleted: Wire.Tombstone.EntityPayload.allCases.map { .init(entity: $0, id: aki) })

    static let user = Wire.User(id: aki, email: "aki@example.com", displayName: "Aki")

    static let history: [Wire.HistoryEntry] = [
        .init(
            id: "2869f9fb-e9f9-492f-87aa-d859e8af6163", expenseSplitId: "d314a4a6-94a4-44da-b2bb-8304953a7c18",
            action: .markedPaid, performedByUserId: aki, performedByName: "Aki", performedAt: later, reason: "cash",
            ipAddress: "127.0.0.1", deviceInfo: "splitter CLI"),
        .init(
            id: "397a0a0c-fa0a-4a30-98bb-e96af9b07274", expenseSplitId: "d314a4a6-94a4-44da-b2bb-8304953a7c18",
            action: .markedUnpaid, performedByUserId: ben, performedByName: "Ben", performedAt: at),
    ]

    static let activity = Wire.ActivityEntry(
        id: "4a8b1b1d-0b1b-4b41-a9cc-fa7b0ac18385", action: "expense.created", actorUserId: aki, actorName: "Aki",
        entity: "expense", entityId: "a0e18173-6171-41a7-8f88-50d162738495", summary: "Aki added Dinner", at: at)

    static let inbox = Wire.NotificationList(
        notifications: [
            .init(
                id: activity.id, groupId: groupID, groupName: "Japan", action: "expense.created", actorName: "Aki",
                entity: "expense", entityId: activity.entityId, summary: "Aki added Dinner (9,000 JPY)", at: at,
                read: false),
            .init(
                id: "5b9c2c2e-1c2c-4c52-8add-0b8c1d2e3f41", groupId: groupID, groupName: "Japan",
                action: "member.added", entity: "member", entityId: cho, summary: "Someone added Cho", at: later,
                read: true),
        ],
        unread: 1, nextCursor: "1795000000000_4a8b1b1d-0b1b-4b41-a9cc-fa7b0ac18385")

    static let balances: [Wire.BalancesResponse] = [
        .init(
            balances: [
                .init(memberId: aki, currency: "JPY", net: "1580"), .init(memberId: ben, currency: "JPY", net: "-1580"),
            ],
            homeCurrency: "JPY", home: [.init(memberId: aki, currency: "JPY", net: "1580")], missingRates: [],
            homeChargedExpenses: 0, settleInHome: true),
        .init(balances: [], homeCurrency: "JPY", missingRates: ["USD"], homeChargedExpenses: 2, settleInHome: false),
    ]

    static let transfer = Wire.PlannedTransfer(fromMemberId: ben, toMemberId: aki, amount: "1580", currency: "JPY")

    static let newExpenses: [NewExpense] =
        [
            NewExpense(
                id: "5b9c2c2e-1c2c-4c52-badd-0b8c1bd29496", groupId: groupID, description: "Hotel", amount: "30000",
                currency: "jpy", category: "Lodging", expenseDate: "2026-11-21",
                paidBy: [MemberAmount(memberId: aki, amount: "20000"), MemberAmount(memberId: ben, amount: "10000")],
                paidByMemberId: aki, split: SplitInput(wire: splits[0]),
                splits: [MemberAmount(memberId: cho, amount: "30000")], homeAmount: "201.50"),
            NewExpense(
                groupId: groupID, description: "Taxi", amount: "3000", currency: "JPY", expenseDate: "2026-11-22"),
        ]
        + splits.map {
            NewExpense(
                groupId: groupID, description: "x", amount: "1", currency: "USD", expenseDate: "2026-11-23",
                split: SplitInput(wire: $0))
        }

    static let expenseChanges: [ExpenseChanges] = [
        ExpenseChanges(),
        ExpenseChanges(description: "Dinner at Ichiran", version: 4),
        ExpenseChanges(
            description: "Hotel", amount: "31000", currency: "JPY", category: "Lodging", expenseDate: "2026-11-24",
            paidBy: [MemberAmount(memberId: ben, amount: "31000")], paidByMemberId: ben,
            split: SplitInput(wire: splits[5]), splits: [MemberAmount(memberId: aki, amount: "31000")],
            homeAmount: "210.00", version: 2),
    ]

    static let newSettlements: [NewSettlement] = [
        NewSettlement(fromMemberId: ben, toMemberId: aki, amount: "5500", currency: "JPY"),
        NewSettlement(
            id: "6cad3d3f-2d3d-4d63-8bee-1c9d2ce3a5a7", fromMemberId: cho, toMemberId: aki, amount: "12.50",
            currency: "usd", date: "2026-11-25", note: "for the gift"),
    ]
}
