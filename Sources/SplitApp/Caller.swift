import Crypto
import Foundation
import SplitCore
import SplitStore
import Synchronization

/// A logged-in request: the user and the session its token belongs to. Resolved once per request
/// (`CallerResolver`, run by the server's middleware) and handed to every use case; there is no
/// other way to make one (STYLE §10).
public struct Caller: Sendable {
    public let user: UserRecord
    public let session: SessionRecord

    init(user: UserRecord, session: SessionRecord) {
        self.user = user
        self.session = session
    }

    /// What a personal access token may do; nil for a login, which may do all its account may.
    public var token: TokenAccess? { session.access }

    /// Whether the caller's credentials reach this group (a token may be limited to some).
    public func reaches(_ groupID: UUID) -> Bool { token?.reaches(groupID) ?? true }

    /// Refuses a token limited to some groups what spans the whole account (a new group, the
    /// inbox, totals across groups): it must not learn of or act in the others.
    public func requireWholeAccount() throws {
        if token?.groupIDs != nil {
            throw AppError.forbiddenBecause(
                "This access token reaches only some of your groups; this needs a token for all of them.")
        }
    }

    /// Refuses a read-only token a write (wherever the write is reached from: a route, an MCP
    /// tool, the assistant).
    public func requireWrite() throws {
        if let token, !token.canWrite { throw AppError.forbiddenBecause("This access token may only read.") }
    }

    /// Refuses any token what only a login may do: the password, logins, tokens, the account.
    public func requireLogin() throws {
        if token != nil {
            throw AppError.forbiddenBecause("An access token cannot manage the account, its logins or its tokens; log in.")
        }
    }
}

/// Where a request came from, for the audit trail: owners and admins see it in a share's
/// payment history (DESIGN §4).
public struct RequestOrigin: Sendable {
    public var clientAddress: String?
    public var userAgent: String?

    public init(clientAddress: String?, userAgent: String?) {
        self.clientAddress = clientAddress
        self.userAgent = userAgent
    }
}

/// Turns a session token into the caller behind it: the one session look-up a request makes,
/// whether it came with a bearer token (API) or a cookie (web).
public struct CallerResolver: Sendable {
    let accounts: AccountStore
    let now: @Sendable () -> Int64
    let counter: SessionLookupCounter?
    let writes: WriteThrottle?

    public init(
        accounts: AccountStore, now: @escaping @Sendable () -> Int64, counter: SessionLookupCounter? = nil,
        writes: WriteThrottle? = nil
    ) {
        self.accounts = accounts
        self.now = now
        self.counter = counter
        self.writes = writes
    }

    /// The caller, or nil when the token is unknown, expired or revoked, or its account is
    /// deactivated. A request that writes (`isWrite`) is counted against the caller's writes per
    /// minute, and refused with `AppError.rateLimited` past them, before anything runs.
    public func resolve(token: String, isWrite: Bool = false) async throws -> Caller? {
        counter?.count.add(1, ordering: .relaxed)
        guard let (session, user) = try await accounts.authenticate(tokenHash: SessionToken.hash(token), now: now())
        else { return nil }
        let caller = Caller(user: user, session: session)
        if isWrite {
            try caller.requireWrite()
            try writes?.spend(user.id)
        }
        return caller
    }

    /// Counts one write of a caller resolved without one (an MCP tool call or an assistant
    /// turn that writes), refused with `AppError.rateLimited` past the writes per minute.
    public func spendWrite(_ caller: Caller) throws {
        try writes?.spend(caller.user.id)
    }
}

/// How many session look-ups a server has made: tests use it to show a request makes one.
public final class SessionLookupCounter: Sendable {
    let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .relaxed) }
}

/// Session tokens (DESIGN §4): 256 random bits for the client, only their SHA-256 for the database.
public enum SessionToken {
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        Hex.string(SHA256.hash(data: Data(token.utf8)))
    }
}
