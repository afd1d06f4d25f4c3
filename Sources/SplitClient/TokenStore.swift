import Foundation

#if canImport(Security)
    import Security
#endif

/// Where the session token lives between runs (DESIGN §8): the Keychain on Apple platforms, a 0600
/// file elsewhere (`defaultTokenStore`), memory for tests.
public protocol TokenStore: Sendable {
    func load() throws -> String?
    /// Saves a token, or forgets it (nil).
    func save(_ token: String?) throws
}

/// The Keychain on Apple platforms, a 0600 file at `filePath` elsewhere (DESIGN §8). `account`
/// names the Keychain item (one per profile).
public func defaultTokenStore(account: String, filePath: String) -> any TokenStore {
    #if canImport(Security)
        KeychainTokenStore(account: account)
    #else
        FileTokenStore(path: filePath)
    #endif
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

#if canImport(Security)
    /// A generic-password item in the Keychain, named by `service` and `account`, readable only on
    /// this device once it has been unlocked. Not compiled on Linux (no Security framework there).
    public struct KeychainTokenStore: TokenStore {
        public let service: String
        public let account: String

        public init(service: String = "splitter", account: String) {
            self.service = service
            self.account = account
        }

        private var item: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        public func load() throws -> String? {
            var query = item
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
            let token = String(decoding: data, as: UTF8.self)
            return token.isEmpty ? nil : token
        }

        /// Replaces the item (delete, then add), or only deletes it for nil.
        public func save(_ token: String?) throws {
            let deleted = SecItemDelete(item as CFDictionary)
            guard deleted == errSecSuccess || deleted == errSecItemNotFound else {
                throw KeychainError(status: deleted)
            }
            guard let token else { return }
            var added = item
            added[kSecValueData as String] = Data(token.utf8)
            added[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(added as CFDictionary, nil)
            guard status == errSecSuccess else { throw KeychainError(status: status) }
        }
    }

    /// A Keychain call failed; `status` is its `OSStatus` (see `SecCopyErrorMessageString`).
    public struct KeychainError: Error, Equatable {
        public let status: OSStatus
    }
#endif
