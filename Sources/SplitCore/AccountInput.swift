import Foundation

/// The account rules of DESIGN §4 that both the server and the clients apply to what a person
/// types: one normal form for emails and phone numbers, and the limits on names and passwords.
public enum AccountInput {
    public static let passwordLength = 8...128
    public static let displayNameLength = 1...100

    /// Trimmed and lower-cased; nil unless it looks like `local@domain.tld` with no spaces.
    public static func normalizedEmail(_ raw: String) -> String? {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard email.unicodeScalars.count <= 254, !email.contains(where: \.isWhitespace),
            !containsControlCharacters(email, allowingLineBreaks: false)
        else { return nil }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix(".")
        else { return nil }
        return email
    }

    /// "+" followed by the digits only ("+60 12-345 6789" → "+60123456789"); nil without a
    /// leading "+" (a country code is required) or outside 8–15 digits (E.164).
    public static func normalizedPhone(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("+") || trimmed.hasPrefix("00") else { return nil }
        let body = trimmed.hasPrefix("+") ? trimmed.dropFirst() : trimmed.dropFirst(2)
        let allowed = Set(" -().")
        guard body.allSatisfy({ $0.isASCII && ($0.isNumber || allowed.contains($0)) }) else { return nil }
        let digits = body.filter(\.isNumber)
        guard (8...15).contains(digits.count), digits.first != "0" else { return nil }
        return "+" + digits
    }

    /// Whether a login string is an email (else it is read as a phone number).
    public static func isEmailLogin(_ raw: String) -> Bool { raw.contains("@") }

    /// Trimmed display name, or nil when empty, longer than 100 characters or holding control
    /// characters. Characters are Unicode scalars, as the database's `length()` and JSON
    /// Schema's `maxLength` count them ("👍🏽" is two).
    public static func normalizedDisplayName(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard displayNameLength.contains(name.unicodeScalars.count),
            !containsControlCharacters(name, allowingLineBreaks: false)
        else { return nil }
        return name
    }

    /// Whether text holds control characters (NUL, escapes, …), which no name or note needs and
    /// PostgreSQL refuses to store; line breaks and tabs are allowed where asked.
    public static func containsControlCharacters(_ text: String, allowingLineBreaks: Bool) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard scalar.properties.generalCategory == .control else { return false }
            return !(allowingLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t"))
        }
    }
}
