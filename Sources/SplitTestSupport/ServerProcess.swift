import Foundation
import SplitSpawn

/// The real `splitter-server` binary, started by a test on a port the OS picks (`--http-port 0`),
/// stopped with SIGTERM (STYLE §20: a few tests drive the real binary).
public final class ServerProcess: Sendable {
    public let baseURL: URL
    public let logPath: String
    private let child: ChildProcess

    /// Where the binary is: `SPLITTER_SERVER_BINARY`, else beside the test bundle (the same build folder).
    public static func binaryPath() -> String {
        if let path = ProcessInfo.processInfo.environment["SPLITTER_SERVER_BINARY"] { return path }
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent()].map {
            $0.appendingPathComponent("splitter-server").path
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Starts the server with these extra environment variables and waits (up to `timeout`) for
    /// the line that says which port it listens on.
    public init(environment: [String: String], timeout: Duration = .seconds(60)) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logPath = directory.appendingPathComponent("server.log").path
        let (child, start) = try await ChildProcess.start(
            executable: Self.binaryPath(), arguments: ["--http-port", "0"], directory: directory,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, logPath: logPath,
            portAfter: "port=", timeout: timeout)
        self.child = child
        switch start {
        case .listening(let port): baseURL = URL(string: "http://127.0.0.1:\(port)")!
        case .failed(let log): throw ServerProcessError.didNotStart(log: log)
        }
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    public func stop(timeout: Duration = .seconds(30)) async throws -> Int32 {
        guard try await child.stop(timeout: timeout) else { throw ServerProcessError.didNotStop(log: log) }
        return child.program.waitForExit()
    }

    /// Stops the server, then runs `body` while its port is held shut: bound by this process and
    /// never listening, so a client that kept the address is refused, as by a server that is gone,
    /// and no other test's server can be handed the port meanwhile. (It was: under load, an offline
    /// CLI test reached another test's new server on the freed port and was told its session had
    /// ended.)
    public func stop<T>(whileGone body: () async throws -> T) async throws -> T {
        _ = try await stop()
        guard let port = baseURL.port else { throw ServerProcessError.portNotHeld(errno: 0) }
        let held = try HeldPort(port)
        defer { held.release() }
        return try await body()
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}

public enum ServerProcessError: Error, CustomStringConvertible {
    case didNotStart(log: String)
    /// With the server's log, which says what its shutdown was waiting for.
    case didNotStop(log: String)
    case portNotHeld(errno: Int32)

    public var description: String {
        switch self {
        case .didNotStart(let log): "splitter-server did not start:\n\(log)"
        case .didNotStop(let log): "splitter-server did not stop within the timeout after SIGTERM:\n\(log)"
        case .portNotHeld(let code): "the stopped server's port could not be held shut (errno \(code))"
        }
    }
}

/// A TCP socket bound to 127.0.0.1:port and never listening: a connection to the port is refused,
/// and the kernel picks it for no `port 0` bind (which every test server makes) until `release()`.
/// SO_REUSEADDR lets it bind past the stopped server's connections in TIME_WAIT; a search for a
/// free port still skips a port any socket is bound to, reusable or not.
private final class HeldPort: @unchecked Sendable {
    private let descriptor: Int32

    init(_ port: Int) throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServerProcessError.portNotHeld(errno: errno) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // The stopped server's listening socket may take a moment to close.
        var lastError: Int32 = 0
        for _ in 0..<100 {
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0 {
                self.descriptor = descriptor
                return
            }
            lastError = errno
            usleep(50_000)
        }
        close(descriptor)
        throw ServerProcessError.portNotHeld(errno: lastError)
    }

    func release() { close(descriptor) }
}
