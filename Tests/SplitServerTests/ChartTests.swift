@testable import SplitServer
import SplitCore
import Testing

/// The overview's bar charts, drawn as SVG by the server.
@Suite("Charts")
struct ChartTests {
    @Test("a long label takes a second line instead of being cut: broken at a space, a word longer than a line anywhere, the rest cut")
    func longLabels() throws {
        #expect(Charts.labelLines("Groceries") == ["Groceries"])
        #expect(Charts.labelLines("Sixteen chars ok") == ["Sixteen chars ok"])
        #expect(Charts.labelLines("Date Night (deleted)") == ["Date Night", "(deleted)"])
        #expect(Charts.labelLines("Supercalifragilistic") == ["Supercalifragili", "stic"])
        #expect(Charts.labelLines("Transport and parking at the airport") == ["Transport and", "parking at the …"])
        #expect(Charts.labelLines("Transport and parking at the airport").allSatisfy { $0.count <= 16 })

        let svg = try #require(
            Charts.bars(
                [("Food", 12_000), ("Date Night (deleted)", 3_000)], currency: try Currency(code: "JPY"), title: "By category"))
        // Rows of 30 and 42: the second row's label in two lines; the description keeps the whole name.
        #expect(svg.contains(#"viewBox="0 0 320.0 72.0""#), "\(svg)")
        #expect(svg.contains(#"<tspan x="0" dy="0">Date Night</tspan><tspan x="0" dy="15">(deleted)</tspan>"#), "\(svg)")
        #expect(svg.contains("Date Night (deleted): 3,000 JPY"))
        #expect(!svg.contains("…"))
    }
}
