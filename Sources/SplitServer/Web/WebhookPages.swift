import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// A group's webhooks for its owner and admins (issue 17), reached from Settings: the list, add
/// (the secret shown once, with how to check signatures), disable and enable, send a test,
/// rotate the secret, delete, and each webhook's delivery log.
extension WebApp {
    var webhookUseCases: WebhookUseCases { api.webhookUseCases }

    struct WebhooksBody: Sendable {
        struct Hook: Sendable {
            let id: String
            let url: String
            let kinds: String
            let enabled: Bool
            let status: String
            let lastSuccess: String?
        }
        struct Kind: Sendable {
            let value: String
            let checked: Bool
        }
        /// The secret of a webhook just created or rotated: shown this once.
        struct Secret: Sendable {
            let url: String
            let secret: String
        }
        let groupID: String
        let hooks: [Hook]
        let kinds: [Kind]
        let url: String
        let allKinds: Bool
        let canAdd: Bool
        let secret: Secret?
        let errors: [String: String]
    }

    func webhooksPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await webhooksPage(groupID: try context.parameters.require("groupId"))
    }

    private func webhooksPage(
        groupID: String, secret: WebhooksBody.Secret? = nil, errors: [String: String] = [:], entered: WebForm? = nil
    ) async throws -> Response {
        let scope = try await scope(groupID)
        let zone = scope.group.timeZone
        let list = try await webhookUseCases.webhooks(
            groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        let chosen = Set(entered?.values("kinds") ?? [])
        let body = WebhooksBody(
            groupID: groupID,
            hooks: list.map { hook in
                let status: String
                if let reason = hook.disabledReason ?? hook.disabledAt.map({ _ in "Disabled." }) {
                    status = reason
                } else if let since = hook.failingSince {
                    status = "On, but failing since \(ZonedTime.dateTime(Date(milliseconds: since), in: zone))."
                } else {
                    status = "On."
                }
                return WebhooksBody.Hook(
                    id: hook.id.text, url: hook.url, kinds: hook.kinds?.joined(separator: ", ") ?? "every event",
                    enabled: hook.disabledAt == nil, status: status,
                    lastSuccess: hook.lastSuccessAt.map { ZonedTime.dateTime(Date(milliseconds: $0), in: zone) })
            },
            kinds: WebhookKinds.all.map { .init(value: $0, checked: chosen.contains($0)) },
            url: entered?["url"] ?? "", allKinds: entered == nil || chosen.contains("*"),
            canAdd: list.count < WebhookKinds.perGroup && !scope.group.isArchived, secret: secret, errors: errors)
        return try await render(
            "webhooks", title: "Webhooks · \(scope.group.name)", body: body, nav: scope.nav("settings", live: false),
            errors: errors, errorOrder: ["url", "kinds"])
    }

    /// Every form of the page posts here with an `action`; each calls one use case.
    func updateWebhooks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let group = try APIHandler.id(groupID, "group")
        let form = try WebRequest.get().form
        let hook = { try APIHandler.id(form["webhookId"] ?? "", "webhook") }
        do {
            switch form["action"] {
            case "add":
                let kinds = form.values("kinds")
                let created = try await webhookUseCases.create(
                    EnteredWebhook(url: form["url"] ?? "", kinds: kinds), groupID: group, caller: try caller())
                return try await webhooksPage(
                    groupID: groupID, secret: .init(url: created.url, secret: created.secret))
            case "rotate":
                let rotated = try await webhookUseCases.rotateSecret(try hook(), groupID: group, caller: try caller())
                return try await webhooksPage(
                    groupID: groupID, secret: .init(url: rotated.url, secret: rotated.secret))
            case "enable", "disable":
                _ = try await webhookUseCases.update(
                    try hook(), WebhookPatch(enabled: form["action"] == "enable"), groupID: group, caller: try caller())
                return Self.redirect("/groups/\(groupID)/webhooks", done: "webhook-saved")
            case "ping":
                let id = try hook()
                _ = try await webhookUseCases.ping(id, groupID: group, caller: try caller())
                return Self.redirect("/groups/\(groupID)/webhooks/\(id.text)", done: "webhook-ping")
            case "delete":
                try await webhookUseCases.delete(try hook(), groupID: group, caller: try caller())
                return Self.redirect("/groups/\(groupID)/webhooks", done: "webhook-deleted")
            default:
                throw APIError.badRequest("Unknown webhook action.")
            }
        } catch {
            let errors = try Self.formErrors(error, shown: ["url", "kinds"])
            return try await webhooksPage(
                groupID: groupID, errors: errors, entered: form["action"] == "add" ? form : nil)
        }
    }

    struct WebhookLogBody: Sendable {
        struct Line: Sendable {
            let type: String
            let state: String
            let failed: Bool
            let attempts: Int
            /// "attempt" or "attempts" after the count.
            let attemptWord: String
            let result: String
            let at: String
        }
        let groupID: String
        let webhookID: String
        let url: String
        let enabled: Bool
        let lines: [Line]
        let nextURL: String?
    }

    func webhookLogPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let group = try APIHandler.id(groupID, "group")
        let id = try APIHandler.id(try context.parameters.require("webhookId"), "webhook")
        let webhook = try await webhookUseCases.webhook(id, groupID: group, caller: try caller())
        let page = try await webhookUseCases.deliveries(
            id, groupID: group, cursor: request.uri.queryParameters["cursor"].map(String.init), limit: 50,
            caller: try caller())
        let zone = scope.group.timeZone
        let lines = page.deliveries.map { delivery in
            var result = delivery.lastStatus.map { "HTTP \($0)" } ?? ""
            if let error = delivery.lastError, delivery.state != .delivered {
                result += (result.isEmpty ? "" : " · ") + error
            }
            let when = delivery.lastAttemptAt ?? delivery.createdAt
            return WebhookLogBody.Line(
                type: delivery.kind, state: delivery.state.rawValue,
                failed: delivery.state == .failed || delivery.state == .skipped, attempts: delivery.attempts,
                attemptWord: delivery.attempts == 1 ? "attempt" : "attempts",
                result: result, at: ZonedTime.dateTime(Date(milliseconds: when), in: zone))
        }
        let body = WebhookLogBody(
            groupID: groupID, webhookID: id.text, url: webhook.url, enabled: webhook.disabledAt == nil, lines: lines,
            nextURL: page.nextCursor.map { "/groups/\(groupID)/webhooks/\(id.text)?cursor=" + Self.queryEscape($0) })
        return try await render(
            "webhook", title: "Delivery log · \(scope.group.name)", body: body, nav: scope.nav("settings", live: false))
    }
}
