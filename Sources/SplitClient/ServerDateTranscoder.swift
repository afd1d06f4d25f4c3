import Foundation
internal import OpenAPIRuntime
import SplitCore

/// Reads the server's timestamps (`2026-11-21T05:23:11Z`: ISO 8601, UTC, whole seconds; DESIGN
/// §5) with plain arithmetic. The runtime's transcoder goes through `ISO8601DateFormatter`, which
/// is ICU on Linux: parsing dates was a third of the SDK's time in a first sync of 10,000
/// expenses (docs/benchmarks.md). Any other form goes to that transcoder, which decides as before.
struct ServerDateTranscoder: DateTranscoder {
    let fallback = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String { try UTCTimestamp.format(date) ?? fallback.encode(date) }

    func decode(_ text: String) throws -> Date {
        if let date = UTCTimestamp.parse(text) { return date }
        return try fallback.decode(text)
    }
}
