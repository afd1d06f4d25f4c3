import Foundation

/// One event as a `text/event-stream` carries it (the WHATWG "server-sent events" format).
struct ServerSentEvent: Hashable, Sendable {
    /// The event's type; "message" when the server named none.
    var event: String
    /// The data lines joined by "\n".
    var data: String
    /// The last event id in force when it was dispatched (ids persist across events, as in a
    /// browser's EventSource); empty when the server has sent none.
    var lastEventID: String
}

/// Reads a `text/event-stream` from chunks as they arrive, cut anywhere: in the middle of a
/// line, between a CR and its LF, inside a multi-byte character. Lines end in LF, CRLF or CR;
/// `:` starts a comment; `data` lines of one event are joined with "\n"; `id` and `retry` are
/// kept for the reconnect. An event is dispatched at the empty line that ends it, so one the
/// connection cut short is never half-delivered. Pure state, no I/O: tested byte by byte.
struct ServerSentEventParser: Sendable {
    /// What the stream's `retry:` field last asked for, in milliseconds.
    private(set) var retryMilliseconds: Int?
    /// The id the stream stands at: the last one set by a dispatched event (or given at the
    /// start, to resume from). What goes back as `Last-Event-ID` on a reconnect.
    private(set) var lastEventID: String
    /// Bytes of one line, and of the data of one event, beyond which the stream is refused
    /// (`exceededLimit`): a broken or hostile server cannot make the client hold unbounded text.
    let limit: Int
    /// Set once a line or an event grew past `limit`; the parser then ignores the rest.
    private(set) var exceededLimit = false

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var idBuffer: String

    init(lastEventID: String = "", limit: Int = 1 << 20) {
        self.lastEventID = lastEventID
        idBuffer = lastEventID
        self.limit = limit
    }

    /// Reads the next chunk; returns the events it completed, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            guard !exceededLimit else { return events }
            // A CR ends a line at once; an LF right after it belongs to the same line end.
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                endLine(&events)
            case 0x0A:
                endLine(&events)
            default:
                line.append(byte)
                if line.count > limit { exceededLimit = true }
            }
        }
        return events
    }

    private mutating func endLine(_ events: inout [ServerSentEvent]) {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        // A byte order mark may open the stream; it is not part of the first field's name.
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        guard !bytes.isEmpty else { return dispatch(&events) }
        // Decoded line by line, so a character cut between two chunks arrives whole.
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix(":") { return }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
            if data.utf8.count > limit { exceededLimit = true }
        case "id":
            // The format ignores an id with a NUL in it.
            if !value.contains("\u{0}") { idBuffer = String(value) }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int(value) {
                retryMilliseconds = milliseconds
            }
        default:
            break  // Unknown fields are ignored, as the format says.
        }
    }

    /// The blank line: the event so far goes out (if it had data), the buffers start again.
    private mutating func dispatch(_ events: inout [ServerSentEvent]) {
        lastEventID = idBuffer
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return }
        events.append(
            ServerSentEvent(event: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID))
    }
}
