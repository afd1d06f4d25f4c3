import Foundation
import SplitCore

/// One notification mail to one recipient, checked when it is made and rendered as RFC 5322 text.
///
/// Every header value is checked at `init` (no CR or LF anywhere, addresses with one "@", header
/// names we render ourselves refused as extras), so text from users — a group name in a subject, a
/// display name — can never add a header or a recipient (header injection). Bodies are UTF-8 in
/// quoted-printable, so the message is 7-bit and every line stays short whatever the relay.
public struct MailMessage: Sendable {
    /// A mailbox: an address and an optional display name (any Unicode; encoded when rendered).
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public let address: String
        public let displayName: String?

        /// Minimal checks, enough to keep the address one token in a header and on the SMTP
        /// command line: ASCII (we do not offer SMTPUTF8), one "@" with text on both sides, no
        /// spaces, control characters or angle brackets.
        public init(_ address: String, displayName: String? = nil) throws {
            guard !address.isEmpty, address.utf8.count <= 254 else {
                throw MailMessageError(field: "address", problem: "must have 1 to 254 characters")
            }
            guard address.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
                throw MailMessageError(
                    field: "address", problem: "must be ASCII without spaces or control characters (line breaks)")
            }
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw MailMessageError(field: "address", problem: "must have exactly one @ with text on both sides")
            }
            guard !address.contains(where: { "<>,;\"\\()[]".contains($0) }) else {
                throw MailMessageError(field: "address", problem: "must not contain <>,;\"\\()[]")
            }
            if let displayName { try MailMessage.checkLine(displayName, field: "display name") }
            self.address = address
            self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
        }

        public var description: String { displayName.map { "\($0) <\(address)>" } ?? address }
    }

    /// An extra header such as `List-Unsubscribe`: printable ASCII, one line.
    public struct Header: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    public let from: Address
    public let to: Address
    public let subject: String
    public let plainText: String
    public let html: String?
    public let headers: [Header]
    /// Without angle brackets (`local@domain`); rendered as `Message-ID: <...>`.
    public let messageID: String
    public let date: Date

    /// Headers we write ourselves; an extra one of these names would make the message ambiguous
    /// (two Subjects) or reach people the envelope does not (Cc, Bcc).
    static let reservedHeaderNames: Set<String> = [
        "from", "to", "cc", "bcc", "subject", "date", "message-id", "mime-version", "content-type",
        "content-transfer-encoding", "sender",
    ]

    /// Checks everything (throws `MailMessageError`). `messageID` defaults to a random UUID at the
    /// sender's domain.
    public init(
        from: Address, to: Address, subject: String, plainText: String, html: String? = nil,
        headers: KeyValuePairs<String, String> = [:], messageID: String? = nil, date: Date = Date()
    ) throws {
        try Self.checkLine(subject, field: "subject")
        var checked: [Header] = []
        for (name, value) in headers {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 && $0 != ":" })
            else {
                throw MailMessageError(field: "header name", problem: "must be printable ASCII without a colon")
            }
            guard !Self.reservedHeaderNames.contains(name.lowercased()) else {
                throw MailMessageError(field: "header \(name)", problem: "is written by MailMessage itself")
            }
            try Self.checkLine(value, field: "header \(name)")
            guard value.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }), value.utf8.count <= 900
            else {
                throw MailMessageError(
                    field: "header \(name)", problem: "must be printable ASCII, at most 900 characters")
            }
            checked.append(Header(name: name, value: value))
        }
        let id = messageID ?? "\(UUID.random().uuidString.lowercased())@\(from.address.split(separator: "@")[1])"
        guard id.contains("@"), id.utf8.count <= 250,
            id.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 && !"<>".unicodeScalars.contains($0) })
        else {
            throw MailMessageError(
                field: "message id", problem: "must be printable ASCII with an @, without <> or spaces")
        }
        self.from = from
        self.to = to
        self.subject = subject
        self.plainText = plainText
        self.html = html
        self.headers = checked
        self.messageID = id
        self.date = date
    }

    /// The message as RFC 5322 text with CRLF line endings, ending in CRLF; a random MIME
    /// boundary when there is an HTML part.
    public func rendered() -> String {
        var random = SystemRandomNumberGenerator()
        let boundary =
            "=_split_" + (0..<24).map { _ in String(Int.random(in: 0..<16, using: &random), radix: 16) }.joined()
        return rendered(boundary: boundary)
    }

    /// `boundary` starts with "=_", which quoted-printable can never produce ("=" is always
    /// written =3D), so no body line can be mistaken for it.
    func rendered(boundary: String) -> String {
        var lines = [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(Self.mailbox(from))",
            "To: \(Self.mailbox(to))",
            Self.unstructured("Subject", subject),
            "Message-ID: <\(messageID)>",
        ]
        lines += headers.map { Self.folded("\($0.name): \($0.value)") }
        lines.append("MIME-Version: 1.0")
        if let html {
            lines += [
                "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
                "",
                "--\(boundary)",
                "Content-Type: text/plain; charset=UTF-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                Self.quotedPrintable(plainText),
                "--\(boundary)",
                "Content-Type: text/html; charset=UTF-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                Self.quotedPrintable(html),
                "--\(boundary)--",
            ]
        } else {
            lines += [
                "Content-Type: text/plain; charset=UTF-8",
                "Content-Transfer-Encoding: quoted-printable",
                "",
                Self.quotedPrintable(plainText),
            ]
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: - Pieces (RFC 5322, RFC 2045, RFC 2047)

    static func checkLine(_ text: String, field: String) throws {
        guard !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw MailMessageError(field: field, problem: "must not contain a line break (CR or LF)")
        }
        guard !text.unicodeScalars.contains(where: { $0 != "\t" && $0.properties.generalCategory == .control }) else {
            throw MailMessageError(field: field, problem: "must not contain control characters")
        }
    }

    /// `Tue, 05 May 2026 14:03:09 +0000` (RFC 5322 §3.3), always in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return
            "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }

    static func mailbox(_ address: Address) -> String {
        guard let name = address.displayName else { return "<\(address.address)>" }
        if name.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) && !name.contains("=?") {
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\" <\(address.address)>"
        }
        return encodedWords(name).joined(separator: "\r\n ") + " <\(address.address)>"
    }

    /// Plain and folded when the text is short-worded ASCII; otherwise RFC 2047 encoded words.
    static func unstructured(_ name: String, _ text: String) -> String {
        let isPlain =
            text.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) && !text.contains("=?")
            && text.split(separator: " ").allSatisfy { $0.utf8.count <= 70 }
        if isPlain { return folded("\(name): \(text)") }
        return "\(name): " + encodedWords(text).joined(separator: "\r\n ")
    }

    /// Breaks a header line before spaces so that lines stay within 78 characters where the words allow.
    static func folded(_ line: String) -> String {
        var result: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if current.isEmpty && result.isEmpty {
                current = String(word)
            } else if current.utf8.count + 1 + word.utf8.count > 78
                && !current.trimmingCharacters(in: .whitespaces).isEmpty
            {
                result.append(current)
                current = " " + word
            } else {
                current += " " + word
            }
        }
        result.append(current)
        return result.joined(separator: "\r\n")
    }

    /// `=?UTF-8?B?...?=` words of at most 75 characters (RFC 2047 §2), each holding whole
    /// characters: at most 45 bytes of UTF-8, whose base64 is 60 characters plus 12 of framing.
    static func encodedWords(_ text: String) -> [String] {
        let maximumBytes = 45
        var chunks: [[UInt8]] = []
        var current: [UInt8] = []
        func add(_ bytes: [UInt8]) {
            if current.count + bytes.count > maximumBytes && !current.isEmpty {
                chunks.append(current)
                current = []
            }
            current += bytes
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            if bytes.count <= maximumBytes {
                add(bytes)
            } else {
                // A grapheme longer than one word (long emoji sequences): split between its scalars.
                for scalar in character.unicodeScalars { add(Array(String(scalar).utf8)) }
            }
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        return chunks.map { "=?UTF-8?B?\(Data($0).base64EncodedString())?=" }
    }

    /// UTF-8 in quoted-printable (RFC 2045 §6.7): CRLF line breaks, every line at most 76
    /// characters (soft breaks "=" where needed), trailing spaces and tabs encoded.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [String] = []
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            var tokens: [String] = []
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let isLiteral =
                    (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == 32 || byte == 9) && !isLast)
                tokens.append(
                    isLiteral
                        ? String(UnicodeScalar(byte))
                        : String(
                            decoding: [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self))
            }
            var current = ""
            for token in tokens {
                if current.utf8.count + token.utf8.count > 75 {
                    output.append(current + "=")
                    current = ""
                }
                current += token
            }
            output.append(current)
        }
        return output.joined(separator: "\r\n")
    }
}

/// A message that cannot be sent as given: which field, and why.
public struct MailMessageError: Error, CustomStringConvertible, Equatable {
    public var field: String
    public var problem: String

    public var description: String { "mail \(field) \(problem)" }
}
