import Foundation
import SplitApp
import SplitStore

extension BackgroundJobs {
    /// `webhook.deliver` (issue 17): one delivery's attempt, sent by the NIO client. Retried with
    /// `JobRunner.backoff` for a day from the delivery's creation; a delivery that is failed for
    /// good (a day passed, or its webhook was disabled for failing) is kept as a failed job.
    mutating func addWebhooks(database: Database, allowPrivate: Bool, now: @escaping @Sendable () -> Int64) throws {
        let delivery = WebhookDelivery(
            database: database, transport: try WebhookHTTPClient(), allowPrivate: allowPrivate,
            summary: { ActivityText.sentence($0) }, now: now)
        add(WebhookKinds.jobKind, Self.webhookKind(delivery), lane: .webhooks)
    }

    static func webhookKind(_ delivery: WebhookDelivery) -> JobRunner.Kind {
        JobRunner.Kind(
            retryDelay: { job in
                delivery.retryDelay(attempts: job.attempts, createdAt: job.createdAt, backoff: JobRunner.backoff)
            },
            handle: { job in
                do {
                    try await delivery.deliver(payload: job.payload)
                } catch let failure as WebhookAttemptFailed where failure.isFinal {
                    throw JobRunner.PermanentFailure(failure.description)
                }
            })
    }
}
