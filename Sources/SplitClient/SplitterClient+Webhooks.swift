import Foundation
internal import SplitAPI

/// A group's webhooks, for its owner and admins (others get `SplitterError` 403): register a
/// URL for some or all activity kinds, change, disable or enable it, rotate its secret, send a
/// test delivery, read the delivery log.
extension SplitterClient {
    public func webhooks(groupID: String) async throws -> [Webhook] {
        switch try await send({ try await api.listWebhooks(path: .init(groupId: groupID)) }) {
        case .ok(let ok): return try ok.body.json.webhooks.map(Webhook.init)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func webhook(id: String, groupID: String) async throws -> Webhook {
        switch try await send({ try await api.getWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
        case .ok(let ok): return Webhook(try ok.body.json.webhook)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Registers `url` for these activity kinds (`["*"]`: all); the answer holds the secret, once.
    public func createWebhook(groupID: String, url: String, kinds: [String] = ["*"]) async throws -> WebhookWithSecret {
        let output = try await send {
            try await api.createWebhook(path: .init(groupId: groupID), body: .json(.init(url: url, kinds: kinds)))
        }
        switch output {
        case .created(let created):
            let body = try created.body.json
            return WebhookWithSecret(webhook: Webhook(body.webhook), secret: body.secret)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Changes what is given; `enabled: true` also forgets the failures that may have disabled it.
    public func updateWebhook(
        id: String, groupID: String, url: String? = nil, kinds: [String]? = nil, enabled: Bool? = nil
    ) async throws -> Webhook {
        let output = try await send {
            try await api.updateWebhook(
                path: .init(groupId: groupID, webhookId: id),
                body: .json(.init(url: url, kinds: kinds, enabled: enabled)))
        }
        switch output {
        case .ok(let ok): return Webhook(try ok.body.json.webhook)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    public func deleteWebhook(id: String, groupID: String) async throws {
        switch try await send({ try await api.deleteWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
        case .noContent: return
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// A new secret, answered once; the old one stops signing at once.
    public func rotateWebhookSecret(id: String, groupID: String) async throws -> WebhookWithSecret {
        switch try await send({ try await api.rotateWebhookSecret(path: .init(groupId: groupID, webhookId: id)) }) {
        case .ok(let ok):
            let body = try ok.body.json
            return WebhookWithSecret(webhook: Webhook(body.webhook), secret: body.secret)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// Queues a `ping` delivery; follow it in `webhookDeliveries`.
    public func pingWebhook(id: String, groupID: String) async throws -> WebhookDelivery {
        switch try await send({ try await api.pingWebhook(path: .init(groupId: groupID, webhookId: id)) }) {
        case .accepted(let accepted): return WebhookDelivery(try accepted.body.json.delivery)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }

    /// The delivery log, newest first: from the start or after `cursor`; `limit` 1 to 200.
    public func webhookDeliveries(id: String, groupID: String, cursor: String? = nil, limit: Int? = nil)
        async throws -> WebhookDeliveryPage
    {
        let output = try await send {
            try await api.listWebhookDeliveries(
                path: .init(groupId: groupID, webhookId: id), query: .init(limit: limit, cursor: cursor))
        }
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return WebhookDeliveryPage(
                deliveries: body.deliveries.map(WebhookDelivery.init), nextCursor: body.nextCursor)
        case .default(let status, let error): throw Self.failure(status, error)
        }
    }
}
