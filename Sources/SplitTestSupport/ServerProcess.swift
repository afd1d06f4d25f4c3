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

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}

public enum ServerProcessError: Error, CustomStringConvertible {
    case didNotStart(log: String)
    /// With the server's log, which says what its shutdown was waiting for.
    case didNotStop(log: String)

    public var description: String {
        switch self {
        case .didNotStart(let log): "splitter-server did not start:\n\(log)"
        case .didNotStop(let log): "splitter-server did not stop within the timeout after SIGTERM:\n\(log)"
        }
    }
}
