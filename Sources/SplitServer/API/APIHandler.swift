import Foundation
import HTTPTypes
import Logging
import SplitAPI
import SplitCore
import SplitStore

/// Implements the generated `APIProtocol`: each handler decodes, calls the store, maps to the
/// wire type (STYLE §8). Failures are thrown as `APIError`s and rendered by `ErrorEnvelopeMiddleware`.
struct APIHandler: APIProtocol {
    let database: Database
    let accounts: AccountStore
    let groups: GroupStore
    let expenses: ExpenseStore
    let settlements: SettlementStore
    let categories: CategoryStore
    let balances: BalanceStore
    let log: GroupLogStore
    let idempotency: IdempotencyStore
    let limiter: RateLimiter
    let passwords: PasswordHasher
    let configuration: ServerConfiguration
    /// Compared against when the account does not exist, so both answers take one bcrypt's time.
    let unknownAccountHash: String
    let now: @Sendable () -> Int64

    static let sessionLifetime: Int64 = 30 * 24 * 3_600 * 1_000

    var request: RequestInfo {
        get throws {
            guard let info = RequestInfo.current else {
                throw APIError.internalError  // every route runs under RequestInfoMiddleware
            }
            return info
        }
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        do {
            try await database.ping()
            return .ok(.init(body: .json(.init(status: .ok, database: database.backend.rawValue))))
        } catch {
            try request.logger.error("health check failed", metadata: ["error": "\(String(reflecting: error))"])
            return .serviceUnavailable(
                .init(body: .json(.init(status: .unavailable, database: database.backend.rawValue))))
        }
    }
}

/// A logged-in request: the user and the session its token belongs to. Handlers that need a
/// user get one of these from `authenticate()`; there is no other way to make one (STYLE §10).
struct Caller: Sendable {
    let user: UserRecord
    let session: SessionRecord
}

extension APIHandler {
    /// The caller behind the bearer token, or a 401 with `WWW-Authenticate` (never a 403: an
    /// expired or revoked token means "log in again", DESIGN §5).
    func authenticate() async throws -> Caller {
        guard let header = try request.authorization else { throw APIError.unauthenticated(invalidToken: false) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", (20...200).contains(parts[1].count) else {
            throw APIError.unauthenticated(invalidToken: true)
        }
        guard
            let (session, user) = try await accounts.authenticate(
                tokenHash: SessionToken.hash(String(parts[1])), now: now())
        else { throw APIError.unauthenticated(invalidToken: true) }
        return Caller(user: user, session: session)
    }

    /// The group and the caller's membership, when `action` is allowed (`WriteGrant.refusal`,
    /// DESIGN §4): a non-member gets a 404 exactly like an unknown or malformed id, a member
    /// without the right a 403, a change to an archived group a 409.
    func access(
        _ groupID: String, as caller: Caller, for action: GroupAction
    ) async throws -> (group: GroupRecord, me: MemberRecord) {
        guard let id = UUID(uuidString: groupID),
            let me = try await groups.membership(groupID: id, userID: caller.user.id),
            let group = try await groups.group(id: id)
        else { throw APIError.notFound("group") }
        try Self.require([action], me, in: group)
        return (group, me)
    }

    /// The same decision for actions known only once the request's target has been read.
    static func require(_ actions: [GroupAction], _ me: MemberRecord, in group: GroupRecord) throws {
        if let refusal = WriteGrant.refusal(for: actions, by: me.membership, groupIsArchived: group.isArchived) {
            throw APIError(refusal)
        }
    }
}
