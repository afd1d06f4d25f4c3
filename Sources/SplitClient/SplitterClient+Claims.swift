internal import SplitAPI
import Foundation

/// What joining by invite code did.
public enum JoinOutcome: Sendable, Hashable {
    case joined(Group, Member)
    /// The claimed member has money history: an owner or admin of the group approves first.
    case pending(PendingJoin)
}

/// A claim of a name-only member that waits for an owner or admin.
public struct PendingJoin: Codable, Hashable, Sendable {
    public var groupName: String
    /// The member asked for.
    public var memberName: String
    public var requestedAt: Date
}

/// Someone asking to be a name-only member, as an owner or admin sees it.
public struct MemberClaim: Codable, Hashable, Sendable {
    public var memberId: String
    public var memberName: String
    public var userId: String
    /// The claimant's display name and email, to tell who asks.
    public var userName: String
    public var userEmail: String
    public var requestedAt: Date
}

extension SplitterClient {
    /// The claims waiting in a group (owner, admin), oldest first.
    public func claims(groupID: String) async throws -> [MemberClaim] {
        try await call({ try await api.listClaims(path: .init(groupId: groupID)) }) { output in
            try output.ok.body.json.claims.map {
                MemberClaim(
                    memberId: $0.memberId, memberName: $0.memberName, userId: $0.userId, userName: $0.userName,
                    userEmail: $0.userEmail, requestedAt: $0.requestedAt)
            }
        }
    }

    /// Says the claimant is that member; answers the member, now linked to their account.
    public func approveClaim(groupID: String, memberID: String) async throws -> Member {
        try await call({ try await api.approveClaim(path: .init(groupId: groupID, memberId: memberID)) }) {
            Member(try $0.ok.body.json.member)
        }
    }

    /// Refuses a claim: the member stays name-only.
    public func rejectClaim(groupID: String, memberID: String) async throws {
        try await call({ try await api.rejectClaim(path: .init(groupId: groupID, memberId: memberID)) }) {
            _ = try $0.noContent
        }
    }

    /// Removes a member (owner; an admin for members and viewers). A member who owes or is owed
    /// money is refused (`has_balance`, the message says the amounts) unless `confirmBalance`.
    public func removeMember(groupID: String, memberID: String, confirmBalance: Bool = false) async throws -> Member {
        try await call({
            try await api.removeMember(
                path: .init(groupId: groupID, memberId: memberID), query: .init(confirmBalance: confirmBalance))
        }) { Member(try $0.ok.body.json.member) }
    }

    /// Brings a removed member back, with their shares and balance.
    public func restoreMember(groupID: String, memberID: String) async throws -> Member {
        try await call({
            try await api.updateMember(
                path: .init(groupId: groupID, memberId: memberID), body: .json(.init(active: true)))
        }) { Member(try $0.ok.body.json.member) }
    }
}
