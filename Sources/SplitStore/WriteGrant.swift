import Foundation
import SQLKit
import SplitCore

/// Who did a write, for the activity list and the payment history, and the right they did it
/// under.
public struct Actor: Sendable, Equatable {
    public var userID: UUID
    public var name: String
    public var ipAddress: String?
    public var deviceInfo: String?
    /// When set, `GroupLog.begin` decides it again inside the write's transaction.
    public var grant: WriteGrant?

    public init(
        userID: UUID, name: String, ipAddress: String? = nil, deviceInfo: String? = nil, grant: WriteGrant? = nil
    ) {
        self.userID = userID
        self.name = name
        self.ipAddress = ipAddress
        self.deviceInfo = deviceInfo
        self.grant = grant
    }
}

/// The right a write was allowed under (DESIGN §4): which member asked, for which actions. The
/// server checks it before the write, to answer early; `GroupLog.begin` decides it again with
/// the member row as it is under the group's lock, so a member removed or demoted, or a group
/// archived, between that check and the write cannot slip a write through.
public struct WriteGrant: Sendable, Equatable {
    public var memberID: UUID
    /// Every action the write needed (a member edit can need two); all must still be allowed.
    public var actions: [GroupAction]

    public init(memberID: UUID, actions: [GroupAction]) {
        self.memberID = memberID
        self.actions = actions
    }
}

extension WriteGrant {
    /// The one decision on a request to a group (DESIGN §4), made by the server's early check
    /// and again by `GroupLog.begin` under the group's lock: nil when every action is allowed.
    /// Someone who cannot read the group gets `.notFound`, exactly like an unknown id; a member
    /// without the right `.forbidden`; and an archived group is history, readable and changeable
    /// again only once its owner brings it back.
    public static func refusal(
        for actions: [GroupAction], by membership: Membership?, groupIsArchived: Bool
    ) -> WriteRefusal? {
        guard Permissions.decide(.read, for: membership) == .allowed else { return .notFound }
        for action in actions {
            switch Permissions.decide(action, for: membership) {
            case .allowed: break
            case .forbidden: return .forbidden
            case .notFound: return .notFound
            }
            if groupIsArchived, action != .read, action != .archiveOrTransferOwnership { return .archived }
        }
        return nil
    }
}

/// Why a request on a group was refused (`WriteGrant.refusal`); nothing was written. The server
/// answers each with the same status whether its early check or `GroupLog.begin` found it.
public enum WriteRefusal: Error, Equatable {
    /// The actor is no longer a member (or never was): the group is not theirs to see.
    case notFound
    /// The actor's role or flags no longer allow the action.
    case forbidden
    /// The group was archived.
    case archived
    /// A member the write names (payer, debtor, party to a transfer) is no longer active.
    case inactiveMember(UUID)
    /// The write would take a member's balance or a pair's debt in this currency past
    /// `GroupBounds.balance`.
    case ledgerBound(currency: String)
    /// The group already holds `GroupBounds.membersPerGroup` members.
    case groupFull
    /// The account is already an active member of `GroupBounds.groupsPerUser` groups.
    case tooManyGroups
}
