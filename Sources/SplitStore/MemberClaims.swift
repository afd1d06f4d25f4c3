import Foundation
import SQLKit
import SplitCore

/// What joining by invite code did: joined (a new member, a claimed name-only member, or the
/// membership the user had), or asked to be a name-only member who has money history, which an
/// owner or admin approves (issue 14 item 5: the code alone must not hand over Aki's balance).
public enum JoinOutcome: Sendable, Equatable {
    case joined(GroupRecord, MemberRecord)
    case pending(GroupRecord, MemberClaim)

    /// The group and the member when joined; nil while a claim waits.
    public var joined: (group: GroupRecord, member: MemberRecord)? {
        guard case .joined(let group, let member) = self else { return nil }
        return (group, member)
    }
}

/// A request to be a name-only member, waiting for an owner or admin. One per member at a time.
public struct MemberClaim: Sendable, Equatable {
    public var groupID: UUID
    public var memberID: UUID
    public var memberName: String
    public var userID: UUID
    public var userName: String
    public var userEmail: String
    public var requestedAt: Int64
}

extension GroupStore {
    /// The claims waiting in a group, oldest first.
    public func claims(groupID: UUID) async throws -> [MemberClaim] {
        try await database.read { try await Self.claims(groupID: groupID, memberID: nil, $0) }
    }

    /// The claims `userID` is waiting on, oldest first, each with its group's name.
    public func claims(ofUser userID: UUID) async throws -> [(claim: MemberClaim, groupName: String)] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT c.group_id, c.member_id, c.user_id, c.requested_at, m.name AS member_name, u.display_name,
                       u.email, g.name AS group_name
                FROM member_claims c JOIN members m ON m.id = c.member_id JOIN users u ON u.id = c.user_id
                     JOIN groups g ON g.id = c.group_id
                WHERE c.user_id = \(bind: userID.text) AND m.is_active = \(bind: true)
                ORDER BY c.requested_at, c.member_id
                """
            ).all().map { row in
                (try Self.claim(row, groupID: try row.decodeUUID("group_id")),
                 try row.decode(column: "group_name", as: String.self))
            }
        }
    }

    /// How many claims wait in each of `groupIDs` (a group with none is left out).
    public func claimCounts(groupIDs: [UUID]) async throws -> [UUID: Int] {
        guard !groupIDs.isEmpty else { return [:] }
        return try await database.read { sql in
            var counts: [UUID: Int] = [:]
            for row in try await sql.raw(
                """
                SELECT c.group_id, COUNT(*) AS n
                FROM member_claims c JOIN members m ON m.id = c.member_id
                WHERE \(OneOf("group_id", groupIDs.map(\.text), table: "c")) AND m.is_active = \(bind: true)
                GROUP BY c.group_id
                """
            ).all()
            {
                counts[try row.decodeUUID("group_id")] = try row.decode(column: "n", as: Int.self)
            }
            return counts
        }
    }

    /// Links the claimant to the member and removes the claim. `notFound` when no claim waits for
    /// that member (or it was removed meanwhile); `memberAlreadyClaimed` when the claimant is in
    /// the group already (joining as someone else drops their claims, so only a race gets here;
    /// nothing is written, the claim stays to be rejected).
    public func approveClaim(groupID: UUID, memberID: UUID, actor: Actor, now: Int64) async throws -> MemberRecord {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor)
            guard let claim = try await Self.claims(groupID: groupID, memberID: memberID, sql).first else {
                throw GroupStoreError.notFound
            }
            guard try await Self.member(groupID: groupID, userID: claim.userID, sql) == nil else {
                throw GroupStoreError.memberAlreadyClaimed
            }
            try await Self.checkRoom(forUser: claim.userID, sql)
            let member = try await Self.link(
                memberID, in: groupID, to: Actor(userID: claim.userID, name: claim.userName), log: log, now: now, sql)
            try await Self.dropClaims(groupID: groupID, userID: claim.userID, sql)
            // The claimant hears that they are in (found by a new user: nobody was told).
            try await log?.activity(
                actor, "member.claim_approved", .member, member.id,
                ActivityEvent(subject: claim.userName, asMember: member.name, userID: claim.userID),
                concerning: [member.id], sql)
            return member
        }
    }

    /// Refuses a waiting claim; `notFound` when none waits for that member. The claimant is told
    /// in their inbox, though they are no member (found by review: a turned-down claimant waited
    /// on), and the group's activity keeps the line.
    public func rejectClaim(groupID: UUID, memberID: UUID, actor: Actor, now: Int64) async throws {
        try await database.transaction { sql in
            let log = try await GroupLog.begin(sql, groupID: groupID, now: now, actor: actor)
            guard let claim = try await Self.claims(groupID: groupID, memberID: memberID, sql).first,
                try await sql.raw(
                    """
                    DELETE FROM member_claims WHERE member_id = \(bind: memberID.text) AND group_id = \(bind: groupID.text)
                    RETURNING member_id
                    """
                ).first() != nil
            else { throw GroupStoreError.notFound }
            // One in the group already (as someone else, after a race) hears it as a member.
            let claimant = try await Self.member(groupID: groupID, userID: claim.userID, sql)
            try await log?.activity(
                actor, "member.claim_rejected", .member, memberID,
                ActivityEvent(subject: claim.userName, asMember: claim.memberName, userID: claim.userID),
                concerning: claimant.map { [$0.id] } ?? [], outsider: claimant == nil ? claim.userID : nil, sql)
        }
    }

    /// Whether the member paid, owes, sent or received anything in the group, deleted or not.
    /// Payers and shares have no index by member (migration 0030): the group's expenses are
    /// looked at one by one, each by its own key, until one has the member (`UNION ALL`, as in
    /// the expense list's member filter, so that PostgreSQL does not read the whole tables
    /// instead). Joining by a name is rare; a create, which would pay for such an index, is not.
    static func hasHistory(memberID: UUID, groupID: UUID, _ sql: any SQLDatabase) async throws -> Bool {
        let id = memberID.text
        return try await sql.raw(
            """
            SELECT 1 AS found WHERE EXISTS (
                    SELECT 1 FROM expenses e WHERE e.group_id = \(bind: groupID.text)
                    AND EXISTS (SELECT 1 FROM expense_payers p WHERE p.expense_id = e.id AND p.member_id = \(bind: id)
                                UNION ALL
                                SELECT 1 FROM expense_splits s WHERE s.expense_id = e.id AND s.member_id = \(bind: id)))
                OR EXISTS (SELECT 1 FROM settlements WHERE group_id = \(bind: groupID.text)
                           AND (from_member_id = \(bind: id) OR to_member_id = \(bind: id)))
            """
        ).first() != nil
    }

    /// Records (or finds again) the user's claim of the member; someone else's waiting claim of
    /// the same member is a `claimWaiting`.
    /// A new claim is an activity line for the group's owner and admins, who approve it (found
    /// by a new user: a claim asked reached nobody's inbox, so it waited until someone happened
    /// to open Members).
    static func requestClaim(
        _ member: MemberRecord, by actor: Actor, log: GroupLog?, now: Int64, _ sql: any SQLDatabase
    ) async throws -> MemberClaim {
        let asked = try await sql.raw(
            """
            INSERT INTO member_claims (member_id, group_id, user_id, requested_at)
            VALUES (\(bind: member.id.text), \(bind: member.groupID.text), \(bind: actor.userID.text), \(bind: now))
            ON CONFLICT (member_id) DO NOTHING RETURNING member_id
            """
        ).first() != nil
        guard let claim = try await claims(groupID: member.groupID, memberID: member.id, sql).first,
            claim.userID == actor.userID
        else { throw GroupStoreError.claimWaiting }
        if asked {
            let approvers = try await sql.raw(
                """
                SELECT id FROM members WHERE group_id = \(bind: member.groupID.text) AND is_active = \(bind: true)
                      AND role IN ('owner', 'admin')
                """
            ).all().map { try $0.decodeUUID("id") }
            try await log?.activity(
                actor, "member.claim_requested", .member, member.id, ActivityEvent(asMember: member.name),
                concerning: approvers, sql)
        }
        return claim
    }

    /// Links a name-only member to the actor's account: a plain member (a viewer stays a viewer),
    /// since a name's rights do not pass to whoever holds the code. The guard on `user_id IS NULL`
    /// makes two people claiming one name a race with one winner.
    static func link(
        _ memberID: UUID, in groupID: UUID, to actor: Actor, log: GroupLog?, now: Int64, _ sql: any SQLDatabase
    ) async throws -> MemberRecord {
        guard
            let claimed = try await sql.raw(
                """
                UPDATE members SET user_id = \(bind: actor.userID.text), version = version + 1, updated_at = \(bind: now),
                    role = CASE WHEN role = 'viewer' THEN 'viewer' ELSE 'member' END,
                    can_edit_all_expenses = \(bind: false)
                WHERE id = \(bind: memberID.text) AND group_id = \(bind: groupID.text)
                      AND user_id IS NULL AND is_active = \(bind: true)
                RETURNING *
                """
            ).first()
        else {
            // Linked to someone: a 409; unknown, foreign or removed: not found.
            let existing = try await member(id: memberID, groupID: groupID, sql)
            throw existing?.isActive == true ? GroupStoreError.memberAlreadyClaimed : GroupStoreError.notFound
        }
        let member = try MemberRecord(row: claimed)
        PendingEvents.note(.account(actor.userID))
        try await log?.changed(.member, member.id, sql)
        try await log?.activity(actor, "member.joined", .member, member.id, ActivityEvent(asMember: member.name), sql)
        try await sql.raw("DELETE FROM member_claims WHERE member_id = \(bind: memberID.text)").run()
        return member
    }

    /// A user in the group no longer waits to be someone in it.
    static func dropClaims(groupID: UUID, userID: UUID, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            "DELETE FROM member_claims WHERE group_id = \(bind: groupID.text) AND user_id = \(bind: userID.text)"
        ).run()
    }

    private static func claims(groupID: UUID, memberID: UUID?, _ sql: any SQLDatabase) async throws -> [MemberClaim] {
        try await sql.raw(
            """
            SELECT c.member_id, c.user_id, c.requested_at, m.name AS member_name, u.display_name, u.email
            FROM member_claims c JOIN members m ON m.id = c.member_id JOIN users u ON u.id = c.user_id
            WHERE c.group_id = \(bind: groupID.text) AND m.is_active = \(bind: true)
                  AND (\(bind: memberID == nil) OR c.member_id = \(bind: memberID?.text ?? ""))
            ORDER BY c.requested_at, c.member_id
            """
        ).all().map { try claim($0, groupID: groupID) }
    }

    private static func claim(_ row: any SQLRow, groupID: UUID) throws -> MemberClaim {
        MemberClaim(
            groupID: groupID, memberID: try row.decodeUUID("member_id"),
            memberName: try row.decode(column: "member_name", as: String.self),
            userID: try row.decodeUUID("user_id"),
            userName: try row.decode(column: "display_name", as: String.self),
            userEmail: try row.decode(column: "email", as: String.self),
            requestedAt: try row.decode(column: "requested_at", as: Int64.self))
    }
}
