import Foundation

/// What a one-line expense is read against (issue 21): the group's people (with nicknames and
/// which one is "me"), its home currency, its category names, today in its time zone, and what
/// past descriptions were filed under.
public struct QuickEntryContext: Sendable {
    public struct Person: Sendable {
        public var id: MemberID
        public var name: String
        public var nicknames: [String]
        /// In "all" and "everyone": false for a viewer, who shares only when named.
        public var sharesByDefault: Bool

        public init(id: MemberID, name: String, nicknames: [String] = [], sharesByDefault: Bool = true) {
            self.id = id
            self.name = name
            self.nicknames = nicknames
            self.sharesByDefault = sharesByDefault
        }
    }

    /// Someone who was in the group: named in a line, they are said to be gone, not "nobody".
    public struct Former: Sendable {
        public var name: String
        /// They left themselves (false: removed by an owner or admin).
        public var left: Bool

        public init(name: String, left: Bool) {
            self.name = name
            self.left = left
        }
    }

    /// The group's active members, in the group's order.
    public var people: [Person]
    /// Those who left or were removed (an active member of the same name is the one meant).
    public var former: [Former]
    /// Who is typing.
    public var me: MemberID
    public var homeCurrency: Currency
    public var categories: [String]
    public var today: CivilDate
    /// Past descriptions (lower case) → the category they were filed under.
    public var memory: [String: String]

    public init(
        people: [Person], me: MemberID, homeCurrency: Currency, categories: [String], today: CivilDate,
        memory: [String: String] = [:], former: [Former] = []
    ) {
        self.people = people
        self.former = former
        self.me = me
        self.homeCurrency = homeCurrency
        self.categories = categories
        self.today = today
        self.memory = memory
    }
}

/// An expense read from one line: everything the form would hold. `assumed` says what the line
/// did not say and the draft took (shown before saving; never an amount, a currency symbol that
/// could be two, or who shares).
public struct QuickDraft: Hashable, Sendable {
    public enum Assumption: String, Hashable, Sendable {
        /// No payer said: the one typing paid.
        case payer
        /// No currency said: the group's home currency.
        case currency
        /// No date said: today.
        case date
    }

    public var description: String
    /// Below zero for a refund or money received.
    public var total: Money
    public var payer: MemberID
    public var rule: SplitRule
    public var date: CivilDate
    /// One of the group's categories, when the words say one; nil for Other.
    public var category: String?
    public var assumed: Set<Assumption>

    public init(
        description: String, total: Money, payer: MemberID, rule: SplitRule, date: CivilDate, category: String? = nil,
        assumed: Set<Assumption> = []
    ) {
        self.description = description
        self.total = total
        self.payer = payer
        self.rule = rule
        self.date = date
        self.category = category
        self.assumed = assumed
    }
}

/// Why a line is not an expense yet: each says what to add or change.
/// A line read: a draft, or everything that keeps it from being one.
public enum QuickEntryOutcome: Hashable, Sendable {
    case success(QuickDraft)
    case failure([QuickEntryProblem])
}

public enum QuickEntryProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case tooLong
    case noDescription
    case noAmount
    /// An amount that is not arithmetic we read ("12..5", "3**2").
    case notANumber(String)
    case divisionByZero
    case tooLarge
    case zero
    /// More decimals than the currency has (¥12.50), or a sum that does not come to whole cents.
    case decimals(String, Currency)
    /// "$": which dollar.
    case whichCurrency(String, [Currency])
    case mixedCurrencies([Currency])
    /// A word that is no member and nothing the line reads; with the one member whose name it
    /// is a slip of the keys away from, when there is exactly one ("Bne": Ben).
    case unknownWord(String, didYouMean: String? = nil)
    case ambiguousName(String, [String])
    /// A name of someone no longer in the group (as stored), and whether they left themselves.
    case formerMember(String, left: Bool)
    case twoPayers
    /// "paid by Sam, Ben and Eli" with nothing else saying who shares: Sam paying for the others,
    /// or all of them paying (the payer's name and the others').
    case payerOrSharers(payer: String, others: [String])
    /// Nobody said who shares it.
    case whoShares
    /// "split 2:1:1" with another number of people.
    case ratioCount(weights: Int, people: Int)
    /// Exact amounts that do not add up to the total.
    case exactSum(total: Money, sum: Money)
    /// "split 2:1:1 all": who gets which part is not said.
    case ratioNames
    /// "1,500" in a currency with three decimals: 1500 or 1.5.
    case ambiguousComma(String, Currency)
    /// "1.200" in a currency with fewer than three decimals: 1200 (a thousands point) or 1.2.
    case ambiguousPoint(String, Currency)
    /// A date outside `CivilDate.storedYears` ("0026-07-14").
    case dateYear(String)
    /// "3/12": the 3rd of December or March 12 (both dates, the first day first); not guessed.
    case ambiguousDate(String, dayFirst: CivilDate, monthFirst: CivilDate)
    /// An amount below zero without a word that says money came back ("Dinner ¥-6000").
    case minus
    /// Percentages that do not come to 100 (what they come to), or mixed with amounts (nil).
    case percentSum(String?)
    /// "split 3 ways" where 3 is not everyone who shares, or not the people named: which three
    /// is not said. With names to show in an example.
    case ways(Int, example: [String])

    public var description: String {
        switch self {
        case .empty: "Write what it was and how much, like “Ramen ¥1200 paid by Aki, all”."
        case .tooLong: "That is longer than 500 characters."
        case .noDescription: "Say what it was, like “Taxi 45.50” or “Ana paid 45.50 for the taxi”."
        case .noAmount: "Add the amount, like “Taxi 45.50”."
        case .notANumber(let text): "“\(text.prefix(40))” is not an amount."
        case .divisionByZero: "The amount divides by zero."
        case .tooLarge: "The amount is larger than this server takes."
        case .zero: "The amount comes to zero."
        case .decimals(let text, let currency):
            currency.minorUnits == 0
                ? "\(currency.code) has no decimals: “\(text.prefix(40))” is not a whole amount."
                : "“\(text.prefix(40))” does not come to whole \(currency.code) cents."
        case .whichCurrency(let symbol, let options):
            "Which currency is “\(symbol)”? Write the code, like \(options.prefix(3).map(\.code).joined(separator: " or "))."
        case .mixedCurrencies(let list): "One expense is in one currency, not \(list.map(\.code).joined(separator: " and "))."
        case .unknownWord(let word, let name?):
            "“\(word.prefix(40))” is nobody in this group and nothing this line understands: did you mean \(name)?"
        case .unknownWord(let word, nil): "“\(word.prefix(40))” is nobody in this group and nothing this line understands."
        case .formerMember(let name, let left):
            "\(name.prefix(40)) is no longer in the group (\(left ? "left" : "removed")); an expense cannot name them."
        case .ambiguousName(let word, let names): "“\(word.prefix(40))” could be \(names.joined(separator: " or ")); use the full name."
        case .twoPayers: "Say one payer (or use the form for several)."
        case .payerOrSharers(let payer, let others):
            "Did \(payer) pay for \(QuickEntry.list(others)), or did \(others.count == 1 ? "both" : "they all") pay? "
                + "Write “paid by \(payer) for \(QuickEntry.list(others))”, or use the form for several payers."
        case .whoShares: "Say who shares it: names, “all”, or “all except …”."
        case .ratioCount(let weights, let people): "\(weights) parts for \(people) people: give one part each."
        case .exactSum(let total, let sum): "The amounts come to \(sum), the total is \(total)."
        case .ratioNames: "Name who gets each part, in order, like “split 2:1:1 Aki Bo Chen”."
        case .percentSum(let sum?): "The percentages come to \(sum)%, not 100%."
        case .percentSum(nil): "Give everyone a percentage or everyone an amount, not some of each."
        case .ways(let count, let names):
            names.count >= 2
                ? "Split \(count) ways: say who, like “split between \(names.dropLast().joined(separator: ", ")) and \(names[names.count - 1])”."
                : "Split \(count) ways: say who, like “split between Aki and Bo”."
        case .minus:
            "For money received, say so (“Refund 6000 all”, “Deposit back 6000 all”) and write the amount without a minus."
        case .dateYear(let text):
            "“\(text)” is in the year \(Int(text.prefix(4)) ?? 0): write a date from \(CivilDate.storedYears.lowerBound) to \(CivilDate.storedYears.upperBound), like 2026-07-14."
        case .ambiguousDate(let text, let dayFirst, let monthFirst):
            "“\(text.prefix(40))” could be \(QuickEntry.spelled(dayFirst)) or \(QuickEntry.spelled(monthFirst)): "
                + "write the month as a word, like “\(dayFirst.day) \(QuickEntry.monthWord(dayFirst.month))” or "
                + "“\(QuickEntry.monthWord(monthFirst.month)) \(monthFirst.day)”."
        case .ambiguousPoint(let text, let currency):
            if let readings = QuickEntry.pointReadings(text, currency) {
                "“\(text)” could be \(readings.whole) or \(readings.decimal) \(currency.code): write \(readings.whole), or \(readings.written)."
            } else {
                "“\(text.prefix(40))” could be read two ways in \(currency.code): write it without the point, or with two decimals."
            }
        case .ambiguousComma(let text, let currency):
            if let readings = QuickEntry.commaReadings(text, currency) {
                "“\(text)” could be \(readings.whole) or \(readings.decimal) \(currency.code): write \(readings.whole), or use a “.” before the decimals (\(readings.decimal))."
            } else {
                "“\(text.prefix(40))” could be read two ways in \(currency.code): write it without the comma, or with a point."
            }
        }
    }
}

/// Quick entry (issue 21): one line of text to an expense draft, or precisely what is missing
/// or ambiguous. Pure and deterministic: no amount, currency or sharer is ever guessed.
///
///     Ramen ¥1200 paid by Aki, all
///     Taxi 45.50 MYR Bo Chen
///     Hotel 30000 JPY split 2:1:1 Aki Bo Chen
///     Dinner RM 120 for everyone except Chen
///     Groceries 12*3+4.50
///     Museum 1,800円 Aki paid, Bo and me
///     Tickets 60 EUR Aki 40 Bo 20
///     Refund 30 EUR to Aki split all
public enum QuickEntry {
    public static let maximumLength = 500
    static let maximumMinorUnits: Int128 = 10_000_000_000_000

    /// "1,500" in a currency with decimals: a thousands comma (1500) or a decimal comma (1.5)?
    /// Both readings, for a refusal that names them; nil when `number` is not of that form (one
    /// to three digits, not starting with 0, a comma, three digits, nothing else) or the decimal
    /// reading has more decimals than the currency ("1,234 EUR" is 1234). One rule for
    /// a line and for a form's amount field (found by review: the line read 1500, the form
    /// refused).
    public static func commaReadings(_ number: some StringProtocol, _ currency: Currency)
        -> (whole: String, decimal: String)?
    {
        let parts = number.split(separator: ",", omittingEmptySubsequences: false)
        guard currency.minorUnits > 0, parts.count == 2, (1...3).contains(parts[0].count), parts[1].count == 3,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts[0].first != "0"
        else { return nil }
        var decimals = String(parts[1])
        while decimals.hasSuffix("0") { decimals.removeLast() }
        // "1,234" in euros cannot be 1.234 (two decimals): only thousands (found by review). Nor
        // is "3,000" three where a currency has fewer than three decimals (found by a new user:
        // "3,000 baht" was asked about): nobody writes more zeros than its decimals after a
        // decimal comma. In dinars (three) "1,000" may be one.
        guard decimals.count <= currency.minorUnits, !decimals.isEmpty || currency.minorUnits >= parts[1].count
        else { return nil }
        let whole = String(parts[0])
        return (whole + parts[1], decimals.isEmpty ? whole : whole + "." + decimals)
    }

    /// "1.200 CHF": a thousands point (1200, as much of Europe writes it) or a decimal point
    /// (1.2)? Both readings and the decimal one written out ("1.20"), for a refusal that names
    /// them; nil when `number` is not one to three digits (not starting with 0), a point and
    /// three digits, or the currency has no decimals or three, or the decimal reading has more
    /// decimals than the currency ("1.234 CHF" is no amount in cents).
    public static func pointReadings(_ number: some StringProtocol, _ currency: Currency)
        -> (whole: String, decimal: String, written: String)?
    {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(currency.minorUnits), parts.count == 2, (1...3).contains(parts[0].count),
            parts[1].count == 3, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts[0].first != "0"
        else { return nil }
        var decimals = String(parts[1])
        while decimals.hasSuffix("0") { decimals.removeLast() }
        guard decimals.count <= currency.minorUnits else { return nil }
        let whole = String(parts[0])
        let written = whole + "." + decimals + String(repeating: "0", count: currency.minorUnits - decimals.count)
        return (whole + parts[1], decimals.isEmpty ? whole : whole + "." + decimals, written)
    }

    /// Names as a sentence lists them: "Ben", "Ben and Eli", "Ben, Eli and Mei".
    static func list(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    public static func parse(_ line: String, context: QuickEntryContext) -> QuickEntryOutcome {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .failure([.empty]) }
        // Counted in Unicode scalars, not characters: one character can carry any number of
        // combining marks, and a line of 500 such characters could be megabytes to read.
        guard text.unicodeScalars.count <= maximumLength else { return .failure([.tooLong]) }
        var reader = Reader(words: Self.words(text), context: context)
        return reader.read()
    }

    /// A draft as a line this parser reads back to the same draft.
    public static func render(_ draft: QuickDraft, context: QuickEntryContext) -> String {
        let name = { (id: MemberID) in context.people.first { $0.id == id }?.name ?? "?" }
        var parts = [draft.description, draft.total.decimalString, draft.total.currency.code, "paid by", name(draft.payer)]
        switch draft.rule {
        case .equal(let members):
            parts += ["for"] + members.map(name)
        case .shares(let weights):
            parts += ["split", weights.map { $0.value.normalized.description }.joined(separator: ":")]
                + weights.map { name($0.memberID) }
        case .exact(let amounts):
            for entry in amounts {
                parts += [name(entry.memberID), Money(minorUnits: entry.amount, currency: draft.total.currency).decimalString]
            }
        default:
            break
        }
        parts.append(draft.date.description)
        return parts.joined(separator: " ")
    }

    // MARK: Words

    struct Word {
        var text: String
        /// A comma followed it ("Aki, all").
        var comma: Bool
        var lower: String { text.lowercased() }
    }

    static func words(_ text: String) -> [Word] {
        var result: [Word] = []
        for piece in text.split(whereSeparator: \.isWhitespace) {
            // Trailing commas off in one pass (keeping a word's first scalar: "," alone is a comma).
            let scalars = piece.unicodeScalars
            var end = scalars.endIndex
            var comma = false
            while scalars.index(before: end) > scalars.startIndex, scalars[scalars.index(before: end)] == "," {
                end = scalars.index(before: end)
                comma = true
            }
            let word = String(scalars[..<end])
            if word == "," {
                if !result.isEmpty { result[result.count - 1].comma = true }
                continue
            }
            result.append(Word(text: word, comma: comma))
        }
        return result
    }

    // MARK: Currencies

    /// Symbols before or after an amount, longest first.
    static let symbols: [(String, String)] = [
        ("US$", "USD"), ("S$", "SGD"), ("A$", "AUD"), ("C$", "CAD"), ("HK$", "HKD"), ("NZ$", "NZD"), ("NT$", "TWD"),
        // Found by a new user in Switzerland: "wine Fr. 84.-" was 84 euros, described "wine Fr.".
        ("SFr.", "CHF"), ("Fr.", "CHF"), ("RM", "MYR"), ("Rp", "IDR"), ("¥", "JPY"), ("￥", "JPY"), ("円", "JPY"), ("元", "CNY"), ("€", "EUR"), ("£", "GBP"),
        ("₩", "KRW"), ("฿", "THB"), ("₹", "INR"), ("₱", "PHP"), ("₫", "VND"), ("$", "$"),
    ]
    static let dollars = ["USD", "SGD", "AUD", "CAD", "HKD", "NZD", "TWD"]

    /// A currency named by a symbol ("¥", "$") or a code ("MYR", upper case), or the dollar
    /// question; nil when `text` is neither.
    /// The one person whose name (or first name, or nickname) `word` is a slip away from: one
    /// letter wrong, missing, extra or two swapped, or two of those in a word of six letters or
    /// more. Nil when none is, or several are (a guess between two people helps nobody).
    public static func closeName(_ word: String, _ people: [QuickEntryContext.Person]) -> String? {
        let typed = Array(folded(word))
        guard typed.count >= 3, typed.count <= 40 else { return nil }
        let allowed = typed.count >= 6 ? 2 : 1
        var found: [String] = []
        for person in people {
            let names = [person.name] + person.name.split(separator: " ").map(String.init) + person.nicknames
            if names.contains(where: { editDistance(typed, Array(folded($0)), atMost: allowed) <= allowed }),
                !found.contains(person.name)
            {
                found.append(person.name)
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Edits between two words (a swap of neighbours counts one), or more than `atMost` once it
    /// is sure to be more.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit, !b.isEmpty, b.count <= 80 else { return limit + 1 }
        var before = [Int](0...b.count)
        var previous = before
        var row = before
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = Swift.min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = Swift.min(row[j], previous[j - 2] + 1) }
            }
            previous = before
            before = row
        }
        return before[b.count]
    }

    /// Whether the words before the amount say money came back: "refund", "reimbursed",
    /// "reimbursement", "cashback", something "returned" at their end ("Tickets returned"), or
    /// money said to come back at their end ("Deposit back";
    /// found by review: it was saved as a cost). Not "Flight back" or "Taxi back" (a trip home
    /// costs), nor "Bo paid me back" (money between people is a transfer, not a refund).
    static func saysRefund(_ description: [String]) -> Bool {
        let words = description.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        let refund: Set = ["refund", "refunds", "refunded", "reimbursed", "reimbursement", "cashback"]
        if words.contains(where: refund.contains) { return true }
        // "Tickets returned", "Deposit returned": something returned at the end is money back.
        if words.count >= 2, words.last == "returned" { return true }
        let money: Set = ["deposit", "money", "cash", "bond", "change", "overpayment"]
        guard words.count >= 2, words.last == "back" else { return false }
        return money.contains(words[words.count - 2])
    }

    /// What it was with a capital first, as a description starts, when said mid-sentence
    /// ("… for sushi"); not "IPhone".
    static func sentenceCase(_ words: [String]) -> [String] {
        guard let first = words.first, !first.contains(where: \.isUppercase) else { return words }
        return [first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()
    }

    /// A name without case or accents, to match one typed without them ("chloe" is Chloé), and
    /// with each run of spaces one plain space (a name stored before runs were collapsed, or
    /// with another kind of space, is still found).
    public static func folded(_ text: String) -> String {
        AccountInput.nameKey(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    }

    /// Two names a reader takes for the same person: equal but for case, accents and spaces ("ben"
    /// and "Ben", "Chloe" and "Chloé", "Erin  K" and "Erin K"). A group keeps no two such names
    /// apart as two people by joining (see `GroupStore.join`).
    public static func sameName(_ one: String, _ other: String) -> Bool { folded(one) == folded(other) }

    static func currency(_ text: String, home: Currency, words: Bool = false) -> Result<Currency, QuickEntryProblem>? {
        if let match = symbols.first(where: { $0.0 == text }) {
            let code = match.1
            if code == "$" {
                if dollars.contains(home.code) { return .success(home) }
                return .failure(.whichCurrency("$", dollars.compactMap { try? Currency(code: $0) }))
            }
            // ¥ is the yuan in a group whose home is the yuan.
            if code == "JPY", text != "円", home.code == "CNY" { return .success(home) }
            return (try? Currency(code: code)).map { .success($0) }
        }
        // A currency's name as people say it after an amount ("5000 yen", "15 ringgit"; found
        // by review: "yen" was asked about as a name); only there (`words`), so "Dog pound 20"
        // and a member called Yuan stay what they were.
        if words, let code = currencyWords[text.lowercased()] {
            if code == "$" {
                // Asked about as typed (found by a new user: "45 dollars" was asked "which currency is “$”?").
                if dollars.contains(home.code) { return .success(home) }
                return .failure(.whichCurrency(text, dollars.compactMap { try? Currency(code: $0) }))
            }
            return (try? Currency(code: code)).map { .success($0) }
        }
        // In lower case only the common codes that are no English word ("4.5 usd"; found by
        // review): "try", "pen" or "top" after an amount stay words.
        if lowerCaseCodes.contains(text) { return (try? Currency(code: text.uppercased())).map { .success($0) } }
        guard text.count == 3, text == text.uppercased(), text.allSatisfy(\.isLetter) else { return nil }
        return (try? Currency(code: text)).map { .success($0) }
    }

    /// The currency a word names as a line would read it after an amount ("yen", "RM", "usd",
    /// "EUR"), or nil (also for an unclear "$" outside a dollar group).
    public static func currency(named text: String, home: Currency) -> Currency? {
        if case .success(let currency)? = currency(text, home: home, words: true) { return currency }
        return nil
    }

    /// Weekday names and their short forms, 1 (Monday) to 7 (Sunday).
    static let weekdays: [String: Int] = [
        "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6, "sunday": 7,
        "mon": 1, "tue": 2, "tues": 2, "wed": 3, "thu": 4, "thurs": 4, "fri": 5, "sat": 6, "sun": 7,
    ]

    /// The weekdays spelled out, which alone are a day; a short form ("sun", "sat") only after
    /// "on" or "last" (it is often a word, or a name).
    static let weekdayNames: Set = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The latest `weekday` on or before `today` (strictly before it with `strictly`).
    static func latest(_ weekday: Int, before today: CivilDate, strictly: Bool) -> CivilDate {
        var back = (today.weekday - weekday + 7) % 7
        if back == 0, strictly { back = 7 }
        return today.adding(days: -back)
    }

    /// Month names and their short forms ("dec", "sept", "dec."), 1 to 12; nil for any other word.
    static func month(_ word: String) -> Int? {
        if let month = months[word] { return month }
        guard word.hasSuffix(".") else { return nil }
        return months[String(word.dropLast())]
    }

    static let months: [String: Int] = [
        "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8, "september": 9,
        "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
        "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
    ]

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// "3 December 2025", for a question that names a date.
    static func spelled(_ date: CivilDate) -> String { "\(date.day) \(monthNames[date.month - 1]) \(date.year)" }

    /// "dec": a month as a line may say it.
    static func monthWord(_ month: Int) -> String { monthNames[month - 1].prefix(3).lowercased() }

    /// What is said after a day and is part of it: "friday night", "yesterday evening".
    static let partsOfDay: Set = ["night", "morning", "afternoon", "evening"]

    /// A weekday and the word before or after it that together name a thing, not a day: "Sunday
    /// roast" is a dish whenever it was eaten, "Black Friday" a sale.
    static let weekdayThings: Set = [
        "sunday roast", "sunday roasts", "sunday school", "sunday paper", "sunday papers", "black friday", "cyber monday",
        "good friday", "easter sunday", "easter monday", "palm sunday", "ash wednesday", "taco tuesday",
    ]

    /// The letters a day's words start with (weekdays, months, "yesterday", "today", "last").
    static let dayInitials = "adfjlmnostwy"

    /// Whether a word (lower case) may start a day: a digit, a weekday, a month, "yesterday",
    /// "today" or "last". Most words do not, and cost nothing more (every word of a line is tried).
    static func mayStartDay(_ word: String) -> Bool {
        guard let first = word.first else { return false }
        return first.isASCII && first.isNumber || weekdays[word] != nil || month(word) != nil
            || word == "yesterday" || word == "today" || word == "last"
    }

    /// A day said in exactly `said` (lower case, one to three words, no "on"): "yesterday",
    /// "today", "last night", a weekday spelled out (or short, with `short`: after "on"), "last
    /// friday" or "last fri", any of those with a part of the day ("friday night"), a date
    /// (2026-05-01), a day and a month either way round with a year or not ("3 dec", "December
    /// 3rd", "3 dec 2025"), or with a slash ("13/12", "3/12/2025"). Without a year, the latest
    /// such day on or before `today`, as a weekday is. A question or a refusal for what cannot be
    /// taken as typed ("3/12", 0026-07-14); nil when the words say no day.
    static func day(exactly said: ArraySlice<String>, today: CivilDate, short: Bool = false)
        -> Result<CivilDate, QuickEntryProblem>?
    {
        var words = Array(said)
        if words.count >= 2, partsOfDay.contains(words[words.count - 1]),
            weekdays[words[words.count - 2]] != nil || ["yesterday", "today"].contains(words[words.count - 2])
        {
            words.removeLast()
        }
        switch words.count {
        case 1:
            let word = words[0]
            if word == "yesterday" { return .success(today.adding(days: -1)) }
            if word == "today" { return .success(today) }
            if let weekday = weekdays[word], short || weekdayNames.contains(word) {
                return .success(latest(weekday, before: today, strictly: false))
            }
            if let date = CivilDate(word) {
                return CivilDate.storedYears.contains(date.year) ? .success(date) : .failure(.dateYear(word))
            }
            return slashed(word, today: today)
        case 2 where words[0] == "last":
            // "last night" is yesterday's, as "yesterday" is in the group's time zone.
            if words[1] == "night" { return .success(today.adding(days: -1)) }
            return weekdays[words[1]].map { .success(latest($0, before: today, strictly: true)) }
        case 2, 3:
            let year = words.count == 3 ? words[2] : nil
            if let month = month(words[0]), let day = dayOfMonth(words[1]) {
                return dated(day: day, month: month, year: year, today: today)
            }
            if let day = dayOfMonth(words[0]), let month = month(words[1]) {
                return dated(day: day, month: month, year: year, today: today)
            }
            return nil
        default:
            return nil
        }
    }

    /// "3", "03", "3rd", "21st": a day of a month (1 to 31), or nil.
    static func dayOfMonth(_ word: String) -> Int? {
        var digits = Substring(word)
        if ["st", "nd", "rd", "th"].contains(where: { digits.hasSuffix($0) }) { digits = digits.dropLast(2) }
        guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let day = Int(digits),
            (1...31).contains(day)
        else { return nil }
        return day
    }

    /// The day of `month` said with a year (four digits) or, without one, the latest on or before
    /// `today`; nil when there is none ("31 feb", or a year that is no year).
    static func dated(day: Int, month: Int, year: String?, today: CivilDate) -> Result<CivilDate, QuickEntryProblem>? {
        guard let year else { return latest(day: day, month: month, before: today).map { .success($0) } }
        guard year.count == 4, year.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(year),
            let date = CivilDate(year: number, month: month, day: day)
        else { return nil }
        return CivilDate.storedYears.contains(number) ? .success(date) : .failure(.dateYear(date.description))
    }

    /// The latest `day` of `month` on or before `today` (a 29 February up to eight years back).
    static func latest(day: Int, month: Int, before today: CivilDate) -> CivilDate? {
        for year in stride(from: today.year, through: today.year - 8, by: -1) {
            if let date = CivilDate(year: year, month: month, day: day), date <= today { return date }
        }
        return nil
    }

    /// "13/12", "12/13", "3/12/2025": a day and a month with a slash, read the one way that is a
    /// date; where both are and differ ("3/12": 3 December or March 12), asked, as nothing here
    /// knows which way round the group writes them. Nil when neither is ("60/40", "1/0").
    static func slashed(_ word: String, today: CivilDate) -> Result<CivilDate, QuickEntryProblem>? {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count), (1...2).contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let first = Int(parts[0]),
            let second = Int(parts[1])
        else { return nil }
        var year: Int?
        if parts.count == 3 {
            guard parts[2].count == 4, let said = Int(parts[2]) else { return nil }
            year = said
        }
        func date(day: Int, month: Int) -> CivilDate? {
            guard let year else { return latest(day: day, month: month, before: today) }
            return CivilDate(year: year, month: month, day: day)
        }
        let readings = (date(day: first, month: second), date(day: second, month: first))
        // "3/12/0026": a date in no year a group keeps, whichever way round.
        if let one = readings.0 ?? readings.1, !CivilDate.storedYears.contains(one.year) {
            return .failure(.dateYear(one.description))
        }
        switch readings {
        case (let dayFirst?, let monthFirst?) where dayFirst != monthFirst:
            return .failure(.ambiguousDate(word, dayFirst: dayFirst, monthFirst: monthFirst))
        case (let one?, _), (nil, let one?):
            return .success(one)
        case (nil, nil):
            return nil
        }
    }

    /// Currencies by the words people say for them; "dollars" is the home dollar, else asked.
    static let currencyWords: [String: String] = [
        "yen": "JPY", "ringgit": "MYR", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP", "quid": "GBP",
        "baht": "THB", "yuan": "CNY", "rmb": "CNY", "renminbi": "CNY", "rupee": "INR", "rupees": "INR",
        "rupiah": "IDR", "dong": "VND", "francs": "CHF", "dollar": "$", "dollars": "$", "bucks": "$",
        // Found by a new user on a trip through Korea: "45000 won".
        "won": "KRW", "rand": "ZAR", "zloty": "PLN", "forint": "HUF", "dirham": "AED", "dirhams": "AED",
        "franc": "CHF",
    ]

    /// A currency code glued to an amount ("GBP12", "12gbp"): the code and the amount apart.
    static func gluedCode(_ text: String) -> (code: String, amount: String)? {
        // Most words have no digit: nothing to look up (quick entry reads every word with this).
        guard text.utf8.count > 3, text.utf8.contains(where: { (48...57).contains($0) }) else { return nil }
        func isCode(_ part: Substring) -> Bool {
            part.allSatisfy { $0.isASCII && $0.isLetter }
                && (part == part.uppercased() ? (try? Currency(code: String(part))) != nil : lowerCaseCodes.contains(String(part)))
        }
        let head = text.prefix(3)
        let tail = text.suffix(3)
        if isCode(head), text.dropFirst(3).first.map({ $0.isASCII && $0.isNumber }) == true {
            return (head.uppercased(), String(text.dropFirst(3)))
        }
        if isCode(tail), text.dropLast(3).last.map({ $0.isASCII && $0.isNumber }) == true {
            return (tail.uppercased(), String(text.dropLast(3)))
        }
        return nil
    }

    static let lowerCaseCodes: Set<String> = [
        "usd", "eur", "gbp", "jpy", "myr", "sgd", "aud", "cad", "chf", "cny", "hkd", "inr", "krw", "thb", "idr", "php",
        "vnd", "nzd", "sek", "nok", "dkk", "brl", "mxn", "twd", "zar", "pln", "czk", "huf", "aed", "sar",
    ]

    // MARK: Amounts

    /// An exact fraction.
    struct Ratio {
        var numerator: Int128
        var denominator: Int128
    }

    enum Arithmetic: Error {
        case notANumber
        case divisionByZero
        case tooLarge
    }

    /// Evaluates "12*3+4.50", "1,800", "(10+5)/3" exactly. `decimals` is the most fractional
    /// digits any literal had.
    static func evaluate(_ text: String) throws(Arithmetic) -> (Ratio, decimals: Int) {
        var parser = ExpressionParser(characters: Array(text), position: 0, decimals: 0)
        let value = try parser.sum()
        guard parser.position == parser.characters.count else { throw .notANumber }
        return (value, parser.decimals)
    }

    struct ExpressionParser {
        let characters: [Character]
        var position: Int
        var decimals: Int
        static let limit: Int128 = 1 << 100

        mutating func sum() throws(Arithmetic) -> Ratio {
            var value = try product()
            while position < characters.count, characters[position] == "+" || characters[position] == "-" {
                let sign: Int128 = characters[position] == "+" ? 1 : -1
                position += 1
                let next = try product()
                value = try Self.checked(
                    Ratio(
                        numerator: try Self.add(
                            try Self.multiply(value.numerator, next.denominator),
                            try Self.multiply(sign * next.numerator, value.denominator)),
                        denominator: try Self.multiply(value.denominator, next.denominator)))
            }
            return value
        }

        mutating func product() throws(Arithmetic) -> Ratio {
            var value = try factor()
            while position < characters.count, characters[position] == "*" || characters[position] == "×"
                || characters[position] == "x" || characters[position] == "/"
            {
                let divide = characters[position] == "/"
                position += 1
                let next = try factor()
                if divide {
                    guard next.numerator != 0 else { throw .divisionByZero }
                    value = try Self.checked(
                        Ratio(
                            numerator: try Self.multiply(value.numerator, next.denominator),
                            denominator: try Self.multiply(value.denominator, next.numerator)))
                } else {
                    value = try Self.checked(
                        Ratio(
                            numerator: try Self.multiply(value.numerator, next.numerator),
                            denominator: try Self.multiply(value.denominator, next.denominator)))
                }
            }
            return value
        }

        mutating func factor() throws(Arithmetic) -> Ratio {
            guard position < characters.count else { throw .notANumber }
            if characters[position] == "-" {
                position += 1
                let inner = try factor()
                return Ratio(numerator: -inner.numerator, denominator: inner.denominator)
            }
            if characters[position] == "(" {
                position += 1
                let inner = try sum()
                guard position < characters.count, characters[position] == ")" else { throw .notANumber }
                position += 1
                return inner
            }
            return try literal()
        }

        /// Digits, thousands in groups of three after commas ("1,800") or apostrophes ("1'800",
        /// "1’800", as Switzerland writes them), an optional decimal part after a point, or after
        /// a comma followed by one or two digits ("12,40", as much of Europe writes it; found by
        /// review: it was "not an amount"); "84.-" and "84,-" are 84 (Swiss and German for no
        /// cents). Points between thousands where nothing else can be meant: before a decimal
        /// comma ("1.234,50", "1.234,-") or two or more of them ("1.234.567").
        mutating func literal() throws(Arithmetic) -> Ratio {
            var digits = ""
            var fraction = ""
            var grouped = false
            let points = pointsBetweenThousands(from: position)
            while position < characters.count {
                let character = characters[position]
                if character.isASCII, character.isNumber {
                    digits.append(character)
                    position += 1
                } else if points ? character == "." : character == "," || character == "'" || character == "’",
                    !digits.isEmpty, isThousands(after: position)
                {
                    grouped = true
                    position += 1
                } else {
                    break
                }
            }
            if position < characters.count, characters[position] == ",", !digits.isEmpty,
                points || (!grouped && (isDecimalComma(after: position) || isNoCents(at: position + 1)))
            {
                position += 1
                while position < characters.count, characters[position].isASCII, characters[position].isNumber {
                    fraction.append(characters[position])
                    position += 1
                }
                // "84,-", "1.234,–": no cents.
                if fraction.isEmpty { position += 1 }
            } else if !points, position < characters.count, characters[position] == "." {
                position += 1
                while position < characters.count, characters[position].isASCII, characters[position].isNumber {
                    fraction.append(characters[position])
                    position += 1
                }
                // "84.-", "84.–": no cents (not "84.-5", a minus).
                if fraction.isEmpty, !digits.isEmpty, isNoCents(at: position) {
                    position += 1
                } else if fraction.isEmpty {
                    throw .notANumber
                }
            }
            guard !digits.isEmpty || !fraction.isEmpty, digits.count + fraction.count <= 24 else {
                throw digits.count + fraction.count > 24 ? .tooLarge : .notANumber
            }
            decimals = max(decimals, fraction.count)
            guard let numerator = Int128(digits + fraction) else { throw .tooLarge }
            var denominator: Int128 = 1
            for _ in 0..<fraction.count { denominator *= 10 }
            return Ratio(numerator: numerator, denominator: denominator)
        }

        /// A comma at `index` followed by one or two digits and no more: a decimal comma ("12,40").
        func isDecimalComma(after index: Int) -> Bool {
            var end = index + 1
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
            return (1...2).contains(end - index - 1)
        }

        /// A dash at `index` that ends an amount with no cents ("84.-", "84,–"): last, or followed
        /// by no digit, point, parenthesis or dash ("84.-5" is a minus).
        func isNoCents(at index: Int) -> Bool {
            guard index < characters.count, ["-", "–"].contains(characters[index]) else { return false }
            return index + 1 == characters.count
                || !(characters[index + 1].isNumber || [".", "(", "-", "–"].contains(characters[index + 1]))
        }

        /// Whether the number from `start` has points between its thousands: one to three digits
        /// (not starting with 0), then points each followed by three digits, and after them a
        /// decimal comma (with digits, or a dash for no cents), or after two or more of them
        /// anything but a digit ("1.234,50", "1.234,-", "1.234.567"). One point and no comma
        /// stays a decimal point or a question ("1.200 CHF", `QuickEntry.pointReadings`).
        func pointsBetweenThousands(from start: Int) -> Bool {
            var index = start
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            guard (1...3).contains(index - start), characters[start] != "0" else { return false }
            var groups = 0
            while index < characters.count, characters[index] == ".", isThousands(after: index) {
                groups += 1
                index += 4
            }
            guard groups > 0 else { return false }
            if index < characters.count, characters[index] == "," {
                return index + 1 < characters.count
                    && (characters[index + 1].isASCII && characters[index + 1].isNumber || isNoCents(at: index + 1))
            }
            return groups >= 2 && (index == characters.count || characters[index] != ".")
        }

        /// A separator at `index` followed by exactly three digits: a thousands separator ("1,800").
        func isThousands(after index: Int) -> Bool {
            let end = index + 4
            guard end <= characters.count else { return false }
            let group = characters[(index + 1)..<end]
            guard group.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            return end == characters.count || !(characters[end].isASCII && characters[end].isNumber)
        }

        /// Each value is below 2^100, so a product of two may pass Int128: refused, never a trap.
        static func multiply(_ left: Int128, _ right: Int128) throws(Arithmetic) -> Int128 {
            let (product, overflow) = left.multipliedReportingOverflow(by: right)
            guard !overflow else { throw .tooLarge }
            return product
        }

        static func add(_ left: Int128, _ right: Int128) throws(Arithmetic) -> Int128 {
            let (sum, overflow) = left.addingReportingOverflow(right)
            guard !overflow else { throw .tooLarge }
            return sum
        }

        static func checked(_ ratio: Ratio) throws(Arithmetic) -> Ratio {
            // Int128.min has no negation: far past any amount anyway.
            guard ratio.numerator != .min, ratio.denominator != .min else { throw .tooLarge }
            var (numerator, denominator) = (ratio.numerator, ratio.denominator)
            if denominator < 0 {
                numerator = -numerator
                denominator = -denominator
            }
            var (a, b) = (numerator.magnitude, denominator.magnitude)
            while b != 0 { (a, b) = (b, a % b) }
            let divisor = Int128(max(a, 1))
            numerator /= divisor
            denominator /= divisor
            guard numerator.magnitude < limit.magnitude, denominator.magnitude < limit.magnitude else { throw .tooLarge }
            return Ratio(numerator: numerator, denominator: denominator)
        }
    }

    /// Whether a word could start an amount: a digit, a sign or parenthesis before one, or a
    /// currency symbol glued to one.
    static func looksLikeAmount(_ word: String) -> Bool {
        var rest = Substring(word)
        for (symbol, _) in symbols where rest.hasPrefix(symbol) {
            rest = rest.dropFirst(symbol.count)
            break
        }
        guard let first = rest.first else { return false }
        if first.isASCII, first.isNumber { return true }
        if gluedCode(word) != nil { return true }
        if first == "-" || first == "(" { return rest.dropFirst().first.map { $0.isASCII && $0.isNumber || $0 == "(" } ?? false }
        return false
    }

    // MARK: Reading

    struct Reader {
        let words: [Word]
        let context: QuickEntryContext
        var position = 0
        var problems: [QuickEntryProblem] = []

        init(words: [Word], context: QuickEntryContext) {
            self.words = words
            self.context = context
        }

        var atEnd: Bool { position >= words.count }
        var current: Word { words[position] }

        mutating func read() -> QuickEntryOutcome {
            // "Sam 60% Ben 40% taxi 25": each one's percentage said first (found by a new user:
            // the same said after the amount was read).
            let leadingPercents = percentsFirst()
            // What it was: the words before the amount.
            var description: [String] = []
            // A date is no amount: "Dinner on 2026-05-01 60" says the day before the amount (and
            // "2026-05-01: dinner 60" at the start); nor is a day and a month ("Dinner 3 dec 60",
            // "Dinner 13/12 60") where the amount follows them, or first on the line where what it
            // was follows them ("3 dec: dinner 60", "dec 3 dinner 60"). They are read as the date
            // below.
            while !atEnd {
                let first = description.isEmpty
                if let (_, count) = dayAt(
                    position, colon: first,
                    then: { next in
                        first ? next < words.count && !QuickEntry.looksLikeAmount(words[next].text) : amountAt(next)
                    })
                {
                    description += words[position..<(position + count)].map(\.text)
                    position += count
                    continue
                }
                guard !QuickEntry.looksLikeAmount(current.text) || CivilDate(current.text) != nil
                    || (current.text.hasSuffix(":") && CivilDate(String(current.text.dropLast())) != nil),
                    QuickEntry.currency(current.text, home: context.homeCurrency) == nil
                        || (position + 1 < words.count && !QuickEntry.looksLikeAmount(words[position + 1].text))
                else { break }
                description.append(current.text)
                position += 1
            }
            // A name that starts with a number ("7-Eleven 864 yen", "12 beers 60"): when the line
            // starts with what looks like an amount and another comes after words that are not one,
            // the words before that one are what it was (found by a new user). Only where the line
            // would have no description otherwise.
            if description.isEmpty, position + 1 < words.count,
                words[position].text.first.map({ $0.isASCII && $0.isNumber }) == true,
                QuickEntry.currency(words[position].text, home: context.homeCurrency, words: true) == nil,
                QuickEntry.currency(words[position + 1].text, home: context.homeCurrency, words: true) == nil,
                let next = (position + 1..<words.count).first(where: {
                    QuickEntry.looksLikeAmount(words[$0].text) && CivilDate(words[$0].text) == nil
                }), next > position + 1 || (try? QuickEntry.evaluate(words[position].text)) == nil,
                QuickEntry.gluedCode(words[position].text) == nil
            {
                let named = words[position..<next].map(\.text)
                // "2 x 15" is arithmetic said in words, not a name (found by review).
                if named.contains(where: { word in
                    word.contains(where: \.isLetter) && !["x", "×"].contains(word.lowercased())
                }) {
                    description = named
                    position = next
                }
            }
            // "Lunch yesterday 24", "Dinner last friday 60": a day said before the amount is the
            // date, not part of what it was (found by review: dated today, "yesterday" kept).
            var saidDate: CivilDate?
            if let (day, count) = dayAtEnd(description) {
                note(day, &saidDate)
                description.removeLast(count)
            }
            if !leadingPercents.isEmpty { description = QuickEntry.sentenceCase(description) }
            // "yesterday: takeaway 38", "last friday pizza 30", "friday dinner 40": the same day
            // said first (found by new users: it was kept in what it was, and the date was today).
            if let (day, count) = dayFirst(description) {
                if saidDate == nil { note(day, &saidDate) }
                description = QuickEntry.sentenceCase(Array(description.dropFirst(count)))
            }
            // "Sam paid internet 30", "Ben bought toilet paper for 7.99": who paid, then what it
            // was, both before the amount (found by new users: "Sam paid internet" was what it was,
            // paid by whoever typed it).
            let payerNamed = payerThenWhat(description)
            if let payerNamed {
                description = QuickEntry.sentenceCase(payerNamed.what)
            } else if let (head, what) = verbThenWhat(description), let gone = former(head.joined(separator: " ")) {
                // "Carla paid wine 20" where Carla left: said so, not read as what it was.
                problems.append(.formerMember(gone.name, left: gone.left))
                description = QuickEntry.sentenceCase(what)
            }
            let refundWord = QuickEntry.saysRefund(description)
            guard !atEnd else { return .failure([description.isEmpty ? .noDescription : .noAmount]) }

            // How much, in what: [currency] amount [currency], a symbol glued to either side.
            var currencies: [Currency] = []
            func noteCurrency(_ text: String, words: Bool = false) -> Bool {
                guard let found = QuickEntry.currency(text, home: context.homeCurrency, words: words) else { return false }
                switch found {
                case .success(let currency): if !currencies.contains(currency) { currencies.append(currency) }
                case .failure(let problem): if !problems.contains(problem) { problems.append(problem) }
                }
                return true
            }
            if !isNameOrKeyword(current.text), noteCurrency(current.text) { position += 1 }
            guard !atEnd else {
                return .failure(description.isEmpty ? [.noDescription] : problems.isEmpty ? [.noAmount] : problems)
            }
            var amountText = current.text
            position += 1
            for (symbol, _) in QuickEntry.symbols where amountText.hasPrefix(symbol) && amountText.count > symbol.count {
                _ = noteCurrency(symbol)
                amountText.removeFirst(symbol.count)
                break
            }
            for (symbol, _) in QuickEntry.symbols where amountText.hasSuffix(symbol) && amountText.count > symbol.count {
                _ = noteCurrency(symbol)
                amountText.removeLast(symbol.count)
                break
            }
            if let glued = QuickEntry.gluedCode(amountText) {
                _ = noteCurrency(glued.code)
                amountText = glued.amount
            }
            if !atEnd, !isNameOrKeyword(current.text), noteCurrency(current.text, words: true) { position += 1 }
            var assumed: Set<QuickDraft.Assumption> = []
            if currencies.count > 1 { problems.append(.mixedCurrencies(currencies)) }
            let currency: Currency
            if let first = currencies.first {
                currency = first
            } else {
                currency = context.homeCurrency
                if !problems.contains(where: { if case .whichCurrency = $0 { true } else { false } }) {
                    assumed.insert(.currency)
                }
            }
            var total: Money?
            if CivilDate(amountText) != nil {
                // A date where the amount goes ("Dinner 2024-05-01 all"): no amount was said.
                problems.append(.noAmount)
            } else if let number = amountText.split(whereSeparator: { !($0.isNumber || $0 == "," || $0 == ".") })
                .first(where: { QuickEntry.commaReadings($0, currency) != nil })
            {
                // "1,500 EUR" could be fifteen hundred or one and a half.
                problems.append(.ambiguousComma(String(number), currency))
            } else if let number = amountText.split(whereSeparator: {
                // With a comma after it, the point is between thousands ("1.200,50 CHF").
                !($0.isNumber || $0 == "." || $0 == "," || $0 == "'" || $0 == "’")
            }).first(where: { QuickEntry.pointReadings($0, currency) != nil })
            {
                // "1.200 CHF" likewise (found by a new user: it was "does not come to whole CHF cents").
                problems.append(.ambiguousPoint(String(number), currency))
            } else { do {
                let (value, decimals) = try QuickEntry.evaluate(amountText)
                let scale = Int128(currency.minorUnitsPerMajor)
                if decimals > currency.minorUnits || (value.numerator * scale) % value.denominator != 0 {
                    problems.append(.decimals(amountText, currency))
                } else {
                    let minor = value.numerator * scale / value.denominator
                    if minor.magnitude > QuickEntry.maximumMinorUnits.magnitude {
                        problems.append(.tooLarge)
                    } else if minor == 0 {
                        problems.append(.zero)
                    } else {
                        var units = Int64(minor)
                        if refundWord, units > 0 { units = -units }
                        if units < 0, !refundWord {
                            // A stray minus is not money received said (found by review: it
                            // saved a refund no word asked for), as on the form.
                            problems.append(.minus)
                        } else {
                            total = Money(minorUnits: units, currency: currency)
                        }
                    }
                }
            } catch {
                switch error {
                case .notANumber: problems.append(.notANumber(amountText))
                case .divisionByZero: problems.append(.divisionByZero)
                case .tooLarge: problems.append(.tooLarge)
                }
            } }

            // "Ana paid 12000 yen for sushi", "I spent 30 on taxis": who paid, the amount, then
            // what it was (found by a new user: "sushi is nobody in this group").
            // Without it ("Ana paid 3000, all") nothing says what it was: asked, not read as "Ana paid"
            // paid by whoever types.
            let payerFirst = payerBeforeAmount(description)
            if description.isEmpty {
                // "USD 45 for beer", "45 dollars beer paid by Sam": nothing but a currency before
                // the amount, and what it was after it (found by new users: "Say what it was").
                // "60 all" still says nothing of what it was.
                guard let what = descriptionAfterAmount(bare: true) else { return .failure([.noDescription]) }
                description = QuickEntry.sentenceCase(what)
                if QuickEntry.saysRefund(what), let amount = total, amount.minorUnits > 0 {
                    total = Money(minorUnits: -amount.minorUnits, currency: amount.currency)
                }
            } else if payerFirst != nil {
                // Said mid-sentence ("… for sushi"), it starts with a capital as a description does.
                description = QuickEntry.sentenceCase(descriptionAfterAmount() ?? [])
            } else if description.count >= 2, description.count <= 4,
                ["paid", "spent"].contains(description[description.count - 1].lowercased()),
                let what = descriptionAfterAmount()
            {
                // "Ana paid 12000 yen for sushi" where nobody is Ana: Ana is the word to name (found
                // by a new user: "sushi is nobody in this group").
                let who = description.dropLast().joined(separator: " ")
                problems.append(
                    former(who).map { .formerMember($0.name, left: $0.left) }
                        ?? .unknownWord(who, didYouMean: QuickEntry.closeName(who, context.people)))
                description = what
            }
            // Who paid, who shares, when.
            var payer: MemberID? = payerFirst?.who ?? payerNamed?.who
            var sharers: [MemberID] = []
            var excluded: [MemberID] = []
            var exact: [(MemberID, String)] = []
            var percents: [MemberDecimal] = leadingPercents
            var weights: [DecimalValue]?
            var everyone = false
            var date: CivilDate? = saidDate
            var excepting = false
            // "split with Bo": the one who paid shares too.
            var withPayer = false
            // "split equally", "split evenly": with nobody named, everyone who shares by default.
            var evenly = false
            // "split 4 ways": how many share.
            var ways: Int?
            // "paid by Aki, Bo and Chen", "all paid by Sam, Ben": who paid, the names said right
            // after them, whether an "and" joined those, and whether who shares was said before.
            var afterPayer: (payer: MemberID, names: [MemberID], joined: Bool, sharedBefore: Bool)?
            while !atEnd {
                // A day: "yesterday", "friday", "last fri", "friday night", "3 dec", "13/12",
                // 2026-05-01 (one out of the form's years said as a problem of the line; found by
                // review: the line was refused as a whole, its text lost). Not "split 1/2", a ratio
                // that is none.
                if !current.text.contains("/") || position == 0 || words[position - 1].lower != "split",
                    let (day, count) = dayAt(position)
                {
                    note(day, &date)
                    position += count
                    continue
                }
                let word = current
                let lower = word.lower
                position += 1
                switch lower {
                case "on":
                    // "on friday", "on fri", "on 3 dec": the day, unless that is someone's name.
                    if let (day, count) = dayAt(position, short: true) {
                        note(day, &date)
                        position += count
                    }
                    continue
                case "and", "&", "between", "among", "amongst", "by":
                    continue
                case "equally", "evenly":
                    // "split equally": with nobody named, everyone (as "all"); with names, those.
                    evenly = true
                    continue
                case "with":
                    withPayer = true
                    continue
                case "paid", "payer":
                    if !atEnd, words[position].lower == "by" { position += 1 }
                    if let who = person() {
                        setPayer(who, &payer)
                        // "paid by Aki and Ben": two payers, which a line does not take (found by
                        // review: Ben was read as a sharer, and "for all" then hid him).
                        if !words[position - 1].comma, !atEnd, ["and", "&"].contains(current.lower) {
                            let mark = position
                            position += 1
                            if let second = person(), second != who {
                                if !problems.contains(.twoPayers) { problems.append(.twoPayers) }
                            } else {
                                position = mark
                            }
                        }
                        if !problems.contains(.twoPayers), let (names, joined) = namesAhead() {
                            let sharedBefore = everyone || !sharers.isEmpty || !exact.isEmpty || !percents.isEmpty
                            afterPayer = (who, names, joined, sharedBefore)
                        }
                    } else if let last = sharers.popLast() {
                        // "Aki paid": the name before.
                        setPayer(last, &payer)
                    }
                    continue
                case "to", "from":
                    if let who = person() { setPayer(who, &payer) }
                    continue
                case "for", "split":
                    // "split it with Sam" is "split with Sam".
                    if lower == "split", !atEnd, current.lower == "it" { position += 1 }
                    // "split 4 ways": a count of people, not one part of a ratio.
                    if lower == "split", !atEnd, let count = Self.count(current.lower), position + 1 < words.count,
                        ["ways", "way"].contains(words[position + 1].lower)
                    {
                        ways = count
                        position += 2
                    } else if lower == "split", !atEnd, let parts = Self.ratio(current.text) {
                        weights = parts
                        position += 1
                    }
                    continue
                case "all", "everyone", "everybody", "us":
                    everyone = true
                    // "for all of us"
                    if lower == "all", position + 1 < words.count, current.lower == "of", words[position + 1].lower == "us" {
                        position += 2
                    }
                    continue
                case "except", "but", "without", "not":
                    excepting = true
                    continue
                default:
                    // "4 ways" without "split".
                    if let count = Self.count(lower), !atEnd, ["ways", "way"].contains(current.lower) {
                        ways = count
                        position += 1
                        continue
                    }
                }
                // A second currency: one expense is in one (a member called Bob is not the boliviano).
                if !isNameOrKeyword(word.text), let found = QuickEntry.currency(word.text, home: context.homeCurrency) {
                    if case .success(let other) = found, other != currency {
                        let both = [currency, other]
                        if !problems.contains(.mixedCurrencies(both)) { problems.append(.mixedCurrencies(both)) }
                    }
                    continue
                }
                position -= 1
                let start = position
                guard let who = person() else {
                    // "all except Eli" where Eli left: they are in no "all" any more, so leaving
                    // them out is what the line says anyway (found by review: it was refused).
                    if position == start, excepting, let (_, length) = formerAt() {
                        position += length
                        if words[position - 1].comma { excepting = false }
                        continue
                    }
                    // Nobody by that name (an ambiguous name was said already, and passed over).
                    if position == start { problems.append(unknownProblem()) }
                    continue
                }
                // "Aki paid" (but "… paid by Bo" names the one after), even after "except".
                if !atEnd, current.lower == "paid", position + 1 >= words.count || words[position + 1].lower != "by" {
                    position += 1
                    setPayer(who, &payer)
                    excepting = false
                    continue
                }
                if excepting {
                    excluded.append(who)
                    // "except Chen, Aki paid": the list ends at the comma.
                    if words[position - 1].comma { excepting = false }
                    continue
                }
                // "Aki 60%": a percentage (found by review: only ratios were read).
                if !atEnd, current.text.hasSuffix("%"), current.text.count > 1,
                    let percent = try? DecimalValue(parsing: String(current.text.dropLast()))
                {
                    percents.append(MemberDecimal(who, percent))
                    position += 1
                    continue
                }
                // "Aki 40": an exact amount.
                if amountFollows {
                    exact.append((who, current.text))
                    position += 1
                    continue
                }
                if !sharers.contains(who) { sharers.append(who) }
            }

            // Names right after the payer are who shares in "paid by Aki, Bo, Chen" (and "paid by
            // Aki, Aki and Bo": the payer among them). Where who shares is said besides ("all paid
            // by Sam, Ben", "paid by Sam, Ben and Eli, all") they can only be more payers, which a
            // line does not take (found by review: Ben was dropped without a word). "Paid by Sam,
            // Ben and Eli" alone is a list of those who paid as much as Sam paying for Ben and
            // Eli: asked, not guessed (found by review: read as the second).
            if let listed = afterPayer, !listed.names.contains(listed.payer) {
                if listed.sharedBefore || everyone || !exact.isEmpty || !percents.isEmpty
                    || sharers.contains(where: { !listed.names.contains($0) })
                {
                    if !problems.contains(.twoPayers) { problems.append(.twoPayers) }
                } else if listed.joined {
                    let people = context.people
                    let name = { (id: MemberID) in people.first { $0.id == id }?.name ?? "?" }
                    problems.append(.payerOrSharers(payer: name(listed.payer), others: listed.names.map(name)))
                }
            }
            let order = Dictionary(context.people.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            let byDefault = context.people.filter(\.sharesByDefault).map(\.id)
            // "Groceries 43.20 split equally", "Rent 1850 split 4 ways" in a group of four: nobody
            // named is everyone who shares by default, as "all" (found by new users).
            if !everyone, sharers.isEmpty, exact.isEmpty, percents.isEmpty, weights == nil,
                evenly || ways == byDefault.count
            {
                everyone = true
            }
            if everyone {
                // Everyone who shares by default, and anyone named besides ("all and Vic": a
                // viewer named shares; found by review: "all" dropped them).
                let named = sharers
                sharers = byDefault
                sharers += named.filter { !sharers.contains($0) }
                sharers.removeAll { excluded.contains($0) }
            } else {
                // "Dinner 3000 paid by Aki, split with Bo" is Aki and Bo, not Bo alone.
                let payerOrMe = payer ?? context.me
                if withPayer, !sharers.isEmpty, exact.isEmpty, weights == nil, !sharers.contains(payerOrMe) {
                    sharers.insert(payerOrMe, at: 0)
                }
                sharers.removeAll { excluded.contains($0) }
            }
            var rule: SplitRule?
            if !percents.isEmpty {
                if !exact.isEmpty { problems.append(.percentSum(nil)) }
                // Summed exactly at the finest scale said ("33.3% 33.3% 33.4%").
                let scale = percents.map(\.value.scale).max() ?? 0
                let units = percents.map { Int128($0.value.significand) * Int128(Decimal10.power(scale - $0.value.scale)) }
                let sum = units.reduce(0, +)
                if sum != 100 * Int128(Decimal10.power(scale)) {
                    let said = DecimalValue(significand: Int64(clamping: sum), scale: scale).normalized.description
                    if !problems.contains(.percentSum(nil)) { problems.append(.percentSum(said)) }
                } else {
                    rule = .percent(percents)
                }
            } else if !exact.isEmpty, let total {
                var amounts: [MemberAmount] = []
                var sum: Int128 = 0
                for (who, text) in exact {
                    guard let evaluated = try? QuickEntry.evaluate(text) else {
                        problems.append(.notANumber(text))
                        continue
                    }
                    let (value, decimals) = evaluated
                    let scale = Int128(total.currency.minorUnitsPerMajor)
                    guard decimals <= total.currency.minorUnits, (value.numerator * scale) % value.denominator == 0 else {
                        problems.append(.decimals(text, total.currency))
                        continue
                    }
                    let minor = value.numerator * scale / value.denominator
                    guard minor.magnitude <= QuickEntry.maximumMinorUnits.magnitude else {
                        problems.append(.tooLarge)
                        continue
                    }
                    let signed = total.minorUnits < 0 && minor > 0 ? -minor : minor
                    sum += signed
                    amounts.append(MemberAmount(who, Int64(signed)))
                }
                if problems.isEmpty, sum != Int128(total.minorUnits) {
                    problems.append(
                        .exactSum(total: total, sum: Money(minorUnits: Int64(clamping: sum), currency: total.currency)))
                }
                rule = .exact(amounts)
            } else if let weights {
                if everyone {
                    // Who gets which part is said by naming them, in order.
                    problems.append(.ratioNames)
                } else if weights.count != sharers.count {
                    problems.append(.ratioCount(weights: weights.count, people: sharers.count))
                } else {
                    rule = .shares(zip(sharers, weights).map { MemberDecimal($0, $1) })
                }
            } else if let ways, sharers.count != ways {
                // "split 3 ways" in a group of four: which three is not said (nor guessed).
                let names = context.people.filter(\.sharesByDefault).prefix(ways).map(\.name)
                problems.append(.ways(ways, example: Array(names)))
            } else if sharers.isEmpty {
                if context.people.count == 1 {
                    rule = .equal([context.people[0].id])
                } else {
                    problems.append(.whoShares)
                }
            } else {
                rule = .equal(sharers.sorted { (order[$0] ?? .max) < (order[$1] ?? .max) })
            }
            if description.isEmpty { problems.insert(.noDescription, at: 0) }
            guard problems.isEmpty, let total, let rule else { return .failure(problems) }
            if payer == nil { assumed.insert(.payer) }
            if date == nil { assumed.insert(.date) }
            let text = description.joined(separator: " ")
            return .success(
                QuickDraft(
                    description: text, total: total, payer: payer ?? context.me, rule: rule, date: date ?? context.today,
                    category: Self.category(text, context: context), assumed: assumed))
        }

        static let keywords: Set<String> = [
            "and", "with", "on", "between", "equally", "by", "paid", "payer", "to", "from", "for", "split", "all",
            "everyone", "everybody", "us", "except", "but", "without", "not", "yesterday", "today", "me", "i", "myself",
            "evenly", "among", "amongst",
        ]

        /// How many people "split 4 ways" or "split four ways" says (2 to 99).
        static func count(_ word: String) -> Int? {
            let words = ["two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10]
            if let count = words[word] { return count }
            guard word.count <= 2, word.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(word), count >= 2 else {
                return nil
            }
            return count
        }

        /// The words before the amount when they only say who paid: "Ana paid", "I spent",
        /// "paid"; nil when they say what it was.
        func payerBeforeAmount(_ said: [String]) -> PayerFirst? {
            guard let verb = said.last?.lowercased(), Self.payingVerbs.contains(verb) else { return nil }
            let head = said.dropLast()
            if head.isEmpty { return PayerFirst(who: nil) }
            var name = Reader(words: head.map { Word(text: $0, comma: false) }, context: context)
            guard let who = name.person(), name.atEnd, name.problems.isEmpty else { return nil }
            return PayerFirst(who: who)
        }

        /// The words that end "Ana paid …", "I spent …" before the amount.
        static let payingVerbs: Set = ["paid", "spent", "bought"]

        /// "Sam paid internet", "Ben bought toilet paper for", "I paid rent": one person (up to
        /// three words), a paying verb, then what it was; a "for" or "on" before the amount off.
        /// Nil when the words before the verb are not one person, or what follows starts with a
        /// person or a word this reader knows ("Bo paid me back": money between people).
        func payerThenWhat(_ said: [String]) -> (who: MemberID, what: [String])? {
            guard let (head, what) = verbThenWhat(said) else { return nil }
            var name = Reader(words: head.map { Word(text: $0, comma: false) }, context: context)
            guard let who = name.person(), name.atEnd, name.problems.isEmpty else { return nil }
            return (who, what)
        }

        /// The words before a paying verb (one to three) and what follows it, for `payerThenWhat`.
        func verbThenWhat(_ said: [String]) -> (head: [String], what: [String])? {
            guard let verb = said.indices.dropFirst().prefix(3).first(where: { Self.payingVerbs.contains(said[$0].lowercased()) })
            else { return nil }
            var what = Array(said[(verb + 1)...])
            if let last = what.last, ["for", "on"].contains(last.lowercased()) { what.removeLast() }
            guard let first = what.first, !isNameOrKeyword(first) else { return nil }
            return (Array(said[..<verb]), what)
        }

        /// Someone no longer in the group whose name (or first name) `phrase` is, without case
        /// or accents; only asked when no active member is.
        func former(_ phrase: String) -> QuickEntryContext.Former? {
            let plain = QuickEntry.folded(phrase)
            guard !plain.isEmpty else { return nil }
            return context.former.first { gone in
                let name = QuickEntry.folded(gone.name)
                return name == plain || name.split(separator: " ").first.map(String.init) == plain
            }
        }

        /// The people named one after another from the current position, with commas, "and" or
        /// "&" between them, each with no amount or percentage of their own after them ("Aki 40",
        /// "Aki 60%"); and whether an "and" joined any of them. Nil when none is; stays where it is.
        func namesAhead() -> (names: [MemberID], joined: Bool)? {
            var probe = self
            var names: [MemberID] = []
            var joined = false
            while !probe.atEnd {
                let and = ["and", "&"].contains(probe.current.lower)
                if and { probe.position += 1 }
                // "all", "for", "split": a word this reader knows ends them, with no name to look up.
                if !probe.atEnd, !["me", "i", "myself"].contains(probe.current.lower), Self.keywords.contains(probe.current.lower) {
                    break
                }
                guard let who = probe.person(), probe.problems.count == problems.count, !probe.amountFollows,
                    probe.atEnd || !probe.current.text.hasSuffix("%")
                else { break }
                names.append(who)
                if and { joined = true }
            }
            return names.isEmpty ? nil : (names, joined)
        }

        /// Whether the current word is an amount of the one named before it ("Aki 40"): not a
        /// time or a date ("Aki 3 dec").
        var amountFollows: Bool {
            !atEnd && QuickEntry.looksLikeAmount(current.text) && !current.text.contains(":") && CivilDate(current.text) == nil
                && !isDayAt(position)
        }

        /// Someone gone named at the current position (up to three words), and in how many words.
        func formerAt() -> (QuickEntryContext.Former, Int)? {
            for length in stride(from: min(3, words.count - position), through: 1, by: -1) {
                if let gone = former(words[position..<(position + length)].map(\.text).joined(separator: " ")) {
                    return (gone, length)
                }
            }
            return nil
        }

        /// What to say of the word at the current position, which names no active member: the
        /// name of someone gone (up to three words; found by a new user: "Carla is nobody in this
        /// group … did you mean Dana?" of one who had left), else that it is nobody. Advances past it.
        mutating func unknownProblem() -> QuickEntryProblem {
            if let (gone, length) = formerAt() {
                position += length
                return .formerMember(gone.name, left: gone.left)
            }
            let word = current.text
            position += 1
            return .unknownWord(word, didYouMean: QuickEntry.closeName(word, context.people))
        }

        /// A day said at the start of what it was, with or without a colon: "yesterday",
        /// "today", "last friday", "on friday", "friday night", "3 dec", "2026-05-01", a weekday
        /// alone ("friday dinner"; found by review: it was kept in what it was) but for a thing
        /// named after one ("Sunday roast" is a dish, `QuickEntry.weekdayThings`). With how many
        /// words said it; nil when nothing else would be left, or a word of it is a member's name.
        func dayFirst(_ said: [String]) -> (Result<CivilDate, QuickEntryProblem>, Int)? {
            guard let head = said.first?.lowercased(),
                head == "on" || QuickEntry.mayStartDay(head.hasSuffix(":") ? String(head.dropLast()) : head),
                !isName(said[0])
            else { return nil }
            let on = head == "on" ? 1 : 0
            for count in stride(from: min(3, said.count - 1 - on), through: 1, by: -1) {
                var day = said[on..<(on + count)].map { $0.lowercased() }
                let colon = day[count - 1].hasSuffix(":")
                if colon { day[count - 1].removeLast() }
                guard let found = QuickEntry.day(exactly: day[...], today: context.today, short: on == 1),
                    !said[on..<(on + count)].contains(where: isWrittenName)
                else { continue }
                if count == 1, on == 0, !colon, QuickEntry.weekdayThings.contains(day[0] + " " + said[1].lowercased()) {
                    return nil
                }
                return (found, on + count)
            }
            return nil
        }

        /// A day said at the end of what it was, before the amount ("Lunch yesterday", "Dinner on
        /// 3 dec"), with how many words said it, an "on" before it included; nil when nothing else
        /// would be left, a word of it is a member's name, or it is a weekday that names a thing
        /// with the word before ("Black Friday").
        func dayAtEnd(_ said: [String]) -> (Result<CivilDate, QuickEntryProblem>, Int)? {
            guard said.count >= 2 else { return nil }
            for count in stride(from: min(3, said.count - 1), through: 1, by: -1) {
                let start = said.count - count
                let day = said[start...].map { $0.lowercased() }
                let before = said[start - 1].lowercased()
                let on = before == "on"
                guard QuickEntry.mayStartDay(day[0]),
                    let found = QuickEntry.day(exactly: day[...], today: context.today, short: on),
                    !said[start...].contains(where: isWrittenName)
                else { continue }
                if count == 1, QuickEntry.weekdayThings.contains(before + " " + day[0]) { return nil }
                return (found, count + (on ? 1 : 0))
            }
            return nil
        }

        /// A day said from word `start` (up to three words), and in how many: see
        /// `QuickEntry.day(exactly:)`. `short`: a weekday's short form alone is one (after "on").
        /// Without `slashes`, "3/12" is none (an amount after a name: "Aki 3/12"). With `colon`,
        /// its last word may end in one ("3 dec: dinner"). `then` says whether what follows may
        /// (a shorter day is tried when it may not). Nil where no day is, or a word of it is a
        /// member's name ("May 3" of a member called May).
        func dayAt(
            _ start: Int, short: Bool = false, slashes: Bool = true, colon: Bool = false,
            then: (Int) -> Bool = { _ in true }
        ) -> (Result<CivilDate, QuickEntryProblem>, Int)? {
            guard start < words.count, let first = words[start].text.utf8.first else { return nil }
            // Most words are no day, and cost little more (every word of a line is tried): a day's
            // words are three to ten letters (with a colon or a point, eleven), and start with one
            // of a few. A number is one only as a date (2026-05-01, 13/12) or as a day of the month
            // before one ("3 dec"), not as an amount.
            func plain(_ index: Int) -> String? {
                let bytes = words[index].text.utf8
                guard (3...11).contains(bytes.count), let initial = bytes.first,
                    QuickEntry.dayInitials.utf8.contains(initial | 0x20)
                else { return nil }
                let lower = words[index].lower
                return colon && lower.hasSuffix(":") ? String(lower.dropLast()) : lower
            }
            if (48...57).contains(first) {
                let bytes = words[start].text.utf8
                guard bytes.contains(UInt8(ascii: "/")) || bytes.contains(UInt8(ascii: "-"))
                    || (bytes.count <= 5 && start + 1 < words.count && plain(start + 1).flatMap(QuickEntry.month) != nil)
                else { return nil }
            } else if !(plain(start).map(QuickEntry.mayStartDay) ?? false) {
                return nil
            }
            let head = words[start].text
            var said = words[start..<min(start + 3, words.count)].map(\.lower)
            for count in stride(from: said.count, through: 1, by: -1) {
                said.removeLast(said.count - count)
                var day = said
                if colon, day[count - 1].hasSuffix(":") { day[count - 1].removeLast() }
                guard slashes || count > 1 || !head.contains("/"), then(start + count),
                    let found = QuickEntry.day(exactly: day[...], today: context.today, short: short),
                    !words[start..<(start + count)].contains(where: { isWrittenName($0.text) })
                else { continue }
                return (found, count)
            }
            return nil
        }

        /// Whether a day starts at word `index` (not one with a slash: see `dayAt`).
        func isDayAt(_ index: Int) -> Bool { dayAt(index, slashes: false) != nil }

        /// A word with letters that is a member's name ("May", "Sun"), which no day takes.
        func isWrittenName(_ text: String) -> Bool { text.contains(where: \.isLetter) && isName(text) }

        /// Whether the amount starts at word `index`: one that looks like an amount (and is no
        /// date), or a currency before one.
        func amountAt(_ index: Int) -> Bool {
            guard index < words.count else { return false }
            let text = words[index].text
            if QuickEntry.looksLikeAmount(text) { return CivilDate(text) == nil }
            return index + 1 < words.count && QuickEntry.currency(text, home: context.homeCurrency) != nil
                && QuickEntry.looksLikeAmount(words[index + 1].text)
        }

        /// A day read: the date, or what keeps it from being one, said once.
        mutating func note(_ day: Result<CivilDate, QuickEntryProblem>, _ date: inout CivilDate?) {
            switch day {
            case .success(let found): date = found
            case .failure(let problem): if !problems.contains(problem) { problems.append(problem) }
            }
        }

        /// "Sam 60% Ben 40%" at the start of the line: each person and percentage, and past them;
        /// none (and stays) when the line does not start so, or nothing follows them.
        mutating func percentsFirst() -> [MemberDecimal] {
            var scan = self
            var found: [MemberDecimal] = []
            var end = position
            while let who = scan.person(), scan.problems.isEmpty, !scan.atEnd, scan.current.text.count > 1,
                scan.current.text.hasSuffix("%"), let percent = try? DecimalValue(parsing: String(scan.current.text.dropLast()))
            {
                scan.position += 1
                found.append(MemberDecimal(who, percent))
                end = scan.position
            }
            guard !found.isEmpty, end < words.count else { return [] }
            position = end
            return found
        }

        /// Who paid, said before the amount (nil: not said, "Paid 30 for the taxi").
        struct PayerFirst {
            let who: MemberID?
        }

        /// What it was, said after the amount: "for sushi", "on museum tickets", up to a name, a
        /// word this reader knows, an amount, a day or a comma ("and" inside it: "sushi and
        /// sake"). Advances past it; nil (and stays) when there is none.
        /// With `bare`, the "for" or "on" may be left out ("45 dollars beer paid by Sam"), and an
        /// "x" is arithmetic said in words, not what it was ("2 x 15").
        mutating func descriptionAfterAmount(bare: Bool = false) -> [String]? {
            guard !atEnd else { return nil }
            let preposition = ["for", "on"].contains(current.lower)
            guard preposition || bare else { return nil }
            // A person however named (without accents, a first name, a slip of the keys: "Chloe",
            // "Bne") ends it, as a name would (found by review: "pizza Chloe" was the
            // description, and Chloé was left out of the split without a word).
            let reader = self
            func plain(at index: Int) -> Bool {
                let word = words[index]
                // A slip of the keys only in a word written as a name ("Bne"): "tip", "tea" and
                // "bed" stay words beside Tim, Ted and Ben (found by review).
                let written = word.text.first?.isUppercase == true
                guard !isNameOrKeyword(word.text), !QuickEntry.looksLikeAmount(word.text), CivilDate(word.text) == nil,
                    !bare || !["x", "×"].contains(word.lower),
                    QuickEntry.weekdays[word.lower] == nil, word.lower != "last", !reader.isDayAt(index),
                    !written || QuickEntry.closeName(word.text, context.people) == nil
                else { return false }
                var probe = reader
                probe.position = index
                return probe.person() == nil && probe.problems.count == reader.problems.count
            }
            var mark = preposition ? position + 1 : position
            var what: [String] = []
            while mark < words.count {
                let word = words[mark]
                if plain(at: mark) {
                    what.append(word.text)
                } else if word.lower == "and" || word.lower == "&", !what.isEmpty, !words[mark - 1].comma,
                    mark + 1 < words.count, plain(at: mark + 1)
                {
                    what.append(word.text)
                } else {
                    break
                }
                mark += 1
                if word.comma { break }
            }
            guard !what.isEmpty else { return nil }
            position = mark
            return what
        }

        /// A word that is a member's name or nickname, or a word this reader knows (any case):
        /// never a currency code, even when it looks like one ("BOB", "ALL").
        func isNameOrKeyword(_ text: String) -> Bool {
            Self.keywords.contains(text.lowercased()) || isName(text)
        }

        /// A member's name, nickname or first name ("Sun", "Mei").
        func isName(_ text: String) -> Bool {
            let lower = text.lowercased()
            return context.people.contains { person in
                person.name.lowercased() == lower || person.nicknames.contains { $0.lowercased() == lower }
                    || person.name.lowercased().split(separator: " ").first.map(String.init) == lower
            }
        }

        mutating func setPayer(_ who: MemberID, _ payer: inout MemberID?) {
            if let payer, payer != who {
                if !problems.contains(.twoPayers) { problems.append(.twoPayers) }
                return
            }
            payer = who
        }

        /// A member named at the current word: the longest run of up to three words that is a
        /// name or nickname (any case), or "me"/"I"; advances past it.
        mutating func person() -> MemberID? {
            guard !atEnd else { return nil }
            if ["me", "i", "myself"].contains(current.lower) {
                position += 1
                return context.me
            }
            for length in stride(from: min(3, words.count - position), through: 1, by: -1) {
                let phrase = words[position..<(position + length)].map(\.lower).joined(separator: " ")
                var matches = context.people.filter { person in
                    person.name.lowercased() == phrase || person.nicknames.contains { $0.lowercased() == phrase }
                }
                // Without its accents when nobody has it as typed: "Chloe" is Chloé (found by review).
                if matches.isEmpty {
                    let plain = QuickEntry.folded(phrase)
                    matches = context.people.filter { person in
                        QuickEntry.folded(person.name) == plain || person.nicknames.contains { QuickEntry.folded($0) == plain }
                    }
                }
                if matches.count == 1 {
                    position += length
                    return matches[0].id
                }
                if matches.count > 1 {
                    problems.append(.ambiguousName(phrase, matches.map(\.name)))
                    position += length
                    return nil
                }
            }
            // A first name alone, when only one person has it.
            let first = QuickEntry.folded(current.lower)
            let byFirst = context.people.filter { QuickEntry.folded($0.name).split(separator: " ").first.map(String.init) == first }
            if byFirst.count == 1 {
                position += 1
                return byFirst[0].id
            }
            return nil
        }

        /// "2:1:1" → [2, 1, 1] ("split 2" for one person is one part).
        /// "2:1:1", "60/40", "60%:40%": the parts, as weights.
        static func ratio(_ text: String) -> [DecimalValue]? {
            // "60/40" is a ratio when its parts make 100 (a percentage split); "1/2" is a fraction,
            // not 1:2 (found by review).
            if text.contains("/") {
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                let values = parts.compactMap { part in try? DecimalValue(parsing: String(part.hasSuffix("%") ? part.dropLast() : part)) }
                guard values.count == parts.count, values.count >= 2,
                    values.allSatisfy({ $0.scale == 0 && (0...100).contains($0.significand) }),
                    values.reduce(0, { $0 + $1.significand }) == 100
                else { return nil }
                return values
            }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            let values = parts.compactMap { part in
                try? DecimalValue(parsing: String(part.hasSuffix("%") ? part.dropLast() : part))
            }
            guard values.count == parts.count, values.contains(where: { !$0.isZero }) else { return nil }
            return values
        }

        /// The category the words point at: a past description filed under one, else a word
        /// the category is known by, if the group has that category.
        static func category(_ description: String, context: QuickEntryContext) -> String? {
            let lower = description.lowercased()
            let names = Dictionary(context.categories.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            if let remembered = context.memory[lower], let name = names[remembered.lowercased()] { return name }
            for word in lower.split(whereSeparator: { !$0.isLetter }) {
                if let name = names[String(word)] { return name }
                for (category, words) in QuickEntry.categoryWords where words.contains(String(word)) {
                    if let name = names[category] { return name }
                }
            }
            return nil
        }
    }

    /// Words that point at the default categories (the trip's six, a personal book's eight).
    static let categoryWords: [(String, Set<String>)] = [
        ("meal", ["ramen", "sushi", "dinner", "lunch", "breakfast", "coffee", "cafe", "restaurant", "food", "snack", "drinks", "beer", "brunch"]),
        ("eating out", ["ramen", "sushi", "dinner", "lunch", "breakfast", "coffee", "cafe", "restaurant", "brunch"]),
        ("transport", ["taxi", "train", "bus", "metro", "subway", "flight", "uber", "grab", "fuel", "petrol", "parking", "toll", "ferry"]),
        ("tickets", ["tickets", "ticket", "museum", "concert", "entry", "admission", "pass", "show", "park"]),
        ("hotel", ["hotel", "hostel", "airbnb", "ryokan", "room", "accommodation"]),
        ("groceries", ["groceries", "supermarket", "market", "grocery"]),
        ("shopping", ["shopping", "souvenirs", "gift", "clothes", "groceries", "supermarket"]),
        ("rent", ["rent"]),
        ("bills", ["electricity", "water", "internet", "wifi", "phone", "gas", "bill"]),
        ("health", ["pharmacy", "doctor", "medicine", "dentist"]),
    ]
}
