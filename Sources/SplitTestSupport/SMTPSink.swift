import Foundation
import SplitSpawn

/// A real SMTP server for tests: `scripts/smtp-sink.py` (aiosmtpd, which scripts/test installs)
/// started on a port the OS picks, writing what it receives into a temporary folder. Use
/// `SMTPSink.with(...)`, which always stops it.
public final class SMTPSink: Sendable {
    public struct Options: Sendable {
        /// Offer STARTTLS with this certificate.
        public var certificates: TestCertificates?
        /// Refuse MAIL before STARTTLS.
        public var requiresTLS = false
        /// Speak TLS from the first byte (smtps://) instead of offering STARTTLS; needs `certificates`.
        public var implicitTLS = false
        /// Require AUTH with these credentials (`user:password`).
        public var auth: (user: String, password: String)?
        /// Mechanisms not to offer ("PLAIN" to leave only LOGIN).
        public var excludedAuthMechanisms: [String] = []
        /// Recipients answered 550.
        public var rejectedRecipients: [String] = []
        /// Recipients answered 451.
        public var tempfailedRecipients: [String] = []

        public init(
            certificates: TestCertificates? = nil, requiresTLS: Bool = false, implicitTLS: Bool = false,
            auth: (user: String, password: String)? = nil,
            excludedAuthMechanisms: [String] = [], rejectedRecipients: [String] = [],
            tempfailedRecipients: [String] = []
        ) {
            self.certificates = certificates
            self.requiresTLS = requiresTLS
            self.implicitTLS = implicitTLS
            self.auth = auth
            self.excludedAuthMechanisms = excludedAuthMechanisms
            self.rejectedRecipients = rejectedRecipients
            self.tempfailedRecipients = tempfailedRecipients
        }
    }

    /// One message as received: the raw text (after the transport's dot-unstuffing), the envelope,
    /// and what Python's `email` package reads from it.
    public struct Message: Sendable, Decodable {
        public var raw: String = ""
        public let mailFrom: String
        public let rcptTos: [String]
        public let tls: Bool
        public let authLogin: String?
        public let subject: String?
        public let fromDisplayName: String?
        public let text: String?
        public let html: String?
        /// Problems Python's parser found in the message (names of `email.errors` classes).
        public let defects: [String]

        enum CodingKeys: String, CodingKey {
            case mailFrom = "mail_from", rcptTos = "rcpt_tos", tls, authLogin = "auth_login", subject
            case fromDisplayName = "from_display_name", text, html, defects
        }
    }

    /// One AUTH attempt the sink saw (the password is never recorded).
    public struct AuthAttempt: Sendable, Decodable {
        public let mechanism: String
        public let login: String?
        public let succeeded: Bool
        public let tls: Bool
    }

    public let port: Int
    public let directory: URL
    private let child: ChildProcess
    private let logPath: String

    /// Starts the sink and waits (up to `timeout`) for its `READY <port>` line. Fails with the
    /// sink's output when python3 or aiosmtpd is missing (scripts/test installs aiosmtpd).
    public init(
        _ options: Options = Options(), timeout: Duration = .seconds(20), scriptPath: String = SMTPSink.scriptPath()
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-sink-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logPath = directory.appendingPathComponent("sink.log").path
        var arguments = [scriptPath, "--port", "0", "--dir", directory.appendingPathComponent("mail").path]
        if let certificates = options.certificates {
            arguments += ["--tls-cert", certificates.serverCertificatePath, "--tls-key", certificates.serverKeyPath]
        }
        if options.requiresTLS { arguments.append("--require-tls") }
        if options.implicitTLS { arguments.append("--implicit-tls") }
        if let auth = options.auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        arguments += options.excludedAuthMechanisms.flatMap { ["--auth-exclude", $0] }
        arguments += options.rejectedRecipients.flatMap { ["--reject-rcpt", $0] }
        arguments += options.tempfailedRecipients.flatMap { ["--tempfail-rcpt", $0] }

        let (child, start) = try await ChildProcess.start(
            executable: "/usr/bin/env", arguments: ["python3", "-u"] + arguments, logPath: logPath,
            portAfter: "READY ", timeout: timeout)
        self.child = child
        switch start {
        case .listening(let port): self.port = port
        case .failed(let log):
            try? FileManager.default.removeItem(at: directory)
            throw SMTPSinkError.didNotStart(output: log)
        }
    }

    /// Starts a sink, runs `body`, and stops the sink whether `body` succeeds or throws.
    public static func with<T>(
        _ options: Options = Options(), isolation: isolated (any Actor)? = #isolation,
        _ body: (SMTPSink) async throws -> T
    ) async throws -> T {
        let sink = try await SMTPSink(options)
        do {
            let result = try await body(sink)
            try await sink.stop()
            return result
        } catch {
            try? await sink.stop()
            throw error
        }
    }

    /// `scripts/smtp-sink.py` in this source tree (found from this file's own path, written in the
    /// body: a `#filePath` default argument would be the caller's).
    public static func scriptPath() -> String {
        let thisFile = #filePath
        return URL(fileURLWithPath: thisFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/smtp-sink.py").path
    }

    /// Every message received so far, in order.
    public func messages() throws -> [Message] {
        let mail = directory.appendingPathComponent("mail")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mail.path)) ?? []
        let numbers = names.compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(".json".count)) : nil }.sorted()
        return try numbers.map { number in
            let json = try Data(contentsOf: mail.appendingPathComponent("\(number).json"))
            var message = try JSONDecoder().decode(Message.self, from: json)
            let raw = try Data(contentsOf: mail.appendingPathComponent("\(number).eml"))
            message.raw = String(decoding: raw, as: UTF8.self)
            return message
        }
    }

    /// Every AUTH attempt so far.
    public func authAttempts() throws -> [AuthAttempt] {
        let path = directory.appendingPathComponent("mail/auth-attempts.jsonl")
        guard let text = try? String(contentsOf: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(AuthAttempt.self, from: Data($0.utf8)) }
    }

    /// Waits until at least `count` messages have arrived; throws with what did arrive after `timeout`.
    public func waitForMessages(count: Int, timeout: Duration = .seconds(60)) async throws -> [Message] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = try messages()
            if received.count >= count { return received }
            guard ContinuousClock.now < deadline else {
                throw SMTPSinkError.tooFewMessages(expected: count, received: received.count, log: log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The sink's own output (READY line, aiosmtpd's log).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM (SIGKILL after 10 s), then removes its folder.
    public func stop() async throws {
        _ = try await child.stop(timeout: .seconds(10))
        try? FileManager.default.removeItem(at: directory)
    }
}

public enum SMTPSinkError: Error, CustomStringConvertible {
    case didNotStart(output: String)
    case tooFewMessages(expected: Int, received: Int, log: String)

    public var description: String {
        switch self {
        case .didNotStart(let output):
            "scripts/smtp-sink.py did not start (it needs python3 with aiosmtpd: scripts/test installs it, or "
                + "pip install aiosmtpd):\n\(output)"
        case .tooFewMessages(let expected, let received, let log):
            "the SMTP sink received \(received) of \(expected) messages; its log:\n\(log)"
        }
    }
}

/// A throwaway CA and a server certificate it signed for 127.0.0.1 and localhost (subject
/// alternative names), made with the `openssl` command in a temporary folder — never committed.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caCertificatePath: String { directory.appendingPathComponent("ca.pem").path }
    public var serverCertificatePath: String { directory.appendingPathComponent("server.pem").path }
    public var serverKeyPath: String { directory.appendingPathComponent("server.key").path }

    /// Runs openssl (a few hundred milliseconds: P-256 keys) on a Dispatch thread, so the wait
    /// never holds one of the threads every test's async code shares. Call `remove()` when done.
    public static func make() async throws -> TestCertificates {
        try await onDispatchThread { try makeNow() }
    }

    private static func makeNow() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("test-certs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        try """
        subjectAltName = IP:127.0.0.1, DNS:localhost
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature, keyEncipherment
        extendedKeyUsage = serverAuth

        """.write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + key + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=Splitter Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try openssl(
            ["req"] + key + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("server.ext"),
        ])
        return certificates
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func openssl(_ arguments: [String]) throws {
        let finished = try ChildProgram.run("/usr/bin/env", ["openssl"] + arguments, errorToOutput: true)
        guard finished.status == 0 else {
            throw TestCertificatesError(command: "openssl " + arguments.joined(separator: " "), output: finished.outputText)
        }
    }
}

public struct TestCertificatesError: Error, CustomStringConvertible {
    public let command: String
    public let output: String
    public var description: String { "\(command) failed:\n\(output)" }
}
