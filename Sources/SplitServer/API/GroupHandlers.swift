import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

extension APIHandler {
    func listGroups(_ input: Operations.ListGroups.Input) async throws -> Operations.ListGroups.Output {
        let caller = try await authenticate()
        let mine = try await groups.groups(ofUser: caller.user.id)
        return .ok(.init(body: .json(.init(groups: mine.map { .init($0.group, me: $0.member) }))))
    }

    func createGroup(_ input: Operations.CreateGroup.Input) async throws -> Operations.CreateGroup.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let id = try Self.clientID(body.id)
        let current = now()
        let group = GroupRecord(
            id: id, name: try Self.name(body.name, field: "name"),
            description: try Self.groupDescription(body.description),
            homeCurrency: try Self.currency(body.homeCurrency, field: "homeCurrency"), ownerUserID: caller.user.id,
            inviteCode: InviteCode.generate(), createdAt: current, updatedAt: current)
        let memberName = try Self.optional(body.memberName).map { try Self.name($0, field: "memberName") }
        do {
            let (stored, owner) = try await groups.createGroup(group, ownerName: memberName ?? caller.user.displayName)
            return .created(.init(body: .json(.init(group: .init(stored, me: owner)))))
        } catch  where Database.isUniqueViolation(error) {
            // A retry of a create that went through (DESIGN §5): the same id and content answer
            // as the first time did; anything else is a clash of ids.
            if let existing = try await groups.group(id: id), existing.ownerUserID == caller.user.id,
                existing.name == group.name, existing.description == group.description,
                existing.homeCurrency == group.homeCurrency,
                let me = try await groups.membership(groupID: id, userID: caller.user.id), me.isActive
            {
                return .created(.init(body: .json(.init(group: .init(existing, me: me)))))
            }
            throw APIError.conflict(field: "id", message: "A group with that id exists already.")
        }
    }

    func getGroup(_ input: Operations.GetGroup.Input) async throws -> Operations.GetGroup.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .read)
        return .ok(.init(body: .json(.init(group: .init(group, me: me)))))
    }

    func updateGroup(_ input: Operations.UpdateGroup.Input) async throws -> Operations.UpdateGroup.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .updateGroup)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let name = try body.name.map { try Self.name($0, field: "name") } ?? group.name
        let description = try body.description.map { try Self.groupDescription($0) } ?? group.description
        let currency = try body.homeCurrency.map { try Self.currency($0, field: "homeCurrency") } ?? group.homeCurrency
        switch try await groups.updateGroup(
            id: group.id, name: name, description: description, homeCurrency: currency,
            // Without a version the edit is based on the state just read (and checked against).
            expectedVersion: body.version ?? group.version, actor: try actor(caller, me, for: .updateGroup),
            now: now())
        {
        case .written(let stored):
            return .ok(.init(body: .json(.init(group: .init(stored, me: me)))))
        case .stale(let current):
            throw try APIError.stale(Components.Schemas.Group(current, me: me))
        case nil:
            throw APIError.notFound("group")
        }
    }

    func archiveGroup(_ input: Operations.ArchiveGroup.Input) async throws -> Operations.ArchiveGroup.Output {
        .ok(.init(body: .json(try await setArchived(input.path.groupId, true))))
    }

    func unarchiveGroup(_ input: Operations.UnarchiveGroup.Input) async throws -> Operations.UnarchiveGroup.Output {
        .ok(.init(body: .json(try await setArchived(input.path.groupId, false))))
    }

    private func setArchived(_ groupID: String, _ isArchived: Bool) async throws -> Components.Schemas.GroupResponse {
        let caller = try await authenticate()
        let (group, me) = try await access(groupID, as: caller, for: .archiveOrTransferOwnership)
        guard group.isArchived != isArchived else { return .init(group: .init(group, me: me)) }
        guard
            let stored = try await groups.setArchived(
                groupID: group.id, isArchived, actor: try actor(caller, me, for: .archiveOrTransferOwnership),
                now: now())
        else {
            throw APIError.notFound("group")
        }
        return .init(group: .init(stored, me: me))
    }

    func rotateInviteCode(_ input: Operations.RotateInviteCode.Input) async throws -> Operations.RotateInviteCode.Output
    {
        .ok(.init(body: .json(try await setInviteCode(input.path.groupId, InviteCode.generate()))))
    }

    func disableInviteCode(
        _ input: Operations.DisableInviteCode.Input
    ) async throws -> Operations.DisableInviteCode.Output {
        .ok(.init(body: .json(try await setInviteCode(input.path.groupId, nil))))
    }

    private func setInviteCode(_ groupID: String, _ code: String?) async throws -> Components.Schemas.GroupResponse {
        let caller = try await authenticate()
        let (group, me) = try await access(groupID, as: caller, for: .manageMembers(targetIsOwner: false))
        try await groups.setInviteCode(
            groupID: group.id, code: code, actor: try actor(caller, me, for: .manageMembers(targetIsOwner: false)),
            now: now())
        guard let stored = try await groups.group(id: group.id) else { throw APIError.notFound("group") }
        return .init(group: .init(stored, me: me))
    }

    func transferOwnership(
        _ input: Operations.TransferOwnership.Input
    ) async throws -> Operations.TransferOwnership.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .archiveOrTransferOwnership)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard let target = UUID(uuidString: body.memberId) else {
            throw APIError.invalid(field: "memberId", "memberId is not a member id.")
        }
        if target != me.id {
            do {
                try await groups.transferOwnership(
                    groupID: group.id, from: caller.user.id, to: target,
                    actor: try actor(caller, me, for: .archiveOrTransferOwnership), now: now())
            } catch GroupStoreError.notOwner {
                throw APIError.forbidden("Only the owner can hand the group over.")
            } catch GroupStoreError.notFound {
                throw APIError.invalid(field: "memberId", "There is no such member in this group.")
            } catch GroupStoreError.ownerMustHaveAccount {
                throw APIError.invalid(field: "memberId", "The new owner must be an active member with an account.")
            }
        }
        guard let stored = try await groups.group(id: group.id),
            let myself = try await groups.membership(groupID: group.id, userID: caller.user.id)
        else { throw APIError.notFound("group") }
        return .ok(.init(body: .json(.init(group: .init(stored, me: myself)))))
    }

    /// What an invite code opens, for a logged-in user deciding to join: the group's name and
    /// the members without an account, one of whom they may be. Whoever has the code may see
    /// this much; nil for a code that opens nothing.
    func invitation(code text: String) async throws -> (name: String, claimable: [MemberRecord])? {
        _ = try await authenticate()
        let code = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !code.isEmpty, code.utf8.count <= 100, let group = try await groups.group(inviteCode: code) else {
            return nil
        }
        let members = try await groups.members(groupID: group.id)
        return (group.name, members.filter { $0.isActive && $0.userID == nil })
    }

    func joinGroup(_ input: Operations.JoinGroup.Input) async throws -> Operations.JoinGroup.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        // Codes are typed from chat messages: case does not matter, anything else is no code of ours.
        let code = body.inviteCode.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let claim = try body.memberId.map { text in
            guard let id = UUID(uuidString: text) else {
                throw APIError.invalid(field: "memberId", "memberId is not a member id.")
            }
            return id
        }
        let name = try Self.optional(body.name).map { try Self.name($0, field: "name") } ?? caller.user.displayName
        let isCodeText = code.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        guard !code.isEmpty, code.utf8.count <= 100, isCodeText else { throw APIError.notFound("invite code") }
        do {
            let (group, member) = try await groups.join(
                inviteCode: code, userID: caller.user.id, name: name, claimMemberID: claim, now: now())
            return .ok(.init(body: .json(.init(group: .init(group, me: member), member: .init(member)))))
        } catch GroupStoreError.notFound {
            throw claim == nil
                ? APIError.notFound("invite code")
                : APIError(
                    .notFound, code: "not_found", message: "No such invite code, or no such member in that group.")
        } catch GroupStoreError.memberAlreadyClaimed {
            throw APIError.conflict(field: "memberId", message: "That member is linked to another account already.")
        }
    }

    /// An optional client-generated id (DESIGN §5); a new one when absent.
    static func clientID(_ text: String?) throws -> UUID {
        guard let text else { return UUID() }
        guard let id = UUID(uuidString: text) else { throw APIError.invalid(field: "id", "id is not a UUID.") }
        return id
    }

    static func groupDescription(_ text: String?) throws -> String {
        let description = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard description.unicodeScalars.count <= 1_000,
            !AccountInput.containsControlCharacters(description, allowingLineBreaks: true)
        else {
            throw APIError.invalid(
                field: "description", "A description has at most 1,000 characters and no control characters.")
        }
        return description
    }

    static func currency(_ code: String, field: String) throws -> String {
        do {
            return try Currency(code: code).code
        } catch {
            throw APIError.invalid(field: field, "\"\(code.prefix(20))\" is not an ISO 4217 currency code.")
        }
    }
}

extension APIError {
    /// 409 for an edit based on an old version: nothing was written; `details.current` is the
    /// stored state to merge with (DESIGN §5).
    static func stale(_ current: some Encodable) throws -> APIError {
        .conflict(
            field: "version", message: "Someone changed this since you loaded it; nothing was saved.",
            current: try JSONValue(encoding: current))
    }
}
