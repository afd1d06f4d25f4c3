import Foundation

/// An ISO 4217 currency: its alphabetic code and how many decimal places its minor unit has.
///
/// DESIGN §3: amounts are integers in the currency's minor unit (JPY 0, USD 2, KWD 3), so the
/// exponent is the one fact every parse, format, split and conversion depends on.
///
/// A plain value of two integers (the code packed into one), so the `Money` values that carry it
/// copy and compare for free; the name is looked up in the table when asked for.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The three ASCII letters of the code, one byte each.
    private let packedCode: UInt32
    /// Decimal places of the minor unit: 10^minorUnits minor units make one major unit.
    public let minorUnits: Int

    private init(_ row: ISOCurrency) {
        packedCode = row.code.utf8.reduce(0) { $0 << 8 | UInt32($1) }
        minorUnits = row.minorUnits
    }

    /// Looks a currency up by its code; surrounding spaces and lower case are tolerated.
    ///
    /// - Throws: `CurrencyError.unknownCode` for anything that is not in the ISO 4217 table.
    public init(code rawCode: String) throws(CurrencyError) {
        // Stored and wire codes are three capitals: looked up by their bytes, without Foundation's
        // trimming (issue 16: that was 7 % of a change-feed page, one call per amount).
        var utf8 = rawCode.utf8.makeIterator()
        if rawCode.utf8.count == 3, let a = utf8.next(), let b = utf8.next(), let c = utf8.next(),
            [a, b, c].allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        {
            guard let row = Self.rows[UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)] else {
                throw .unknownCode(rawCode)
            }
            self.init(row)
            return
        }
        let code = rawCode.trimmingCharacters(in: .whitespaces).uppercased()
        guard let currency = Currency.byCode[code] else { throw .unknownCode(rawCode) }
        self = currency
    }

    /// The three-letter ISO 4217 code, upper case ("JPY").
    public var code: String {
        String(
            decoding: [UInt8(packedCode >> 16 & 0xFF), UInt8(packedCode >> 8 & 0xFF), UInt8(packedCode & 0xFF)],
            as: UTF8.self)
    }

    /// The ISO 4217 English name ("Yen").
    public var name: String { Self.rows[packedCode]!.name }

    /// A code that ISO has withdrawn recently; still accepted so older records and imports load.
    public var isWithdrawn: Bool { Self.rows[packedCode]!.isWithdrawn }

    /// Every currency we accept, sorted by code.
    public static let all: [Currency] = isoTable.map(Currency.init).sorted { $0.code < $1.code }

    private static let byCode: [String: Currency] = Dictionary(
        uniqueKeysWithValues: isoTable.map { ($0.code, Currency($0)) })
    private static let rows: [UInt32: ISOCurrency] = Dictionary(
        uniqueKeysWithValues: isoTable.map { (Currency($0).packedCode, $0) })

    /// 10^minorUnits: how many minor units make one major unit.
    public var minorUnitsPerMajor: Int64 { Decimal10.power(minorUnits) }

    public var description: String { code }
}

public enum CurrencyError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCode(String)

    public var description: String {
        switch self {
        case .unknownCode(let code): "\"\(code)\" is not an ISO 4217 currency code"
        }
    }
}

extension Currency {
    public static var jpy: Currency { byCode["JPY"]! }
    public static var usd: Currency { byCode["USD"]! }
    public static var eur: Currency { byCode["EUR"]! }
    public static var myr: Currency { byCode["MYR"]! }
    public static var sgd: Currency { byCode["SGD"]! }
    public static var kwd: Currency { byCode["KWD"]! }
}
