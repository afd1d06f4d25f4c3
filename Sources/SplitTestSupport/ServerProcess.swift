import Foundation

/// The real `splitter-server` binary, started by a test on a port the OS picks (`--http-port 0`),
/// stopped with SIGTERM (STYLE §20: a few tests drive the real binary).
public final class ServerProcess: Sendable {
    public let baseURL: URL
    public let logPath: String
    private let process: ProcessBox

    /// `Process` is not Sendable; this box is only touched by `start` and `stop`, which the owning
    /// test calls in sequence.
    private final class ProcessBox: @unchecked Sendable {
        let process: Process
        init(_ process: Process) { self.process = process }
    }

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
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binaryPath())
        process.arguments = ["--http-port", "0"]
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = ProcessBox(process)

        let deadline = ContinuousClock.now + timeout
        var port: Int?
        while port == nil {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"port=(\d+)"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("port=".count))
            } else if !process.isRunning || ContinuousClock.now > deadline {
                process.terminate()
                throw ServerProcessError.didNotStart(log: text)
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        baseURL = URL(string: "http://127.0.0.1:\(port!)")!
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    public func stop(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let process = self.process.process
        if process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw ServerProcessError.didNotStop
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}

public enum ServerProcessError: Error, CustomStringConvertible {
    case didNotStart(log: String)
    case didNotStop

    public var description: String {
        switch self {
        case .didNotStart(let log): "splitter-server did not start:\n\(log)"
        case .didNotStop: "splitter-server did not stop within the timeout after SIGTERM"
        }
    }
}
