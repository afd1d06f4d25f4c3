import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitStore

@Suite("Storage formats we own: the stored split and structured activity")
struct StoredFormatTests {
    @Test("every rule, random: decoding its stored text gives the same rule back")
    func splitRoundTrips() async {
        await propertyCheck(count: 1_000, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let rule = builder.rule(total: builder.total(), allowItemized: true)
            let text = StoredSplit.encode(rule)
            #expect(text.hasPrefix(#"{"#) && text.contains(#""v":1"#))
            let decoded = try StoredSplit.decode(text, currency: "JPY")
            #expect(decoded == rule)
            // The same rule is always the same text (a retried create compares them).
            #expect(StoredSplit.encode(rule) == text)
        }
    }

    @Test(
        "the hand writer writes what JSONEncoder writes; the hand reader reads it as JSONDecoder does, and leaves all else to it"
    )
    func handReader() async throws {
        await propertyCheck(count: 500, input: Gen.uint64()) { seed in
            var builder = ScenarioBuilder(seed: seed)
            let text = StoredSplit.encode(builder.rule(total: builder.total(), allowItemized: true))
            #expect(text == StoredSplit.encodeWithFoundation(try StoredSplit.decode(text, currency: "JPY")))
            let node = try #require(StoredSplit.Node.read(text), "\(text)")
            #expect(try node.rule() == StoredSplit.decodeWithFoundation(text, currency: "JPY"))
        }
        let aki = "5a1c2b9e-0000-4000-8000-000000000001"
        let a = try #require(MemberID(uuidString: aki))
        // Item texts with every escape JSONEncoder writes, read the same either way.
        for description in [
            "Beer \"IPA\"", "back\\slash/slash", "line\nbreak\ttab\r\u{8}\u{C}", "ünï 🍣 日本 \u{2028}",
            "\u{1}ctl\u{1F}\u{7F}", "",
        ] {
            let rule = SplitRule.itemized(
                items: [SplitItem(description: description, amount: 900, rule: .equal([a]))],
                extras: [SplitExtra(description: description, amount: -100)])
            let text = StoredSplit.encode(rule)
            #expect(text == StoredSplit.encodeWithFoundation(rule))
            #expect(try StoredSplit.decode(text, currency: "JPY") == rule, "\(text)")
            #expect(try StoredSplit.decodeWithFoundation(text, currency: "JPY") == rule)
        }
        // Not what encode writes: the reader says nil, and decode answers as before.
        for text in [
            #"{"v":1, "mode":"equal","members":[]}"#, #"{"v":1,"mode":"equal","members":[],"x":1}"#,
            #"{"v":1,"mode":"exact","amounts":[{"a":1.5,"m":"\#(aki)"}]}"#,
            #"{"v":1,"mode":"exact","amounts":[{"a":012,"m":"\#(aki)"}]}"#,
            #"{"v":1,"mode":"exact","amounts":[{"a":99999999999999999999,"m":"\#(aki)"}]}"#,
            #"{"mode":"equal","memberIds":["\#(aki)"]}"#, "", "{", #"{"v":1,"mode":"equal","members":[]}x"#,
        ] {
            if text.contains("memberIds") {
                #expect(StoredSplit.Node.read(text)?.version == nil)
            } else {
                #expect(StoredSplit.Node.read(text) == nil, "\(text)")
            }
            let fast = Result { try StoredSplit.decode(text, currency: "JPY") }
            let slow = Result { try StoredSplit.decodeWithFoundation(text, currency: "JPY") }
            #expect(String(describing: fast) == String(describing: slow), "\(text)")
        }
        #expect(
            try StoredSplit.Node.read(#"{"amounts":[{"a":-9223372036854775808,"m":"\#(aki)"}],"mode":"exact","v":1}"#)?
                .rule()
                == .exact([MemberAmount(a, Int64.min)]))
        // Any escape JSON allows is read (`JSONText.readString`), as Foundation reads it.
        let escaped = #"{"v":1,"mode":"equal","members":["\u0035a1c2b9e-0000-4000-8000-00000000000\u0031"]}"#
        #expect(try StoredSplit.Node.read(escaped)?.rule() == .equal([a]))
        #expect(
            try StoredSplit.decode(escaped, currency: "JPY")
                == StoredSplit.decodeWithFoundation(escaped, currency: "JPY"))
    }

    @Test("rows written before version 1 (the API's split object as sent) read as the same rules")
    func legacyRowsRead() throws {
        let aki = "5a1c2b9e-0000-4000-8000-000000000001"
        let bo = "5a1c2b9e-0000-4000-8000-000000000002"
        let a = try #require(MemberID(uuidString: aki))
        let b = try #require(MemberID(uuidString: bo))
        // Amounts were decimal strings in major units; fields the mode ignores were kept too.
        #expect(
            try StoredSplit.decode(
                #"{"mode":"exact","amounts":[{"memberId":"\#(aki)","amount":"12.5"},{"memberId":"\#(bo)","amount":"7.50"}],"memberIds":["junk"]}"#,
                currency: "USD") == .exact([MemberAmount(a, 1_250), MemberAmount(b, 750)]))
        #expect(
            try StoredSplit.decode(
                #"{"mode":"percent","percents":[{"memberId":"\#(aki)","percent":"33.33"}]}"#, currency: "JPY")
                == .percent([MemberDecimal(a, try DecimalValue(parsing: "33.33"))]))
        #expect(
            try StoredSplit.decode(
                #"{"mode":"adjustment","memberIds":["\#(aki)","\#(bo)"],"adjustments":[{"memberId":"\#(bo)","amount":"-1000"}]}"#,
                currency: "JPY") == .adjustment(members: [a, b], adjustments: [MemberAmount(b, -1_000)]))
        #expect(
            try StoredSplit.decode(
                #"{"mode":"itemized","items":[{"description":"Beer","amount":"9.00","split":{"mode":"equal","memberIds":["\#(aki)"]}}],"extras":[{"description":"Coupon","amount":"-1.00"}]}"#,
                currency: "SGD")
                == .itemized(
                    items: [SplitItem(description: "Beer", amount: 900, rule: .equal([a]))],
                    extras: [SplitExtra(description: "Coupon", amount: -100)]))
    }

    @Test("a version this code does not know, or text that is no split, is an error, never a guess")
    func unknownFormatsFail() {
        #expect(throws: StoredSplit.DecodingError.unknownVersion(2)) {
            try StoredSplit.decode(#"{"v":2,"mode":"equal","members":[]}"#, currency: "JPY")
        }
        #expect(throws: (any Error).self) { try StoredSplit.decode("not json", currency: "JPY") }
        #expect(throws: (any Error).self) {
            try StoredSplit.decode(#"{"mode":"equal","memberIds":["x"]}"#, currency: "JPY")
        }
    }

    @Test("old activity sentences read back into data, tricky names included; others are kept whole")
    func legacyActivity() {
        #expect(
            ActivityEvent.fromLegacy(
                action: "expense.created", actorName: "Aki", summary: "Aki added Dinner (with Bo) (1,234.50 USD)")
                == ActivityEvent(subject: "Dinner (with Bo)", amount: 123_450, currency: "USD"))
        #expect(
            ActivityEvent.fromLegacy(action: "member.added", actorName: "", summary: "Someone added Dee")
                == ActivityEvent(subject: "Dee"))
        #expect(
            ActivityEvent.fromLegacy(action: "member.joined", actorName: "Chen Wei", summary: "Chen Wei joined as Chen")
                == ActivityEvent(asMember: "Chen"))
        #expect(
            ActivityEvent.fromLegacy(
                action: "settlement.recorded", actorName: "Bo", summary: "Bo recorded a transfer of 1,080 JPY")
                == ActivityEvent(amount: 1_080, currency: "JPY"))
        #expect(
            ActivityEvent.fromLegacy(action: "rates.updated", actorName: "Aki", summary: "Aki set 3 exchange rate(s)")
                == ActivityEvent(count: 3))
        #expect(
            ActivityEvent.fromLegacy(
                action: "share.marked_paid", actorName: "Aki", summary: "Aki marked a share of Taxi paid")
                == ActivityEvent(subject: "Taxi"))
        // Renamed since, or an action without a template: nothing is guessed or lost.
        #expect(
            ActivityEvent.fromLegacy(action: "expense.created", actorName: "Aki", summary: "Akiko added Tea (5.00 SGD)")
                == ActivityEvent(legacyText: "Akiko added Tea (5.00 SGD)"))
        #expect(
            ActivityEvent.fromLegacy(action: "group.renamed", actorName: "Aki", summary: "Aki renamed the group")
                == ActivityEvent(legacyText: "Aki renamed the group"))
    }

    @Test("events written by hand are what JSONEncoder writes, for random fields of every kind, escapes included")
    func activityHandWriter() async {
        await propertyCheck(count: 1_000, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            func text() -> String? {
                guard Bool.random(using: &rng) else { return nil }
                return [
                    "Ramen \"ichiban\"", "back\\slash/slash", "line\nbreak\ttab\r\u{8}\u{C}", "ünï 🍣 日本 \u{2028}",
                    "\u{1}ctl\u{1F}\u{7F}", "", String(repeating: "x", count: Int.random(in: 0...300, using: &rng)),
                ].randomElement(using: &rng)!
            }
            func number() -> Int64? {
                Bool.random(using: &rng) ? [Int64.min, .max, 0, -1, 1_200, Int64.random(in: .min ... .max, using: &rng)].randomElement(using: &rng) : nil
            }
            let event = ActivityEvent(
                subject: text(), amount: number(), currency: text(), count: number().map { Int($0) }, asMember: text(),
                role: text(), reason: text(), limit: number(), percent: number().map { Int($0) }, period: text(),
                legacyText: text(), from: text(), to: text(), member: text())
            #expect(event.json == event.jsonWithFoundation, "\(event.json)\n\(event.jsonWithFoundation)")
            #expect((try? ActivityEvent.decode(event.json)) == event)
        }
        #expect(ActivityEvent().json == #"{"v":1}"#)
    }

    @Test("events round-trip through their stored JSON, and the version is checked")
    func activityJSON() throws {
        let event = ActivityEvent(subject: "Ramen \"ichiban\"", amount: -1_200, currency: "JPY")
        #expect(try ActivityEvent.decode(event.json) == event)
        #expect(event.json.contains(#""v":1"#))
        #expect(throws: (any Error).self) { try ActivityEvent.decode(#"{"v":9}"#) }
    }
}
