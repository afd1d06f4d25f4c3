/// A JSON string exactly as Foundation's `JSONEncoder` writes one, for the encoders written by
/// hand to match it to the byte (the change feed's expenses, the stored split): `"` and `\` with a
/// backslash, the control characters by their short escapes or as `\u00xx`, `/` as `\/` unless
/// `escapingSlashes` is false (`.withoutEscapingSlashes`), everything else as it is.
public enum JSONText {
    public static func appendString(_ text: String, to bytes: inout [UInt8], escapingSlashes: Bool = true) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapingSlashes) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C, 0x2F: bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(Hex.digits[Int(byte >> 4)])
                    bytes.append(Hex.digits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer as JSON writes it.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
