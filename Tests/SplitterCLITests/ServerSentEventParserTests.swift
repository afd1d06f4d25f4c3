import Foundation
import SplitTestSupport
import Testing

@testable import SplitClient

/// The SDK's reading of `text/event-stream` (the live stream), without a server: the format's
/// rules, and the same events whichever way the bytes are cut into chunks.
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    /// Every rule at once: a byte order mark, a comment before anything, `retry`, ids that carry
    /// over, multi-line data, a leading space taken once, LF, CRLF and lone CR line ends, a
    /// comment inside an event, an unknown field, an id-only block, multi-byte characters, and
    /// an event the stream ends in the middle of.
    static let stream = Array(
        ("\u{FEFF}retry: 2000\n: connected\n\n"
            + "id: g.1\nevent: change\ndata: {\"seq\":1}\n\n"
            + "event: change\r\ndata: first line\r\n: a comment inside\r\ndata:second line\r\ndata\r\n\r\n"
            + "id: g.2\rdata:  two spaces\rfoo: ignored\r\r"
            + "id: g.3\n\n"
            + ": heartbeat\n\n"
            + "data: ¥1200 🍣 ramen\n\n"
            + "id: g.4\nevent: change\ndata: cut off before its blank line").utf8)

    static let expected = [
        ServerSentEvent(event: "change", data: #"{"seq":1}"#, lastEventID: "g.1"),
        ServerSentEvent(event: "change", data: "first line\nsecond line\n", lastEventID: "g.1"),
        ServerSentEvent(event: "message", data: " two spaces", lastEventID: "g.2"),
        ServerSentEvent(event: "message", data: "¥1200 🍣 ramen", lastEventID: "g.3"),
    ]

    @Test("multi-line data, comments, ids, retry, and LF, CRLF and CR line ends are read as the format says")
    func wholeStream() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Self.stream) == Self.expected)
        // The id of the last whole event: the one cut off does not count.
        #expect(parser.lastEventID == "g.3")
        #expect(parser.retryMilliseconds == 2000)
    }

    @Test("the same events come out when the stream is cut at any byte, or sent one byte at a time")
    func everyBoundary() {
        for cut in 0...Self.stream.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(Self.stream[..<cut]) + parser.feed(Self.stream[cut...])
            #expect(events == Self.expected, "cut at byte \(cut)")
            #expect(parser.lastEventID == "g.3", "cut at byte \(cut)")
        }
        var parser = ServerSentEventParser()
        #expect(Self.stream.flatMap { parser.feed([$0]) } == Self.expected)
        // And cut in three at random places, with a seed the failure names.
        for seed in 0..<500 {
            var generator = SplitMix64(seed: UInt64(seed))
            let cuts = (0..<2).map { _ in Int.random(in: 0...Self.stream.count, using: &generator) }.sorted()
            var parser = ServerSentEventParser()
            let events =
                parser.feed(Self.stream[..<cuts[0]]) + parser.feed(Self.stream[cuts[0]..<cuts[1]])
                + parser.feed(Self.stream[cuts[1]...])
            #expect(events == Self.expected, "cuts \(cuts)")
        }
    }

    @Test("a CR at the end of one chunk and its LF at the start of the next make one line end, not two")
    func splitCRLF() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("data: a\r".utf8)).isEmpty)
        // Were the LF a second line end, this would dispatch "a" with no blank line after it.
        #expect(parser.feed(Array("\ndata: b\r".utf8)).isEmpty)
        #expect(parser.feed(Array("\n\r\n".utf8)) == [ServerSentEvent(event: "message", data: "a\nb", lastEventID: "")])
    }

    @Test("resuming: the id given at the start stands until the stream sets another; a bad retry is ignored")
    func resumeAndRetry() {
        var parser = ServerSentEventParser(lastEventID: "g.7")
        #expect(parser.feed(Array("retry: soon\ndata: x\n\n".utf8)).first?.lastEventID == "g.7")
        #expect(parser.retryMilliseconds == nil)
        _ = parser.feed(Array("id\n\n".utf8))
        #expect(parser.lastEventID == "")
    }

    @Test("a line longer than the limit stops the parser instead of growing without end")
    func limit() {
        var parser = ServerSentEventParser(limit: 16)
        #expect(parser.feed(Array("data: 0123456789abcdef\n\ndata: more\n\n".utf8)).isEmpty)
        #expect(parser.exceededLimit)
    }

    @Test("the server's frames become the SDK's events; overflow and unknown kinds are not passed on")
    func liveEvents() {
        let group = "0b7c6f1e-2f4a-4d1c-9e55-0d3c2b1a0f00"
        var parser = ServerSentEventParser()
        let frames = parser.feed(
            Array(
                ("id: \(group).42\nevent: change\ndata: {\"groupId\":\"\(group)\",\"seq\":42,\"actorUserId\":\"u1\","
                    + "\"changes\":[{\"entity\":\"expense\",\"id\":\"e1\",\"deleted\":true}]}\n\n"
                    + "id: \(group).43\nevent: resync\ndata: {\"groupId\":\"\(group)\",\"seq\":43}\n\n"
                    + "event: overflow\ndata: {}\n\nevent: later\ndata: {}\n\n").utf8))
        #expect(
            frames.compactMap(LiveConnection.liveEvent) == [
                LiveEvent(
                    kind: .change, id: "\(group).42", groupId: group, seq: 42,
                    changes: [LiveChange(entity: "expense", id: "e1", isDeleted: true)], actorUserId: "u1"),
                LiveEvent(kind: .resync, id: "\(group).43", groupId: group, seq: 43),
            ])
    }

    @Test("reconnect waits grow from the first delay (or the server's retry) to the cap, with jitter only below")
    func backoff() {
        let policy = LiveReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0.5)
        let waits = (1...8).map { policy.delay(afterFailures: $0) { 0 } }
        #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        // Full jitter draws halve the wait at most; the server's retry raises the first one.
        #expect(policy.delay(afterFailures: 3) { 1 } == .seconds(2))
        #expect(policy.delay(afterFailures: 1, atLeast: .seconds(2)) { 0 } == .seconds(2))
        #expect(policy.delay(afterFailures: 1, atLeast: .seconds(60)) { 0 } == .seconds(60))
        #expect(policy.delay(afterFailures: 10_000) { 0.5 } == .milliseconds(22_500))
    }
}
