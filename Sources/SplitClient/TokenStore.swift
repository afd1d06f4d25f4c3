import Foundation

/// Where the session token lives between runs (DESIGN §8): a 0600 file here; the Keychain on
/// Apple platforms is the next step; memory for tests.
public protocol TokenStore: Sendable {
    func load() throws -> String?
    /// Saves a token, or forgets it (nil).
    func save(_ token: String?) throws
}

/// A file only its owner can read or write (0600), in a folder only its owner can enter.
public struct FileTokenStore: TokenStore {
    public let path: String

    public init(path: String) { self.path = path }

    public func load() throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let token = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    public func save(_ token: String?) throws {
        guard let token else {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Created empty with 0600 first, so the token is never readable by others, even briefly.
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        try Data(token.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// For tests and short-lived scripts.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    // Guarded by `lock`; that is why the class may be shared between tasks.
    private let lock = NSLock()
    private var token: String?

    public init(token: String? = nil) { self.token = token }

    public func load() throws -> String? { lock.withLock { token } }
    public func save(_ token: String?) throws { lock.withLock { self.token = token } }
}
