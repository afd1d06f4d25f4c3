import Foundation
import SplitCore
import SplitStore

/// Where I stand across all my groups (issue 19): per currency what I am owed and what I owe,
/// per group, per person (the same person in several groups counted once when they have an
/// account), and my latest transfers.
public struct AccountSummary: Sendable, Equatable {
    public struct Total: Sendable, Equatable {
        public let currency: String
        /// What my groups owe me, and what I owe in them (both ≥ 0), and the difference.
        public let owed: Int64
        public let owe: Int64
        public var net: Int64 { owed - owe }
    }

    public struct Person: Sendable, Equatable {
        public let name: String
        /// Set when the person has an account (then their members in several groups are one).
        public let userID: UUID?
        public let groupIDs: [UUID]
        public let currency: String
        /// Above zero: they owe me.
        public let net: Int64
    }

    public let totals: [Total]
    public let groups: [AccountPosition.GroupNet]
    public let people: [Person]
    public let transfers: [AccountPosition.Transfer]
}

public struct SummaryUseCases: Sendable, UsesStores {
    let database: Database

    public init(database: Database) { self.database = database }

    public func summary(caller: Caller) async throws -> AccountSummary {
        try caller.requireWholeAccount()
        let position = try await summaries.position(userID: caller.user.id)
        var owed: [String: Int64] = [:]
        var owe: [String: Int64] = [:]
        for group in position.groups {
            // Sums of nets bounded per group (10^15 each, at most 500 groups): no overflow.
            if group.net > 0 { owed[group.currency, default: 0] += group.net } else { owe[group.currency, default: 0] -= group.net }
        }
        let totals = Set(owed.keys).union(owe.keys).sorted().map {
            AccountSummary.Total(currency: $0, owed: owed[$0] ?? 0, owe: owe[$0] ?? 0)
        }
        // People: by account where they have one, else by member (a name-only member is theirs alone).
        struct Key: Hashable {
            let person: String
            let currency: String
        }
        var nets: [Key: (name: String, userID: UUID?, groups: [UUID], net: Int64)] = [:]
        // Where I am settled in a currency (no net there), nobody is owed anything by me or owes
        // me: the direct debts left are a cycle Settle up routed around (I paid Chloé what Bo
        // owed her). They are left out (found by review: "you owe Chloé 10" after settling up).
        struct GroupCurrency: Hashable {
            let group: UUID
            let currency: String
        }
        let unsettled = Set(position.groups.map { GroupCurrency(group: $0.groupID, currency: $0.currency) })
        for pair in position.pairs
        where pair.userID != caller.user.id && unsettled.contains(GroupCurrency(group: pair.groupID, currency: pair.currency)) {
            let key = Key(person: pair.userID?.text ?? "member:" + pair.memberID.text, currency: pair.currency)
            var entry = nets[key] ?? (pair.memberName, pair.userID, [], 0)
            entry.net += pair.net
            if !entry.groups.contains(pair.groupID) { entry.groups.append(pair.groupID) }
            nets[key] = entry
        }
        let people = nets.filter { $0.value.net != 0 }.map { key, value in
            AccountSummary.Person(
                name: value.name, userID: value.userID, groupIDs: value.groups, currency: key.currency, net: value.net)
        }.sorted { ($0.currency, -abs($0.net), $0.name) < ($1.currency, -abs($1.net), $1.name) }
        return AccountSummary(totals: totals, groups: position.groups, people: people, transfers: position.transfers)
    }
}
