import Foundation
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// A group's webhooks (issue 17): wire in, one `WebhookUseCases` call, wire out. Secrets leave
/// only in the answers of create and rotate-secret.
extension APIHandler {
    func listWebhooks(_ input: Operations.ListWebhooks.Input) async throws -> Operations.ListWebhooks.Output {
        let caller = try await authenticate()
        let list = try await webhookUseCases.webhooks(groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(webhooks: list.map(Components.Schemas.Webhook.init)))))
    }

    func createWebhook(_ input: Operations.CreateWebhook.Input) async throws -> Operations.CreateWebhook.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let webhook = try await webhookUseCases.create(
            EnteredWebhook(url: body.url, kinds: body.kinds), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller)
        return .created(.init(body: .json(.init(webhook: .init(webhook), secret: webhook.secret))))
    }

    func getWebhook(_ input: Operations.GetWebhook.Input) async throws -> Operations.GetWebhook.Output {
        let caller = try await authenticate()
        let webhook = try await webhookUseCases.webhook(
            try Self.id(input.path.webhookId, "webhook"), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller)
        return .ok(.init(body: .json(.init(webhook: .init(webhook)))))
    }

    func updateWebhook(_ input: Operations.UpdateWebhook.Input) async throws -> Operations.UpdateWebhook.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let webhook = try await webhookUseCases.update(
            try Self.id(input.path.webhookId, "webhook"),
            WebhookPatch(url: body.url, kinds: body.kinds, enabled: body.enabled),
            groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(webhook: .init(webhook)))))
    }

    func deleteWebhook(_ input: Operations.DeleteWebhook.Input) async throws -> Operations.DeleteWebhook.Output {
        let caller = try await authenticate()
        try await webhookUseCases.delete(
            try Self.id(input.path.webhookId, "webhook"), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller)
        return .noContent(.init())
    }

    func rotateWebhookSecret(_ input: Operations.RotateWebhookSecret.Input) async throws
        -> Operations.RotateWebhookSecret.Output
    {
        let caller = try await authenticate()
        let webhook = try await webhookUseCases.rotateSecret(
            try Self.id(input.path.webhookId, "webhook"), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller)
        return .ok(.init(body: .json(.init(webhook: .init(webhook), secret: webhook.secret))))
    }

    func pingWebhook(_ input: Operations.PingWebhook.Input) async throws -> Operations.PingWebhook.Output {
        let caller = try await authenticate()
        let delivery = try await webhookUseCases.ping(
            try Self.id(input.path.webhookId, "webhook"), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller)
        return .accepted(.init(body: .json(.init(delivery: .init(delivery)))))
    }

    func listWebhookDeliveries(_ input: Operations.ListWebhookDeliveries.Input) async throws
        -> Operations.ListWebhookDeliveries.Output
    {
        let caller = try await authenticate()
        let page = try await webhookUseCases.deliveries(
            try Self.id(input.path.webhookId, "webhook"), groupID: try Self.id(input.path.groupId, "group"),
            cursor: input.query.cursor, limit: input.query.limit, caller: caller)
        return .ok(
            .init(
                body: .json(
                    .init(
                        deliveries: page.deliveries.map(Components.Schemas.WebhookDelivery.init),
                        nextCursor: page.nextCursor))))
    }
}

extension Components.Schemas.Webhook {
    /// Never the secret.
    init(_ webhook: WebhookRecord) {
        self.init(
            id: webhook.id.text, groupId: webhook.groupID.text, url: webhook.url, kinds: webhook.kinds ?? ["*"],
            enabled: webhook.disabledAt == nil, disabledReason: webhook.disabledReason,
            failingSince: webhook.failingSince.map(Date.init(milliseconds:)),
            lastSuccessAt: webhook.lastSuccessAt.map(Date.init(milliseconds:)),
            createdByUserId: webhook.createdByUserID?.text, createdAt: Date(milliseconds: webhook.createdAt))
    }
}

extension Components.Schemas.WebhookDelivery {
    init(_ delivery: WebhookDeliveryRecord) {
        let state: StatePayload =
            switch delivery.state {
            case .pending: .pending
            case .delivered: .delivered
            case .failed: .failed
            case .skipped: .skipped
            }
        self.init(
            id: delivery.id.text, webhookId: delivery.webhookID.text, _type: delivery.kind,
            activityId: delivery.activityID?.text, state: state, attempts: delivery.attempts,
            lastStatus: delivery.lastStatus, lastError: delivery.lastError,
            createdAt: Date(milliseconds: delivery.createdAt),
            lastAttemptAt: delivery.lastAttemptAt.map(Date.init(milliseconds:)),
            finishedAt: delivery.finishedAt.map(Date.init(milliseconds:)))
    }
}
