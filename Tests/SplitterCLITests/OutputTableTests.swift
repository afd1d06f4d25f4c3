import Testing

@testable import SplitterCLI

/// The CLI's tables (`Output.table`): columns line up by characters, and no cell is cut.
@Suite("The CLI's tables")
struct OutputTableTests {
    @Test("cells are padded by characters and never cut: an emoji, accents, CJK, an empty cell")
    func padding() {
        let lines = Output.lines(
            ["DESCRIPTION", "AMOUNT"],
            [["Café / \"quoted\" ünï 🍣", "33.33"], ["寿司", "1200"], ["", "7.50"], ["Taxi", ""]])
        #expect(
            lines == [
                "DESCRIPTION            AMOUNT",
                "Café / \"quoted\" ünï 🍣  33.33",
                "寿司                     1200",
                "                       7.50",
                "Taxi",
            ], "\(lines)")
        #expect(!lines.joined().contains("\u{FFFD}"))
    }
}
