import Foundation
internal import SplitAPI

/// A group's webhooks, for its owner and admins (others get `SplitterError` 403): register a
/// URL for some or all activity kinds, change, disable or enable it, rotate its secret, send a
/// test delivery, read the delivery log.
extension SplitterClient {
    public func webhooks(groupID: String) async throws -> [Webhook] {
        try await call({ try await api.listWebhooks(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.webhooks.map(Webhook.init)
        }
    }

    public func webhook(id: String, groupID: String) async throws -> Webhook {
        try await call({ try await api.getWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
            Webhook(try $0.ok.body.json.webhook)
        }
    }

    /// Registers `url` for these activity kinds (`["*"]`: all); the answer holds the secret, once.
    public func createWebhook(groupID: String, url: String, kinds: [String] = ["*"]) async throws -> WebhookWithSecret {
        try await call({
            try await api.createWebhook(path: .init(groupId: groupID), body: .json(.init(url: url, kinds: kinds)))
        }) { output in
            let body = try output.created.body.json
            return WebhookWithSecret(webhook: Webhook(body.webhook), secret: body.secret)
        }
    }

    /// Changes what is given; `enabled: true` also forgets the failures that may have disabled it.
    public func updateWebhook(
        id: String, groupID: String, url: String? = nil, kinds: [String]? = nil, enabled: Bool? = nil
    ) async throws -> Webhook {
        try await call({
            try await api.updateWebhook(
                path: .init(groupId: groupID, webhookId: id),
                body: .json(.init(url: url, kinds: kinds, enabled: enabled)))
        }) { Webhook(try $0.ok.body.json.webhook) }
    }

    public func deleteWebhook(id: String, groupID: String) async throws {
        try await call({ try await api.deleteWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
            _ = try $0.noContent
        }
    }

    /// A new secret, answered once; the old one stops signing at once.
    public func rotateWebhookSecret(id: String, groupID: String) async throws -> WebhookWithSecret {
        try await call({ try await api.rotateWebhookSecret(path: .init(groupId: groupID, webhookId: id)) }) { output in
            let body = try output.ok.body.json
            return WebhookWithSecret(webhook: Webhook(body.webhook), secret: body.secret)
        }
    }

    /// Queues a `ping` delivery; follow it in `webhookDeliveries`.
    public func pingWebhook(id: String, groupID: String) async throws -> WebhookDelivery {
        try await call({ try await api.pingWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
            WebhookDelivery(try $0.accepted.body.json.delivery)
        }
    }

    /// The delivery log, newest first: from the start or after `cursor`; `limit` 1 to 200.
    public func webhookDeliveries(id: String, groupID: String, cursor: String? = nil, limit: Int? = nil)
        async throws -> WebhookDeliveryPage
    {
        return try await call({
            try await api.listWebhookDeliveries(
                path: .init(groupId: groupID, webhookId: id), query: .init(limit: limit, cursor: cursor))
        }) { output in
            let body = try output.ok.body.json
            return WebhookDeliveryPage(
                deliveries: body.deliveries.map(WebhookDelivery.init), nextCursor: body.nextCursor)
        }
    }
}
