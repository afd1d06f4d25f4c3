import Foundation
import SQLKit
import SplitCore

/// A URL a group's admin registered to hear of the group's activity (issue 17).
public struct WebhookRecord: Sendable, Equatable {
    public var id: UUID
    public var groupID: UUID
    public var url: String
    /// What deliveries are signed with; only create and rotate show it.
    public var secret: String
    /// The activity kinds it wants ("expense.created" …), or nil for every kind ("*").
    public var kinds: [String]?
    public var createdByUserID: UUID?
    public var createdAt: Int64
    public var updatedAt: Int64
    public var disabledAt: Int64?
    /// Why it was disabled: by whom, or after how long failing.
    public var disabledReason: String?
    /// The first failure since the last success; nil while it works.
    public var failingSince: Int64?
    public var lastSuccessAt: Int64?
    public var deletedAt: Int64?

    public var isEnabled: Bool { disabledAt == nil && deletedAt == nil }

    public init(
        id: UUID, groupID: UUID, url: String, secret: String, kinds: [String]?, createdByUserID: UUID?,
        createdAt: Int64,
        updatedAt: Int64, disabledAt: Int64? = nil, disabledReason: String? = nil, failingSince: Int64? = nil,
        lastSuccessAt: Int64? = nil, deletedAt: Int64? = nil
    ) {
        self.id = id
        self.groupID = groupID
        self.url = url
        self.secret = secret
        self.kinds = kinds
        self.createdByUserID = createdByUserID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.disabledAt = disabledAt
        self.disabledReason = disabledReason
        self.failingSince = failingSince
        self.lastSuccessAt = lastSuccessAt
        self.deletedAt = deletedAt
    }
}

public enum WebhookDeliveryState: String, Sendable, CaseIterable {
    case pending, delivered, failed, skipped
}

/// One delivery of one event to one webhook, and what became of it.
public struct WebhookDeliveryRecord: Sendable, Equatable {
    public var id: UUID
    public var webhookID: UUID
    public var groupID: UUID
    /// The activity line it announces; nil for a ping.
    public var activityID: UUID?
    /// The activity's action ("expense.created"), or "ping".
    public var kind: String
    /// The bytes sent, fixed at the first attempt so every retry sends the same.
    public var body: String?
    public var state: WebhookDeliveryState
    public var attempts: Int
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Int64
    public var lastAttemptAt: Int64?
    public var finishedAt: Int64?
}

/// The activity kinds a webhook may subscribe to: every action `GroupLog.activity` records.
public enum WebhookKinds {
    public static let all: [String] = [
        "group.created", "group.renamed", "group.archived", "group.unarchived", "member.added", "member.renamed", "member.joined", "member.claim_requested",
        "member.claim_approved", "member.claim_rejected", "member.removed", "member.restored", "member.role_changed",
        "member.rights_changed", "expense.created", "expense.updated", "expense.deleted", "expense.restored",
        "share.marked_paid", "share.marked_unpaid", "settlement.recorded", "settlement.deleted", "rates.updated",
        "rates.deleted", "category.created", "category.updated", "category.deleted", "category.reordered",
        "import.completed",
        "budget.updated", "budget.removed", "budget.alert", "recurring.created", "recurring.updated", "recurring.paused",
        "recurring.resumed", "recurring.skipped", "recurring.ended", "recurring.added", "recurring.pending",
        "pending.dismissed", "payment_request.created", "payment_request.cancelled", "payment_request.paid",
    ]
    /// The job kind that sends one delivery.
    public static let jobKind = "webhook.deliver"
    /// The most webhooks one group may have.
    public static let perGroup = 10

    /// The stored form: "*", or ",a,b," so a LIKE finds one kind exactly.
    static func stored(_ kinds: [String]?) -> String {
        guard let kinds else { return "*" }
        return "," + kinds.joined(separator: ",") + ","
    }

    static func read(_ text: String) -> [String]? {
        text == "*" ? nil : text.split(separator: ",").map(String.init)
    }
}

/// What a delivery's attempt came to.
public enum WebhookAttemptOutcome: Sendable, Equatable {
    /// Delivered (2xx).
    case delivered
    /// Failed; the job tries again later.
    case retry
    /// Failed, and 24 hours have passed since the delivery was queued: kept as failed.
    case failed
    /// Failed, and the webhook has failed for 24 hours: it is disabled, its pending deliveries skipped.
    case disabled
}

/// The webhooks of groups and their delivery log. Deliveries are queued by the write that made
/// the activity line, in its transaction (`GroupLog.activity` → `enqueueDeliveries`), each with
/// its job, so a rolled-back write sends nothing and a committed one is never lost.
public struct WebhookStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// One day: deliveries are retried this long, and a webhook failing this long is disabled.
    public static let day: Int64 = 86_400_000

    // MARK: The write path

    /// Queues a delivery and its job for each enabled webhook of the group that wants `action`.
    /// `GroupLog` calls it only when the group has a live webhook.
    static func enqueueDeliveries(
        groupID: UUID, activityID: String, action: String, now: Int64, _ sql: any SQLDatabase
    ) async throws {
        let pattern =
            "%,"
            + action.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "%", with: "\\%") + ",%"
        let webhooks = try await sql.raw(
            """
            SELECT id FROM webhooks
            WHERE group_id = \(bind: groupID.text) AND disabled_at IS NULL AND deleted_at IS NULL
                  AND (kinds = '*' OR kinds LIKE \(bind: pattern) ESCAPE '\\')
            """
        ).all()
        for row in webhooks {
            try await addDelivery(
                webhookID: try row.decodeUUID("id"), groupID: groupID, activityID: activityID, kind: action, body: nil,
                now: now, sql)
        }
    }

    @discardableResult
    private static func addDelivery(
        webhookID: UUID, groupID: UUID, activityID: String?, kind: String, body: String?, now: Int64,
        _ sql: any SQLDatabase
    ) async throws -> UUID {
        let id = UUID.random()
        try await sql.raw(
            """
            INSERT INTO webhook_deliveries (id, webhook_id, group_id, activity_id, kind, body, created_at)
            VALUES (\(bind: id.text), \(bind: webhookID.text), \(bind: groupID.text), \(bind: activityID),
                    \(bind: kind), \(bind: body), \(bind: now))
            """
        ).run()
        try await JobStore.enqueue(
            kind: WebhookKinds.jobKind, uniqueKey: "\(WebhookKinds.jobKind):\(id.text)",
            payload: #"{"deliveryId":"\#(id.text)"}"#, dueAt: now, now: now, sql)
        return id
    }

    // MARK: Managing webhooks

    public enum CreateOutcome: Sendable, Equatable {
        case created(WebhookRecord)
        /// The group has `WebhookKinds.perGroup` webhooks already.
        case full
    }

    public func create(_ webhook: WebhookRecord, grant: WriteGrant) async throws -> CreateOutcome {
        try await database.transaction { sql in
            try await GroupLog.decide(sql, groupID: webhook.groupID, grant: grant)
            let count =
                try await sql.raw(
                    """
                    SELECT COUNT(*) AS n FROM webhooks WHERE group_id = \(bind: webhook.groupID.text) AND deleted_at IS NULL
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            guard count < WebhookKinds.perGroup else { return .full }
            try await sql.raw(
                """
                INSERT INTO webhooks (id, group_id, url, secret, kinds, created_by_user_id, created_at, updated_at)
                VALUES (\(bind: webhook.id.text), \(bind: webhook.groupID.text), \(bind: webhook.url),
                        \(bind: webhook.secret), \(bind: WebhookKinds.stored(webhook.kinds)),
                        \(bind: webhook.createdByUserID?.text), \(bind: webhook.createdAt), \(bind: webhook.updatedAt))
                """
            ).run()
            return .created(webhook)
        }
    }

    /// The group's webhooks (deleted ones left out), oldest first.
    public func webhooks(groupID: UUID) async throws -> [WebhookRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM webhooks WHERE group_id = \(bind: groupID.text) AND deleted_at IS NULL
                ORDER BY created_at, id
                """
            ).all()
        }.map(WebhookRecord.init(row:))
    }

    /// One webhook of the group (nil when it is another group's, deleted, or unknown).
    public func webhook(_ id: UUID, groupID: UUID) async throws -> WebhookRecord? {
        try await database.read { sql in
            try await Self.webhook(id, groupID: groupID, sql)
        }
    }

    static func webhook(_ id: UUID, groupID: UUID, _ sql: any SQLDatabase) async throws -> WebhookRecord? {
        try await sql.raw(
            """
            SELECT * FROM webhooks WHERE id = \(bind: id.text) AND group_id = \(bind: groupID.text) AND deleted_at IS NULL
            """
        ).first().map(WebhookRecord.init(row:))
    }

    /// What an admin changes; nil leaves a field as it is.
    public struct Change: Sendable {
        public var url: String?
        /// `.some(nil)`: every kind.
        public var kinds: [String]??
        public var enabled: Bool?
        /// Said as the reason when `enabled` is false.
        public var disabledBy: String

        public init(url: String? = nil, kinds: [String]?? = nil, enabled: Bool? = nil, disabledBy: String) {
            self.url = url
            self.kinds = kinds
            self.enabled = enabled
            self.disabledBy = disabledBy
        }
    }

    /// Changes a webhook; nil when there is no such webhook in the group. Enabling clears the
    /// failure streak; disabling skips the deliveries still waiting. Whoever gives it a new URL
    /// or turns it back on is answerable for it from then on (`createdByUserID`): it turns off
    /// when they no longer manage the group (`disableCreated`), whoever added it first.
    public func update(
        _ id: UUID, groupID: UUID, _ change: Change, grant: WriteGrant, by userID: UUID, now: Int64
    ) async throws -> WebhookRecord? {
        try await database.transaction { sql in
            try await GroupLog.decide(sql, groupID: groupID, grant: grant)
            guard var webhook = try await Self.webhook(id, groupID: groupID, sql) else { return nil }
            if let url = change.url, url != webhook.url {
                webhook.url = url
                webhook.createdByUserID = userID
            }
            if change.enabled == true, webhook.disabledAt != nil { webhook.createdByUserID = userID }
            if let kinds = change.kinds { webhook.kinds = kinds }
            if let enabled = change.enabled, enabled != (webhook.disabledAt == nil) {
                if enabled {
                    webhook.disabledAt = nil
                    webhook.disabledReason = nil
                    webhook.failingSince = nil
                } else {
                    webhook.disabledAt = now
                    webhook.disabledReason = "Disabled by \(change.disabledBy)."
                    try await Self.skipPending(webhookID: id, reason: "The webhook was disabled.", now: now, sql)
                }
            }
            webhook.updatedAt = now
            try await sql.raw(
                """
                UPDATE webhooks SET url = \(bind: webhook.url), kinds = \(bind: WebhookKinds.stored(webhook.kinds)),
                    disabled_at = \(bind: webhook.disabledAt), disabled_reason = \(bind: webhook.disabledReason),
                    failing_since = \(bind: webhook.failingSince),
                    created_by_user_id = \(bind: webhook.createdByUserID?.text), updated_at = \(bind: now)
                WHERE id = \(bind: id.text)
                """
            ).run()
            return webhook
        }
    }

    /// A new secret; nil when there is no such webhook. Who knows the secret can sign deliveries
    /// the receiver trusts, so whoever rotates it is answerable for the webhook from then on.
    public func rotateSecret(
        _ id: UUID, groupID: UUID, secret: String, grant: WriteGrant, by userID: UUID, now: Int64
    ) async throws -> WebhookRecord? {
        try await database.transaction { sql in
            try await GroupLog.decide(sql, groupID: groupID, grant: grant)
            guard var webhook = try await Self.webhook(id, groupID: groupID, sql) else { return nil }
            try await sql.raw(
                """
                UPDATE webhooks SET secret = \(bind: secret), created_by_user_id = \(bind: userID.text),
                    updated_at = \(bind: now)
                WHERE id = \(bind: id.text)
                """
            ).run()
            webhook.secret = secret
            webhook.createdByUserID = userID
            webhook.updatedAt = now
            return webhook
        }
    }

    /// Deletes a webhook: its secret is erased, its waiting deliveries skipped, its log kept.
    /// False when there is no such webhook.
    public func delete(_ id: UUID, groupID: UUID, grant: WriteGrant, now: Int64) async throws -> Bool {
        try await database.transaction { sql in
            try await GroupLog.decide(sql, groupID: groupID, grant: grant)
            guard try await Self.webhook(id, groupID: groupID, sql) != nil else { return false }
            try await sql.raw(
                """
                UPDATE webhooks SET deleted_at = \(bind: now), secret = '', updated_at = \(bind: now)
                WHERE id = \(bind: id.text)
                """
            ).run()
            try await Self.skipPending(webhookID: id, reason: "The webhook was deleted.", now: now, sql)
            return true
        }
    }

    /// Queues a `ping` delivery with this body; nil when there is no such webhook.
    public func ping(
        _ id: UUID, groupID: UUID, body: @escaping @Sendable (_ deliveryID: UUID, _ seq: Int64) -> String,
        grant: WriteGrant, now: Int64
    ) async throws -> WebhookDeliveryRecord? {
        try await database.transaction { sql in
            try await GroupLog.decide(sql, groupID: groupID, grant: grant)
            guard try await Self.webhook(id, groupID: groupID, sql) != nil else { return nil }
            let seq =
                try await sql.raw("SELECT change_seq FROM groups WHERE id = \(bind: groupID.text)").first()?
                .decode(column: "change_seq", as: Int64.self) ?? 0
            let deliveryID = UUID.random()
            let text = body(deliveryID, seq)
            try await sql.raw(
                """
                INSERT INTO webhook_deliveries (id, webhook_id, group_id, activity_id, kind, body, created_at)
                VALUES (\(bind: deliveryID.text), \(bind: id.text), \(bind: groupID.text), NULL, 'ping',
                        \(bind: text), \(bind: now))
                """
            ).run()
            try await JobStore.enqueue(
                kind: WebhookKinds.jobKind, uniqueKey: "\(WebhookKinds.jobKind):\(deliveryID.text)",
                payload: #"{"deliveryId":"\#(deliveryID.text)"}"#, dueAt: now, now: now, sql)
            return try await Self.delivery(deliveryID, sql)
        }
    }

    /// A webhook's deliveries, newest first, before `(createdAt, id)` of a previous page's last.
    public func deliveries(webhookID: UUID, before: (Int64, UUID)?, limit: Int) async throws
        -> [WebhookDeliveryRecord]
    {
        let beforeAt = before?.0 ?? Int64.max
        let beforeID = before?.1.text ?? "~"
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM webhook_deliveries
                WHERE webhook_id = \(bind: webhookID.text)
                      AND (created_at < \(bind: beforeAt) OR (created_at = \(bind: beforeAt) AND id < \(bind: beforeID)))
                ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
                """
            ).all()
        }.map(WebhookDeliveryRecord.init(row:))
    }

    // MARK: Delivering

    /// What a delivery's job needs: the delivery, its webhook (deleted ones too) and, unless it
    /// is a ping, the activity line it announces.
    public func delivery(_ id: UUID) async throws -> (
        delivery: WebhookDeliveryRecord, webhook: WebhookRecord, activity: ActivityRecord?
    )? {
        try await database.read { sql in
            guard let delivery = try await Self.delivery(id, sql),
                let webhook = try await sql.raw("SELECT * FROM webhooks WHERE id = \(bind: delivery.webhookID.text)")
                    .first().map(WebhookRecord.init(row:))
            else { return nil }
            let activity = try await delivery.activityID.asyncMap { activityID in
                try await sql.raw("SELECT * FROM activity WHERE id = \(bind: activityID.text)").first()
                    .map(ActivityRecord.init(row:))
            }
            return (delivery, webhook, activity ?? nil)
        }
    }

    static func delivery(_ id: UUID, _ sql: any SQLDatabase) async throws -> WebhookDeliveryRecord? {
        try await sql.raw("SELECT * FROM webhook_deliveries WHERE id = \(bind: id.text)").first()
            .map(WebhookDeliveryRecord.init(row:))
    }

    /// Fixes a delivery's body at its first attempt; the body stored first wins, so a second run
    /// sends the same bytes.
    public func fixBody(_ id: UUID, body: String) async throws -> String {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE webhook_deliveries SET body = COALESCE(body, \(bind: body)) WHERE id = \(bind: id.text)
                RETURNING body
                """
            ).first()?.decode(column: "body", as: String.self) ?? body
        }
    }

    /// Marks a waiting delivery skipped (its webhook was disabled or deleted).
    public func skip(_ id: UUID, reason: String, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                UPDATE webhook_deliveries SET state = 'skipped', last_error = \(bind: reason), finished_at = \(bind: now)
                WHERE id = \(bind: id.text) AND state = 'pending'
                """
            ).run()
        }
    }

    /// Turns off the webhooks `userID` made or last pointed, keyed or turned on (in one group, or
    /// in all when nil) when they may no longer manage them — demoted, removed, account deleted —
    /// so a URL of theirs stops receiving the group's activity; another admin may turn one back
    /// on. In the caller's transaction.
    static func disableCreated(by userID: UUID, groupID: UUID?, now: Int64, _ sql: any SQLDatabase) async throws {
        let reason = "Turned off: the admin who added it (or last set its URL or secret) no longer manages this group."
        let turnedOff = try await sql.raw(
            """
            UPDATE webhooks SET disabled_at = \(bind: now), disabled_reason = \(bind: reason), updated_at = \(bind: now)
            WHERE created_by_user_id = \(bind: userID.text) AND disabled_at IS NULL AND deleted_at IS NULL
                  AND (\(bind: groupID == nil) OR group_id = \(bind: groupID?.text ?? ""))
            RETURNING id
            """
        ).all()
        for row in turnedOff {
            try await skipPending(webhookID: try row.decodeUUID("id"), reason: reason, now: now, sql)
        }
    }

    private static func skipPending(webhookID: UUID, reason: String, now: Int64, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE webhook_deliveries SET state = 'skipped', last_error = COALESCE(last_error, \(bind: reason)),
                finished_at = \(bind: now)
            WHERE webhook_id = \(bind: webhookID.text) AND state = 'pending'
            """
        ).run()
    }

    /// Records one attempt: a 2xx delivers it and ends the webhook's failure streak; anything
    /// else is logged, starts the streak if none was running, and after a day of failing
    /// fails the delivery, or disables the whole webhook when it has failed for a day.
    public func recordAttempt(
        _ deliveryID: UUID, status: Int?, error: String?, final: Bool = false, now: Int64
    ) async throws -> WebhookAttemptOutcome {
        let delivered = status.map { (200..<300).contains($0) } ?? false
        let error = error.map { String($0.prefix(500)) }
        return try await database.transaction { sql in
            guard let delivery = try await Self.delivery(deliveryID, sql) else { return .failed }
            let webhook = delivery.webhookID.text
            if delivered {
                try await sql.raw(
                    """
                    UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1,
                        last_status = \(bind: status), last_error = NULL, last_attempt_at = \(bind: now),
                        finished_at = \(bind: now)
                    WHERE id = \(bind: deliveryID.text)
                    """
                ).run()
                try await sql.raw(
                    """
                    UPDATE webhooks SET failing_since = NULL, last_success_at = \(bind: now) WHERE id = \(bind: webhook)
                    """
                ).run()
                return .delivered
            }
            let giveUp = final || now >= delivery.createdAt + Self.day
            try await sql.raw(
                """
                UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = \(bind: status),
                    last_error = \(bind: error), last_attempt_at = \(bind: now),
                    state = \(bind: giveUp ? "failed" : "pending"), finished_at = \(bind: giveUp ? now : nil)
                WHERE id = \(bind: deliveryID.text) AND state = 'pending'
                """
            ).run()
            let streak = try await sql.raw(
                """
                UPDATE webhooks SET failing_since = COALESCE(failing_since, \(bind: now)) WHERE id = \(bind: webhook)
                RETURNING failing_since, disabled_at
                """
            ).first()
            let since = try streak?.decode(column: "failing_since", as: Int64?.self) ?? now
            let alreadyDisabled = try streak?.decode(column: "disabled_at", as: Int64?.self) != nil
            if !alreadyDisabled, now - since >= Self.day {
                let reason =
                    "Disabled automatically: every delivery failed for 24 hours (since \(UTCTimestamp.format(Date(timeIntervalSince1970: Double(since) / 1_000)) ?? "\(since)"))."
                try await sql.raw(
                    """
                    UPDATE webhooks SET disabled_at = \(bind: now), disabled_reason = \(bind: reason) WHERE id = \(bind: webhook)
                    """
                ).run()
                try await sql.raw(
                    """
                    UPDATE webhook_deliveries SET state = 'failed', finished_at = \(bind: now)
                    WHERE id = \(bind: deliveryID.text) AND state = 'pending'
                    """
                ).run()
                try await Self.skipPending(
                    webhookID: delivery.webhookID, reason: "The webhook was disabled after failing for 24 hours.",
                    now: now, sql)
                return .disabled
            }
            return giveUp ? .failed : .retry
        }
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

extension WebhookRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            url: try row.decode(column: "url", as: String.self),
            secret: try row.decode(column: "secret", as: String.self),
            kinds: WebhookKinds.read(try row.decode(column: "kinds", as: String.self)),
            createdByUserID: try row.decode(column: "created_by_user_id", as: String?.self).flatMap(
                UUID.init(uuidString:)),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self),
            disabledAt: try row.decode(column: "disabled_at", as: Int64?.self),
            disabledReason: try row.decode(column: "disabled_reason", as: String?.self),
            failingSince: try row.decode(column: "failing_since", as: Int64?.self),
            lastSuccessAt: try row.decode(column: "last_success_at", as: Int64?.self),
            deletedAt: try row.decode(column: "deleted_at", as: Int64?.self))
    }
}

extension WebhookDeliveryRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), webhookID: try row.decodeUUID("webhook_id"),
            groupID: try row.decodeUUID("group_id"),
            activityID: try row.decode(column: "activity_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            kind: try row.decode(column: "kind", as: String.self),
            body: try row.decode(column: "body", as: String?.self),
            state: WebhookDeliveryState(rawValue: try row.decode(column: "state", as: String.self)) ?? .pending,
            attempts: try row.decode(column: "attempts", as: Int.self),
            lastStatus: try row.decode(column: "last_status", as: Int?.self),
            lastError: try row.decode(column: "last_error", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastAttemptAt: try row.decode(column: "last_attempt_at", as: Int64?.self),
            finishedAt: try row.decode(column: "finished_at", as: Int64?.self))
    }
}
