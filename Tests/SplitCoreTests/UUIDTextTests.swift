import Foundation
import SplitCore
import SplitTestSupport
import Testing

/// The hand-written id text must be exactly Foundation's, both ways.
@Suite("UUID text")
struct UUIDTextTests {
    @Test("text is uuidString in lower case and parses back, for random ids")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            // setup: random bytes, not only version-4 ids
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let id = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            // act / validate
            #expect(id.text == id.uuidString.lowercased())
            #expect(UUID(text: id.text) == id)
            #expect(UUID(text: id.uuidString) == id)
            // Appended after what a buffer holds already, the same bytes and nothing else touched.
            var buffer = Array("{\"id\":\"".utf8)
            id.appendText(to: &buffer)
            #expect(buffer == Array("{\"id\":\"\(id.uuidString.lowercased())".utf8))
        }
    }

    @Test("a text with one character changed parses exactly when it is still an id, from a String or its bytes")
    func oneCharacterChanged() {
        var rng = SplitMix64(seed: 7)
        let characters = Array("0123456789abcdefABCDEFgxzG-_ {}".utf8) + [0, 0x7F, 0xC3, 0xFF]
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        var accepted = 0
        for _ in 0..<20_000 {
            // setup: a random id's text, either case, with one byte replaced
            let id = UUID.random()
            var bytes = Array((Bool.random(using: &rng) ? id.uuidString : id.text).utf8)
            bytes[Int.random(in: 0..<36, using: &rng)] = characters.randomElement(using: &rng)!
            let text = String(decoding: bytes, as: UTF8.self)
            // Still an id: dashes at 8, 13, 18 and 23, hex digits elsewhere. Then Foundation's
            // answer is the one; it also takes a space for a digit, which ids never hold.
            let isID = bytes.enumerated().allSatisfy { index, byte in
                [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : hexDigits.contains(byte)
            }
            let expected = isID ? UUID(uuidString: text) : nil
            // act
            let parsed = UUID(text: text)
            let fromBytes = bytes.withUnsafeBytes { UUID(utf8: $0) }
            // validate
            #expect(parsed == expected, "\(text)")
            #expect(fromBytes == expected, "\(bytes)")
            if isID { #expect(expected != nil) }
            if parsed != nil { accepted += 1 }
        }
        // Both kinds were met: a digit for a digit is still an id, most else is not.
        #expect(accepted > 5_000 && accepted < 15_000, "\(accepted)")
    }

    @Test("sortsBefore orders ids as their text does, for random ids and ids sharing a prefix")
    func order() {
        var rng = SplitMix64(seed: 6)
        func randomID(prefix: [UInt8]) -> UUID {
            let bytes = prefix + (prefix.count..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
        for round in 0..<2_000 {
            // setup: every other pair shares its first bytes, so later bytes decide
            let shared = (0..<(round % 2 == 0 ? 0 : Int.random(in: 1...15, using: &rng))).map { _ in
                UInt8.random(in: 0...255, using: &rng)
            }
            let left = randomID(prefix: shared)
            let right = randomID(prefix: shared)
            // act / validate
            #expect(left.sortsBefore(right) == (left.text < right.text), "\(left.text) \(right.text)")
            #expect(right.sortsBefore(left) == (right.text < left.text))
            #expect(!left.sortsBefore(left))
        }
    }

    @Test(
        "what UUID(uuidString:) refuses is refused",
        arguments: [
            "", "0", "00000000-0000-0000-0000-00000000000", "00000000-0000-0000-0000-0000000000000",
            "00000000_0000-0000-0000-000000000000", "0000000-00000-0000-0000-000000000000",
            "g0000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000z",
            "{0000000-0000-0000-0000-000000000000}", "00000000-0000-0000-0000-0000000000é",
        ])
    func refusesMalformed(text: String) {
        #expect(UUID(text: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test("a random id is a version 4, RFC 4122 id, and 10,000 of them are all different")
    func randomIDs() {
        // act
        let ids = (0..<10_000).map { _ in UUID.random() }
        // validate
        for id in ids {
            let text = id.text
            let version = text[text.index(text.startIndex, offsetBy: 14)]
            #expect(version == "4", "\(text)")
        }
        Self.expectRandom(ids, from: 0)
    }

    /// No id twice, each parses back from its text with the RFC variant, and every bit from byte
    /// `first` on that is not the version's or the variant's took both values.
    static func expectRandom(_ ids: [UUID], from first: Int) {
        #expect(Set(ids).count == ids.count)
        var bitsSeenSet = [UInt8](repeating: 0, count: 16)
        var bitsSeenClear = [UInt8](repeating: 0, count: 16)
        for id in ids {
            let text = id.text
            #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]), "\(text)")
            #expect(UUID(uuidString: text) == id)
            withUnsafeBytes(of: id.uuid) { bytes in
                for index in 0..<16 {
                    bitsSeenSet[index] |= bytes[index]
                    bitsSeenClear[index] |= ~bytes[index]
                }
            }
        }
        for index in first..<16 {
            let fixed: UInt8 = index == 6 ? 0xF0 : index == 8 ? 0xC0 : 0
            #expect(bitsSeenSet[index] | fixed == 0xFF, "byte \(index)")
            #expect(bitsSeenClear[index] | fixed == 0xFF, "byte \(index)")
        }
    }

    @Test("a time-ordered id is a version 7 id with its millisecond in its first 48 bits, random after them, and ids of later milliseconds sort after")
    func timeOrderedIDs() {
        // act: 10,000 ids in one millisecond, and one each in milliseconds around it
        let millisecond: Int64 = 1_795_000_000_123
        let ids = (0..<10_000).map { _ in UUID.timeOrdered(milliseconds: millisecond) }
        let later = [millisecond - 1, millisecond + 1, millisecond + 256, millisecond + 86_400_000].map {
            UUID.timeOrdered(milliseconds: $0)
        }
        // validate: the time first, then random bits
        for id in ids {
            #expect(id.text.hasPrefix("01a1ee56-5e7b-7"), "\(id.text)")  // 1_795_000_000_123 is 0x01a1ee565e7b
        }
        Self.expectRandom(ids, from: 6)
        #expect(later[0].sortsBefore(ids[0]) && later[0].text < ids[0].text)
        for next in later.dropFirst() {
            #expect(ids.allSatisfy { $0.sortsBefore(next) && $0.text < next.text })
        }
        // Now's: between the milliseconds before and after it was made.
        let before = Int64(Date().timeIntervalSince1970 * 1_000)
        let now = UUID.timeOrdered()
        let after = Int64(Date().timeIntervalSince1970 * 1_000) + 1
        #expect(UUID.timeOrdered(milliseconds: before - 1).sortsBefore(now))
        #expect(now.sortsBefore(UUID.timeOrdered(milliseconds: after)))
    }
}
