import Foundation
import Hummingbird
import SplitApp
import SplitCore
import SplitStore

/// The notification inbox (issue 17): what concerns you in your groups, newest first, each a
/// link to what it is about; "Mark all read". The bell at the top of every page counts the unread.
extension WebApp {
    struct NotificationsBody: Sendable {
        struct Line: Sendable {
            let summary: String
            let link: String
            let groupName: String
            let at: String
            let read: Bool
        }
        let lines: [Line]
        let unreadCount: Int?
        let nextURL: String?
    }

    func notificationsPage(_ request: Request) async throws -> Response {
        let caller = try caller()
        let cursor = request.uri.queryParameters["cursor"].map(String.init)
        let page = try await api.notificationUseCases.inbox(caller: caller, cursor: cursor, limit: 50)
        // Each at its group's clock, as the group's own pages say it (found by review: the inbox
        // said GMT where the group's pages said GMT+9).
        let zones = Dictionary(
            try await groupUseCases.groups(of: caller).map { ($0.group.id, $0.group.timeZone) },
            uniquingKeysWith: { first, _ in first })
        let lines = page.notifications.map { line in
            NotificationsBody.Line(
                summary: ActivityText.sentence(line), link: Self.link(line), groupName: line.groupName,
                at: ZonedTime.dateTime(Date(milliseconds: line.createdAt), in: zones[line.groupID] ?? "UTC"),
                read: line.readAt != nil)
        }
        let body = NotificationsBody(
            lines: lines, unreadCount: page.unread > 0 ? page.unread : nil,
            nextURL: page.nextCursor.map { "/notifications?cursor=" + Self.queryEscape($0) })
        return try await render("notifications", title: "Notifications", body: body)
    }

    /// Marks every notification read; back to the list.
    func markNotificationsRead(_ request: Request) async throws -> Response {
        _ = try await api.notificationUseCases.markRead(ids: nil, caller: try caller())
        return Self.redirect("/notifications")
    }

    /// Where a notification leads: the expense, the group's settle-up page, its members, its
    /// budget or recurring expenses (found by review: a budget alert led to the overview).
    static func link(_ line: NotificationRecord) -> String {
        let action = line.activity.action
        // Told to someone not in the group (a claimant turned down, a member removed): the group is
        // not theirs to open (found by a new user: "removed you" linked to a page not found).
        if !line.readerIsIn { return "/groups" }
        if action.hasPrefix("budget.") { return "/groups/\(line.groupID.text)/budget" }
        if action.hasPrefix("recurring.") || action.hasPrefix("pending.") { return "/groups/\(line.groupID.text)/recurring" }
        if action.hasPrefix("payment_request."), let request = line.activity.event.requestID {
            return "/groups/\(line.groupID.text)/requests/\(request.text)"
        }
        if action.hasPrefix("payment_request.") && line.activity.entity == .group {
            return "/groups/\(line.groupID.text)/balances"
        }
        return switch line.activity.entity {
        case .expense: "/expenses/\(line.activity.entityID.text)"
        case .settlement: "/groups/\(line.groupID.text)/balances"
        case .member: "/groups/\(line.groupID.text)/members"
        case .group, .category: "/groups/\(line.groupID.text)"
        }
    }
}
