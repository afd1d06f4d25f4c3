import Foundation
import SplitCore
import SplitStore

/// A group budget as entered: every field of it at once (a PUT).
public struct EnteredBudget: Sendable, Equatable {
    public struct Cap: Sendable, Equatable {
        public var categoryId: String
        public var amount: String

        public init(categoryId: String, amount: String) {
            self.categoryId = categoryId
            self.amount = amount
        }
    }

    /// "month" or "trip".
    public var period: String
    public var startDate: String?
    public var endDate: String?
    public var total: String?
    public var caps: [Cap]
    public var thresholds: [Int]?

    public init(
        period: String, startDate: String? = nil, endDate: String? = nil, total: String? = nil, caps: [Cap] = [],
        thresholds: [Int]? = nil
    ) {
        self.period = period
        self.startDate = startDate
        self.endDate = endDate
        self.total = total
        self.caps = caps
        self.thresholds = thresholds
    }
}

/// A personal monthly budget as entered.
public struct EnteredPersonalBudget: Sendable, Equatable {
    public struct Cap: Sendable, Equatable {
        public var category: String
        public var amount: String

        public init(category: String, amount: String) {
            self.category = category
            self.amount = amount
        }
    }

    public var currency: String
    public var total: String?
    public var caps: [Cap]

    public init(currency: String, total: String? = nil, caps: [Cap] = []) {
        self.currency = currency
        self.total = total
        self.caps = caps
    }
}

/// One line of a status: a category (nil id for a personal budget's name-only line) and its figures.
public struct BudgetLine: Sendable, Equatable {
    public var categoryID: UUID?
    public var name: String
    public var icon: String
    public var color: String
    public var figures: BudgetFigures
    /// A deleted category's line (a new category may have its name): pages say "(deleted)".
    public var isDeleted = false

    /// The name as a page shows it (`CategoryRecord.label`'s words).
    public var label: String { isDeleted ? "\(name) (deleted)" : name }
}

/// Where a budget stands (issue 20): per category and in total, in the budget's currency, for
/// one period; with what could not be converted listed, never dropped.
public struct BudgetStatus: Sendable, Equatable {
    /// The group's budget as set; nil when none is (the status then shows spending only).
    public var budget: BudgetRecord?
    public var currency: String
    public var period: BudgetPeriod
    public var today: CivilDate
    public var lines: [BudgetLine]
    public var total: BudgetFigures
    /// Currencies spent in the period that no rate converts into `currency`.
    public var uncountedCurrencies: [String]
    public var uncounted: [UncountedExpense]
    /// Group names, for a personal budget's uncounted shares.
    public var groupNames: [UUID: String] = [:]
}

/// `BudgetUseCases.people`: each member's paid and share in the home currency, and the sums
/// per currency they come from (nothing is hidden when a rate is missing).
public struct PeopleSpending: Sendable, Equatable {
    public var currency: String
    /// The month asked for; nil: since the group began.
    public var period: BudgetPeriod?
    /// Members with anything paid or shared in the period, in member order.
    public var people: [PeopleTotals.Person]
    public var total: Int64
    /// Currencies with no rate to `currency`: left out of `people` and `total`, still in `byCurrency`.
    public var uncountedCurrencies: [String]
    public var byCurrency: [PersonSumRecord]
    /// Every member's name by id, one no longer in the group marked "(left)" or "(removed)" (found by a new user: an
    /// assistant reading the tool had only ids to answer with).
    public var names: [UUID: String] = [:]
}

/// What a group spent since it began, in its home currency, for the overview's charts.
public struct SpendingChart: Sendable {
    public let currency: String
    /// Each member's shares, most first.
    public let perMember: [(member: UUID, amount: Int64)]
    /// Each category's spending, most first; a deleted category's name says so.
    public let perCategory: [(label: String, amount: Int64)]
    /// Currencies with no rate to `currency`: left out of both.
    public let uncountedCurrencies: [String]
}

/// Budgets (issue 20): a group's — a total and caps per category, monthly or for a trip, kept by
/// its owner and admins and seen by every member — and each account's own monthly budget over
/// its shares in all its groups. Spent comes from the running totals (`spending`), converted per
/// currency by the expense's own charged amount, else the group's latest rate.
public struct BudgetUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    /// Caps per budget: more than a group has categories would be.
    public static let maximumCaps = 100

    /// The group's status for `month` (YYYY-MM; the current month in the group's time zone when
    /// nil) or, for a trip's budget, the trip.
    public func status(groupID: UUID, caller: Caller, month: String? = nil) async throws -> BudgetStatus {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await status(group: group, month: month)
    }

    func status(group: GroupRecord, month: String?) async throws -> BudgetStatus {
        let today = CivilDate(MoneyInput.today(now(), in: group.timeZone))!
        let budget = try await budgets.budget(groupID: group.id)
        let period: BudgetPeriod
        if let budget, budget.period == .trip, let start = budget.startDate.flatMap(CivilDate.init),
            let end = budget.endDate.flatMap(CivilDate.init), let trip = BudgetPeriod(start: start, end: end)
        {
            period = trip
        } else {
            period = try month.map { try Self.month($0, field: "month") } ?? .month(of: today)
        }
        let currencyCode = budget?.currency ?? group.homeCurrency
        let currency = try MoneyInput.currency(currencyCode, field: "currency")
        async let spentRows = budgets.spent(
            groupID: group.id, from: period.start.description, through: period.end.description)
        async let rateRows = balances.rates(groupID: group.id)
        async let categoryRows = categories.allCategories(groupID: group.id)
        let (spent, rates, all) = try await (spentRows, rateRows.compactMap(\.datedRate), categoryRows)
        var lines: [BudgetLine] = []
        var missing = Set<String>()
        func converted(_ rows: [SpentRecord]) -> Int64 {
            let result = BudgetConversion.total(
                rows.compactMap { row in (try? Currency(code: row.currency)).map { ($0, row.amount) } }, to: currency,
                rates: rates)
            missing.formUnion(result.missing.map(\.code))
            return result.total
        }
        let byCategory = Dictionary(grouping: spent, by: \.categoryID)
        let ordered = all.filter { !$0.isDeleted }.sorted { $0.position < $1.position }
            + all.filter { $0.isDeleted && byCategory[$0.id] != nil }
        for category in ordered {
            let cap = budget?.caps[category.id]
            let rows = byCategory[category.id] ?? []
            guard cap != nil || !rows.isEmpty || !category.isDeleted else { continue }
            lines.append(
                BudgetLine(
                    categoryID: category.id, name: category.name, icon: category.icon, color: category.color,
                    figures: BudgetFigures(cap: cap, spent: converted(rows), period: period, today: today),
                    // Said on the page as on the overview: a deleted "Bar" beside a new one is
                    // not the same line twice (found by a new user).
                    isDeleted: category.isDeleted))
        }
        let total = BudgetFigures(cap: budget?.total, spent: converted(spent), period: period, today: today)
        let uncountedCurrencies = missing.sorted()
        let uncounted = try await budgets.uncounted(
            groupID: group.id, home: group.homeCurrency, from: period.start.description, through: period.end.description,
            currencies: uncountedCurrencies)
        return BudgetStatus(
            budget: budget, currency: currencyCode, period: period, today: today, lines: lines, total: total,
            uncountedCurrencies: uncountedCurrencies, uncounted: uncounted)
    }

    /// What each member paid for the group's expenses and what their shares came to, in the home
    /// currency, for `month` (YYYY-MM) or, when nil, since the group began: "who paid the most?",
    /// "how much did I spend?". Every member may read it, viewers too.
    public func people(groupID: UUID, caller: Caller, month: String? = nil) async throws -> PeopleSpending {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let period = try month.map { try Self.month($0, field: "month") }
        async let sumRows = budgets.people(
            groupID: group.id, from: period?.start.description, through: period?.end.description)
        async let rateRows = balances.rates(groupID: group.id)
        let (sums, rates) = try await (sumRows, rateRows.compactMap(\.datedRate))
        let home = try MoneyInput.currency(group.homeCurrency, field: "currency")
        var entries: [PeopleTotals.Entry] = []
        var unknown = Set<String>()
        for sum in sums {
            // A code the table no longer knows cannot be converted: said, like a missing rate.
            guard let currency = try? Currency(code: sum.currency) else {
                unknown.insert(sum.currency)
                continue
            }
            entries.append(.init(member: MemberID(sum.memberID), currency: currency, paid: sum.paid, share: sum.share))
        }
        let result = PeopleTotals.convert(entries, to: home, rates: rates, tieBreak: TieBreak(seed: group.id.text))
        let members = try await groups.members(groupID: group.id)
        return PeopleSpending(
            currency: group.homeCurrency, period: period, people: result.people, total: result.total,
            uncountedCurrencies: (Set(result.missing.map(\.code)).union(unknown)).sorted(), byCurrency: sums,
            names: Dictionary(
                members.map { ($0.id, MemberLabel.name($0.name, active: $0.isActive, left: $0.hasLeft)) }, uniquingKeysWith: { first, _ in first }))
    }

    /// What the group spent since it began, in its home currency: per member (their shares, as
    /// "Who paid what" converts them) and per category (as the budget converts each), from the
    /// running totals, so the overview costs the same at any number of expenses (issue 16).
    public func chart(groupID: UUID, caller: Caller) async throws -> SpendingChart {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        let home = try MoneyInput.currency(group.homeCurrency, field: "currency")
        async let shareRows = budgets.shares(groupID: group.id)
        async let categoryRows = budgets.spent(groupID: group.id, from: "0000-01-01", through: "9999-12-31")
        async let rateRows = balances.rates(groupID: group.id)
        async let all = categories.allCategories(groupID: group.id)
        let (shares, spent, rates) = try await (shareRows, categoryRows, rateRows.compactMap(\.datedRate))
        var missing = Set<String>()
        var entries: [PeopleTotals.Entry] = []
        for row in shares {
            guard let currency = try? Currency(code: row.currency) else {
                missing.insert(row.currency)
                continue
            }
            entries.append(.init(member: MemberID(row.memberID), currency: currency, paid: 0, share: row.share))
        }
        let people = PeopleTotals.convert(entries, to: home, rates: rates, tieBreak: TieBreak(seed: group.id.text))
        missing.formUnion(people.missing.map(\.code))
        // A deleted category is named so: a new "Bar" beside a deleted "Bar" is another category
        // (found by a new user: the chart added them up as one).
        let labels = Dictionary(uniqueKeysWithValues: try await all.map { ($0.id, $0.label) })
        var perCategory: [(label: String, amount: Int64)] = []
        // A code the table no longer knows cannot be converted: said, like a missing rate.
        missing.formUnion(spent.filter { (try? Currency(code: $0.currency)) == nil }.map(\.currency))
        let known = spent.compactMap { row in
            (try? Currency(code: row.currency)).map { (key: row.categoryID, money: Money(minorUnits: row.amount, currency: $0)) }
        }
        // Rounded once over every category and currency, as the members' bars: the two charts
        // add up to the same total (found by a new user: 8,325.12 by category, 8,325.13 by member).
        if let once = HomeBalances.totals(known, to: home, rates: rates, tieBreak: TieBreak(seed: group.id.text)) {
            missing.formUnion(once.missing.map(\.code))
            perCategory = once.totals.map { (labels[$0.key] ?? "Other", $0.value) }
        } else {
            for (categoryID, rows) in Dictionary(grouping: known, by: \.key) {
                let result = BudgetConversion.total(rows.map { ($0.money.currency, $0.money.minorUnits) }, to: home, rates: rates)
                missing.formUnion(result.missing.map(\.code))
                if result.total != 0 { perCategory.append((labels[categoryID] ?? "Other", result.total)) }
            }
        }
        return SpendingChart(
            currency: group.homeCurrency,
            perMember: people.people.filter { $0.share != 0 }.map { ($0.member.uuid, $0.share) }
                .sorted { ($0.1, $1.0.text) > ($1.1, $0.0.text) },
            perCategory: perCategory.sorted { ($0.amount, $1.label) > ($1.amount, $0.label) },
            uncountedCurrencies: missing.sorted())
    }

    /// Sets the group's whole budget in the group's home currency (owner and admins).
    public func put(_ entered: EnteredBudget, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> BudgetStatus
    {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        let currency = try MoneyInput.currency(group.homeCurrency, field: "currency")
        let live = try await categories.categories(groupID: group.id, now: now())
        let liveIDs = Set(live.map(\.id))
        var checks = FieldChecks()
        var startDate: String?
        var endDate: String?
        let period = BudgetRecord.Period(rawValue: entered.period)
        if period == nil {
            checks.add(field: "period", message: "period is month or trip.")
        }
        if period == .trip {
            startDate = try checks.run { try MoneyInput.date(entered.startDate ?? "", field: "startDate") }
            endDate = try checks.run { try MoneyInput.date(entered.endDate ?? "", field: "endDate") }
            if let startDate, let endDate, let start = CivilDate(startDate), let end = CivilDate(endDate) {
                if end < start {
                    checks.add(field: "endDate", message: "The trip ends before it starts.")
                } else if end.daysSinceEpoch - start.daysSinceEpoch >= 3_660 {
                    checks.add(field: "endDate", message: "A trip's budget covers at most ten years.")
                }
            }
        }
        let total = try checks.run { try entered.total.map { try MoneyInput.amount($0, currency, field: "total") } } ?? nil
        var caps: [UUID: Int64] = [:]
        if entered.caps.count > Self.maximumCaps {
            checks.add(field: "caps", message: "A budget has at most \(Self.maximumCaps) caps.")
        } else {
            for (index, cap) in entered.caps.enumerated() {
                let field = "caps[\(index)]"
                guard let id = UUID(uuidString: cap.categoryId), liveIDs.contains(id) else {
                    checks.add(field: "\(field).categoryId", message: "That is not one of this group's categories.")
                    continue
                }
                guard caps[id] == nil else {
                    checks.add(field: "\(field).categoryId", message: "That category has a cap already in this list.")
                    continue
                }
                if let amount = try checks.run({ try MoneyInput.amount(cap.amount, currency, field: "\(field).amount") }) {
                    caps[id] = amount
                }
            }
        }
        let thresholds = entered.thresholds ?? BudgetStore.defaultThresholds
        if thresholds.isEmpty || thresholds.count > 5 || Set(thresholds).count != thresholds.count
            || !thresholds.allSatisfy({ (1...1_000).contains($0) })
        {
            checks.add(
                field: "thresholds", message: "Give one to five different alert percentages from 1 to 1000, like 80 and 100.")
        }
        try checks.finish()
        let record = BudgetRecord(
            groupID: group.id, period: period ?? .month, startDate: startDate, endDate: endDate,
            currency: group.homeCurrency, total: total, caps: caps, thresholds: thresholds.sorted(), updatedAt: now())
        let time = now()
        try await budgets.put(
            record, groupID: group.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]),
            now: time, today: MoneyInput.today(time, in: group.timeZone))
        return try await status(group: group, month: nil)
    }

    /// Replaces every cap at once (the seed's bulk update), keeping the period, total and
    /// thresholds; a group without a budget gets a monthly one.
    public func putCaps(_ caps: [EnteredBudget.Cap], groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> BudgetStatus
    {
        let (group, _) = try await access.check(groupID, caller, for: .updateGroup)
        let current = try await budgets.budget(groupID: group.id)
        if let current, current.currency != group.homeCurrency {
            throw AppError.conflict(
                code: "currency_changed", field: "caps",
                message: "The budget is in \(current.currency) and the home currency is now \(group.homeCurrency): set the whole budget again in \(group.homeCurrency).")
        }
        let currency = try MoneyInput.currency(current?.currency ?? group.homeCurrency, field: "currency")
        return try await put(
            EnteredBudget(
                period: current?.period.rawValue ?? "month", startDate: current?.startDate, endDate: current?.endDate,
                total: current?.total.map { Money(minorUnits: $0, currency: currency).decimalString }, caps: caps,
                thresholds: current?.thresholds), groupID: groupID, caller: caller, origin: origin)
    }

    /// Removes the group's budget (owner and admins); spending stays visible.
    public func remove(groupID: UUID, caller: Caller, origin: RequestOrigin) async throws {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        try await budgets.put(
            nil, groupID: group.id, actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]),
            now: now())
    }

    // MARK: Personal

    /// My monthly budget over my own shares in all my groups, for `month` (the current month in
    /// UTC when nil). Without a budget set it shows what my shares came to in the currency of my
    /// first group.
    public func personalStatus(caller: Caller, month: String? = nil) async throws -> BudgetStatus {
        try caller.requireWholeAccount()
        let today = CivilDate(MoneyInput.today(now()))!
        let period = try month.map { try Self.month($0, field: "month") } ?? .month(of: today)
        let budget = try await budgets.personalBudget(userID: caller.user.id)
        let spent = try await budgets.personalSpent(
            userID: caller.user.id, from: period.start.description, through: period.end.description)
        let groupIDs = Array(Set(spent.map(\.groupID)))
        var homes: [UUID: String] = [:]
        var names: [UUID: String] = [:]
        for groupID in groupIDs {
            if let group = try await groups.group(id: groupID) {
                homes[groupID] = group.homeCurrency
                names[groupID] = group.name
            }
        }
        let currencyCode = budget?.currency ?? spent.first.flatMap { homes[$0.groupID] } ?? "USD"
        let currency = try MoneyInput.currency(currencyCode, field: "currency")
        var rates: [UUID: [DatedRate]] = [:]
        for groupID in groupIDs {
            rates[groupID] = try await balances.rates(groupID: groupID).compactMap(\.datedRate)
        }
        let categoryNames = Dictionary(
            try await categories.categories(ids: Array(Set(spent.map(\.categoryID)))).map { ($0.id, $0.name) },
            uniquingKeysWith: { first, _ in first })
        // Converted group by group (each group's own rates), then added up by category name.
        var missing: [UUID: Set<String>] = [:]
        var byName: [String: (name: String, amount: Int128)] = [:]
        for row in spent {
            guard let rowCurrency = try? Currency(code: row.currency) else { continue }
            let result = BudgetConversion.total(
                [(rowCurrency, row.amount)], to: currency, rates: rates[row.groupID] ?? [])
            if !result.missing.isEmpty {
                missing[row.groupID, default: []].insert(row.currency)
                continue
            }
            let name = categoryNames[row.categoryID] ?? "Other"
            let key = AccountInput.nameKey(name)
            byName[key] = (byName[key]?.name ?? name, (byName[key]?.amount ?? 0) + Int128(result.total))
        }
        var lines: [BudgetLine] = []
        var seen = Set<String>()
        for cap in budget?.caps ?? [] {
            let key = AccountInput.nameKey(cap.name)
            seen.insert(key)
            lines.append(
                BudgetLine(
                    categoryID: nil, name: cap.name, icon: "", color: "",
                    figures: BudgetFigures(
                        cap: cap.amount, spent: Int64(clamping: byName[key]?.amount ?? 0), period: period, today: today)))
        }
        for (key, entry) in byName.sorted(by: { $0.key < $1.key }) where !seen.contains(key) {
            lines.append(
                BudgetLine(
                    categoryID: nil, name: entry.name, icon: "", color: "",
                    figures: BudgetFigures(cap: nil, spent: Int64(clamping: entry.amount), period: period, today: today)))
        }
        let spentTotal = Int64(clamping: byName.values.reduce(Int128(0)) { $0 + $1.amount })
        var uncounted: [UncountedExpense] = []
        for (groupID, currencies) in missing.sorted(by: { $0.key.sortsBefore($1.key) }) {
            uncounted += try await budgets.personalUncounted(
                userID: caller.user.id, groupID: groupID, from: period.start.description,
                through: period.end.description, currencies: currencies.sorted())
        }
        return BudgetStatus(
            budget: nil, currency: currencyCode, period: period, today: today, lines: lines,
            total: BudgetFigures(cap: budget?.total, spent: spentTotal, period: period, today: today),
            uncountedCurrencies: Set(missing.values.flatMap { $0 }).sorted(), uncounted: uncounted, groupNames: names)
    }

    /// The personal budget as set, if any.
    public func personalBudget(caller: Caller) async throws -> PersonalBudgetRecord? {
        try caller.requireWholeAccount()
        return try await budgets.personalBudget(userID: caller.user.id)
    }

    /// Sets my personal budget: its currency, an optional total and caps by category name.
    public func putPersonal(_ entered: EnteredPersonalBudget, caller: Caller) async throws -> BudgetStatus {
        try caller.requireWholeAccount()
        var checks = FieldChecks()
        let currency = try checks.run { try MoneyInput.currency(entered.currency, field: "currency") }
        var total: Int64?
        var caps: [PersonalBudgetRecord.Cap] = []
        if let currency {
            total = try checks.run { try entered.total.map { try MoneyInput.amount($0, currency, field: "total") } } ?? nil
            if entered.caps.count > Self.maximumCaps {
                checks.add(field: "caps", message: "A budget has at most \(Self.maximumCaps) caps.")
            } else {
                var names = Set<String>()
                for (index, cap) in entered.caps.enumerated() {
                    let name = cap.category.trimmingCharacters(in: .whitespacesAndNewlines)
                    guard (1...100).contains(name.count) else {
                        checks.add(field: "caps[\(index)].category", message: "Name the category (1 to 100 characters).")
                        continue
                    }
                    guard names.insert(AccountInput.nameKey(name)).inserted else {
                        checks.add(field: "caps[\(index)].category", message: "That category has a cap already in this list.")
                        continue
                    }
                    if let amount = try checks.run({
                        try MoneyInput.amount(cap.amount, currency, field: "caps[\(index)].amount")
                    }) {
                        caps.append(.init(name: name, amount: amount))
                    }
                }
            }
        }
        try checks.finish()
        try await budgets.putPersonal(
            PersonalBudgetRecord(
                userID: caller.user.id, currency: entered.currency.uppercased(), total: total, caps: caps,
                updatedAt: now()), userID: caller.user.id, now: now())
        return try await personalStatus(caller: caller)
    }

    public func removePersonal(caller: Caller) async throws {
        try caller.requireWholeAccount()
        try await budgets.putPersonal(nil, userID: caller.user.id, now: now())
    }

    /// A month written YYYY-MM, as the dates it covers.
    public static func month(_ text: String, field: String) throws -> BudgetPeriod {
        guard text.utf8.count == 7, let first = CivilDate(text + "-01") else {
            throw AppError.invalid(field: field, message: "Write the month like 2026-11 (year-month).")
        }
        return .month(of: first)
    }
}

extension CategoryRecord {
    /// Its name where spending is added up by category: a deleted one says so, since a new
    /// category may have its name.
    public var label: String { isDeleted ? "\(name) (deleted)" : name }
}
