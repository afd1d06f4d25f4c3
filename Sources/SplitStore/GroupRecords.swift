import Foundation
import SQLKit
import SplitCore

/// A group row. `inviteCode` nil means joining by code is disabled.
public struct GroupRecord: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var description: String
    public var homeCurrency: String
    /// An IANA time zone ("Asia/Tokyo"): the group's "today" and the times its pages show.
    public var timeZone: String
    public var ownerUserID: UUID
    public var inviteCode: String?
    public var isArchived: Bool
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, name: String, description: String = "", homeCurrency: String, timeZone: String = "UTC",
        ownerUserID: UUID, inviteCode: String?, isArchived: Bool = false, version: Int64 = 1, createdAt: Int64,
        updatedAt: Int64
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.homeCurrency = homeCurrency
        self.timeZone = timeZone
        self.ownerUserID = ownerUserID
        self.inviteCode = inviteCode
        self.isArchived = isArchived
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A member row: a person in a group, linked to an account or a name only.
public struct MemberRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: UUID
    public var userID: UUID?
    public var name: String
    public var role: Role
    public var canAddExpenses: Bool
    public var canEditOwnExpenses: Bool
    public var canEditAllExpenses: Bool
    public var canMarkPaid: Bool
    public var isActive: Bool
    /// Not active because they left the group themselves (false when removed by an owner or
    /// admin, and once back): "Ben (left)", not "Ben (removed)" (found by a new user).
    public var hasLeft: Bool
    public var version: Int64
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, groupID: UUID, userID: UUID?, name: String, role: Role, canAddExpenses: Bool = true,
        canEditOwnExpenses: Bool = true, canEditAllExpenses: Bool = false, canMarkPaid: Bool = true,
        isActive: Bool = true, hasLeft: Bool = false, version: Int64 = 1, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.groupID = groupID
        self.userID = userID
        self.name = name
        self.role = role
        self.canAddExpenses = canAddExpenses
        self.canEditOwnExpenses = canEditOwnExpenses
        self.canEditAllExpenses = canEditAllExpenses
        self.canMarkPaid = canMarkPaid
        self.isActive = isActive
        self.hasLeft = hasLeft
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The facts the permission table needs (SplitCore `Permissions`).
    public var membership: Membership {
        Membership(
            role: role, canAddExpenses: canAddExpenses, canEditOwnExpenses: canEditOwnExpenses,
            canEditAllExpenses: canEditAllExpenses, canMarkPaid: canMarkPaid, isActive: isActive)
    }
}

/// Why a group write was refused; the server maps each to its status.
/// The outcome of a write that carries the version it was based on (DESIGN §5).
public enum VersionedWrite<Record: Sendable>: Sendable {
    case written(Record)
    /// The stored row changed since that version; nothing was written. Holds the current row.
    case stale(Record)
}

public enum GroupStoreError: Error, Equatable, Sendable {
    /// Unknown invite code, unknown or foreign id: 404, whichever it is.
    case notFound
    /// The member to claim is linked to an account already, or was removed: 409.
    case memberAlreadyClaimed
    /// Someone else asked to be that member and an owner or admin has not decided yet: 409.
    case claimWaiting
    /// The new owner must be an active member with an account: 422.
    case ownerMustHaveAccount
    /// Only the current owner hands a group over (someone else may have just taken it): 403.
    case notOwner
    /// Joining as someone new under the name of an active member without an account (the name
    /// as that member has it): 409; the joiner claims that member or picks another name.
    case nameOfNameOnlyMember(String)
    /// Joining as someone new under the name of an active member with an account: 409; the
    /// joiner picks another name.
    case nameTaken(String)
}

extension GroupRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String.self),
            homeCurrency: try row.decode(column: "home_currency", as: String.self),
            timeZone: try row.decode(column: "time_zone", as: String.self),
            ownerUserID: try row.decodeUUID("owner_user_id"),
            inviteCode: try row.decode(column: "invite_code", as: String?.self),
            isArchived: try row.decode(column: "is_archived", as: Bool.self),
            version: try row.decode(column: "version", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self)
        )
    }
}

extension MemberRecord {
    /// The columns of `members`, for queries that select them under a prefix.
    static let columns = [
        "id", "group_id", "user_id", "name", "role", "can_add_expenses", "can_edit_own_expenses",
        "can_edit_all_expenses", "can_mark_paid", "is_active", "has_left", "version", "created_at", "updated_at",
    ]

    init(row: any SQLRow, prefix p: String = "") throws {
        let roleText = try row.decode(column: p + "role", as: String.self)
        guard let role = Role(rawValue: roleText) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown role \(roleText)"))
        }
        let userText = try row.decode(column: p + "user_id", as: String?.self)
        self.init(
            id: try row.decodeUUID(p + "id"),
            groupID: try row.decodeUUID(p + "group_id"),
            userID: userText.flatMap(UUID.init(uuidString:)),
            name: try row.decode(column: p + "name", as: String.self),
            role: role,
            canAddExpenses: try row.decode(column: p + "can_add_expenses", as: Bool.self),
            canEditOwnExpenses: try row.decode(column: p + "can_edit_own_expenses", as: Bool.self),
            canEditAllExpenses: try row.decode(column: p + "can_edit_all_expenses", as: Bool.self),
            canMarkPaid: try row.decode(column: p + "can_mark_paid", as: Bool.self),
            isActive: try row.decode(column: p + "is_active", as: Bool.self),
            hasLeft: try row.decode(column: p + "has_left", as: Bool.self),
            version: try row.decode(column: p + "version", as: Int64.self),
            createdAt: try row.decode(column: p + "created_at", as: Int64.self),
            updatedAt: try row.decode(column: p + "updated_at", as: Int64.self)
        )
    }
}
