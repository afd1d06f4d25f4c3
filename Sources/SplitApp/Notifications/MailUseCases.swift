import Crypto
import Foundation
import SplitCore
import SplitStore

/// The caller's mail settings as they see them.
public struct MailSettingsView: Sendable, Equatable {
    public let email: String?
    public let verified: Bool
    /// Whether this server sends mail at all (`SMTP_URL`).
    public let sending: Bool
    public let mode: MailMode
    public let off: Set<MailCategory>
    public let digestHour: Int
}

/// Notification mail (issue 17) and email verification (issue 14): the caller's settings,
/// verification links, and unsubscribe links, which work without a login (the link's key is
/// the account's own, made at random; it can turn mail off and nothing else).
public struct MailUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    /// How long a verification link works.
    public static let verificationLifetime: Int64 = 48 * 3_600 * 1_000
    /// How long a password-reset link works.
    public static let resetLifetime: Int64 = 60 * 60 * 1_000

    public func settings(caller: Caller) async throws -> MailSettingsView {
        guard let settings = try await mail.settings(userID: caller.user.id) else { throw AppError.notFound("account") }
        return view(settings)
    }

    /// Changes what the caller gets: `mode` each, daily or off; `off` the categories they do not
    /// want; `digestHour` (0–23, UTC) when a daily digest goes out. Nil keeps a value.
    public func update(mode: String?, off: [String]?, digestHour: Int?, caller: Caller) async throws -> MailSettingsView {
        guard let current = try await mail.settings(userID: caller.user.id) else { throw AppError.notFound("account") }
        var checks = FieldChecks()
        let newMode = try checks.run {
            try mode.map { text in
                guard let parsed = MailMode(rawValue: text) else {
                    throw AppError.invalid(field: "mode", message: "mode is one of each, daily, off.")
                }
                return parsed
            } ?? current.mode
        }
        let newOff = try checks.run {
            try off.map { names in
                try ExpenseLimits.checkCount(names.count, atMost: MailCategory.allCases.count, field: "off")
                return Set(
                    try names.enumerated().map { index, name in
                        guard let category = MailCategory(rawValue: name) else {
                            throw AppError.invalid(
                                field: "off[\(index)]",
                                message: "off[\(index)] is one of \(MailCategory.allCases.map(\.rawValue).joined(separator: ", ")).")
                        }
                        return category
                    })
            } ?? current.off
        }
        let newHour = try checks.run {
            let hour = digestHour ?? current.digestHour
            guard (0...23).contains(hour) else {
                throw AppError.invalid(field: "digestHour", message: "digestHour is an hour from 0 to 23 (UTC).")
            }
            return hour
        }
        try checks.finish()
        guard let newMode, let newOff, let newHour else { throw AppError.badRequest("settings") }
        try await mail.update(userID: caller.user.id, mode: newMode, off: newOff, digestHour: newHour, now: now())
        return try await settings(caller: caller)
    }

    /// Sends the caller a new verification link (at most one a minute, five a day).
    public func requestVerification(caller: Caller) async throws {
        guard mail.sendsMail else {
            throw AppError.conflict(
                code: "mail_disabled", field: nil, message: "This server does not send mail; ask its operator.")
        }
        guard let settings = try await mail.settings(userID: caller.user.id), settings.email != nil else {
            throw AppError.conflict(code: "no_email", field: nil, message: "This account has no email address.")
        }
        guard settings.emailVerifiedAt == nil else {
            throw AppError.conflict(code: "already_verified", field: nil, message: "This address is verified already.")
        }
        let time = now()
        // Until the first of the day's five links is a day old (it said "3600 s", then refused again).
        if case .tooMany(let until) = try await mail.requestVerification(userID: caller.user.id, now: time) {
            throw AppError.rateLimited(retryAfterSeconds: Int((until - time + 999) / 1_000))
        }
    }

    /// Follows a verification link. Unknown, used and expired links get one answer.
    public func verify(token: String) async throws {
        guard token.count <= 200, try await mail.verify(tokenHash: Self.hash(token), now: now()) != nil else {
            throw AppError.notFoundBecause("This verification link is unknown, used or expired; ask for a new one.")
        }
    }

    /// Whether a verification link can still be used, so its page offers a button only when
    /// pressing it can work.
    public func verificationLinkIsOpen(token: String) async throws -> Bool {
        guard token.count <= 200 else { return false }
        return try await mail.verificationLinkIsOpen(tokenHash: Self.hash(token), now: now())
    }

    /// A new link's token, and the hash the store keeps.
    public static func newVerificationToken() -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()
        let token = Hex.string((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return (token, hash(token))
    }

    public static func hash(_ token: String) -> String { Hex.string(SHA256.hash(data: Data(token.utf8))) }

    /// What an unsubscribe link turns off: a category, or (nil, "all") every notification mail.
    public struct UnsubscribeTarget: Sendable, Equatable {
        /// The address, partly hidden: enough to recognise one's own, not to learn someone's.
        public let maskedEmail: String
        public let category: MailCategory?
    }

    /// What an unsubscribe link would turn off, for its page. Unknown keys and categories get
    /// one answer.
    public func unsubscribeTarget(key: String, category: String) async throws -> UnsubscribeTarget {
        let parsed = try Self.category(category)
        guard key.count <= 100, let settings = try await mail.settings(unsubscribeKey: key) else {
            throw Self.unknownLink
        }
        return UnsubscribeTarget(maskedEmail: Self.mask(settings.email ?? ""), category: parsed)
    }

    /// Follows an unsubscribe link: that category's mail (or all of it) stops for the link's account.
    public func unsubscribe(key: String, category: String) async throws -> UnsubscribeTarget {
        let target = try await unsubscribeTarget(key: key, category: category)
        guard try await mail.unsubscribe(key: key, from: target.category, now: now()) else { throw Self.unknownLink }
        return target
    }

    static let unknownLink = AppError.notFoundBecause("This unsubscribe link is not one this server sent.")

    static func category(_ text: String) throws -> MailCategory? {
        if text == "all" { return nil }
        guard let category = MailCategory(rawValue: text) else { throw unknownLink }
        return category
    }

    /// "a•••@example.org": enough to recognise one's address, not enough to learn someone's.
    static func mask(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@"), let first = email.first else { return "" }
        return "\(first)•••\(email[at...])"
    }

    func view(_ settings: MailSettings) -> MailSettingsView {
        MailSettingsView(
            email: settings.email, verified: settings.emailVerifiedAt != nil, sending: mail.sendsMail,
            mode: settings.mode, off: settings.off, digestHour: settings.digestHour)
    }
}
