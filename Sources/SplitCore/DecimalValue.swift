/// An exact decimal number written as a string by a person: a percentage ("33.33"), a weight
/// ("1.5" shares) or an exchange rate ("151.2375"). Never a binary floating-point value.
///
/// The value is `significand / 10^scale`. Two values that differ only by trailing zeros
/// ("99.5" and "99.50") compare equal.
public struct DecimalValue: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let significand: Int64
    public let scale: Int

    /// The most fractional digits any decimal we accept may have.
    public static let maximumScale = 12

    public init(significand: Int64, scale: Int = 0) {
        precondition((0...Self.maximumScale).contains(scale), "scale \(scale) out of range")
        self.significand = significand
        self.scale = scale
    }

    /// Parses a plain decimal string: optional "-", digits, optional "." and digits.
    ///
    /// - Parameters:
    ///   - maxFractionDigits: more fractional digits than this is an error, never a silent round.
    ///   - allowNegative: whether a leading "-" is accepted.
    public init(
        parsing text: String,
        maxFractionDigits: Int = DecimalValue.maximumScale,
        allowNegative: Bool = false
    ) throws(AmountError) {
        let parsed = try DecimalText.parse(
            text, maxFractionDigits: min(maxFractionDigits, Self.maximumScale), allowNegative: allowNegative)
        self.init(significand: parsed.significand, scale: parsed.scale)
    }

    public var isZero: Bool { significand == 0 }
    public var isNegative: Bool { significand < 0 }

    /// The same value with trailing fractional zeros removed ("99.50" → "99.5").
    public var normalized: DecimalValue {
        var significand = significand
        var scale = scale
        while scale > 0, significand % 10 == 0 {
            significand /= 10
            scale -= 1
        }
        return DecimalValue(significand: significand, scale: scale)
    }

    /// The value as an integer count of 10^-scale units, or nil when that does not fit in Int64.
    func units(atScale target: Int) -> Int64? {
        precondition(target >= scale)
        let (product, overflow) = significand.multipliedReportingOverflow(by: Decimal10.power(target - scale))
        return overflow ? nil : product
    }

    /// Canonical text: no exponent, no trailing zeros, "-" for negatives ("99.5", "-0.25", "3").
    public var description: String {
        let value = normalized
        return DecimalText.format(value.significand, fractionDigits: value.scale)
    }

    public static func == (lhs: DecimalValue, rhs: DecimalValue) -> Bool {
        lhs.normalized.significand == rhs.normalized.significand && lhs.normalized.scale == rhs.normalized.scale
    }

    public func hash(into hasher: inout Hasher) {
        let value = normalized
        hasher.combine(value.significand)
        hasher.combine(value.scale)
    }

    public static func < (lhs: DecimalValue, rhs: DecimalValue) -> Bool {
        let scale = max(lhs.scale, rhs.scale)
        let left = Int128(lhs.significand) * Int128(Decimal10.power(scale - lhs.scale))
        let right = Int128(rhs.significand) * Int128(Decimal10.power(scale - rhs.scale))
        return left < right
    }
}

/// Powers of ten for the scales we use (0...18 fit in Int64).
enum Decimal10 {
    static let powers: [Int64] = (0...18).map { exponent in
        (0..<exponent).reduce(Int64(1)) { product, _ in product * 10 }
    }

    static func power(_ exponent: Int) -> Int64 {
        precondition((0...18).contains(exponent), "10^\(exponent) does not fit in Int64")
        return powers[exponent]
    }
}

/// The one parser and printer of decimal strings, shared by amounts, percentages, weights and rates.
enum DecimalText {
    struct Parsed {
        let significand: Int64
        let scale: Int
    }

    static func parse(
        _ text: String,
        maxFractionDigits: Int,
        allowNegative: Bool,
        currencyCode: String? = nil
    ) throws(AmountError) -> Parsed {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty else { throw .empty }
        var index = 0
        var isNegative = false
        // Strict wire format: an optional "-", no "+", no spaces, no exponent, no separators.
        if utf8[0] == UInt8(ascii: "-") {
            isNegative = true
            index = 1
        }
        var magnitude: Int64 = 0
        var integerDigits = 0
        var fractionDigits = 0
        var sawPoint = false
        var overflowed = false
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { throw .malformed(text) }
                sawPoint = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw .malformed(text) }
            if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            let (timesTen, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = timesTen.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            overflowed = overflowed || overflowA || overflowB
            magnitude = next
        }
        guard integerDigits > 0, !sawPoint || fractionDigits > 0 else { throw .malformed(text) }
        // Too many decimals is reported before overflow: it is the more useful message.
        if fractionDigits > maxFractionDigits {
            throw .tooManyDecimals(
                text, found: fractionDigits, allowed: maxFractionDigits, currencyCode: currencyCode)
        }
        guard !overflowed, fractionDigits <= 18 else { throw .overflow(text) }
        if isNegative, magnitude != 0, !allowNegative { throw .negativeNotAllowed(text) }
        return Parsed(significand: isNegative ? -magnitude : magnitude, scale: fractionDigits)
    }

    /// Prints `value / 10^fractionDigits` with exactly `fractionDigits` decimals.
    static func format(_ value: Int64, fractionDigits: Int, groupingSeparator: String? = nil) -> String {
        // Work on the magnitude as UInt64 so Int64.min prints instead of trapping.
        let magnitude = value.magnitude
        let divisor = UInt64(Decimal10.power(fractionDigits))
        var integerPart = String(magnitude / divisor)
        if let separator = groupingSeparator {
            integerPart = group(integerPart, separator: separator)
        }
        var text = value < 0 ? "-" + integerPart : integerPart
        if fractionDigits > 0 {
            let fraction = String(magnitude % divisor)
            text += "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
        }
        return text
    }

    /// `format`'s bytes (without grouping) appended to `bytes`.
    static func append(_ value: Int64, fractionDigits: Int, to bytes: inout [UInt8]) {
        let magnitude = value.magnitude
        let divisor = UInt64(Decimal10.power(fractionDigits))
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(magnitude / divisor, atLeast: 1, to: &bytes)
        if fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(magnitude % divisor, atLeast: fractionDigits, to: &bytes)
        }
    }

    /// `value`'s decimal digits, zeros before them up to `atLeast` digits.
    private static func appendDigits(_ value: UInt64, atLeast minimum: Int, to bytes: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        count = max(count, minimum)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        var index = start + count - 1
        while remaining > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            index -= 1
        }
    }

    private static func group(_ digits: String, separator: String) -> String {
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.append(digits[start..<end])
            end = start
        }
        return groups.reversed().joined(separator: separator)
    }
}
