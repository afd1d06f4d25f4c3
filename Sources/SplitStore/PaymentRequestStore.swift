import Foundation
import SQLKit
import SplitCore

/// A payment request (issue 19): a member asks to be paid an amount in a group; a payer finds it
/// by its short code, locks it (first lock wins) and pays it once, which records one transfer.
public struct PaymentRequestRecord: Sendable, Equatable {
    /// What the state column holds; `expired` is worked out from the time, never stored.
    public enum Status: String, Sendable {
        case open, locked, paid, cancelled
    }

    public var id: UUID
    public var groupID: UUID
    /// Crockford base32, upper case, without dashes (`PaymentCode`).
    public var code: String
    public var payeeMemberID: UUID
    /// The member asked, when the request is addressed to one.
    public var payerMemberID: UUID?
    public var amount: Int64
    public var currency: String
    public var note: String
    public var status: Status
    public var lockedByMemberID: UUID?
    public var lockedByUserID: UUID?
    public var lockedUntil: Int64?
    public var paidByMemberID: UUID?
    public var settlementID: UUID?
    public var paidAt: Int64?
    public var expiresAt: Int64
    public var createdByUserID: UUID
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: UUID, groupID: UUID, code: String, payeeMemberID: UUID, payerMemberID: UUID?, amount: Int64,
        currency: String, note: String, expiresAt: Int64, createdByUserID: UUID, createdAt: Int64
    ) {
        self.id = id
        self.groupID = groupID
        self.code = code
        self.payeeMemberID = payeeMemberID
        self.payerMemberID = payerMemberID
        self.amount = amount
        self.currency = currency
        self.note = note
        status = .open
        self.expiresAt = expiresAt
        self.createdByUserID = createdByUserID
        self.createdAt = createdAt
        updatedAt = createdAt
    }

    /// The state at `now`: open → locked → paid, or cancelled, or expired. A hold taken before
    /// the expiry lets its payer finish (they may be paying by bank right now): the request is
    /// locked until the hold ends, then expired if its time is up, else open again.
    public func state(at now: Int64) -> String {
        switch status {
        case .paid: "paid"
        case .cancelled: "cancelled"
        case .open, .locked:
            if status == .locked, let until = lockedUntil, until > now { "locked" } else if now >= expiresAt { "expired" } else { "open" }
        }
    }
}

public enum PaymentRequestError: Error, Equatable, Sendable {
    /// Another payer holds the lock until then (ms).
    case busy(until: Int64)
    /// The request cannot be locked or paid in this state ("paid", "cancelled", "expired", "open").
    case state(String)
    /// The code (or id) names no request.
    case notFound
    /// The group's write right was refused inside the transaction.
    case groupGone
}

public struct PaymentRequestStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Inserts a new request, once per idempotency key: with `claim`, the key is claimed in the
    /// same transaction and answers `response` from then on; a key claimed before gets its
    /// stored answer (`.replayed`) or `.keyReused`, and nothing is written. Nil when the code
    /// is taken (the caller draws another).
    public func create(
        _ request: PaymentRequestRecord, actor: Actor, claim: IdempotencyClaim? = nil, response: StoredResponse? = nil
    ) async throws -> IdempotencyOutcome<PaymentRequestRecord>? {
        do {
            return try await database.transaction { sql in
                guard
                    let log = try await GroupLog.begin(
                        sql, groupID: request.groupID, now: request.createdAt, actor: actor,
                        involving: [request.payeeMemberID] + (request.payerMemberID.map { [$0] } ?? []))
                else { throw PaymentRequestError.groupGone }
                return try await Idempotency.run(claim, now: request.createdAt, expected: response, sql) {
                    try await sql.raw(
                        """
                        INSERT INTO payment_requests (id, group_id, code, payee_member_id, payer_member_id, amount, currency,
                            note, status, expires_at, created_by_user_id, created_at, updated_at)
                        VALUES (\(bind: request.id.text), \(bind: request.groupID.text), \(bind: request.code),
                            \(bind: request.payeeMemberID.text), \(bind: request.payerMemberID?.text), \(bind: request.amount),
                            \(bind: request.currency), \(bind: request.note), \(bind: request.status.rawValue),
                            \(bind: request.expiresAt), \(bind: request.createdByUserID.text), \(bind: request.createdAt),
                            \(bind: request.updatedAt))
                        """
                    ).run()
                    // Whom it asks, so their line says "asked you to pay", and which request, for
                    // its link (found by a new user: the asked one could not find it).
                    var payer: String?
                    if let id = request.payerMemberID { payer = try await SettlementStore.memberNames([id], sql)[id] }
                    try await log.activity(
                        actor, "payment_request.created", .group, request.groupID,
                        ActivityEvent(
                            amount: request.amount, currency: request.currency, to: payer, toID: request.payerMemberID,
                            requestID: request.id),
                        concerning: request.payerMemberID.map { [$0] } ?? [], sql)
                    return (request, response ?? StoredResponse(status: 201, body: Data()))
                }
            }
        } catch where Database.isUniqueViolation(error) {
            return nil
        }
    }

    public func request(code: String) async throws -> PaymentRequestRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM payment_requests WHERE code = \(bind: code)").first()
        }.map(PaymentRequestRecord.init(row:))
    }

    public func request(id: UUID) async throws -> PaymentRequestRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM payment_requests WHERE id = \(bind: id.text)").first()
        }.map(PaymentRequestRecord.init(row:))
    }

    /// Newest first.
    public func requests(groupID: UUID, limit: Int = 200) async throws -> [PaymentRequestRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM payment_requests WHERE group_id = \(bind: groupID.text)
                ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)
                """
            ).all()
        }.map(PaymentRequestRecord.init(row:))
    }

    /// Locks an open request (or one whose lock has ended, or the same payer's own lock again)
    /// for `lockMilliseconds`. One statement: of payers who lock at once, exactly one wins. The
    /// payer's right to pay is decided again under the group's lock first (`actor`'s grant), as
    /// every write's is: a member removed since the early check holds nothing. A hold is not in
    /// the change feed: no change number is taken.
    public func lock(code: String, groupID: UUID, memberID: UUID, actor: Actor, now: Int64, lockMilliseconds: Int64)
        async throws -> PaymentRequestRecord
    {
        let until = now + lockMilliseconds
        let userID = actor.userID
        let locked = try await database.transaction { sql in
            if let grant = actor.grant { try await GroupLog.decide(sql, groupID: groupID, grant: grant) }
            return try await sql.raw(
                """
                UPDATE payment_requests
                SET status = 'locked', locked_by_member_id = \(bind: memberID.text), locked_by_user_id = \(bind: userID.text),
                    locked_until = \(bind: until), updated_at = \(bind: now)
                WHERE code = \(bind: code) AND group_id = \(bind: groupID.text) AND expires_at > \(bind: now)
                      AND (status = 'open'
                           OR (status = 'locked' AND (locked_until <= \(bind: now) OR locked_by_user_id = \(bind: userID.text))))
                -- (a hold is renewed only while the request has time left; past it, the hold runs out)
                RETURNING *
                """
            ).first()
        }
        if let locked { return try PaymentRequestRecord(row: locked) }
        guard let current = try await request(code: code) else { throw PaymentRequestError.notFound }
        let state = current.state(at: now)
        if state == "locked", let until = current.lockedUntil { throw PaymentRequestError.busy(until: until) }
        throw PaymentRequestError.state(state)
    }

    /// Cancels an open request. While a payer holds it (they may be paying right now) the answer
    /// is `busy`; a paid, cancelled or expired one says its state. Locks in the order every write
    /// takes them: the group's row first (`GroupLog.begin`), then the request's.
    public func cancel(id: UUID, actor: Actor, now: Int64) async throws -> PaymentRequestRecord {
        let forUpdate = database.forUpdate
        guard let found = try await request(id: id) else { throw PaymentRequestError.notFound }
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: found.groupID, now: now, actor: actor) else {
                throw PaymentRequestError.groupGone
            }
            guard
                let row = try await sql.raw("SELECT * FROM payment_requests WHERE id = \(bind: id.text)\(unsafeRaw: forUpdate)")
                    .first()
            else { throw PaymentRequestError.notFound }
            var request = try PaymentRequestRecord(row: row)
            let state = request.state(at: now)
            if state == "locked", let until = request.lockedUntil { throw PaymentRequestError.busy(until: until) }
            guard state == "open" else { throw PaymentRequestError.state(state) }
            try await sql.raw(
                """
                UPDATE payment_requests SET status = 'cancelled', updated_at = \(bind: now)
                WHERE id = \(bind: id.text) AND status IN ('open', 'locked')
                """
            ).run()
            request.status = .cancelled
            request.updatedAt = now
            // The one it asked hears of it, as of the request (found by a new user: asked by mail,
            // then nothing when it was cancelled).
            try await log.activity(
                actor, "payment_request.cancelled", .group, request.groupID,
                ActivityEvent(amount: request.amount, currency: request.currency, requestID: request.id),
                concerning: request.payerMemberID.map { [$0] } ?? [], sql)
            return request
        }
    }

    /// Pays a request the caller has locked: one transfer from the payer's member to the payee's,
    /// and the request marked paid, in one transaction under the idempotency key (the same key
    /// answers the first response; the request is paid once whatever the keys).
    public func pay(
        code: String, memberID: UUID, actor: Actor, date: String, now: Int64, idempotency: IdempotencyClaim,
        render: @escaping @Sendable (PaymentRequestRecord, SettlementRecord) throws -> StoredResponse
    ) async throws -> IdempotencyOutcome<PaymentRequestRecord> {
        let forUpdate = database.forUpdate
        guard let found = try await request(code: code) else { throw PaymentRequestError.notFound }
        return try await database.transaction { sql in
            guard let log = try await GroupLog.begin(sql, groupID: found.groupID, now: now, actor: actor) else {
                throw PaymentRequestError.groupGone
            }
            return try await Idempotency.run(idempotency, now: now, sql) {
                guard
                    let row = try await sql.raw(
                        "SELECT * FROM payment_requests WHERE id = \(bind: found.id.text)\(unsafeRaw: forUpdate)"
                    ).first()
                else { throw PaymentRequestError.notFound }
                var request = try PaymentRequestRecord(row: row)
                let state = request.state(at: now)
                guard state == "locked", request.lockedByUserID == actor.userID, request.lockedByMemberID == memberID else {
                    throw PaymentRequestError.state(state)
                }
                let settlement = SettlementRecord(
                    id: UUID.random(), groupID: request.groupID, fromMemberID: memberID, toMemberID: request.payeeMemberID,
                    amount: request.amount, currency: request.currency, date: date,
                    note: request.note.isEmpty ? "Payment request \(PaymentCodeText.display(request.code))" : request.note,
                    createdByUserID: actor.userID, createdAt: now, updatedAt: now)
                // Its own line ("paid a payment request") is the one people are told of.
                try await SettlementStore.record(settlement, log: log, actor: actor, notifying: false, sql)
                try await sql.raw(
                    """
                    UPDATE payment_requests
                    SET status = 'paid', paid_by_member_id = \(bind: memberID.text), settlement_id = \(bind: settlement.id.text),
                        paid_at = \(bind: now), locked_until = NULL, updated_at = \(bind: now)
                    WHERE id = \(bind: request.id.text)
                    """
                ).run()
                request.status = .paid
                request.paidByMemberID = memberID
                request.settlementID = settlement.id
                request.paidAt = now
                request.lockedUntil = nil
                request.updatedAt = now
                // Whose request, so its payee reads "paid your payment request".
                let payee = try await SettlementStore.memberNames([request.payeeMemberID], sql)[request.payeeMemberID]
                try await log.activity(
                    actor, "payment_request.paid", .settlement, settlement.id,
                    ActivityEvent(
                        amount: request.amount, currency: request.currency, to: payee, toID: request.payeeMemberID),
                    concerning: [request.payeeMemberID, memberID], sql)
                return (request, try render(request, settlement))
            }
        }
    }
}

/// A code as people see it: two groups of five (`7K3QM-XW9TD`).
public enum PaymentCodeText {
    public static func display(_ code: String) -> String {
        guard code.count == 10 else { return code }
        return String(code.prefix(5)) + "-" + String(code.suffix(5))
    }
}

extension PaymentRequestRecord {
    init(row: any SQLRow) throws {
        self.init(
            id: try row.decodeUUID("id"), groupID: try row.decodeUUID("group_id"),
            code: try row.decode(column: "code", as: String.self),
            payeeMemberID: try row.decodeUUID("payee_member_id"),
            payerMemberID: try row.decode(column: "payer_member_id", as: String?.self).flatMap(UUID.init(uuidString:)),
            amount: try row.decode(column: "amount", as: Int64.self),
            currency: try row.decode(column: "currency", as: String.self),
            note: try row.decode(column: "note", as: String.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            createdByUserID: try row.decodeUUID("created_by_user_id"),
            createdAt: try row.decode(column: "created_at", as: Int64.self))
        status = Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .cancelled
        lockedByMemberID = try row.decode(column: "locked_by_member_id", as: String?.self).flatMap(UUID.init(uuidString:))
        lockedByUserID = try row.decode(column: "locked_by_user_id", as: String?.self).flatMap(UUID.init(uuidString:))
        lockedUntil = try row.decode(column: "locked_until", as: Int64?.self)
        paidByMemberID = try row.decode(column: "paid_by_member_id", as: String?.self).flatMap(UUID.init(uuidString:))
        settlementID = try row.decode(column: "settlement_id", as: String?.self).flatMap(UUID.init(uuidString:))
        paidAt = try row.decode(column: "paid_at", as: Int64?.self)
        updatedAt = try row.decode(column: "updated_at", as: Int64.self)
    }
}
