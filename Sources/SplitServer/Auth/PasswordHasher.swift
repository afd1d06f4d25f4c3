import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import SplitApp

/// Bcrypt with the rules of DESIGN §4: cost ≥ 12, run on threads of its own so a quarter second
/// of hashing never holds an event loop or a cooperative thread.
///
/// Those threads are one fewer than the cores (at least one): twenty logins at once queue for
/// them instead of taking every core, so the rest of the server keeps answering while they hash
/// (issue 16's load check: `GET /health` p99 under 50 ms meanwhile). They keep the normal
/// priority: at a lower one (nice 10 was tried) a busy process starved its logins past their
/// clients' timeouts (over 100 s in the full test run).
///
/// Bcrypt reads only the first 72 bytes of its input, so every password is first reduced to the
/// base64 of its SHA-256 (44 bytes): no part of a long password is ignored, and a password with
/// a NUL byte cannot be cut short by the C implementation.
struct PasswordHasher: PasswordHashing {
    let cost: Int

    func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password)
        let cost = UInt8(cost)
        return try await Self.pool.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        let input = Self.prehash(password)
        return try await Self.pool.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    /// A bcrypt hash in form (`$2b$`, the cost, 22 characters of salt and 31 of digest) whose
    /// characters are drawn at random instead of computed: the password it would be the hash of
    /// is unknown to anyone, and checking a password against it runs bcrypt in full with its salt
    /// and cost, as against any stored hash. A process used to hash a random password for this
    /// at start-up, a quarter of a second of CPU at cost 12 (more than half of a start).
    func unmatchableHash() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let drawn = (0..<53).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        let costDigits = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$\(costDigits)$" + String(decoding: drawn, as: UTF8.self)
    }

    /// Started on first use and kept for the life of the process.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount - 1))
        pool.start()
        return pool
    }()

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}

/// Invite codes: 20 characters from 31 symbols without look-alikes (no 0/o, 1/l/i), about 99
/// random bits, so they cannot be guessed and survive being typed from a chat message.
enum InviteCode {
    static let symbols = Array("abcdefghjkmnpqrstuvwxyz23456789".utf8)

    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let picked = (0..<20).map { _ in symbols[Int.random(in: 0..<symbols.count, using: &generator)] }
        return String(decoding: picked, as: UTF8.self)
    }
}
