import Foundation
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), IPv4-mapped IPv6 folded to IPv4 so that
/// `::ffff:10.0.0.1` and `10.0.0.1` are the same client.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
            bytes = Array(all.prefix(12)) == mappedPrefix ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address range for `TRUSTED_PROXIES`: `10.0.0.0/8`, `::1`, `192.168.1.7`.
public struct IPNetwork: Hashable, Sendable {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        let maxLength = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maxLength).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = maxLength
        }
        self.address = address
    }

    public func contains(_ other: IPAddress) -> Bool {
        guard other.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, other.bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }
}

/// Which address a request comes from, for rate limits and the audit trail (DESIGN §4): the
/// socket peer, unless that peer is a trusted proxy; then the right-most `X-Forwarded-For` entry
/// that is not itself a trusted proxy (entries further left are whatever the client wrote).
public struct ClientAddressResolver: Sendable {
    public let trustedProxies: [IPNetwork]

    public init(trustedProxies: [IPNetwork]) { self.trustedProxies = trustedProxies }

    public func resolve(peer: String?, forwardedFor: [String]) -> String {
        guard let peerText = peer, let peerAddress = IPAddress(peerText) else { return peer ?? "unknown" }
        guard isTrusted(peerAddress) else { return peerAddress.description }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for hop in hops.reversed() {
            guard let address = Self.address(hop) else {
                // Written by a trusted proxy but not an address we can read ("unknown", an
                // obfuscated id): still one client's key, never the proxy's shared one.
                return String(hop.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }.prefix(64))
            }
            if !isTrusted(address) { return address.description }
        }
        // Only proxies in the chain: the left-most one is as close to the client as we know.
        return hops.first.flatMap(Self.address)?.description ?? peerAddress.description
    }

    /// Whether the request reached us over HTTPS: directly, or through a trusted proxy that says
    /// so in `X-Forwarded-Proto`.
    func isSecure(_ request: Request, peer: String?) -> Bool {
        request.uri.scheme == .https
            || (isTrusted(peer: peer) && request.headers[.init("X-Forwarded-Proto")!]?.lowercased() == "https")
    }

    /// Whether the socket peer is one of the trusted proxies (whose `X-Forwarded-*` headers we believe).
    public func isTrusted(peer: String?) -> Bool {
        guard let peer, let address = IPAddress(peer) else { return false }
        return isTrusted(address)
    }

    /// An address as proxies write them: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`.
    static func address(_ hop: String) -> IPAddress? {
        if let address = IPAddress(hop) { return address }
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") {
            return IPAddress(String(hop[hop.index(after: hop.startIndex)..<close]))
        }
        let parts = hop.split(separator: ":")
        if parts.count == 2 { return IPAddress(String(parts[0])) }
        return nil
    }

    private func isTrusted(_ address: IPAddress) -> Bool { trustedProxies.contains { $0.contains(address) } }
}
