import Foundation
import SplitAPI
import SplitCore
import SplitStore

/// Charts drawn by the server as SVG: no script, no library, readable by screen readers
/// (a title and a description listing every value).
enum Charts {
    static let palette = ["#2f6fde", "#e0742b", "#2a9d6f", "#b04fbf", "#c9a227", "#d1495b", "#4c8c99", "#7a7a7a"]

    static func bars(_ rows: [(label: String, value: Int64)], currency: Currency, title: String) -> String? {
        guard let largest = rows.map(\.value).max(), largest > 0 else { return nil }
        let width = 320.0
        let labelWidth = 110.0
        let valueWidth = 90.0
        let barSpace = width - labelWidth - valueWidth
        var description: [String] = []
        var shapes = ""
        var y = 0.0
        for (index, row) in rows.enumerated() {
            let length = max(2, barSpace * Double(row.value) / Double(largest))
            let value = WebFormat.grouped(Money(minorUnits: row.value, currency: currency).decimalString)
            // 16 characters fit beside the bars; a longer name takes a second line (found by a new
            // user: "Date Night (deleted)" read "Date Night (del…").
            let lines = labelLines(row.label)
            let rowHeight = lines.count == 1 ? 30.0 : 42.0
            let middle = y + rowHeight / 2
            description.append("\(row.label): \(value) \(currency.code)")
            let label =
                lines.count == 1
                ? Markup.escape(lines[0])
                : lines.enumerated().map { line, text in
                    #"<tspan x="0" dy="\#(line == 0 ? "0" : "15")">\#(Markup.escape(text))</tspan>"#
                }.joined()
            shapes += """
                <text x="0" y="\(format(middle + 4.5 - Double(lines.count - 1) * 7.5))" class="chart-label">\(label)</text>\
                <rect x="\(labelWidth)" y="\(format(middle - 9))" width="\(format(length))" height="18" rx="3" \
                fill="\(palette[index % palette.count])"></rect>\
                <text x="\(format(labelWidth + length + 6))" y="\(format(middle + 4))" class="chart-value">\
                \(Markup.escape(value))</text>
                """
            y += rowHeight
        }
        let height = y
        let id =
            "chart-"
            + String(title.lowercased().unicodeScalars.map { $0.properties.isAlphabetic ? Character($0) : "-" })
        return """
            <svg class="chart" viewBox="0 0 \(format(width)) \(format(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMinYMin meet">\
            <title id="\(id)-title">\(Markup.escape(title)) (\(currency.code))</title>\
            <desc id="\(id)-desc">\(Markup.escape(description.joined(separator: "; ")))</desc>\(shapes)</svg>
            """
    }

    /// A bar's label in at most two lines of `width` characters: broken at the last space that
    /// fits (anywhere in a word longer than a line), the second line cut with an ellipsis.
    static func labelLines(_ text: String, width: Int = 16) -> [String] {
        guard text.count > width else { return [text] }
        let head = text.prefix(width + 1)
        let first: Substring
        let rest: Substring
        if let space = head.lastIndex(of: " "), space > text.startIndex {
            first = text[..<space]
            rest = text[text.index(after: space)...].drop { $0 == " " }
        } else {
            first = text.prefix(width)
            rest = text.dropFirst(width)
        }
        return [String(first), rest.count > width ? rest.prefix(width - 1) + "…" : String(rest)]
    }

    /// One budget line's bar: the cap as the track, what was spent as the fill (amber from 80 %,
    /// red past the cap). Hidden from screen readers: the line's numbers stand beside it as text.
    /// Empty without a cap.
    static func budgetBar(_ figures: BudgetFigures, label: String, currency: String) -> String {
        guard let cap = figures.cap else { return "" }
        let width = 200.0
        let ratio = cap > 0 ? min(1, max(0, Double(figures.spent) / Double(cap))) : (figures.spent > 0 ? 1 : 0)
        let percent = figures.percent ?? (figures.spent > 0 ? 100 : 0)
        let color = percent >= 100 ? "#d1495b" : percent >= 80 ? "#c9a227" : "#2a9d6f"
        return """
            <svg class="budget-bar" viewBox="0 0 \(format(width)) 12" preserveAspectRatio="none" aria-hidden="true" focusable="false">\
            <rect x="0" y="0" width="\(format(width))" height="12" rx="6" fill="#e6e8eb"></rect>\
            <rect x="0" y="0" width="\(format(max(ratio > 0 ? 6 : 0, width * ratio)))" height="12" rx="6" fill="\(color)"></rect></svg>
            """
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
