import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
import Testing

/// `JSONText.duplicateKey`: what the API refuses a body for (a key twice in one object).
@Suite("JSON keys said twice")
struct JSONDuplicateKeyTests {
    @Test("hand-picked texts: the same key in two objects is fine; twice in one, escaped or nested, is found")
    func handPicked() {
        func found(_ text: String) -> String? {
            var text = text
            return text.withUTF8 { JSONText.duplicateKey(in: $0) }
        }
        #expect(found(#"{"amount":"1","split":{"amount":"2"},"items":[{"amount":"3"},{"amount":"4"}]}"#) == nil)
        #expect(found(#"{"amount":"1","amount":"2"}"#) == "amount")
        #expect(found(#"{"a":{"b":1,"c":[{"d":1,"d":2}]}}"#) == "d")
        #expect(found(#"{"amount":"1","\u0061mount":"2"}"#) == "amount")
        #expect(found(#"{"a":"}{\",\"a\":","b":1}"#) == nil)  // braces, quotes and commas inside a value
        #expect(found(#"["a","a",{"a":1},{"a":2}]"#) == nil)  // strings in arrays are no keys
        #expect(found(#"{"a":1,"b":{"x":1},"a":2}"#) == "a")
        #expect(found(#"{"a":1,"#) == nil && found(#"{"a":"never closed"#) == nil && found("}}]]") == nil)
        #expect(found("") == nil && found("not json") == nil)
    }

    /// Random JSON made by hand (JSONSerialization cannot write a key twice): nested objects and
    /// arrays, values with braces, quotes and escapes, keys sometimes escaped; in some texts one
    /// object says a key again (as written or escaped) and that key must be found, else none.
    @Test("random texts: a key said twice in one object is found, and only then")
    func random() async {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
        var rng = SplitMix64(seed: seed)
        let pool = ["a", "b", "amount", "id", "x y", "ü", "quo\"te", "back\\slash", "{", ","]
        func quoted(_ text: String, escapeAll: Bool = false) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default: out += escapeAll ? String(format: "\\u%04x", scalar.value) : String(scalar)
                }
            }
            return out + "\""
        }
        do {
            var duplicate: String?
            var wantDuplicate = Bool.random(using: &rng)
            func value(_ depth: Int) -> String {
                switch depth > 3 ? Int.random(in: 0...2, using: &rng) : Int.random(in: 0...4, using: &rng) {
                case 0: return String(Int.random(in: -1000...1000, using: &rng))
                case 1: return quoted(pool.randomElement(using: &rng)! + "}]\",:{")
                case 2: return ["true", "false", "null"].randomElement(using: &rng)!
                case 3: return "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
                default: return object(depth + 1)
                }
            }
            func object(_ depth: Int) -> String {
                var keys = Array(pool.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)))
                if wantDuplicate, let again = keys.first, Int.random(in: 0...2, using: &rng) == 0 {
                    keys.insert(again, at: Int.random(in: 1...keys.count, using: &rng))
                    wantDuplicate = false
                    duplicate = again
                }
                let members = keys.enumerated().map { index, key in
                    // The repeated key may be written escaped: still the same key.
                    quoted(key, escapeAll: index > 0 && key == duplicate && Bool.random(using: &rng)) + ":" + value(depth)
                }
                return "{ " + members.joined(separator: " , ") + " }"
            }
            let text = object(0)
            var bytes = text
            #expect(bytes.withUTF8 { JSONText.duplicateKey(in: $0) } == duplicate, "\(text)")
            if duplicate == nil {
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "not JSON: \(text)")
            }
        }
        }
    }
}
