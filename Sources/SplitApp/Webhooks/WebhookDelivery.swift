import Crypto
import Foundation
import SplitCore
import SplitStore

/// What a webhook receives (issue 17), as JSON:
///
///     {"id": deliveryId, "type": "expense.created", "groupId", "seq", "occurredAt",
///      "actor": {"userId", "name"}, "entity": {"type": "expense", "id"}, "summary"}
///
/// `summary` is the activity line as the activity list shows it. Keys are sorted and the body
/// is fixed at the first attempt, so every retry sends the same bytes.
public struct WebhookPayload: Encodable, Sendable, Equatable {
    public struct Actor: Encodable, Sendable, Equatable {
        public var userId: String?
        public var name: String
    }
    public struct Entity: Encodable, Sendable, Equatable {
        public var type: String
        public var id: String
    }
    public var id: String
    public var type: String
    public var groupId: String
    public var seq: Int64
    public var occurredAt: String
    public var actor: Actor
    public var entity: Entity
    public var summary: String

    public init(deliveryID: UUID, groupID: UUID, activity: ActivityRecord, summary: String) {
        id = deliveryID.text
        type = activity.action
        groupId = groupID.text
        seq = activity.seq
        occurredAt = Self.timestamp(activity.at)
        actor = Actor(userId: activity.actorUserID?.text, name: activity.actorName)
        entity = Entity(type: activity.entity.rawValue, id: activity.entityID.text)
        self.summary = summary
    }

    /// A `ping`: the webhook itself, sent by `actor`.
    public init(pingID: UUID, groupID: UUID, webhookID: UUID, seq: Int64, at: Int64, actor: Actor) {
        id = pingID.text
        type = "ping"
        groupId = groupID.text
        self.seq = seq
        occurredAt = Self.timestamp(at)
        self.actor = actor
        entity = Entity(type: "webhook", id: webhookID.text)
        summary = "\(actor.name) sent a test delivery"
    }

    static func timestamp(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
        return UTCTimestamp.format(date) ?? ISO8601DateFormatter().string(from: date)
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The `Splitter-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
/// A receiver recomputes v1 with its secret over the timestamp, a dot and the raw body, compares
/// in constant time, and refuses a `t` more than a few minutes old (a replay).
public enum WebhookSignature {
    public static func header(secret: String, timestamp: Int64, body: String) -> String {
        "t=\(timestamp),v1=\(v1(secret: secret, timestamp: timestamp, body: body))"
    }

    public static func v1(secret: String, timestamp: Int64, body: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Hex.string(Data(mac))
    }

    /// A new secret: `whsec_` and 32 random bytes, base64url.
    public static func newSecret() -> String {
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0) }.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "whsec_" + text
    }
}

/// One HTTP POST a delivery makes.
public struct WebhookRequest: Sendable {
    public var url: URLComponents
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(url: URLComponents, headers: [(name: String, value: String)], body: [UInt8]) {
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The receiver's answer: its status and the first bytes of its body.
public struct WebhookResponse: Sendable, Equatable {
    public var status: Int
    public var bodyPrefix: String

    public init(status: Int, bodyPrefix: String) {
        self.status = status
        self.bodyPrefix = bodyPrefix
    }
}

/// Sends a delivery over the network (the live one is SplitServer's NIO client). Throws for a
/// refused address, a connection that fails or a timeout.
public protocol WebhookTransport: Sendable {
    func post(_ request: WebhookRequest, allowPrivate: Bool) async throws -> WebhookResponse
}

/// Thrown by a transport that would not send to the receiver's address (a name that resolves
/// to a loopback or private address without `WEBHOOK_ALLOW_PRIVATE`): the delivery fails at once,
/// as retrying the same refusal for a day only hides it.
public struct WebhookAddressRefused: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// Thrown to the job runner when an attempt failed: retried later unless `isFinal`.
public struct WebhookAttemptFailed: Error, CustomStringConvertible {
    public var description: String
    /// The delivery is failed or skipped for good: no retry.
    public var isFinal: Bool
}

/// Runs one delivery's attempt (issue 17): the job `webhook.deliver` calls it. A delivery whose
/// webhook was disabled or deleted is skipped, not sent. The body is built at the first attempt
/// and stored; every attempt is signed anew (the timestamp is the attempt's) and logged.
public struct WebhookDelivery: Sendable, UsesStores {
    let database: Database
    let transport: any WebhookTransport
    let allowPrivate: Bool
    let summary: @Sendable (ActivityRecord) -> String
    let now: @Sendable () -> Int64

    public init(
        database: Database, transport: any WebhookTransport, allowPrivate: Bool,
        summary: @escaping @Sendable (ActivityRecord) -> String, now: @escaping @Sendable () -> Int64
    ) {
        self.database = database
        self.transport = transport
        self.allowPrivate = allowPrivate
        self.summary = summary
        self.now = now
    }

    /// The job's payload for a delivery.
    struct JobPayload: Codable {
        var deliveryId: String
    }

    /// The wait before the next attempt: `JobRunner`'s backoff, never past the delivery's day
    /// (the attempt at its end decides it failed). An attempt past the day that could not decide
    /// it (an error before it reached the receiver, such as the database's) is tried again a
    /// minute later, for an hour; then nil, and the job is kept as failed with its error.
    public func retryDelay(attempts: Int, createdAt: Int64, backoff: (Int) -> Int64?) -> Int64? {
        let left = createdAt + WebhookStore.day - now()
        guard left > -WebhookStore.day / 24 else { return nil }
        guard left > 0 else { return 60_000 }
        return min(backoff(min(attempts, 29)) ?? 3_600_000, left)
    }

    public func deliver(payload: String) async throws {
        guard let parsed = try? JSONDecoder().decode(JobPayload.self, from: Data(payload.utf8)),
            let id = UUID(uuidString: parsed.deliveryId)
        else { throw WebhookAttemptFailed(description: "not a delivery: \(payload.prefix(100))", isFinal: true) }
        guard let (delivery, webhook, activity) = try await webhooks.delivery(id), delivery.state == .pending else {
            return  // gone, or already decided (a second run after a crash)
        }
        guard webhook.isEnabled else {
            let reason = webhook.deletedAt != nil ? "The webhook was deleted." : "The webhook is disabled."
            try await webhooks.skip(id, reason: reason, now: now())
            return
        }
        var body = delivery.body
        if body == nil, let activity {
            let payload = WebhookPayload(
                deliveryID: delivery.id, groupID: delivery.groupID, activity: activity, summary: summary(activity))
            body = try await webhooks.fixBody(id, body: payload.json)
        }
        guard let body else {
            try await webhooks.skip(id, reason: "The activity line is gone.", now: now())
            return
        }
        let outcome: WebhookAttemptOutcome
        var failure = ""
        do {
            let url = try WebhookURL.check(webhook.url, allowPrivate: allowPrivate)
            let timestamp = now() / 1_000
            let request = WebhookRequest(
                url: url,
                headers: [
                    ("Content-Type", "application/json"), ("User-Agent", "BudgetSplitter-Webhooks/1"),
                    ("Splitter-Event", delivery.kind), ("Splitter-Delivery", delivery.id.text),
                    (
                        "Splitter-Signature",
                        WebhookSignature.header(secret: webhook.secret, timestamp: timestamp, body: body)
                    ),
                ], body: Array(body.utf8))
            let response = try await transport.post(request, allowPrivate: allowPrivate)
            if !(200..<300).contains(response.status) {
                failure = "HTTP \(response.status)" + (response.bodyPrefix.isEmpty ? "" : ": " + response.bodyPrefix)
            }
            outcome = try await webhooks.recordAttempt(
                id, status: response.status, error: failure.isEmpty ? nil : failure, now: now())
        } catch let error as AppError {
            // The stored address no longer passes the check: no later attempt would either.
            failure = error.fieldProblems.first?.message ?? "\(error)"
            outcome = try await webhooks.recordAttempt(id, status: nil, error: failure, final: true, now: now())
        } catch let error as WebhookAddressRefused {
            failure = error.description
            outcome = try await webhooks.recordAttempt(id, status: nil, error: failure, final: true, now: now())
        } catch {
            failure = "\(error)"
            outcome = try await webhooks.recordAttempt(id, status: nil, error: failure, now: now())
        }
        switch outcome {
        case .delivered: return
        case .retry: throw WebhookAttemptFailed(description: failure, isFinal: false)
        case .failed:
            let past = now() >= delivery.createdAt + WebhookStore.day
            throw WebhookAttemptFailed(description: (past ? "gave up after 24 hours: " : "") + failure, isFinal: true)
        case .disabled:
            throw WebhookAttemptFailed(description: "webhook disabled: " + failure, isFinal: true)
        }
    }
}
