import SplitCore

extension StoredSplit.Node {
    /// The text `JSONEncoder` makes of this node with sorted keys and slashes left alone, written
    /// by hand: a create encoded its rule twice through `JSONEncoder` (once to check its size,
    /// once to store it), 4 % of its CPU (issue 16). `StoredFormatTests` checks the two agree to
    /// the byte on random rules.
    var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + 48 * ((members?.count ?? 0) + (amounts?.count ?? 0) + (parts?.count ?? 0)))
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8]) {
        var first = true
        func key(_ name: StaticString, _ bytes: inout [UInt8]) {
            bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        func string(_ text: String, _ bytes: inout [UInt8]) {
            JSONText.appendString(text, to: &bytes, escapingSlashes: false)
        }
        func list<Element>(_ elements: [Element], _ bytes: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void) {
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        func raw(_ text: StaticString, _ bytes: inout [UInt8]) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        /// `{"a":…,"<key>":"…"}`: an amount and one string.
        func amountAndText(
            _ amountKey: StaticString, _ amount: Int64, _ textKey: StaticString, _ text: String, _ bytes: inout [UInt8]
        ) {
            raw(amountKey, &bytes)
            JSONText.appendInteger(amount, to: &bytes)
            raw(textKey, &bytes)
            string(text, &bytes)
            raw("}", &bytes)
        }
        // The keys in the order `.sortedKeys` gives them.
        if let amounts {
            key("\"amounts\":", &bytes)
            list(amounts, &bytes) { amountAndText("{\"a\":", $0.amount, ",\"m\":", $0.member, &$1) }
        }
        if let extras {
            key("\"extras\":", &bytes)
            list(extras, &bytes) { amountAndText("{\"a\":", $0.amount, ",\"text\":", $0.text, &$1) }
        }
        if let items {
            key("\"items\":", &bytes)
            list(items, &bytes) { item, bytes in
                raw("{\"a\":", &bytes)
                JSONText.appendInteger(item.amount, to: &bytes)
                raw(",\"split\":", &bytes)
                item.split.write(to: &bytes)
                raw(",\"text\":", &bytes)
                string(item.text, &bytes)
                raw("}", &bytes)
            }
        }
        if let members {
            key("\"members\":", &bytes)
            list(members, &bytes) { member, bytes in string(member, &bytes) }
        }
        key("\"mode\":", &bytes)
        string(mode, &bytes)
        if let parts {
            key("\"parts\":", &bytes)
            list(parts, &bytes) { part, bytes in
                raw("{\"d\":", &bytes)
                string(part.decimal, &bytes)
                raw(",\"m\":", &bytes)
                string(part.member, &bytes)
                raw("}", &bytes)
            }
        }
        if let version {
            key("\"v\":", &bytes)
            JSONText.appendInteger(Int64(version), to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
