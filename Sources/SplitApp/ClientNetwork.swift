import Foundation

/// The client a per-address limit counts (wrong passwords, registrations, wrong codes, open
/// connections): an IPv4 address as it is, an IPv6 address by its /64. A network gives one
/// subscriber a whole /64, so counting each of its addresses apart would hand one client
/// unlimited fresh counts. IPv4 written as IPv6 (`::ffff:a.b.c.d`) stays one address each.
public enum ClientNetwork {
    public static func key(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        let mapped = octets[0..<10].allSatisfy { $0 == 0 } && octets[10] == 0xff && octets[11] == 0xff
        guard !mapped else { return address }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension RequestOrigin {
    /// `ClientNetwork.key` of the client's address.
    public var limitedAddress: String { ClientNetwork.key(clientAddress ?? "unknown") }
}
