import Configuration
import Logging
import SplitServer
import SplitStore
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    static func read(environment: [String: String], arguments: [String] = ["splitter-server"]) throws
        -> ServerConfiguration
    {
        try ServerConfiguration(
            reader: ConfigReader(providers: [
                CommandLineArgumentsProvider(arguments: arguments),
                EnvironmentVariablesProvider(environmentVariables: environment),
            ]))
    }

    @Test("nothing set: 127.0.0.1:8080 on an SQLite file, registration open")
    func defaults() throws {
        let configuration = try Self.read(environment: [:])
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.database == .sqlite(path: "splitter.sqlite"))
        #expect(configuration.allowRegistration && configuration.trustedProxies.isEmpty)
        #expect(configuration.bcryptCost >= 12 && configuration.limits.maxBodyBytes == 1 << 20)
        #expect(configuration.limits.feedCacheBytes == 24 << 20)
    }

    @Test("the environment's names, and the command line over the environment")
    func names() throws {
        let configuration = try Self.read(
            environment: [
                "HTTP_HOST": "0.0.0.0", "HTTP_PORT": "9000", "DATABASE_URL": "postgres://u:secret@db:5432/splitter",
                "LOG_LEVEL": "DEBUG", "TRUSTED_PROXIES": "10.0.0.0/8, ::1", "ALLOW_REGISTRATION": "false",
                "PUBLIC_URL": "https://split.example.org/", "MAX_BODY_BYTES": "65536", "FEED_CACHE_MB": "0",
            ],
            arguments: ["splitter-server", "--http-port", "9100"])
        #expect(configuration.host == "0.0.0.0" && configuration.port == 9100)
        #expect(configuration.database == .postgres(url: "postgres://u:secret@db:5432/splitter"))
        #expect(configuration.logLevel == .debug)
        #expect(configuration.trustedProxies.count == 2)
        #expect(!configuration.allowRegistration)
        #expect(configuration.publicURL == "https://split.example.org")
        #expect(configuration.limits.maxBodyBytes == 65536)
        #expect(configuration.limits.feedCacheBytes == 0)
    }

    @Test("a bad value stops start-up with one line naming the key, never the secret")
    func badValues() throws {
        let cases: [(String, String)] = [
            ("HTTP_PORT", "eighty"), ("HTTP_PORT", "70000"), ("LOG_LEVEL", "loud"),
            ("TRUSTED_PROXIES", "10.0.0.0/99"), ("ALLOW_REGISTRATION", "maybe"),
            ("PUBLIC_URL", "split.example.org"), ("PUBLIC_URL", "ftp://split.example.org"),
            ("PUBLIC_URL", "https://split.example.org/?x=1"), ("MAX_BODY_BYTES", "1MB"), ("MAX_BODY_BYTES", "100"),
            ("FEED_CACHE_MB", "-1"), ("FEED_CACHE_MB", "lots"),
            ("DATABASE_URL", "mysql://root:hunter2@db/x"),
        ]
        for (key, value) in cases {
            #expect {
                _ = try Self.read(environment: [key: value])
            } throws: { error in
                let text = "\(error)"
                return (error as? ConfigurationError)?.key == key && !text.contains("hunter2") && !text.contains("\n")
            }
        }
    }
}

@Suite("Client addresses")
struct ClientAddressTests {
    @Test("the socket peer, unless it is a trusted proxy; then the right-most untrusted forwarded hop")
    func forwardedFor() throws {
        let none = ClientAddressResolver(trustedProxies: [])
        #expect(none.resolve(peer: "203.0.113.9", forwardedFor: ["1.2.3.4"]) == "203.0.113.9")
        let proxies = ClientAddressResolver(trustedProxies: [
            try #require(IPNetwork("10.0.0.0/8")), try #require(IPNetwork("::1")),
        ])
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: ["198.51.100.7"]) == "198.51.100.7")
        // A client-written entry further left cannot choose its own address.
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: ["6.6.6.6, 198.51.100.7, 10.9.9.9"]) == "198.51.100.7")
        #expect(proxies.resolve(peer: "::1", forwardedFor: ["2001:db8::1"]) == "2001:db8::1")
        #expect(proxies.resolve(peer: "::ffff:10.0.0.5", forwardedFor: ["192.0.2.1"]) == "192.0.2.1")
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: ["198.51.100.7:5678"]) == "198.51.100.7")
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: ["[2001:db8::7]:443"]) == "2001:db8::7")
        // An entry the proxy wrote but nobody can parse is still that client's own key.
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: ["unknown"]) == "unknown")
        #expect(proxies.resolve(peer: "10.1.2.3", forwardedFor: []) == "10.1.2.3")
        #expect(proxies.resolve(peer: "192.0.2.50", forwardedFor: ["1.1.1.1"]) == "192.0.2.50")
    }

    @Test("CIDR ranges contain what they should")
    func ranges() throws {
        let network = try #require(IPNetwork("192.168.0.0/23"))
        #expect(network.contains(try #require(IPAddress("192.168.1.255"))))
        #expect(!network.contains(try #require(IPAddress("192.168.2.0"))))
        #expect(!network.contains(try #require(IPAddress("::1"))))
        #expect(IPNetwork("1.2.3.4/33") == nil && IPNetwork("nonsense") == nil && IPNetwork("1.2.3.4/") == nil)
        #expect(try #require(IPNetwork("0.0.0.0/0")).contains(try #require(IPAddress("8.8.8.8"))))
    }
}
