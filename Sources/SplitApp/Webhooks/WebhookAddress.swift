import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which addresses a webhook may be sent to (issue 17): public ones only, unless the operator
/// set `WEBHOOK_ALLOW_PRIVATE=1`, so a group admin cannot make the server call into the network
/// it runs in (its database, a cloud's metadata service, a router's admin page). Checked on the
/// URL at registration and, after resolving the name, on the very address the delivery connects
/// to, so a name that later resolves elsewhere (DNS rebinding) changes nothing.
public enum WebhookAddress {
    /// An IP literal's bytes (4 or 16); nil for anything else (a host name). IPv4 in the old
    /// shorthands the resolver also takes as an address (`127.1`, `2130706433`, `0x7f000001`,
    /// `0177.0.0.1`, `0`) counts as a literal too (found by review: they passed registration).
    public static func parse(_ text: String) -> [UInt8]? {
        var literal = text
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, literal, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        if !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X" }),
            inet_aton(literal, &v4) != 0
        {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        return nil
    }

    /// False for loopback, private (RFC 1918, unique-local), link-local, carrier-grade NAT,
    /// multicast, unspecified, reserved and documentation ranges, and for IPv6 forms that carry
    /// one of those IPv4 addresses (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
    public static func isPublic(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4: return isPublicV4(bytes)
        case 16: return isPublicV6(bytes)
        default: return false
        }
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        let (a, c) = (b[0], b[1])
        switch a {
        case 0, 10, 127: return false  // "this network", private, loopback
        case 100 where (64...127).contains(c): return false  // carrier-grade NAT 100.64/10
        case 169 where c == 254: return false  // link-local (cloud metadata services live here)
        case 172 where (16...31).contains(c): return false
        case 192 where c == 168: return false
        case 192 where c == 0 && b[2] == 0: return false  // IETF protocol assignments 192.0.0/24
        case 192 where c == 0 && b[2] == 2: return false  // documentation
        case 198 where c == 18 || c == 19: return false  // benchmarking 198.18/15
        case 198 where c == 51 && b[2] == 100: return false
        case 203 where c == 0 && b[2] == 113: return false
        case 224...255: return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicV6(_ b: [UInt8]) -> Bool {
        if b.allSatisfy({ $0 == 0 }) { return false }  // ::
        if b.prefix(15).allSatisfy({ $0 == 0 }) && b[15] == 1 { return false }  // ::1
        // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: the IPv4 address decides.
        if b.prefix(10).allSatisfy({ $0 == 0 }) && ((b[10] == 0xff && b[11] == 0xff) || (b[10] == 0 && b[11] == 0)) {
            return isPublicV4(Array(b.suffix(4)))
        }
        // NAT64 64:ff9b::/96 and 64:ff9b:1::/48 reach IPv4 addresses.
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b {
            return b[4] == 0 && b[5] == 1 ? false : isPublicV4(Array(b.suffix(4)))
        }
        // 6to4 2002::/16 carries an IPv4 address in bytes 2...5.
        if b[0] == 0x20, b[1] == 0x02 { return isPublicV4(Array(b[2...5])) }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return false }  // documentation
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return false }  // Teredo
        if b[0] & 0xfe == 0xfc { return false }  // unique-local fc00::/7
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 { return false }  // link-local fe80::/10
        if b[0] == 0xfe, b[1] & 0xc0 == 0xc0 { return false }  // site-local fec0::/10 (deprecated)
        if b[0] == 0xff { return false }  // multicast
        if b[0] == 0x01, b[1...7].allSatisfy({ $0 == 0 }) { return false }  // discard-only 100::/64
        return true
    }
}

/// A webhook URL as registration accepts it (issue 17).
public enum WebhookURL {
    public static let maxLength = 2_000

    /// The URL, trimmed, or `.invalid(field: "url")` saying what is wrong: https only (http
    /// too when private addresses are allowed, for receivers on the same machine or network),
    /// no user:password@, no fragment, a host, at most 2,000 characters, and no private IP
    /// literal or `localhost` unless allowed.
    public static func check(_ text: String, allowPrivate: Bool, field: String = "url") throws -> URLComponents {
        func refuse(_ message: String) -> AppError { AppError.invalid(field: field, message: message) }
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw refuse("Enter the URL deliveries go to.") }
        guard text.utf8.count <= maxLength else { throw refuse("The URL is longer than \(maxLength) characters.") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw refuse("This is not a URL; it looks like https://example.org/hooks/splitter.")
        }
        switch scheme {
        case "https": break
        case "http" where allowPrivate: break
        case "http": throw refuse("The URL must start with https:// (deliveries are sent encrypted).")
        default: throw refuse("The URL must start with https://.")
        }
        guard components.user == nil, components.password == nil else {
            throw refuse("The URL must not hold a user name or password; the signature proves who is calling.")
        }
        guard components.fragment == nil, !text.contains("#") else {
            throw refuse("The URL must not have a #fragment.")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("The URL needs a host name.") }
        if !allowPrivate {
            let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if let bytes = WebhookAddress.parse(host), !WebhookAddress.isPublic(bytes) {
                throw refuse(
                    "The URL's address is a private, loopback or otherwise internal one, which this server does not call."
                )
            }
            if name == "localhost" || name.hasSuffix(".localhost") {
                throw refuse(
                    "The URL's address is a private, loopback or otherwise internal one, which this server does not call."
                )
            }
        }
        return components
    }
}
