#if canImport(Glibc)
import Foundation
import Glibc
import SplitStore
import SplitTestSupport
import Testing

/// The offline tests' "the server is gone": its port stays shut while they run, so another test's
/// server, started meanwhile, cannot answer in its place.
@Suite("a stopped server's port")
struct StoppedServerTests {
    @Test("is refused while the test runs and taken by no other socket that does not ask to share it")
    func heldShut() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            let port = try #require(server.baseURL.port)
            try await server.stop {
                #expect(Self.connect(port) == ECONNREFUSED)
                #expect(Self.bind(port, reuseAddress: false) == EADDRINUSE)
                // (A server's `port 0` bind asks to share, yet the search for a free port skips
                // every port a socket is bound to: checked in a network namespace with a range of
                // two ports, where a third bind failed.)
            }
        }
    }

    private static func address(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func withSocket(_ body: (Int32, UnsafePointer<sockaddr>) -> Int32, port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = address(port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(descriptor, $0) }
        }
        return result == 0 ? 0 : errno
    }

    /// 0, or the errno of a failed connect.
    static func connect(_ port: Int) -> Int32 {
        withSocket({ Glibc.connect($0, $1, socklen_t(MemoryLayout<sockaddr_in>.size)) }, port: port)
    }

    /// 0, or the errno of a failed bind.
    static func bind(_ port: Int, reuseAddress: Bool) -> Int32 {
        withSocket(
            { descriptor, address in
                var on: Int32 = 1
                if reuseAddress {
                    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
                }
                return Glibc.bind(descriptor, address, socklen_t(MemoryLayout<sockaddr_in>.size))
            }, port: port)
    }
}
#endif
