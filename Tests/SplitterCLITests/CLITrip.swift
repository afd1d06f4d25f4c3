import Foundation
import SplitStore
import SplitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real server with its own SQLite file and a config folder for the `splitter` profiles of a
/// test; everything is removed when the body ends, also when it fails.
struct CLITrip {
    let config: URL
    let databasePath: String
    /// What the server is started with besides its database, also after a restart.
    let serverEnvironment: [String: String]
    var server: ServerProcess

    var url: String { server.baseURL.absoluteString }

    static func with(
        serverEnvironment: [String: String] = [:], _ body: (inout CLITrip) async throws -> Void
    ) async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-cli-\(UUID())")
            defer { try? FileManager.default.removeItem(at: config) }
            let environment = serverEnvironment.merging(["DATABASE_URL": "sqlite:\(path)"]) { $1 }
            var trip = CLITrip(
                config: config, databasePath: path, serverEnvironment: environment,
                server: try await ServerProcess(environment: environment))
            do {
                try await body(&trip)
            } catch {
                _ = try? await trip.server.stop()
                throw error
            }
            _ = try await trip.server.stop()
        }
    }

    /// The server goes away and comes back on the same database (on a new port).
    mutating func restartServer() async throws {
        _ = try await server.stop()
        server = try await ServerProcess(environment: serverEnvironment)
    }

    func run(_ arguments: String..., stdin: String? = nil, environment: [String: String] = [:]) async throws
        -> CLITests.Result
    {
        try await CLITests.splitter(arguments, stdin: stdin, config: config, environment: environment)
    }

    /// Runs a read with `--json` and decodes what it printed.
    func json(_ arguments: String...) async throws -> Any {
        let result = try await CLITests.splitter(arguments + ["--json"], config: config)
        try #require(result.status == 0, "\(arguments): \(result.error)")
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    /// Aki (default profile, owner) and Ben (profile "ben") with accounts, in group Japan (JPY),
    /// with Cho, a friend without an account.
    func setUpJapan() async throws {
        for (profile, name) in [("default", "Aki"), ("ben", "Ben")] {
            let reply = try await run(
                "register", "--profile", profile, "--server", url, "--email", "\(name.lowercased())@example.com",
                "--name", name, "--password-stdin", stdin: "correct horse")
            try #require(reply.status == 0, "\(reply.error)")
        }
        try #require(try await run("group", "create", "Japan", "--currency", "JPY").status == 0)
        let shown = try await json("group", "show", "Japan") as? [String: Any]
        let code = try #require((shown?["group"] as? [String: Any])?["inviteCode"] as? String)
        try #require(try await run("group", "join", code, "--profile", "ben").status == 0)
        try #require(try await run("member", "add", "Japan", "Cho").status == 0)
    }

    /// The id of the expense with this description, as `profile` lists it.
    func expenseID(_ description: String, profile: String = "default") async throws -> String {
        let list = try await json("expense", "list", "Japan", "--profile", profile) as? [[String: Any]]
        return try #require(list?.first { $0["description"] as? String == description }?["id"] as? String)
    }

    /// The expense as `profile` reads it from the server now.
    func expense(_ id: String, profile: String = "default") async throws -> [String: Any] {
        try #require(try await json("expense", "show", id, "--profile", profile) as? [String: Any])
    }

    /// An address where no server listens: "offline" for one profile while the other is online.
    static func unreachableURL() throws -> String {
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socketFD = socket(AF_INET, stream, 0)
        try #require(socketFD >= 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketFD, generic, length) == 0 && getsockname(socketFD, generic, &length) == 0
            }
        }
        try #require(bound)
        // A port the system just handed out and nobody listens on: connections are refused at once.
        return "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }
}

extension CLITests.Result {
    /// The cells of the first output line that contains all of `words`.
    func row(_ words: String...) -> [String]? {
        output.split(separator: "\n").first { line in words.allSatisfy { line.contains($0) } }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
    }

    var lines: [String] { output.split(separator: "\n").map(String.init) }
}
