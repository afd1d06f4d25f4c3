/// How long to wait, in words a person reads at once: "40 s", "15 minutes", "24 hours" (a
/// day's wait said as 86400 s was read as a typo). Rounded up, so nobody is told to come back
/// too early.
public enum WaitText {
    public static func phrase(seconds: Int) -> String {
        let seconds = max(1, seconds)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 2 * 3_600 { return "\((seconds + 59) / 60) minutes" }
        return "\((seconds + 3_599) / 3_600) hours"
    }
}
