import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import SplitAPI
import SplitStore
import SplitTestSupport
import Testing

/// The spec served at /openapi.yaml matches what the server does: every operation is called
/// through the client generated from that spec, against the real binary, and each answer must
/// decode as the documented response — an undocumented status or a body that does not match the
/// schema fails the test.
@Suite("The server answers as its OpenAPI spec says")
struct SpecConformanceTests {
    struct Bearer: ClientMiddleware {
        let token: String
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.authorization] = "Bearer \(token)"
            return try await next(request, body, baseURL)
        }
    }

    @Test("every operation through the generated client, success and error answers")
    func everyOperation() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            do {
                try await Self.run(server.baseURL)
            } catch {
                _ = try? await server.stop()
                Issue.record("server log:\n\(server.log)")
                throw error
            }
            _ = try await server.stop()
        }
    }

    static func run(_ base: URL) async throws {
        let anonymous = Client(serverURL: base, transport: URLSessionTransport())
        #expect(try await anonymous.getHealth().ok.body.json.status == .ok)

        // Accounts.
        let aki = try await anonymous.register(
            body: .json(.init(email: "aki@example.com", password: "correct horse", displayName: "Aki"))
        ).created.body.json
        let ben = try await anonymous.register(
            body: .json(.init(phone: "+60 12 345 6789", password: "correct horse", displayName: "Ben"))
        ).created.body.json
        let akiClient = Client(
            serverURL: base, transport: URLSessionTransport(), middlewares: [Bearer(token: aki.token)])
        let benClient = Client(
            serverURL: base, transport: URLSessionTransport(), middlewares: [Bearer(token: ben.token)])
        let second = try await anonymous.login(
            body: .json(.init(emailOrPhone: "aki@example.com", password: "correct horse"))
        )
        .ok.body.json
        #expect(try await akiClient.getMe().ok.body.json.user.id == aki.user.id)
        #expect(try await akiClient.listSessions().ok.body.json.sessions.count == 2)
        _ = try await akiClient.revokeSession(path: .init(sessionId: second.sessionId)).noContent
        _ = try await akiClient.changePassword(
            body: .json(.init(currentPassword: "correct horse", newPassword: "battery staple"))
        ).noContent

        // Groups and members.
        let group = try await akiClient.createGroup(body: .json(.init(name: "Japan", homeCurrency: "JPY"))).created.body
            .json
            .group
        let groupPath = Operations.GetGroup.Input.Path(groupId: group.id)
        #expect(try await akiClient.listGroups().ok.body.json.groups.map(\.id) == [group.id])
        _ = try await akiClient.getGroup(path: groupPath).ok
        _ = try await akiClient.updateGroup(
            path: .init(groupId: group.id), body: .json(.init(name: "Japan 2026", version: group.version))
        ).ok
        let code = try #require(
            try await akiClient.rotateInviteCode(path: .init(groupId: group.id)).ok.body.json.group.inviteCode)
        let joined = try await benClient.joinGroup(body: .json(.init(inviteCode: code))).ok.body.json
        let dan = try await akiClient.addMember(path: .init(groupId: group.id), body: .json(.init(name: "Dan")))
            .created.body.json.member
        _ = try await akiClient.updateMember(
            path: .init(groupId: group.id, memberId: joined.member.id), body: .json(.init(role: .admin))
        ).ok
        #expect(try await benClient.listMembers(path: .init(groupId: group.id)).ok.body.json.members.count == 3)
        _ = try await akiClient.removeMember(path: .init(groupId: group.id, memberId: dan.id)).ok
        _ = try await akiClient.disableInviteCode(path: .init(groupId: group.id)).ok
        _ = try await akiClient.archiveGroup(path: .init(groupId: group.id)).ok
        _ = try await akiClient.unarchiveGroup(path: .init(groupId: group.id)).ok
        let moved = try await akiClient.transferOwnership(
            path: .init(groupId: group.id), body: .json(.init(memberId: joined.member.id))
        ).ok.body.json.group
        #expect(moved.ownerId == ben.user.id)

        // Errors come back as the documented envelope.
        let missing = try await akiClient.getGroup(path: .init(groupId: UUID().uuidString))
        guard case .default(let status, let payload) = missing else {
            Issue.record("an unknown group is not the documented error: \(missing)")
            return
        }
        let missingCode = try payload.body.json.error.code
        #expect(status == 404 && missingCode == "not_found")
        let refused = try await anonymous.login(
            body: .json(.init(emailOrPhone: "aki@example.com", password: "nope nope")))
        guard case .default(401, let envelope) = refused else {
            Issue.record("a wrong password is not the documented 401: \(refused)")
            return
        }
        let refusedCode = try envelope.body.json.error.code
        #expect(refusedCode == "invalid_credentials")
        _ = try await benClient.logout().noContent
        guard case .default(401, _) = try await benClient.getMe() else {
            Issue.record("a logged-out token still works")
            return
        }
    }
}
