import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The group operations of the API: wire in, one `GroupUseCases` call, wire out (STYLE §8).
extension APIHandler {
    func listGroups(_ input: Operations.ListGroups.Input) async throws -> Operations.ListGroups.Output {
        let caller = try await authenticate()
        let mine = try await groupUseCases.groups(of: caller)
        return .ok(.init(body: .json(.init(groups: mine.map { .init($0.group, me: $0.me) }))))
    }

    func createGroup(_ input: Operations.CreateGroup.Input) async throws -> Operations.CreateGroup.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let view = try await groupUseCases.create(
            EnteredGroup(
                id: body.id, name: body.name, description: body.description, homeCurrency: body.homeCurrency,
                timeZone: body.timeZone, memberName: body.memberName, kind: body.kind?.rawValue), caller: caller)
        return .created(.init(body: .json(.init(view))))
    }

    func getGroup(_ input: Operations.GetGroup.Input) async throws -> Operations.GetGroup.Output {
        let caller = try await authenticate()
        return .ok(
            .init(
                body: .json(
                    .init(try await groupUseCases.group(try Self.id(input.path.groupId, "group"), caller: caller)))))
    }

    func updateGroup(_ input: Operations.UpdateGroup.Input) async throws -> Operations.UpdateGroup.Output {
        let caller = try await authenticate()
        let id = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let view = try await groupUseCases.update(
            id,
            GroupPatch(
                name: body.name, description: body.description, homeCurrency: body.homeCurrency,
                timeZone: body.timeZone, version: body.version),
            caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(view))))
    }

    func archiveGroup(_ input: Operations.ArchiveGroup.Input) async throws -> Operations.ArchiveGroup.Output {
        .ok(.init(body: .json(try await setArchived(input.path.groupId, true))))
    }

    func unarchiveGroup(_ input: Operations.UnarchiveGroup.Input) async throws -> Operations.UnarchiveGroup.Output {
        .ok(.init(body: .json(try await setArchived(input.path.groupId, false))))
    }

    private func setArchived(_ groupID: String, _ isArchived: Bool) async throws -> Components.Schemas.GroupResponse {
        let caller = try await authenticate()
        return .init(
            try await groupUseCases.setArchived(
                try Self.id(groupID, "group"), isArchived, caller: caller, origin: try request.origin))
    }

    func rotateInviteCode(_ input: Operations.RotateInviteCode.Input) async throws -> Operations.RotateInviteCode.Output
    {
        .ok(.init(body: .json(try await setInviteCode(input.path.groupId, enabled: true))))
    }

    func disableInviteCode(
        _ input: Operations.DisableInviteCode.Input
    ) async throws -> Operations.DisableInviteCode.Output {
        .ok(.init(body: .json(try await setInviteCode(input.path.groupId, enabled: false))))
    }

    private func setInviteCode(_ groupID: String, enabled: Bool) async throws -> Components.Schemas.GroupResponse {
        let caller = try await authenticate()
        return .init(
            try await groupUseCases.setInviteCode(
                try Self.id(groupID, "group"), enabled: enabled, caller: caller, origin: try request.origin))
    }

    func transferOwnership(
        _ input: Operations.TransferOwnership.Input
    ) async throws -> Operations.TransferOwnership.Output {
        let caller = try await authenticate()
        let id = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let view = try await groupUseCases.transferOwnership(
            id, to: body.memberId, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(view))))
    }

    /// What an invite code opens (the web's join page): the group's name and the members without
    /// an account; nil for a code that opens nothing.
    func joinGroup(_ input: Operations.JoinGroup.Input) async throws -> Operations.JoinGroup.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        switch try await groupUseCases.join(
            code: body.inviteCode, memberId: body.memberId, memberName: body.memberName, name: body.name,
            caller: caller, origin: try request.origin)
        {
        case .joined(let view):
            return .ok(.init(body: .json(.init(group: .init(view.group, me: view.me), member: .init(view.me)))))
        case .pending(let groupName, let claim):
            return .accepted(
                .init(
                    body: .json(
                        .init(
                            groupName: groupName, memberName: claim.memberName,
                            requestedAt: Date(milliseconds: claim.requestedAt)))))
        }
    }
}

extension Components.Schemas.GroupResponse {
    init(_ view: GroupView) { self.init(group: .init(view.group, me: view.me)) }
}
