import Foundation
import Testing

@testable import SplitApp

@Suite("Times as the group's clocks show them")
struct ZonedTimeTests {
    // 2026-12-07 23:30 UTC: already the 8th in Tokyo.
    let moment: Int64 = 1_796_686_200_000

    @Test("the date and time in the group's zone, with the zone's name; UTC says UTC; an unknown zone is UTC")
    func dateTime() {
        let date = Date(timeIntervalSince1970: Double(moment) / 1000)
        #expect(ZonedTime.dateTime(date, in: "UTC") == "2026-12-07 23:30 UTC")
        let tokyo = ZonedTime.dateTime(date, in: "Asia/Tokyo")
        #expect(tokyo == "2026-12-08 08:30 GMT+9" || tokyo == "2026-12-08 08:30 JST", "\(tokyo)")
        #expect(ZonedTime.dateTime(date, in: "Mars/Olympus") == "2026-12-07 23:30 UTC")
    }

    @Test("a moment of today there is its time alone; of another day there, with the date")
    func momentToday() {
        // Two hours after 23:30 UTC is the next day in UTC, the same day (the 8th) in Tokyo;
        // ten hours before is the 7th in Tokyo too.
        let hour: Int64 = 3_600_000
        #expect(ZonedTime.moment(moment, in: "UTC", now: moment - hour) == "23:30 UTC")
        #expect(ZonedTime.moment(moment, in: "UTC", now: moment + 2 * hour) == "2026-12-07 23:30 UTC")
        let tokyo = ZonedTime.moment(moment, in: "Asia/Tokyo", now: moment + 2 * hour)
        #expect(tokyo.hasPrefix("08:30 "), "\(tokyo)")
        let before = ZonedTime.moment(moment - hour, in: "Asia/Tokyo", now: moment - 10 * hour)
        #expect(before.hasPrefix("2026-12-08 07:30 "), "\(before)")
    }
}
