import Foundation

/// What each tool the assistant runs did, in words, for the web page, its script and the CLI
/// (found by review: they said "Ran balances, settle_plan", the MCP tools' names). A key is the
/// tool's name; "quick_add saving" is quick_add when it saved rather than only read the line;
/// " refused" after a key is what it tried when it was refused (not said as done).
public enum AssistantToolWords {
    public static let table: [String: String] = {
        let said: [(key: String, done: String, tried: String)] = [
            ("list_groups", "looked at your groups", "look at your groups"),
            ("list_members", "looked at the members", "look at the members"),
            ("list_expenses", "looked through the expenses", "look through the expenses"),
            ("add_expense", "saved an expense", "save an expense"), ("quick_add", "read the line", "read the line"),
            ("quick_add saving", "saved an expense", "save an expense"),
            ("balances", "read the balances", "read the balances"),
            ("settle_plan", "worked out Settle up", "work out Settle up"),
            ("record_settlement", "recorded a transfer", "record a transfer"),
            ("mark_share_paid", "changed a paid mark", "change a paid mark"),
            ("budget_status", "read the budget", "read the budget"),
            ("spending_by_person", "added up who paid and spent what", "add up who paid and spent what"),
            ("create_payment_request", "made a payment request", "make a payment request"),
        ]
        var words: [String: String] = [:]
        for entry in said {
            words[entry.key] = entry.done
            words[entry.key + " refused"] = "tried to \(entry.tried), refused"
        }
        return words
    }()

    /// The key of a call: its tool's name, " saving" for quick_add with dryRun false, " refused"
    /// when it was.
    public static func key(_ name: String, saving: Bool, refused: Bool) -> String {
        (name == "quick_add" && saving ? name + " saving" : name) + (refused ? " refused" : "")
    }

    /// One call in words ("read the balances").
    public static func words(_ key: String) -> String { table[key] ?? "looked something up" }

    /// "What I did: read the balances, worked out Settle up." for the calls of one answer; nil
    /// for none (found by a new user: "Read the line." alone under an answer read as an order).
    public static func said(_ keys: [String]) -> String? {
        var said: [String] = []
        for key in keys where !said.contains(words(key)) { said.append(words(key)) }
        guard !said.isEmpty else { return nil }
        return "What I did: " + said.joined(separator: ", ") + "."
    }
}
