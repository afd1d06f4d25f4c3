import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

extension APIHandler {
    func listMembers(_ input: Operations.ListMembers.Input) async throws -> Operations.ListMembers.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let members = try await groups.members(groupID: group.id)
        return .ok(.init(body: .json(.init(members: members.map(Components.Schemas.Member.init)))))
    }

    func addMember(_ input: Operations.AddMember.Input) async throws -> Operations.AddMember.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .manageMembers(targetIsOwner: false))
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let current = now()
        let member = MemberRecord(
            id: try Self.clientID(body.id), groupID: group.id, userID: nil,
            name: try Self.name(body.name, field: "name"),
            role: .member, createdAt: current, updatedAt: current)
        do {
            try await groups.addMember(member, actor: try actor(caller, me, for: .manageMembers(targetIsOwner: false)))
        } catch  where Database.isUniqueViolation(error) {
            // A retry of an add that went through answers as the first time did (DESIGN §5).
            if let existing = try await groups.member(id: member.id, groupID: group.id), existing.name == member.name {
                return .created(.init(body: .json(.init(member: .init(existing)))))
            }
            throw APIError.conflict(field: "id", message: "A member with that id exists already.")
        }
        return .created(.init(body: .json(.init(member: .init(member)))))
    }

    func updateMember(_ input: Operations.UpdateMember.Input) async throws -> Operations.UpdateMember.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .read)
        let target = try await member(input.path.memberId, in: group)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }

        var updated = target
        if let name = body.name { updated.name = try Self.name(name, field: "name") }
        if let role = body.role { updated.role = role.role }
        updated.canAddExpenses = body.canAddExpenses ?? target.canAddExpenses
        updated.canEditOwnExpenses = body.canEditOwnExpenses ?? target.canEditOwnExpenses
        updated.canEditAllExpenses = body.canEditAllExpenses ?? target.canEditAllExpenses
        updated.canMarkPaid = body.canMarkPaid ?? target.canMarkPaid

        // Every change is checked before anything is written, so a refused request changes nothing.
        let targetIsOwner = target.role == .owner
        var needed: [GroupAction] = [.read]
        if updated.name != target.name {
            needed.append(target.id == me.id ? .renameSelf : .manageMembers(targetIsOwner: targetIsOwner))
        }
        if updated.role != target.role {
            needed.append(.changeRole(targetIsOwner: targetIsOwner, newRole: updated.role))
        }
        let flagsChanged =
            updated.canAddExpenses != target.canAddExpenses || updated.canEditOwnExpenses != target.canEditOwnExpenses
            || updated.canEditAllExpenses != target.canEditAllExpenses || updated.canMarkPaid != target.canMarkPaid
        if flagsChanged { needed.append(.manageMembers(targetIsOwner: targetIsOwner)) }
        try Self.require(needed, me, in: group)
        if let version = body.version, version != target.version {
            throw try APIError.stale(Components.Schemas.Member(target))
        }
        guard updated != target else { return .ok(.init(body: .json(.init(member: .init(target))))) }
        // Written only if the row is still what the checks above saw.
        let actor = try actor(caller, me, for: needed)
        return .ok(
            .init(body: .json(.init(member: .init(try await write(updated, basedOn: target.version, actor: actor))))))
    }

    func removeMember(_ input: Operations.RemoveMember.Input) async throws -> Operations.RemoveMember.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .read)
        let target = try await member(input.path.memberId, in: group)
        let action = GroupAction.manageMembers(targetIsOwner: target.role == .owner)
        try Self.require([action], me, in: group)
        // The group always has its one owner (DESIGN §4): hand ownership over first.
        guard target.role != .owner else {
            throw APIError.forbidden("The owner cannot be removed; transfer ownership first.")
        }
        guard target.isActive else { return .ok(.init(body: .json(.init(member: .init(target))))) }
        // Deactivated, never erased: expenses and history keep showing the name (DESIGN §4).
        var removed = target
        removed.isActive = false
        let actor = try actor(caller, me, for: [action])
        return .ok(
            .init(body: .json(.init(member: .init(try await write(removed, basedOn: target.version, actor: actor))))))
    }

    /// A member of this group by its path id; an unknown, malformed or foreign id is the same 404.
    private func member(_ text: String, in group: GroupRecord) async throws -> MemberRecord {
        guard let id = UUID(uuidString: text), let member = try await groups.member(id: id, groupID: group.id) else {
            throw APIError.notFound("member")
        }
        return member
    }

    private func write(_ member: MemberRecord, basedOn version: Int64, actor: Actor) async throws -> MemberRecord {
        switch try await groups.updateMember(member, expectedVersion: version, actor: actor, now: now()) {
        case .written(let stored): return stored
        case .stale(let current): throw try APIError.stale(Components.Schemas.Member(current))
        case nil: throw APIError.notFound("member")
        }
    }
}
