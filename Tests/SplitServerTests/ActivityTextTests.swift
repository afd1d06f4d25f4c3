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
        // Exactly at the threshold: reached, not passed (found by a new user).
        let atIt = ActivityText.sentence(
            Self.record("budget.alert", ActivityEvent(amount: 180_000, currency: "EUR", limit: 180_000, percent: 100, period: "2026-12")))
        #expect(atIt.hasPrefix("The group has reached 100% of its budget in December 2026: "), "\(atIt)")
        // Counts said in words, one or many (not "exchange rate(s)").
        func said(_ action: String, _ event: ActivityEvent) -> String { ActivityText.sentence(Self.record(action, event)) }
        #expect(said("rates.updated", ActivityEvent(count: 1)) == "Aki set 1 exchange rate")
        // An edit says the amount before, when it changed (found by a new user).
        #expect(
            said("expense.updated", ActivityEvent(subject: "Chalet", amount: 247_000, currency: "CHF", from: "2,400.00 CHF"))
                == "Aki changed Chalet (2,470.00 CHF, was 2,400.00 CHF)")
        #expect(said("expense.updated", ActivityEvent(subject: "Chalet", amount: 247_000, currency: "CHF")) == "Aki changed Chalet (2,470.00 CHF)")
        #expect(said("rates.updated", ActivityEvent(count: 3)) == "Aki set 3 exchange rates")
        // Which ones, when the line says (up to three).
        #expect(
            said("rates.updated", ActivityEvent(subject: "1 USD = 150.25 JPY from 2026-11-20", count: 1))
                == "Aki set the exchange rate 1 USD = 150.25 JPY from 2026-11-20")
        #expect(
            said("rates.updated", ActivityEvent(subject: "1 USD = 150 JPY from 2026-11-20; 1 EUR = 160 JPY from 2026-11-20", count: 2))
                == "Aki set 2 exchange rates: 1 USD = 150 JPY from 2026-11-20; 1 EUR = 160 JPY from 2026-11-20")
        #expect(
            said("import.completed", ActivityEvent(subject: "splitwise", count: 12))
                == "Aki imported 12 expenses and transfers from Splitwise")
        #expect(
            said("import.completed", ActivityEvent(subject: "json", count: 2))
                == "Aki imported 2 expenses and transfers from a Budget Splitter export")
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
        // A rename is said with both names (found by a new user: Cho's lines, then Chiyo's).
        #expect(said("member.renamed", ActivityEvent(subject: "Chiyo", from: "Cho")) == "Aki renamed Cho to Chiyo")
        let akiSelf = Self.record("member.renamed", ActivityEvent(subject: "Akira", from: "Aki"))
        let ownRename = ActivityRecord(
            id: akiSelf.id, seq: 1, actorUserID: akiSelf.actorUserID, actorName: "Aki", action: "member.renamed", entity: .member,
            entityID: UUID(), event: ActivityEvent(subject: "Akira", from: "Aki", userID: akiSelf.actorUserID), at: 0)
        #expect(ActivityText.sentence(ownRename) == "Aki changed their name to Akira")
        // A line copied from another group keeps no account: told by the name.
        #expect(said("member.renamed", ActivityEvent(subject: "Akira", from: "Aki")) == "Aki changed their name to Akira")
        #expect(
            said("member.renamed", ActivityEvent(subject: "Benjamin", reason: "back", from: "Ben", userID: UUID()))
                == "Benjamin came back under that name (Ben is someone else's now)")
        // Another member once called Aki is renamed by Aki: not "changed their name".
        #expect(said("member.renamed", ActivityEvent(subject: "Aki B.", from: "Aki", userID: UUID())) == "Aki renamed Aki to Aki B.")
        #expect(said("group.renamed", ActivityEvent(subject: "Asia 2026", from: "Asia")) == "Aki renamed the group from Asia to Asia 2026")
        // A skip names its days; a line from before they were kept reads as it did.
        #expect(said("recurring.skipped", ActivityEvent(subject: "Rent", period: "2026-12-24")) == "Aki skipped the recurring Rent on 2026-12-24")
        #expect(
            said("recurring.skipped", ActivityEvent(subject: "Rent", period: "2026-12-24,2026-12-31,2027-01-07"))
                == "Aki skipped the recurring Rent on 2026-12-24, 2026-12-31 and 2027-01-07")
        #expect(said("recurring.skipped", ActivityEvent(subject: "Rent")) == "Aki skipped a date of the recurring Rent")
        // A dismissed date says which (400 lines read alike).
        let dismissed = said("pending.dismissed", ActivityEvent(subject: "Bread", amount: 800, currency: "JPY", period: "2026-10-01"))
        #expect(dismissed.hasPrefix("Aki dismissed Bread (") && dismissed.hasSuffix(") of 2026-10-01"), "\(dismissed)")
        // With what the mark moved (a line written before it was kept has none).
        #expect(
            said("share.marked_paid", ActivityEvent(subject: "Taxi", amount: 1_250, currency: "GBP", reason: "cash", member: "Cho"))
                == "Aki marked Cho's share of Taxi paid (12.50 GBP): “cash”")
    }

    @Test("read by a member it is about, a line says \"you\", told by ids: not a namesake, not after a rename")
    func toTheReader() {
        let (aki, cho, dan, dee) = (UUID(), UUID(), UUID(), UUID())
        let (akiUser, choUser, deeUser) = (UUID(), UUID(), UUID())
        func line(_ action: String, _ event: ActivityEvent, about member: UUID? = nil) -> ActivityRecord {
            ActivityRecord(
                id: UUID(), seq: 1, actorUserID: akiUser, actorName: "Aki", action: action,
                entity: member == nil ? .settlement : .member, entityID: member ?? UUID(), event: event, at: 0)
        }
        func read(_ record: ActivityRecord, by user: UUID, as member: UUID?) -> String {
            ActivityText.sentence(record, reader: .init(userID: user, memberID: member))
        }
        let paid = line(
            "settlement.recorded",
            ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Cho", fromID: dan, toID: cho))
        #expect(read(paid, by: choUser, as: cho) == "Aki recorded that Dan paid you 12.50 GBP")
        #expect(read(paid, by: UUID(), as: dan) == "Aki recorded that you paid Cho 12.50 GBP")
        #expect(read(paid, by: UUID(), as: UUID()) == "Aki recorded that Dan paid Cho 12.50 GBP")
        // A payment request paid: its payee reads it as theirs; lines from before name nobody.
        let request = line("payment_request.paid", ActivityEvent(amount: 1_250, currency: "GBP", to: "Cho", toID: cho))
        #expect(read(request, by: choUser, as: cho) == "Aki paid your payment request of 12.50 GBP")
        #expect(read(request, by: UUID(), as: dan) == "Aki paid Cho's payment request of 12.50 GBP")
        #expect(
            read(line("payment_request.paid", ActivityEvent(amount: 1_250, currency: "GBP")), by: UUID(), as: dan)
                == "Aki paid a payment request of 12.50 GBP")
        // A namesake (someone renamed "Cho", or a new Cho after the first left) is not "you".
        #expect(read(paid, by: deeUser, as: dee) == "Aki recorded that Dan paid Cho 12.50 GBP")
        // A line written before ids were kept names everyone by name.
        let old = line("settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Cho"))
        #expect(read(old, by: choUser, as: cho) == "Aki recorded that Dan paid Cho 12.50 GBP")
        #expect(
            read(line("settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP", from: "Aki", to: "Cho", fromID: aki, toID: cho)),
                 by: choUser, as: cho) == "Aki recorded paying you 12.50 GBP")
        // The payee recording it (it read "Aki recorded that you paid Aki").
        let received = line(
            "settlement.recorded", ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Aki", fromID: dan, toID: aki))
        #expect(read(received, by: UUID(), as: dan) == "Aki recorded receiving 12.50 GBP from you")
        #expect(read(received, by: UUID(), as: cho) == "Aki recorded receiving 12.50 GBP from Dan")
        #expect(
            read(line("settlement.deleted", ActivityEvent(amount: 1_250, currency: "GBP", from: "Dan", to: "Cho", fromID: dan, toID: cho)),
                 by: choUser, as: cho) == "Aki deleted the transfer of 12.50 GBP from Dan to you")
        let choShare = line("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Cho", memberID: cho))
        #expect(read(choShare, by: choUser, as: cho) == "Aki marked your share of Taxi paid")
        #expect(read(choShare, by: deeUser, as: dee) == "Aki marked Cho's share of Taxi paid")
        let akiShare = line("share.marked_paid", ActivityEvent(subject: "Taxi", member: "Aki", memberID: aki))
        #expect(read(akiShare, by: choUser, as: cho) == "Aki marked their share of Taxi paid")
        // The actor reading their own line: "You".
        #expect(read(akiShare, by: akiUser, as: aki) == "You marked your share of Taxi paid")
        // Lines about a member: by the member the line is about.
        #expect(read(line("member.added", ActivityEvent(subject: "Cho"), about: cho), by: choUser, as: cho) == "Aki added you")
        #expect(read(line("member.added", ActivityEvent(subject: "Cho"), about: cho), by: deeUser, as: dee) == "Aki added Cho")
        #expect(
            read(line("member.role_changed", ActivityEvent(subject: "Cho", role: "admin"), about: cho), by: choUser, as: cho)
                == "Aki made you an admin")
        #expect(
            read(line("member.removed", ActivityEvent(subject: "Cho"), about: cho), by: choUser, as: cho)
                == "Aki removed you from the group")
        #expect(read(line("member.removed", ActivityEvent(subject: "Aki"), about: aki), by: choUser, as: cho) == "Aki left the group")
        // A claim approved: the claimant (now the member Cho) is "you"; a claim turned down: the
        // account that asked, who is no member.
        let approved = line(
            "member.claim_approved", ActivityEvent(subject: "Dee", asMember: "Cho", userID: deeUser), about: cho)
        #expect(read(approved, by: deeUser, as: cho) == "Aki let you join as Cho")
        #expect(read(approved, by: UUID(), as: dan) == "Aki let Dee join as Cho")
        let rejected = line(
            "member.claim_rejected", ActivityEvent(subject: "Dee", asMember: "Cho", userID: deeUser), about: cho)
        #expect(read(rejected, by: deeUser, as: nil) == "Aki turned down your request to join as Cho")
        #expect(read(rejected, by: UUID(), as: dan) == "Aki turned down Dee's request to join as Cho")
        // A payment request says whom it asks.
        let asked = line(
            "payment_request.created",
            ActivityEvent(amount: 1_250, currency: "GBP", to: "Cho", toID: cho, requestID: UUID()))
        #expect(read(asked, by: choUser, as: cho) == "Aki asked you to pay 12.50 GBP")
        #expect(read(asked, by: deeUser, as: dee) == "Aki asked Cho to pay 12.50 GBP")
    }
}
