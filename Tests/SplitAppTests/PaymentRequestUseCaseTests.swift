import Foundation
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

/// The payment request's states over time (issue 19), with a clock the test moves: a lock that
/// ends, a renewal, expiry while locked, and the code's form.
@Suite("Payment requests: states over time")
struct PaymentRequestUseCaseTests {
    final class TestClock: Sendable {
        let value = Mutex<Int64>(1_800_000_000_000)
        var now: Int64 { value.withLock { $0 } }
        func advance(seconds: Int64) { value.withLock { $0 += seconds * 1_000 } }
    }

    static func key(_ text: String) -> IdempotencyRequest {
        IdempotencyRequest(key: text, requestHash: IdempotencyRequest.hash(Data(text.utf8)))
    }

    @Test("a lock holds 2 minutes and is renewed by its payer; a hold taken in time outlives the expiry, then the request is expired", arguments: TestDatabases.all)
    func states(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let clock = TestClock()
            let requests = PaymentRequestUseCases(database: trip.database, now: { clock.now })
            let asked = try await requests.create(
                EnteredPaymentRequest(amount: "10.00", currency: "MYR", expiresInSeconds: 600), groupID: trip.groupID,
                caller: trip.bo, origin: trip.origin)
            let code = asked.request.code
            #expect(asked.state == "open")
            #expect(try await requests.lock(code, caller: trip.aki, origin: trip.origin).state == "locked")
            clock.advance(seconds: 60)
            let renewed = try await requests.lock(code, caller: trip.aki, origin: trip.origin)
            #expect(renewed.request.lockedUntil == clock.now + 120_000)
            // A viewer may not lock; the payee may not lock her own.
            await #expect(throws: AppError.self) { try await requests.lock(code, caller: trip.vic, origin: trip.origin) }
            await #expect(throws: AppError.self) { try await requests.lock(code, caller: trip.bo, origin: trip.origin) }
            clock.advance(seconds: 121)
            #expect(try await requests.resolve(code, caller: nil, origin: trip.origin).state == "open")
            // Paying after the hold ended, nobody else holding it (the payer paid in a bank app
            // meanwhile): held again and paid, once.
            #expect(try await requests.resolve(code, caller: trip.aki, origin: trip.origin).heldByCaller == false)
            let afterHold = try await requests.pay(code, caller: trip.aki, origin: trip.origin, idempotency: Self.key("a")) { _ in
                StoredResponse(status: 201, body: Data())
            }
            if case .created(let view, _) = afterHold { #expect(view.state == "paid") } else { Issue.record("not paid: \(afterHold)") }
            #expect(try await requests.resolve(code, caller: nil, origin: trip.origin).state == "paid")

            // Expiry while locked: a hold taken in time lets its payer finish (they may be paying
            // by bank right now) …
            let short = try await requests.create(
                EnteredPaymentRequest(amount: "5.00", currency: "MYR", expiresInSeconds: 60), groupID: trip.groupID,
                caller: trip.bo, origin: trip.origin)
            _ = try await requests.lock(short.request.code, caller: trip.aki, origin: trip.origin)
            // Its holder is told it is theirs (a reload of the pay page keeps "I paid"); others not.
            #expect(try await requests.resolve(short.request.code, caller: trip.aki, origin: trip.origin).heldByCaller)
            #expect(!(try await requests.resolve(short.request.code, caller: trip.bo, origin: trip.origin).heldByCaller))
            clock.advance(seconds: 61)
            let paid = try await requests.pay(short.request.code, caller: trip.aki, origin: trip.origin, idempotency: Self.key("b")) {
                _ in StoredResponse(status: 201, body: Data())
            }
            if case .created(let view, _) = paid { #expect(view.state == "paid") } else { Issue.record("not paid: \(paid)") }
            // … but once the hold runs out past the expiry, the request is expired for good.
            let late = try await requests.create(
                EnteredPaymentRequest(amount: "6.00", currency: "MYR", expiresInSeconds: 60), groupID: trip.groupID,
                caller: trip.bo, origin: trip.origin)
            _ = try await requests.lock(late.request.code, caller: trip.aki, origin: trip.origin)
            clock.advance(seconds: 121)
            do {
                _ = try await requests.pay(late.request.code, caller: trip.aki, origin: trip.origin, idempotency: Self.key("c")) {
                    _ in StoredResponse(status: 201, body: Data())
                }
                Issue.record("paid after expiry")
            } catch AppError.conflict(let state, _, _) {
                #expect(state == "expired")
            }
            await #expect(throws: AppError.self) {
                try await requests.lock(late.request.code, caller: trip.aki, origin: trip.origin)
            }
            await #expect(throws: AppError.self) {
                try await requests.resolve(late.request.code, caller: nil, origin: trip.origin)
            }
            // The first (paid after its hold ran out) and the short one are paid; the late one expired.
            #expect(try await requests.list(groupID: trip.groupID, caller: trip.aki).map(\.state).sorted() == ["expired", "paid", "paid"])
            #expect(try await LedgerUseCases(database: trip.database, now: { clock.now })
                .settlements(groupID: trip.groupID, includeDeleted: true, caller: trip.aki).count == 2)
        }
    }

    @Test(
        "a request sent again with its key is answered as first made, even once it could no longer be made; the key with another request is refused; one request in all",
        arguments: TestDatabases.all)
    func sentAgain(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let requests = PaymentRequestUseCases(database: trip.database, now: { milliseconds() })
            let entered = EnteredPaymentRequest(amount: "7.00", currency: "MYR", toMemberId: trip.akiMember.description)
            let renders = Mutex(0)
            func ask(_ entered: EnteredPaymentRequest, key: String) async throws -> IdempotencyOutcome<PaymentRequestView> {
                try await requests.create(
                    entered, groupID: trip.groupID, caller: trip.bo, origin: trip.origin,
                    idempotency: IdempotencyRequest(key: key, requestHash: "\(entered)")
                ) { view in
                    renders.withLock { $0 += 1 }
                    return StoredResponse(status: 201, body: Data(view.request.code.utf8))
                }
            }
            // act: the first, then the same again (its answer lost on the way)
            guard case .created(let made, let first) = try await ask(entered, key: "r1") else {
                Issue.record("not made")
                return
            }
            let again = try await ask(entered, key: "r1")
            // validate: the first answer again, nothing made or rendered the second time
            guard case .replayed(let stored) = again else {
                Issue.record("made again: \(again)")
                return
            }
            #expect(stored == first && stored.body == Data(made.request.code.utf8))
            #expect(renders.withLock { $0 } == 1)
            // act: Bo may no longer ask (a viewer now); the retry is still answered as it was
            _ = try await MemberUseCases(database: trip.database, now: { milliseconds() }).update(
                trip.boMember.description, MemberPatch(role: .viewer), groupID: trip.groupID, caller: trip.aki,
                origin: trip.origin)
            guard case .replayed(let late) = try await ask(entered, key: "r1") else {
                Issue.record("not answered as first made")
                return
            }
            #expect(late == first)
            // act: the key with another amount
            var other = entered
            other.amount = "8.00"
            await #expect(throws: AppError.idempotencyKeyReused) { _ = try await ask(other, key: "r1") }
            // validate: one request in all
            let listed = try await requests.list(groupID: trip.groupID, caller: trip.aki)
            #expect(listed.map(\.request.id) == [made.request.id])
        }
    }

    @Test("codes: 10 of Crockford's 32 characters, read in any case, with dashes, I/L as 1 and O as 0")
    func codes() {
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let code = PaymentCode.generate()
            #expect(code.count == 10 && PaymentCode.normalized(code) == code)
            seen.insert(code)
        }
        #expect(seen.count == 1_000)
        #expect(PaymentCode.normalized("7k3qm-xw9td") == "7K3QMXW9TD")
        #expect(PaymentCode.normalized("OIL23 45678") == "01123 45678".replacingOccurrences(of: " ", with: ""))
        #expect(PaymentCode.normalized("7K3QM-XW9T") == nil)
        #expect(PaymentCode.normalized("7K3QM-XW9TU") == nil)  // U is not in the alphabet
        #expect(PaymentCode.normalized("7K3QM-XW9TDD") == nil)
    }
}

extension PaymentRequestUseCases {
    /// `create` without an idempotency key: the request made.
    func create(_ entered: EnteredPaymentRequest, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> PaymentRequestView
    {
        let outcome = try await create(entered, groupID: groupID, caller: caller, origin: origin) { _ in
            StoredResponse(status: 201, body: Data())
        }
        guard case .created(let view, _) = outcome else { throw AppError.notFound("payment request") }
        return view
    }
}
