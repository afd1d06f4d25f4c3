import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Keeps slow or piled-up connections from holding the server (issue 14: 300 half-sent requests
/// stayed open for 75 s and more). Sits in Hummingbird's HTTP/1 pipeline after decoding, one per
/// connection:
/// - a request's head must arrive complete within `headTimeout` of the connection opening or of
///   the previous response (so a client trickling header bytes, or an idle keep-alive connection,
///   is closed);
/// - its body must arrive complete within `bodyTimeout` of its head;
/// - one client address holds at most `perAddress` connections at once (trusted proxies are not
///   counted: every request behind them comes from their address).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Limits: Sendable {
        var headTimeout: TimeAmount
        var bodyTimeout: TimeAmount
        var perAddress: Int
    }

    /// Open connections per client address, shared by every connection of the server.
    final class Counts: Sendable {
        private let counts = NIOLockedValueBox<[String: Int]>([:])

        /// Counts a new connection from `address`; false (and nothing counted) when it is over `limit`.
        func open(_ address: String, limit: Int) -> Bool {
            counts.withLockedValue { counts in
                let current = counts[address, default: 0]
                guard current < limit else { return false }
                counts[address] = current + 1
                return true
            }
        }

        func close(_ address: String) {
            counts.withLockedValue { counts in
                let remaining = counts[address, default: 1] - 1
                counts[address] = remaining > 0 ? remaining : nil
            }
        }

        func count(_ address: String) -> Int { counts.withLockedValue { $0[address, default: 0] } }
    }

    private let limits: Limits
    private let counts: Counts
    private let isTrustedProxy: @Sendable (String?) -> Bool
    private var countedAddress: String?
    private var deadline: Scheduled<Void>?

    init(limits: Limits, counts: Counts, isTrustedProxy: @escaping @Sendable (String?) -> Bool) {
        self.limits = limits
        self.counts = counts
        self.isTrustedProxy = isTrustedProxy
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard deadline == nil, countedAddress == nil else { return }
        let peer = context.channel.remoteAddress?.ipAddress
        if let peer, !isTrustedProxy(peer) {
            guard counts.open(peer, limit: limits.perAddress) else {
                context.close(promise: nil)
                return
            }
            countedAddress = peer
        }
        arm(context, limits.headTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(context, limits.bodyTimeout)
        case .body: break
        case .end: disarm()  // the request is in; the server takes as long as it needs to answer
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(context, limits.headTimeout) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func arm(_ context: ChannelHandlerContext, _ timeout: TimeAmount) {
        deadline?.cancel()
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.value.eventLoop.scheduleTask(in: timeout) { context.value.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func release() {
        disarm()
        if let address = countedAddress {
            counts.close(address)
            countedAddress = nil
        }
    }
}
