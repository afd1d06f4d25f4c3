import Foundation
import SplitCore
import SplitStore

/// The one permission decision on a request to a group (DESIGN §4, `WriteGrant.refusal`): a
/// non-member gets `.notFound` exactly like an unknown id, a member without the right
/// `.forbidden`, a change to an archived group `.archived`. The store decides it again inside
/// the write's transaction with the `Actor` made here.
public struct GroupAccess: Sendable {
    let groups: GroupStore

    public init(groups: GroupStore) { self.groups = groups }

    /// The group and the caller's membership, when `action` is allowed.
    ///
    /// - Parameter unknown: what a non-member is told does not exist: the object they asked for
    ///   by id ("expense"), so another group's object reads exactly like an unknown id, message
    ///   included (DESIGN §4).
    public func check(
        _ groupID: UUID, _ caller: Caller, for action: GroupAction, asUnknown unknown: String = "group"
    ) async throws -> (group: GroupRecord, me: MemberRecord) {
        let (group, me, _) = try await checkWithSeq(groupID, caller, for: action, asUnknown: unknown)
        return (group, me)
    }

    /// `check`, with the group's change number read in the same row (a page of the change feed).
    public func checkWithSeq(
        _ groupID: UUID, _ caller: Caller, for action: GroupAction, asUnknown unknown: String = "group"
    ) async throws -> (group: GroupRecord, me: MemberRecord, changeSeq: Int64) {
        guard caller.reaches(groupID),
            let (group, me, seq) = try await groups.groupMembershipAndSeq(groupID: groupID, userID: caller.user.id)
        else {
            throw AppError.notFound(unknown)
        }
        try Self.decide(action, me, in: group, asUnknown: unknown)
        return (group, me, seq)
    }

    /// `check`, with every member of the group (removed ones too) read in the same query, for a
    /// use case that needs them anyway: one read fewer (issue 16).
    public func checkWithMembers(
        _ groupID: UUID, _ caller: Caller, for action: GroupAction, asUnknown unknown: String = "group"
    ) async throws -> (group: GroupRecord, me: MemberRecord, members: [MemberRecord]) {
        guard caller.reaches(groupID), let (group, members) = try await groups.groupWithMembers(groupID: groupID) else {
            throw AppError.notFound(unknown)
        }
        return (group, try Self.allowed(action, caller, in: group, members, asUnknown: unknown), members)
    }

    /// `checkWithMembers`, with the group's categories (deleted ones too) in the same read: what
    /// a create needs before its transaction (issue 16: one read fewer).
    public func checkWithMembersAndCategories(
        _ groupID: UUID, _ caller: Caller, for action: GroupAction, asUnknown unknown: String = "group"
    ) async throws -> (group: GroupRecord, me: MemberRecord, members: [MemberRecord], categories: [CategoryRecord]) {
        guard caller.reaches(groupID),
            let (group, members, categories) = try await groups.groupWithMembersAndCategories(groupID: groupID)
        else {
            throw AppError.notFound(unknown)
        }
        return (group, try Self.allowed(action, caller, in: group, members, asUnknown: unknown), members, categories)
    }

    /// The caller's member among `members`, when `action` is allowed.
    private static func allowed(
        _ action: GroupAction, _ caller: Caller, in group: GroupRecord, _ members: [MemberRecord],
        asUnknown unknown: String
    ) throws -> MemberRecord {
        guard let me = members.first(where: { $0.userID == caller.user.id }) else { throw AppError.notFound(unknown) }
        try decide(action, me, in: group, asUnknown: unknown)
        return me
    }

    private static func decide(
        _ action: GroupAction, _ me: MemberRecord, in group: GroupRecord, asUnknown unknown: String
    ) throws {
        do {
            try require([action], me, in: group)
        } catch AppError.notFound {
            throw AppError.notFound(unknown)
        }
    }

    /// The same decision for actions known only once the request's target has been read.
    public static func require(_ actions: [GroupAction], _ me: MemberRecord, in group: GroupRecord) throws {
        if let refusal = WriteGrant.refusal(for: actions, by: me.membership, groupIsArchived: group.isArchived) {
            throw AppError(refusal)
        }
    }

    /// Who is writing, and the actions the check allowed them, for the store to decide again
    /// inside the write's transaction (`WriteGrant`).
    public static func actor(
        _ caller: Caller, _ me: MemberRecord, origin: RequestOrigin, for actions: [GroupAction]
    ) -> Actor {
        Actor(
            userID: caller.user.id, name: me.name, ipAddress: origin.clientAddress,
            deviceInfo: origin.userAgent.map { String($0.prefix(200)) },
            grant: WriteGrant(memberID: me.id, actions: actions))
    }
}
