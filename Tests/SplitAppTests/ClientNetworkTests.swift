import SplitApp
import Testing

@Suite("The client a per-address limit counts")
struct ClientNetworkTests {
    @Test("IPv4 as it is; IPv6 by its /64, whatever its spelling; IPv4 written as IPv6 one address each")
    func keys() {
        #expect(ClientNetwork.key("192.0.2.7") == "192.0.2.7")
        #expect(ClientNetwork.key("192.0.2.7") != ClientNetwork.key("192.0.2.8"))
        let one = ClientNetwork.key("2001:db8:1:2::1")
        #expect(one == "2001:db8:1:2::/64")
        #expect(ClientNetwork.key("2001:0db8:0001:0002:ffff:ffff:ffff:ffff") == one)
        #expect(ClientNetwork.key("2001:db8:1:3::1") != one)
        #expect(ClientNetwork.key("::ffff:192.0.2.7") != ClientNetwork.key("::ffff:192.0.2.8"))
        #expect(ClientNetwork.key("unknown") == "unknown")
        #expect(ClientNetwork.key("not:an:address") == "not:an:address")
    }
}
