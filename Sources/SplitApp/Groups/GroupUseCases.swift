import Foundation
import SplitCore
import SplitStore

/// A group as entered when it is created.
public struct EnteredGroup: Sendable, Equatable {
    public var id: String?
    public var name: String
    public var description: String?
    public var homeCurrency: String
    /// An IANA time zone; none means UTC.
    public var timeZone: String?
    /// The owner's name in this group; their account's name when none.
    public var memberName: String?
    /// "shared" (the default: a trip, a household) or "personal" (an expense book for one, with
    /// everyday categories: groceries, rent, bills…).
    public var kind: String?

    public init(
        id: String? = nil, name: String, description: String? = nil, homeCurrency: String, timeZone: String? = nil,
        memberName: String? = nil, kind: String? = nil
    ) {
        self.kind = kind
        self.id = id
        self.name = name
        self.description = description
        self.homeCurrency = homeCurrency
        self.timeZone = timeZone
        self.memberName = memberName
    }
}

/// The fields a group edit changes; nil leaves the stored value. Without a version the edit is
/// based on the state the use case reads.
public struct GroupPatch: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var homeCurrency: String?
    public var timeZone: String?
    public var version: Int64?

    public init(
        name: String? = nil, description: String? = nil, homeCurrency: String? = nil, timeZone: String? = nil,
        version: Int64? = nil
    ) {
        self.name = name
        self.description = description
        self.homeCurrency = homeCurrency
        self.timeZone = timeZone
        self.version = version
    }
}

/// A group as the caller sees it: the group and their own membership.
public struct GroupView: Sendable, Equatable {
    public let group: GroupRecord
    public let me: MemberRecord
}

/// Groups (DESIGN §4): create, read, rename, archive, invite codes, ownership, joining.
public struct GroupUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64
    let makeInviteCode: @Sendable () -> String
    let codeGuesses: CodeGuesses?

    /// - Parameter joinLimit: wrong invite codes allowed per client address and per user in a
    ///   window (nil: unlimited, for tests of other things).
    public init(
        database: Database, now: @escaping @Sendable () -> Int64, makeInviteCode: @escaping @Sendable () -> String,
        joinLimit: RateLimiter.Rule? = nil
    ) {
        self.database = database
        self.now = now
        self.makeInviteCode = makeInviteCode
        self.codeGuesses = joinLimit.map {
            CodeGuesses(limiter: RateLimiter(attempts: AttemptStore(database: database), now: now), rule: $0)
        }
    }

    /// Counts each look-up of an invite code against the client address and the user before it
    /// runs; one that finds its code takes the counts back, so only wrong codes add up (issue 14:
    /// 60 wrong codes were 60 quick 404s).
    struct CodeGuesses: Sendable {
        let limiter: RateLimiter
        let rule: RateLimiter.Rule

        /// `caller` nil: a visitor not logged in, counted by address alone. `scope` keeps another
        /// count for the same address (a visitor's look-ups do not spend its join attempts).
        func guarding<T: Sendable>(
            _ caller: Caller?, _ origin: RequestOrigin, scope: String = "", _ lookUp: () async throws -> T?
        ) async throws -> T? {
            let counted = try await limiter.reserve(
                [(rule, RateLimiter.subject(scope + "address:" + origin.limitedAddress))]
                    + (caller.map { [(rule, RateLimiter.subject("user:" + $0.user.id.text))] } ?? []))
            guard let found = try await lookUp() else { return nil }
            try await limiter.release(counted)
            return found
        }

        /// The same limit for a code many people look up at once (a payment request): a subject
        /// that has used up its wrong codes is refused before the look-up, and only a look-up
        /// that finds nothing counts, afterwards; codes that are found never count, so payers of
        /// one request at once are never refused. A burst of wrong codes can pass the limit only
        /// by the requests already in flight.
        func countingMisses<T: Sendable>(
            _ caller: Caller?, _ origin: RequestOrigin, scope: String, _ lookUp: () async throws -> T?
        ) async throws -> T? {
            let subjects =
                [RateLimiter.subject(scope + "address:" + origin.limitedAddress)]
                + (caller.map { [RateLimiter.subject(scope + "user:" + $0.user.id.text)] } ?? [])
            for subject in subjects { try await limiter.check(rule, subject: subject) }
            let found = try await lookUp()
            if found == nil {
                for subject in subjects { try await limiter.record(rule, subject: subject) }
            }
            return found
        }
    }

    private func guarding<T: Sendable>(
        _ caller: Caller?, _ origin: RequestOrigin, scope: String = "", _ lookUp: () async throws -> T?
    ) async throws -> T? {
        guard let codeGuesses else { return try await lookUp() }
        return try await codeGuesses.guarding(caller, origin, scope: scope, lookUp)
    }

    public func groups(of caller: Caller) async throws -> [GroupView] {
        try await groups.groups(ofUser: caller.user.id).filter { caller.reaches($0.group.id) }
            .map { GroupView(group: $0.group, me: $0.member) }
    }

    public func group(_ id: UUID, caller: Caller) async throws -> GroupView {
        let (group, me) = try await access.check(id, caller, for: .read)
        return GroupView(group: group, me: me)
    }

    /// Creates a group owned by the caller. A retry of a create that went through (the same id
    /// and content) answers as the first time did (DESIGN §5); another group's id is a conflict.
    public func create(_ entered: EnteredGroup, caller: Caller) async throws -> GroupView {
        try caller.requireWholeAccount()
        let id = try MoneyInput.clientID(entered.id)
        let current = now()
        let group = GroupRecord(
            id: id, name: try Names.name(entered.name, field: "name"),
            description: try Names.groupDescription(entered.description),
            homeCurrency: try MoneyInput.currency(entered.homeCurrency, field: "homeCurrency").code,
            timeZone: try entered.timeZone.map(MoneyInput.timeZone) ?? "UTC",
            ownerUserID: caller.user.id, inviteCode: makeInviteCode(), createdAt: current, updatedAt: current)
        let memberName = try Names.optional(entered.memberName).map { try Names.name($0, field: "memberName") }
        guard ["shared", "personal"].contains(entered.kind ?? "shared") else {
            throw AppError.invalid(field: "kind", message: "kind is shared or personal.")
        }
        do {
            let (stored, owner) = try await groups.createGroup(
                group, ownerName: memberName ?? caller.user.displayName, personal: entered.kind == "personal")
            return GroupView(group: stored, me: owner)
        } catch  where Database.isUniqueViolation(error) {
            if let existing = try await groups.group(id: id), existing.ownerUserID == caller.user.id,
                existing.name == group.name, existing.description == group.description,
                existing.homeCurrency == group.homeCurrency, existing.timeZone == group.timeZone,
                let me = try await groups.membership(groupID: id, userID: caller.user.id), me.isActive
            {
                return GroupView(group: existing, me: me)
            }
            throw AppError.conflict(code: "conflict", field: "id", message: "A group with that id exists already.")
        }
    }

    public func update(_ id: UUID, _ patch: GroupPatch, caller: Caller, origin: RequestOrigin) async throws -> GroupView
    {
        let (group, me) = try await access.check(id, caller, for: .updateGroup)
        let name = try patch.name.map { try Names.name($0, field: "name") } ?? group.name
        let description = try patch.description.map { try Names.groupDescription($0) } ?? group.description
        let currency =
            try patch.homeCurrency.map { try MoneyInput.currency($0, field: "homeCurrency").code } ?? group.homeCurrency
        let timeZone = try patch.timeZone.map(MoneyInput.timeZone) ?? group.timeZone
        switch try await groups.updateGroup(
            id: group.id, name: name, description: description, homeCurrency: currency, timeZone: timeZone,
            expectedVersion: patch.version ?? group.version,
            actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]), now: now())
        {
        case .written(let stored): return GroupView(group: stored, me: me)
        case .stale(let current): throw AppError.staleGroup(GroupView(group: current, me: me))
        case nil: throw AppError.notFound("group")
        }
    }

    /// Archives the group (history: readable, unchangeable) or brings it back; the owner's call.
    public func setArchived(_ id: UUID, _ isArchived: Bool, caller: Caller, origin: RequestOrigin) async throws
        -> GroupView
    {
        let (group, me) = try await access.check(id, caller, for: .archiveOrTransferOwnership)
        guard group.isArchived != isArchived else { return GroupView(group: group, me: me) }
        guard
            let stored = try await groups.setArchived(
                groupID: group.id, isArchived,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [.archiveOrTransferOwnership]), now: now())
        else { throw AppError.notFound("group") }
        return GroupView(group: stored, me: me)
    }

    /// A new invite code (the old one stops working), or none (joining by code is off).
    public func setInviteCode(_ id: UUID, enabled: Bool, caller: Caller, origin: RequestOrigin) async throws
        -> GroupView
    {
        let action = GroupAction.manageMembers(.newMember)
        let (group, me) = try await access.check(id, caller, for: action)
        try await groups.setInviteCode(
            groupID: group.id, code: enabled ? makeInviteCode() : nil,
            actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), now: now())
        guard let stored = try await groups.group(id: group.id) else { throw AppError.notFound("group") }
        return GroupView(group: stored, me: me)
    }

    /// Hands the group to another active member with an account; the owner's call.
    public func transferOwnership(_ id: UUID, to memberText: String, caller: Caller, origin: RequestOrigin)
        async throws -> GroupView
    {
        let (group, me) = try await access.check(id, caller, for: .archiveOrTransferOwnership)
        guard let target = UUID(uuidString: memberText) else {
            throw AppError.invalid(field: "memberId", message: "memberId is not a member id.")
        }
        // Said, not done silently (found by review: the web then said "Ownership handed over").
        guard target != me.id else {
            throw AppError.invalid(field: "memberId", message: "You are the owner already: choose another member.")
        }
        if target != me.id {
            do {
                try await groups.transferOwnership(
                    groupID: group.id, from: caller.user.id, to: target,
                    actor: GroupAccess.actor(caller, me, origin: origin, for: [.archiveOrTransferOwnership]),
                    now: now())
            } catch GroupStoreError.notOwner {
                throw AppError.forbiddenBecause("Only the owner can hand the group over.")
            } catch GroupStoreError.notFound {
                throw AppError.invalid(field: "memberId", message: "There is no such member in this group.")
            } catch GroupStoreError.ownerMustHaveAccount {
                throw AppError.invalid(
                    field: "memberId", message: "The new owner must be an active member with an account.")
            }
        }
        guard let stored = try await groups.group(id: group.id),
            let myself = try await groups.membership(groupID: group.id, userID: caller.user.id)
        else { throw AppError.notFound("group") }
        return GroupView(group: stored, me: myself)
    }

    /// What an invite code opens, for a logged-in user deciding to join: the group's name and the
    /// members without an account, one of whom they may be. Nil for a code that opens nothing.
    public func invitation(code text: String, caller: Caller, origin: RequestOrigin) async throws -> Invitation? {
        try caller.requireWholeAccount()
        let code = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try await guarding(caller, origin) {
            guard !code.isEmpty, code.utf8.count <= 100, let group = try await groups.group(inviteCode: code) else {
                return nil
            }
            let members = try await groups.members(groupID: group.id)
            let former = members.first { $0.userID == caller.user.id && !$0.isActive }
            var invitation = Invitation(
                name: group.name, claimable: members.filter { $0.isActive && $0.userID == nil }, formerSelf: former,
                formerNameTaken: former.map { former in
                    members.contains { $0.isActive && QuickEntry.sameName($0.name, former.name) }
                } ?? false)
            invitation.waitingAs = try await groups.claims(ofUser: caller.user.id)
                .first { $0.claim.groupID == group.id }?.claim.memberName
            return invitation
        }
    }

    /// The name of the group an invite code opens, for the log-in page a visitor reaches from
    /// the link ("Log in to join Japan 2026"); counted like every code look-up, by address.
    /// Only text shaped like one of our codes is looked up, and these look-ups are counted apart
    /// from joins, so a page that makes a visitor's browser fetch log-in links cannot use up the
    /// join attempts of everyone behind that address.
    public func invitedGroupName(code text: String, origin: RequestOrigin) async throws -> String? {
        let code = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard Self.isCodeText(code, lengths: 8...40) else { return nil }
        return try await guarding(nil, origin, scope: "preview") { try await groups.group(inviteCode: code)?.name }
    }

    /// Lower-case letters and digits only, of a length in `lengths` (the codes this server makes
    /// are 20): anything else is no code of ours and is not looked up.
    static func isCodeText(_ code: String, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(code.utf8.count)
            && code.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            }
    }

    /// What an invite code shows before joining: the group's name and the name-only members one
    /// may claim.
    public struct Invitation: Sendable {
        public let name: String
        public let claimable: [MemberRecord]
        /// The caller's own member, when they left or were removed: joining brings it back (their
        /// shares and balance), not a claim of another name.
        public let formerSelf: MemberRecord?
        /// Someone in the group has `formerSelf`'s name now: they come back under another.
        public let formerNameTaken: Bool
        /// The name-only member the caller asked to be, waiting for an owner or admin (found by
        /// a new user: the link opened the same choice again, saying nothing of the request).
        public var waitingAs: String? = nil
    }

    /// What joining did: joined, or asked an owner or admin to say the caller is that member.
    public enum JoinResult: Sendable, Equatable {
        case joined(GroupView)
        case pending(groupName: String, MemberClaim)
    }

    /// Joins the group behind an invite code, as a new member or as the name-only member
    /// `memberId` ("I am Aki"). Claiming a member who has paid, owed, sent or received money
    /// waits for an owner or admin (the code alone does not hand over a balance).
    /// `memberName` names the member to become instead of `memberId` (any case), for clients
    /// that cannot list the group first.
    public func join(
        code text: String, memberId: String?, memberName: String? = nil, name: String?, caller: Caller,
        origin: RequestOrigin
    ) async throws -> JoinResult {
        try caller.requireWholeAccount()
        // Codes are typed from chat messages: case does not matter, anything else is no code of ours.
        let code = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var claim = try memberId.map { text in
            guard let id = UUID(uuidString: text) else {
                throw AppError.invalid(field: "memberId", message: "memberId is not a member id.")
            }
            return id
        }
        if let wanted = Names.optional(memberName)?.trimmingCharacters(in: .whitespacesAndNewlines) {
            guard claim == nil else {
                throw AppError.invalid(field: "memberName", message: "Give memberId or memberName, not both.")
            }
            // The invitation is read as the web's join page reads it (and counted the same way).
            guard let invitation = try await invitation(code: text, caller: caller, origin: origin) else {
                throw AppError.notFound("invite code")
            }
            guard let match = invitation.claimable.first(where: { QuickEntry.sameName($0.name, wanted) }) else {
                let names = invitation.claimable.map(\.name).sorted()
                throw AppError.invalid(
                    field: "memberName",
                    message: names.isEmpty
                        ? "Everyone in \(invitation.name) has an account already: join as yourself."
                        : "No one in \(invitation.name) is called “\(wanted.prefix(100))” without an account; the names are: "
                            + names.joined(separator: ", ") + ".")
            }
            claim = match.id
        }
        let name = try Names.optional(name).map { try Names.name($0, field: "name") } ?? caller.user.displayName
        do {
            let joined = try await guarding(caller, origin) { () -> JoinResult? in
                guard Self.isCodeText(code, lengths: 1...100) else { return nil }
                switch try await groups.join(
                    inviteCode: code, userID: caller.user.id, name: name, claimMemberID: claim, now: now())
                {
                case .joined(let group, let member): return .joined(GroupView(group: group, me: member))
                case .pending(let group, let claim): return .pending(groupName: group.name, claim)
                }
            }
            guard let joined else { throw AppError.notFound("invite code") }
            return joined
        } catch GroupStoreError.notFound {
            throw claim == nil
                ? AppError.notFound("invite code")
                : AppError.notFoundBecause(
                    "No such invite code, or no such member in that group.")
        } catch GroupStoreError.memberAlreadyClaimed {
            throw AppError.conflict(
                code: "conflict", field: "memberId", message: "That member is linked to another account already.")
        } catch GroupStoreError.claimWaiting {
            throw AppError.conflict(
                code: "conflict", field: "memberId",
                message: "Someone else has asked to be that member; an owner or admin of the group decides.")
        } catch GroupStoreError.nameOfNameOnlyMember(let taken) {
            throw AppError.conflict(
                code: "conflict", field: "name",
                message: "“\(taken)” is in this group already, without an account. If that is you, join as "
                    + "\(taken); if not, join under another name.")
        } catch GroupStoreError.nameTaken(let taken) {
            throw AppError.conflict(
                code: "conflict", field: "name",
                message: "There is already a member called \(taken) in this group: join under another name.")
        }
    }
}

/// Names and descriptions as people type them.
public enum Names {
    /// Nil for absent or blank text.
    public static func optional(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// A name of 1–100 characters, trimmed.
    public static func name(_ raw: String, field: String) throws -> String {
        guard let name = AccountInput.normalizedDisplayName(raw) else {
            if raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw AppError.invalid(field: field, message: "Type a name.")
            }
            throw AppError.invalid(
                field: field, message: "A name has 1 to 100 visible characters, without direction controls.")
        }
        return name
    }

    static func groupDescription(_ text: String?) throws -> String {
        let description = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard description.unicodeScalars.count <= 1_000,
            !AccountInput.containsControlCharacters(description, allowingLineBreaks: true)
        else {
            throw AppError.invalid(
                field: "description", message: "A description has at most 1,000 characters and no control characters.")
        }
        return description
    }
}
