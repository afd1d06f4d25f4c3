/// A JSON string exactly as Foundation's `JSONEncoder` writes one, for the encoders written by
/// hand to match it to the byte (the change feed's expenses, the stored split): `"` and `\` with a
/// backslash, the control characters by their short escapes or as `\u00xx`, `/` as `\/` unless
/// `escapingSlashes` is false (`.withoutEscapingSlashes`), everything else as it is; and the one
/// reader of JSON strings for the readers written by hand (`readString`).
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

    /// What is wrong with a JSON string `readString` refused.
    public struct StringError: Error, Equatable, Sendable {
        public let message: String
    }

    /// Reads the JSON string that starts at `index` (its opening `"`), escapes and all, checking
    /// its UTF-8 (RFC 8259); `index` then points past its closing `"`. The one reader of JSON
    /// strings for the readers written by hand (the SDK's change-feed pages, the stored split).
    public static func readString(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int
    ) throws(StringError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw StringError(message: "a string expected")
        }
        index += 1
        let start = index
        // Most strings have no escape: their bytes are the string's.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw StringError(message: "not UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw StringError(message: "a control character in a string") }
            index += 1
        }
        var output = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: output, as: UTF8.self) else {
                    throw StringError(message: "not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4(bytes, at: &index)
                    if (0xD800..<0xDC00).contains(code) {
                        // A high surrogate: its low half must follow as another \u escape.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw StringError(message: "a lone surrogate in a string") }
                        index += 2
                        let low = try hex4(bytes, at: &index)
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw StringError(message: "a lone surrogate in a string")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw StringError(message: "a lone surrogate in a string")
                    }
                    output.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
                default: throw StringError(message: "an unknown escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw StringError(message: "a control character in a string") }
                output.append(byte)
            }
        }
        throw StringError(message: "the text ends in a string")
    }

    /// The first key written twice in one object of a JSON text (escapes read: `"\u0061"` is
    /// `"a"`), or nil. JSON's grammar allows it and readers differ on which one counts, so a
    /// proxy or a client library could see another request than the server: the API refuses
    /// such a body (DESIGN §5). One pass, no values built; text that is not JSON gives nil, for
    /// the decoder to refuse.
    public static func duplicateKey(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        /// One open object (its keys so far) or array (nil).
        var frames: [Set<[UInt8]>?] = []
        var expectingKey = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                frames.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                frames.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !frames.isEmpty else { return nil }
                frames.removeLast()
                expectingKey = false
            case UInt8(ascii: ","):
                // After a value: an object's next key, or an array's next value.
                expectingKey = frames.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let start = index
                var escaped = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1
                    }
                    index += 1
                }
                guard index < bytes.count else { return nil }  // never closed
                guard expectingKey, let top = frames.indices.last, frames[top] != nil else { break }
                var key = Array(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]))
                if escaped {
                    var at = start
                    guard let read = try? readString(bytes, at: &at) else { return nil }
                    key = Array(read.utf8)
                }
                // In place: the set is not copied for each key.
                guard frames[top]?.insert(key).inserted == true else { return String(decoding: key, as: UTF8.self) }
                expectingKey = false
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(StringError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw StringError(message: "the text ends in an escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw StringError(message: "a \\u escape of four hex digits expected")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }
}
