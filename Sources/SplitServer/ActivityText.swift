import Foundation
import SplitApp
import SplitCore
import SplitStore

/// An activity line in words, at the edge (STYLE §13): the store keeps kinds, names and amounts
/// (`ActivityEvent`); this is the one place they become English, and where other languages will
/// plug in. The API's `summary` and the web's overview both read it.
enum ActivityText {
    /// Who reads a line: an account, and its member in the group (none for a claimant turned
    /// down, who is no member).
    struct Reader: Sendable, Equatable {
        let userID: UUID
        let memberID: UUID?
    }

    /// "Cho's share", "their share" (the actor's own), "your share" (the reader's, `yours`), or
    /// "a share" for a line written before names were kept.
    static func whose(_ member: String?, _ actor: String, yours: Bool = false) -> String {
        guard let member else { return "a share" }
        if yours { return "your share" }
        return member == actor ? "their share" : "\(member)'s share"
    }

    /// A notification's line, said to whoever's inbox it is in.
    static func sentence(_ line: NotificationRecord) -> String {
        sentence(line.activity, reader: Reader(userID: line.readerUserID, memberID: line.readerMemberID))
    }

    /// "3 exchange rates", "1 exchange rate".
    static func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }

    /// "December 2026" for a budget's month key ("2026-12"); anything else as it is.
    static func period(_ key: String) -> String {
        guard let month = CivilDate(key + "-01") else { return key }
        return WebFormat.monthName(month)
    }

    /// The line in words. `reader`: whoever reads it (a notification), who is then "you" where
    /// the line is about them (found by a new user: Ben read "Aki recorded that Ben paid Aki").
    /// Told apart by ids, never by names: a name may change, or be taken by someone new after
    /// its member left (found by a new user: a member renamed "Ben" read Ben's lines as theirs).
    static func sentence(_ record: ActivityRecord, reader: Reader? = nil) -> String {
        let event = record.event
        if let legacy = event.legacyText { return legacy }
        func isReader(_ member: UUID?) -> Bool { member != nil && member == reader?.memberID }
        /// A member the line names: "you" when it is the reader.
        func named(_ name: String, _ id: UUID?) -> String { isReader(id) ? "you" : name }
        /// The member a `member.*` line is about.
        let aboutMember = record.entity == .member ? record.entityID : nil
        let actorName = record.actorName.isEmpty ? "Someone" : record.actorName
        let actor = reader != nil && record.actorUserID == reader?.userID ? "You" : actorName
        let subject = event.subject ?? ""
        let money = event.amount.map { amount in
            guard let code = event.currency, let currency = try? Currency(code: code) else {
                return "\(amount) \(event.currency ?? "")"
            }
            return Money(minorUnits: amount, currency: currency).description
        }
        switch record.action {
        case "group.created": return "\(actor) created \(subject)"
        case "group.archived": return "\(actor) archived \(subject): nothing in it can change until it is brought back"
        case "group.unarchived": return "\(actor) brought \(subject) back: it can be changed again"
        case "member.added": return "\(actor) added \(named(subject, aboutMember))"
        case "member.joined": return event.asMember.map { "\(actor) joined as \($0)" } ?? "\(actor) joined"
        case "member.claim_requested":
            // Said as what happened, so it reads true once decided too (the line links to Members).
            return "\(actor) asked to join as \(event.asMember ?? "a member"), who has money in the group"
        case "member.claim_approved":
            let who = isReader(aboutMember) ? "you" : event.subject ?? "someone"
            return "\(actor) let \(who) join as \(event.asMember ?? "a member")"
        case "member.claim_rejected":
            let yours = event.userID != nil && event.userID == reader?.userID
            let whose = yours ? "your" : event.subject.map { "\($0)'s" } ?? "a"
            return "\(actor) turned down \(whose) request to join as \(event.asMember ?? "a member")"
        case "expense.created": return "\(actor) added \(subject) (\(money ?? ""))"
        case "expense.updated":
            return "\(actor) changed \(subject) (\(money ?? "")\(event.from.map { ", was \($0)" } ?? ""))"
        case "expense.deleted": return "\(actor) deleted \(subject)"
        case "expense.restored": return "\(actor) restored \(subject)"
        // With what the mark moved, or took back: "(45.00 EUR)".
        case "share.marked_paid":
            return "\(actor) marked \(whose(event.member, actorName, yours: isReader(event.memberID))) of \(subject) paid" + (money.map { " (\($0))" } ?? "")
                + because(event.reason)
        case "share.marked_unpaid":
            return "\(actor) marked \(whose(event.member, actorName, yours: isReader(event.memberID))) of \(subject) unpaid" + (money.map { " (\($0))" } ?? "")
                + because(event.reason)
        case "member.removed":
            // Removing oneself is leaving.
            return subject == actorName
                ? "\(actor) left the group" : "\(actor) removed \(named(subject, aboutMember)) from the group"
        case "member.restored": return "\(actor) brought \(named(subject, aboutMember)) back into the group"
        case "member.renamed":
            guard let from = event.from else { return "\(actor) renamed \(named(subject, aboutMember))" }
            // Back under another name: theirs is someone else's now.
            if event.reason == "back" { return "\(subject) came back under that name (\(from) is someone else's now)" }
            // Renaming oneself: told by the account, not the name (another member may have had it);
            // a line without it (copied from another group) by the name.
            if event.userID.map({ $0 == record.actorUserID }) ?? (record.actorName == from) {
                return "\(actor == "You" ? "You" : from) changed \(actor == "You" ? "your" : "their") name to \(subject)"
            }
            return isReader(aboutMember) ? "\(actor) renamed you to \(subject)" : "\(actor) renamed \(from) to \(subject)"
        case "group.renamed":
            return event.from.map { "\(actor) renamed the group from \($0) to \(subject)" } ?? "\(actor) renamed the group \(subject)"
        case "member.role_changed": return "\(actor) made \(named(subject, aboutMember)) \(event.role.map(roleName) ?? "a member")"
        case "member.rights_changed": return "\(actor) changed what \(named(subject, aboutMember)) may do"
        case "settlement.recorded":
            if let from = event.from, let to = event.to {
                if from == actorName { return "\(actor) recorded paying \(named(to, event.toID)) \(money ?? "")" }
                // The payee recording it (found by a new user: "Anna recorded that you paid Anna").
                if to == actorName {
                    return "\(actor) recorded receiving \(money ?? "") from \(named(from, event.fromID))"
                }
                return "\(actor) recorded that \(named(from, event.fromID)) paid \(named(to, event.toID)) \(money ?? "")"
            }
            return "\(actor) recorded a transfer of \(money ?? "")"
        case "settlement.deleted":
            if let from = event.from, let to = event.to {
                return "\(actor) deleted the transfer of \(money ?? "") from \(named(from, event.fromID)) to \(named(to, event.toID))"
            }
            return "\(actor) deleted a transfer of \(money ?? "")"
        case "rates.updated":
            let count = event.count ?? 0
            guard let which = event.subject, !which.isEmpty else {
                return "\(actor) set \(counted(count, "exchange rate", "exchange rates"))"
            }
            return count == 1
                ? "\(actor) set the exchange rate \(which)" : "\(actor) set \(counted(count, "exchange rate", "exchange rates")): \(which)"
        case "rates.deleted": return "\(actor) deleted the exchange rate \(subject)"
        case "category.created": return "\(actor) added category \(subject)"
        case "category.updated":
            return event.from.map { "\(actor) renamed category \($0) to \(subject)" } ?? "\(actor) changed category \(subject)"
        case "category.deleted": return "\(actor) deleted category \(subject)"
        case "category.reordered": return "\(actor) reordered the categories"
        case "import.completed":
            return "\(actor) imported \(counted(event.count ?? 0, "expense or transfer", "expenses and transfers")) from "
                + importSource(event.subject)
        case "recurring.created": return "\(actor) made \(subject) recurring (\(money ?? ""))"
        case "recurring.updated": return "\(actor) changed the recurring \(subject)"
        case "recurring.paused":
            return record.actorName.isEmpty
                ? "The recurring \(subject) was paused" + because(event.reason) : "\(actor) paused the recurring \(subject)"
        case "recurring.resumed": return "\(actor) resumed the recurring \(subject)"
        case "recurring.skipped":
            let days = (event.period ?? "").split(separator: ",").map(String.init)
            guard !days.isEmpty else { return "\(actor) skipped a date of the recurring \(subject)" }
            return "\(actor) skipped the recurring \(subject) on \(WebFormat.listed(days))"
        case "recurring.ended": return "\(actor) ended the recurring \(subject)"
        case "recurring.added":
            let times = (event.count ?? 1) > 1 ? ", \(event.count ?? 1) times" : ""
            return "The recurring \(subject) was added (\(money ?? "")\(times))"
        case "recurring.pending":
            let times = (event.count ?? 1) > 1 ? " (\(event.count ?? 1) dates)" : ""
            return "The recurring \(subject) (\(money ?? "")) waits to be confirmed\(times)"
        case "pending.dismissed":
            if let count = event.count, count > 1 {
                return "\(actor) dismissed \(count) waiting dates of \(subject)" + (money.map { " (\($0) each)" } ?? "")
            }
            return "\(actor) dismissed \(subject) (\(money ?? ""))" + (event.period.map { " of \($0)" } ?? "")
        case "payment_request.created":
            guard let to = event.to else { return "\(actor) asked to be paid \(money ?? "")" }
            return "\(actor) asked \(named(to, event.toID)) to pay \(money ?? "")"
        case "payment_request.cancelled": return "\(actor) cancelled a payment request of \(money ?? "")"
        case "payment_request.paid":
            guard let payee = event.to else { return "\(actor) paid a payment request of \(money ?? "")" }
            return isReader(event.toID)
                ? "\(actor) paid your payment request of \(money ?? "")"
                : "\(actor) paid \(payee)'s payment request of \(money ?? "")"
        case "budget.updated": return "\(actor) set the budget"
        case "budget.removed": return "\(actor) removed the budget"
        case "budget.alert":
            let limit = event.limit.map { amount in
                (try? Currency(code: event.currency ?? "")).map { Money(minorUnits: amount, currency: $0).description }
                    ?? "\(amount)"
            }
            // The threshold passed, then what was spent of how much (found by review: "is at
            // 100%" read wrong beside 130.00 of 120.00, and "the whole budget is at 80% of its budget").
            let what = event.subject ?? "The group"
            let when = event.period.map { " in \(period($0))" } ?? ""
            // Exactly at it, "reached" (found by a new user: "passed 100%" of 1,800.00 of 1,800.00).
            let exactly = event.amount.flatMap { spent in
                event.limit.map { Int128(spent) * 100 == Int128($0) * Int128(event.percent ?? 0) }
            } ?? false
            return "\(what) has \(exactly ? "reached" : "passed") \(event.percent ?? 0)% of its budget\(when): \(money ?? "") of \(limit ?? "")"
        default: return "\(actor): \(record.action)"
        }
    }

    private static func because(_ reason: String?) -> String {
        guard let reason, !reason.isEmpty else { return "" }
        return ": “\(reason)”"
    }

    /// The app a file came from, by its format's name.
    private static func importSource(_ format: String?) -> String {
        switch format {
        case "splitwise": "Splitwise"
        case "spliit": "Spliit"
        case "ihatemoney": "IHateMoney"
        case "cospend": "Cospend"
        case "json": "a Budget Splitter export"
        default: format ?? "a file"
        }
    }

    private static func roleName(_ role: String) -> String {
        switch role {
        case "admin": "an admin"
        case "viewer": "a viewer"
        case "owner": "the owner"
        default: "a member"
        }
    }
}
