import Foundation
import Testing

@testable import SplitCore

@Suite("Timestamps on the wire")
struct UTCTimestampTests {
    /// From 1583 on: before the Gregorian reform Foundation switches to the Julian calendar, while
    /// these are proleptic Gregorian (the server writes only moments it lived through).
    @Test("written exactly as ISO8601DateFormatter writes them, and read back to the second, for random moments")
    func sameAsFoundation() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        let edges: [TimeInterval] = [0, -1, 951_782_400, 951_868_799.999, 4_102_444_800, 253_402_300_799, -12_212_553_600]
        let random = (0..<2_000).map { _ in
            TimeInterval(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator)) + 0.75
        }
        for seconds in edges + random {
            let date = Date(timeIntervalSince1970: seconds)
            let text = UTCTimestamp.format(date)
            #expect(text == formatter.string(from: date), "\(seconds)")
            #expect(UTCTimestamp.parse(text ?? "")?.timeIntervalSince1970 == seconds.rounded(.down), "\(seconds)")
        }
    }

    @Test("anything but YYYY-MM-DDTHH:MM:SSZ with a real date and time is not read")
    func refusals() {
        for text in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+01:00", "2026-01-01 00:00:00Z", "", "2026-1-01T00:00:00Z"]
        {
            #expect(UTCTimestamp.parse(text) == nil, "\(text)")
        }
        #expect(UTCTimestamp.parse("2024-02-29T23:59:59Z") != nil)
    }
}
