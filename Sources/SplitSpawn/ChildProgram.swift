import CSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run beside this one (qrencode for a QR code, the server a test starts, openssl):
/// started with posix_spawn, its output in files, waited for with waitpid. Not Foundation's
/// `Process`: a test run crashed with a signal 11 while it waited for qrencode (on Linux it runs
/// a run loop on the waiting thread and watches children from a thread of its own), and the
/// server runs one per QR code shown, several at once on a busy day. Nothing here needs a run
/// loop, a pipe or a thread of its own.
public final class ChildProgram: Sendable {
    /// Where a standard stream goes.
    public enum Destination: Sendable {
        case discard
        /// This file, created or emptied.
        case file(String)
        /// For standard error: where standard output goes.
        case output
    }

    public let pid: pid_t
    /// The exit status once reaped. The zombie is only reaped under this lock, so a pid that is
    /// signalled under it is still this program's, never a newer one's that took the number.
    private let ended = Mutex<Int32?>(nil)

    private init(pid: pid_t) { self.pid = pid }

    /// Starts `executable` (a path) with `arguments`; `environment` nil passes this one's on.
    /// `input` is a file to read standard input from (nil: nothing).
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: String? = nil, output: Destination = .discard, error: Destination = .discard
    ) throws -> ChildProgram {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func openFile(_ path: String, _ flags: Int32) throws -> Int32 {
            let descriptor = open(path, flags | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ChildProgramError(executable: executable, reason: "\(path): \(errorText(errno))") }
            opened.append(descriptor)
            return descriptor
        }
        func writable(_ destination: Destination, output: Int32?) throws -> Int32 {
            switch destination {
            case .discard: try openFile("/dev/null", O_WRONLY)
            case .file(let path): try openFile(path, O_WRONLY | O_CREAT | O_TRUNC)
            case .output: try output ?? openFile("/dev/null", O_WRONLY)
            }
        }
        let inputDescriptor = try openFile(input ?? "/dev/null", O_RDONLY)
        let outputDescriptor = try writable(output, output: nil)
        let errorDescriptor = try writable(error, output: outputDescriptor)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let result = argv.withUnsafeBufferPointer { argvBuffer in
            let run = { (envp: UnsafePointer<UnsafeMutablePointer<CChar>?>) in
                splitter_spawn(
                    &pid, executable, argvBuffer.baseAddress, envp, directory, inputDescriptor, outputDescriptor,
                    errorDescriptor)
            }
            guard let environment else { return run(UnsafePointer(environ)) }
            return environment.withUnsafeBufferPointer { run($0.baseAddress!) }
        }
        guard result == 0 else { throw ChildProgramError(executable: executable, reason: errorText(result)) }
        return ChildProgram(pid: pid)
    }

    /// Its exit status when it has ended (128 + the signal when a signal ended it), else nil.
    public var exitStatus: Int32? {
        ended.withLock { status in
            if status == nil { status = reap() }
            return status
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// Waits for the end, blocking this thread; the exit status. It looks (`exitStatus`, which
    /// reaps under the lock) at growing intervals, 0.2 to 20 ms, rather than blocking in the
    /// kernel: a blocking wait by pid could, once another thread had reaped this child, wait for
    /// a newer child that took its number (found by review).
    public func waitForExit() -> Int32 {
        var pause: UInt32 = 200
        while true {
            if let status = exitStatus { return status }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Sends `signal` (SIGTERM, SIGKILL) unless it has ended.
    public func send(_ signal: Int32) {
        ended.withLock { status in
            if status == nil { status = reap() }
            if status == nil { kill(pid, signal) }
        }
    }

    /// waitpid without waiting: the exit status if it has ended. Only under `ended`'s lock.
    private func reap() -> Int32? {
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else {
            // ECHILD: reaped elsewhere (nothing here does); say it ended rather than wait forever.
            return result < 0 && errno == ECHILD ? 128 : nil
        }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// What a finished program wrote, and its exit status.
    public struct Finished: Sendable {
        public var status: Int32
        public var output: Data
        /// Empty when standard error went with the output.
        public var error: Data

        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// Runs `executable` to its end, blocking this thread, with `input` on its standard input.
    /// Output and error go through files in a private temporary folder, so neither can fill a
    /// pipe while the other is read.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: Data? = nil, errorToOutput: Bool = false
    ) throws -> Finished {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-run-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputPath = folder.appendingPathComponent("input").path
        let outputPath = folder.appendingPathComponent("output").path
        let errorPath = folder.appendingPathComponent("error").path
        if let input { try input.write(to: URL(fileURLWithPath: inputPath)) }
        let program = try start(
            executable, arguments, environment: environment, directory: directory,
            input: input == nil ? nil : inputPath, output: .file(outputPath),
            error: errorToOutput ? .output : .file(errorPath))
        let status = program.waitForExit()
        return Finished(
            status: status, output: FileManager.default.contents(atPath: outputPath) ?? Data(),
            error: errorToOutput ? Data() : FileManager.default.contents(atPath: errorPath) ?? Data())
    }

    /// The same on a Dispatch thread: waiting for a process on one of the few threads that run
    /// async code would hold up all the rest meanwhile.
    public static func runDetached(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: Data? = nil, errorToOutput: Bool = false
    ) async throws -> Finished {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try run(
                            executable, arguments, environment: environment, directory: directory, input: input,
                            errorToOutput: errorToOutput)
                    })
            }
        }
    }
}

public struct ChildProgramError: Error, CustomStringConvertible {
    public let executable: String
    public let reason: String
    public var description: String { "\(executable) could not start: \(reason)" }
}

private func errorText(_ number: Int32) -> String { String(cString: strerror(number)) }
