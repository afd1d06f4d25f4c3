import Foundation
import NIOCore
import NIOSSL

/// Where notification mail goes, read once at start from one URL (STYLE §6):
///
/// - `smtp://[user:pass@]host[:port]`: port 587, STARTTLS required — the client refuses to send
///   when the server does not offer it, so a stripped STARTTLS never sends mail or a password in clear;
/// - `smtps://[user:pass@]host[:port]`: TLS from the first byte, port 465;
/// - `smtp://host[:port]?tls=none`: plain text, only to a loopback relay (127.0.0.0/8, ::1, localhost).
///
/// User and password are percent-decoded. `caFile` is a PEM file of the CA that signed the
/// relay's certificate (a private relay, the tests): when set it is the *only* trusted root, so a
/// certificate from any public CA is refused for that relay — pinning the one CA expected there
/// is stricter than adding it to the system's roots. Without it the system's roots are used.
public struct SMTPSettings: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    public enum Security: String, Sendable, Equatable {
        /// Plain connection upgraded with STARTTLS before anything else is sent (required).
        case starttls
        /// TLS from the first byte (`smtps://`).
        case implicitTLS
        /// No TLS at all, loopback relays only.
        case none
    }

    public let host: String
    public let port: Int
    public let security: Security
    public let username: String?
    public let password: String?
    public let caFile: String?

    /// Parses an SMTP URL (the forms above); `caFile` is checked to hold at least one PEM certificate.
    public init(url: String, caFile: String? = nil) throws {
        let schemeEnd = try url.range(of: "://").orThrow("must start with smtp:// or smtps://")
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "smtp" || scheme == "smtps" else {
            throw SMTPSettingsError("must start with smtp:// or smtps://")
        }
        var rest = url[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw SMTPSettingsError("must not have a fragment (#...)") }

        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...] == "/" else { throw SMTPSettingsError("must not have a path") }
            rest = rest[..<slash]
        }

        // The last "@" ends the user information: an unencoded "@" in a password still parses.
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = userInfo.firstIndex(of: ":") else {
                throw SMTPSettingsError("has a user name but no password (user:password@host)")
            }
            username = try Self.decoded(userInfo[..<colon], part: "user name")
            password = try Self.decoded(userInfo[userInfo.index(after: colon)...], part: "password")
            guard username?.isEmpty == false else { throw SMTPSettingsError("has an empty user name") }
            guard password?.isEmpty == false else { throw SMTPSettingsError("has an empty password") }
        }

        let (host, explicitPort) = try Self.hostAndPort(rest)

        var tls: String?
        for parameter in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0] == "tls", pair.count == 2, tls == nil else {
                throw SMTPSettingsError("accepts only the query parameter tls=none (once)")
            }
            tls = String(pair[1]).lowercased()
        }

        let security: Security
        switch (scheme, tls) {
        case ("smtps", nil): security = .implicitTLS
        case ("smtp", nil), ("smtp", "starttls"): security = .starttls
        case ("smtp", "none"): security = .none
        default: throw SMTPSettingsError("accepts tls=none only with smtp:// (smtps:// is always TLS)")
        }
        if security == .none {
            guard Self.isLoopback(host) else {
                throw SMTPSettingsError("with tls=none refused: plain SMTP is only allowed to a loopback relay")
            }
            guard caFile == nil else { throw SMTPSettingsError("has a CA file but tls=none") }
        }
        if let caFile {
            let certificates = try? NIOSSLCertificate.fromPEMFile(caFile)
            guard let certificates, !certificates.isEmpty else {
                throw SMTPSettingsError("CA file \(caFile) is not a readable PEM certificate file")
            }
        }

        self.host = host
        self.port = explicitPort ?? (security == .implicitTLS ? 465 : 587)
        self.security = security
        self.username = username
        self.password = password
        self.caFile = caFile
    }

    /// The URL with the password replaced, for logs.
    public var description: String {
        let userInfo = username.map { "\(Self.encoded($0)):***@" } ?? ""
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let query = security == .none ? "?tls=none" : ""
        return "\(scheme)://\(userInfo)\(hostPart):\(port)\(query)"
    }

    /// `dump(settings)` shows the same redacted fields as `description`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "security": security, "username": username as Any,
                "password": password == nil ? "nil" : "***", "caFile": caFile as Any,
            ])
    }

    /// Whether the host is this machine: 127.0.0.0/8, ::1 (also IPv4-mapped) or localhost.
    public var isLoopback: Bool { Self.isLoopback(host) }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "localhost." { return true }
        // inet_pton through NIO, so that 127.000.0.1-style spellings and long IPv6 forms are judged
        // by the parser the connection will use.
        guard let address = try? SocketAddress(ipAddress: host, port: 0), let text = address.ipAddress else {
            return false
        }
        switch address {
        case .v4: return text.hasPrefix("127.")
        case .v6: return text == "::1" || text.hasPrefix("::ffff:127.")
        default: return false
        }
    }

    private static func hostAndPort(_ authority: Substring) throws -> (String, Int?) {
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            let close = try authority.firstIndex(of: "]").orThrow("has an IPv6 host without its closing ]")
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw SMTPSettingsError("has text after the IPv6 host") }
                portText = after.dropFirst()
            }
            guard host.contains(":") else { throw SMTPSettingsError("has brackets around a host that is not IPv6") }
        } else {
            host = authority
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
        }
        guard !host.isEmpty else { throw SMTPSettingsError("has no host") }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_:%"))
        guard host.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw SMTPSettingsError("has a host with characters a host name cannot have")
        }
        guard let portText else { return (String(host), nil) }
        guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw SMTPSettingsError("has a port that is not a number from 1 to 65535")
        }
        return (String(host), port)
    }

    /// Percent-decodes user or password; the error names the part, never its text.
    private static func decoded(_ text: Substring, part: String) throws -> String {
        let value = try String(text).removingPercentEncoding.orThrow("has a badly percent-encoded \(part)")
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SMTPSettingsError("has a control character in the \(part)")
        }
        return value
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text
    }
}

/// A bad SMTP URL or CA file: says what is wrong and never repeats the URL (it may hold a password).
public struct SMTPSettingsError: Error, CustomStringConvertible, Equatable {
    public var problem: String

    init(_ problem: String) { self.problem = problem }

    public var description: String { "SMTP URL \(problem)" }
}

extension Optional {
    fileprivate func orThrow(_ problem: String) throws -> Wrapped {
        guard let self else { throw SMTPSettingsError(problem) }
        return self
    }
}
