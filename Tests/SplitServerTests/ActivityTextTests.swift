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
        #expect(alert.hasPrefix("The group has passed 100% of its budget in November 2026: "), "\(alert)")
        // Counts said in words, one or many (not "exchange rate(s)").
        func said(_ action: String, _ event: ActivityEvent) -> String { ActivityText.sentence(Self.record(action, event)) }
        #expect(said("rates.updated", ActivityEvent(count: 1)) == "Aki set 1 exchange rate")
        #expect(said("rates.updated", ActivityEvent(count: 3)) == "Aki set 3 exchange rates")
        #expect(
            said("import.completed", ActivityEvent(subject: "splitwise", count: 12))
                == "Aki imported 12 expenses and transfers from Splitwise")
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

    @Test("read by someone it names, a line says \"you\" (a notification); read by anyone else, their name")
    func toTheReader() {
        func read(_ action: String, _ event: ActivityEvent, by reader: String) -> String {
            ActivityText.sentence(Self.record(action, event), reader: reader)
        }
        let money = ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Cho")
        #expect(read("settlement.recorded", money, by: "Cho") == "Aki recorded that Dan paid you 12.50 GBP")
        #expect(read("settlement.recorded", money, by: "Dan") == "Aki recorded that you paid Cho 12.50 GBP")
        #expect(read("settlement.recorded", money, by: "Eve") == "Aki recorded that Dan paid Cho 12.50 GBP")
        #expect(
            read("settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP", from: "Aki", to: "Cho"), by: "Cho")
                == "Aki recorded paying you 12.50 GBP")
        #expect(read("settlement.deleted", money, by: "Cho") == "Aki deleted the transfer of 12.50 GBP from Dan to you")
        #expect(read("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Cho"), by: "Cho") == "Aki marked your share of Taxi paid")
        #expect(read("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Aki"), by: "Cho") == "Aki marked their share of Taxi paid")
        #expect(read("member.added", ActivityEvent(subject: "Cho"), by: "Cho") == "Aki added you")
        #expect(read("member.role_changed", ActivityEvent(subject: "Cho", role: "admin"), by: "Cho") == "Aki made you an admin")
        #expect(read("member.removed", ActivityEvent(subject: "Cho"), by: "Cho") == "Aki removed you from the group")
        #expect(read("member.removed", ActivityEvent(subject: "Aki"), by: "Cho") == "Aki left the group")
        #expect(
            read("member.claim_approved", ActivityEvent(subject: "Dee", asMember: "Cho"), by: "Dee")
                == "Aki let you join as Cho")
        // The actor reading their own line (an inbox that has it): "You".
        #expect(read("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Aki"), by: "Aki") == "You marked your share of Taxi paid")
    }
}
