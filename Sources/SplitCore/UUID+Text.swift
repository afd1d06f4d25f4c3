import Foundation

// The one encoding of ids in the database and on the wire: lower-case text. Written by hand
// because Foundation's `uuidString` and `UUID(uuidString:)` go through snprintf and sscanf on
// Linux: a full change-feed page formats and parses tens of thousands of ids, and those two calls
// were a third of the server's time for it (perf, docs/benchmarks.md).

extension UUID {
    /// A new random (version 4) id, as `UUID()` makes, drawn from the system's generator
    /// (`getrandom` on Linux). Foundation's `UUID()` on Linux opens, reads and closes
    /// /dev/urandom for every id: the seven ids of one expense create cost 28 system calls
    /// (strace, issue 16). Server code makes its ids with this.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    /// A new time-ordered (version 7, RFC 9562) id: the Unix time in milliseconds in its first
    /// 48 bits, then 74 random bits. Rows written in volume (shares, activity lines) take these:
    /// a new row's key lands at the end of its index, where a random id lands on any page of
    /// it, so an insert dirties one page instead of one page per row, and a large table's
    /// inserts stay as cheap as a small one's (issue 16). The first characters are the time: a
    /// short form of such an id takes its last characters.
    public static func timeOrdered(milliseconds: Int64 = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)))
        -> UUID
    {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            let time = UInt64(clamping: max(milliseconds, 0))
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index)))
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x70  // version 7
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    /// Lower-case text, the same as `uuidString.lowercased()`.
    public var text: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { output in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        output[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    output[index] = Hex.digits[Int(byte >> 4)]
                    output[index + 1] = Hex.digits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }

    /// Parses what `UUID(uuidString:)` accepts (36 characters, hex digits in either case, dashes
    /// at 8, 13, 18 and 23); nil for anything else.
    public init?(text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { input in
            guard input.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let isValid = withUnsafeMutableBytes(of: &value) { output in
                var index = 0
                for position in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard input[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = Self.hexValue(input[index]), let low = Self.hexValue(input[index + 1]) else {
                        return false
                    }
                    output[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return isValid ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    /// Whether `text` sorts before `other.text`, without writing either: lower-case hex keeps the
    /// bytes' order, so comparing the 16 bytes gives the same answer (sorting a feed's shares by
    /// member wrote two strings per comparison).
    public func sortsBefore(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { left in
            withUnsafeBytes(of: other.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
