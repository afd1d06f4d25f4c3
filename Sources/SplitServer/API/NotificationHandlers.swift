import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The notification inbox and its per-group settings (issue 17): wire in, one
/// `NotificationUseCases` call, wire out.
extension APIHandler {
    func listNotifications(_ input: Operations.ListNotifications.Input) async throws
        -> Operations.ListNotifications.Output
    {
        let caller = try await authenticate()
        let page = try await notificationUseCases.inbox(caller: caller, cursor: input.query.cursor, limit: input.query.limit)
        return .ok(
            .init(
                body: .json(
                    .init(
                        notifications: page.notifications.map(Components.Schemas.Notification.init),
                        unread: page.unread, nextCursor: page.nextCursor))))
    }

    func markNotificationsRead(_ input: Operations.MarkNotificationsRead.Input) async throws
        -> Operations.MarkNotificationsRead.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        guard body.all == true || body.ids != nil else {
            throw AppError.invalid(field: "ids", message: "Send ids, or all: true.")
        }
        let unread = try await notificationUseCases.markRead(ids: body.all == true ? nil : body.ids, caller: caller)
        return .ok(.init(body: .json(.init(unread: unread))))
    }

    func getNotificationSettings(_ input: Operations.GetNotificationSettings.Input) async throws
        -> Operations.GetNotificationSettings.Output
    {
        let caller = try await authenticate()
        let level = try await notificationUseCases.level(groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(level: .init(level)))))
    }

    func putNotificationSettings(_ input: Operations.PutNotificationSettings.Input) async throws
        -> Operations.PutNotificationSettings.Output
    {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let level = try await notificationUseCases.setLevel(
            body.level.rawValue, groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(level: .init(level)))))
    }
}

extension Components.Schemas.NotificationSettings.LevelPayload {
    init(_ level: NotificationLevel) {
        switch level {
        case .all: self = .all
        case .mine: self = .mine
        case .none: self = .none
        }
    }
}

extension Components.Schemas.Notification {
    init(_ line: NotificationRecord) {
        self.init(
            id: line.activity.id.text, groupId: line.groupID.text, groupName: line.groupName, action: line.activity.action,
            actorName: line.activity.actorName, entity: line.activity.entity.rawValue,
            entityId: line.activity.entityID.text, summary: ActivityText.sentence(line),
            at: Date(milliseconds: line.createdAt), read: line.readAt != nil)
    }
}
