import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SplitApp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a delivery could not be sent (the delivery log shows the description).
struct WebhookTransportError: Error, CustomStringConvertible {
    var description: String
}

/// The live `WebhookTransport` (issue 17): one HTTP/1.1 POST per delivery on NIO, no redirects
/// followed, at most `timeout` in all (resolving, connecting, TLS, sending, reading). It resolves
/// the host itself, refuses internal addresses unless `allowPrivate` (`WebhookAddress`), and
/// connects to the very address it checked, so a name that resolves elsewhere a moment later
/// (DNS rebinding) cannot redirect it. https verifies the certificate against the host name
/// (SNI too). It reads at most `maxResponseBytes` of the answer.
struct WebhookHTTPClient: WebhookTransport {
    let tls: NIOSSLContext
    let timeout: TimeAmount
    static let maxResponseBytes = 4_096

    init(timeout: TimeAmount = .seconds(10)) throws {
        tls = try NIOSSLContext(configuration: .makeClientConfiguration())
        self.timeout = timeout
    }

    func post(_ request: WebhookRequest, allowPrivate: Bool) async throws -> WebhookResponse {
        let deadline = NIODeadline.now() + timeout
        guard let host = request.url.host, !host.isEmpty, let scheme = request.url.scheme?.lowercased(),
            scheme == "https" || scheme == "http"
        else { throw WebhookTransportError(description: "not an http(s) URL") }
        let isTLS = scheme == "https"
        let port = request.url.port ?? (isTLS ? 443 : 80)
        let address = try await Self.resolve(host: host, port: port, allowPrivate: allowPrivate)
        let isLiteral = WebhookAddress.parse(host) != nil

        let promise = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: WebhookResponse.self)
        let tls = self.tls
        let remaining = deadline - .now()
        guard remaining > .zero else { throw WebhookTransportError(description: "timed out resolving \(host)") }
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: promise.futureResult.eventLoop)
                .connectTimeout(remaining)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if isTLS {
                            // SNI and hostname verification by name; an IP literal is checked against the certificate's IP.
                            let handler = try NIOSSLClientHandler(context: tls, serverHostname: isLiteral ? nil : host)
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise))
                    }
                }
                .connect(to: address).get()
        } catch {
            promise.fail(error)
            throw WebhookTransportError(
                description: "could not connect to \(host) (\(address.ipAddress ?? "?")): \(error)")
        }
        let timer = channel.eventLoop.scheduleTask(deadline: deadline) {
            promise.fail(WebhookTransportError(description: "timed out after \(timeout.nanoseconds / 1_000_000_000) s"))
            channel.close(promise: nil)
        }
        defer { timer.cancel() }

        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: Self.target(request.url))
        head.headers.add(name: "Host", value: Self.hostHeader(host, port: port, isTLS: isTLS))
        for (name, value) in request.headers { head.headers.add(name: name, value: value) }
        head.headers.add(name: "Content-Length", value: String(request.body.count))
        head.headers.add(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: request.body))), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        do {
            let response = try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                channel.close(promise: nil)
            }
            channel.close(promise: nil)
            return response
        } catch let error as WebhookTransportError {
            throw error
        } catch {
            throw WebhookTransportError(description: "\(host): \(error)")
        }
    }

    /// The Host header: the port only when it is not the scheme's, an IPv6 literal in brackets
    /// once (Foundation gives the host with them or without, depending on the platform).
    static func hostHeader(_ host: String, port: Int, isTLS: Bool) -> String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return bracketed + (port == (isTLS ? 443 : 80) ? "" : ":\(port)")
    }

    /// Path and query, as the request line wants them.
    static func target(_ url: URLComponents) -> String {
        var target = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        if let query = url.percentEncodedQuery { target += "?" + query }
        return target
    }

    /// The address to connect to: the host's first address that is allowed, looked up here (not
    /// by the connect, so the checked address is the one used).
    static func resolve(host: String, port: Int, allowPrivate: Bool) async throws -> SocketAddress {
        let candidates: [[UInt8]]
        if let literal = WebhookAddress.parse(host) {
            candidates = [literal]
        } else {
            candidates = try await NIOThreadPool.singleton.runIfActive { try lookUp(host) }
        }
        guard let chosen = candidates.first(where: { allowPrivate || WebhookAddress.isPublic($0) }) else {
            throw WebhookAddressRefused(
                description:
                    "refused: \(host) is a private, loopback or otherwise internal address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)"
            )
        }
        return try SocketAddress(ipAddress: text(chosen), port: port)
    }

    /// Every address the name resolves to, as bytes.
    private static func lookUp(_ host: String) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw WebhookTransportError(description: "could not resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            if let address = info.pointee.ai_addr {
                switch info.pointee.ai_family {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        var raw = $0.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &raw) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        var raw = $0.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &raw) { Array($0) })
                    }
                default: break
                }
            }
            next = info.pointee.ai_next
        }
        return addresses
    }

    private static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Collects the status and the first bytes of the answer, then completes the promise.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    let promise: EventLoopPromise<WebhookResponse>
    var status: Int?
    var body: [UInt8] = []

    init(promise: EventLoopPromise<WebhookResponse>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(let buffer):
            let room = WebhookHTTPClient.maxResponseBytes - body.count
            if room > 0 { body += buffer.readableBytesView.prefix(room) }
            if body.count >= WebhookHTTPClient.maxResponseBytes { finish(context) }
        case .end:
            finish(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if status != nil {
            finish(context)
        } else {
            promise.fail(WebhookTransportError(description: "the connection closed before an answer"))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    private func finish(_ context: ChannelHandlerContext) {
        guard let status else { return }
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
        promise.succeed(WebhookResponse(status: status, bodyPrefix: text))
        context.close(promise: nil)
    }
}
