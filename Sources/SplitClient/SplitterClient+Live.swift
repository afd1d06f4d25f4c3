import Foundation
internal import SplitAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SplitterClient {
    /// The live stream of your groups (`GET /api/events`), or of one group: an event for every
    /// change as it commits, on whichever server wrote it. It reconnects by itself when the
    /// connection drops or the server fails (exponential backoff with jitter, `reconnect`),
    /// resuming from the last event's id so nothing is missed; `connected` and `disconnected`
    /// events say when. It ends with a `SplitterError` when going on cannot help: the session is
    /// gone (`.unauthorized`: log in again), the group is not yours (`.notFound`), the id to
    /// resume from is not one the server gave out (`.validation`). It ends quietly when you stop
    /// iterating or cancel the task that iterates it.
    ///
    /// The events say what changed, not how: read the objects with the change feed
    /// (`SyncEngine.syncLive` does that for every event).
    ///
    /// Built on URLSession's data delegate rather than the generated client: that client's
    /// transport cannot hand out a response body piece by piece on Linux, and a stream that
    /// never ends must be read as it comes.
    ///
    /// - Parameters:
    ///   - groupID: only this group; nil for all of yours (and the ones you join meanwhile).
    ///   - lastEventID: an event's `id` from an earlier stream, to resume after it; nil to start
    ///     from now.
    public func events(
        groupID: String? = nil, lastEventID: String? = nil, reconnect: LiveReconnectPolicy = LiveReconnectPolicy()
    ) -> AsyncThrowingStream<LiveEvent, any Error> {
        let connection = LiveConnection(serverURL: serverURL, tokens: tokens, groupID: groupID, policy: reconnect)
        return AsyncThrowingStream { continuation in
            let task = Task { await connection.run(from: lastEventID, into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The connections of one live stream, one after another: each is read event by event; when
/// one drops, the next starts after a backoff, from where the last one stood.
struct LiveConnection: Sendable {
    typealias Output = AsyncThrowingStream<LiveEvent, any Error>.Continuation

    let serverURL: URL
    let tokens: any TokenStore
    let groupID: String?
    let policy: LiveReconnectPolicy

    /// How long a connection may stay silent before it counts as dead: three of the server's
    /// 15-second heartbeats. A connection cut without a word (a laptop's lid, a NAT timeout)
    /// is noticed and replaced instead of waiting forever.
    static let idleTimeout: TimeInterval = 45
    /// How much of a refusal's body is kept to read its error message.
    static let errorBodyLimit = 64 * 1024

    /// Where the stream stands between connections.
    struct Resume {
        var lastEventID: String?
        /// The server's `retry:` hint.
        var retry: Duration?
    }

    /// How a connection ended when another may follow.
    struct Drop {
        var reason: String
        /// Whether the stream had opened (the backoff starts again after one that had).
        var opened: Bool
        /// A `Retry-After` the server sent with a refusal.
        var retryAfter: Duration?
    }

    func run(from lastEventID: String?, into output: Output) async {
        var resume = Resume(lastEventID: lastEventID)
        var failures = 0
        while !Task.isCancelled {
            let drop: Drop
            do {
                drop = try await connect(&resume, output)
            } catch is CancellationError {
                break
            } catch {
                return output.finish(throwing: error)
            }
            guard !Task.isCancelled else { break }
            failures = drop.opened ? 1 : failures + 1
            let floor = [resume.retry, drop.retryAfter].compactMap { $0 }.max()
            let delay = policy.delay(afterFailures: failures, atLeast: floor) { Double.random(in: 0...1) }
            output.yield(LiveEvent(kind: .disconnected, reason: drop.reason, retryIn: delay.timeInterval))
            do { try await Task.sleep(for: delay) } catch { break }
        }
        output.finish()
    }

    /// One connection, read to its end. Returns how it ended when the stream may go on; throws
    /// what ends the stream for good (or `CancellationError` when the reader went away).
    private func connect(_ resume: inout Resume, _ output: Output) async throws -> Drop {
        let request = try request(lastEventID: resume.lastEventID)
        let delegate = LiveSessionDelegate()
        let session = URLSession(configuration: Self.sessionConfiguration, delegate: delegate, delegateQueue: nil)
        // Also releases the delegate, which the session holds until it is invalidated.
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            task.resume()
            var parser = ServerSentEventParser(lastEventID: resume.lastEventID ?? "")
            var head: LiveSessionDelegate.Head?
            var refusal = Data()
            for await signal in delegate.signals {
                switch signal {
                case .response(let response):
                    head = response
                    guard response.status == 200 else { continue }
                    guard response.isEventStream else {
                        throw SplitterError.server(
                            "The server answered \(response.contentType ?? "without a type"), not an event stream.")
                    }
                    output.yield(LiveEvent(kind: .connected))
                case .data(let data):
                    guard head?.status == 200 else {
                        if refusal.count < Self.errorBodyLimit { refusal.append(data) }
                        continue
                    }
                    for event in parser.feed(data) {
                        if let live = Self.liveEvent(event) { output.yield(live) }
                    }
                    // Only ids of whole events count: an event cut off by a drop comes again.
                    resume.lastEventID = parser.lastEventID.isEmpty ? nil : parser.lastEventID
                    if let milliseconds = parser.retryMilliseconds { resume.retry = .milliseconds(milliseconds) }
                    if parser.exceededLimit {
                        throw SplitterError.server("The server sent an event larger than \(parser.limit) bytes.")
                    }
                case .completed(let failure):
                    guard let head else { return Drop(reason: failure ?? "No answer from the server.", opened: false) }
                    if head.status == 200 {
                        return Drop(reason: failure ?? "The server ended the stream.", opened: true)
                    }
                    return try Self.refused(head, body: refusal)
                }
            }
            // The signals end after `completed`, so only a cancelled reader gets here.
            throw CancellationError()
        } onCancel: {
            task.cancel()
        }
    }

    /// A refusal: the ones worth retrying (a failing or busy server) become a drop; the others
    /// (401, 403, 404, 422, …) end the stream with the server's error.
    static func refused(_ head: LiveSessionDelegate.Head, body: Data) throws -> Drop {
        let envelope = try? JSONDecoder().decode(Components.Schemas.ErrorEnvelope.self, from: body)
        switch head.status {
        case 408, 429, 500...:
            return Drop(
                reason: "The server answered \(head.status): \(envelope?.error.message ?? "no details").",
                opened: false, retryAfter: head.retryAfter.map { .seconds($0) })
        default:
            throw SplitterError(status: head.status, envelope: envelope, retryAfter: head.retryAfter)
        }
    }

    /// The SDK's event for one from the wire; nil for what a reader need not see (`overflow`,
    /// after which the server ends the stream and the reconnect resumes; kinds a newer server
    /// may add; an event whose data cannot be read).
    static func liveEvent(_ event: ServerSentEvent) -> LiveEvent? {
        struct Payload: Decodable {
            var groupId: String
            var seq: Int64
            var changes: [LiveChange]?
            var actorUserId: String?
        }
        let kind: LiveEvent.Kind
        switch event.event {
        case "change": kind = .change
        case "joined": kind = .joined
        case "resync": kind = .resync
        default: return nil
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(event.data.utf8)) else { return nil }
        return LiveEvent(
            kind: kind, id: event.lastEventID.isEmpty ? nil : event.lastEventID, groupId: payload.groupId,
            seq: payload.seq, changes: payload.changes ?? [], actorUserId: payload.actorUserId)
    }

    /// `GET /api/events` with the token in the header (never in the address) and the id to
    /// resume from.
    func request(lastEventID: String?) throws -> URLRequest {
        var components = URLComponents(
            url: serverURL.appendingPathComponent("api/events"), resolvingAgainstBaseURL: false)
        if let groupID { components?.queryItems = [URLQueryItem(name: "groupId", value: groupID)] }
        guard let url = components?.url else {
            throw SplitterError.validation(message: "\(serverURL) is not a server address.", field: nil)
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.idleTimeout)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let token = try tokens.load() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let lastEventID, !lastEventID.isEmpty { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        return request
    }

    /// A fresh configuration per connection (a configuration is not Sendable, so none is shared):
    /// no cache, no cookies kept, silence past `idleTimeout` ends the connection.
    static var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }
}

/// One connection's callbacks as a stream its reader takes in order: the answer's head, each
/// piece of the body as it arrives (incrementally on Linux's FoundationNetworking as on
/// Darwin), and the end. Holds only immutable, Sendable state: URLSession calls it on its own
/// queue while the reader runs elsewhere.
final class LiveSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What the answer's head says.
    struct Head: Sendable {
        var status: Int
        var contentType: String?
        /// `Retry-After` in seconds, when sent as a number.
        var retryAfter: Int?

        var isEventStream: Bool { contentType?.lowercased().hasPrefix("text/event-stream") == true }
    }

    enum Signal: Sendable {
        case response(Head)
        case data(Data)
        /// The connection ended; `failure` says why when it was not the server's doing.
        case completed(failure: String?)
    }

    let signals: AsyncStream<Signal>
    private let continuation: AsyncStream<Signal>.Continuation

    override init() {
        (signals, continuation) = AsyncStream.makeStream(of: Signal.self)
        super.init()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        continuation.yield(
            .response(
                Head(
                    status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type"),
                    retryAfter: http?.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) })))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.yield(.completed(failure: error.map(Self.reason)))
        continuation.finish()
    }

    /// Why a connection failed, in words for a person.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        switch error.code {
        case .cannotConnectToHost, .cannotFindHost: return "The server cannot be reached."
        case .timedOut: return "The server sent nothing for \(Int(LiveConnection.idleTimeout)) s."
        // A connection reset shows as `.unknown` on Linux.
        case .networkConnectionLost, .unknown: return "The connection was lost."
        case .notConnectedToInternet: return "No network."
        default: return "The connection failed (\(error.code.rawValue))."
        }
    }
}
