import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// My groups, create a group, join by invite link, and a group's overview.
extension WebApp {
    /// A group as its pages need it: the group, its members by id, and what I may do.
    struct GroupScope: Sendable {
        let group: Components.Schemas.Group
        let members: [Components.Schemas.Member]
        let me: Components.Schemas.Member?

        var membership: Membership? { me.map(Self.membership) }

        static func membership(_ member: Components.Schemas.Member) -> Membership {
            Membership(
                role: Role(rawValue: member.role.rawValue) ?? .viewer, canAddExpenses: member.canAddExpenses,
                canEditOwnExpenses: member.canEditOwnExpenses, canEditAllExpenses: member.canEditAllExpenses,
                canMarkPaid: member.canMarkPaid, isActive: member.active)
        }

        /// The same decision the server enforces (DESIGN §4), to show only controls that will work.
        func may(_ action: GroupAction) -> Bool {
            WriteGrant.refusal(for: [action], by: membership, groupIsArchived: group.isArchived) == nil
        }

        /// Refuses `action` as the server would, in its words (found by a new user: an archived
        /// group's Add expense said "Your role in this group does not allow that").
        func require(_ action: GroupAction) throws {
            if let refusal = WriteGrant.refusal(for: [action], by: membership, groupIsArchived: group.isArchived) {
                throw AppError(refusal)
            }
        }

        /// Whether this member may delete a transfer, as the server decides it: not one recorded
        /// by marking a share paid; a party or an admin; a plain member only one they recorded
        /// (found by a new user: Delete was shown on a transfer someone else recorded, then refused).
        func mayDelete(_ settlement: Components.Schemas.Settlement) -> Bool {
            guard settlement.expenseSplitId == nil, let me else { return false }
            let isParty = settlement.fromMemberId == me.id || settlement.toMemberId == me.id
            return may(.recordSettlement(isParty: isParty))
                && (me.role != .member || settlement.createdByUserId == me.userId)
        }

        func name(_ memberID: String) -> String {
            members.first { $0.id == memberID }?.name ?? "(removed member)"
        }

        /// The name, marked when the member was removed: where balances and plans list people,
        /// a removed Cho beside a new one.
        func label(_ memberID: String) -> String {
            guard let member = members.first(where: { $0.id == memberID }) else { return "(removed member)" }
            return member.label
        }

        var activeMembers: [Components.Schemas.Member] { members.filter(\.active) }

        /// The group's tabs, `current` marked; `live` pages update in place when others write.
        func nav(_ current: String, live: Bool = true) -> GroupNav {
            GroupNav(id: group.id, name: group.name, current: current, archived: group.isArchived, live: live)
        }
    }

    /// Today's date where the group is (its time zone).
    func today(in scope: GroupScope) -> String {
        MoneyInput.today(api.now(), in: scope.group.timeZone)
    }

    func scope(_ groupID: String) async throws -> GroupScope {
        let id = try APIHandler.id(groupID, "group")
        let view = try await groupUseCases.group(id, caller: try caller())
        let group = Components.Schemas.Group(view.group, me: view.me)
        let members = try await memberUseCases.members(groupID: id, caller: try caller())
            .map(Components.Schemas.Member.init)
        return GroupScope(group: group, members: members, me: members.first { $0.id == group.myMemberId })
    }

    // MARK: My groups

    struct GroupsBody: Sendable {
        struct Row: Sendable {
            let id: String
            let name: String
            let homeCurrency: String
            let role: String
            let archived: Bool
            /// Claims waiting for this caller (owner, admin) to decide: "2 ask to join as someone".
            var claimsWaiting: String? = nil
        }
        /// A claim of mine waiting for the group's owner or an admin.
        struct Waiting: Sendable {
            let text: String
        }
        let groups: [Row]
        var waiting: [Waiting] = []
        let currencies: [CurrencyOption]
        let newID: String
        let name: String
        let errors: [String: String]
    }

    struct CurrencyOption: Sendable {
        let code: String
        let label: String
        let selected: Bool
    }

    static func currencyOptions(selected: String) -> [CurrencyOption] {
        Currency.all.filter { !$0.isWithdrawn }.map {
            CurrencyOption(code: $0.code, label: "\($0.code) — \($0.name)", selected: $0.code == selected)
        }
    }

    func groupsPage(_ request: Request) async throws -> Response {
        try await groupsPage(name: "", currency: "USD", errors: [:])
    }

    private func groupsPage(name: String, currency: String, errors: [String: String]) async throws -> Response {
        let views = try await groupUseCases.groups(of: try caller())
        let claims = try await memberUseCases.waitingClaims(caller: try caller(), in: views)
        let rows = views.map { view in
            let group = Components.Schemas.Group(view.group, me: view.me)
            var row = GroupsBody.Row(
                id: group.id, name: group.name, homeCurrency: group.homeCurrency, role: WebFormat.role(group.myRole),
                archived: group.isArchived)
            if let count = claims.toDecide[view.group.id] {
                row.claimsWaiting = count == 1 ? "1 request to join: approve or reject" : "\(count) requests to join: approve or reject"
            }
            return row
        }
        var body = GroupsBody(
            groups: rows, currencies: Self.currencyOptions(selected: currency), newID: UUID.random().uuidString,
            name: name, errors: errors)
        body.waiting = claims.mine.map {
            .init(text: "You asked to join \($0.groupName) as \($0.claim.memberName); its owner or an admin decides.")
        }
        return try await render("groups", title: "My groups", body: body, errors: errors)
    }

    func createGroup(_ request: Request) async throws -> Response {
        let form = try WebRequest.get().form
        let name = form["name"] ?? ""
        let currency = form["homeCurrency"] ?? ""
        do {
            let view = try await groupUseCases.create(
                // The creator's browser says its time zone (the page's script fills it in); one
                // this server does not know leaves the group on UTC rather than refusing it.
                EnteredGroup(
                    id: form.text("_id"), name: name, homeCurrency: currency,
                    timeZone: form.text("timeZone").flatMap { try? MoneyInput.timeZone($0) },
                    kind: form.has("personal") ? "personal" : "shared"), caller: try caller())
            return Self.redirect("/groups/\(view.group.id.text)")
        } catch {
            return try await groupsPage(
                name: name, currency: currency, errors: try Self.formErrors(error, shown: ["name", "homeCurrency"]))
        }
    }

    // MARK: Join by link

    struct JoinBody: Sendable {
        struct Claimable: Sendable {
            let id: String
            let name: String
            /// Offered first: the name is the joiner's own.
            let checked: Bool
        }
        let code: String
        let groupName: String?
        let claimable: [Claimable]
        let hasClaimable: Bool
        /// No name-only member has the joiner's name: "I am new here" is offered first.
        let newChecked: Bool
        /// The name to join under as someone new: as typed, else the account's.
        let name: String
        /// Set for someone who left: what joining does for them.
        let comingBack: String?
        /// Set once the user asked to be a member with money history: what happens next.
        let pending: String?
        /// Set when the link is opened again while that request waits (found by a new user: the
        /// same choice again, saying nothing of it); the form stays, to join otherwise.
        let waiting: String?
        let errors: [String: String]
    }

    /// `chosen`: what the form had chosen (a member's id, or "new"), kept after a refusal;
    /// else the member with my name is offered first.
    func joinBody(
        code: String, name: String? = nil, chosen: String? = nil, pending: String? = nil, errors: [String: String] = [:]
    ) async throws -> JoinBody {
        let caller = try caller()
        let invitation = try await groupUseCases.invitation(code: code, caller: caller, origin: try origin())
        let mine =
            chosen.map { id in (invitation?.claimable ?? []).first { $0.id.text == id } }
            ?? (invitation?.claimable ?? []).first { QuickEntry.sameName($0.name, caller.user.displayName) }
        // Someone who left comes back as themself: no names to claim (found by a new user: the
        // page offered them, and the choice was ignored).
        let former = invitation?.formerSelf
        let claimable =
            former != nil
            ? []
            : (invitation?.claimable ?? []).map {
                JoinBody.Claimable(id: $0.id.text, name: $0.name, checked: $0.id == mine?.id)
            }
        return JoinBody(
            code: code, groupName: invitation?.name, claimable: claimable, hasClaimable: !claimable.isEmpty,
            newChecked: mine == nil,
            name: name
                ?? (invitation?.formerNameTaken == true
                    ? (QuickEntry.sameName(caller.user.displayName, former?.name ?? "") ? "" : caller.user.displayName)
                    : former?.name ?? caller.user.displayName),
            comingBack: former.map {
                "You were in this group as \($0.name): joining brings you back, with your expenses and balance."
                    + (invitation?.formerNameTaken == true
                        ? " Someone in it is called \($0.name) now: choose the name you come back under." : "")
            },
            pending: pending,
            waiting: pending == nil
                ? invitation?.waitingAs.map {
                    "You asked to join as \($0); an owner or admin of the group confirms it is you first, and the "
                        + "group appears in your list once they do. Joining below under a new name instead withdraws it."
                } : nil,
            errors: invitation == nil && errors.isEmpty
                ? ["form": "This invite link does not work any more. Ask for a new one."] : errors)
    }

    /// `/join/CODE`, pasted into a chat: log in (or register) first, then one button.
    func joinPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        guard try WebRequest.get().sessionToken != nil else {
            return Self.redirect("/login?next=\(Self.queryEscape("/join/\(code)"))")
        }
        return try await render("join", title: "Join a group", body: try await joinBody(code: code))
    }

    func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        let form = try WebRequest.get().form
        let claim = form.text("memberId")
        let name = form.text("name")
        do {
            switch try await groupUseCases.join(
                code: code, memberId: claim == "new" ? nil : claim, name: claim == "new" || claim == nil ? name : nil,
                caller: try caller(), origin: try origin())
            {
            case .joined(let view):
                // Said on the page it leads to (found by a new user: no word that it worked).
                return Self.redirect("/groups/\(view.group.id.text)", done: "joined")
            case .pending(let groupName, let claim):
                let next =
                    "You asked to join “\(groupName)” as \(claim.memberName). \(claim.memberName) already has "
                    + "expenses or transfers, so an owner or admin of the group confirms it is you first. "
                    + "The group appears in your list once they do."
                return try await render("join", title: "Join a group", body: try await joinBody(code: code, pending: next))
            }
        } catch let refusal as AppError {
            let error = APIError(refusal)
            guard [.notFound, .conflict, .unprocessableContent].contains(error.status) else { throw refusal }
            return try await render(
                "join", title: "Join a group",
                body: try await joinBody(code: code, name: name, chosen: claim, errors: ["form": error.message]),
                status: error.status)
        }
    }

    // MARK: Overview

    struct OverviewBody: Sendable {
        struct Line: Sendable {
            let text: String
            let owed: Bool
            let owes: Bool
        }
        struct Activity: Sendable {
            let summary: String
            let when: String
        }
        let groupID: String
        let myBalance: [Line]
        let canAdd: Bool
        let memberChart: String?
        let categoryChart: String?
        let chartCurrency: String
        /// Currencies without a rate to the home one, which the charts leave out ("USD, EUR").
        let unconverted: String?
        let activity: [Activity]
        /// More lines than the card shows: a link to all of them.
        let moreActivity: Bool
        /// "Add quickly", for members who may add expenses.
        let quick: QuickForm?
    }

    func overviewPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let view = try await ledger.balances(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        let balances = Components.Schemas.BalancesResponse(view)
        // With several currencies that all have a rate, what Settle up offers first: everything in
        // the home currency (found by review: the card said each currency's plan, and following
        // it after the home plan paid twice).
        let home = view.homePlanFirst ? balances.home : nil
        let mine = (home ?? balances.balances).filter { $0.memberId == scope.group.myMemberId && !WebFormat.isZero($0.net) }
        let homePlan = home == nil ? nil : try await ledger.homePlan(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
        // Who to pay, or who pays you, as the settle-up plan of that currency says (issue 15).
        var myBalance: [OverviewBody.Line] = []
        for line in mine {
            let amount = WebFormat.money(WebFormat.magnitude(line.net), line.currency)
                + (homePlan == nil ? "" : ", everything counted in \(line.currency)")
            let me = scope.group.myMemberId
            let transfers: [Components.Schemas.PlannedTransfer]
            if let homePlan {
                transfers = homePlan.transfers.map { Components.Schemas.PlannedTransfer($0, currency: homePlan.currency) }
            } else {
                let (currency, planned) = try await ledger.plan(
                    groupID: try APIHandler.id(groupID, "group"), currency: line.currency, caller: try caller())
                transfers = planned.map { Components.Schemas.PlannedTransfer($0, currency: currency) }
            }
            if line.net.hasPrefix("-") {
                let to = transfers.filter { $0.fromMemberId == me }.map {
                    "\(scope.label($0.toMemberId)) \(WebFormat.money($0.amount, $0.currency))"
                }
                let whom = to.isEmpty ? "" : ": pay " + to.joined(separator: " and ")
                myBalance.append(.init(text: "You owe \(amount)\(whom)", owed: false, owes: true))
            } else {
                let from = transfers.filter { $0.toMemberId == me }.map {
                    "\(scope.label($0.fromMemberId)) \(WebFormat.money($0.amount, $0.currency))"
                }
                let whom = from.isEmpty ? "" : ", from " + from.joined(separator: " and ")
                myBalance.append(.init(text: "You are owed \(amount)\(whom)", owed: true, owes: false))
            }
        }
        if myBalance.isEmpty { myBalance = [.init(text: "You are all settled up.", owed: false, owes: false)] }
        let id = try APIHandler.id(scope.group.id, "group")
        let chart = try await budgetUseCases.chart(groupID: id, caller: try caller())
        let chartCurrency = try MoneyInput.currency(chart.currency, field: "homeCurrency")
        // One line more than shown says whether "All activity" has more to show.
        let recent = try await feed.activity(groupID: id, limit: 9, cursor: nil, caller: try caller())
        let activity = recent.entries.prefix(8).map(Components.Schemas.ActivityEntry.init)
        let body = OverviewBody(
            groupID: groupID, myBalance: myBalance, canAdd: scope.may(.addExpense),
            memberChart: Charts.bars(
                chart.perMember.map { (label: scope.label($0.member.text), value: $0.amount) }, currency: chartCurrency,
                title: "Spent per member"),
            categoryChart: Charts.bars(
                chart.perCategory.map { (label: $0.label, value: $0.amount) }, currency: chartCurrency,
                title: "Spent per category"),
            chartCurrency: chart.currency,
            unconverted: chart.uncountedCurrencies.isEmpty ? nil : chart.uncountedCurrencies.joined(separator: ", "),
            activity: activity.map {
                .init(summary: $0.summary, when: ZonedTime.dateTime($0.at, in: scope.group.timeZone))
            },
            moreActivity: recent.entries.count > 8,
            quick: scope.may(.addExpense) ? Self.quickForm(scope: scope) : nil)
        return try await render("overview", title: scope.group.name, body: body, nav: scope.nav("overview"))
    }

    struct ActivityBody: Sendable {
        let groupID: String
        let lines: [OverviewBody.Activity]
        let olderURL: String?
    }

    /// Everything that happened in the group, newest first, 50 a page (found by a new user: only
    /// the overview's last 8 lines could be read).
    func activityPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try context.parameters.require("groupId")
        let scope = try await scope(groupID)
        let cursor = request.uri.queryParameters["cursor"].map(String.init)
        let page: (entries: [ActivityRecord], nextCursor: String?)
        do {
            page = try await feed.activity(
                groupID: try APIHandler.id(groupID, "group"), limit: 50, cursor: cursor, caller: try caller())
        } catch AppError.invalid {
            // A cursor mangled in the address: the newest page.
            return Self.redirect("/groups/\(groupID)/activity")
        }
        // A full page offers Older only when there is an older line (found by review: exactly 50
        // lines led to an empty page).
        var older = page.nextCursor
        if let cursor = older,
            try await feed.activity(
                groupID: try APIHandler.id(groupID, "group"), limit: 1, cursor: cursor, caller: try caller()
            ).entries.isEmpty
        {
            older = nil
        }
        let body = ActivityBody(
            groupID: groupID,
            lines: page.entries.map(Components.Schemas.ActivityEntry.init).map {
                .init(summary: $0.summary, when: ZonedTime.dateTime($0.at, in: scope.group.timeZone))
            },
            olderURL: older.map { "/groups/\(groupID)/activity?cursor=" + Self.queryEscape($0) })
        return try await render(
            "activity", title: "Activity · \(scope.group.name)", body: body, nav: scope.nav("overview", live: false))
    }
}
