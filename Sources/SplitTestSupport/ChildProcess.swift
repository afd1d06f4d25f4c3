import Foundation
import SplitSpawn

/// A process a test starts beside it (the real server, the SMTP sink): its output goes to a log
/// file, in which it says which port it took.
final class ChildProcess: Sendable {
    let program: ChildProgram

    enum Start {
        case listening(port: Int)
        /// It exited, or said no port within the time; the log so far.
        case failed(log: String)
    }

    private init(_ program: ChildProgram) { self.program = program }

    /// Starts `executable` with its output in `logPath` and waits up to `timeout` for `prefix`
    /// followed by the port's digits in that log (it is stopped when that does not come).
    static func start(
        executable: String, arguments: [String], directory: URL? = nil, environment: [String: String]? = nil,
        logPath: String, portAfter prefix: String, timeout: Duration
    ) async throws -> (ChildProcess, Start) {
        let program = try ChildProgram.start(
            executable, arguments, environment: environment, directory: directory?.path, output: .file(logPath),
            error: .output)
        let child = ChildProcess(program)
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: prefix + #"\d+"#, options: .regularExpression),
                let port = Int(text[range].dropFirst(prefix.count))
            {
                return (child, .listening(port: port))
            }
            if !program.isRunning || ContinuousClock.now > deadline {
                // Stopped and reaped, not left running or a zombie (found by review).
                _ = try? await child.stop(timeout: .seconds(10))
                return (child, .failed(log: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? text))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, then waits up to `timeout` for the exit; past it, SIGKILL. False when it had to
    /// kill.
    func stop(timeout: Duration) async throws -> Bool {
        program.send(SIGTERM)
        let deadline = ContinuousClock.now + timeout
        while program.isRunning {
            if ContinuousClock.now > deadline {
                program.send(SIGKILL)
                _ = program.waitForExit()
                return false
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
