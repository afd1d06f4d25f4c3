import Crypto
import Foundation
import SplitCore

/// What a web page needs to know about its request beyond the URL: the session cookie, the
/// CSRF token its forms must carry and the posted form. Set by `WebMiddleware`, which also looks
/// the session up once and puts the caller in `RequestInfo`, where the use cases and the API's
/// handlers read it (one authentication path).
struct WebRequest: Sendable {
    /// The session token from the cookie, if any. Not necessarily valid: its look-up decides.
    var sessionToken: String?
    /// The token every form on the page carries and every POST must return.
    var csrfToken: String
    /// The decoded `application/x-www-form-urlencoded` body of a POST (empty for a GET).
    var form: WebForm
    /// Whether the browser reached us over HTTPS (directly or via a trusted proxy): cookies are
    /// `Secure` then.
    var isSecure: Bool
    /// Path and query of this request, for `?next=` after logging in.
    var target: String
    /// Whether the page answers a GET: only then can its script fetch it again (live updates).
    var isGet = true

    @TaskLocal static var current: WebRequest?

    static func get() throws -> WebRequest {
        guard let current else { throw APIError.internalError }  // every page runs under WebMiddleware
        return current
    }

    static let sessionCookie = "splitter_session"
    /// The session cookie's name over HTTPS: the `__Host-` prefix makes browsers refuse it unless
    /// it is Secure, for this host only and for every path, so no subdomain can plant or shadow it.
    static let secureSessionCookie = "__Host-splitter_session"

    static func sessionCookie(secure: Bool) -> String { secure ? secureSessionCookie : sessionCookie }
    /// A random value for visitors without a session, so the login and register forms carry a
    /// CSRF token too. Over HTTPS with the `__Host-` prefix as well: a cookie planted by a
    /// subdomain would let its planter compute the login form's token and sign a visitor in to
    /// the planter's account (login CSRF).
    static func visitorCookie(secure: Bool) -> String { secure ? "__Host-splitter_visitor" : "splitter_visitor" }

    /// The form token is derived from the cookie's secret: a page from another site can neither
    /// read the cookie nor compute the token, and a new session gets new tokens.
    /// A path for the log: the secret part of a mailed link (a verification or reset token, an
    /// unsubscribe key) left out, so logs never hold a working link.
    static func loggable(_ path: String) -> String {
        for prefix in ["/verify-email/", "/reset-password/", "/unsubscribe/"] where path.hasPrefix(prefix) {
            return prefix + "…"
        }
        return path
    }

    static func csrfToken(for cookieSecret: String) -> String {
        let key = SymmetricKey(data: SHA256.hash(data: Data(cookieSecret.utf8)))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("splitter-csrf-v1".utf8), using: key)
        return Hex.string(Data(mac))
    }

    /// Compares in time independent of where the strings differ.
    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A local path to go to after logging in; anything else (another host, `//evil`, a
    /// scheme) becomes the home page.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"),
            !next.unicodeScalars.contains(where: { $0.value < 0x21 || $0 == "\\" })
        else { return "/groups" }
        return next
    }
}

/// A posted form: every name with its values in order (`in=a&in=b` is two values).
struct WebForm: Sendable {
    var fields: [(name: String, value: String)] = []

    init(fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Parses `application/x-www-form-urlencoded`; undecodable pairs are dropped.
    init(urlEncoded body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            guard let value else { continue }
            fields.append((name, value))
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    subscript(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The value trimmed, or nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    func has(_ name: String) -> Bool { fields.contains { $0.name == name } }
}
