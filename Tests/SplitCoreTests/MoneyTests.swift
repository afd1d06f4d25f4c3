import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Amounts: parsing, formatting, arithmetic")
struct MoneyTests {
    @Test(
        "decimal strings parse to minor units per currency",
        arguments: [
            ("12.50", "USD", 1250), ("12.5", "USD", 1250), ("12", "USD", 1200), ("0.01", "USD", 1),
            ("1200", "JPY", 1200), ("0", "JPY", 0), ("1.234", "KWD", 1234), ("0.5", "KWD", 500),
            ("00012.30", "USD", 1230),
        ])
    func parses(text: String, code: String, minor: Int64) throws {
        let money = try Money(parsing: text, currency: try Currency(code: code))
        #expect(money.minorUnits == minor)
    }

    @Test("more decimals than the currency has is an error, never a round")
    func tooManyDecimals() {
        #expect(throws: AmountError.tooManyDecimals("12.345", found: 3, allowed: 2, currencyCode: "USD")) {
            try Money(parsing: "12.345", currency: .usd)
        }
        #expect(throws: AmountError.tooManyDecimals("1200.5", found: 1, allowed: 0, currencyCode: "JPY")) {
            try Money(parsing: "1200.5", currency: .jpy)
        }
        #expect(
            AmountError.tooManyDecimals("12.345", found: 3, allowed: 2, currencyCode: "USD").description
                == "\"12.345\" has 3 decimals; USD allows at most 2")
        #expect(
            AmountError.tooManyDecimals("1200.5", found: 1, allowed: 0, currencyCode: "JPY").description
                == "\"1200.5\" has 1 decimal; JPY has no minor unit")
    }

    @Test(
        "garbage is rejected with a precise error",
        arguments: [
            "", "-", ".", "1.", ".5", "1e5", "1,000", " 12", "12 ", "1.2.3", "12a", "٣", "0x10", "--1", "1-", "+5",
            "- 1",
        ])
    func garbage(text: String) {
        #expect(throws: AmountError.self) { try Money(parsing: text, currency: .usd) }
    }

    @Test("overflow and negatives are caught")
    func overflowAndNegatives() throws {
        #expect(throws: AmountError.overflow("92233720368547758.08")) {
            try Money(parsing: "92233720368547758.08", currency: .usd)
        }
        #expect(throws: AmountError.overflow("99999999999999999999")) {
            try Money(parsing: "99999999999999999999", currency: .jpy)
        }
        #expect(try Money(parsing: "92233720368547758.07", currency: .usd).minorUnits == .max)
        #expect(throws: AmountError.negativeNotAllowed("-1.00")) { try Money(parsing: "-1.00", currency: .usd) }
        #expect(try Money(parsing: "-1.05", currency: .usd, allowNegative: true).minorUnits == -105)
        #expect(try Money(parsing: "-0", currency: .usd).minorUnits == 0)
    }

    @Test("formatting: the wire form and the form for people")
    func formatting() {
        #expect(Money(minorUnits: 1250, currency: .usd).decimalString == "12.50")
        #expect(Money(minorUnits: 5, currency: .usd).decimalString == "0.05")
        #expect(Money(minorUnits: -5, currency: .usd).decimalString == "-0.05")
        #expect(Money(minorUnits: 1200, currency: .jpy).decimalString == "1200")
        #expect(Money(minorUnits: 1, currency: .kwd).decimalString == "0.001")
        #expect(Money(minorUnits: 1150, currency: .jpy).description == "1,150 JPY")
        #expect(Money(minorUnits: 123_456_789, currency: .usd).description == "1,234,567.89 USD")
        #expect(Money(minorUnits: -100_000, currency: .jpy).description == "-100,000 JPY")
        #expect(Money(minorUnits: .min, currency: .jpy).decimalString == "-9223372036854775808")
    }

    @Test("arithmetic is checked: overflow and mixed currencies throw")
    func checkedArithmetic() throws {
        #expect(try usd("1.10").adding(usd("2.20")) == usd("3.30"))
        #expect(try usd("1.10").subtracting(usd("2.20")) == usd("-1.10"))
        #expect(throws: AmountError.currencyMismatch(.usd, .jpy)) { try usd("1").adding(jpy("1")) }
        #expect(throws: AmountError.self) { try Money(minorUnits: .max, currency: .usd).adding(usd("0.01")) }
        #expect(throws: AmountError.self) { try Money(minorUnits: .min, currency: .usd).negated() }
        #expect(throws: AmountError.self) { try Money.sum([.max, 1], currency: .usd) }
    }

    @Test("format then parse gives back the same amount, in every currency")
    func roundTrip() async {
        await propertyCheck(count: 1_000, input: Gen.int64(), Gen.int(in: 0...(Currency.all.count - 1))) {
            minor, index in
            let currency = Currency.all[index]
            let money = Money(minorUnits: minor, currency: currency)
            let parsed = try Money(parsing: money.decimalString, currency: currency, allowNegative: true)
            #expect(parsed == money)
            // The bytes the change feed appends are the same text, after what the buffer held.
            var bytes = Array("\"".utf8)
            money.appendDecimal(to: &bytes)
            #expect(bytes == Array(("\"" + money.decimalString).utf8))
        }
    }

    @Test("the appended decimal is the wire form at the edges: zero, one minor unit, Int64's ends, every currency")
    func appendedEdges() {
        for currency in Currency.all {
            for minor: Int64 in [0, 1, -1, 9, 10, 99, 100, 101, 999, 1_000, .max, .min, .max - 1, .min + 1] {
                let money = Money(minorUnits: minor, currency: currency)
                var bytes: [UInt8] = []
                money.appendDecimal(to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == money.decimalString, "\(minor) \(currency.code)")
            }
        }
    }

    @Test("decimals for percentages, weights and rates compare by value")
    func decimals() throws {
        #expect(decimal("99.50") == decimal("99.5"))
        #expect(decimal("99.50").description == "99.5")
        #expect(decimal("0.10") < decimal("0.2"))
        #expect(decimal("-1") < decimal("0"))
        #expect(throws: AmountError.tooManyDecimals("1.1234567890123", found: 13, allowed: 12, currencyCode: nil)) {
            try DecimalValue(parsing: "1.1234567890123")
        }
        #expect(throws: AmountError.negativeNotAllowed("-3")) { try DecimalValue(parsing: "-3") }
    }
}
