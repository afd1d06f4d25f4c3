import Foundation
import NIOCore

/// Finds a key written twice in one object of a JSON text. JSON's grammar allows it and decoders
/// differ on which one wins (ours took the first): a proxy or a client library reading the other
/// one would see another request than the server (DESIGN §5: bad input is a clear 4xx). One pass
/// over the bytes, no values built; text that is not JSON is left to the decoder to refuse.
enum JSONDuplicateKeys {
    /// The first key found twice in one object, as written (escapes read), or nil.
    static func first(in buffer: ByteBuffer) -> String? {
        buffer.withUnsafeReadableBytes { first(in: $0) }
    }

    static func first(in bytes: UnsafeRawBufferPointer) -> String? {
        /// One open object (its keys so far) or array (nil).
        var frames: [Set<[UInt8]>?] = []
        var expectingKey = false
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
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
                let start = index + 1
                var end = start
                var escaped = false
                while end < count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") {
                        escaped = true
                        end += 1
                    }
                    end += 1
                }
                guard end < count else { return nil }  // never closed: the decoder says so
                if expectingKey, let top = frames.indices.last, frames[top] != nil {
                    var key = Array(bytes[start..<end])
                    if escaped {
                        // "\u0061mount" is "amount": compared as read, not as written.
                        guard let read = Self.unescaped(bytes[(start - 1)...end]) else { return nil }
                        key = Array(read.utf8)
                    }
                    // In place: the set is not copied for each key.
                    guard frames[top]?.insert(key).inserted == true else { return String(decoding: key, as: UTF8.self) }
                    expectingKey = false
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A quoted JSON string's text.
    private static func unescaped(_ quoted: Slice<UnsafeRawBufferPointer>) -> String? {
        try? JSONDecoder().decode(String.self, from: Data(quoted))
    }
}
