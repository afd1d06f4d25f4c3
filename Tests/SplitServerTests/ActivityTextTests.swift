@testable import SplitServer
@testable import SplitStore
import Foundation
import Testing

/// Every kind of activity reads as a sentence in the inbox, mail, webhooks and the overview.
@Suite("Activity in words")
struct ActivityTextTests {
    static func record(_ action: String, _ event: ActivityEvent) -> ActivityRecord {
        ActivityRecord(
            id: UUID(), seq: 1, actorUserID: UUID(), actorName: "Aki", action: action, entity: .group, entityID: UUID(),
            event: event, at: 0)
    }

    @Test("each kind a webhook may ask for is a sentence, never its code; a payment request's say who and how much")
    func everyKind() {
        // Found by review: the inbox showed "Aki: payment_request.created", and a webhook could
        // not ask for payment requests by kind.
        let event = ActivityEvent(subject: "Rent", amount: 2_513, currency: "JPY", count: 2, percent: 100, period: "2026-11")
        for kind in WebhookKinds.all {
            let sentence = ActivityText.sentence(Self.record(kind, event))
            #expect(!sentence.isEmpty && !sentence.contains(kind), "\(kind): \(sentence)")
        }
        #expect(WebhookKinds.all.filter { $0.hasPrefix("payment_request.") }.count == 3)
        let asked = ActivityText.sentence(Self.record("payment_request.created", ActivityEvent(amount: 2_513, currency: "JPY")))
        #expect(asked == "Aki asked to be paid ¥2,513" || asked == "Aki asked to be paid 2,513 JPY", "\(asked)")
        let alert = ActivityText.sentence(
            Self.record("budget.alert", ActivityEvent(amount: 13_000, currency: "EUR", limit: 12_000, percent: 100, period: "2026-11")))
        #expect(alert.hasPrefix("The group has passed 100% of its budget in 2026-11: "), "\(alert)")
    }

    @Test("a transfer says who paid whom, a paid mark whose share; lines written before names were kept read as they did")
    func whoAndWhose() {
        func said(_ action: String, _ event: ActivityEvent) -> String { ActivityText.sentence(Self.record(action, event)) }
        let money = ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Cho")
        #expect(said("settlement.recorded", money) == "Aki recorded that Dan paid Cho 12.50 GBP")
        #expect(said("settlement.deleted", money) == "Aki deleted the transfer of 12.50 GBP from Dan to Cho")
        #expect(said("settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP", from: "Aki", to: "Cho"))
            == "Aki recorded paying Cho 12.50 GBP")
        #expect(said("settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP")) == "Aki recorded a transfer of 12.50 GBP")
        #expect(said("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Cho")) == "Aki marked Cho's share of Taxi paid")
        #expect(said("share.marked_unpaid", ActivityEvent(subject: "Taxi", member: "Aki")) == "Aki marked their share of Taxi unpaid")
        #expect(said("share.marked_paid", ActivityEvent(subject: "Taxi")) == "Aki marked a share of Taxi paid")
        // With what the mark moved (a line written before it was kept has none).
        #expect(
            said("share.marked_paid", ActivityEvent(subject: "Taxi", amount: 1_250, currency: "GBP", reason: "cash", member: "Cho"))
                == "Aki marked Cho's share of Taxi paid (12.50 GBP): “cash”")
    }
}
