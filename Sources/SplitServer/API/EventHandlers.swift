import Foundation
import HTTPTypes
import OpenAPIRuntime
import ServiceLifecycle
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The live stream (`GET /api/events`, issue 17): one `LiveUseCases` stream written as
/// Server-Sent Events. Everything the stream needs is resolved before the answer starts: its
/// body is written after the request's middleware has returned.
extension APIHandler {
    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        let caller = try await authenticate()
        let groupID = try input.query.groupId.map { try Self.id($0, "group") }
        let stream = try await liveUseCases.open(
            caller: caller, groupID: groupID, lastEventID: input.headers.lastEventID)
        let body = HTTPBody(
            ServerSentEvents.frames(of: stream), length: .unknown, iterationBehavior: .single)
        return .ok(.init(headers: .init(cacheControl: "no-store"), body: .textEventStream(body)))
    }
}

/// How a live message is written on the wire (the `text/event-stream` format).
enum ServerSentEvents {
    /// The frames of a stream: first a line telling EventSource to retry after 2 s (and sending
    /// the headers through any proxy at once), then one frame per message.
    static func frames(of stream: LiveStream) -> some AsyncSequence<ArraySlice<UInt8>, any Error> & Sendable {
        let opening = [ArraySlice(Array("retry: 2000\n: connected\n\n".utf8))]
        return Opening(first: opening, rest: stream)
    }

    static func frame(_ message: LiveMessage) -> String {
        switch message {
        case .changes(let groupID, let seq, let changes, let actor, let position):
            let list = changes.map { change in
                #"{"entity":"\#(change.entity.rawValue)","id":"\#(change.entityID.text)","deleted":\#(change.isDeleted)}"#
            }
            let actorField = actor.map { #","actorUserId":"\#($0.text)""# } ?? ""
            return event(
                "change", id: position,
                data: #"{"groupId":"\#(groupID.text)","seq":\#(seq)\#(actorField),"changes":[\#(list.joined(separator: ","))]}"#)
        case .joined(let groupID, let seq, let position):
            return event("joined", id: position, data: #"{"groupId":"\#(groupID.text)","seq":\#(seq)}"#)
        case .resync(let groupID, let seq, let position):
            return event("resync", id: position, data: #"{"groupId":"\#(groupID.text)","seq":\#(seq)}"#)
        case .notification:
            return "event: notification\ndata: {}\n\n"
        case .overflow:
            return "event: overflow\ndata: {}\n\n"
        case .heartbeat:
            return ": heartbeat\n\n"
        }
    }

    private static func event(_ name: String, id: LivePosition, data: String) -> String {
        "id: \(id.text)\nevent: \(name)\ndata: \(data)\n\n"
    }

    /// The opening lines, then the stream's frames.
    struct Opening: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let first: [ArraySlice<UInt8>]
        let rest: LiveStream

        func makeAsyncIterator() -> Iterator {
            Iterator(first: first[...], stream: rest, rest: rest.makeAsyncIterator())
        }

        struct Iterator: AsyncIteratorProtocol {
            var first: ArraySlice<ArraySlice<UInt8>>
            let stream: LiveStream
            var rest: LiveStream.Iterator

            mutating func next() async throws -> ArraySlice<UInt8>? {
                if let head = first.popFirst() { return head }
                // A stream never ends by itself: on shutdown it ends here, so the server can
                // drain (clients reconnect to another server with their last id).
                let stream = stream
                let message = try await withGracefulShutdownHandler {
                    try await rest.next()
                } onGracefulShutdown: {
                    stream.end()
                }
                guard let message else { return nil }
                return ArraySlice(Array(ServerSentEvents.frame(message).utf8))
            }
        }
    }
}
