import Foundation
import HTTPTypes
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

/// Pay details (issue 19): checked on the way in, shown to the members of one's groups on
/// requests and on the plan — with an EPC QR payload for a euro bank transfer — and never on the
/// public code page.
@Suite("Pay details")
struct PayDetailsTests {
    @Test("IBANs: the mod-97 check, spaces and case do not matter, one wrong digit is refused")
    func iban() {
        #expect(IBAN.normalized("DE89 3704 0044 0532 0130 00") == "DE89370400440532013000")
        #expect(IBAN.normalized("gb82west12345698765432") == "GB82WEST12345698765432")
        #expect(IBAN.normalized("DE89 3704 0044 0532 0130 01") == nil)
        #expect(IBAN.normalized("DE89") == nil)
        #expect(IBAN.normalized("1289370400440532013000") == nil)
        #expect(IBAN.grouped("DE89370400440532013000") == "DE89 3704 0044 0532 0130 00")
    }

    @Test("options for an amount: the EPC payload for euros, a UPI link with rupees, PayPal.me with the amount")
    func options() throws {
        let methods = try PayDetails.check(
            [
                EnteredPayMethod(kind: "iban", value: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX"),
                EnteredPayMethod(kind: "upi", value: "aki@okbank"), EnteredPayMethod(kind: "paypal", value: "paypal.me/akit"),
            ], holder: "Aki Tanaka")
        let euro = PayDetails.options(methods, amount: 1250, currency: try Currency(code: "EUR"), reference: "Ramen")
        #expect(euro[0].qrPayload == "BCD\n002\n1\nSCT\nCOBADEFFXXX\nAki Tanaka\nDE89370400440532013000\nEUR12.50\n\n\nRamen")
        #expect(euro[2].link == "https://paypal.me/akit/12.50EUR")
        let rupees = PayDetails.options(methods, amount: 50000, currency: try Currency(code: "INR"), reference: "Chai")
        #expect(rupees[0].qrPayload == nil)  // EPC is for euros only
        #expect(euro[0].label == "Bank transfer (SEPA)")
        #expect(rupees[0].label == "Bank transfer (international, to this IBAN)")  // SEPA moves euros only
        #expect(rupees[1].link == "upi://pay?pa=aki@okbank&am=500.00&cu=INR&tn=Chai")
        #expect(throws: AppError.self) { try PayDetails.check([EnteredPayMethod(kind: "upi", value: "not an id")], holder: "A") }
        #expect(throws: AppError.self) { try PayDetails.check([EnteredPayMethod(kind: "bitcoin", value: "x")], holder: "A") }
    }

    @Test("Ben's IBAN: refused when wrong; on his request and on the plan for members, never on the public page", arguments: [Database.Backend.sqlite])
    func shown(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api, home: "EUR")
            let ben = trip.tokens["Ben"]
            let bad = try await api.call(
                .put, "/auth/pay-details", token: ben, json: #"{"methods":[{"kind":"iban","value":"DE89 3704 0044 0532 0130 01"}]}"#)
            #expect(bad.status == .unprocessableContent && bad.text.contains("methods[0]"), "\(bad.text)")
            let saved = try await api.call(
                .put, "/auth/pay-details", token: ben,
                json: #"{"methods":[{"kind":"iban","value":"de89 3704 0044 0532 0130 00"},{"kind":"text","value":"Cash is fine"}]}"#)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try await api.call(.get, "/auth/pay-details", token: ben).list("methods").first?.string("value") == "DE89370400440532013000")

            // Ben paid dinner for Aki and himself: the plan says Aki pays Ben, with Ben's ways.
            _ = try await api.call(
                .post, "/api/expenses", token: ben,
                json: trip.expense(
                    "Dinner", "40.00", "EUR", paidBy: [("Ben", "40.00")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#))
            let plan = try await api.call(.get, "/api/groups/\(trip.groupID)/settlement-plan?currency=EUR", token: trip.tokens["Aki"])
            let payTo = plan.list("transfers").first?.list("payTo") ?? []
            #expect(payTo.count == 2 && payTo[0].string("qrPayload")?.contains("EUR20.00") == true, "\(plan.text)")

            let created = try await api.call(
                .post, "/api/groups/\(trip.groupID)/payment-requests", token: ben, json: #"{"amount":"20.00","currency":"EUR"}"#)
            #expect(created.list("paymentRequest", "payTo").first?.string("detail")?.hasPrefix("DE89 3704") == true, "\(created.text)")
            let code = try #require(created.string("paymentRequest", "code"))
            let publicView = try await api.call(.get, "/api/pay/\(code)")
            #expect(publicView.status == .ok && !publicView.text.contains("DE89"), "\(publicView.text)")
        }
    }
}
