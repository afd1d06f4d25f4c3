import Foundation
import Logging
import Testing

@testable import SplitServer

/// `ServerLogHandler` writes metadata only when it logs (issue 16); its lines must stay
/// `StreamLogHandler`'s.
@Suite("The server's log lines")
struct ServerLogHandlerTests {
    /// Lines written, kept for the test to read.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String] = []

        func write(_ string: String) { lock.withLock { written.append(string) } }
        var all: [String] { lock.withLock { written } }
    }

    @Test("the same lines as StreamLogHandler, metadata set one key at a time, merged and overridden, levels kept")
    func sameLines() {
        let ours = Lines()
        let theirs = Lines()
        var server = Logger(label: "splitter-server") { ServerLogHandler(StreamLogHandler(label: $0, stream: ours)) }
        var stream = Logger(label: "splitter-server") { StreamLogHandler(label: $0, stream: theirs) }
        server.logLevel = .notice
        stream.logLevel = .notice
        for (key, value) in [("hb.request.id", "42"), ("user", "Aki 🍣"), ("a", "first"), ("hb.request.id", "43")] {
            server[metadataKey: key] = .string(value)
            stream[metadataKey: key] = .string(value)
        }
        #expect(server[metadataKey: "hb.request.id"] == "43")
        for logger in [server, stream] {
            logger.info("not written: below the level")
            logger.notice("listening", metadata: ["port": "8080", "a": "overridden"])
            logger.error("health check failed")
        }
        server.handler.metadata = [:]
        stream.handler.metadata = [:]
        server.warning("bare")
        stream.warning("bare")
        // The timestamp (the first word) differs from one call to the next.
        func withoutTime(_ lines: [String]) -> [String] { lines.map { String($0.drop { $0 != " " }) } }
        #expect(ours.all.count == 3)
        #expect(withoutTime(ours.all) == withoutTime(theirs.all), "\(ours.all)\n\(theirs.all)")
        #expect(ours.all.first?.contains("a=overridden hb.request.id=43 port=8080 user=Aki 🍣") == true, "\(ours.all)")
    }
}
