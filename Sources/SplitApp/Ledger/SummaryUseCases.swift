import Foundation
import SplitCore
import SplitStore

/// Where I stand across all my groups (issue 19), as Settle up has it in each: per currency what
/// I am owed and what I owe, per group, per person (what the plans have me pay them or them pay
/// me; the same person in several groups counted once when they have an account), and my latest
/// transfers.
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
        // Each group as Settle up has it (found by review: pairwise debts listed "you owe Ben 10,
        // Cho owes you 10" after Aki followed the plan, and yen and dollars in a group Settle up
        // had settled in its home currency): my nets, in the home currency when Settle up offers
        // that first, and the plan's transfers to and from me for the people.
        let ledger = LedgerUseCases(database: database, now: { 0 })
        var nets: [AccountPosition.GroupNet] = []
        struct Key: Hashable {
            let person: String
            let currency: String
        }
        var people: [Key: (name: String, userID: UUID?, groups: [UUID], net: Int64)] = [:]
        for line in position.groups {
            let view: BalancesView
            if line.isActive {
                do {
                    view = try await ledger.balances(groupID: line.groupID, caller: caller)
                } catch AppError.notFound {
                    continue  // left the group since the list was read
                }
            } else {
                // Left with a balance: it still counts (found by a new user: "You are settled up
                // everywhere" after leaving a group owing 3,400 JPY), read as its members see it.
                guard let group = try await groups.group(id: line.groupID) else { continue }
                view = try await ledger.balances(of: group)
            }
            let me = MemberID(line.memberID)
            let members = Dictionary(
                try await groups.members(groupID: line.groupID).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for (currency, all) in view.offeredPlans {
                if let mine = all[me], mine != 0 {
                    nets.append(
                        .init(
                            groupID: line.groupID, groupName: line.groupName, memberID: line.memberID,
                            currency: currency.code, net: mine, left: !line.isActive))
                }
                // Whom to pay in a group I left is not mine to see (its plan may name people who
                // joined since): its balance alone counts (found by review).
                guard line.isActive else { continue }
                for transfer in try SettlementPlan.plan(all) where transfer.from == me || transfer.to == me {
                    let other = transfer.from == me ? transfer.to : transfer.from
                    guard let member = members[other.uuid], member.userID != caller.user.id else { continue }
                    // By account where they have one, else by member (a name-only member is theirs alone).
                    let key = Key(person: member.userID?.text ?? "member:" + other.uuid.text, currency: currency.code)
                    var entry = people[key] ?? (member.name, member.userID, [], 0)
                    entry.net += transfer.from == me ? -transfer.amount : transfer.amount
                    if !entry.groups.contains(line.groupID) { entry.groups.append(line.groupID) }
                    people[key] = entry
                }
            }
        }
        var owed: [String: Int64] = [:]
        var owe: [String: Int64] = [:]
        for group in nets {
            // Sums of nets bounded per group (10^15 each, at most 500 groups): no overflow.
            if group.net > 0 { owed[group.currency, default: 0] += group.net } else { owe[group.currency, default: 0] -= group.net }
        }
        let totals = Set(owed.keys).union(owe.keys).sorted().map {
            AccountSummary.Total(currency: $0, owed: owed[$0] ?? 0, owe: owe[$0] ?? 0)
        }
        let listed = people.filter { $0.value.net != 0 }.map { key, value in
            AccountSummary.Person(
                name: value.name, userID: value.userID, groupIDs: value.groups, currency: key.currency, net: value.net)
        }.sorted { ($0.currency, -abs($0.net), $0.name) < ($1.currency, -abs($1.net), $1.name) }
        return AccountSummary(totals: totals, groups: nets, people: listed, transfers: position.transfers)
    }
}
