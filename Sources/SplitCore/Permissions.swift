/// A member's role in a group (DESIGN §4). Stored and sent as its raw value.
public enum Role: String, CaseIterable, Hashable, Sendable, Codable {
    case owner
    case admin
    case member
    case viewer
}

/// What the acting user is to the group: their role, flags and whether the membership is active.
public struct Membership: Hashable, Sendable {
    public var role: Role
    public var canAddExpenses: Bool
    public var canEditOwnExpenses: Bool
    public var canEditAllExpenses: Bool
    public var canMarkPaid: Bool
    public var isActive: Bool

    public init(
        role: Role,
        canAddExpenses: Bool = true,
        canEditOwnExpenses: Bool = true,
        canEditAllExpenses: Bool = false,
        canMarkPaid: Bool = true,
        isActive: Bool = true
    ) {
        self.role = role
        self.canAddExpenses = canAddExpenses
        self.canEditOwnExpenses = canEditOwnExpenses
        self.canEditAllExpenses = canEditAllExpenses
        self.canMarkPaid = canMarkPaid
        self.isActive = isActive
    }
}

/// Something a user asks to do in a group. The associated values are the facts the table needs.
public enum GroupAction: Hashable, Sendable {
    /// Read the group, its members, expenses, balances, plans, activity.
    case read
    /// Change one's own name in the group (any active member, viewers too).
    case renameSelf
    /// Leave the group: one's own member removed, as an owner or admin removes others (any
    /// active member; the owner hands the group over first, which the use case says).
    case leave
    case addExpense
    /// Edit or delete (or restore) an expense; `isOwn` when the actor created it.
    case editExpense(isOwn: Bool)
    /// Mark a share paid or unpaid; `isDebtorOrPayer` when the actor owes that share or paid the expense.
    case markSharePaid(isDebtorOrPayer: Bool)
    /// Record or delete a settlement between two members.
    case recordSettlement(isParty: Bool)
    /// Add, rename, change flags of, or remove a member; rotate the invite code (`.newMember`).
    /// Nobody acts on their own member this way (their name changes by `renameSelf`), so nobody
    /// lifts a restriction the owner set on them; an admin acts on members and viewers only.
    case manageMembers(MemberTarget)
    /// Give a member another role. Making someone owner is a transfer of ownership, and the
    /// owner's own role changes only through one, so the group always has exactly one owner.
    /// Only the owner makes or unmakes admins; nobody changes their own role.
    case changeRole(MemberTarget, newRole: Role)
    /// Rename the group, change its home currency, categories and rates.
    case updateGroup
    /// Archive the group or hand ownership to another member.
    case archiveOrTransferOwnership
    /// See IP addresses and devices in payment history.
    case seeAuditDetails
    /// Register, change, read and remove the group's webhooks and their delivery log (issue 17).
    case manageWebhooks
}

/// The member a member-management action is aimed at, as the permission table needs it.
public enum MemberTarget: Hashable, Sendable {
    /// A member not yet in the group (adding one), or the group's members as a whole (the invite code).
    case newMember
    /// The actor's own member.
    case me
    /// Another member, with that member's current role.
    case other(Role)
}

/// The outcome of a permission check, already in the shape the API answers with.
public enum Decision: Hashable, Sendable {
    case allowed
    /// Known to the user but not allowed: 403.
    case forbidden
    /// Not a member (or no longer one): 404, exactly like an unknown id, so ids reveal nothing.
    case notFound
}

/// The role × action table of DESIGN §4, as the one function the server and the clients call.
public enum Permissions {
    public static func decide(_ action: GroupAction, for membership: Membership?) -> Decision {
        guard let membership, membership.isActive else { return .notFound }
        return isAllowed(action, membership) ? .allowed : .forbidden
    }

    private static func isAllowed(_ action: GroupAction, _ membership: Membership) -> Bool {
        let role = membership.role
        switch action {
        case .read, .renameSelf:
            return true
        case .leave:
            return role != .owner
        case .addExpense:
            return role == .owner || role == .admin || (role == .member && membership.canAddExpenses)
        case .editExpense(let isOwn):
            switch role {
            case .owner: return true
            case .admin: return isOwn || membership.canEditAllExpenses
            case .member: return membership.canEditAllExpenses || (isOwn && membership.canEditOwnExpenses)
            case .viewer: return false
            }
        case .markSharePaid(let isDebtorOrPayer):
            switch role {
            case .owner: return true
            case .admin: return membership.canMarkPaid
            case .member: return isDebtorOrPayer && membership.canMarkPaid
            case .viewer: return false
            }
        case .recordSettlement(let isParty):
            // Recording money that moved is like adding an expense; a member records their own.
            return role == .owner || role == .admin || (role == .member && membership.canAddExpenses && isParty)
        case .manageMembers(let target):
            switch target {
            case .me: return false
            case .newMember: return role == .owner || role == .admin
            case .other(let targetRole):
                return targetRole != .owner && (role == .owner || (role == .admin && targetRole.isMemberOrViewer))
            }
        case .changeRole(let target, let newRole):
            guard case .other(let targetRole) = target, targetRole != .owner, newRole != .owner else { return false }
            return role == .owner || (role == .admin && targetRole.isMemberOrViewer && newRole.isMemberOrViewer)
        case .updateGroup:
            return role == .owner || role == .admin
        case .archiveOrTransferOwnership:
            return role == .owner
        case .seeAuditDetails, .manageWebhooks:
            return role == .owner || role == .admin
        }
    }
}

extension Role {
    /// The roles an admin may manage.
    var isMemberOrViewer: Bool { self == .member || self == .viewer }
}

extension GroupAction {
    /// Why a member may not change an expense someone else added, naming who may: the one
    /// words the server and the command line (offline, before queueing) both use.
    public static func onlyMakerMayChange(_ maker: String?) -> String {
        "Only \(maker.map { "\($0), who added it," } ?? "whoever added it") or someone the owner lets change every "
            + "expense may change this one."
    }
}
