import Foundation

/// The account rules of DESIGN §4 that both the server and the clients apply to what a person
/// types: one normal form for emails and phone numbers, and the limits on names and passwords.
public enum AccountInput {
    public static let passwordLength = 8...128
    public static let displayNameLength = 1...100

    /// Trimmed and lower-cased; nil unless it looks like `local@domain.tld` with no spaces.
    /// In Unicode's composed form (NFC), so "café" typed either way is one account.
    public static func normalizedEmail(_ raw: String) -> String? {
        let email = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
            .lowercased()
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

    /// Trimmed display name, or nil when `normalizedName` refuses it at 1–100 characters.
    public static func normalizedDisplayName(_ raw: String) -> String? {
        normalizedName(raw, length: displayNameLength)
    }

    /// A name people read next to money (a person, a group, a category): composed (NFC) and
    /// trimmed, or nil when its length in Unicode scalars (as the database's `length()` and JSON
    /// Schema's `maxLength` count them: "👍🏽" is two) is outside `length`, or it holds control
    /// characters, bidirectional embeddings, overrides or isolates (U+202A–U+202E,
    /// U+2066–U+2069, which can make "Aki" display as another name), nothing visible (only
    /// U+FEFF, zero-width or filler characters), or more than `maxCombiningMarks` combining marks
    /// on one character.
    /// A run of spaces inside it is one space, the first of the run ("Erin  K" is "Erin K", as a
    /// page shows it; a full-width space alone stays as typed).
    public static func normalizedName(_ raw: String, length: ClosedRange<Int>) -> String? {
        let name = collapsingSpaceRuns(
            raw.precomposedStringWithCanonicalMapping.trimmingCharacters(
                in: CharacterSet.whitespacesAndNewlines.union(invisibleScalars)))
        guard length.contains(name.unicodeScalars.count),
            !containsControlCharacters(name, allowingLineBreaks: false),
            !name.unicodeScalars.contains(where: { isBidiControl($0.value) }),
            name.unicodeScalars.contains(where: { isVisible($0) })
        else { return nil }
        var run = 0
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                run += 1
                if run > maxCombiningMarks { return nil }
            default:
                run = 0
            }
        }
        return name
    }

    /// Two names are one name when their keys are equal: lower case, each run of white space one
    /// plain space ("Bar  Tab", "bar tab" and "Bar\u{00A0}Tab" are one category name).
    public static func nameKey(_ name: String) -> String {
        var key = String.UnicodeScalarView()
        var previousWasSpace = false
        for scalar in name.lowercased().unicodeScalars {
            let isSpace = scalar.properties.isWhitespace
            if isSpace {
                if !previousWasSpace { key.append(" ") }
            } else {
                key.append(scalar)
            }
            previousWasSpace = isSpace
        }
        return String(key)
    }

    /// The text with each run of white space kept as its first character.
    public static func collapsingSpaceRuns(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace
            if !(isSpace && previousWasSpace) { scalars.append(scalar) }
            previousWasSpace = isSpace
        }
        return String(scalars)
    }

    /// Combining marks one character may carry: scripts need two or three (Thai, Hebrew with
    /// points); a stack of dozens is an attack on the page ("Zalgo" text).
    public static let maxCombiningMarks = 4

    private static let bidiControls: ClosedRange<UInt32> = 0x202A...0x202E
    private static let bidiIsolates: ClosedRange<UInt32> = 0x2066...0x2069
    private static func isBidiControl(_ value: UInt32) -> Bool {
        bidiControls.contains(value) || bidiIsolates.contains(value)
    }

    /// Characters that draw nothing: format characters (U+FEFF, zero-width space and joiners)
    /// and the filler letters some scripts have.
    private static let invisibleScalars: CharacterSet = {
        var set = CharacterSet(charactersIn: "\u{115F}\u{1160}\u{3164}\u{FFA0}\u{2800}\u{180E}")
        set.insert(charactersIn: "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}\u{034F}")
        return set
    }()

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !invisibleScalars.contains(scalar)
            && scalar.properties.generalCategory != .format
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
