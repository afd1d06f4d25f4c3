import ArgumentParser
import Foundation
import SplitClient
import SplitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `splitter`: the command line over the SDK (DESIGN §8). Human tables by default, `--json` on
/// every read, an exit code per kind of failure, never a stack trace.
public struct SplitterCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "splitter",
        abstract: "Share costs with a group: expenses in any currency, exact balances, the fewest transfers.",
        discussion: """
            Exit codes: 0 done, 1 declined at a question, 2 bad command line, 3 not logged in, 4 not allowed,
            5 not found, 6 conflict, 7 invalid input, 8 rate limited,
            9 server unreachable, 10 server error.
            Settings live in $SPLITTER_CONFIG_DIR or ~/.config/splitter,
            one folder per --profile.
            """,
        subcommands: [
            Register.self, Login.self, Logout.self, WhoAmI.self, AccountCommand.self, DeleteAccount.self,
            GroupCommand.self,
            MemberCommand.self,
            ExpenseCommand.self, Pay.self, Unpay.self, History.self, Balances.self, Spending.self, RatesCommand.self, Plan.self, Settle.self,
            TransfersCommand.self, CategoryCommand.self, Activity.self, NotificationsCommand.self, WebhooksCommand.self, RequestCommand.self, MeCommand.self,
            BudgetCommand.self, RecurringCommand.self, PendingCommand.self, QuickAdd.self, ImportCommand.self,
            ExportCommand.self, Sync.self, Status.self,
            Watch.self, TokenCommand.self, MCPCommand.self, ChatCommand.self,
        ])

    public init() {}
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Which saved login to use.") var profile: String = "default"
    @Option(help: "Server address, e.g. http://127.0.0.1:8080 (saved in the profile).") var server: String?
    @Flag(help: "Print JSON instead of a table.") var json = false
}

/// A profile's folder: `config.json` (the server) and `token` (0600; the Keychain on Apple platforms).
struct Profile {
    let folder: URL

    init(name: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        folder = Self.base(environment).appendingPathComponent("profiles").appendingPathComponent(name)
    }

    /// `$SPLITTER_CONFIG_DIR`, else `~/.config/splitter` with `~` the `HOME` the command runs
    /// under, as a shell reads it. Foundation's home directory on Linux is the account's entry in
    /// the password file whatever `HOME` says, so `HOME=/tmp/x splitter login` logged in the
    /// account's own profile.
    static func base(_ environment: [String: String]) -> URL {
        if let folder = environment["SPLITTER_CONFIG_DIR"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config/splitter")
    }

    var tokens: any TokenStore {
        defaultTokenStore(account: folder.path, filePath: folder.appendingPathComponent("token").path)
    }

    /// The offline queue and cache.
    func store() throws -> OfflineStore { try OfflineStore(path: folder.appendingPathComponent("offline.sqlite").path) }

    /// The server to use: `override` (saved in the profile from now on), else the saved one.
    func server(_ override: String?) throws -> URL {
        if let override {
            let url = try Self.serverURL(override)
            try save(server: override)
            return url
        }
        return try savedServer()
    }

    /// `--server` checked, not saved.
    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("--server must be an http:// or https:// address.")
        }
        return url
    }

    func save(server: String) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try JSONEncoder().encode(["server": server]).write(to: folder.appendingPathComponent("config.json"))
    }

    func savedServer() throws -> URL {
        let file = folder.appendingPathComponent("config.json")
        if let data = try? Data(contentsOf: file),
            let saved = try? JSONDecoder().decode([String: String].self, from: data)["server"],
            let url = URL(string: saved)
        {
            return url
        }
        return URL(string: "http://127.0.0.1:8080")!
    }
}

extension GlobalOptions {
    /// The profile's client. A profile never logged in (or logged out) is said to be so, with
    /// the command that logs it in, before any server is asked (found by a new user: a new
    /// profile's `me` tried the default address and said "cannot be reached", exit 9), unless
    /// `loggedIn` is false (logging out twice is done twice).
    func client(loggedIn: Bool = true) throws -> SplitterClient {
        let profile = Profile(name: self.profile)
        currentProfileFlag = self.profile == "default" ? "" : " --profile \(quotedArgument(self.profile))"
        let tokens = profile.tokens
        let url = try profile.server(server)  // a --server given is saved, logged in or not
        guard !loggedIn || (try? tokens.load()) ?? nil != nil else {
            throw CLIError(
                message: "Not logged in\(currentProfileFlag.isEmpty ? "" : " on profile \(self.profile)"): run "
                    + "`splitter login\(currentProfileFlag)` (or `splitter register\(currentProfileFlag)` for a new account).",
                code: 3)
        }
        return SplitterClient(serverURL: url, tokens: tokens)
    }

    func store() throws -> OfflineStore { try Profile(name: profile).store() }

    /// Logs in through `body` with the token held in memory, makes the profile's offline copy
    /// that account's (`OfflineStore.adopt`), and only then saves the token and `--server`. A
    /// profile whose copy holds another account's unsent changes is left as it was (its login,
    /// its server); the session just opened is ended (`endSession`; a pasted access token is
    /// only not kept, never revoked), as it is when anything else fails after it opened.
    ///
    /// A copy from before the store recorded its account, with changes waiting, is first bound
    /// to the account of the token saved with it, when the server still knows that token.
    func signIn(endSession: Bool = true, _ body: (SplitterClient) async throws -> User) async throws -> User {
        let profile = Profile(name: profile)
        let url = try server.map(Profile.serverURL) ?? profile.savedServer()
        let store = try profile.store()
        if try store.account() == nil, try store.waiting() > 0,
            // Asked of the saved server only: the saved token never goes to a `--server` given now.
            let saved = try? await SplitterClient(serverURL: profile.savedServer(), tokens: profile.tokens).me()
        {
            try store.adopt(saved)
        }
        let held = InMemoryTokenStore()
        let client = SplitterClient(serverURL: url, tokens: held)
        let user = try await body(client)
        do {
            try store.adopt(user)
            try profile.tokens.save(try held.load())
            if let server { try profile.save(server: server) }
        } catch {
            if endSession { try? await client.logout() }
            throw error
        }
        return user
    }
}

/// " --profile NAME" for the profile the command runs as ("" for the default one), for the
/// commands a message names. Set once per run, by `client()`, before anything can fail.
nonisolated(unsafe) var currentProfileFlag = ""

/// Runs a command body and turns failures into one friendly line and an exit code.
func run(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        // What was printed comes before the error about it, also when output is a pipe (found
        // by review: "Not saved." came before the preview it was about).
        fflush(nil)
        try rethrowFriendly(error)
    }
}

private func rethrowFriendly(_ error: any Error) throws {
    do {
        throw error
    } catch let error as SplitterError {
        let message =
            if case .unauthorized = error {
                "Not logged in, or the session ended: run `splitter login\(currentProfileFlag)`."
            } else {
                "\(error)"
            }
        FileHandle.standardError.write(Data("splitter: \(message)\n".utf8))
        throw ExitCode(error.exitCode)
    } catch let error as CLIError {
        FileHandle.standardError.write(Data("splitter: \(error.message)\n".utf8))
        throw ExitCode(error.code)
    } catch OfflineStoreError.otherAccountsQueue(let account, let count) {
        FileHandle.standardError.write(
            Data(
                """
                splitter: this profile's offline copy is \(account)'s, with \(counted(count, "change", "changes")) made offline \
                and not sent yet; they are never sent as another account's. Log in here as \(account) \
                and run `splitter sync`, or drop them (`splitter status`, then `splitter sync --discard <op>`), \
                or use another profile (--profile NAME).

                """.utf8))
        throw ExitCode(6)
    }
}

struct CLIError: Error {
    var message: String
    var code: Int32 = 7
}

extension SplitterError {
    var exitCode: Int32 {
        switch self {
        case .unauthorized, .wrongCredentials: 3
        case .forbidden: 4
        case .notFound: 5
        case .conflict: 6
        case .validation: 7
        case .rateLimited: 8
        case .offline: 9
        case .server: 10
        }
    }
}

/// Output: JSON for scripts, aligned columns for people.
enum Output {
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func table(_ header: [String], _ rows: [[String]]) {
        for line in lines(header, rows) { print(line) }
    }

    /// A table's lines: each column as wide as its widest cell on a terminal (`columns`), the
    /// cells padded by spaces and never cut; no spaces at a line's end. (Foundation's
    /// `padding(toLength:)` counts UTF-16 units: a description ending in an emoji, a character of
    /// two units, lost half of it and printed "�".)
    static func lines(_ header: [String], _ rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            ([header] + rows).map { columns($0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            var text = zip(cells, widths).map { $0 + String(repeating: " ", count: max(0, $1 - columns($0))) }
                .joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([header] + rows).map(line)
    }

    /// How many columns a terminal gives `text`: two for a character shown as an emoji or of
    /// East Asian wide or full width (CJK, kana, Hangul, full-width forms), one for any other.
    /// A character is a grapheme cluster, so accents and other combining marks add nothing.
    static func columns(_ text: String) -> Int {
        text.reduce(0) { total, character in
            guard let first = character.unicodeScalars.first else { return total }
            let emoji =
                first.properties.isEmojiPresentation
                || (first.properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}"))
            return total + (emoji || isWide(first.value) ? 2 : 1)
        }
    }

    /// Unicode's East Asian Width W and F ranges (UAX #11) outside the emoji, as terminals use them.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            true
        default: false
        }
    }

    /// A list as a command shows it: with `--json` the items (as `{"<key>": […]}` when a key is
    /// given), else `empty` when there are none (nil: the bare header), else a table, a row each.
    static func list<Item: Encodable>(
        _ items: [Item], as key: String? = nil, json: Bool, empty: String?, _ header: [String],
        _ row: (Item) -> [String]
    ) throws {
        if json, let key { return try Output.json([key: items]) }
        if json { return try Output.json(items) }
        if items.isEmpty, let empty { return print(empty) }
        table(header, items.map(row))
    }
}

/// The one thing a look-up found: none is `none` (exit `noneCode`), several `several` (exit
/// `severalCode`), so every "name it by id, name or the id's end" says so the same way.
func single<Item>(
    _ matches: [Item], none: @autoclosure () -> String, several: @autoclosure () -> String,
    noneCode: Int32 = 5, severalCode: Int32 = 7
) throws -> Item {
    guard matches.count == 1, let match = matches.first else {
        throw CLIError(
            message: matches.isEmpty ? none() : several(), code: matches.isEmpty ? noneCode : severalCode)
    }
    return match
}

/// "1 change", "3 changes": a count and the words that go with it.
func counted(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }

/// Reads a password from SPLITTER_PASSWORD, from stdin with --password-stdin, or from the terminal without echo.
func readPassword(fromStdin: Bool) throws -> String {
    if let password = ProcessInfo.processInfo.environment["SPLITTER_PASSWORD"] { return password }
    if fromStdin {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CLIError(message: "No password on standard input.")
        }
        return line
    }
    guard let pointer = getpass("Password: ") else { throw CLIError(message: "No password given.") }
    return String(cString: pointer)
}

// MARK: - Accounts

struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account and log in.")
    @OptionGroup var options: GlobalOptions
    @Option(help: "Email address.") var email: String?
    @Option(help: "Phone number with country code, e.g. +60123456789.") var phone: String?
    @Option(help: "Your name as others see it.") var name: String
    @Flag(help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        try await SplitterCLI.run {
            // A new account can never be the one whose changes wait here: refused before it is made.
            let store = try options.store()
            if let owner = try store.account(), case let waiting = try store.waiting(), waiting > 0 {
                throw OfflineStoreError.otherAccountsQueue(account: owner.name, count: waiting)
            }
            let password = try readPassword(fromStdin: passwordStdin)
            let user = try await options.signIn {
                try await $0.register(email: email, phone: phone, password: password, displayName: name)
            }
            if options.json { try Output.json(user) } else { print("Registered and logged in as \(user.displayName).") }
        }
    }
}

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in with email or phone, or use a personal access token (--token-stdin).")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Email or phone number.") var emailOrPhone: String?
    // As `register` takes them: the same words work for both.
    @Option(help: "Email address (the same as giving it as the argument).") var email: String?
    @Option(help: "Phone number (the same as giving it as the argument).") var phone: String?
    @Flag(help: "Read the password from standard input.") var passwordStdin = false
    @Flag(help: "Read a personal access token (spt_…, from `splitter token create`) from standard input.")
    var tokenStdin = false

    /// The one email or phone given, however it was given.
    var account: String? { emailOrPhone ?? email ?? phone }

    func validate() throws {
        if [emailOrPhone, email, phone].compactMap({ $0 }).count > 1 {
            throw ValidationError("Give one email or phone number.")
        }
        if tokenStdin == (account != nil) {
            throw ValidationError("Give an email or phone number to log in, or --token-stdin to use a token.")
        }
    }

    func run() async throws {
        try await SplitterCLI.run {
            if tokenStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    throw CLIError(message: "No token on standard input.")
                }
                let user = try await options.signIn(endSession: false) { try await $0.useAccessToken(line) }
                if options.json { return try Output.json(user) }
                return print("Using a token of \(user.displayName)'s.")
            }
            let password = try readPassword(fromStdin: passwordStdin)
            let user = try await options.signIn {
                try await $0.login(emailOrPhone: account ?? "", password: password)
            }
            if options.json { try Output.json(user) } else { print("Logged in as \(user.displayName).") }
        }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log out and forget the token; with --others, sign out everywhere else and stay logged in here.")
    @OptionGroup var options: GlobalOptions
    @Flag(help: "End every other session of this account (a lost phone); this one goes on.") var others = false

    func run() async throws {
        try await SplitterCLI.run {
            if others {
                try await options.client().revokeOtherSessions()
                if !options.json { print("Signed out everywhere else; still logged in here.") }
            } else {
                // No saved login: nothing to end, and no server to ask (it may be unreachable).
                if (try? Profile(name: options.profile).tokens.load()) ?? nil != nil {
                    try await options.client(loggedIn: false).logout()
                }
                if !options.json { print("Logged out.") }
            }
        }
    }
}

struct DeleteAccount: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract: "Delete this account for good (asks for its password); groups keep your name and money history.",
        discussion:
            "A group you own that other accounts are in must be handed over first (Make owner on its Members page in the web app)."
    )
    @OptionGroup var options: GlobalOptions
    @Flag(help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        try await SplitterCLI.run {
            try await options.client().deleteAccount(password: try readPassword(fromStdin: passwordStdin))
            if !options.json { print("Account deleted; logged out.") }
        }
    }
}

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Change your name, email or phone (a new email or phone asks for your password).",
        discussion: """
              splitter account --name "Aki Tanaka"
              splitter account --email aki@example.org     # a new address gets a link to verify it
              splitter account --phone "+60 12 345 6789"
            Each group keeps the name you have in it: `splitter member rename GROUP NAME NEW`.
            """)
    @OptionGroup var options: GlobalOptions
    @Option(help: "Your name.") var name: String?
    @Option(help: "Your email (a phone-only account adds one this way).") var email: String?
    @Option(help: "Your phone number, with + and the country code.") var phone: String?
    @Flag(help: "Read the current password from standard input.") var passwordStdin = false

    func run() async throws {
        try await SplitterCLI.run {
            guard name != nil || email != nil || phone != nil else {
                throw CLIError(message: "Nothing to change: give --name, --email or --phone.", code: 2)
            }
            let password = email != nil || phone != nil ? try readPassword(fromStdin: passwordStdin) : nil
            let user = try await options.client().updateMe(
                displayName: name, email: email, phone: phone, currentPassword: password)
            if options.json { return try Output.json(user) }
            print("\(user.displayName) (\([user.email, user.phone].compactMap { $0 }.joined(separator: ", ")))")
            if email != nil {
                print(
                    "\(user.email ?? "The address") is unverified until the link mailed to it is followed; "
                        + "if none comes, send one from the web app's account page.")
            }
        }
    }
}

struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is logged in.")
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await SplitterCLI.run {
            let user = try await options.client().me()
            if options.json {
                try Output.json(user)
            } else {
                print("\(user.displayName) (\([user.email, user.phone].compactMap { $0 }.joined(separator: ", ")))")
            }
        }
    }
}
