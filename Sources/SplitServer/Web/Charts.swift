import Foundation
import SplitAPI
import SplitCore
import SplitStore

/// What a group spent, per member (the shares they consumed) and per category, in the home
/// currency. Expenses in another currency count through their "charged as" home amount, else at
/// the group's latest rate for that currency (as Settle up and budgets convert); those with
/// neither are counted in `unconverted`, never guessed. A refund (a negative total) counts
/// against what its category and its sharers spent.
struct SpendingTotals {
    let currency: Currency
    var perMember: [(key: String, value: Int64)] = []
    var perCategory: [(key: String, value: Int64)] = []
    var unconverted = 0
    /// A total passed Int64 (only a group past `GroupBounds` sizes could; a million expenses of
    /// 10^13 minor units would): no chart is drawn rather than a wrong one.
    var tooLarge = false

    init(expenses: [ExpenseRecord], categoryNames: [UUID: String], homeCurrency: Currency, rates: [DatedRate] = []) {
        currency = homeCurrency
        var members: [String: Int64] = [:]
        var categories: [String: Int64] = [:]
        for expense in expenses {
            guard let own = try? Currency(code: expense.currency) else { continue }
            let shares = expense.liveShares
            // The home amount, and each share's part of it apportioned like a split (DESIGN §3),
            // so the parts add up to it.
            let home: Int64
            let parts: [Int64]
            if own == homeCurrency {
                home = expense.amount
                parts = shares.map(\.amount)
            } else if let rate = Self.rate(for: expense, own, homeCurrency, rates),
                let converted = try? rate.convert(Money(minorUnits: expense.amount, currency: own)),
                let split = try? rate.convert(
                    shares.map(\.amount), currency: own, tieBreak: TieBreak(seed: expense.id.text))
            {
                home = converted.minorUnits
                parts = split
            } else {
                unconverted += 1
                continue
            }
            func add(_ amount: Int64, to total: inout Int64) {
                let (sum, overflow) = total.addingReportingOverflow(amount)
                if overflow { tooLarge = true } else { total = sum }
            }
            add(home, to: &categories[categoryNames[expense.categoryID] ?? "Other", default: 0])
            for (share, part) in zip(shares, parts) { add(part, to: &members[share.memberID.text, default: 0]) }
        }
        guard !tooLarge else { return }
        perMember = members.sorted { $0.value > $1.value }.map { (key: $0.key, value: $0.value) }
        perCategory = categories.sorted { $0.value > $1.value }.map { (key: $0.key, value: $0.value) }
    }

    /// What `expense` was charged in the home currency, as a rate; else the group's latest rate
    /// from its currency. A charged amount in a former home currency is not used.
    private static func rate(
        for expense: ExpenseRecord, _ own: Currency, _ home: Currency, _ rates: [DatedRate]
    ) -> ExchangeRate? {
        if let charged = expense.homeAmount, (expense.homeCurrency ?? home.code) == home.code {
            return try? ExchangeRate(
                charged: Money(minorUnits: expense.amount, currency: own), as: Money(minorUnits: charged, currency: home))
        }
        return HomeBalances.latestRate(from: own, to: home, in: rates)
    }
}

/// Charts drawn by the server as SVG: no script, no library, readable by screen readers
/// (a title and a description listing every value).
enum Charts {
    static let palette = ["#2f6fde", "#e0742b", "#2a9d6f", "#b04fbf", "#c9a227", "#d1495b", "#4c8c99", "#7a7a7a"]

    static func bars(_ rows: [(label: String, value: Int64)], currency: Currency, title: String) -> String? {
        guard let largest = rows.map(\.value).max(), largest > 0 else { return nil }
        let width = 320.0
        let labelWidth = 110.0
        let valueWidth = 90.0
        let rowHeight = 30.0
        let barSpace = width - labelWidth - valueWidth
        let height = Double(rows.count) * rowHeight
        var description: [String] = []
        var shapes = ""
        for (index, row) in rows.enumerated() {
            let y = Double(index) * rowHeight
            let length = max(2, barSpace * Double(row.value) / Double(largest))
            let value = WebFormat.grouped(Money(minorUnits: row.value, currency: currency).decimalString)
            // 16 characters fit beside the bars; a longer name shows its start and an ellipsis.
            let label = Markup.escape(row.label.count > 16 ? row.label.prefix(15) + "…" : row.label)
            description.append("\(row.label): \(value) \(currency.code)")
            shapes += """
                <text x="0" y="\(y + 19)" class="chart-label">\(label)</text>\
                <rect x="\(labelWidth)" y="\(y + 6)" width="\(format(length))" height="18" rx="3" \
                fill="\(palette[index % palette.count])"></rect>\
                <text x="\(format(labelWidth + length + 6))" y="\(y + 19)" class="chart-value">\
                \(Markup.escape(value))</text>
                """
        }
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
