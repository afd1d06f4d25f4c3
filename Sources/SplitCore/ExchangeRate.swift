/// How many major units of `to` one major unit of `from` is worth, as an exact fraction.
///
/// DESIGN §3: conversion is explicit and exact. A rate is entered as a decimal ("151.2375") or
/// derived from what a card actually charged ("4,200 JPY charged as 125.30 MYR"); the inverse of
/// a rate is exact too, so converting there and back lands within one minor unit.
public struct ExchangeRate: Hashable, Sendable, CustomStringConvertible {
    public let from: Currency
    public let to: Currency
    /// The rate is numerator / denominator, reduced, both positive.
    let numerator: Int128
    let denominator: Int128

    /// A rate such as 1 USD = 151.2375 JPY.
    public init(from: Currency, to: Currency, rate: DecimalValue) throws(ConversionError) {
        guard rate.significand > 0 else { throw .rateNotPositive(rate) }
        self.init(
            from: from, to: to, numerator: Int128(rate.significand), denominator: Int128(Decimal10.power(rate.scale)))
    }

    /// The rate implied by one amount charged as another ("4,200 JPY charged as 125.30 MYR").
    public init(charged original: Money, as converted: Money) throws(ConversionError) {
        // A refund is credited as a negative amount: both below zero give the same rate.
        guard !original.isZero, !converted.isZero, (original.minorUnits < 0) == (converted.minorUnits < 0) else {
            throw .chargedAmountsNotPositive
        }
        // converted.major / original.major = (c / 10^ec) / (o / 10^eo) = c·10^eo / (o·10^ec)
        self.init(
            from: original.currency,
            to: converted.currency,
            numerator: Int128(converted.minorUnits.magnitude) * Int128(original.currency.minorUnitsPerMajor),
            denominator: Int128(original.minorUnits.magnitude) * Int128(converted.currency.minorUnitsPerMajor)
        )
    }

    private init(from: Currency, to: Currency, numerator: Int128, denominator: Int128) {
        let divisor = Self.gcd(numerator, denominator)
        self.from = from
        self.to = to
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// The exact inverse: `to` → `from`.
    public var inverted: ExchangeRate {
        ExchangeRate(from: to, to: from, numerator: denominator, denominator: numerator)
    }

    /// Converts one amount, rounding half to even at the target's minor unit.
    public func convert(_ money: Money) throws(ConversionError) -> Money {
        let converted = try convert([money.minorUnits], currency: money.currency, tieBreak: .none)
        return Money(minorUnits: converted[0], currency: to)
    }

    /// Converts several amounts so that they still add up: the total is converted and rounded
    /// once, and the parts are apportioned by largest remainder like a split (DESIGN §3). Parts
    /// that sum to zero (the nets of a group) convert to parts that sum to zero. `tieBreak` (the
    /// group or expense id) decides who gets a leftover unit among equal remainders.
    public func convert(_ amounts: [Int64], currency: Currency, tieBreak: TieBreak) throws(ConversionError)
        -> [Int64]
    {
        guard currency == from else { throw .currencyMismatch(expected: from, got: currency) }
        guard !amounts.isEmpty else { return [] }
        // minor_to = minor_from · n · 10^e_to / (d · 10^e_from)
        let scaleUp = try Self.multiply(numerator, Int128(to.minorUnitsPerMajor))
        let divisor = try Self.multiply(denominator, Int128(from.minorUnitsPerMajor))
        var numerators: [Int128] = []
        numerators.reserveCapacity(amounts.count)
        var sum: Int128 = 0
        for amount in amounts {
            let part = try Self.multiply(Int128(amount), scaleUp)
            numerators.append(part)
            let (next, overflow) = sum.addingReportingOverflow(part)
            guard !overflow else { throw .overflow }
            sum = next
        }
        guard let target = Int64(exactly: Self.roundHalfEven(sum, divisor)),
            let parts = Apportionment.distribute(
                numerators: numerators, denominator: divisor, target: target, tieBreak: tieBreak)
        else { throw .overflow }
        return parts
    }

    public var description: String { "1 \(from.code) = \(numerator)/\(denominator) \(to.code)" }

    private static func multiply(_ left: Int128, _ right: Int128) throws(ConversionError) -> Int128 {
        let (product, overflow) = left.multipliedReportingOverflow(by: right)
        guard !overflow else { throw .overflow }
        return product
    }

    static func roundHalfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        var quotient = numerator / denominator
        var remainder = numerator % denominator
        if remainder < 0 {
            quotient -= 1
            remainder += denominator
        }
        let twice = remainder * 2
        if twice > denominator || (twice == denominator && quotient % 2 != 0) { quotient += 1 }
        return quotient
    }

    private static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (a, b) = (a.magnitude, b.magnitude)
        while b != 0 { (a, b) = (b, a % b) }
        return Int128(a)
    }
}

public enum ConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    case rateNotPositive(DecimalValue)
    case chargedAmountsNotPositive
    case currencyMismatch(expected: Currency, got: Currency)
    case overflow

    public var description: String {
        switch self {
        case .rateNotPositive(let rate): "an exchange rate must be more than zero, got \(rate)"
        case .chargedAmountsNotPositive:
            "both amounts of a charged conversion must be more than zero (or, for a refund, both below zero)"
        case .currencyMismatch(let expected, let got): "this rate converts \(expected.code), not \(got.code)"
        case .overflow: "the converted amount is too large"
        }
    }
}
