/// Bytes as lower-case hexadecimal, without `String(format:)` (which parsed its format for each
/// of a hash's 32 bytes on every request: issue 16).
public enum Hex {
    /// The sixteen digits, for every hand-written hex in SplitCore (ids, JSON escapes, hashes).
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

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
