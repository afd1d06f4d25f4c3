import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends one message per connection to the relay of `SMTPSettings` (RFC 5321): greeting, EHLO,
/// STARTTLS when required (then EHLO again), AUTH when credentials are set, MAIL FROM, RCPT TO,
/// DATA, QUIT. Notification mail is a handful of messages a minute, so one connection per
/// `send` costs little and leaves no pooled connection to go stale or leak.
///
/// Every step — connecting, each reply, the TLS handshake (it happens before the next reply) —
/// must finish within `timeout`, and the connection is closed on every path.
public struct SMTPClient: Sendable {
    public let settings: SMTPSettings
    public let heloName: String
    public let timeout: Duration
    let eventLoopGroup: any EventLoopGroup

    public init(
        settings: SMTPSettings, heloName: String = "localhost", timeout: Duration = .seconds(30),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.settings = settings
        self.heloName = heloName
        self.timeout = timeout
        self.eventLoopGroup = eventLoopGroup
    }

    /// Delivers `message` to the relay; throws `SMTPError`, whose `isPermanent` says whether
    /// trying again later can help.
    public func send(_ message: MailMessage) async throws {
        let connection = try await connect()
        let channel = connection.channel
        do {
            try await withTaskCancellationHandler {
                try await converse(connection, message)
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            try? await channel.close()
            throw error
        }
        try? await channel.close()
    }

    // MARK: - The conversation

    private func converse(_ connection: SMTPConnection, _ message: MailMessage) async throws {
        _ = try await connection.exchange(nil, command: "greeting", expecting: [220])
        var extensions = try await ehlo(connection)
        var isEncrypted = settings.security == .implicitTLS

        if settings.security == .starttls {
            // Sending on in clear would let anyone on the path strip STARTTLS from the reply and
            // read the mail and the password: refuse, before any credential or address is sent.
            guard extensions["STARTTLS"] != nil else {
                _ = try? await connection.exchange("QUIT", command: "QUIT", expecting: [221])
                throw SMTPError(
                    command: "STARTTLS", code: nil,
                    text: "the server does not offer STARTTLS, which smtp:// requires (nothing was sent)",
                    isPermanent: true)
            }
            _ = try await connection.exchange("STARTTLS", command: "STARTTLS", expecting: [220])
            try await connection.startTLS(try makeTLSHandler, command: "STARTTLS")
            isEncrypted = true
            extensions = try await ehlo(connection)
        }

        if let username = settings.username, let password = settings.password {
            guard isEncrypted || settings.isLoopback else {
                throw SMTPError(
                    command: "AUTH", code: nil, text: "refusing to send credentials without TLS", isPermanent: true)
            }
            try await authenticate(connection, extensions: extensions, username: username, password: password)
        }

        _ = try await connection.exchange(
            "MAIL FROM:<\(message.from.address)>", command: "MAIL FROM", expecting: [250])
        _ = try await connection.exchange("RCPT TO:<\(message.to.address)>", command: "RCPT TO", expecting: [250, 251])
        _ = try await connection.exchange("DATA", command: "DATA", expecting: [354])
        _ = try await connection.exchange(
            raw: Self.dataPayload(message.rendered()), command: "end of DATA", expecting: [250])
        // The relay has taken the message: a failing QUIT must not make the caller send it twice.
        _ = try? await connection.exchange("QUIT", command: "QUIT", expecting: [221])
    }

    /// EHLO, and the extensions it announces: keyword (upper case) → parameters (upper case).
    private func ehlo(_ connection: SMTPConnection) async throws -> [String: [String]] {
        let reply = try await connection.exchange("EHLO \(heloName)", command: "EHLO", expecting: [250])
        var extensions: [String: [String]] = [:]
        for line in reply.lines.dropFirst() {
            let words = line.uppercased().split(separator: " ").map(String.init)
            if let keyword = words.first { extensions[keyword] = Array(words.dropFirst()) }
        }
        return extensions
    }

    /// AUTH PLAIN (RFC 4616), or LOGIN when that is all the server offers. Error messages name
    /// the mechanism only, never what was sent.
    private func authenticate(
        _ connection: SMTPConnection, extensions: [String: [String]], username: String, password: String
    ) async throws {
        let mechanisms = extensions["AUTH"] ?? []
        if mechanisms.contains("PLAIN") {
            let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            _ = try await connection.exchange("AUTH PLAIN \(token)", command: "AUTH PLAIN", expecting: [235])
        } else if mechanisms.contains("LOGIN") {
            _ = try await connection.exchange("AUTH LOGIN", command: "AUTH LOGIN", expecting: [334])
            _ = try await connection.exchange(
                Data(username.utf8).base64EncodedString(), command: "AUTH LOGIN (user name)", expecting: [334])
            _ = try await connection.exchange(
                Data(password.utf8).base64EncodedString(), command: "AUTH LOGIN (password)", expecting: [235])
        } else {
            throw SMTPError(
                command: "AUTH", code: nil,
                text: mechanisms.isEmpty
                    ? "credentials are set but the server does not offer AUTH"
                    : "the server offers no mechanism we support (PLAIN, LOGIN): \(mechanisms.joined(separator: " "))",
                isPermanent: true)
        }
    }

    /// The message with CRLF line ends, every line that starts with "." given another one (RFC
    /// 5321 §4.5.2, so that a line "." does not end the message early), and the final ".".
    static func dataPayload(_ text: String) -> String {
        var normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if normalized.hasSuffix("\n") { normalized.removeLast() }
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasPrefix(".") ? "." + $0 : String($0)
        }
        return lines.joined(separator: "\r\n") + "\r\n.\r\n"
    }

    // MARK: - Connection and TLS

    private func connect() async throws -> SMTPConnection {
        let timeout = TimeAmount(self.timeout)
        let makeTLSHandler = try settings.security == .implicitTLS ? self.makeTLSHandler : nil
        do {
            return try await ClientBootstrap(group: eventLoopGroup)
                .connectTimeout(timeout)
                .connect(host: settings.host, port: settings.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let makeTLSHandler {
                            try channel.pipeline.syncOperations.addHandler(try makeTLSHandler())
                        }
                        let handler = SMTPReplyHandler()
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return SMTPConnection(
                            channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop),
                            timeout: timeout)
                    }
                }
        } catch let error as SMTPError {
            throw error
        } catch {
            throw SMTPError(
                command: "connect", code: nil,
                text: "cannot connect to \(settings.host):\(settings.port): \(error)", isPermanent: false)
        }
    }

    /// A function that makes the TLS handler for one connection (called on its event loop).
    /// Trust: only `caFile` when it is set, the system's roots otherwise; the certificate must
    /// name `settings.host` (a DNS name, sent as SNI too; for an IP address, NIOSSL checks the
    /// certificate's IP entries against the address connected to, and sends no SNI, which may
    /// not be an IP address).
    private var makeTLSHandler: @Sendable () throws -> NIOSSLClientHandler {
        get throws {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if let caFile = settings.caFile { configuration.trustRoots = .file(caFile) }
            let context: NIOSSLContext
            do {
                context = try NIOSSLContext(configuration: configuration)
            } catch {
                throw SMTPError(command: "TLS setup", code: nil, text: "\(error)", isPermanent: true)
            }
            let host = settings.host
            let isIPAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
            return { try NIOSSLClientHandler(context: context, serverHostname: isIPAddress ? nil : host) }
        }
    }
}

/// A failed send: the command, the server's reply code and text when there was a reply, and
/// whether trying again can help (`isPermanent`: a 5xx reply, or a refusal such as a missing
/// STARTTLS; a 4xx reply, a network failure or a timeout is temporary).
public struct SMTPError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The step that failed: "connect", "greeting", "EHLO", "STARTTLS", "AUTH PLAIN", "MAIL FROM",
    /// "RCPT TO", "DATA", "end of DATA"...
    public let command: String
    /// The server's reply code; nil when there was no reply (network, timeout, a refusal of ours).
    public let code: Int?
    /// The server's reply text (lines joined by " / "), or what went wrong.
    public let text: String
    public let isPermanent: Bool

    public init(command: String, code: Int?, text: String, isPermanent: Bool) {
        self.command = command
        self.code = code
        // Reply text goes to logs: printable characters only, and not without end.
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 32 ? " " : $0 }))
        self.text = printable.count > 500 ? String(printable.prefix(500)) + "…" : printable
        self.isPermanent = isPermanent
    }

    public var description: String {
        let reply = code.map { "\($0) \(text)" } ?? text
        return "SMTP \(command) failed: \(reply) (\(isPermanent ? "permanent" : "temporary"))"
    }
}

/// One reply: its code and the text of each line (multi-line replies are `250-...` then `250 ...`).
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]
}

/// The channel and its reply reader; every use of the reader hops to the channel's event loop.
struct SMTPConnection: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<SMTPReplyHandler>
    let timeout: TimeAmount

    /// Sends `line` (when given) and waits for the next reply, which must have one of the
    /// `expecting` codes; anything else becomes an `SMTPError` naming `command`.
    func exchange(_ line: String?, command: String, expecting: Set<Int>) async throws -> SMTPReply {
        try await exchange(raw: line.map { $0 + "\r\n" }, command: command, expecting: expecting)
    }

    func exchange(raw: String?, command: String, expecting: Set<Int>) async throws -> SMTPReply {
        let (channel, handler, timeout) = (self.channel, self.handler, self.timeout)
        let reply: SMTPReply
        do {
            reply = try await channel.eventLoop.flatSubmit {
                if let raw {
                    channel.writeAndFlush(channel.allocator.buffer(string: raw)).whenFailure { error in
                        handler.value.fail(.channel(error))
                    }
                }
                return handler.value.nextReply(timeout: timeout)
            }.get()
        } catch let failure as SMTPReplyHandler.Failure {
            throw SMTPError(command: command, code: nil, text: failure.description, isPermanent: false)
        } catch {
            throw SMTPError(command: command, code: nil, text: "\(error)", isPermanent: false)
        }
        guard expecting.contains(reply.code) else {
            throw SMTPError(
                command: command, code: reply.code, text: reply.lines.joined(separator: " / "),
                isPermanent: (500..<600).contains(reply.code))
        }
        return reply
    }

    /// Puts TLS in front of everything, in the same turn of the event loop that checks that the
    /// server sent nothing after its 220: bytes sent in clear before the handshake would
    /// otherwise be read as if they came over TLS (the STARTTLS injection of CVE-2011-0411).
    func startTLS(_ makeTLSHandler: @escaping @Sendable () throws -> NIOSSLClientHandler, command: String) async throws
    {
        let (channel, handler) = (self.channel, self.handler)
        do {
            try await channel.eventLoop.submit {
                guard !handler.value.hasUnreadInput else { throw SMTPReplyHandler.Failure.inputBeforeTLS }
                try channel.pipeline.syncOperations.addHandler(try makeTLSHandler(), position: .first)
            }.get()
        } catch let error as SMTPError {
            throw error
        } catch {
            throw SMTPError(command: command, code: nil, text: "\(error)", isPermanent: false)
        }
    }
}

/// Reads replies off the connection and hands them, one at a time, to whoever waits for the
/// next; remembers the first failure (an error, the connection closing, a timeout) for every
/// later wait. Used on its channel's event loop only.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    enum Failure: Error, CustomStringConvertible {
        case timedOut(TimeAmount)
        case closed
        case malformed(String)
        case inputBeforeTLS
        case channel(any Error)

        var description: String {
            switch self {
            case .timedOut(let timeout): "no reply within the timeout (\(timeout.nanoseconds / 1_000_000) ms)"
            case .closed: "the server closed the connection"
            case .malformed(let why): "malformed reply: \(why)"
            case .inputBeforeTLS: "the server sent more after agreeing to STARTTLS (refused: possible injection)"
            case .channel(let error): "\(error)"
            }
        }
    }

    /// RFC 5321 §4.5.3.1.5 allows 512 bytes a reply line; be lenient, but not without bound.
    private static let maximumLineLength = 4096
    private var line: [UInt8] = []
    private var replyLines: [String] = []
    private var replyCode: Int?
    private var replies: [SMTPReply] = []
    private var waiter: (promise: EventLoopPromise<SMTPReply>, timeout: Scheduled<Void>)?
    private var failure: Failure?
    private var eventLoop: (any EventLoop)?

    var hasUnreadInput: Bool { !line.isEmpty || !replyLines.isEmpty || !replies.isEmpty }

    func handlerAdded(context: ChannelHandlerContext) {
        eventLoop = context.eventLoop
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard failure == nil else { return }
        for byte in buffer.readableBytesView {
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                let text = String(decoding: line, as: UTF8.self)
                line.removeAll(keepingCapacity: true)
                if let problem = take(text) {
                    fail(.malformed(problem))
                    context.close(promise: nil)
                    return
                }
            } else {
                line.append(byte)
                if line.count > Self.maximumLineLength {
                    fail(.malformed("a line longer than \(Self.maximumLineLength) bytes"))
                    context.close(promise: nil)
                    return
                }
            }
        }
        deliver()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.channel(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.closed)
        context.fireChannelInactive()
    }

    /// The next reply, or the failure that ended the connection, or `.timedOut` after `timeout`.
    func nextReply(timeout: TimeAmount) -> EventLoopFuture<SMTPReply> {
        let eventLoop = self.eventLoop!
        if !replies.isEmpty { return eventLoop.makeSucceededFuture(replies.removeFirst()) }
        if let failure { return eventLoop.makeFailedFuture(failure) }
        precondition(waiter == nil, "one exchange at a time")
        let promise = eventLoop.makePromise(of: SMTPReply.self)
        let scheduled = eventLoop.assumeIsolated().scheduleTask(in: timeout) { self.fail(.timedOut(timeout)) }
        waiter = (promise, scheduled)
        return promise.futureResult
    }

    func fail(_ failure: Failure) {
        if self.failure == nil { self.failure = failure }
        if let waiter {
            self.waiter = nil
            waiter.timeout.cancel()
            waiter.promise.fail(self.failure!)
        }
    }

    /// Adds one line to the reply being read; a description of the problem when it is not a reply line.
    private func take(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0...2].allSatisfy({ (48...57).contains($0) }), let code = Int(text.prefix(3))
        else { return "a line that does not start with a 3-digit code" }
        guard replyCode == nil || replyCode == code else { return "a multi-line reply that changes its code" }
        let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            return "a code not followed by a space or -"
        }
        replyCode = code
        replyLines.append(bytes.count > 4 ? String(text.dropFirst(4)) : "")
        if separator == UInt8(ascii: " ") {
            replies.append(SMTPReply(code: code, lines: replyLines))
            replyLines = []
            replyCode = nil
        }
        return nil
    }

    private func deliver() {
        guard let waiter, !replies.isEmpty else { return }
        self.waiter = nil
        waiter.timeout.cancel()
        waiter.promise.succeed(replies.removeFirst())
    }
}
