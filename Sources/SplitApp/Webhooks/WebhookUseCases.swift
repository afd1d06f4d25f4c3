import Foundation
import SplitCore
import SplitStore

/// A webhook as an admin enters it.
public struct EnteredWebhook: Sendable {
    public var url: String
    /// Activity kinds, or `["*"]` for all.
    public var kinds: [String]

    public init(url: String, kinds: [String]) {
        self.url = url
        self.kinds = kinds
    }
}

/// A change to a webhook; nil leaves a field as it is.
public struct WebhookPatch: Sendable {
    public var url: String?
    public var kinds: [String]?
    public var enabled: Bool?

    public init(url: String? = nil, kinds: [String]? = nil, enabled: Bool? = nil) {
        self.url = url
        self.kinds = kinds
        self.enabled = enabled
    }
}

/// A page of a webhook's delivery log.
public struct WebhookDeliveryPage: Sendable {
    public let deliveries: [WebhookDeliveryRecord]
    public let nextCursor: String?
}

/// A group's webhooks (issue 17), for its owner and admins: register a URL and the activity
/// kinds it wants, change, disable or delete it, rotate its secret, send a test delivery, read
/// the delivery log. Others in the group get a 403, people outside it a 404.
public struct WebhookUseCases: Sendable, UsesStores {
    let database: Database
    let allowPrivate: Bool
    let now: @Sendable () -> Int64

    /// - Parameter allowPrivate: `WEBHOOK_ALLOW_PRIVATE`: URLs may name private and loopback
    ///   addresses, and plain http.
    public init(database: Database, allowPrivate: Bool, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.allowPrivate = allowPrivate
        self.now = now
    }

    public func webhooks(groupID: UUID, caller: Caller) async throws -> [WebhookRecord] {
        let group = try await readable(groupID, caller)
        return try await webhooks.webhooks(groupID: group)
    }

    public func webhook(_ id: UUID, groupID: UUID, caller: Caller) async throws -> WebhookRecord {
        let group = try await readable(groupID, caller)
        guard let webhook = try await webhooks.webhook(id, groupID: group) else { throw AppError.notFound("webhook") }
        return webhook
    }

    /// Registers a webhook; the result holds its secret, which only this and `rotateSecret` show.
    public func create(_ entered: EnteredWebhook, groupID: UUID, caller: Caller) async throws -> WebhookRecord {
        let (group, me) = try await access.check(groupID, caller, for: .manageWebhooks)
        var checks = FieldChecks()
        let url = try checks.run { try WebhookURL.check(entered.url, allowPrivate: allowPrivate) }
        let kinds = try checks.run { try Self.kinds(entered.kinds) }
        try checks.finish()
        guard let url, let kinds else { throw AppError.invalid(field: "url", message: "Enter the URL.") }
        let now = now()
        let webhook = WebhookRecord(
            id: UUID.random(), groupID: group.id, url: url.string ?? entered.url, secret: WebhookSignature.newSecret(),
            kinds: kinds, createdByUserID: caller.user.id, createdAt: now, updatedAt: now)
        switch try await write({
            try await webhooks.create(webhook, grant: WriteGrant(memberID: me.id, actions: [.manageWebhooks]))
        }) {
        case .created(let stored): return stored
        case .full:
            throw AppError.conflict(
                code: "too_many_webhooks", field: nil,
                message:
                    "This group has \(WebhookKinds.perGroup) webhooks, the most one group may have; delete one first.")
        }
    }

    public func update(_ id: UUID, _ patch: WebhookPatch, groupID: UUID, caller: Caller) async throws -> WebhookRecord {
        let (group, me) = try await access.check(groupID, caller, for: .manageWebhooks)
        var checks = FieldChecks()
        let url = try patch.url.map { text in try checks.run { try WebhookURL.check(text, allowPrivate: allowPrivate) }
        }
        let kinds = try patch.kinds.map { list in try checks.run { try Self.kinds(list) } }
        try checks.finish()
        let change = WebhookStore.Change(
            url: url.flatMap { $0 }.map { $0.string ?? patch.url ?? "" }, kinds: kinds.flatMap { $0 },
            enabled: patch.enabled, disabledBy: me.name)
        guard
            let webhook = try await write({
                try await webhooks.update(
                    id, groupID: group.id, change, grant: WriteGrant(memberID: me.id, actions: [.manageWebhooks]),
                    by: caller.user.id, now: now())
            })
        else { throw AppError.notFound("webhook") }
        return webhook
    }

    public func delete(_ id: UUID, groupID: UUID, caller: Caller) async throws {
        let (group, me) = try await access.check(groupID, caller, for: .manageWebhooks)
        guard
            try await write({
                try await webhooks.delete(
                    id, groupID: group.id, grant: WriteGrant(memberID: me.id, actions: [.manageWebhooks]), now: now())
            })
        else { throw AppError.notFound("webhook") }
    }

    /// A new secret, shown this once; deliveries from now on are signed with it.
    public func rotateSecret(_ id: UUID, groupID: UUID, caller: Caller) async throws -> WebhookRecord {
        let (group, me) = try await access.check(groupID, caller, for: .manageWebhooks)
        guard
            let webhook = try await write({
                try await webhooks.rotateSecret(
                    id, groupID: group.id, secret: WebhookSignature.newSecret(),
                    grant: WriteGrant(memberID: me.id, actions: [.manageWebhooks]), by: caller.user.id, now: now())
            })
        else { throw AppError.notFound("webhook") }
        return webhook
    }

    /// Queues a `ping` delivery to the webhook, to try the receiver. Like every delivery it is
    /// skipped, not sent, while the webhook is disabled (the log says so).
    public func ping(_ id: UUID, groupID: UUID, caller: Caller) async throws -> WebhookDeliveryRecord {
        let (group, me) = try await access.check(groupID, caller, for: .manageWebhooks)
        let now = now()
        let actor = WebhookPayload.Actor(userId: caller.user.id.text, name: me.name)
        let groupUUID = group.id
        guard
            let delivery = try await write({
                try await webhooks.ping(
                    id, groupID: groupUUID,
                    body: { deliveryID, seq in
                        WebhookPayload(
                            pingID: deliveryID, groupID: groupUUID, webhookID: id, seq: seq, at: now, actor: actor
                        )
                        .json
                    }, grant: WriteGrant(memberID: me.id, actions: [.manageWebhooks]), now: now)
            })
        else { throw AppError.notFound("webhook") }
        return delivery
    }

    /// The webhook's deliveries, newest first, `limit` (1 to 200, default 50) a page.
    public func deliveries(_ id: UUID, groupID: UUID, cursor: String?, limit: Int?, caller: Caller) async throws
        -> WebhookDeliveryPage
    {
        let webhook = try await webhook(id, groupID: groupID, caller: caller)
        let limit = min(max(limit ?? 50, 1), 200)
        let before = try PageCursor.decode(cursor)
        let lines = try await webhooks.deliveries(webhookID: webhook.id, before: before, limit: limit)
        return WebhookDeliveryPage(
            deliveries: lines,
            nextCursor: PageCursor.next(after: lines, limit: limit) { ($0.createdAt, $0.id) })
    }

    // MARK: -

    /// Reading webhooks is for owners and admins too, also in an archived group.
    private func readable(_ groupID: UUID, _ caller: Caller) async throws -> UUID {
        let (group, me) = try await access.check(groupID, caller, for: .read)
        guard Permissions.decide(.manageWebhooks, for: me.membership) == .allowed else { throw AppError.forbidden }
        return group.id
    }

    /// The store's refusal under the group's lock, in the use case's words.
    private func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as WriteRefusal {
            throw AppError(refusal)
        }
    }

    /// Known kinds in `WebhookKinds.all`'s order, or nil for every kind (`"*"`).
    static func kinds(_ list: [String]) throws -> [String]? {
        guard !list.isEmpty else {
            throw AppError.invalid(field: "kinds", message: "Choose at least one event kind, or \"*\" for all of them.")
        }
        if list.contains("*") { return nil }
        for (index, kind) in list.enumerated() where !WebhookKinds.all.contains(kind) {
            throw AppError.invalid(
                field: "kinds[\(index)]",
                message:
                    "\"\(kind.prefix(60))\" is not an event kind; the kinds are \(WebhookKinds.all.joined(separator: ", ")), or \"*\" for all."
            )
        }
        return WebhookKinds.all.filter(list.contains)
    }
}
