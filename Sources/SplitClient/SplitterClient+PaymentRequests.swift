import Foundation
internal import OpenAPIRuntime
internal import SplitAPI

/// A payment request: a member asks to be paid; a payer finds it by its short code, locks it and
/// pays it once (issue 19). Amounts are decimal text in the currency's own decimals.
public struct PaymentRequest: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    public var groupName: String
    /// `XXXXX-XXXXX`, what the payee shows (or a phone advertises: `bluetoothPayload`).
    public var code: String
    /// `PUBLIC_URL/pay/CODE`.
    public var link: String
    /// An SVG QR code of the link (on a create, when the server has the encoder).
    public var qrSvg: String?
    public var payeeMemberId: String
    public var payeeName: String
    public var payerMemberId: String?
    public var payerName: String?
    public var amount: String
    public var currency: String
    public var note: String
    /// open, locked, paid, cancelled or expired.
    public var state: String
    public var lockedUntil: Date?
    public var lockedByMemberId: String?
    public var paidByMemberId: String?
    public var settlementId: String?
    public var paidAt: Date?
    public var expiresAt: Date
    public var createdAt: Date
    /// Set by `lockPaymentRequest`: what Settle up says the caller pays the payee now, or that
    /// it has no transfer between them (a debt settled another way). Show it before paying.
    public var settleUpNote: String? = nil

    /// What an iOS app advertises over Bluetooth for a payer nearby to pick up: the code alone,
    /// in ASCII, without its dash (10 bytes: no names, ids or amounts on the air).
    public var bluetoothPayload: Data { Data(code.replacingOccurrences(of: "-", with: "").utf8) }
}

/// What anyone with the code sees: who asks, how much, which group, until when.
public struct ResolvedPaymentRequest: Codable, Hashable, Sendable {
    public var code: String
    public var payeeName: String
    public var amount: String
    public var currency: String
    public var groupName: String
    public var expiresAt: Date
    /// open, locked or paid.
    public var state: String
    public var lockedUntil: Date?
    /// For a signed-in member of the group who may pay it: what Settle up says they pay the
    /// payee now, or that it has no transfer between them. Show it before paying.
    public var settleUpNote: String? = nil
    /// For a signed-in caller who may not pay it: why (it is for someone else, a viewer…), to
    /// say instead of asking them to pay.
    public var cannotPay: String? = nil
    /// The caller holds it now.
    public var heldByYou: Bool? = nil
    /// What the payee wrote with it, for a signed-in member of its group.
    public var note: String? = nil
}

extension SplitterClient {
    /// Asks to be paid `amount` (decimal text) in `currency`, optionally by one member, for
    /// `expiresIn` seconds (60 to 7 days; default 15 minutes). Sent again with the same
    /// `idempotencyKey` (its answer lost on the way), it answers the same request.
    public func createPaymentRequest(
        groupID: String, amount: String, currency: String, toMemberID: String? = nil, expiresIn: Int? = nil,
        note: String? = nil, idempotencyKey: String? = nil
    ) async throws -> PaymentRequest {
        try await call({
            try await api.createPaymentRequest(
                path: .init(groupId: groupID), headers: .init(idempotencyKey: idempotencyKey),
                body: .json(
                    .init(amount: amount, currency: currency, toMemberId: toMemberID, expiresInSeconds: expiresIn, note: note)))
        }) { absolute(PaymentRequest(try $0.created.body.json.paymentRequest)) }
    }

    /// A server without PUBLIC_URL gives links as paths: on this client's server, then.
    func absolute(_ request: PaymentRequest) -> PaymentRequest {
        guard request.link.hasPrefix("/") else { return request }
        var request = request
        let base = serverURL.absoluteString.hasSuffix("/") ? String(serverURL.absoluteString.dropLast()) : serverURL.absoluteString
        request.link = base + request.link
        return request
    }

    public func paymentRequests(groupID: String) async throws -> [PaymentRequest] {
        try await call({ try await api.listPaymentRequests(path: .init(groupId: groupID)) }) {
            try $0.ok.body.json.paymentRequests.map { absolute(PaymentRequest($0)) }
        }
    }

    public func cancelPaymentRequest(id: String) async throws -> PaymentRequest {
        try await call({ try await api.cancelPaymentRequest(path: .init(requestId: id)) }) {
            absolute(PaymentRequest(try $0.ok.body.json.paymentRequest))
        }
    }

    /// What a code asks; works without logging in. A code picked up over Bluetooth
    /// (`PaymentRequest.bluetoothPayload`) is passed as its text.
    public func resolvePaymentCode(_ code: String) async throws -> ResolvedPaymentRequest {
        try await call({ try await api.resolvePaymentCode(path: .init(code: code)) }) { output in
            let body = try output.ok.body.json
            return ResolvedPaymentRequest(
                code: body.code, payeeName: body.payeeName, amount: body.amount, currency: body.currency,
                groupName: body.groupName, expiresAt: body.expiresAt, state: body.state.rawValue,
                lockedUntil: body.lockedUntil, settleUpNote: body.settleUpNote, cannotPay: body.cannotPay,
                heldByYou: body.heldByYou, note: body.note)
        }
    }

    /// Holds the request for 2 minutes so nobody else pays it; `SplitterError` 409 `busy` while
    /// another payer holds it.
    public func lockPaymentRequest(code: String) async throws -> PaymentRequest {
        try await call({ try await api.lockPaymentRequest(path: .init(code: code)) }) {
            let body = try $0.ok.body.json
            var request = absolute(PaymentRequest(body.paymentRequest))
            request.settleUpNote = body.settleUpNote
            return request
        }
    }

    /// Pays a request this client holds, once: retry with the same `idempotencyKey` after a lost
    /// answer and get the same result.
    public func payPaymentRequest(code: String, idempotencyKey: String = UUID().uuidString) async throws -> PaymentRequest {
        try await call({
            try await api.payPaymentRequest(path: .init(code: code), headers: .init(idempotencyKey: idempotencyKey))
        }) { absolute(PaymentRequest(try $0.created.body.json.paymentRequest)) }
    }
}

extension PaymentRequest {
    init(_ wire: Components.Schemas.PaymentRequest) {
        self.init(
            id: wire.id, groupId: wire.groupId, groupName: wire.groupName, code: wire.code, link: wire.link,
            qrSvg: wire.qrSvg, payeeMemberId: wire.payeeMemberId, payeeName: wire.payeeName,
            payerMemberId: wire.payerMemberId, payerName: wire.payerName, amount: wire.amount, currency: wire.currency,
            note: wire.note, state: wire.state.rawValue, lockedUntil: wire.lockedUntil,
            lockedByMemberId: wire.lockedByMemberId, paidByMemberId: wire.paidByMemberId, settlementId: wire.settlementId,
            paidAt: wire.paidAt, expiresAt: wire.expiresAt, createdAt: wire.createdAt)
    }
}

/// Where the caller stands across all their groups (`GET /api/me/summary`).
public struct MySummary: Codable, Hashable, Sendable {
    public struct Total: Codable, Hashable, Sendable {
        public var currency: String
        /// What my groups owe me, what I owe in them, and the difference (decimal text).
        public var owed: String
        public var owe: String
        public var net: String
    }

    public struct GroupNet: Codable, Hashable, Sendable {
        public var groupId: String
        public var groupName: String
        public var currency: String
        public var net: String
        /// A group I left with this balance (it still counts).
        public var left: Bool?
    }

    public struct Person: Codable, Hashable, Sendable {
        public var name: String
        /// Set when they have an account: one entry across every group we share.
        public var userId: String?
        public var groupIds: [String]
        public var currency: String
        /// Above zero: they owe me.
        public var net: String
    }

    public struct Transfer: Codable, Hashable, Sendable {
        public var groupId: String
        public var groupName: String
        public var fromName: String
        public var toName: String
        public var sent: Bool
        public var amount: String
        public var currency: String
        public var date: String
    }

    public var totals: [Total]
    public var groups: [GroupNet]
    public var people: [Person]
    public var transfers: [Transfer]
}

extension SplitterClient {
    public func mySummary() async throws -> MySummary {
        try await call({ try await api.getMySummary() }) { output in
            let body = try output.ok.body.json
            return MySummary(
                totals: body.totals.map { .init(currency: $0.currency, owed: $0.owed, owe: $0.owe, net: $0.net) },
                groups: body.groups.map {
                    .init(groupId: $0.groupId, groupName: $0.groupName, currency: $0.currency, net: $0.net, left: $0.left)
                },
                people: body.people.map {
                    .init(name: $0.name, userId: $0.userId, groupIds: $0.groupIds, currency: $0.currency, net: $0.net)
                },
                transfers: body.transfers.map {
                    .init(
                        groupId: $0.groupId, groupName: $0.groupName, fromName: $0.fromName, toName: $0.toName, sent: $0.sent,
                        amount: $0.amount, currency: $0.currency, date: $0.date)
                })
        }
    }
}
