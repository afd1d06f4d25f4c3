import SplitCore
import SplitStore

/// How large one expense may be. openapi.yaml states the same numbers as `maxItems`/`maxLength`,
/// which `RequestBodyLimits` enforces for the API before a body is decoded; these checks are the
/// same bounds for every other way in (the web form, imports later), and the byte cap is the
/// last word on what one row may hold whatever the way in.
public enum ExpenseLimits {
    /// Payers, or members named by one split (a group holds at most this many members too).
    public static let membersPerSplit = 200
    /// Lines of an itemized bill.
    public static let items = 100
    /// Tax, tip and discounts of an itemized bill.
    public static let extras = 20
    /// An item's or extra's description, in Unicode scalars (like the expense's own).
    public static let textLength = 200
    /// The stored split (`expenses.split_json`) of one expense, in bytes of UTF-8. A split within
    /// the counts above stays far below it (100 items of 10 members ≈ 50 KB).
    public static let storedSplitBytes = 64 * 1024

    static func checkCount(_ count: Int, atMost limit: Int, field: String) throws {
        guard count <= limit else {
            throw AppError.invalid(field: field, message: "\(field) has more than \(limit) entries.")
        }
    }

    static func checkText(_ text: String, field: String) throws {
        guard text.unicodeScalars.count <= textLength,
            !AccountInput.containsControlCharacters(text, allowingLineBreaks: false)
        else {
            throw AppError.invalid(
                field: field, message: "A description has at most \(textLength) characters and no control characters.")
        }
    }

    /// A rule from elsewhere than a form (an imported file): its counts, its texts and its size.
    static func check(_ rule: SplitRule, field: String = "split") throws {
        switch rule {
        case .equal(let members), .adjustment(let members, _):
            try checkCount(members.count, atMost: membersPerSplit, field: field)
        case .exact(let list):
            try checkCount(list.count, atMost: membersPerSplit, field: field)
        case .percent(let list), .shares(let list):
            try checkCount(list.count, atMost: membersPerSplit, field: field)
        case .itemized(let items, let extras):
            try checkCount(items.count, atMost: Self.items, field: field + ".items")
            try checkCount(extras.count, atMost: Self.extras, field: field + ".extras")
            for (index, item) in items.enumerated() {
                try checkText(item.description, field: "\(field).items[\(index)].description")
                try check(item.rule, field: "\(field).items[\(index)].split")
            }
            for (index, extra) in extras.enumerated() {
                try checkText(extra.description, field: "\(field).extras[\(index)].description")
            }
        }
        try checkStoredSize(rule)
    }

    static func checkStoredSize(_ rule: SplitRule) throws {
        let bytes = StoredSplit.encode(rule).utf8.count
        guard bytes <= storedSplitBytes else {
            throw AppError.invalid(
                field: "split",
                message: "This split is too large to store (\(bytes) bytes; at most \(storedSplitBytes)).")
        }
    }
}
