import Foundation
import SplitTestSupport
import Testing

@testable import SplitClient

/// The SDK's fast date reading must agree with the runtime's ISO 8601 transcoder (an
/// `ISO8601DateFormatter` with its default options) on everything.
@Suite("Server timestamps in the SDK")
struct ServerDateTranscoderTests {
    @Test("random server timestamps read the same as with the runtime's transcoder")
    func agreesOnRandomDates() throws {
        // setup: whole seconds from 1900 to 2200, leap days and year ends included by chance
        var rng = SplitMix64(seed: 8)
        let reference = ISO8601DateFormatter()
        let fast = ServerDateTranscoder()
        for _ in 0..<5_000 {
            let date = Date(
                timeIntervalSince1970: TimeInterval(Int64.random(in: -2_208_988_800...7_258_118_400, using: &rng)))
            let text = reference.string(from: date)
            // act / validate
            #expect(try fast.decode(text) == reference.date(from: text), "\(text)")
            #expect(try fast.decode(text) == date, "\(text)")
        }
    }

    @Test(
        "other forms are read by the runtime's transcoder, or refused as before",
        arguments: [
            "2026-02-29T00:00:00Z", "2024-02-29T23:59:59Z", "2026-11-21T05:23:11+08:00", "2026-11-21T05:23:11.250Z",
            "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-21 05:23:11Z", "2026-11-21T24:00:00Z", "yesterday",
            "",
        ])
    func fallsBack(text: String) {
        let reference = ISO8601DateFormatter().date(from: text)
        let fast = try? ServerDateTranscoder().decode(text)
        #expect(fast == reference)
    }
}
