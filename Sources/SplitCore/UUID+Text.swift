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
        String(unsafeUninitializedCapacity: 36) { output in
            write(into: output)
            return 36
        }
    }

    /// The lower-case text appended to `bytes` (the change feed's writer: no `String` made).
    public func appendText(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            write(into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    /// The 36 bytes of the lower-case text into `output`, which holds at least 36. The digits
    /// are worked out, not looked up: a table is a global, and reaching it once a byte cost more
    /// than the arithmetic (`perf`, issue 16).
    private func write(into output: UnsafeMutableBufferPointer<UInt8>) {
        @inline(__always) func digit(_ value: UInt8) -> UInt8 {
            value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
        }
        withUnsafeBytes(of: uuid) { bytes in
            var index = 0
            for position in 0..<16 {
                if position == 4 || position == 6 || position == 8 || position == 10 {
                    output[index] = UInt8(ascii: "-")
                    index += 1
                }
                let byte = bytes[position]
                output[index] = digit(byte >> 4)
                output[index + 1] = digit(byte & 0x0F)
                index += 2
            }
        }
    }

    /// Parses what `UUID(uuidString:)` accepts (36 characters, hex digits in either case, dashes
    /// at 8, 13, 18 and 23); nil for anything else.
    public init?(text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.init(uuid: parsed)
    }

    /// The same from UTF-8 bytes: a database cell's, read without making a `String` first.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard let parsed = Self.parse(bytes) else { return nil }
        self.init(uuid: parsed)
    }

    /// One pass, the digits' values from a table and any bad character noted in a flag rather
    /// than returned at once: ids are parsed by the hundred thousand for a feed (issue 16).
    private static func parse(_ input: UnsafeRawBufferPointer) -> uuid_t? {
        let dash = UInt8(ascii: "-")
        guard input.count == 36, input[8] == dash, input[13] == dash, input[18] == dash, input[23] == dash else {
            return nil
        }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let isValid = Hex.values.withUnsafeBufferPointer { values in
            withUnsafeMutableBytes(of: &value) { output in
                var bad: UInt8 = 0
                var index = 0
                for position in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                    let high = values[Int(input[index])]
                    let low = values[Int(input[index + 1])]
                    bad |= high | low
                    output[position] = high << 4 | (low & 0x0F)
                    index += 2
                }
                return bad & 0xF0 == 0
            }
        }
        return isValid ? value : nil
    }

    /// Whether `text` sorts before `other.text`, without writing either: lower-case hex keeps the
    /// bytes' order, so comparing the 16 bytes gives the same answer (sorting a feed's shares by
    /// member wrote two strings per comparison).
    public func sortsBefore(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { left in
            withUnsafeBytes(of: other.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }
}
