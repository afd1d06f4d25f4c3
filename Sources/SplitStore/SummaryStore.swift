import Foundation
import SQLKit
import SplitCore

/// One account's position across its groups (issue 19, the seed's wallet), read from the ledger
/// tables (each group's balances), read by SummaryUseCases as each group's Settle up has it.
public struct AccountPosition: Sendable, Equatable {
    public struct GroupNet: Sendable, Equatable {
        public var groupID: UUID
        public var groupName: String
        /// My member in the group.
        public var memberID: UUID
        public var currency: String
        /// Above zero: the group owes me.
        public var net: Int64
        /// I left the group (or was removed) with this balance: it still counts, and the group
        /// is no longer mine to open.
        public var left: Bool

        public init(groupID: UUID, groupName: String, memberID: UUID, currency: String, net: Int64, left: Bool = false) {
            self.groupID = groupID
            self.groupName = groupName
            self.memberID = memberID
            self.currency = currency
            self.net = net
            self.left = left
        }
    }

    public struct Transfer: Sendable, Equatable {
        public var groupID: UUID
        public var groupName: String
        public var fromName: String
        public var toName: String
        /// Whether I sent it (else I received it).
        public var sent: Bool
        public var amount: Int64
        public var currency: String
        public var date: String
        public var createdAt: Int64
    }

    /// A group I am a member of, with my member; or one I left with a balance (`isActive` false).
    public struct Membership: Sendable, Equatable {
        public var groupID: UUID
        public var groupName: String
        public var memberID: UUID
        public var isActive: Bool
    }

    /// The groups where someone's balance is not zero (mine may be zero in every currency and
    /// still not in the home currency: an expense counted at what was charged).
    public var groups: [Membership]
    public var transfers: [Transfer]
}

public struct SummaryStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Two indexed reads, at once (each on its own connection; a write between them moves at
    /// most what one of the lists says): my groups not settled up, my latest transfers.
    public func position(userID: UUID, transfers limit: Int = 20) async throws -> AccountPosition {
        let user = userID.text
        async let groups = database.read { sql in
            try await sql.raw(
                """
                SELECT m.group_id, g.name, m.id AS member_id, m.is_active
                FROM members m
                JOIN groups g ON g.id = m.group_id
                WHERE m.user_id = \(bind: user)
                  AND (m.is_active = \(bind: true)
                       AND EXISTS (SELECT 1 FROM balances b WHERE b.group_id = m.group_id AND b.net <> 0)
                       OR EXISTS (SELECT 1 FROM balances b WHERE b.group_id = m.group_id AND b.member_id = m.id
                                  AND b.net <> 0))
                ORDER BY g.name, g.id
                """
            ).all().map { row in
                AccountPosition.Membership(
                    groupID: try row.decodeUUID("group_id"), groupName: try row.decode(column: "name", as: String.self),
                    memberID: try row.decodeUUID("member_id"), isActive: try row.decode(column: "is_active", as: Bool.self))
            }
        }
        async let transfers = database.read { sql in
            try await sql.raw(
                """
                SELECT s.group_id, g.name AS group_name, f.name AS from_name, t.name AS to_name,
                       s.from_member_id = m.id AS sent, s.amount, s.currency, s.settled_on, s.created_at
                FROM members m
                JOIN settlements s ON s.group_id = m.group_id AND (s.from_member_id = m.id OR s.to_member_id = m.id)
                JOIN groups g ON g.id = s.group_id
                JOIN members f ON f.id = s.from_member_id
                JOIN members t ON t.id = s.to_member_id
                WHERE m.user_id = \(bind: user) AND m.is_active = \(bind: true) AND s.is_deleted = \(bind: false)
                ORDER BY s.settled_on DESC, s.created_at DESC, s.id DESC LIMIT \(bind: limit)
                """
            ).all().map { row in
                AccountPosition.Transfer(
                    groupID: try row.decodeUUID("group_id"), groupName: try row.decode(column: "group_name", as: String.self),
                    fromName: try row.decode(column: "from_name", as: String.self),
                    toName: try row.decode(column: "to_name", as: String.self),
                    sent: try row.decode(column: "sent", as: Bool.self),
                    amount: try row.decode(column: "amount", as: Int64.self),
                    currency: try row.decode(column: "currency", as: String.self),
                    date: try row.decode(column: "settled_on", as: String.self),
                    createdAt: try row.decode(column: "created_at", as: Int64.self))
            }
        }
        return AccountPosition(groups: try await groups, transfers: try await transfers)
    }
}
