import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Members and roles (owner and admins manage), the invite link, and group settings:
/// name and home currency, categories, exchange rates, archive.
extension WebApp {
    // MARK: Members

    struct MembersBody: Sendable {
        struct Row: Sendable {
            let id: String
            let name: String
            let role: String
            let roles: [ExpenseFormBody.Option]
            let hasRoles: Bool
            let nameOnly: Bool
            let isMe: Bool
            let canRemove: Bool
            /// One's own row, but not the owner's: Leave (asked first on its own page).
            let canLeave: Bool
            /// One's own name, or a member's one may manage.
            let canRename: Bool
            /// The rename form as it came back refused: open, with what was typed and why.
            var renameOpen = false
            var renameValue: String
            var renameError: String? = nil
            /// The owner may hand the group to a member with an account (before deleting theirs, say).
            let canMakeOwner: Bool
            let version: Int64
        }
        /// Someone asking to be a name-only member who has money history (owner, admin decide).
        struct Claim: Sendable {
            let memberID: String
            let memberName: String
            let userName: String
            let userEmail: String
            let when: String
        }
        /// A member removed from the group, with a Restore button for who may manage them.
        struct Removed: Sendable {
            let id: String
            let name: String
            let canRestore: Bool
        }
        /// Removing a member who owes or is owed money: the amounts, and a button that confirms.
        struct ConfirmRemoval: Sendable {
            let id: String
            let name: String
            let message: String
        }
        /// A step asked once more before it is done (found by a new user: approving or rejecting
        /// a claim, and handing the group over, acted on one tap): what it does, and the button
        /// that does it (posting `confirm=1` to `action`).
        struct Confirmation: Sendable {
            /// The card's id ("confirm-claim", "confirm-owner"); its button's is this and "-button".
            let id: String
            let title: String
            let message: String
            let action: String
            let button: String
            let danger: Bool
            /// Where "Not now" goes back to.
            let back: String
        }
        let groupID: String
        let rows: [Row]
        let removed: [Removed]
        let hasRemoved: Bool
        let confirmRemoval: ConfirmRemoval?
        var confirmation: Confirmation? = nil
        let claims: [Claim]
        let hasClaims: Bool
        let canAdd: Bool
        let inviteURL: String?
        /// The add form's member id: a second click of the same form adds no second member.
        let newID: String
        let errors: [String: String]
        /// The add form's name as typed when it was refused (found by a new user: it came back empty).
        var addName = ""
    }

    func membersPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await membersPage(request, groupID: try context.parameters.require("groupId"), errors: [:])
    }

    private func membersPage(
        _ request: Request, groupID: String, errors: [String: String],
        confirmRemoval: MembersBody.ConfirmRemoval? = nil, refusedRename: (memberID: String, name: String)? = nil,
        refusedAdd: (name: String, id: String)? = nil, confirmClaim: (memberID: String, approve: Bool)? = nil,
        confirmation: MembersBody.Confirmation? = nil
    ) async throws -> Response {
        let scope = try await scope(groupID)
        let removed = scope.members.filter { !$0.active }.map { member in
            // Said as they went: "Ben (left)", "Cho (removed)" (found by review: all read "Removed").
            MembersBody.Removed(
                id: member.id, name: member.label,
                canRestore: scope.may(.manageMembers(.other(Role(rawValue: member.role.rawValue) ?? .viewer))))
        }
        var rows = scope.activeMembers.map { member -> MembersBody.Row in
            let isMe = member.id == scope.group.myMemberId
            let target: MemberTarget = isMe ? .me : .other(Role(rawValue: member.role.rawValue) ?? .viewer)
            // Roles this caller may give this member (ownership moves by its own action).
            let roles = [Role.admin, .member, .viewer].filter {
                $0.rawValue == member.role.rawValue || scope.may(.changeRole(target, newRole: $0))
            }
            return .init(
                id: member.id, name: member.name, role: WebFormat.role(member.role),
                roles: roles.map {
                    .init(
                        value: $0.rawValue, label: $0.rawValue.capitalized,
                        selected: $0.rawValue == member.role.rawValue)
                }, hasRoles: roles.count > 1,
                nameOnly: member.userId == nil, isMe: isMe, canRemove: scope.may(.manageMembers(target)),
                canLeave: isMe && scope.may(.leave) && !scope.group.isArchived,
                canRename: scope.may(isMe ? .renameSelf : .manageMembers(target)), renameValue: member.name,
                canMakeOwner: !isMe && member.userId != nil && scope.may(.archiveOrTransferOwnership),
                version: member.version)
        }
        // A refused rename is said in its own form, open, with what was typed (found by a new
        // user: the message went to the add form's field, and the name typed was gone).
        if let refusedRename, let at = rows.firstIndex(where: { $0.id == refusedRename.memberID }) {
            rows[at].renameOpen = true
            rows[at].renameValue = refusedRename.name
            rows[at].renameError = errors["rename-member"]
        }
        let canAdd = scope.may(.manageMembers(.newMember))
        let claims =
            canAdd
            ? try await memberUseCases.claims(groupID: try APIHandler.id(groupID, "group"), caller: try caller()) : []
        var body = MembersBody(
            groupID: groupID, rows: rows, removed: removed, hasRemoved: !removed.isEmpty,
            confirmRemoval: confirmRemoval,
            claims: claims.map {
                .init(
                    memberID: $0.memberID.text, memberName: $0.memberName, userName: $0.userName,
                    userEmail: $0.userEmail, when: ZonedTime.dateTime(Date(milliseconds: $0.requestedAt), in: scope.group.timeZone))
            }, hasClaims: !claims.isEmpty, canAdd: canAdd,
            inviteURL: scope.group.inviteCode.map { inviteURL(request, code: $0) },
            newID: refusedAdd?.id ?? UUID.random().uuidString, errors: errors)
        body.addName = refusedAdd?.name ?? ""
        body.confirmation = confirmation
        if let confirmClaim,
            let claim = body.claims.first(where: { $0.memberID.lowercased() == confirmClaim.memberID.lowercased() })
        {
            let standing =
                confirmClaim.approve
                ? try await memberUseCases.owing(
                    claim.memberID, groupID: try APIHandler.id(groupID, "group"), caller: try caller()) : nil
            body.confirmation = Self.confirmation(
                of: claim, approve: confirmClaim.approve, standing: standing, groupID: groupID)
        }
        return try await render(
            "members", title: "Members · \(scope.group.name)", body: body, nav: scope.nav("members", live: false),
            errors: errors)
    }

    /// The link to paste into a chat: `PUBLIC_URL` when set (behind a proxy that rewrites the
    /// host), else this server's address as the browser reached it.
    func inviteURL(_ request: Request, code: String) -> String {
        if let base = api.configuration.publicURL { return "\(base)/join/\(code)" }
        let web = WebRequest.current
        let host = request.head.authority ?? "localhost"
        return "\(web?.isSecure == true ? "https" : "http")://\(host)/join/\(code)"
    }

    func addMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let form = try WebRequest.get().form
        do {
            _ = try await memberUseCases.add(
                name: form["name"] ?? "", id: form.text("_id"), groupID: try APIHandler.id(groupID, "group"),
                caller: try caller(), origin: try origin())
            return Self.redirect("/groups/\(groupID)/members", done: "member-added")
        } catch {
            return try await membersPage(
                request, groupID: groupID, errors: try Self.formErrors(error, shown: ["name", "role"]),
                refusedAdd: (form["name"] ?? "", form.text("_id") ?? UUID.random().uuidString))
        }
    }

    /// A new role, or (the rename form) a new name.
    func updateMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try WebRequest.get().form
        let version = form["version"].flatMap { Int64($0) }
        if let name = form["name"] {
            let groupID = try context.parameters.require("groupId")
            let memberID = try context.parameters.require("memberId")
            do {
                _ = try await memberUseCases.update(
                    memberID, MemberPatch(name: name, version: version), groupID: try APIHandler.id(groupID, "group"),
                    caller: try caller(), origin: try origin())
                return Self.redirect("/groups/\(groupID)/members", done: "renamed")
            } catch let error as AppError {
                let message = try Self.formErrors(error, shown: ["name"]).values.first ?? "That name cannot be used."
                return try await membersPage(
                    request, groupID: groupID, errors: ["rename-member": message],
                    refusedRename: (memberID, name))
            }
        }
        return try await memberAction(request, context, done: "role") { groupID, memberID in
            guard let role = form["role"].flatMap(Components.Schemas.Role.init(rawValue:)) else {
                throw APIError.invalid(field: "role", "Pick a role.")
            }
            _ = try await memberUseCases.update(
                memberID, MemberPatch(role: role.role, version: version), groupID: groupID, caller: try caller(),
                origin: try origin())
        }
    }

    /// "Leave Japan?" before one does (a member may leave; the owner hands the group over first):
    /// what they owe or are owed, and what stays.
    func leavePage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let me = scope.group.myMemberId
        guard !scope.group.isArchived else { throw AppError.archived }
        guard scope.may(.leave) else {
            throw AppError.forbiddenBecause("The owner cannot leave; make another member the owner first.")
        }
        let owing = try await memberUseCases.owing(me, groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        let pausing = try await Self.pausingText(
            recurringUseCases.pausedWithout(
                try APIHandler.id(me, "member"), groupID: try APIHandler.id(groupID, "group"), caller: try caller()))
        let body = ConfirmBody(
            heading: "Leave \(scope.group.name)?", subject: "You, \(scope.name(me))", when: nil,
            message: (owing.map { "\($0). " } ?? "You are settled up. ")
                + "Your expenses, shares and balance stay in the group, and the others can still record transfers "
                + "with you. You will no longer see the group; its invite link, or an owner or admin, brings you back."
                + pausing,
            action: "/groups/\(groupID)/leave", yes: "Leave the group", no: "Stay",
            cancelURL: "/groups/\(groupID)/members")
        return try await render(
            "confirm", title: "Leave · \(scope.group.name)", body: body, nav: scope.nav("members", live: false))
    }

    func leaveGroup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        // The page said the balance; leaving is what was confirmed.
        _ = try await memberUseCases.remove(
            scope.group.myMemberId, groupID: try APIHandler.id(groupID, "group"), confirmBalance: true, caller: try caller(),
            origin: try origin())
        return Self.redirect("/groups", done: "left")
    }

    /// Remove; a member who owes or is owed money is removed only after the page shows the
    /// amounts and the owner or admin confirms (`confirm=1`).
    func removeMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        let confirmed = try WebRequest.get().form["confirm"] == "1"
        // The series that pause, once read (the balance's refusal below says them too).
        var pausing: [String]?
        // Settled up but needed by a recurring expense: asked too, saying which pause (found by
        // a new user: removing someone stopped a series, unsaid). Who may not remove is refused
        // by the removal itself, below.
        if !confirmed, let (groupID, scope, target) = try await otherMember(context),
            scope.may(.manageMembers(.other(Role(rawValue: target.role.rawValue) ?? .viewer)))
        {
            let series = try await recurringUseCases.pausedWithout(
                try APIHandler.id(target.id, "member"), groupID: try APIHandler.id(groupID, "group"), caller: try caller())
            pausing = series
            if !series.isEmpty {
                let owing = try await memberUseCases.owing(
                    target.id, groupID: try APIHandler.id(groupID, "group"), caller: try caller())
                return try await membersPage(
                    request, groupID: groupID, errors: [:],
                    confirmRemoval: .init(
                        id: target.id, name: target.name,
                        message: (owing.map { "\($0). " } ?? "\(target.name) is settled up. ")
                            + "Their shares and balance stay, and an owner or admin can restore them."
                            + Self.pausingText(series, who: target.name)))
            }
        }
        do {
            return try await memberAction(request, context, rethrowing: true, done: "member-removed") { groupID, memberID in
                _ = try await memberUseCases.remove(
                    memberID, groupID: groupID, confirmBalance: confirmed, caller: try caller(), origin: try origin())
            }
        } catch AppError.conflict(code: "has_balance", _, let message) {
            let groupID = try context.parameters.require("groupId")
            let memberID = try context.parameters.require("memberId")
            let scope = try await scope(groupID)
            var series = pausing ?? []
            if pausing == nil {
                series = try await recurringUseCases.pausedWithout(
                    try APIHandler.id(memberID, "member"), groupID: try APIHandler.id(groupID, "group"), caller: try caller())
            }
            return try await membersPage(
                request, groupID: groupID, errors: [:],
                confirmRemoval: .init(
                    id: memberID, name: scope.name(memberID),
                    message: message + Self.pausingText(series, who: scope.name(memberID))))
        }
    }

    func restoreMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await memberAction(request, context, done: "member-restored") { groupID, memberID in
            _ = try await memberUseCases.update(
                memberID, MemberPatch(active: true), groupID: groupID, caller: try caller(), origin: try origin())
        }
    }

    /// Hands the group over once confirmed (`confirm=1`); the first tap says what it does.
    func makeOwner(_ request: Request, context: AppRequestContext) async throws -> Response {
        let confirmed = try WebRequest.get().form["confirm"] == "1"
        // Asked about only where it can be done: an active member with an account, not oneself,
        // by the owner; anything else goes on to the refusal that says why.
        if !confirmed, let (groupID, scope, target) = try await otherMember(context), target.userId != nil,
            scope.may(.archiveOrTransferOwnership)
        {
            return try await membersPage(
                request, groupID: groupID, errors: [:],
                confirmation: .init(
                    id: "confirm-owner", title: "Make \(target.name) the owner?",
                    message: "\(target.name) can then archive the group, hand it on and choose its admins. You stay in "
                        + "it as an admin, and only \(target.name) can make you the owner again.",
                    action: "/groups/\(groupID)/members/\(target.id)/owner", button: "Make \(target.name) the owner",
                    danger: true, back: "/groups/\(groupID)/members"))
        }
        return try await memberAction(request, context, done: "owner") { groupID, memberID in
            _ = try await groupUseCases.transferOwnership(
                groupID, to: memberID, caller: try caller(), origin: try origin())
        }
    }

    /// What approving (or rejecting) `claim` does, said before it is done: the account becomes
    /// the member, with the member's balance; or the claimant is told no.
    private static func confirmation(of claim: MembersBody.Claim, approve: Bool, standing: String?, groupID: String)
        -> MembersBody.Confirmation
    {
        let who = "\(claim.userName) (\(claim.userEmail))"
        let action = "/groups/\(groupID)/claims/\(claim.memberID)/\(approve ? "approve" : "reject")"
        guard approve else {
            return .init(
                id: "confirm-claim", title: "Reject \(claim.userName) as \(claim.memberName)?",
                message: "\(who) is told no. They stay out of the group and may ask again, or join under a new name.",
                action: action, button: "Reject", danger: true, back: "/groups/\(groupID)/members#claims")
        }
        return .init(
            id: "confirm-claim", title: "Approve \(claim.userName) as \(claim.memberName)?",
            message: "\(who) becomes \(claim.memberName): their expenses, transfers and balance. "
                + "\(standing ?? "\(claim.memberName) is settled up").",
            action: action, button: "Approve", danger: false, back: "/groups/\(groupID)/members#claims")
    }

    /// Approve or reject a claim once confirmed (`confirm=1`); the first tap asks.
    func decideClaim(_ request: Request, context: AppRequestContext, approve: Bool) async throws -> Response {
        guard try WebRequest.get().form["confirm"] == "1" else {
            return try await asking(request, context) { groupID, memberID in
                // Refused as the decision itself would be (a viewer, an outsider); a claim decided
                // meanwhile by someone else is said, not asked about.
                let waiting = try await memberUseCases.claims(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
                guard waiting.contains(where: { $0.memberID.text.lowercased() == memberID.lowercased() }) else {
                    return try await membersPage(
                        request, groupID: groupID,
                        errors: ["form": "That request to join is no longer waiting: it was decided already, or withdrawn."])
                }
                return try await membersPage(request, groupID: groupID, errors: [:], confirmClaim: (memberID, approve))
            }
        }
        do {
            return try await memberAction(request, context, done: approve ? "claim-approved" : "claim-rejected") {
                groupID, memberID in
                if approve {
                    _ = try await memberUseCases.approveClaim(
                        memberID, groupID: groupID, caller: try caller(), origin: try origin())
                } else {
                    try await memberUseCases.rejectClaim(memberID, groupID: groupID, caller: try caller(), origin: try origin())
                }
            }
        } catch AppError.notFound, AppError.notFoundBecause {
            // Decided in another tab meanwhile (found by a new user: "Page not found").
            return try await membersPage(
                request, groupID: try context.parameters.require("groupId"),
                errors: ["form": "That request to join is no longer waiting: it was decided already, or withdrawn."])
        }
    }

    /// " The recurring Hotel KL pauses: it includes you." for the series a leave or removal
    /// pauses; "" for none.
    static func pausingText(_ series: [String], who: String? = nil) -> String {
        guard !series.isEmpty else { return "" }
        let names = series.map { "“\($0)”" }
        let listed = WebFormat.listed(names)
        let subject = who ?? "you"
        return " The recurring \(listed) \(names.count == 1 ? "pauses" : "pause") until someone changes "
            + "\(names.count == 1 ? "it" : "them"): \(names.count == 1 ? "it needs" : "they need") \(subject) "
            + "(\(who == nil ? "you pay or share in it, or made it" : "as a payer, a sharer or its maker"))."
    }

    /// The group, its scope and the active member other than the caller that a row's button
    /// names: what a first tap asks about (nil for anyone else; the action then refuses).
    private func otherMember(_ context: AppRequestContext) async throws
        -> (groupID: String, scope: GroupScope, target: Components.Schemas.Member)?
    {
        let groupID = try context.parameters.require("groupId")
        let memberID = try context.parameters.require("memberId").lowercased()
        let scope = try await scope(groupID)
        guard let target = scope.activeMembers.first(where: { $0.id.lowercased() == memberID }),
            target.id != scope.group.myMemberId
        else { return nil }
        return (groupID, scope, target)
    }

    /// A step that asks before acting (`body` makes its page): a refusal is shown on the members
    /// page, as the action's own would be.
    private func asking(
        _ request: Request, _ context: AppRequestContext, _ body: (String, String) async throws -> Response
    ) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        do {
            return try await body(groupID, try context.parameters.require("memberId"))
        } catch {
            return try await membersPage(
                request, groupID: groupID, errors: try Self.formErrors(error, shown: ["name", "role"]))
        }
    }

    /// A button on one member's row: back to the members page when done, a refusal shown on it.
    private func memberAction(
        _ request: Request, _ context: AppRequestContext, rethrowing: Bool = false, done: String,
        _ act: (UUID, String) async throws -> Void
    ) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let memberID = try context.parameters.require("memberId")
        do {
            try await act(try APIHandler.id(groupID, "group"), memberID)
            return Self.redirect("/groups/\(groupID)/members", done: done)
        } catch AppError.conflict(let code, let field, let message) where rethrowing {
            throw AppError.conflict(code: code, field: field, message: message)
        } catch {
            return try await membersPage(
                request, groupID: groupID, errors: try Self.formErrors(error, shown: ["name", "role"]))
        }
    }

    // MARK: Settings

    struct SettingsBody: Sendable {
        struct Category: Sendable {
            let id: String
            let label: String
            /// An own category (the defaults stay as they are): renamed and deleted here.
            let canDelete: Bool
            let name: String
            let icon: String
            let version: Int64
            /// Moved up or down in the order every category list follows (owner, admin).
            let canMoveUp: Bool
            let canMoveDown: Bool
            /// The rename form as it came back refused: open, with what was typed and why.
            var renameOpen = false
            var renameError: String? = nil
        }
        struct Rate: Sendable {
            let text: String
            let from: String
            let to: String
            let date: String
            /// The one read for its pair now (found by a new user: which one counted was a guess).
            let counts: Bool
        }
        let groupID: String
        let name: String
        let version: Int64
        let currencies: [CurrencyOption]
        let canUpdate: Bool
        let canInvite: Bool
        let inviteURL: String?
        let categories: [Category]
        let rates: [Rate]
        let homeCurrency: String
        let timeZone: String
        let today: String
        let isOwner: Bool
        let archived: Bool
        let newID: String
        /// The caller's own notification setting for this group: (value, label, selected).
        let levels: [Option]
        let errors: [String: String]
        /// Owners and admins see the link to the group's webhooks.
        var canManageWebhooks = false
        var hasRates = false
        /// What the last action on a card did, said in the card the page returns to (the page's
        /// own notice is a screen and a half above it on a phone; found by a new user).
        var categoriesNotice: String?
        var ratesNotice: String?
        /// The forms' fields: as typed when a form was refused (found by review: they came back
        /// empty or as they were), else the group's own.
        var formName = ""
        var formTimeZone = ""
        var categoryName = ""
        var categoryIcon = ""
        var rateFrom = ""
        var rateValue = ""
        var rateDate = ""

        struct Option: Sendable {
            let value: String
            let label: String
            let selected: Bool
        }
    }

    /// "Delete this rate?" before it is (found by a new user: one tap deleted a rate, and with it
    /// every total in the home currency that counted through it changed). The yes is the settings
    /// card's own delete.
    func confirmDeleteRate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let query = request.uri.queryParameters
        let (from, to, date) = (query["from"].map(String.init), query["to"].map(String.init), query["date"].map(String.init))
        let back = "/groups/\(groupID)/settings#exchange-rates"
        let rates = try await ledger.rates(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
            .map(Components.Schemas.Rate.init)
        // Gone meanwhile (or a made-up address): back to the list, which shows what there is.
        guard let rate = rates.first(where: { $0.fromCurrency == from && $0.toCurrency == to && $0.date == date }) else {
            return Self.redirect(back)
        }
        try scope.require(.updateGroup)
        let pair = "\(rate.fromCurrency) and \(rate.toCurrency)"
        let body = ConfirmBody(
            heading: "Delete this rate?",
            subject: "1 \(rate.fromCurrency) = \(rate.rate) \(rate.toCurrency)", when: "from \(rate.date)",
            message: rate.counts == true
                ? "It is the rate of \(pair) that counts now. Once it is deleted, an earlier one counts instead, "
                    + "or none, so totals in \(scope.group.homeCurrency) may change."
                : "A later rate of \(pair) counts, so no total changes.",
            action: "/groups/\(groupID)/settings", yes: "Delete the rate", no: "Keep it", cancelURL: back,
            fields: [
                .init(name: "action", value: "delete-rate"), .init(name: "fromCurrency", value: rate.fromCurrency),
                .init(name: "toCurrency", value: rate.toCurrency), .init(name: "date", value: rate.date),
            ])
        return try await render(
            "confirm", title: "Delete a rate · \(scope.group.name)", body: body, nav: scope.nav("settings", live: false))
    }

    /// "Archive this group?" before it is (found by a new user: one tap archived it, and the page
    /// said only "Saved.").
    func confirmArchive(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let back = "/groups/\(groupID)/settings#archive"
        guard !scope.group.isArchived else { return Self.redirect(back) }
        try scope.require(.archiveOrTransferOwnership)
        // What is left open is said (found by a new user: it was archived owing 9,666 JPY, with a
        // payment request still showing its code).
        let groupUUID = try APIHandler.id(groupID, "group")
        let owing = try await ledger.balances(groupID: groupUUID, caller: try caller()).nets.contains { $0.net != 0 }
        let open = try await paymentRequests.list(groupID: groupUUID, caller: try caller())
            .filter { $0.state == "open" || $0.state == "locked" }.count
        var left: [String] = []
        if owing { left.append("Not everyone is settled up: no transfer can be recorded while it is archived.") }
        if open > 0 {
            left.append(
                open == 1
                    ? "Its open payment request cannot be paid meanwhile."
                    : "Its \(open) open payment requests cannot be paid meanwhile.")
        }
        let body = ConfirmBody(
            heading: "Archive this group?", subject: scope.group.name, when: nil,
            message: (["Everyone can still read it, but nobody can add, change or settle anything in it until you bring "
                + "it back (in Settings)."] + left).joined(separator: " "),
            action: "/groups/\(groupID)/settings", yes: "Archive the group", no: "Keep it open", cancelURL: back,
            fields: [.init(name: "action", value: "archive")])
        return try await render(
            "confirm", title: "Archive · \(scope.group.name)", body: body, nav: scope.nav("settings", live: false))
    }

    func settingsPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await settingsPage(request, groupID: try context.parameters.require("groupId"), errors: [:])
    }

    /// `typed`: the refused form, whose fields are shown as they were typed.
    private func settingsPage(_ request: Request, groupID: String, errors: [String: String], typed: WebForm? = nil)
        async throws -> Response
    {
        let scope = try await scope(groupID)
        let groupUUID = try APIHandler.id(groupID, "group")
        let categories = try await categoryUseCases.categories(groupID: groupUUID, caller: try caller())
            .map(Components.Schemas.Category.init)
        let rates = try await ledger.rates(groupID: groupUUID, caller: try caller()).map(Components.Schemas.Rate.init)
        let canUpdate = scope.may(.updateGroup)
        let level = try await api.notificationUseCases.level(groupID: groupUUID, caller: try caller())
        let levels: [(NotificationLevel, String)] = [
            (.mine, "What concerns me"), (.all, "Everything in this group"), (.none, "Nothing"),
        ]
        var body = SettingsBody(
            groupID: groupID, name: scope.group.name, version: scope.group.version,
            currencies: Self.currencyOptions(
                selected: typed?["action"] == "group" ? typed?["homeCurrency"] ?? scope.group.homeCurrency : scope.group.homeCurrency),
            canUpdate: canUpdate,
            canInvite: scope.may(.manageMembers(.newMember)),
            inviteURL: scope.group.inviteCode.map { inviteURL(request, code: $0) },
            categories: categories.enumerated().map { index, category in
                // A refused rename is said in its own form, open, with what was typed (found by a
                // new user: the message went under "New category", and the name typed was gone).
                let refused = typed?["action"] == "rename-category" && typed?["categoryId"] == category.id
                return .init(
                    id: category.id, label: "\(category.icon) \(category.name)", canDelete: canUpdate && !category.isDefault,
                    name: refused ? typed?["categoryName"] ?? category.name : category.name,
                    icon: refused ? typed?["icon"] ?? category.icon : category.icon, version: category.version,
                    canMoveUp: canUpdate && index > 0, canMoveDown: canUpdate && index < categories.count - 1,
                    renameOpen: refused, renameError: refused ? errors["rename-category"] : nil)
            },
            rates: rates.map {
                .init(
                    text: "\($0.date): 1 \($0.fromCurrency) = \($0.rate) \($0.toCurrency)", from: $0.fromCurrency,
                    to: $0.toCurrency, date: $0.date, counts: $0.counts == true)
            },
            homeCurrency: scope.group.homeCurrency, timeZone: MoneyInput.zoneName(scope.group.timeZone),
            today: today(in: scope),
            isOwner: scope.group.myRole == .owner, archived: scope.group.isArchived, newID: UUID.random().uuidString,
            levels: levels.map { .init(value: $0.0.rawValue, label: $0.1, selected: $0.0 == level) }, errors: errors)
        body.hasRates = !rates.isEmpty
        if errors.isEmpty, let done = request.uri.queryParameters["done"].map(String.init) {
            if done.hasPrefix("category") { body.categoriesNotice = Self.notices[done] }
            if done.hasPrefix("rate-") { body.ratesNotice = Self.notices[done] }
        }
        body.canManageWebhooks = scope.membership.map { Permissions.decide(.manageWebhooks, for: $0) == .allowed } ?? false
        let action = typed?["action"]
        func kept(_ field: String, in form: String) -> String? { action == form ? typed?[field] : nil }
        body.formName = kept("name", in: "group") ?? scope.group.name
        body.formTimeZone = kept("timeZone", in: "group") ?? MoneyInput.zoneName(scope.group.timeZone)
        body.categoryName = kept("categoryName", in: "add-category") ?? ""
        body.categoryIcon = kept("icon", in: "add-category") ?? ""
        body.rateFrom = kept("fromCurrency", in: "add-rate") ?? ""
        body.rateValue = kept("rate", in: "add-rate") ?? ""
        body.rateDate = kept("date", in: "add-rate") ?? body.today
        return try await render(
            "settings", title: "Settings · \(scope.group.name)", body: body, nav: scope.nav("settings", live: false),
            errors: errors)
    }

    /// Every settings form posts here with an `action`; each calls one API operation.
    func updateSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let form = try WebRequest.get().form
        do {
            switch form["action"] {
            case "group":
                _ = try await groupUseCases.update(
                    try APIHandler.id(groupID, "group"),
                    GroupPatch(
                        name: form["name"], homeCurrency: form["homeCurrency"], timeZone: form.text("timeZone"),
                        version: form["version"].flatMap { Int64($0) }), caller: try caller(), origin: try origin())
            case "rotate-invite":
                _ = try await groupUseCases.setInviteCode(
                    try APIHandler.id(groupID, "group"), enabled: true, caller: try caller(), origin: try origin())
            case "disable-invite":
                _ = try await groupUseCases.setInviteCode(
                    try APIHandler.id(groupID, "group"), enabled: false, caller: try caller(), origin: try origin())
            case "add-category":
                _ = try await categoryUseCases.create(
                    EnteredCategory(id: form.text("_id"), name: form["categoryName"] ?? "", icon: form.text("icon")),
                    groupID: try APIHandler.id(groupID, "group"), caller: try caller(), origin: try origin())
            case "delete-category":
                try await categoryUseCases.delete(
                    try APIHandler.id(form["categoryId"] ?? "", "category"),
                    groupID: try APIHandler.id(groupID, "group"),
                    caller: try caller(), origin: try origin())
            case "rename-category":
                _ = try await categoryUseCases.update(
                    try APIHandler.id(form["categoryId"] ?? "", "category"),
                    EnteredCategory(name: form["categoryName"] ?? "", icon: form.text("icon")),
                    basedOn: form["version"].flatMap { Int64($0) }, groupID: try APIHandler.id(groupID, "group"),
                    caller: try caller(), origin: try origin())
            case "move-category":
                // One step up or down: the whole order is sent, as the API takes it.
                let group = try APIHandler.id(groupID, "group")
                var order = try await categoryUseCases.categories(groupID: group, caller: try caller()).map(\.id.text)
                guard let index = order.firstIndex(of: form["categoryId"] ?? ""),
                    let other = form["direction"] == "up" ? index - 1 : form["direction"] == "down" ? index + 1 : nil,
                    order.indices.contains(other)
                else { throw APIError.badRequest("That category cannot move that way.") }
                order.swapAt(index, other)
                _ = try await categoryUseCases.reorder(order, groupID: group, caller: try caller(), origin: try origin())
            case "add-rate":
                _ = try await ledger.putRates(
                    [
                        EnteredRate(
                            fromCurrency: (form["fromCurrency"] ?? "").uppercased(),
                            toCurrency: (form["toCurrency"] ?? "").uppercased(), date: form["date"] ?? "",
                            rate: try MoneyInput.typedRate(form.text("rate") ?? "", field: "rates[0].rate"))
                    ], groupID: try APIHandler.id(groupID, "group"), caller: try caller(), origin: try origin())
            case "delete-rate":
                do {
                    _ = try await ledger.deleteRate(
                        from: form["fromCurrency"] ?? "", to: form["toCurrency"] ?? "", date: form["date"] ?? "",
                        groupID: try APIHandler.id(groupID, "group"), caller: try caller(), origin: try origin())
                } catch AppError.notFoundBecause {
                    // Deleted meanwhile (a second tab's yes): back to the list, saying so (found by a
                    // new user: a "Page not found" page). A group one cannot see stays not found.
                    return Self.redirect("/groups/\(groupID)/settings#exchange-rates", done: "rate-gone")
                }
            case "notifications":
                _ = try await api.notificationUseCases.setLevel(
                    form["level"] ?? "", groupID: try APIHandler.id(groupID, "group"), caller: try caller())
            case "archive":
                _ = try await groupUseCases.setArchived(
                    try APIHandler.id(groupID, "group"), true, caller: try caller(), origin: try origin())
            case "unarchive":
                _ = try await groupUseCases.setArchived(
                    try APIHandler.id(groupID, "group"), false, caller: try caller(), origin: try origin())
            default:
                throw APIError.badRequest("Unknown settings action.")
            }
            // Back where the form was, saying what was done (found by a new user: each ↑ went
            // to the top of the page, and a deleted rate said "Saved.").
            let (anchor, done): (String, String) =
                switch form["action"] {
                case "add-category", "rename-category", "delete-category": ("#categories", "category")
                case "move-category": ("#categories", "category-moved")
                case "add-rate": ("#exchange-rates", "rate-saved")
                case "delete-rate": ("#exchange-rates", "rate-deleted")
                case "archive": ("#archive", "archived")
                case "unarchive": ("#archive", "unarchived")
                default: ("", "settings")
                }
            return Self.redirect("/groups/\(groupID)/settings\(anchor)", done: done)
        } catch {
            // The message shows next to the form that failed (each settings form is one action).
            var errors = try Self.formErrors(error, shown: [])
            let placeOf = [
                "group": "group", "add-category": "add-category", "delete-category": "delete-category",
                "rename-category": "rename-category", "move-category": "delete-category",
                "add-rate": "add-rate", "delete-rate": "add-rate", "archive": "archive", "unarchive": "archive", "notifications": "notifications",
            ]
            if let place = form["action"].flatMap({ placeOf[$0] }), let message = errors.removeValue(forKey: "form") {
                errors[place] = message
            }
            return try await settingsPage(request, groupID: groupID, errors: errors, typed: form)
        }
    }
}
