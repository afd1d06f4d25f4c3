import Foundation

/// Where the data lives (DESIGN §6): `DATABASE_URL` unset → an SQLite file in the working
/// directory; `postgres://…` → PostgreSQL; `sqlite:PATH` (or `sqlite://PATH`) → that SQLite file.
public enum DatabaseConfiguration: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// The file used when nothing is configured.
    public static let defaultSQLitePath = "splitter.sqlite"

    /// Reads a `DATABASE_URL` value; nil or empty means the default SQLite file.
    public init(databaseURL: String?) throws(DatabaseConfigurationError) {
        guard let url = databaseURL?.trimmingCharacters(in: .whitespaces), !url.isEmpty else {
            self = .sqlite(path: Self.defaultSQLitePath)
            return
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else if url.hasPrefix("sqlite://") {
            self = .sqlite(path: String(url.dropFirst("sqlite://".count)))
        } else if url.hasPrefix("sqlite:") {
            self = .sqlite(path: String(url.dropFirst("sqlite:".count)))
        } else {
            throw .unsupportedScheme
        }
        if case .sqlite(let path) = self {
            if path.isEmpty || path.hasPrefix("?") { throw .missingPath }
            _ = try Self.sqliteOptions(path)
        }
    }

    /// Whether SQLite's `file` names a database that lives in one connection's memory (a second
    /// connection to it would open another, empty database).
    static func isInMemory(_ file: String) -> Bool {
        file == ":memory:" || file.isEmpty || file.hasPrefix("file::memory:")
            || (file.hasPrefix("file:") && file.contains("mode=memory"))
    }

    /// `sqlite:PATH` or `sqlite:PATH?synchronous=full`: the file, and how a commit waits for the
    /// disk. NORMAL (the default) in WAL mode never corrupts the file and loses no commit when the
    /// server process dies; only a power cut or an operating-system crash can lose the last
    /// commits, for one fsync per checkpoint instead of one per write (issue 16: 9 % of a create's
    /// CPU, and a wait on slower disks). FULL syncs every commit.
    public static func sqliteOptions(_ path: String) throws(DatabaseConfigurationError) -> (file: String, synchronous: String) {
        guard let mark = path.firstIndex(of: "?") else { return (path, "NORMAL") }
        let file = String(path[..<mark])
        var synchronous = "NORMAL"
        for option in path[path.index(after: mark)...].split(separator: "&") {
            switch option.lowercased() {
            case "synchronous=full": synchronous = "FULL"
            case "synchronous=normal": synchronous = "NORMAL"
            default: throw .unknownOption
            }
        }
        return (file, synchronous)
    }

    /// The Unix socket a PostgreSQL URL names, as libpq (and `psql`) read it: a `host` query
    /// item that is a directory, the socket in it named by the port (5432 unless the URL gives
    /// one, after the host or as a `port` query item):
    /// `postgres://splitter@/splitter?host=/var/run/postgresql` is
    /// `/var/run/postgresql/.s.PGSQL.5432`. The host before the path is then ignored, as libpq
    /// ignores it. Nil for a URL that connects over TCP. A server on the same machine is cheaper
    /// to reach this way: loopback TCP costs each statement's sender the receiver's TCP work too
    /// (issue 16, docs/benchmarks.md).
    public static func postgresSocketPath(_ url: String) -> String? {
        guard let components = URLComponents(string: url),
            let directory = components.queryItems?.last(where: { $0.name == "host" })?.value,
            directory.hasPrefix("/")
        else { return nil }
        let port =
            components.port ?? components.queryItems?.last(where: { $0.name == "port" })?.value.flatMap { Int($0) }
            ?? 5432
        return (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/.s.PGSQL.\(port)"
    }

    /// The PostgreSQL URL as the connection uses it: an `sslmode` (or `tlsmode`, `ssl`, `tls`)
    /// in the URL is honoured as written; without one, a server on another host must speak TLS
    /// with a certificate that checks out (`require`), so a password and the data never cross a
    /// network in plain text by a silent fallback. A loopback host or a Unix socket keeps
    /// `prefer` (TLS when the server offers it). `sslmode=disable` opts out explicitly.
    public static func postgresURLWithTLSDefault(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        let items = components.queryItems ?? []
        if items.contains(where: { ["sslmode", "tlsmode", "ssl", "tls"].contains($0.name.lowercased()) }) {
            return url
        }
        let host = (components.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let isLocal =
            host.isEmpty || host == "localhost" || host.hasPrefix("127.") || host == "::1" || host.hasPrefix("/")
        guard !isLocal else { return url }
        components.queryItems = items + [URLQueryItem(name: "sslmode", value: "require")]
        return components.string ?? url
    }

    /// For the start-up log line: the backend and where, never a password.
    public var description: String {
        switch self {
        case .sqlite(let path): "SQLite file \(path)"
        case .postgres(let url):
            if let socket = Self.postgresSocketPath(url), let components = URLComponents(string: url) {
                "PostgreSQL over the Unix socket \(socket), database \(components.path.dropFirst())"
            } else if let components = URLComponents(string: url) {
                "PostgreSQL at \(components.host ?? "localhost"):\(components.port ?? 5432)\(components.path)"
            } else {
                "PostgreSQL"
            }
        }
    }
}

public enum DatabaseConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedScheme
    case missingPath
    case unknownOption
    case unusablePostgresURL

    // Never echoes the URL itself: it may hold a password.
    public var description: String {
        switch self {
        case .unusablePostgresURL:
            "DATABASE_URL is no PostgreSQL URL this server can use: it needs a user and a host, as in "
                + "postgres://user:password@host:port/database, or a socket's directory, as in "
                + "postgres://user@/database?host=/var/run/postgresql"
        case .unsupportedScheme: "DATABASE_URL must start with postgres://, postgresql:// or sqlite:"
        case .missingPath: "DATABASE_URL sqlite: needs a file path"
        case .unknownOption: "DATABASE_URL sqlite: takes one option, ?synchronous=normal (the default) or ?synchronous=full"
        }
    }
}
