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
        let id =
            "chart-"
            + String(title.lowercased().unicodeScalars.map { $0.properties.isAlphabetic ? Character($0) : "-" })
        var description: [String] = []
        var shapes = ""
        var y = 0.0
        for (index, row) in rows.enumerated() {
            let length = max(2, barSpace * Double(row.value) / Double(largest))
            let value = WebFormat.grouped(Money(minorUnits: row.value, currency: currency).decimalString)
            // About 15 characters fit beside the bars; a longer name takes up to three lines (found
            // by a new user: "Date Night (deleted)" read "Date Night (del…"), and the label column
            // is clipped, so a line of wide letters never runs under its bar.
            let lines = labelLines(row.label)
            let rowHeight = 30.0 + 14.0 * Double(lines.count - 1)
            let middle = y + rowHeight / 2
            description.append("\(row.label): \(value) \(currency.code)")
            let label =
                lines.count == 1
                ? Markup.escape(lines[0])
                : lines.enumerated().map { line, text in
                    #"<tspan x="0" dy="\#(line == 0 ? "0" : "15")">\#(Markup.escape(text))</tspan>"#
                }.joined()
            shapes += """
                <text x="0" y="\(format(middle + 4.5 - Double(lines.count - 1) * 7.5))" class="chart-label" \
                clip-path="url(#\(id)-labels)">\(label)</text>\
                <rect x="\(labelWidth)" y="\(format(middle - 9))" width="\(format(length))" height="18" rx="3" \
                fill="\(palette[index % palette.count])"></rect>\
                <text x="\(format(labelWidth + length + 6))" y="\(format(middle + 4))" class="chart-value">\
                \(Markup.escape(value))</text>
                """
            y += rowHeight
        }
        let height = y
        return """
            <svg class="chart" viewBox="0 0 \(format(width)) \(format(height))" role="img" \
            aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMinYMin meet">\
            <title id="\(id)-title">\(Markup.escape(title)) (\(currency.code))</title>\
            <desc id="\(id)-desc">\(Markup.escape(description.joined(separator: "; ")))</desc>\
            <clipPath id="\(id)-labels"><rect x="0" y="0" width="\(format(labelWidth - 4))" height="\(format(height))"></rect></clipPath>\
            \(shapes)</svg>
            """
    }

    /// A bar's label in at most `most` lines of `width` characters, broken at spaces (anywhere in
    /// a word longer than a line); what does not fit ends in an ellipsis, but a deleted
    /// category's " (deleted)" keeps a line of its own.
    static func labelLines(_ text: String, width: Int = 15, most: Int = 3) -> [String] {
        guard text.count > width else { return [text] }
        let marker = " (deleted)"
        if text.hasSuffix(marker) {
            let lines = wrapped(String(text.dropLast(marker.count)), width: width)
            if lines.count + 1 > most { return cut(lines, to: most - 1, width: width) + ["(deleted)"] }
        }
        return cut(wrapped(text, width: width), to: most, width: width)
    }

    private static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            if !line.isEmpty && line.count + 1 + word.count <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > width {
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            line = String(word)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private static func cut(_ lines: [String], to most: Int, width: Int) -> [String] {
        guard lines.count > most else { return lines }
        var kept = Array(lines.prefix(most))
        kept[most - 1] = String(kept[most - 1].prefix(width - 1)) + "…"
        return kept
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
