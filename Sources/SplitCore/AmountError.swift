/// Why a decimal string could not become an amount, or why arithmetic on amounts failed.
public enum AmountError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case malformed(String)
    /// `currencyCode` is nil for percentages, weights and rates.
    case tooManyDecimals(String, found: Int, allowed: Int, currencyCode: String?)
    case overflow(String)
    case negativeNotAllowed(String)
    case currencyMismatch(Currency, Currency)

    public var description: String {
        switch self {
        case .empty:
            "the amount is empty"
        case .malformed(let text):
            "\"\(text)\" is not a decimal number (digits with an optional \".\", no spaces or separators)"
        case .tooManyDecimals(let text, let found, let allowed, let code):
            "\"\(text)\" has \(found) decimal\(found == 1 ? "" : "s"); "
                + (code.map { allowed == 0 ? "\($0) has no minor unit" : "\($0) allows at most \(allowed)" }
                    ?? "at most \(allowed) allowed")
        case .overflow(let text):
            "\"\(text)\" is too large"
        case .negativeNotAllowed(let text):
            "\"\(text)\" is negative; a positive amount is needed"
        case .currencyMismatch(let left, let right):
            "cannot combine \(left.code) with \(right.code)"
        }
    }
}
