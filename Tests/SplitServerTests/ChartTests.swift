@testable import SplitServer
import Foundation
import SplitCore
import Testing

/// The overview's bar charts, drawn as SVG by the server.
@Suite("Charts")
struct ChartTests {
    @Test("a long label takes up to three lines instead of being cut: broken at spaces, a long word anywhere, a deleted category's marker kept")
    func longLabels() throws {
        // Found by a new user: "Date Night (deleted)" read "Date Night (del…", and wide first
        // lines ran under the bars.
        #expect(Charts.labelLines("Groceries") == ["Groceries"])
        #expect(Charts.labelLines("Fifteen chars!!") == ["Fifteen chars!!"])
        #expect(Charts.labelLines("Date Night (deleted)") == ["Date Night", "(deleted)"])
        #expect(Charts.labelLines("Supercalifragilisticexpialidocious") == ["Supercalifragil", "isticexpialidoc", "ious"])
        #expect(Charts.labelLines("Transport and parking at the airport, twice") == ["Transport and", "parking at the", "airport, twice"])
        #expect(Charts.labelLines("Transport and parking at the airport and more") == ["Transport and", "parking at the", "airport and…"])
        #expect(Charts.labelLines("Snacks on the road trip and more (deleted)") == ["Snacks on the", "road trip and…", "(deleted)"])
        for text in ["Alexandra Konstantinopoulou", "Accommodationandlodgingexpenses", "Long weekend skiing equipment"] {
            #expect(Charts.labelLines(text).allSatisfy { $0.count <= 15 } && Charts.labelLines(text).count <= 3, "\(text)")
        }

        let svg = try #require(
            Charts.bars(
                [("Food", 12_000), ("Date Night (deleted)", 3_000)], currency: try Currency(code: "JPY"), title: "By category"))
        // Rows of 30 and 44: the second row's label in two lines; the description keeps the whole
        // name; labels are clipped to their column.
        #expect(svg.contains(#"viewBox="0 0 320.0 74.0""#), "\(svg)")
        #expect(svg.contains(#"<tspan x="0" dy="0">Date Night</tspan><tspan x="0" dy="15">(deleted)</tspan>"#), "\(svg)")
        #expect(svg.contains("Date Night (deleted): 3,000 JPY"))
        #expect(svg.contains(#"<clipPath id="chart-by-category-labels"><rect x="0" y="0" width="106.0""#))
        #expect(svg.components(separatedBy: #"clip-path="url(#chart-by-category-labels)""#).count == 3)
        #expect(!svg.contains("…"))
    }
}
