import PropertyBased
import SplitTestSupport
import Testing

@testable import SplitCore

@Suite("Currency conversion")
struct ConversionTests {
    @Test("a decimal rate converts and rounds half to even at the target's minor unit")
    func decimalRate() throws {
        let rate = try ExchangeRate(from: .usd, to: .jpy, rate: decimal("151.5"))
        #expect(try rate.convert(usd("10")) == jpy("1515"))
        #expect(try rate.convert(usd("0.01")) == jpy("2"))  // 1.515 → 2
        let half = try ExchangeRate(from: .usd, to: .jpy, rate: decimal("150"))
        #expect(try half.convert(usd("0.01")) == jpy("2"))  // 1.5 → 2 (even)
        #expect(try half.convert(usd("0.03")) == jpy("4"))  // 4.5 → 4 (even)
        #expect(try half.convert(usd("-0.03")) == jpy("-4"))
    }

    @Test("a rate derived from what was charged reproduces the charge")
    func chargedRate() throws {
        let rate = try ExchangeRate(charged: jpy("4200"), as: Money(minorUnits: 12530, currency: .myr))
        #expect(try rate.convert(jpy("4200")) == Money(minorUnits: 12530, currency: .myr))
        #expect(try rate.inverted.convert(Money(minorUnits: 12530, currency: .myr)) == jpy("4200"))
    }

    @Test("bad rates and mismatched currencies are refused")
    func refused() throws {
        #expect(throws: ConversionError.rateNotPositive(decimal("0"))) {
            try ExchangeRate(from: .usd, to: .jpy, rate: decimal("0"))
        }
        #expect(throws: ConversionError.chargedAmountsNotPositive) { try ExchangeRate(charged: jpy("0"), as: usd("1")) }
        let rate = try ExchangeRate(from: .usd, to: .jpy, rate: decimal("150"))
        #expect(throws: ConversionError.currencyMismatch(expected: .usd, got: .eur)) {
            try rate.convert(Money(minorUnits: 1, currency: .eur))
        }
        let huge = try ExchangeRate(from: .jpy, to: .kwd, rate: decimal("999999999"))
        #expect(throws: ConversionError.overflow) { try huge.convert(Money(minorUnits: .max, currency: .jpy)) }
        // Parts whose rounded values sit at the edge of Int64 throw instead of trapping.
        let oneAndHalf = try ExchangeRate(from: .jpy, to: .jpy, rate: decimal("1.5"))
        #expect(throws: ConversionError.overflow) {
            try oneAndHalf.convert([6_148_914_691_236_517_205, -1], currency: .jpy, tieBreak: TieBreak(seed: "g"))
        }
        let oneAndQuarter = try ExchangeRate(from: .jpy, to: .jpy, rate: decimal("1.25"))
        #expect(throws: ConversionError.overflow) {
            try oneAndQuarter.convert([-7_378_697_629_483_820_647, 1], currency: .jpy, tieBreak: TieBreak(seed: "g"))
        }
    }

    @Test("converting there and back lands within one minor unit (target unit no coarser than the source's)")
    func roundTrip() async {
        let pairs: [(Currency, Currency)] = [
            (.usd, .jpy), (.jpy, .jpy), (.eur, .usd), (.myr, .sgd), (.usd, .kwd), (.jpy, .kwd),
        ]
        await propertyCheck(
            count: 1_000, input: Gen.int(in: 0...(pairs.count - 1)), Gen.int64(in: -1_000_000_000...1_000_000_000),
            Gen.int64(in: 1...10_000_000), Gen.int(in: 0...6)
        ) { pairIndex, amount, significand, scale in
            let (from, to) = pairs[pairIndex]
            let rate = try ExchangeRate(from: from, to: to, rate: DecimalValue(significand: significand, scale: scale))
            // Only rates at which one source minor unit is worth at least one target minor unit.
            let unitValue = Int128(significand) * Int128(to.minorUnitsPerMajor)
            let unitCost = Int128(Decimal10.power(scale)) * Int128(from.minorUnitsPerMajor)
            guard unitValue >= unitCost else { return }
            let there = try rate.convert(Money(minorUnits: amount, currency: from))
            let back = try rate.inverted.convert(there)
            #expect(abs(back.minorUnits - amount) <= 1)
        }
    }

    @Test("converted parts add up to the converted total; nets that sum to zero still do")
    func partsAddUp() async {
        await propertyCheck(
            count: 1_000, input: Gen.int64(in: -10_000_000...10_000_000).array(of: 1...12),
            Gen.int64(in: 1...99_999_999),
            Gen.int(in: 0...8)
        ) { parts, significand, scale in
            let rate = try ExchangeRate(
                from: .usd, to: .jpy, rate: DecimalValue(significand: significand, scale: scale))
            let converted = try rate.convert(parts, currency: .usd, tieBreak: TieBreak(seed: "group"))
            let total = try rate.convert(Money(minorUnits: parts.reduce(0, +), currency: .usd))
            #expect(converted.reduce(0, +) == total.minorUnits)
            for (part, result) in zip(parts, converted) {
                // Each part is the floor or ceiling of its exact value.
                let exact = Int128(part) * Int128(significand)
                let scaled = Int128(result) * Int128(Decimal10.power(scale)) * 100
                #expect((scaled - exact * 1).magnitude < Int128(Decimal10.power(scale)) * 100)
            }
            let balanced = parts + [-parts.reduce(0, +)]
            #expect(try rate.convert(balanced, currency: .usd, tieBreak: TieBreak(seed: "group")).reduce(0, +) == 0)
        }
    }
}
