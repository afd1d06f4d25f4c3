import Testing

@testable import SplitCore

@Suite("Currencies")
struct CurrencyTests {
    @Test(
        "the table has the exponents that matter",
        arguments: [
            ("JPY", 0), ("KRW", 0), ("VND", 0), ("CLP", 0), ("ISK", 0), ("XOF", 0),
            ("USD", 2), ("EUR", 2), ("MYR", 2), ("SGD", 2), ("GBP", 2),
            ("KWD", 3), ("BHD", 3), ("JOD", 3), ("OMR", 3), ("TND", 3), ("IQD", 3), ("LYD", 3),
            ("CLF", 4), ("UYW", 4),
        ])
    func exponents(code: String, minorUnits: Int) throws {
        #expect(try Currency(code: code).minorUnits == minorUnits)
    }

    @Test("the whole ISO list is there, each code once, three upper-case letters")
    func wholeTable() {
        #expect(Currency.all.count >= 160)
        #expect(Set(Currency.all.map(\.code)).count == Currency.all.count)
        for currency in Currency.all {
            #expect(currency.code.count == 3 && currency.code.allSatisfy { $0.isASCII && $0.isUppercase })
            #expect((0...4).contains(currency.minorUnits))
            #expect(!currency.name.isEmpty)
        }
    }

    @Test("lookup tolerates case and spaces, rejects anything else")
    func lookup() throws {
        #expect(try Currency(code: " jpy ") == .jpy)
        #expect(throws: CurrencyError.unknownCode("XYZ")) { try Currency(code: "XYZ") }
        #expect(throws: CurrencyError.unknownCode("")) { try Currency(code: "") }
        #expect(throws: CurrencyError.unknownCode("XAU")) { try Currency(code: "XAU") }
        #expect(CurrencyError.unknownCode("XYZ").description == "\"XYZ\" is not an ISO 4217 currency code")
        // Every code in the table, as stored and sent (three capitals, read by its bytes), is itself.
        #expect(Currency.all.allSatisfy { (try? Currency(code: $0.code)) == $0 })
        #expect(try Currency(code: "jpy") == .jpy && (try Currency(code: "JPY ")) == .jpy)
    }

    @Test("recently withdrawn codes still load, flagged")
    func withdrawn() throws {
        #expect(try Currency(code: "HRK").isWithdrawn)
        #expect(try !Currency(code: "EUR").isWithdrawn)
    }
}
