/// An amount of one currency, as an integer count of its minor unit (DESIGN §3: never Double).
///
/// Arithmetic is checked: overflow and mixing currencies are errors, never wrap-around.
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Parses a decimal string in major units ("12.50" USD, "1200" JPY).
    ///
    /// More decimals than the currency has is an error ("12.345" USD), never a silent round.
    public init(parsing text: String, currency: Currency, allowNegative: Bool = false) throws(AmountError) {
        let parsed = try DecimalText.parse(
            text, maxFractionDigits: currency.minorUnits, allowNegative: allowNegative, currencyCode: currency.code)
        let factor = Decimal10.power(currency.minorUnits - parsed.scale)
        let (minor, overflow) = parsed.significand.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .overflow(text) }
        self.init(minorUnits: minor, currency: currency)
    }

    /// The wire form: major units with exactly the currency's decimals ("12.50", "1200", "-0.05").
    public var decimalString: String {
        DecimalText.format(minorUnits, fractionDigits: currency.minorUnits)
    }

    /// `decimalString`'s bytes appended to `bytes` (the change feed's writer: no `String` made).
    public func appendDecimal(to bytes: inout [UInt8]) {
        DecimalText.append(minorUnits, fractionDigits: currency.minorUnits, to: &bytes)
    }

    /// For people: grouped digits and the code ("1,150 JPY", "1,234.50 USD").
    public var description: String {
        DecimalText.format(minorUnits, fractionDigits: currency.minorUnits, groupingSeparator: ",") + " "
            + currency.code
    }

    public var isZero: Bool { minorUnits == 0 }
    public var isPositive: Bool { minorUnits > 0 }
    public var isNegative: Bool { minorUnits < 0 }

    public func adding(_ other: Money) throws(AmountError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(description) }
        return Money(minorUnits: sum, currency: currency)
    }

    public func subtracting(_ other: Money) throws(AmountError) -> Money {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow(description) }
        return Money(minorUnits: difference, currency: currency)
    }

    public func negated() throws(AmountError) -> Money {
        guard minorUnits != .min else { throw .overflow(description) }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    /// The checked sum of minor-unit counts, in the given currency.
    public static func sum(_ amounts: some Sequence<Int64>, currency: Currency) throws(AmountError) -> Money {
        var total: Int64 = 0
        for amount in amounts {
            let (next, overflow) = total.addingReportingOverflow(amount)
            guard !overflow else { throw .overflow("sum in \(currency.code)") }
            total = next
        }
        return Money(minorUnits: total, currency: currency)
    }
}
