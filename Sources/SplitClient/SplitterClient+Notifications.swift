import Foundation
internal import SplitAPI

/// The notification inbox: what others did that concerns you in your groups, newest first, with
/// what is unread; marking read; how much each group sends.
extension SplitterClient {
    /// The most ids `markNotificationsRead(ids:)` sends in one request (the server's limit).
    public static let markReadLimit = 200

    /// One page of the inbox, newest first: from the start, or after `cursor` (a page's
    /// `nextCursor`). `limit`: 1 to 200 items (the server's default when nil).
    public func notifications(cursor: String? = nil, limit: Int? = nil) async throws -> NotificationPage {
        try await call({ try await api.listNotifications(query: .init(limit: limit, cursor: cursor)) }) {
            NotificationPage(try $0.ok.body.json)
        }
    }

    /// Marks these notifications read (ids that are not yours mark nothing) and answers how many
    /// are still unread. More than `markReadLimit` ids go in several requests.
    public func markNotificationsRead(ids: [String]) async throws -> Int {
        var unread = 0
        var rest = ids[...]
        repeat {
            let chunk = Array(rest.prefix(Self.markReadLimit))
            rest = rest.dropFirst(chunk.count)
            unread = try await markRead(.init(ids: chunk))
        } while !rest.isEmpty
        return unread
    }

    /// Marks every notification read; answers how many are still unread (0, unless one arrived
    /// meanwhile).
    public func markAllNotificationsRead() async throws -> Int {
        try await markRead(.init(all: true))
    }

    /// How much of this group's activity reaches your inbox.
    public func notificationLevel(groupID: String) async throws -> NotificationLevel {
        try await call({ try await api.getNotificationSettings(path: .init(groupId: groupID)) }) {
            NotificationLevel(try $0.ok.body.json.level)
        }
    }

    /// Sets it (yours only, invisible to others); answers the level now.
    @discardableResult
    public func setNotificationLevel(_ level: NotificationLevel, groupID: String) async throws -> NotificationLevel {
        try await call({
            try await api.putNotificationSettings(
                path: .init(groupId: groupID), body: .json(.init(level: level.wire)))
        }) { NotificationLevel(try $0.ok.body.json.level) }
    }

    private func markRead(
        _ body: Operations.MarkNotificationsRead.Input.Body.JsonPayload
    ) async throws -> Int {
        try await call({ try await api.markNotificationsRead(body: .json(body)) }) { try $0.ok.body.json.unread }
    }
}

/// Notification mail: your address, whether it is verified, and what reaches it.
extension SplitterClient {
    public func emailSettings() async throws -> EmailSettings {
        try await call({ try await api.getEmailSettings() }) { EmailSettings(try $0.ok.body.json) }
    }

    /// Changes what you get; nil keeps a value. Answers the settings now.
    @discardableResult
    public func updateEmailSettings(mode: EmailMode? = nil, off: Set<MailKind>? = nil, digestHour: Int? = nil)
        async throws -> EmailSettings
    {
        let body = Components.Schemas.EmailSettingsUpdate(
            mode: mode.flatMap { .init(rawValue: $0.rawValue) },
            off: off.map { kinds in MailKind.allCases.filter(kinds.contains).compactMap { .init(rawValue: $0.rawValue) } },
            digestHour: digestHour)
        return try await call({ try await api.putEmailSettings(body: .json(body)) }) {
            EmailSettings(try $0.ok.body.json)
        }
    }

    /// Mails you a new verification link (valid 48 hours).
    public func requestEmailVerification() async throws {
        try await call({ try await api.requestEmailVerification() }) { _ = try $0.accepted }
    }

    /// Verifies an address with the token of its link (`…/verify-email/<token>`); needs no login.
    public func verifyEmail(token: String) async throws {
        try await call({ try await api.verifyEmail(body: .json(.init(token: token))) }) { _ = try $0.noContent }
    }
}

/// "Forgot my password": a link by mail, then a new password with its token. Neither needs a login.
extension SplitterClient {
    /// Mails a link to set a new password to the address, if an account has it (the answer is
    /// the same either way).
    public func requestPasswordReset(email: String) async throws {
        try await call({ try await api.requestPasswordReset(body: .json(.init(email: email))) }) { _ = try $0.accepted }
    }

    /// Sets a new password with the token of a reset link (`…/reset-password/<token>`); every
    /// session of the account ends, this client's too: log in again.
    public func resetPassword(token: String, newPassword: String) async throws {
        try await call({
            try await api.resetPassword(body: .json(.init(token: token, newPassword: newPassword)))
        }) { _ = try $0.noContent }
    }
}
