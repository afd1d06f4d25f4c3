import Foundation
import SplitCore

// The SDK's own types for accounts, groups and members. Their JSON (keys, shapes, ISO 8601
// dates when the encoder says so) is the API's, so the offline store reads what earlier
// versions of the SDK wrote; WireMapping.swift converts them to and from the generated types.

/// An account: who is logged in, or who registered.
public struct User: Codable, Hashable, Sendable {
    /// The account's id (a UUID, lower case).
    public var id: String
    /// The email address, when the account has one.
    public var email: String?
    /// The phone number with its country code, when the account has one.
    public var phone: String?
    /// The name others see.
    public var displayName: String

    public init(id: String, email: String? = nil, phone: String? = nil, displayName: String) {
        self.id = id
        self.email = email
        self.phone = phone
        self.displayName = displayName
    }
}

/// A member's role in a group (DESIGN §4): what they may do there.
public enum Role: String, Codable, Hashable, Sendable, CaseIterable {
    case owner
    case admin
    case member
    case viewer
}

/// A group of people sharing costs, as the caller sees it.
public struct Group: Codable, Hashable, Sendable {
    /// The group's id (a UUID, lower case).
    public var id: String
    public var name: String
    /// Free text; empty when none was given.
    public var description: String
    /// The ISO 4217 code balances can be shown in (e.g. `JPY`).
    public var homeCurrency: String
    /// The group's IANA time zone ("Asia/Tokyo"): its "today". Nil only in copies saved before
    /// servers had time zones; read it as UTC.
    public var timeZone: String?
    /// The owner's user id.
    public var ownerId: String
    /// Only for the owner and admins; nil when joining by code is disabled.
    public var inviteCode: String?
    public var isArchived: Bool
    /// The caller's member in this group.
    public var myMemberId: String
    /// The caller's role in this group.
    public var myRole: Role
    /// Grows by one with every change.
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, name: String, description: String, homeCurrency: String, timeZone: String? = nil,
        ownerId: String, inviteCode: String? = nil, isArchived: Bool, myMemberId: String, myRole: Role,
        version: Int64, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.homeCurrency = homeCurrency
        self.timeZone = timeZone
        self.ownerId = ownerId
        self.inviteCode = inviteCode
        self.isArchived = isArchived
        self.myMemberId = myMemberId
        self.myRole = myRole
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Someone in a group: linked to an account, or a name only (a friend without the app).
public struct Member: Codable, Hashable, Sendable {
    /// The member's id (a UUID, lower case); expenses and settlements name members by it.
    public var id: String
    public var groupId: String
    /// The linked account; nil for a name-only member.
    public var userId: String?
    public var name: String
    public var role: Role
    public var canAddExpenses: Bool
    public var canEditOwnExpenses: Bool
    public var canEditAllExpenses: Bool
    public var canMarkPaid: Bool
    /// False once the member was removed from the group (their past expenses stay).
    public var active: Bool
    /// True when they are not active because they left the group themselves (false when an owner
    /// or admin removed them; nil from a copy kept before servers said).
    public var leftThemselves: Bool?
    /// Grows by one with every change.
    public var version: Int64
    public var updatedAt: Date

    public init(
        id: String, groupId: String, userId: String? = nil, name: String, role: Role, canAddExpenses: Bool,
        canEditOwnExpenses: Bool, canEditAllExpenses: Bool, canMarkPaid: Bool, active: Bool, leftThemselves: Bool? = nil,
        version: Int64, updatedAt: Date
    ) {
        self.id = id
        self.groupId = groupId
        self.userId = userId
        self.name = name
        self.role = role
        self.canAddExpenses = canAddExpenses
        self.canEditOwnExpenses = canEditOwnExpenses
        self.canEditAllExpenses = canEditAllExpenses
        self.canMarkPaid = canMarkPaid
        self.active = active
        self.leftThemselves = leftThemselves
        self.version = version
        self.updatedAt = updatedAt
    }

    /// The name where people are listed: "Ben (left)", "Cho (removed)" once gone.
    public var label: String { MemberLabel.name(name, active: active, left: leftThemselves == true) }

    /// In "everyone", the split of an expense that names none: active and not a viewer (a
    /// viewer watches; named in a split, they share it like anyone), as the server decides.
    public var sharesByDefault: Bool { active && role != .viewer }
}
