import Testing

@testable import SplitterCLI

/// The CLI's tables (`Output.table`): columns line up on a terminal, and no cell is cut.
@Suite("The CLI's tables")
struct OutputTableTests {
    @Test("cells are padded by the columns a terminal shows them in and never cut: emoji, accents, CJK, empty")
    func padding() {
        let lines = Output.lines(
            ["DESCRIPTION", "AMOUNT"],
            [["Café / \"quoted\" ünï 🍣", "33.33"], ["寿司", "1200"], ["", "7.50"], ["Taxi", ""]])
        // The emoji and each of the two kanji take two columns: AMOUNT starts in column 25 on
        // every line.
        #expect(
            lines == [
                "DESCRIPTION             AMOUNT",
                "Café / \"quoted\" ünï 🍣  33.33",
                "寿司                    1200",
                "                        7.50",
                "Taxi",
            ], "\(lines)")
        #expect(!lines.joined().contains("\u{FFFD}"))
    }

    @Test("a character's columns: wide for CJK, kana, Hangul, full-width forms and emoji, one for the rest")
    func columns() {
        let cases: [(String, Int)] = [
            ("Taxi", 4), ("", 0), ("café", 4), ("e\u{301}", 1), ("ünï", 3), ("寿司", 4), ("ラーメン", 8),
            ("냉면", 4), ("ＡＢ", 4), ("🍜", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1),
            ("©", 1), ("1", 1), ("½", 1), ("Ω", 1), ("Nasi lemak 🍛 RM12", 18),
        ]
        for (text, expected) in cases {
            #expect(Output.columns(text) == expected, "\(text)")
        }
    }
}
