import Foundation
import SplitCore

extension StoredSplit.Node {
    init(mode: String) { self.mode = mode }

    /// Version 1 exactly as `StoredSplit.encode` writes it (no spaces, the keys it writes,
    /// integers, strings as `JSONText.readString` reads them); nil for any other text, which
    /// `StoredSplit.decodeWithFoundation` then reads. So this can only ever be faster, never read
    /// differently: `StoredFormatTests` checks both agree.
    static func read(_ text: String) -> Self? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = SplitTextReader(bytes: bytes)
            guard let node = reader.node(), reader.index == bytes.count else { return nil }
            return node
        }
    }
}

/// The few pieces of JSON the stored split is made of, over its UTF-8 bytes.
private struct SplitTextReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func node() -> StoredSplit.Node? {
        var node = StoredSplit.Node(mode: "")
        var hasMode = false
        let read = object { reader, key in
            switch key {
            case "v":
                guard let value = reader.integer(), let version = Int(exactly: value) else { return false }
                node.version = version
            case "mode":
                guard let mode = reader.string() else { return false }
                node.mode = mode
                hasMode = true
            case "members":
                node.members = reader.array { $0.string() }
                return node.members != nil
            case "amounts":
                node.amounts = reader.array { $0.amount() }
                return node.amounts != nil
            case "parts":
                node.parts = reader.array { $0.part() }
                return node.parts != nil
            case "items":
                node.items = reader.array { $0.item() }
                return node.items != nil
            case "extras":
                node.extras = reader.array { $0.extra() }
                return node.extras != nil
            default:
                return false
            }
            return true
        }
        return read && hasMode ? node : nil
    }

    mutating func amount() -> StoredSplit.Node.Amount? {
        pair("m", { $0.string() }, "a", { $0.integer() }).map { .init(member: $0, amount: $1) }
    }

    mutating func part() -> StoredSplit.Node.Part? {
        pair("m", { $0.string() }, "d", { $0.string() }).map { .init(member: $0, decimal: $1) }
    }

    mutating func item() -> StoredSplit.Node.Item? {
        var text: String?
        var amount: Int64?
        var split: StoredSplit.Node?
        let read = object { reader, key in
            switch key {
            case "text": text = reader.string()
            case "a": amount = reader.integer()
            case "split": split = reader.node()
            default: return false
            }
            return true
        }
        guard read, let text, let amount, let split else { return nil }
        return .init(text: text, amount: amount, split: split)
    }

    mutating func extra() -> StoredSplit.Node.Extra? {
        pair("text", { $0.string() }, "a", { $0.integer() }).map { .init(text: $0, amount: $1) }
    }

    /// An object of exactly these two keys, in either order.
    mutating func pair<First, Second>(
        _ firstKey: String, _ first: (inout SplitTextReader) -> First?, _ secondKey: String,
        _ second: (inout SplitTextReader) -> Second?
    ) -> (First, Second)? {
        var one: First?
        var two: Second?
        let read = object { reader, key in
            switch key {
            case firstKey:
                one = first(&reader)
                return one != nil
            case secondKey:
                two = second(&reader)
                return two != nil
            default:
                return false
            }
        }
        guard read, let one, let two else { return nil }
        return (one, two)
    }

    /// `{"key":value,…}`, each value read by `field`, which says whether it could.
    mutating func object(_ field: (inout SplitTextReader, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), field(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    mutating func array<Element>(_ element: (inout SplitTextReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }

    /// An integer without leading zeros that fits in 64 bits.
    mutating func integer() -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return Int64(exactly: magnitude)
    }

    mutating func string() -> String? {
        try? JSONText.readString(bytes, at: &index)
    }
}
