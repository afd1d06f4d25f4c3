import Foundation

// The SDK's own types for a group's webhooks (`SplitterClient.webhooks(groupID:)`,
// `GET /api/groups/{groupId}/webhooks`), for its owner and admins. Their JSON is the API's.

/// A URL that receives the group's activity as signed JSON (see openapi.yaml, createWebhook,
/// for the body and the `Splitter-Signature` header). The secret is never part of it: only
/// `createWebhook` and `rotateWebhookSecret` answer it, once.
public struct Webhook: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var url: String
    /// The activity kinds it receives (`expense.created` …), or `["*"]` for all.
    public var kinds: [String]
    public var enabled: Bool
    /// Why it is disabled: by whom, or after 24 hours of failed deliveries.
    public var disabledReason: String?
    /// The first failed attempt since the last success, while it keeps failing.
    public var failingSince: Date?
    public var lastSuccessAt: Date?
    public var createdAt: Date

    public init(
        id: String, groupId: String, url: String, kinds: [String], enabled: Bool, disabledReason: String? = nil,
        failingSince: Date? = nil, lastSuccessAt: Date? = nil, createdAt: Date
    ) {
        self.id = id
        self.groupId = groupId
        self.url = url
        self.kinds = kinds
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.failingSince = failingSince
        self.lastSuccessAt = lastSuccessAt
        self.createdAt = createdAt
    }
}

/// A webhook with its secret, as create and rotate answer it (the only time it is shown).
public struct WebhookWithSecret: Codable, Hashable, Sendable {
    public var webhook: Webhook
    /// `whsec_…`: the key of the HMAC-SHA256 in each delivery's `Splitter-Signature`.
    public var secret: String

    public init(webhook: Webhook, secret: String) {
        self.webhook = webhook
        self.secret = secret
    }
}

/// One delivery of one event to a webhook, and what became of it.
public struct WebhookDelivery: Codable, Hashable, Sendable {
    public enum State: String, Codable, Hashable, Sendable {
        /// Waiting for its next attempt.
        case pending
        /// The receiver answered 2xx.
        case delivered
        /// Every attempt for 24 hours failed.
        case failed
        /// Its webhook was disabled or deleted before it was sent.
        case skipped
    }
    /// As in the body's `id` and the `Splitter-Delivery` header.
    public var id: String
    public var webhookId: String
    /// The activity kind, or `ping`.
    public var type: String
    public var state: State
    public var attempts: Int
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    public var lastAttemptAt: Date?
    public var finishedAt: Date?

    public init(
        id: String, webhookId: String, type: String, state: State, attempts: Int, lastStatus: Int? = nil,
        lastError: String? = nil, createdAt: Date, lastAttemptAt: Date? = nil, finishedAt: Date? = nil
    ) {
        self.id = id
        self.webhookId = webhookId
        self.type = type
        self.state = state
        self.attempts = attempts
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.createdAt = createdAt
        self.lastAttemptAt = lastAttemptAt
        self.finishedAt = finishedAt
    }
}

/// One page of a webhook's delivery log, newest first.
public struct WebhookDeliveryPage: Codable, Hashable, Sendable {
    public var deliveries: [WebhookDelivery]
    /// Give it to `webhookDeliveries(cursor:)` for the next (older) page; nil on the last page.
    public var nextCursor: String?

    public init(deliveries: [WebhookDelivery], nextCursor: String? = nil) {
        self.deliveries = deliveries
        self.nextCursor = nextCursor
    }
}
