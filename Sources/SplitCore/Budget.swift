/// The dates a budget covers (issue 20): a calendar month, or a trip's first to last day, both
/// days included.
public struct BudgetPeriod: Hashable, Sendable {
    public let start: CivilDate
    public let end: CivilDate

    /// Nil when `end` is before `start`.
    public init?(start: CivilDate, end: CivilDate) {
        guard start <= end else { return nil }
        self.start = start
        self.end = end
    }

    /// The calendar month that holds `date`.
    public static func month(of date: CivilDate) -> BudgetPeriod {
        let first = CivilDate(year: date.year, month: date.month, day: 1)!
        let last = CivilDate(
            year: date.year, month: date.month, day: CivilDate.days(inMonth: date.month, year: date.year))!
        return BudgetPeriod(start: first, end: last)!
    }

    public var days: Int { end.daysSinceEpoch - start.daysSinceEpoch + 1 }

    public func contains(_ date: CivilDate) -> Bool { start <= date && date <= end }

    /// Days of the period up to and including `today`: 0 before it starts, all of them after it ends.
    public func daysElapsed(today: CivilDate) -> Int {
        if today < start { return 0 }
        if today > end { return days }
        return today.daysSinceEpoch - start.daysSinceEpoch + 1
    }
}

/// One line of a budget's status, in the budget's currency: what was planned (`cap`, nil when
/// only spending is shown), spent, what is left, how fast it goes and where that leads by the
/// period's end. Exact integer arithmetic, rounded half to even at the minor unit.
public struct BudgetFigures: Hashable, Sendable {
    public let cap: Int64?
    public let spent: Int64
    /// cap − spent (below zero: over budget).
    public let remaining: Int64?
    /// Whole percent of the cap spent, rounded down; nil without a cap or with a cap of zero.
    public let percent: Int?
    /// Spent per day of the period so far (0 before it starts).
    public let dailyAverage: Int64
    /// Spent by the period's end at today's daily rate: spent × days ÷ days so far; just `spent`
    /// before the period starts.
    public let projected: Int64

    public init(cap: Int64?, spent: Int64, period: BudgetPeriod, today: CivilDate) {
        self.cap = cap
        self.spent = spent
        remaining = cap.map { Int64(clamping: Int128($0) - Int128(spent)) }
        if let cap, cap > 0 {
            let (quotient, remainder) = (Int128(spent) * 100).quotientAndRemainder(dividingBy: Int128(cap))
            percent = Int(clamping: remainder < 0 ? quotient - 1 : quotient)
        } else {
            percent = nil
        }
        let elapsed = period.daysElapsed(today: today)
        if elapsed == 0 {
            dailyAverage = 0
            projected = spent
        } else {
            dailyAverage = Int64(clamping: ExchangeRate.roundHalfEven(Int128(spent), Int128(elapsed)))
            projected = Int64(
                clamping: ExchangeRate.roundHalfEven(Int128(spent) * Int128(period.days), Int128(elapsed)))
        }
    }

    /// The thresholds (percent of the cap) that `spent` has reached: spent × 100 ≥ cap × t, and
    /// something was spent (a cap of zero is reached by any spending).
    public static func reached(_ thresholds: [Int], cap: Int64, spent: Int64) -> [Int] {
        guard spent > 0 else { return [] }
        return thresholds.filter { Int128(spent) * 100 >= Int128(cap) * Int128($0) }
    }
}

/// Adds amounts in several currencies up in one, the way a budget counts them (issue 20): each
/// currency's total is converted once by the group's latest rate (`HomeBalances.latestRate`) and
/// rounded half to even; a currency without a rate is returned in `missing`, never dropped
/// silently or counted as zero without saying so.
public enum BudgetConversion {
    public static func total(
        _ amounts: [(currency: Currency, amount: Int64)], to target: Currency, rates: [DatedRate]
    ) -> (total: Int64, missing: [Currency]) {
        var byCurrency: [Currency: Int128] = [:]
        for entry in amounts { byCurrency[entry.currency, default: 0] += Int128(entry.amount) }
        var total: Int128 = 0
        var missing: [Currency] = []
        for (currency, sum) in byCurrency.sorted(by: { $0.key.code < $1.key.code }) {
            if currency == target {
                total += sum
            } else if let amount = Int64(exactly: sum), let rate = HomeBalances.latestRate(from: currency, to: target, in: rates),
                let converted = try? rate.convert(Money(minorUnits: amount, currency: currency))
            {
                total += Int128(converted.minorUnits)
            } else {
                missing.append(currency)
            }
        }
        return (Int64(clamping: total), missing)
    }
}
