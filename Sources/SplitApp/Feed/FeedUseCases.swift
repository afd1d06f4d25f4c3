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
        let (_, me, changeSeq) = try await access.checkWithSeq(groupID, caller, for: .read)
        return (changeSeq, me.id)
    }

    /// Every change after `since` (a cursor this server gave out; none: from the start), at most
    /// `limit` objects (1 to 1,000) a page.
    public func changes(groupID: UUID, since text: String?, limit: Int?, caller: Caller) async throws -> ChangePage {
        guard caller.reaches(groupID) else { throw AppError.notFound("group") }
        let since: Int64
        if let text, !text.isEmpty {
            guard let value = Int64(text), value >= 0 else {
                // Who may not read the group learns that first, as before the cursor is read.
                _ = try await access.check(groupID, caller, for: .read)
                throw AppError.invalid(field: "since", message: "since is a cursor this server gave out.")
            }
            since = value
        } else {
            since = 0
        }
        // A page of 5,000 cost the server about 45 MB while it was answered; 50 clients syncing at
        // once then held 330 MB. Pages of 1,000 keep that under the 150 MB of DESIGN §9.
        let limit = min(max(limit ?? 1_000, 1), 1_000)
        // The list of changes first, then the caller's right with the group, its members and its
        // categories in one read: what the page shows is then at least as new as the list (a
        // group or member read before it could be older than a change the list holds, and the
        // device would keep the old one until that object's next change). A caller who may not
        // read the group is refused before anything read is used. One read where there were
        // four (issue 16: a page was ten statements on PostgreSQL, now five).
        let (changes, hasMore) = try await log.changes(groupID: groupID, since: since, limit: limit)
        let (group, me, members, categories) = try await access.checkWithMembersAndCategories(
            groupID, caller, for: .read)
        func ids(_ entity: ChangeEntity, deleted: Bool) -> Set<UUID> {
            Set(changes.filter { $0.entity == entity && $0.isDeleted == deleted }.map(\.entityID))
        }
        let names = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0.name) })
        // In id order, compared by their bytes: no id formatted (formatting them in every
        // comparison was a fifth of a page's time).
        let changedExpenses = try await expenses.expenses(ids: Array(ids(.expense, deleted: false))).values
            .sorted { $0.id.sortsBefore($1.id) }
            .map { ExpenseView(expense: $0, categoryNames: names, homeCurrency: group.homeCurrency) }
        let memberIDs = ids(.member, deleted: false)
        let categoryIDs = ids(.category, deleted: false)
        return ChangePage(
            cursor: changes.last?.seq ?? since, hasMore: hasMore,
            group: changes.contains(where: { $0.entity == .group }) ? GroupView(group: group, me: me) : nil,
            expenses: changedExpenses,
            settlements: try await settlements.settlements(ids: Array(ids(.settlement, deleted: false))),
            members: members.filter { memberIDs.contains($0.id) },
            categories: categories.filter { categoryIDs.contains($0.id) }.sorted { $0.id.sortsBefore($1.id) },
            deleted: changes.filter { $0.isDeleted && $0.entity != .group }.map { ($0.entity, $0.entityID) })
    }
}
