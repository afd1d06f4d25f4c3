import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The member operations of the API: wire in, one `MemberUseCases` call, wire out (STYLE §8).
extension APIHandler {
    func listMembers(_ input: Operations.ListMembers.Input) async throws -> Operations.ListMembers.Output {
        let caller = try await authenticate()
        let members = try await memberUseCases.members(
            groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(members: members.map(Components.Schemas.Member.init)))))
    }

    func addMember(_ input: Operations.AddMember.Input) async throws -> Operations.AddMember.Output {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let member = try await memberUseCases.add(
            name: body.name, id: body.id, groupID: groupID, caller: caller, origin: try request.origin)
        return .created(.init(body: .json(.init(member: .init(member)))))
    }

    func updateMember(_ input: Operations.UpdateMember.Input) async throws -> Operations.UpdateMember.Output {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let member = try await memberUseCases.update(
            input.path.memberId,
            MemberPatch(
                name: body.name, role: body.role?.role, canAddExpenses: body.canAddExpenses,
                canEditOwnExpenses: body.canEditOwnExpenses, canEditAllExpenses: body.canEditAllExpenses,
                canMarkPaid: body.canMarkPaid, active: body.active, version: body.version),
            groupID: groupID, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(member: .init(member)))))
    }

    func removeMember(_ input: Operations.RemoveMember.Input) async throws -> Operations.RemoveMember.Output {
        let caller = try await authenticate()
        let member = try await memberUseCases.remove(
            input.path.memberId, groupID: try Self.id(input.path.groupId, "group"),
            confirmBalance: input.query.confirmBalance ?? false, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(member: .init(member)))))
    }

    func listClaims(_ input: Operations.ListClaims.Input) async throws -> Operations.ListClaims.Output {
        let caller = try await authenticate()
        let claims = try await memberUseCases.claims(groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(claims: claims.map(Components.Schemas.Claim.init)))))
    }

    func approveClaim(_ input: Operations.ApproveClaim.Input) async throws -> Operations.ApproveClaim.Output {
        let caller = try await authenticate()
        let member = try await memberUseCases.approveClaim(
            input.path.memberId, groupID: try Self.id(input.path.groupId, "group"), caller: caller,
            origin: try request.origin)
        return .ok(.init(body: .json(.init(member: .init(member)))))
    }

    func rejectClaim(_ input: Operations.RejectClaim.Input) async throws -> Operations.RejectClaim.Output {
        let caller = try await authenticate()
        try await memberUseCases.rejectClaim(
            input.path.memberId, groupID: try Self.id(input.path.groupId, "group"), caller: caller,
            origin: try request.origin)
        return .noContent(.init())
    }
}

extension Components.Schemas.Claim {
    init(_ claim: MemberClaim) {
        self.init(
            memberId: claim.memberID.text, memberName: claim.memberName, userId: claim.userID.text,
            userName: claim.userName, userEmail: claim.userEmail, requestedAt: Date(milliseconds: claim.requestedAt))
    }
}
