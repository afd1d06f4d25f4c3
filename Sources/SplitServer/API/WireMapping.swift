import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

// Store records → wire types, one place per type (STYLE §9).

extension Date {
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1_000) }
}

extension Components.Schemas.User {
    init(_ user: UserRecord) {
        self.init(id: user.id.text, email: user.email, phone: user.phone, displayName: user.displayName)
    }
}

extension Components.Schemas.Session {
    init(_ session: SessionRecord, currentID: UUID) {
        self.init(
            id: session.id.text, deviceId: session.deviceID, deviceName: session.deviceName,
            ipAddress: session.ipAddress, createdAt: Date(milliseconds: session.createdAt),
            lastUsedAt: Date(milliseconds: session.lastUsedAt), expiresAt: Date(milliseconds: session.expiresAt),
            isCurrent: session.id == currentID)
    }
}

extension Components.Schemas.Role {
    init(_ role: Role) {
        switch role {
        case .owner: self = .owner
        case .admin: self = .admin
        case .member: self = .member
        case .viewer: self = .viewer
        }
    }

    var role: Role {
        switch self {
        case .owner: .owner
        case .admin: .admin
        case .member: .member
        case .viewer: .viewer
        }
    }
}

extension Components.Schemas.Group {
    /// The group as `me` sees it: the invite code only for those who manage members (DESIGN §5).
    init(_ group: GroupRecord, me: MemberRecord) {
        let seesInviteCode = Permissions.decide(.manageMembers(.newMember), for: me.membership) == .allowed
        self.init(
            id: group.id.text, name: group.name, description: group.description, homeCurrency: group.homeCurrency,
            timeZone: MoneyInput.zoneName(group.timeZone),
            ownerId: group.ownerUserID.text, inviteCode: seesInviteCode ? group.inviteCode : nil,
            isArchived: group.isArchived, myMemberId: me.id.text, myRole: .init(me.role), version: group.version,
            createdAt: Date(milliseconds: group.createdAt), updatedAt: Date(milliseconds: group.updatedAt))
    }
}

extension Components.Schemas.Member {
    /// The name where people are listed: "Ben (left)", "Cho (removed)" once gone.
    var label: String { MemberLabel.name(name, active: active, left: leftThemselves == true) }

    init(_ member: MemberRecord) {
        self.init(
            id: member.id.text, groupId: member.groupID.text, userId: member.userID?.text, name: member.name,
            role: .init(member.role), canAddExpenses: member.canAddExpenses,
            canEditOwnExpenses: member.canEditOwnExpenses, canEditAllExpenses: member.canEditAllExpenses,
            canMarkPaid: member.canMarkPaid, active: member.isActive, leftThemselves: member.hasLeft, version: member.version,
            updatedAt: Date(milliseconds: member.updatedAt))
    }
}
