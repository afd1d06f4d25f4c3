import Foundation
import Hummingbird
import Logging
import NIOCore
import SplitApp

/// Per-request state (STYLE §10): the socket peer for rate limits and the audit trail.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}

/// What the generated API handlers need to know about the request beyond their typed input:
/// set by `RequestInfoMiddleware` for the duration of the request. The OpenAPI handler
/// signature has no context parameter, so this rides in a task local (the pattern the
/// swift-openapi-generator authentication example uses).
struct RequestInfo: Sendable {
    var requestID: String
    var clientAddress: String
    /// Who is asking, resolved once by `RequestInfoMiddleware` (bearer token) or `WebMiddleware`
    /// (session cookie).
    var caller: CallerState
    var userAgent: String?
    var logger: Logger

    /// For the audit trail of what this request writes.
    var origin: RequestOrigin { RequestOrigin(clientAddress: clientAddress, userAgent: userAgent) }

    @TaskLocal static var current: RequestInfo?
}

/// The outcome of the one session look-up a request makes.
enum CallerState: Sendable {
    /// No credentials were sent.
    case anonymous
    /// A token was sent but is malformed, unknown, expired or revoked.
    case invalid
    case signedIn(Caller)

    /// Resolves a session token (nil: none sent).
    /// A request that writes (`isWrite`) counts against the caller's writes per minute.
    static func resolve(token: String?, isWrite: Bool, with resolver: CallerResolver) async throws -> CallerState {
        guard let token else { return .anonymous }
        return try await resolver.resolve(token: token, isWrite: isWrite).map(CallerState.signedIn) ?? .invalid
    }

    /// Resolves an `Authorization` header: a bearer token of plausible length, or invalid.
    static func resolve(authorization header: String?, isWrite: Bool, with resolver: CallerResolver) async throws
        -> CallerState
    {
        guard let header else { return .anonymous }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", (20...200).contains(parts[1].count) else {
            return .invalid
        }
        return try await resolve(token: String(parts[1]), isWrite: isWrite, with: resolver)
    }
}
