import Logging

/// swift-log's `StreamLogHandler`, writing the same lines, except that metadata is written out
/// when a line is logged rather than each time it is set. `StreamLogHandler` renders all of a
/// logger's metadata into text whenever any of it changes, and Hummingbird sets a request id on
/// every request's logger: 2.9 % of the CPU of a `GET /health` (issue 16) went to rendering text
/// that was never written, as a request logs nothing at the default level.
public struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    /// Writes through `stream`, whose own metadata should be empty.
    public init(_ stream: StreamLogHandler) {
        self.stream = stream
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var stream = stream
        stream.metadata = metadata
        stream.log(event: event)
    }
}
