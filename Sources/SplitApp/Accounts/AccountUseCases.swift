import Foundation
import SplitCore
import SplitStore

/// Turns passwords into stored hashes and checks them. The server's is bcrypt on NIO's thread
/// pool (DESIGN §4); the use cases only need these calls.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against hash: String) async throws -> Bool
    /// A stored hash that no password matches and that takes `verify` as long as a real one: a
    /// login to an unknown account is checked against it, so it answers in the same time.
    func unmatchableHash() -> String
}

/// How many attempts the account operations allow (DESIGN §4), each a sliding window.
///
/// Failed logins are counted three ways so that guessing stays hopeless without handing strangers
/// a lockout: per account *and* client address (the tight limit: an attacker locks out only
/// themselves), per client address (one address cannot try many accounts), and per account from
/// addresses the account never logged in from (a high ceiling against guessing from many
/// addresses; the owner's own devices are not held by it).
public struct AccountLimits: Sendable {
    /// Failed logins for one account (or email or phone typed) from one client address.
    public var loginAccountAddress: RateLimiter.Rule
    /// Failed logins for one account from addresses it has had no session from in the last 30 days.
    public var loginAccount: RateLimiter.Rule
    /// Failed logins from one client address, whatever the account.
    public var loginAddress: RateLimiter.Rule
    /// Successful logins of one account: each costs a bcrypt, and a script that logs in over and
    /// over would pile up sessions.
    public var loginSuccess: RateLimiter.Rule
    /// Wrong current passwords in one session's password changes (a stolen token must not give
    /// unlimited guesses; failed logins by others never hold a signed-in user's change).
    public var passwordChange: RateLimiter.Rule
    /// Registration attempts per client address, refusals included.
    public var registerAddress: RateLimiter.Rule
    /// Password-reset requests per client address, whatever the address asked for.
    public var resetAddress: RateLimiter.Rule
    /// Working sessions per account; a new one ends the oldest beyond it.
    public var sessionsPerUser: Int

    public init(
        loginAccountAddress: RateLimiter.Rule, loginAccount: RateLimiter.Rule, loginAddress: RateLimiter.Rule,
        loginSuccess: RateLimiter.Rule, passwordChange: RateLimiter.Rule, registerAddress: RateLimiter.Rule,
        resetAddress: RateLimiter.Rule, sessionsPerUser: Int
    ) {
        self.resetAddress = resetAddress
        self.loginAccountAddress = loginAccountAddress
        self.loginAccount = loginAccount
        self.loginAddress = loginAddress
        self.loginSuccess = loginSuccess
        self.passwordChange = passwordChange
        self.registerAddress = registerAddress
        self.sessionsPerUser = sessionsPerUser
    }
}

/// A new account as entered.
public struct NewAccount: Sendable {
    public var email: String?
    public var phone: String?
    public var password: String
    public var displayName: String
    public var device: EnteredDevice

    public init(email: String?, phone: String?, password: String, displayName: String, device: EnteredDevice) {
        self.email = email
        self.phone = phone
        self.password = password
        self.displayName = displayName
        self.device = device
    }
}

/// A change to one's account as entered; nil leaves a field as it is.
public struct ProfilePatch: Sendable {
    public var displayName: String?
    public var email: String?
    public var phone: String?
    /// Needed when the email or phone changes.
    public var currentPassword: String?

    public init(displayName: String? = nil, email: String? = nil, phone: String? = nil, currentPassword: String? = nil) {
        self.displayName = displayName
        self.email = email
        self.phone = phone
        self.currentPassword = currentPassword
    }
}

/// What a profile change did.
public struct ProfileChange: Sendable {
    public let user: UserRecord
    /// For a new email with mail on: whether its verification link is on its way (false after
    /// five links in a day); nil otherwise.
    public let linkSent: Bool?
}

/// The device a session is started from, as the client names it (shown on the sessions list).
public struct EnteredDevice: Sendable {
    public var id: String?
    public var name: String?

    public init(id: String? = nil, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// A session just started: the token exists only here and in the client's hands; the store keeps
/// its hash.
public struct StartedSession: Sendable {
    public let user: UserRecord
    public let session: SessionRecord
    public let token: String
}

/// Accounts and sessions: register, log in and out, list and end sessions, change the password.
/// Every attempt that could be used to guess a password or probe for accounts is counted
/// (`RateLimiter`) before the work it limits.
public struct AccountUseCases: Sendable, UsesStores {
    let database: Database
    let limiter: RateLimiter
    let passwords: any PasswordHashing
    let limits: AccountLimits
    let allowRegistration: Bool
    /// Compared against when the account does not exist, so both answers take one hash's time.
    let unknownAccountHash: String
    let now: @Sendable () -> Int64

    /// How long a session lives unless it is ended first.
    public static let sessionLifetime: Int64 = 30 * 24 * 3_600 * 1_000

    public init(
        database: Database, passwords: any PasswordHashing, limits: AccountLimits, allowRegistration: Bool,
        now: @escaping @Sendable () -> Int64
    ) async throws {
        self.database = database
        self.limiter = RateLimiter(attempts: AttemptStore(database: database), now: now)
        self.passwords = passwords
        self.limits = limits
        self.allowRegistration = allowRegistration
        self.unknownAccountHash = passwords.unmatchableHash()
        self.now = now
    }

    public func register(_ entered: NewAccount, origin: RequestOrigin) async throws -> StartedSession {
        guard allowRegistration else { throw AppError.registrationClosed }
        // Every attempt counts, refusals included: a 409 reveals which emails exist (DESIGN §4).
        _ = try await limiter.reserve(limits.registerAddress, subject: Self.addressSubject(origin))
        // Every field is checked before any refusal, so an empty form flags each of them (issue 15).
        var checks = FieldChecks()
        let checkedEmail = try checks.run { try Names.optional(entered.email).map(Self.email) }
        let checkedPhone = try checks.run { try Names.optional(entered.phone).map(Self.phone) }
        let email = checkedEmail ?? nil
        let phone = checkedPhone ?? nil
        if checkedEmail != nil, checkedPhone != nil, email == nil, phone == nil {
            checks.add(field: "email", message: "Give an email address or a phone number.")
        }
        _ = try checks.run { try Self.checkNewPassword(entered.password, field: "password") }
        let name = try checks.run { try Names.name(entered.displayName, field: "displayName") }
        try checks.finish()
        guard let displayName = name else { throw AppError.invalid(field: "displayName", message: "A name is needed.") }
        let device = try Self.device(entered.device)

        let current = now()
        let user = UserRecord(
            id: UUID.random(), email: email, phone: phone, displayName: displayName,
            passwordHash: try await passwords.hash(entered.password), createdAt: current, updatedAt: current)
        do {
            // With mail on, the address's verification link is queued in the same transaction.
            _ = try await accounts.createUser(user)
        } catch StoreError.conflict(let field) {
            throw AppError.conflict(
                code: "conflict", field: field,
                message: field == "phone"
                    ? "That phone number is registered already." : "That email is registered already.")
        }
        return try await startSession(for: user, device: device, origin: origin)
    }

    public func login(
        emailOrPhone raw: String, password: String, device entered: EnteredDevice, origin: RequestOrigin
    ) async throws -> StartedSession {
        let device = try Self.device(entered)
        let isEmail = AccountInput.isEmailLogin(raw)
        let normalized = isEmail ? AccountInput.normalizedEmail(raw) : AccountInput.normalizedPhone(raw)
        var user: UserRecord?
        if let normalized {
            user = try await isEmail ? accounts.user(email: normalized) : accounts.user(phone: normalized)
        }
        // Keyed on the account when it exists (its email and phone share one count), else on
        // what was typed: either way a refusal comes after the same number of failures, so it
        // says nothing about whether the account exists.
        let typed = normalized ?? raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let account = user.map { "user:" + $0.id.text } ?? "typed:" + typed
        let address = origin.clientAddress ?? "unknown"
        let knownAddress =
            if let user {
                try await accounts.hasSession(
                    userID: user.id, fromAddress: address, since: now() - Self.sessionLifetime)
            } else { false }
        var limited: [(rule: RateLimiter.Rule, subject: String)] = [
            (limits.loginAddress, Self.addressSubject(origin)),
            (limits.loginAccountAddress, RateLimiter.subject(account + " address:" + address)),
        ]
        if !knownAddress { limited.append((limits.loginAccount, RateLimiter.subject(account))) }
        // Every limit's refusal is the same answer, naming the way for scripts (found by a new user:
        // ~30 logins of a script locked the account with "Too many attempts", read as wrong
        // passwords; found by review: a message of its own for the successful logins' limit told
        // anyone typing the address that the account exists and the password was right).
        let counted: [RateLimiter.Reservation]
        do {
            counted = try await limiter.reserve(limited)
        } catch AppError.rateLimited(let seconds) {
            throw AppError.loginsLimited(retryAfterSeconds: seconds)
        }
        if let user {
            do {
                try await limiter.check(limits.loginSuccess, subject: RateLimiter.subject("user:" + user.id.text))
            } catch {
                try? await limiter.release(counted)
                if case AppError.rateLimited(let seconds) = error { throw AppError.loginsLimited(retryAfterSeconds: seconds) }
                throw error
            }
        }
        // Always one hash, so an unknown account answers in the same time as a wrong password.
        let matches = try await passwords.verify(password, against: user?.passwordHash ?? unknownAccountHash)
        guard matches, let user, user.isActive else { throw AppError.invalidCredentials }  // the attempts stay counted
        try await limiter.release(counted)
        try await limiter.record(limits.loginSuccess, subject: RateLimiter.subject("user:" + user.id.text))
        return try await startSession(for: user, device: device, origin: origin)
    }

    /// Whether this server mails reset links at all (a page says so before asking an address).
    public var mailsResetLinks: Bool { mail.sendsMail }

    /// "Forgot my password": mails a link to set a new one to the address, if an active account
    /// has it (issue 14 item 18: it is also how the owner of an address takes back an account
    /// someone else registered with it). The answer is the same whether or not there is one;
    /// each request counts against the client address.
    public func requestPasswordReset(email raw: String, origin: RequestOrigin) async throws {
        _ = try await limiter.reserve(limits.resetAddress, subject: Self.addressSubject(origin))
        guard mail.sendsMail else {
            throw AppError.conflict(
                code: "mail_disabled", field: nil,
                message: "This server does not send mail, so it cannot mail a link; ask its operator.")
        }
        let email = try Self.email(raw)
        // Too many links today is answered like any other request: the answer says nothing.
        _ = try await mail.requestPasswordReset(email: email, now: now())
    }

    /// Whether a reset link can still set a password, so its page shows the form only when it
    /// can work (found by a new user: a used link showed the form, and only the press failed).
    public func resetLinkIsOpen(token: String) async throws -> Bool {
        guard token.count <= 200 else { return false }
        return try await mail.resetLinkIsOpen(tokenHash: MailUseCases.hash(token), now: now())
    }

    /// Sets a new password with a reset link's token: every session of the account ends, and its
    /// address counts as verified. Unknown, used and expired tokens get one answer.
    public func resetPassword(token: String, newPassword: String) async throws {
        try Self.checkNewPassword(newPassword, field: "newPassword")
        let unknown = AppError.notFoundBecause("This password link is unknown, used or expired; ask for a new one.")
        let tokenHash = MailUseCases.hash(token)
        // The link first: hashing a password is the costly part, and made-up links must not buy it.
        guard token.count <= 200, try await mail.resetLinkIsOpen(tokenHash: tokenHash, now: now()) else {
            throw unknown
        }
        let hash = try await passwords.hash(newPassword)
        guard try await mail.resetPassword(tokenHash: tokenHash, passwordHash: hash, now: now()) != nil else {
            throw unknown
        }
    }

    /// Ends the caller's own session.
    public func logout(_ caller: Caller) async throws {
        _ = try await accounts.revokeSession(id: caller.session.id, userID: caller.user.id, now: now())
    }

    /// The caller's sessions that still work, the current one among them.
    public func sessions(_ caller: Caller) async throws -> [SessionRecord] {
        try await accounts.activeSessions(userID: caller.user.id, now: now())
    }

    /// Ends one of the caller's sessions; another user's session is as unknown as none.
    public func revokeSession(_ id: String, _ caller: Caller) async throws {
        guard let id = UUID(uuidString: id),
            try await accounts.revokeSession(id: id, userID: caller.user.id, now: now())
        else { throw AppError.notFound("session") }
    }

    /// Ends every session of the caller's account but the caller's own ("sign out everywhere
    /// else"), e.g. after a phone was lost.
    public func revokeOtherSessions(_ caller: Caller) async throws {
        try await accounts.revokeOtherSessions(userID: caller.user.id, except: caller.session.id, now: now())
    }

    /// Changes the caller's name, email or phone (nil: as it is). An email or phone is changed
    /// or added, never removed; changing either needs the current password, as a password change
    /// does, and counts like a registration (per account and per client address, refusals
    /// included): a 409 says an address is another account's, so tries must be few (found by
    /// review). Found by a new user: an account made with a phone could never add an email, and
    /// nobody could fix a typo in their name.
    public func updateProfile(_ patch: ProfilePatch, caller: Caller, origin: RequestOrigin) async throws -> ProfileChange {
        let user = caller.user
        var checks = FieldChecks()
        let name = try checks.run { try patch.displayName.map { try Names.name($0, field: "displayName") } } ?? nil
        // Changed or added, never removed: blank is said so, else read as registration reads it.
        let email = try checks.run {
            try patch.email.map { raw in
                guard Names.optional(raw) != nil else {
                    throw AppError.invalid(field: "email", message: "An email is changed, not removed: give the new address.")
                }
                return try Self.email(raw)
            }
        } ?? nil
        let phone = try checks.run {
            try patch.phone.map { raw in
                guard Names.optional(raw) != nil else {
                    throw AppError.invalid(
                        field: "phone", message: "A phone number is changed, not removed: give the new number.")
                }
                return try Self.phone(raw)
            }
        } ?? nil
        try checks.finish()
        let newEmail = email.map { $0 != user.email } ?? false
        let newPhone = phone.map { $0 != user.phone } ?? false
        if newEmail || newPhone {
            guard let password = patch.currentPassword, !password.isEmpty else {
                throw AppError.invalid(
                    field: "currentPassword", message: "Your current password is needed to change your email or phone.")
            }
            _ = try await limiter.reserve(limits.registerAddress, subject: RateLimiter.subject("account:" + user.id.text))
            _ = try await limiter.reserve(limits.registerAddress, subject: Self.addressSubject(origin))
            try await confirmPassword(password, of: caller, field: "currentPassword", wrong: "The current password is wrong.")
        }
        do {
            // Based on the account as this request read it, which decided whether a password was
            // needed: another change meanwhile is a conflict, not overwritten (found by review).
            guard
                let updated = try await accounts.updateProfile(
                    userID: user.id, version: user.version, displayName: name ?? user.displayName,
                    email: email ?? user.email, phone: phone ?? user.phone, now: now())
            else { throw AppError.notFound("account") }
            return ProfileChange(user: updated.user, linkSent: updated.link.map { $0 == .queued })
        } catch StoreError.stale {
            throw AppError.conflict(
                code: "conflict", field: nil, message: "Your account changed meanwhile; reload it and try again.")
        } catch StoreError.conflict(let field) {
            throw AppError.conflict(
                code: "conflict", field: field,
                message: field == "phone"
                    ? "That phone number is another account's." : "That email is another account's.")
        }
    }

    /// A new password; every other session of the account ends, the caller's goes on.
    /// Both passwords' problems are said at once (found by a new user: a wrong current password
    /// hid that the new one was too short).
    public func changePassword(_ caller: Caller, current: String, new: String) async throws {
        var checks = FieldChecks()
        _ = try await checks.run {
            try await confirmPassword(current, of: caller, field: "currentPassword", wrong: "The current password is wrong.")
        }
        _ = try checks.run { try Self.checkNewPassword(new, field: "newPassword") }
        try checks.finish()
        try await accounts.changePassword(
            userID: caller.user.id, passwordHash: try await passwords.hash(new), keepSession: caller.session.id,
            now: now())
    }

    /// Deletes the caller's account after checking their password (issue 14 item 17): every
    /// session ends, email, phone and password are erased, and in each group they become a
    /// name-only member under the same name, so the group's money and history stay whole
    /// (`AccountStore.deleteAccount`). Wrong passwords count like a password change's.
    public func deleteAccount(_ caller: Caller, password: String) async throws {
        try await confirmPassword(password, of: caller, field: "password", wrong: "The password is wrong.")
        try await Self.deleteAccount(caller.user.id, in: accounts, now: now())
    }

    /// A signed-in user's password typed again to confirm a change. A stolen token must not give
    /// unlimited guesses at the password, and nobody else's failed logins may hold a signed-in
    /// user's change: wrong passwords are counted per session, a right one takes its count back.
    private func confirmPassword(_ password: String, of caller: Caller, field: String, wrong: String) async throws {
        let attempt = try await limiter.reserve(
            limits.passwordChange, subject: RateLimiter.subject("session:" + caller.session.id.text))
        guard try await passwords.verify(password, against: caller.user.passwordHash) else {
            throw AppError.invalid(field: field, message: wrong)
        }
        try await limiter.release(attempt)
    }

    /// Deletes an account by its email, for the server's operator (`splitter-server
    /// delete-account`): no password, the same erasure.
    public func deleteAccount(email: String) async throws {
        guard let normalized = AccountInput.normalizedEmail(email),
            let user = try await accounts.user(email: normalized), user.isActive
        else {
            throw AppError.notFound("account")
        }
        try await Self.deleteAccount(user.id, in: accounts, now: now())
    }

    private static func deleteAccount(_ userID: UUID, in accounts: AccountStore, now: Int64) async throws {
        do {
            guard try await accounts.deleteAccount(userID: userID, now: now) else { throw AppError.notFound("account") }
        } catch AccountDeletionRefusal.ownsSharedGroups(let names) {
            throw AppError.conflict(
                code: "owns_groups", field: nil,
                message: "Hand over the groups you own to another member first: "
                    + names.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ") + ".")
        }
    }

    /// A new session with a fresh token; only the token's hash is stored (DESIGN §4).
    private func startSession(
        for user: UserRecord, device: EnteredDevice, origin: RequestOrigin
    ) async throws -> StartedSession {
        let token = SessionToken.generate()
        let current = now()
        let session = SessionRecord(
            id: UUID.random(), userID: user.id, tokenHash: SessionToken.hash(token), deviceID: device.id,
            deviceName: device.name, ipAddress: origin.clientAddress, createdAt: current, lastUsedAt: current,
            expiresAt: current + Self.sessionLifetime)
        try await accounts.createSession(session, keepingAtMost: limits.sessionsPerUser)
        return StartedSession(user: user, session: session, token: token)
    }

    /// An email as an account keeps it (`AccountInput.normalizedEmail`), else a 422 on `email`.
    static func email(_ raw: String) throws -> String {
        guard let email = AccountInput.normalizedEmail(raw) else {
            throw AppError.invalid(field: "email", message: "\"\(raw.prefix(100))\" is not an email address.")
        }
        return email
    }

    /// A phone number as an account keeps it (`AccountInput.normalizedPhone`), else a 422 on `phone`.
    static func phone(_ raw: String) throws -> String {
        guard let phone = AccountInput.normalizedPhone(raw) else {
            throw AppError.invalid(
                field: "phone", message: "A phone number starts with + and its country code, e.g. +60 12 345 6789.")
        }
        return phone
    }

    private static func addressSubject(_ origin: RequestOrigin) -> String {
        RateLimiter.subject("address:" + origin.limitedAddress)
    }

    static func checkNewPassword(_ password: String, field: String) throws {
        guard AccountInput.passwordLength.contains(password.count) else {
            throw AppError.invalid(
                field: field, message: password.isEmpty ? "Choose a password of at least 8 characters." : "A password has 8 to 128 characters.")
        }
        guard !CommonPasswords.contains(password) else {
            throw AppError.invalid(
                field: field, message: "That password is one of the most common ones; choose one nobody would guess.")
        }
    }

    static func device(_ entered: EnteredDevice) throws -> EnteredDevice {
        for (field, value) in [("deviceId", entered.id), ("deviceName", entered.name)] {
            guard let value else { continue }
            guard value.unicodeScalars.count <= 200,
                !AccountInput.containsControlCharacters(value, allowingLineBreaks: false)
            else {
                throw AppError.invalid(
                    field: field, message: "\(field) has at most 200 characters and no control characters.")
            }
        }
        return EnteredDevice(id: Names.optional(entered.id), name: Names.optional(entered.name))
    }
}
