import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import SplitApp

/// Keeps slow or piled-up connections from holding the server (issue 14: 300 half-sent requests
/// stayed open for 75 s and more). Sits in Hummingbird's HTTP/1 pipeline after decoding, one per
/// connection:
/// - a request's head must arrive complete within `headTimeout` of the connection opening or of
///   the previous response (so a client trickling header bytes, or an idle keep-alive connection,
///   is closed);
/// - its body must arrive complete within `bodyTimeout` of its head;
/// - one client address (an IPv6 client by its /64: `ClientNetwork`) holds at most `perAddress`
///   connections at once (trusted proxies are not counted: every request behind them comes from
///   their address).
///
/// It also gives the 400 that Hummingbird writes for a request HTTP's parser refuses (a control
/// character in a header value, say) the API's error envelope: that answer is made before any
/// middleware runs, so it would otherwise be a bare 400 with an empty body (issue 14 item 7).
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
    /// When the connection is closed unless the awaited part of a request arrives first; nil
    /// while the server answers.
    private var deadline: NIODeadline?
    /// The one timer that enforces `deadline`, and when it is due: at or before the deadline
    /// whenever one is set, checked where the event loop's turn ends (`channelReadComplete`, the
    /// response's end). A request whose head and end came in one read only moves `deadline` (a
    /// clock read), instead of scheduling and cancelling two timers on the event loop (issue 16:
    /// that was 1.7 % of the CPU of a `GET /health`); the timer, when due before the deadline it
    /// then finds, sets itself again for it.
    private var timer: (task: Scheduled<Void>, due: NIODeadline)?
    /// Set when the parser refused the request: the next 400 written is the answer to it.
    private var parserRefusal: HTTPParserError?

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
            let client = ClientNetwork.key(peer)
            guard counts.open(client, limit: limits.perAddress) else {
                context.close(promise: nil)
                return
            }
            countedAddress = client
        }
        arm(limits.headTimeout)
        keepTimer(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(limits.bodyTimeout)
        case .body: break
        case .end: deadline = nil  // the request is in; the server takes as long as it needs to answer
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        keepTimer(context)
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case .head(var head) = part, head.status == .badRequest, let refusal = parserRefusal {
            parserRefusal = nil
            let body = Self.envelope(for: refusal)
            head.headerFields[.contentType] = "application/json; charset=utf-8"
            head.headerFields[.contentLength] = String(body.readableBytes)
            head.headerFields[.cacheControl] = "no-store"
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: promise)
            return
        }
        if case .end = part {
            arm(limits.headTimeout)
            keepTimer(context)
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let refusal = error as? HTTPParserError { parserRefusal = refusal }
        context.fireErrorCaught(error)
    }

    /// The API's error envelope for a request the parser refused, saying what kind of fault it was.
    static func envelope(for refusal: HTTPParserError) -> ByteBuffer {
        let message: String
        switch refusal {
        case .invalidHeaderToken, .invalidCharactersUsed, .invalidConstant, .strictModeAssertion, .lfExpected:
            message = "The request is not valid HTTP: a header holds a character HTTP does not allow (a control character?)."
        case .headerOverflow:
            message = "The request's headers are too large."
        default:
            message = "The request is not valid HTTP."
        }
        let json = APIError.badRequest(message).body
        return ByteBuffer(bytes: json)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func arm(_ timeout: TimeAmount) {
        deadline = .now() + timeout
    }

    /// Makes sure a timer is due by the deadline, if one is set.
    private func keepTimer(_ context: ChannelHandlerContext) {
        guard let deadline else { return }
        if let timer {
            guard deadline < timer.due else { return }
            timer.task.cancel()
        }
        schedule(context, at: deadline)
    }

    /// Sets the timer for `due`; when it fires, it closes the connection if the deadline has
    /// passed, sets itself again if the deadline moved later, and stops if it was lifted.
    private func schedule(_ context: ChannelHandlerContext, at due: NIODeadline) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: due) {
            let (handler, context) = bound.value
            handler.timer = nil
            guard let deadline = handler.deadline else { return }
            if deadline <= .now() {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: deadline)
            }
        }
        timer = (task, due)
    }

    private func release() {
        deadline = nil
        timer?.task.cancel()
        timer = nil
        if let address = countedAddress {
            counts.close(address)
            countedAddress = nil
        }
    }
}
