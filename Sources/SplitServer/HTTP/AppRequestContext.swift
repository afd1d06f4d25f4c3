import Foundation
import Hummingbird
import Logging
import NIOCore

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
    var authorization: String?
    var userAgent: String?
    var logger: Logger

    @TaskLocal static var current: RequestInfo?
}
