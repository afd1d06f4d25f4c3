import Foundation
import SplitCore
import SplitAPI

/// How pages write money, dates and roles. Amounts arrive as exact decimal strings from the API
/// and are only re-grouped for reading, never recomputed in floating point.
enum WebFormat {
    /// A short name for the browser that signed in ("Chrome on Android", "Safari on iPhone"), so
    /// the account page's sessions can be told apart (issue 15); "Web browser" when unknown.
    static func deviceName(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "Web browser" }
        let browsers = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
            ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        let systems = [
            ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
            ("CrOS", "ChromeOS"), ("Macintosh", "Mac"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return "Browser on \(system)"
        case (nil, nil): return "Web browser"
        }
    }

    /// "1,200 JPY", "-12.50 USD".
    static func money(_ amount: String, _ currency: String) -> String {
        "\(grouped(amount)) \(currency)"
    }

    /// "1234567.5" → "1,234,567.5".
    static func grouped(_ amount: String) -> String {
        let negative = amount.hasPrefix("-")
        let unsigned = negative ? String(amount.dropFirst()) : amount
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first else { return amount }
        var digits = Array(whole)
        var groupedWhole = ""
        while digits.count > 3 {
            groupedWhole = "," + String(digits.suffix(3)) + groupedWhole
            digits.removeLast(3)
        }
        groupedWhole = String(digits) + groupedWhole
        let fraction = parts.count > 1 ? "." + parts[1] : ""
        return (negative ? "-" : "") + groupedWhole + fraction
    }

    /// The amount's magnitude ("-12.50" → "12.50").
    static func magnitude(_ amount: String) -> String {
        amount.hasPrefix("-") ? String(amount.dropFirst()) : amount
    }

    static func isZero(_ amount: String) -> Bool {
        !amount.contains { ("1"..."9").contains($0) }
    }

    /// "Ana", "Ana and Ben", "Ana, Ben and Chen".
    static func listed(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// "November 2026".
    static func monthName(_ date: CivilDate) -> String {
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(names[date.month - 1]) \(date.year)"
    }

    static func role(_ role: Components.Schemas.Role) -> String {
        switch role {
        case .owner: "Owner"
        case .admin: "Admin"
        case .member: "Member"
        case .viewer: "Viewer"
        }
    }
}
