/// Bytes as lower-case hexadecimal, without `String(format:)` (which parsed its format for each
/// of a hash's 32 bytes on every request: issue 16).
public enum Hex {
    /// The sixteen digits, for every hand-written hex in SplitCore (ids, JSON escapes, hashes).
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Each byte's value as a hex digit (either case), 0xFF for a byte that is not one.
    static let values: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }

    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
