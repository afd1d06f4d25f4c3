import Foundation
import SplitCore
import SplitStore

/// The fields a member edit changes; nil leaves the stored value.
public struct MemberPatch: Sendable, Equatable {
    public var name: String?
    public var role: Role?
    public var canAddExpenses: Bool?
    public var canEditOwnExpenses: Bool?
    public var canEditAllExpenses: Bool?
    public var canMarkPaid: Bool?
    /// `true` restores a removed member (removing is `MemberUseCases.remove`).
    public var active: Bool?
    public var version: Int64?

    public init(
        name: String? = nil, role: Role? = nil, canAddExpenses: Bool? = nil, canEditOwnExpenses: Bool? = nil,
        canEditAllExpenses: Bool? = nil, canMarkPaid: Bool? = nil, active: Bool? = nil, version: Int64? = nil
    ) {
        self.active = active
        self.name = name
        self.role = role
        self.canAddExpenses = canAddExpenses
        self.canEditOwnExpenses = canEditOwnExpenses
        self.canEditAllExpenses = canEditAllExpenses
        self.canMarkPaid = canMarkPaid
        self.version = version
    }
}

/// A group's members (DESIGN §4): name-only members added, names, roles and flags changed,
/// members removed (deactivated, never erased: their shares and history stay).
public struct MemberUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    public func members(groupID: UUID, caller: Caller) async throws -> [MemberRecord] {
        try await access.checkWithMembers(groupID, caller, for: .read).members
    }

    /// Adds a member without an account (a friend without the app). A retry of an add that went
    /// through answers as the first time did (DESIGN §5).
    public func add(name: String, id: String?, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> MemberRecord
    {
        let action = GroupAction.manageMembers(.newMember)
        let (group, me) = try await access.check(groupID, caller, for: action)
        let current = now()
        let member = MemberRecord(
            id: try MoneyInput.clientID(id), groupID: group.id, userID: nil, name: try Names.name(name, field: "name"),
            role: .member, createdAt: current, updatedAt: current)
        if let existing = try await groups.member(id: member.id, groupID: group.id), existing.name == member.name {
            return existing  // a retry of this very add
        }
        do {
            try await groups.addMember(member, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]))
        } catch GroupStoreError.nameTaken(let taken), GroupStoreError.nameOfNameOnlyMember(let taken) {
            throw Self.nameTaken(taken)
        } catch  where Database.isUniqueViolation(error) {
            if let existing = try await groups.member(id: member.id, groupID: group.id), existing.name == member.name {
                return existing
            }
            throw AppError.conflict(code: "conflict", field: "id", message: "A member with that id exists already.")
        }
        return member
    }

    /// Changes a member's name, role or flags. Every change is checked before anything is
    /// written, so a refused request changes nothing; the write happens only if the row is still
    /// what the checks saw.
    public func update(
        _ memberText: String, _ patch: MemberPatch, groupID: UUID, caller: Caller, origin: RequestOrigin
    ) async throws -> MemberRecord {
        let (group, me) = try await access.check(groupID, caller, for: .read)
        let target = try await member(memberText, in: group)
        var updated = target
        if let name = patch.name {
            updated.name = try Names.name(name, field: "name")
        }
        if let role = patch.role { updated.role = role }
        updated.canAddExpenses = patch.canAddExpenses ?? target.canAddExpenses
        updated.canEditOwnExpenses = patch.canEditOwnExpenses ?? target.canEditOwnExpenses
        updated.canEditAllExpenses = patch.canEditAllExpenses ?? target.canEditAllExpenses
        updated.canMarkPaid = patch.canMarkPaid ?? target.canMarkPaid
        if let active = patch.active {
            guard active else {
                throw AppError.invalid(field: "active", message: "To remove a member, use remove (DELETE).")
            }
            updated.isActive = true
        }
        let aim = Self.target(target, me: me)
        var needed: [GroupAction] = [.read]
        if updated.name != target.name {
            needed.append(aim == .me ? .renameSelf : .manageMembers(aim))
        }
        if updated.role != target.role {
            needed.append(.changeRole(aim, newRole: updated.role))
        }
        let flagsChanged =
            updated.canAddExpenses != target.canAddExpenses || updated.canEditOwnExpenses != target.canEditOwnExpenses
            || updated.canEditAllExpenses != target.canEditAllExpenses || updated.canMarkPaid != target.canMarkPaid
        if flagsChanged || updated.isActive != target.isActive { needed.append(.manageMembers(aim)) }
        try GroupAccess.require(needed, me, in: group)
        if let version = patch.version, version != target.version { throw AppError.staleMember(target) }
        guard updated != target else { return target }
        return try await write(
            updated, basedOn: target.version, actor: GroupAccess.actor(caller, me, origin: origin, for: needed))
    }

    /// Removes a member: deactivated, never erased, so expenses, shares, balance and history keep
    /// their name, transfers to and from them stay possible, and an owner or admin can restore
    /// them. The owner hands the group over first. A member whose balance is not zero is removed
    /// only with `confirmBalance` (issue 15): the refusal (409 `has_balance`) says the amounts.
    /// A member removing themselves leaves the group (`GroupAction.leave`, any role but owner).
    public func remove(
        _ memberText: String, groupID: UUID, confirmBalance: Bool = false, caller: Caller, origin: RequestOrigin
    ) async throws -> MemberRecord {
        let (group, me) = try await access.check(groupID, caller, for: .read)
        let target = try await member(memberText, in: group)
        // Removing oneself is leaving (found by a new user: nobody could leave a group).
        let leaving = target.id == me.id
        guard target.role != .owner else {
            throw AppError.forbiddenBecause(
                leaving
                    ? "The owner cannot leave; make another member the owner first."
                    : "The owner cannot be removed; transfer ownership first.")
        }
        let action = leaving ? GroupAction.leave : .manageMembers(Self.target(target, me: me))
        try GroupAccess.require([action], me, in: group)
        guard target.isActive else { return target }
        if !confirmBalance, let owing = try await balanceText(of: target, in: group, you: leaving) {
            throw AppError.conflict(
                code: "has_balance", field: "confirmBalance",
                message: leaving
                    ? "\(owing). Leave anyway? Your shares and balance stay, the others can still record transfers "
                        + "with you, and an owner or admin can bring you back."
                    : "\(owing). Remove anyway? Their shares and balance stay, transfers to and from "
                        + "\(target.name) stay possible, and an owner or admin can restore them.")
        }
        var removed = target
        removed.isActive = false
        removed.hasLeft = leaving
        return try await write(
            removed, basedOn: target.version, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]))
    }

    /// What a member owes or is owed ("Cho owes 148.00 MYR"), nil when settled: what a page asks
    /// about before someone leaves.
    public func owing(_ memberText: String, groupID: UUID, caller: Caller) async throws -> String? {
        let (group, me) = try await access.check(groupID, caller, for: .read)
        let target = try await member(memberText, in: group)
        return try await balanceText(of: target, in: group, you: target.id == me.id)
    }

    /// Who asks to be which name-only member (owner, admin): claims of members with money history
    /// wait here (issue 14 item 5).
    public func claims(groupID: UUID, caller: Caller) async throws -> [MemberClaim] {
        let (group, _) = try await access.check(groupID, caller, for: .manageMembers(.newMember))
        return try await groups.claims(groupID: group.id)
    }

    /// What My groups says of claims (found by a new user: nothing, on either side): the
    /// caller's own, waiting for an owner or admin, and how many wait in each of `views` (the
    /// caller's groups) where the caller decides them.
    public func waitingClaims(caller: Caller, in views: [GroupView]) async throws -> (
        mine: [(claim: MemberClaim, groupName: String)], toDecide: [UUID: Int]
    ) {
        let deciding = views.filter { (try? GroupAccess.require([.manageMembers(.newMember)], $0.me, in: $0.group)) != nil }
        return (
            try await groups.claims(ofUser: caller.user.id),
            try await groups.claimCounts(groupIDs: deciding.map(\.group.id))
        )
    }

    /// Says the claimant is that member: the account is linked to it, as a plain member.
    public func approveClaim(_ memberText: String, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> MemberRecord
    {
        let (group, me, action) = try await claimTarget(memberText, groupID: groupID, caller: caller)
        do {
            return try await groups.approveClaim(
                groupID: group.id, memberID: action.member,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [action.needed]), now: now())
        } catch GroupStoreError.notFound {
            throw AppError.notFoundBecause("Nobody is waiting to be that member.")
        } catch GroupStoreError.memberAlreadyClaimed {
            throw AppError.conflict(
                code: "conflict", field: "memberId",
                message: "The person who asked is in the group already, as another member; reject the request instead.")
        }
    }

    /// Refuses a claim: the member stays name-only; the claimant may join as a new member.
    public func rejectClaim(_ memberText: String, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws {
        let (group, me, action) = try await claimTarget(memberText, groupID: groupID, caller: caller)
        do {
            try await groups.rejectClaim(
                groupID: group.id, memberID: action.member,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [action.needed]), now: now())
        } catch GroupStoreError.notFound {
            throw AppError.notFoundBecause("Nobody is waiting to be that member.")
        }
    }

    /// Deciding a claim is managing the claimed member.
    private func claimTarget(_ memberText: String, groupID: UUID, caller: Caller) async throws
        -> (GroupRecord, MemberRecord, (member: UUID, needed: GroupAction))
    {
        let (group, me) = try await access.check(groupID, caller, for: .manageMembers(.newMember))
        let target = try await member(memberText, in: group)
        let needed = GroupAction.manageMembers(Self.target(target, me: me))
        try GroupAccess.require([needed], me, in: group)
        return (group, me, (target.id, needed))
    }

    /// A name another active member has (any case or accents; `GroupStore.requireFreeName`): two
    /// active members called the same could not be told apart in a list (issue 15).
    static func nameTaken(_ name: String) -> AppError {
        .invalid(field: "name", message: "There is already a member called \(name) in this group; pick another name.")
    }

    /// "Cho owes 148.00 MYR" / "Cho is owed 12 JPY and owes 3.00 USD"; nil when every net is zero.
    /// `you`: said to the member themself ("You owe 148.00 MYR").
    private func balanceText(of member: MemberRecord, in group: GroupRecord, you: Bool = false) async throws -> String? {
        let view = try await LedgerUseCases(database: database, now: now).balances(of: group)
        let nets = view.nets.filter { $0.memberID == member.id && $0.net != 0 }.sorted { $0.currency < $1.currency }
        // Counted in the home currency, charged amounts can leave something where each currency
        // is even (found by review: then nothing was asked).
        let home = view.homePlanFirst ? view.homeBalances.map { $0[MemberID(member.id)] ?? 0 } : nil
        guard !nets.isEmpty || (home ?? 0) != 0 else { return nil }
        func amounts(_ nets: [BalanceRecord]) -> String {
            nets.map { net in
                // Grouped as everywhere else ("12,321 JPY"; found by review: it said "12321 JPY").
                (try? Currency(code: net.currency)).map { Money(minorUnits: abs(net.net), currency: $0).description }
                    ?? "\(MoneyInput.text(abs(net.net), net.currency)) \(net.currency)"
            }.joined(separator: " and ")
        }
        // "You owe 32.00 EUR and 1,667 JPY, and are owed 5.00 USD" (it said "owe … and owe …").
        let owes = nets.filter { $0.net < 0 }
        let owed = nets.filter { $0.net > 0 }
        let parts =
            (owes.isEmpty ? [] : ["owe\(you ? "" : "s") \(amounts(owes))"])
            + (owed.isEmpty ? [] : ["\(you ? "are" : "is") owed \(amounts(owed))"])
        let subject = you ? "You" : member.name
        let each = "\(subject) \(parts.joined(separator: ", and "))"
        // Several currencies that Settle up counts together in the home one: what that comes to
        // first, as Settle up says it (found by a new user: "You owe 4,417 JPY, and are owed
        // 28.75 USD" beside "Everyone is settled up").
        guard let home else { return each }
        let total = Money(minorUnits: abs(home), currency: view.home).description
        let counted = "everything counted in \(view.home.code)"
        let said =
            home == 0
            ? "\(you ? "You are" : "\(member.name) is") settled up, \(counted)"
            : home < 0
                ? "\(subject) owe\(you ? "" : "s") \(total), \(counted)" : "\(subject) \(you ? "are" : "is") owed \(total), \(counted)"
        // Each currency's own figures when they say something the total does not: several of
        // them, or one that is not that total.
        let sameAsTotal = nets.isEmpty || (nets.count == 1 && nets[0].currency == view.home.code && nets[0].net == home)
        return sameAsTotal ? said : "\(said) (in each currency: \(you ? "you" : member.name) \(parts.joined(separator: ", and ")))"
    }

    /// The member an action is aimed at, as the permission table sees it.
    public static func target(_ member: MemberRecord, me: MemberRecord) -> MemberTarget {
        member.id == me.id ? .me : .other(member.role)
    }

    /// A member of this group by its id; an unknown, malformed or foreign id is the same 404.
    private func member(_ text: String, in group: GroupRecord) async throws -> MemberRecord {
        guard let id = UUID(uuidString: text), let member = try await groups.member(id: id, groupID: group.id) else {
            throw AppError.notFound("member")
        }
        return member
    }

    private func write(_ member: MemberRecord, basedOn version: Int64, actor: Actor) async throws -> MemberRecord {
        let written: VersionedWrite<MemberRecord>?
        do {
            written = try await groups.updateMember(member, expectedVersion: version, actor: actor, now: now())
        } catch GroupStoreError.nameTaken(let taken), GroupStoreError.nameOfNameOnlyMember(let taken) {
            throw Self.nameTaken(taken)
        }
        switch written {
        case .written(let stored): return stored
        case .stale(let current): throw AppError.staleMember(current)
        case nil: throw AppError.notFound("member")
        }
    }
}
