import Configuration
import Foundation
import Logging
import SplitApp
import SplitStore
import SystemPackage

/// Everything the server reads at start-up, typed (STYLE §6). Handlers never read the
/// environment; they get what they need from this struct.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    public var database: DatabaseConfiguration = .sqlite(path: DatabaseConfiguration.defaultSQLitePath)
    public var logLevel: Logger.Level = .info
    /// Peers whose `X-Forwarded-For` is believed (DESIGN §4); empty means the socket address only.
    public var trustedProxies: [IPNetwork] = []
    public var allowRegistration: Bool = true
    /// The address people reach the server at (`https://split.example.org`), for links the
    /// server writes, such as invite links; nil means the address the browser used.
    public var publicURL: String?
    /// Bcrypt cost (DESIGN §4: at least 12). Not configurable from outside; tests lower it to
    /// keep hundreds of registrations fast, and a test checks the default.
    public var bcryptCost: Int = 12
    /// `WEBHOOK_ALLOW_PRIVATE`: webhooks may be sent to private, loopback and other internal
    /// addresses, and over plain http (issue 17). Off: a group admin cannot make the server call
    /// into the network it runs in.
    public var webhookAllowPrivate: Bool = false
    /// Notification and verification mail (`SMTP_URL`, `SMTP_CA_FILE`, `MAIL_FROM`); nil: the
    /// server sends no mail, and addresses stay unverified.
    public var mail: MailConfiguration?
    /// Whether this server runs background jobs (`RUN_JOBS`): mail and webhook deliveries. Every
    /// server may (each job runs once, on whichever claims it); turning it off keeps a server
    /// for requests only, as long as another server runs them.
    public var runsJobs: Bool = true
    /// How often this server looks for recurring expenses that fell due (`RECURRING_INTERVAL`,
    /// seconds; with `RUN_JOBS` only). Any number of servers may: each occurrence is made once.
    public var recurringIntervalSeconds: Int = 60
    public var limits: Limits = Limits()

    public struct Limits: Sendable {
        /// Request bodies above this are a 413 (DESIGN §5).
        public var maxBodyBytes: Int = 1 << 20
        /// Failed logins for one account from one client address in `loginWindowSeconds`.
        public var failedLoginsPerAccountAndAddress: Int = 10
        /// Failed logins for one account, from addresses it has had no session from in 30 days,
        /// in `loginWindowSeconds`: the ceiling against guessing from many addresses.
        public var failedLoginsPerAccount: Int = 100
        /// Failed logins per client address in `loginWindowSeconds`.
        public var failedLoginsPerAddress: Int = 50
        public var loginWindowSeconds: Int = 15 * 60
        /// Successful logins per account in `successWindowSeconds`.
        public var successfulLoginsPerAccount: Int = 30
        public var successWindowSeconds: Int = 60 * 60
        /// Wrong current passwords per session in `loginWindowSeconds`.
        public var wrongPasswordsPerSession: Int = 10
        /// Registration attempts per client address in `registrationWindow`.
        public var registrationsPerAddress: Int = 30
        public var registrationWindowSeconds: Int = 60 * 60
        /// Password-reset requests per client address in `registrationWindowSeconds`.
        public var passwordResetsPerAddress: Int = 10
        /// Failed invite-code joins per client address in `loginWindowSeconds`.
        public var failedJoinsPerAddress: Int = 20
        /// Working sessions per account; a new one ends the oldest.
        public var sessionsPerUser: Int = 20
        /// Seconds a connection may take to send a request's head, from opening or from the
        /// previous response (`HTTP_IDLE_TIMEOUT`); also how long an idle connection stays open.
        public var idleTimeoutSeconds: Int = 30
        /// Seconds a request's body may take to arrive after its head (`HTTP_BODY_TIMEOUT`).
        public var bodyTimeoutSeconds: Int = 60
        /// Connections one client address may hold open at once (`HTTP_CONNECTIONS_PER_ADDRESS`);
        /// trusted proxies are not limited.
        public var connectionsPerAddress: Int = 64
        /// Writes (API requests other than GET, web form posts) one account may make per minute on
        /// one server (`WRITES_PER_MINUTE_PER_USER`); 0 turns the limit off.
        public var writesPerMinutePerUser: Int = 1_200
        /// Bytes of change-feed pages kept for the next device that asks for one unchanged
        /// (`FEED_CACHE_MB`); 0 keeps none.
        public var feedCacheBytes: Int = 24 << 20

        public init() {}

        var longestWindowSeconds: Int { max(loginWindowSeconds, registrationWindowSeconds, successWindowSeconds) }

        var accounts: AccountLimits {
            AccountLimits(
                loginAccountAddress: .init(
                    scope: .loginAccountAddress, limit: failedLoginsPerAccountAndAddress,
                    windowSeconds: loginWindowSeconds),
                loginAccount: .init(
                    scope: .loginAccount, limit: failedLoginsPerAccount, windowSeconds: loginWindowSeconds),
                loginAddress: .init(
                    scope: .loginAddress, limit: failedLoginsPerAddress, windowSeconds: loginWindowSeconds),
                loginSuccess: .init(
                    scope: .loginSuccess, limit: successfulLoginsPerAccount, windowSeconds: successWindowSeconds),
                passwordChange: .init(
                    scope: .passwordChange, limit: wrongPasswordsPerSession, windowSeconds: loginWindowSeconds),
                registerAddress: .init(
                    scope: .registerAddress, limit: registrationsPerAddress, windowSeconds: registrationWindowSeconds),
                resetAddress: .init(
                    scope: .resetAddress, limit: passwordResetsPerAddress, windowSeconds: registrationWindowSeconds),
                sessionsPerUser: sessionsPerUser)
        }

        var joinAddress: RateLimiter.Rule {
            .init(scope: .joinAddress, limit: failedJoinsPerAddress, windowSeconds: loginWindowSeconds)
        }

        /// Payment codes that find nothing, per client address (and user): the same count as
        /// wrong invite codes, kept apart from them.
        var payCodeAddress: RateLimiter.Rule {
            .init(scope: .joinAddress, limit: failedJoinsPerAddress, windowSeconds: loginWindowSeconds)
        }
    }

    public init() {}

    /// Every setting, as the environment names it, with what it is (README "Configuration").
    public static let settings: [(name: String, meaning: String)] = [
        ("HTTP_HOST", "address to listen on (127.0.0.1)"),
        ("HTTP_PORT", "port; 0 picks a free one (8080)"),
        ("DATABASE_URL", "postgres://user:password@host:port/db, or sqlite:PATH (sqlite:splitter.sqlite)"),
        ("LOG_LEVEL", "trace, debug, info, notice, warning, error, critical (info)"),
        ("TRUSTED_PROXIES", "addresses or CIDR ranges whose X-Forwarded-For is believed"),
        ("MAX_BODY_BYTES", "largest request body accepted (1048576)"),
        ("HTTP_IDLE_TIMEOUT", "seconds for a request's head (30)"),
        ("HTTP_BODY_TIMEOUT", "seconds for a request's body (60)"),
        ("HTTP_CONNECTIONS_PER_ADDRESS", "connections one client address may hold (64)"),
        ("WRITES_PER_MINUTE_PER_USER", "writes one account may make a minute; 0: no limit (1200)"),
        ("FEED_CACHE_MB", "megabytes of change-feed pages kept (24)"),
        ("ALLOW_REGISTRATION", "false closes registration (true)"),
        ("WEBHOOK_ALLOW_PRIVATE", "1 lets webhooks reach internal addresses and plain http (0)"),
        ("PUBLIC_URL", "the address people use, for links in pages and mail"),
        ("SMTP_URL", "turns mail on: smtp://user:password@host:587, smtps://…:465"),
        ("SMTP_CA_FILE", "PEM file of the one CA to trust for the relay"),
        ("RECURRING_INTERVAL", "seconds between looks for recurring expenses due (60)"),
        ("RUN_JOBS", "false: this server runs no background jobs (true)"),
        ("MAIL_FROM", "who mail comes from"),
    ]

    /// `HTTP_PORT` as an option: `--http-port`.
    public static func option(_ name: String) -> String { "--" + name.lowercased().replacingOccurrences(of: "_", with: "-") }

    /// What `splitter-server --help` prints.
    public static var usage: String {
        let width = settings.map { option($0.name).count }.max() ?? 0
        return """
            usage: splitter-server [--setting value …]
                   splitter-server delete-account EMAIL [--setting value …]

            Runs the Budget Splitter server until SIGTERM or SIGINT. Each setting is read from the
            command line, then the environment (the same name in capitals: HTTP_PORT), then a .env
            file in the working directory, then its default (in brackets):

            """
            + settings.map { "  " + option($0.name).padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.meaning }
            .joined(separator: "\n") + "\n"
    }

    /// The first argument that is no setting (a typo would otherwise start the server on the
    /// defaults), nil when every one is: `--name value` or `--name=value`.
    public static func unknownOption(in arguments: [String]) -> String? {
        let known = Set(settings.map { option($0.name) })
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.prefix { $0 != "=" })
            guard known.contains(name) else { return argument }
            index += argument.contains("=") ? 1 : 2
        }
        return nil
    }

    /// Reads command line > environment > `.env` > defaults (DESIGN §7). A bad value stops
    /// start-up with one line naming the key; the database URL is never echoed.
    public static func read(arguments: [String] = CommandLine.arguments) async throws -> ServerConfiguration {
        let reader = ConfigReader(providers: [
            CommandLineArgumentsProvider(arguments: arguments),
            EnvironmentVariablesProvider(),
            try await EnvironmentVariablesProvider(environmentFilePath: ".env", allowMissing: true),
        ])
        return try ServerConfiguration(reader: reader)
    }

    /// Builds the configuration from any reader (tests pass an in-memory one).
    public init(reader: ConfigReader) throws {
        func text(_ key: String, isSecret: Bool = false) -> String? {
            let value = reader.string(forKey: ConfigKey(key.split(separator: ".").map(String.init)), isSecret: isSecret)
            let trimmed = value?.trimmingCharacters(in: .whitespaces)
            return trimmed?.isEmpty == false ? trimmed : nil
        }
        if let host = text("http.host") { self.host = host }
        if let port = text("http.port") {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw ConfigurationError(key: "HTTP_PORT", problem: "must be a port number from 0 to 65535")
            }
            self.port = number
        }
        do {
            self.database = try DatabaseConfiguration(databaseURL: text("database.url", isSecret: true))
        } catch {
            throw ConfigurationError(key: "DATABASE_URL", problem: error.description)
        }
        if let level = text("log.level") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError(
                    key: "LOG_LEVEL", problem: "must be one of trace, debug, info, notice, warning, error, critical")
            }
            self.logLevel = parsed
        }
        if let proxies = text("trusted.proxies") {
            self.trustedProxies = try proxies.split(separator: ",").map { entry in
                let entry = entry.trimmingCharacters(in: .whitespaces)
                guard let network = IPNetwork(entry) else {
                    throw ConfigurationError(
                        key: "TRUSTED_PROXIES",
                        problem: "\"\(entry)\" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)")
                }
                return network
            }
        }
        if let url = text("public.url") {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false, parsed.query == nil, parsed.fragment == nil
            else {
                throw ConfigurationError(
                    key: "PUBLIC_URL", problem: "must be an http(s) address like https://split.example.org")
            }
            self.publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if let bytes = text("max.body.bytes") {
            guard let number = Int(bytes), (1024...(64 << 20)).contains(number) else {
                throw ConfigurationError(
                    key: "MAX_BODY_BYTES", problem: "must be a number of bytes from 1024 to 67108864 (64 MiB)")
            }
            self.limits.maxBodyBytes = number
        }
        func number(_ key: String, env: String, in range: ClosedRange<Int>, unit: String) throws -> Int? {
            guard let value = text(key) else { return nil }
            guard let number = Int(value), range.contains(number) else {
                throw ConfigurationError(
                    key: env, problem: "must be a number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        if let seconds = try number("http.idle.timeout", env: "HTTP_IDLE_TIMEOUT", in: 1...3_600, unit: "seconds") {
            self.limits.idleTimeoutSeconds = seconds
        }
        if let seconds = try number("http.body.timeout", env: "HTTP_BODY_TIMEOUT", in: 1...3_600, unit: "seconds") {
            self.limits.bodyTimeoutSeconds = seconds
        }
        if let count = try number(
            "http.connections.per.address", env: "HTTP_CONNECTIONS_PER_ADDRESS", in: 1...100_000, unit: "connections")
        {
            self.limits.connectionsPerAddress = count
        }
        if let megabytes = try number("feed.cache.mb", env: "FEED_CACHE_MB", in: 0...4_096, unit: "megabytes") {
            self.limits.feedCacheBytes = megabytes << 20
        }
        if let count = try number(
            "writes.per.minute.per.user", env: "WRITES_PER_MINUTE_PER_USER", in: 0...1_000_000, unit: "writes")
        {
            self.limits.writesPerMinutePerUser = count
        }
        if let seconds = try number("recurring.interval", env: "RECURRING_INTERVAL", in: 1...86_400, unit: "seconds") {
            self.recurringIntervalSeconds = seconds
        }
        if let allow = text("allow.registration") {
            switch allow.lowercased() {
            case "true", "1", "yes", "on": self.allowRegistration = true
            case "false", "0", "no", "off": self.allowRegistration = false
            default: throw ConfigurationError(key: "ALLOW_REGISTRATION", problem: "must be true or false")
            }
        }
        if let allow = text("webhook.allow.private") {
            switch allow.lowercased() {
            case "true", "1", "yes", "on": self.webhookAllowPrivate = true
            case "false", "0", "no", "off": self.webhookAllowPrivate = false
            default: throw ConfigurationError(key: "WEBHOOK_ALLOW_PRIVATE", problem: "must be 1 or 0 (true or false)")
            }
        }
        if let run = text("run.jobs") {
            switch run.lowercased() {
            case "true", "1", "yes", "on": self.runsJobs = true
            case "false", "0", "no", "off": self.runsJobs = false
            default: throw ConfigurationError(key: "RUN_JOBS", problem: "must be true or false")
            }
        }
        if let url = text("smtp.url", isSecret: true) {
            let smtp: SMTPSettings
            do {
                smtp = try SMTPSettings(url: url, caFile: text("smtp.ca.file"))
            } catch {
                throw ConfigurationError(key: "SMTP_URL", problem: "\(error)")
            }
            guard let publicURL, let host = URL(string: publicURL)?.host else {
                throw ConfigurationError(
                    key: "PUBLIC_URL", problem: "must be set when SMTP_URL is: mail carries links to this server")
            }
            let from: MailMessage.Address
            do {
                from = try MailConfiguration.address(text("mail.from") ?? "Budget Splitter <splitter@\(host)>")
            } catch {
                throw ConfigurationError(
                    key: "MAIL_FROM", problem: "must be an address, or a name and an address: Splitter <split@example.org>")
            }
            self.mail = MailConfiguration(smtp: smtp, from: from, publicURL: publicURL)
        }
    }
}

/// Where notification mail goes out and what it says it is from.
public struct MailConfiguration: Sendable {
    public var smtp: SMTPSettings
    public var from: MailMessage.Address
    /// The server's address for links in mail (`PUBLIC_URL`, required with mail).
    public var publicURL: String

    public init(smtp: SMTPSettings, from: MailMessage.Address, publicURL: String) {
        self.smtp = smtp
        self.from = from
        self.publicURL = publicURL
    }

    /// "Name <address>" or "address".
    static func address(_ text: String) throws -> MailMessage.Address {
        if let open = text.lastIndex(of: "<"), text.hasSuffix(">") {
            let name = text[..<open].trimmingCharacters(in: .whitespaces)
            let address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            return try MailMessage.Address(address, displayName: name.isEmpty ? nil : name)
        }
        return try MailMessage.Address(text)
    }
}

/// A bad configuration value: one line that names the key and never prints the value of a secret.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var key: String
    public var problem: String

    public var description: String { "configuration: \(key) \(problem)" }
}
