import Foundation

/// A moment as the group's clocks showed it (issue 15: not UTC for a trip in Tokyo), with the
/// zone's short name so nobody has to guess: the one wording of times for pages, mail and
/// messages.
public enum ZonedTime {
    /// "2026-12-07 14:18 GMT+8" ("… UTC" in UTC); an unknown zone is UTC.
    public static func dateTime(_ date: Date, in zoneName: String = "UTC") -> String {
        let (day, time) = parts(date, in: zoneName)
        return "\(day) \(time)"
    }

    /// "14:18 GMT+8" on the day of `now` in that zone, else with the date as `dateTime` (found by
    /// a new user: an ISO UTC timestamp beside pages in the group's time).
    public static func moment(_ milliseconds: Int64, in zoneName: String, now: Int64? = nil) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let (day, time) = parts(date, in: zoneName)
        let today = parts(now.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date(), in: zoneName).day
        return day == today ? time : "\(day) \(time)"
    }

    /// The day ("2026-12-07") and the time with the zone's name ("14:18 GMT+8").
    private static func parts(_ date: Date, in zoneName: String) -> (day: String, time: String) {
        let zone = TimeZone(identifier: zoneName) ?? TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        // Foundation names UTC "GMT" (its identifier too); the group's setting says UTC.
        let name = ["UTC", "GMT"].contains(zone.identifier) ? "UTC" : (zone.abbreviation(for: date) ?? zone.identifier)
        return (
            String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0),
            String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0) + " " + name
        )
    }
}
