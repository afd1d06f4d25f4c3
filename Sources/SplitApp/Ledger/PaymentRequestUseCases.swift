import Foundation
import SplitCore
import SplitStore

/// A payment request as entered.
public struct EnteredPaymentRequest: Sendable, Equatable {
    public var amount: String
    public var currency: String
    public var toMemberId: String?
    public var expiresInSeconds: Int?
    public var note: String?

    public init(amount: String, currency: String, toMemberId: String? = nil, expiresInSeconds: Int? = nil, note: String? = nil) {
        self.amount = amount
        self.currency = currency
        self.toMemberId = toMemberId
        self.expiresInSeconds = expiresInSeconds
        self.note = note
    }
}

/// A request as a member of its group sees it.
public struct PaymentRequestView: Sendable, Equatable {
    public let request: PaymentRequestRecord
    /// open, locked, paid, cancelled or expired, now.
    public let state: String
    public let payeeName: String
    public let payerName: String?
    public let groupName: String
}

/// What anyone with the code sees (issue 19): who asks, how much, in which group, until when —
/// no email, no member ids, no balances.
public struct ResolvedPaymentRequest: Sendable, Equatable {
    public let code: String
    public let payeeName: String
    public let amount: Int64
    public let currency: String
    public let groupName: String
    public let expiresAt: Int64
    /// open, locked or paid (an expired or cancelled code is not found).
    public let state: String
    public let lockedUntil: Int64?
    /// The group's time zone, for its times as its pages show them.
    public var timeZone = "UTC"
    /// The caller asked for it (their member is its payee): they share it, nobody pays it to them here.
    public var isCallers = false
    /// Why the signed-in caller cannot pay it, said before they press Pay (found by review: a
    /// member told only after that it was for someone else; a viewer or someone outside the
    /// group shown a Pay button that could only fail). Nil when they may, or are not signed in.
    /// Names no one but the payee to anyone outside the group.
    public var cannotPay: String? = nil
    /// For a signed-in member who may pay it: the group, the payee's member and theirs (for
    /// what Settle up says between the two). Never on the wire.
    public var payable: (groupID: UUID, payee: UUID, payer: UUID)? = nil
    /// The caller's member holds it now (found by a new user: a reload of the pay page during
    /// the hold lost its "I paid" button).
    public var heldByCaller = false
    /// What the payee wrote with it ("ski rental"), for a signed-in member of its group (found by
    /// a new user: the one asked never saw it); nil for anyone else, or when there is none.
    public var note: String? = nil
    /// It asks the signed-in caller's member by name: the page speaks to them ("Mira asks you").
    public var asksCaller = false

    public static func == (lhs: ResolvedPaymentRequest, rhs: ResolvedPaymentRequest) -> Bool {
        (lhs.code, lhs.payeeName, lhs.amount, lhs.currency) == (rhs.code, rhs.payeeName, rhs.amount, rhs.currency)
            && (lhs.groupName, lhs.expiresAt, lhs.state, lhs.timeZone) == (rhs.groupName, rhs.expiresAt, rhs.state, rhs.timeZone)
            && (lhs.lockedUntil, lhs.isCallers, lhs.cannotPay) == (rhs.lockedUntil, rhs.isCallers, rhs.cannotPay)
            && lhs.payable?.groupID == rhs.payable?.groupID && lhs.payable?.payer == rhs.payable?.payer
            && lhs.note == rhs.note && lhs.asksCaller == rhs.asksCaller
    }
}

/// The short code of a payment request: 10 characters of Crockford's base32 (50 random bits,
/// from the system's generator; never derived from an id), read in any case, with or without
/// dashes and spaces, and with the letters people confuse (I, L → 1; O → 0) taken as meant.
public enum PaymentCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 10

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    /// The code in its stored form, or nil when it cannot be one.
    public static func normalized(_ text: String) -> String? {
        var code = ""
        // Anything but letters and digits only separates: dashes of any kind, spaces, "+" (a
        // form's space, left so in a query), a full stop copied from a chat (found by new users:
        // "5J4PC MVPG2", "09FZT–6DM0M" and "1B8EK-DGJ6F." were not found).
        for character in text.uppercased() where character.isLetter || character.isNumber {
            switch character {
            case "I", "L": code.append("1")
            case "O": code.append("0")
            default:
                guard alphabet.contains(character) else { return nil }
                code.append(character)
            }
            if code.count > length { return nil }
        }
        return code.count == length ? code : nil
    }
}

/// Payment requests (issue 19): a member asks to be paid; a payer resolves the short code, locks
/// the request (first lock wins, 2 minutes, renewable by the same payer) and pays it once, which
/// records one transfer in the group. States: open → locked → paid, or cancelled, or expired.
public struct PaymentRequestUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64
    let codeGuesses: GroupUseCases.CodeGuesses?
    let makeCode: @Sendable () -> String

    /// Default and longest time a request stays open; how long a lock holds.
    public static let defaultExpirySeconds = 15 * 60
    public static let longestExpirySeconds = 7 * 86_400
    public static let lockMilliseconds: Int64 = 120_000

    /// - Parameter guessLimit: unknown codes allowed per client address (and per user) in a
    ///   window, shared with nothing else (nil: unlimited, for tests of other things).
    public init(
        database: Database, now: @escaping @Sendable () -> Int64, guessLimit: RateLimiter.Rule? = nil,
        makeCode: @escaping @Sendable () -> String = PaymentCode.generate
    ) {
        self.database = database
        self.now = now
        self.makeCode = makeCode
        codeGuesses = guessLimit.map {
            GroupUseCases.CodeGuesses(limiter: RateLimiter(attempts: AttemptStore(database: database), now: now), rule: $0)
        }
    }

    /// Makes a request; the caller's member is the payee. A retry with the same idempotency key
    /// gets its first answer (`render` makes it in the caller's wire format, before the request is
    /// stored with it), even if the request would no longer pass; the key with another request
    /// is a 422, and nothing is made.
    public func create(
        _ entered: EnteredPaymentRequest, groupID: UUID, caller: Caller, origin: RequestOrigin,
        idempotency: IdempotencyRequest? = nil,
        render: @Sendable (PaymentRequestView) async throws -> StoredResponse
    ) async throws -> IdempotencyOutcome<PaymentRequestView> {
        let claim = try idempotency.map { try $0.claim(for: caller) }
        if let claim, let stored = try await self.idempotency.lookup(claim) {
            guard case .replayed(let response) = stored else { throw AppError.idempotencyKeyReused }
            return .replayed(response)
        }
        let action = GroupAction.recordSettlement(isParty: true)
        let (group, me) = try await access.check(groupID, caller, for: action)
        let currency = try await groupCurrency(
            try MoneyInput.currency(entered.currency, field: "currency"), of: group, field: "currency")
        let amount = try MoneyInput.amount(entered.amount, currency, field: "amount")
        guard amount > 0 else { throw AppError.invalid(field: "amount", message: "A request is for more than zero.") }
        let seconds = entered.expiresInSeconds ?? Self.defaultExpirySeconds
        guard (60...Self.longestExpirySeconds).contains(seconds) else {
            throw AppError.invalid(field: "expiresInSeconds", message: "A request lasts from 60 seconds to 7 days.")
        }
        var payer: MemberRecord?
        if let text = entered.toMemberId {
            let id = try MoneyInput.member(text, field: "toMemberId")
            guard let member = try await groups.members(groupID: group.id).first(where: { $0.id == id.uuid }) else {
                throw AppError.invalid(field: "toMemberId", message: "There is no such member in this group.")
            }
            // One who left or was removed is said so (found by a new user: "no such member"); a
            // request asks someone who can open it in the group: record their transfer instead.
            guard member.isActive else {
                throw AppError.invalid(
                    field: "toMemberId",
                    message: "\(MemberLabel.name(member.name, active: false, left: member.hasLeft)) is no longer in the group "
                        + "and cannot pay a request here: record the transfer when they pay you.")
            }
            guard member.id != me.id else {
                throw AppError.invalid(field: "toMemberId", message: "A request asks someone else.")
            }
            // A viewer records no payment, so could never pay it (found by review).
            guard member.role != .viewer else {
                throw AppError.invalid(
                    field: "toMemberId",
                    message: "\(member.name) is a viewer and cannot pay a request here: record the transfer when they pay you.")
            }
            payer = member
        }
        let note = entered.note?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard note.unicodeScalars.count <= 200, !AccountInput.containsControlCharacters(note, allowingLineBreaks: false)
        else { throw AppError.invalid(field: "note", message: "A note has at most 200 characters, on one line.") }
        let current = now()
        // A code is drawn again in the (astronomically rare) case it is taken.
        for _ in 0..<5 {
            let request = PaymentRequestRecord(
                id: UUID.random(), groupID: group.id, code: makeCode(), payeeMemberID: me.id, payerMemberID: payer?.id,
                amount: amount, currency: currency.code, note: note, expiresAt: current + Int64(seconds) * 1_000,
                createdByUserID: caller.user.id, createdAt: current)
            let view = PaymentRequestView(
                request: request, state: "open", payeeName: me.name, payerName: payer?.name, groupName: group.name)
            let response = try await render(view)
            do {
                switch try await requests.create(
                    request, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), claim: claim,
                    response: response)
                {
                case nil: continue
                case .created: return .created(view, response)
                case .replayed(let stored): return .replayed(stored)
                case .keyReused: throw AppError.idempotencyKeyReused
                }
            } catch PaymentRequestError.groupGone {
                throw AppError.notFound("group")
            }
        }
        throw AppError.conflict(code: "conflict", field: nil, message: "No free code was found; try again.")
    }

    public func list(groupID: UUID, caller: Caller) async throws -> [PaymentRequestView] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let names = Dictionary(uniqueKeysWithValues: try await groups.members(groupID: group.id).map { ($0.id, $0.name) })
        let current = now()
        return try await requests.requests(groupID: group.id).map {
            PaymentRequestView(
                request: $0, state: $0.state(at: current), payeeName: names[$0.payeeMemberID] ?? "",
                payerName: $0.payerMemberID.flatMap { names[$0] }, groupName: group.name)
        }
    }

    /// Cancels a request: its payee, or the group's owner or an admin.
    public func cancel(_ id: UUID, caller: Caller, origin: RequestOrigin) async throws -> PaymentRequestView {
        guard let found = try await requests.request(id: id) else { throw AppError.notFound("payment request") }
        let (group, me) = try await access.check(found.groupID, caller, for: .read, asUnknown: "payment request")
        let own = found.payeeMemberID == me.id
        let action: GroupAction = own ? .recordSettlement(isParty: true) : .updateGroup
        try GroupAccess.require([action], me, in: group)
        do {
            let cancelled = try await requests.cancel(
                id: id, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]), now: now())
            return try await view(cancelled, group: group)
        } catch PaymentRequestError.busy(let until) {
            throw AppError.conflict(
                code: "busy", field: nil,
                message: "Someone is paying this request right now (their hold ends at \(ZonedTime.moment(until, in: group.timeZone, now: now()))); it cannot be cancelled until then.")
        } catch PaymentRequestError.state(let state) {
            throw AppError.conflict(code: state, field: nil, message: "This request is \(state); only an open one can be cancelled.")
        } catch PaymentRequestError.notFound, PaymentRequestError.groupGone {
            throw AppError.notFound("payment request")
        }
    }

    /// What a code shows anyone, logged in or not. Unknown, expired and cancelled codes answer
    /// alike (not found), and count against the client address (and the user) like wrong
    /// invite codes, so guessing is hopeless (docs/design.md: the numbers).
    public func resolve(_ text: String, caller: Caller?, origin: RequestOrigin) async throws -> ResolvedPaymentRequest {
        let found: ResolvedPaymentRequest? = try await guarding(caller, origin) {
            guard let code = PaymentCode.normalized(text), let request = try await requests.request(code: code) else {
                return nil
            }
            let state = request.state(at: now())
            guard let group = try await groups.group(id: request.groupID) else { return nil }
            guard ["open", "locked", "paid"].contains(state) else {
                // To a member of its group, why (found by a new user: an expired code was "No such
                // payment request" while `request list` showed it expired); to anyone else, nothing.
                guard let caller, caller.reaches(group.id),
                    try await groups.members(groupID: group.id).contains(where: { $0.userID == caller.user.id && $0.isActive })
                else { return nil }
                throw AppError.notFoundBecause(
                    state == "expired"
                        ? "This payment request expired at \(ZonedTime.moment(request.expiresAt, in: group.timeZone, now: now())); ask for a new one."
                        : "This payment request was cancelled; ask for a new one if it is still owed.")
            }
            let members = try await groups.members(groupID: group.id)
            // A payee removed from the group asks nobody any more.
            guard let payee = members.first(where: { $0.id == request.payeeMemberID && $0.isActive }) else { return nil }
            let me = caller.flatMap { caller in members.first { $0.userID == caller.user.id && $0.isActive } }
            let addressed = request.payerMemberID.flatMap { payer in members.first { $0.id == payer } }
            var cannotPay: String?
            if caller != nil, me == nil {
                cannotPay = "You need to be in \(group.name) to pay it here: ask \(payee.name) for the invite code, or pay \(payee.name) and ask them to record it."
            } else if let me, me.id != payee.id {
                if let addressed, addressed.id != me.id {
                    // One without an account yet pays it once they join as themself (found by a
                    // new user: "only they can pay it" of someone who could not log in).
                    cannotPay =
                        addressed.userID == nil
                        ? "This request is for \(addressed.name), who has no account yet: \(addressed.name) pays it after "
                            + "joining \(group.name) as \(addressed.name) (\(payee.name) has the invite link). If you pay for "
                            + "\(addressed.name), pay \(payee.name) and record the transfer."
                        : "This request is for \(addressed.name): only they can pay it. Ask \(payee.name) for one of your own if you owe them."
                } else if me.role == .viewer {
                    cannotPay = "Viewers do not record payments in \(group.name): pay \(payee.name), and they record it."
                } else if group.isArchived {
                    cannotPay = "\(group.name) is archived, so no payment can be recorded in it: ask its owner to "
                        + "bring it back, or pay \(payee.name) and have it recorded then."
                }
            }
            return ResolvedPaymentRequest(
                code: PaymentCodeText.display(request.code), payeeName: payee.name, amount: request.amount,
                currency: request.currency, groupName: group.name, expiresAt: request.expiresAt, state: state,
                lockedUntil: state == "locked" ? request.lockedUntil : nil, timeZone: group.timeZone,
                isCallers: me?.id == payee.id, cannotPay: cannotPay,
                payable: cannotPay == nil ? me.flatMap { $0.id == payee.id ? nil : (group.id, payee.id, $0.id) } : nil,
                heldByCaller: state == "locked" && me != nil && request.lockedByMemberID == me?.id,
                note: me == nil || request.note.isEmpty ? nil : request.note,
                asksCaller: me != nil && request.payerMemberID == me?.id)
        }
        guard let found else { throw AppError.notFound("payment request") }
        return found
    }

    /// Locks the request for the caller's member for 2 minutes: a member of its group (not a
    /// viewer), not its payee, and the member it is addressed to if it is addressed.
    public func lock(_ text: String, caller: Caller, origin: RequestOrigin) async throws -> PaymentRequestView {
        let (request, group, me) = try await payable(text, caller: caller, origin: origin)
        do {
            let locked = try await requests.lock(
                code: request.code, groupID: group.id, memberID: me.id,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [.recordSettlement(isParty: true)]), now: now(),
                lockMilliseconds: Self.lockMilliseconds)
            return try await view(locked, group: group)
        } catch PaymentRequestError.busy(let until) {
            throw AppError.conflict(
                code: "busy", field: nil,
                message: "Someone else is paying this request; their hold ends at \(ZonedTime.moment(until, in: group.timeZone, now: now())).")
        } catch PaymentRequestError.state(let state) {
            throw AppError.conflict(code: state, field: nil, message: "This request is \(state).")
        } catch PaymentRequestError.notFound {
            throw AppError.notFound("payment request")
        }
    }

    /// Pays a request the caller has locked, once: a transfer from their member to the payee.
    /// One whose hold ran out while nobody else took it is held again and paid (found by a new
    /// user: "I paid" pressed after paying in a bank app, three minutes on, said "Lock the request
    /// first"); one held by someone else is refused. The same key answers the first response;
    /// any other attempt a 409 with the request's state.
    public func pay(
        _ text: String, caller: Caller, origin: RequestOrigin, idempotency: IdempotencyRequest?,
        render: @escaping @Sendable (PaymentRequestView) throws -> StoredResponse, heldAgain: Bool = false
    ) async throws -> IdempotencyOutcome<PaymentRequestView> {
        guard let idempotency else {
            throw AppError.invalid(field: "Idempotency-Key", message: "Paying needs an Idempotency-Key header.")
        }
        let claim = try idempotency.claim(for: caller)
        let (request, group, me) = try await payable(text, caller: caller, origin: origin)
        let action = GroupAction.recordSettlement(isParty: true)
        let names = Dictionary(uniqueKeysWithValues: try await groups.members(groupID: group.id).map { ($0.id, $0.name) })
        do {
            let current = now()
            let outcome = try await requests.pay(
                code: request.code, memberID: me.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [action]),
                date: MoneyInput.today(current, in: group.timeZone), now: current, idempotency: claim
            ) { paid, _ in
                try render(
                    PaymentRequestView(
                        request: paid, state: "paid", payeeName: names[paid.payeeMemberID] ?? "",
                        payerName: paid.payerMemberID.flatMap { names[$0] }, groupName: group.name))
            }
            switch outcome {
            case .created(let paid, let response):
                return .created(
                    PaymentRequestView(
                        request: paid, state: "paid", payeeName: names[paid.payeeMemberID] ?? "",
                        payerName: paid.payerMemberID.flatMap { names[$0] }, groupName: group.name), response)
            case .replayed(let response): return .replayed(response)
            case .keyReused: throw AppError.idempotencyKeyReused
            }
        } catch PaymentRequestError.state("open") where !heldAgain {
            // Held again, then paid; taken by someone else meanwhile, it is theirs (`locked`).
            do {
                _ = try await lock(text, caller: caller, origin: origin)
            } catch AppError.conflict(code: "busy", _, _) {
                throw AppError.conflict(code: "locked", field: nil, message: "Someone else holds this request.")
            }
            return try await pay(text, caller: caller, origin: origin, idempotency: idempotency, render: render, heldAgain: true)
        } catch PaymentRequestError.state(let state) {
            throw AppError.conflict(
                code: state, field: nil,
                message: state == "open"
                    ? "Hold the request first (POST …/lock), then pay it."
                    : state == "locked" ? "Someone else holds this request." : "This request is \(state).")
        } catch PaymentRequestError.notFound, PaymentRequestError.groupGone {
            throw AppError.notFound("payment request")
        }
    }

    /// The request behind a code, its group and the caller's member, when the caller may pay it.
    private func payable(_ text: String, caller: Caller, origin: RequestOrigin) async throws -> (
        PaymentRequestRecord, GroupRecord, MemberRecord
    ) {
        guard let code = PaymentCode.normalized(text) else {
            throw AppError.invalid(field: "code", message: "A code is 10 letters and digits (dashes and case do not matter).")
        }
        let found: PaymentRequestRecord? = try await guarding(caller, origin) { try await requests.request(code: code) }
        guard let request = found else { throw AppError.notFound("payment request") }
        // A stranger to the group learns nothing more than resolving the code showed.
        let (group, me) = try await access.check(
            request.groupID, caller, for: .recordSettlement(isParty: true), asUnknown: "payment request")
        guard try await groups.members(groupID: group.id).contains(where: { $0.id == request.payeeMemberID && $0.isActive })
        else { throw AppError.notFound("payment request") }
        guard request.payeeMemberID != me.id else {
            throw AppError.conflict(code: "own_request", field: nil, message: "This is your own request.")
        }
        if let payer = request.payerMemberID, payer != me.id {
            let name = try await groups.members(groupID: group.id).first { $0.id == payer }?.name
            throw AppError.forbiddenBecause(
                name.map { "This request is for \($0): only they can pay it." } ?? "This request is addressed to another member.")
        }
        return (request, group, me)
    }

    private func view(_ request: PaymentRequestRecord, group: GroupRecord) async throws -> PaymentRequestView {
        let names = Dictionary(uniqueKeysWithValues: try await groups.members(groupID: group.id).map { ($0.id, $0.name) })
        return PaymentRequestView(
            request: request, state: request.state(at: now()), payeeName: names[request.payeeMemberID] ?? "",
            payerName: request.payerMemberID.flatMap { names[$0] }, groupName: group.name)
    }

    /// Looks a code up, counting the codes that find nothing (`CodeGuesses.countingMisses`).
    private func guarding<T: Sendable>(_ caller: Caller?, _ origin: RequestOrigin, _ lookUp: () async throws -> T?)
        async throws -> T?
    {
        guard let codeGuesses else { return try await lookUp() }
        return try await codeGuesses.countingMisses(caller, origin, scope: "pay:", lookUp)
    }
}
