import Foundation
import SplitCore
import SplitStore

/// What changed in a group since a cursor: the changed objects, read with the caller's right,
/// and the tombstones of deleted ones (DESIGN §5).
public struct ChangePage: Sendable {
    public let cursor: Int64
    public let hasMore: Bool
    /// The group and the caller's membership, when the group itself changed.
    public let group: GroupView?
    public let expenses: [ExpenseView]
    public let settlements: [SettlementRecord]
    public let members: [MemberRecord]
    public let categories: [CategoryRecord]
    public let deleted: [(entity: ChangeEntity, id: UUID)]
}

/// The change feed and the activity list of a group.
public struct FeedUseCases: Sendable, UsesStores {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Newest first, at most `limit` (1 to 200) lines before the cursor `"seq_id"` of a
    /// previous page; the next page's cursor when the page is full.
    public func activity(groupID: UUID, limit: Int?, cursor: String?, caller: Caller) async throws -> (
        entries: [ActivityRecord], nextCursor: String?
    ) {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let limit = min(max(limit ?? 50, 1), 200)
        let entries = try await log.activity(groupID: group.id, before: try PageCursor.decode(cursor), limit: limit)
        return (entries, PageCursor.next(after: entries, limit: limit) { ($0.seq, $0.id) })
    }

    /// What a page of the change feed depends on besides its `since` and `limit`, read with the
    /// caller's right (the same refusals as `changes`): the group's change number, and the
    /// caller's membership, which a page holding the group object shows.
    ///
    /// Every write to what the feed shows moves the change number (DESIGN §5: that is how a
    /// device learns of it), so a page asked for again while the number is the same is the same
    /// page: the server sends the bytes it made for the first device instead of making them
    /// again. Read it before the page: a page read after a newer write is then only newer.
    public func pageState(groupID: UUID, caller: Caller) async throws -> (changeSeq: Int64, viewer: UUID) {
        let (group, me) = try await access.check(groupID, caller, for: .read)
        return (try await log.currentSeq(groupID: group.id), me.id)
    }

    /// Every change after `since` (a cursor this server gave out; none: from the start), at most
    /// `limit` objects (1 to 1,000) a page.
    public func changes(groupID: UUID, since text: String?, limit: Int?, caller: Caller) async throws -> ChangePage {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let since: Int64
        if let text, !text.isEmpty {
            guard let value = Int64(text), value >= 0 else {
                throw AppError.invalid(field: "since", message: "since is a cursor this server gave out.")
            }
            since = value
        } else {
            since = 0
        }
        // A page of 5,000 cost the server about 45 MB while it was answered; 50 clients syncing at
        // once then held 330 MB. Pages of 1,000 keep that under the 150 MB of DESIGN §9.
        let limit = min(max(limit ?? 1_000, 1), 1_000)
        let (changes, hasMore) = try await log.changes(groupID: group.id, since: since, limit: limit)
        func ids(_ entity: ChangeEntity, deleted: Bool) -> [UUID] {
            changes.filter { $0.entity == entity && $0.isDeleted == deleted }.map(\.entityID)
        }
        let names = Dictionary(
            uniqueKeysWithValues: try await categories.allCategories(groupID: group.id).map { ($0.id, $0.name) })
        // In id order, compared by their bytes: no id formatted (formatting them in every
        // comparison was a fifth of a page's time).
        let changedExpenses = try await expenses.expenses(ids: ids(.expense, deleted: false)).values
            .sorted { $0.id.sortsBefore($1.id) }
            .map { ExpenseView(expense: $0, categoryNames: names, homeCurrency: group.homeCurrency) }
        let memberIDs = Set(ids(.member, deleted: false))
        // The group read again after the list of changes: the one read before it could be older
        // than a group change the list holds, and the device would keep that old group until the
        // group's next change.
        var shown: GroupView?
        if changes.contains(where: { $0.entity == .group }) {
            let now = try await access.check(groupID, caller, for: .read)
            shown = GroupView(group: now.group, me: now.me)
        }
        return ChangePage(
            cursor: changes.last?.seq ?? since, hasMore: hasMore,
            group: shown,
            expenses: changedExpenses,
            settlements: try await settlements.settlements(ids: ids(.settlement, deleted: false)),
            members: try await groups.members(groupID: group.id).filter { memberIDs.contains($0.id) },
            categories: try await categories.categories(ids: ids(.category, deleted: false)),
            deleted: changes.filter { $0.isDeleted && $0.entity != .group }.map { ($0.entity, $0.entityID) })
    }
}
