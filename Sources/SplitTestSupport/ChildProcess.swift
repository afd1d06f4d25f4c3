import Foundation

/// A process a test starts beside it (the real server, the SMTP sink): its output goes to a log
/// file, in which it says which port it took. `Process` is not Sendable; this box is only touched
/// by `start` and `stop`, which the owning test calls in sequence.
final class ChildProcess: @unchecked Sendable {
    let process: Process

    enum Start {
        case listening(port: Int)
        /// It exited, or said no port within the time; the log so far.
        case failed(log: String)
    }

    private init(_ process: Process) { self.process = process }

    /// Starts `executable` with its output in `logPath` and waits up to `timeout` for `prefix`
    /// followed by the port's digits in that log (it is stopped when that does not come).
    static func start(
        executable: String, arguments: [String], directory: URL? = nil, environment: [String: String]? = nil,
        logPath: String, portAfter prefix: String, timeout: Duration
    ) async throws -> (ChildProcess, Start) {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let child = ChildProcess(process)
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: prefix + #"\d+"#, options: .regularExpression),
                let port = Int(text[range].dropFirst(prefix.count))
            {
                return (child, .listening(port: port))
            }
            if !process.isRunning || ContinuousClock.now > deadline {
                if process.isRunning { process.terminate() }
                return (child, .failed(log: text))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, then waits up to `timeout` for the exit; past it, SIGKILL. False when it had to
    /// kill.
    func stop(timeout: Duration) async throws -> Bool {
        if process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return false
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
