import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A reply as it came back, before `Reply` reads its JSON.
struct TestResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// Sends one request to the application under test.
protocol TestClient: Sendable {
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    /// The loopback port of a live server (nil when requests go to the router directly).
    var port: Int? { get }
}

/// Runs the real application for a test, with its services (the database, the jobs), and hands
/// the test a client: `router` calls the application's responder in the process, with no socket
/// (the request has no peer address); `live` serves it on a loopback port and sends each request
/// over a connection of its own, for what depends on the socket (the peer address, connection
/// limits, streams). Ours rather than HummingbirdTesting, which brought an HTTP client library,
/// HTTP/2 and their dependencies into every test build (about 50 s of CPU on 2 cores).
enum AppTester {
    static func run<App: ApplicationProtocol, Value: Sendable>(
        _ app: App, live: Bool, _ test: @Sendable (any TestClient) async throws -> Value
    ) async throws -> Value {
        if live {
            let served = LiveApplication(base: app)
            return try await withServices([served], logger: app.logger) {
                try await test(LiveClient(port: await served.port.value))
            }
        }
        let client = RouterClient(responder: try await app.responder, logger: app.logger)
        for process in app.processesRunBeforeServerStart { try await process() }
        return try await withServices(app.services, logger: app.logger) { try await test(client) }
    }

    /// Runs `services` in a group while `body` runs (after every one of them has started), then
    /// shuts the group down gracefully and waits for it.
    private static func withServices<Value: Sendable>(
        _ services: [any Service], logger: Logger, _ body: () async throws -> Value
    ) async throws -> Value {
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let signal = StartedSignal(continuation: startedContinuation)
        let group = ServiceGroup(configuration: .init(services: services + [signal], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { startedContinuation.finish() }  // a group that fails to start ends the wait too
                try await group.run()
            }
            for await _ in started {}
            let outcome: Result<Value, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try outcome.get()
        }
    }
}

/// Ends the `started` stream once the group runs its services, and stays until shutdown.
private struct StartedSignal: Service {
    let continuation: AsyncStream<Void>.Continuation

    func run() async throws {
        continuation.finish()
        try? await gracefulShutdown()
    }
}

/// The request straight to the responder, as Hummingbird's server would hand it over.
private struct RouterClient<Responder: HTTPResponder>: TestClient
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let logger: Logger
    var port: Int? { nil }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())  // the server's, read by `context.id`
        let context = Responder.Context(source: .init(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collected = BodyCollector()
        try await response.body.write(collected)
        return TestResponse(status: response.status, headers: response.headers, body: await collected.body)
    }
}

/// Gathers a response body as the application writes it.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    private actor Storage {
        var body = ByteBuffer()
        func append(_ buffer: ByteBuffer) { body.writeImmutableBuffer(buffer) }
    }
    private let storage = Storage()

    var body: ByteBuffer { get async { await storage.body } }

    func write(_ buffer: ByteBuffer) async throws { await storage.append(buffer) }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// The application served on a loopback port of the system's choosing, which `port` tells.
private struct LiveApplication<Base: ApplicationProtocol>: ApplicationProtocol, Service {
    typealias Responder = Base.Responder
    let base: Base
    let port = PortBox()

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("127.0.0.1", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        await port.set(channel.localAddress?.port ?? 0)
    }
}

/// A value set once and awaited by any number of readers.
private actor PortBox {
    private var port: Int?
    private var waiting: [CheckedContinuation<Int, Never>] = []

    func set(_ value: Int) {
        port = value
        for continuation in waiting { continuation.resume(returning: value) }
        waiting = []
    }

    var value: Int {
        get async {
            if let port { return port }
            return await withCheckedContinuation { waiting.append($0) }
        }
    }
}

/// HTTP/1.1 over loopback, one connection per request (closed by the client after the answer).
private struct LiveClient: TestClient {
    let livePort: Int
    var port: Int? { livePort }

    init(port: Int) { self.livePort = port }

    struct NoAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends the request; when the connection was found closed before its head was written (the
    /// server saw nothing, so nothing can have happened twice), once more on a new connection. A
    /// loaded CI machine once closed a fresh loopback connection that way (an I/O on a closed
    /// channel, no answer); a server that closes every new connection still fails the test.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    {
        do {
            do {
                return try await send(uri: uri, method: method, headers: headers, body: body)
            } catch NotSent.closedBeforeHead {
                return try await send(uri: uri, method: method, headers: headers, body: body)
            }
        } catch NotSent.closedBeforeHead {
            throw NoAnswer(description: "\(method) \(uri): the server closed two new connections before the request")
        } catch let error as ChannelError {
            throw NoAnswer(description: "\(method) \(uri): \(error)")  // which request, for a failure's report
        }
    }

    private enum NotSent: Error { case closedBeforeHead }

    private func send(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws
        -> TestResponse
    {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: livePort) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
        head.headers.add(name: "Host", value: "localhost")
        for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
        if let body { head.headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes)) }
        return try await channel.executeThenClose { inbound, outbound in
            do {
                try await outbound.write(.head(head))
            } catch ChannelError.ioOnClosedChannel {
                throw NotSent.closedBeforeHead
            }
            if let body { try await outbound.write(.body(.byteBuffer(body))) }
            try await outbound.write(.end(nil))
            var answer: HTTPResponseHead?
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let received): answer = received
                case .body(let bytes): collected.writeImmutableBuffer(bytes)
                case .end:
                    guard let answer else { throw NoAnswer(description: "an answer without a head") }
                    var fields = HTTPFields()
                    for (name, value) in answer.headers {
                        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                    }
                    let status = HTTPResponse.Status(
                        code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase)
                    return TestResponse(status: status, headers: fields, body: collected)
                }
            }
            throw NoAnswer(description: "\(method) \(uri): the connection closed before the answer ended")
        }
    }
}
