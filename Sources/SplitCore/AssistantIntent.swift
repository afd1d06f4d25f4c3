import Foundation

/// What a message to the assistant asks for (issue 21), read without a model: a few fixed
/// phrasings of each question, and anything else is an expense line for `QuickEntry`. Never a
/// guess about money: an expense line is read by the quick-entry parser, which asks rather
/// than guesses.
public enum AssistantIntent: Equatable, Sendable {
    /// "yes", "ok", "save it": saves what the assistant proposed.
    case confirm
    /// "no", "cancel": drops what it proposed.
    case cancel
    /// "undo", "undo that": takes back the assistant's last change in this conversation.
    case undo
    /// "how much do I owe", "am I owed", "my balance".
    case myBalance
    /// "who owes whom", "who owes what".
    case whoOwes
    /// "how do we settle", "settle up".
    case settle
    /// "budget", "how is our budget".
    case budget
    /// "mark my ramen paid": the caller's share of the latest expense whose description has these words.
    case markPaid(String)
    /// "ask Bo for what he owes" (amount nil) or "ask Bo for 30 EUR".
    case askPayment(name: String, amount: String?)
    /// "Ben paid me back 19.13", "I paid Chloé 2.25 USD": money that moved between two
    /// people, as said (the names are resolved by the assistant; when they are not both members,
    /// the line is an expense after all).
    case transfer(from: String, to: String, amount: String, currency: String?, line: String)
    /// "how much does Chloé owe?", "what does Bo owe", "is Bo owed anything", "Bo's balance".
    case balanceOf(String)
    /// "what do I owe Ben?", "how much do I owe Chloé": what Settle up has between me and them.
    case iOwe(String)
    /// "how much did we spend?", "how much have we spent on food?", "total spent", "how much did
    /// we spend in November?", "… last month".
    case spent(on: String?, month: AskedMonth? = nil)
    /// "who paid the most?", "who has spent the most this month?": each person's paid (or, with
    /// `byShare`, what their shares came to), most first.
    case most(byShare: Bool, month: AskedMonth? = nil)
    /// "how much did I spend?", "how much has Ben paid in November?": one person's paid and
    /// share; `name` as said ("I" for the caller).
    case personSpent(String, month: AskedMonth? = nil)
    /// A question none of the above is ("who owes the most?"): said so, never read as an
    /// expense (found by review: it was refused as an expense without an amount).
    case unknownQuestion
    /// "help", "what can you do".
    case help
    /// Anything else: an expense as one line.
    case addExpense(String)

    public static func classify(_ message: String) -> AssistantIntent {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        let plain = text.lowercased()
            .trimmingCharacters(in: CharacterSet(charactersIn: ".!?").union(.whitespaces))
            .replacingOccurrences(of: "’", with: "'")
        let words = plain.split(whereSeparator: { $0 == " " }).map(String.init)
        if ["yes", "y", "ok", "okay", "save", "save it", "yes please", "confirm", "do it", "sure", "yes save it"]
            .contains(plain)
        {
            return .confirm
        }
        if ["no", "n", "cancel", "never mind", "nevermind", "stop", "don't", "no thanks"].contains(plain) { return .cancel }
        if plain == "undo" || plain.hasPrefix("undo ") || plain == "take that back" { return .undo }
        if ["help", "what can you do", "hi", "hello"].contains(plain) { return .help }
        let questionWords: Set = [
            "how", "what", "what's", "whats", "who", "who's", "whom", "when", "where", "why", "which", "is", "are", "do",
            "does", "did", "can", "could", "should", "will", "would", "has", "have",
        ]
        // A question has no amount: "Settlement fee 20 USD" and "Budget hotel 5000" are expenses.
        // In a question, a year after a month's name ("in November 2025"), a year after "in" and
        // a month written 2026-11 are no amount ("Budget hotel Nov 2000" stays an expense).
        let questionLike = text.hasSuffix("?") || questionWords.contains(words.first ?? "")
        let hasAmount = words.indices.contains { index in
            words[index].contains(where: \.isNumber)
                && !(questionLike && (AskedMonth.year(at: index, in: words) != nil || AskedMonth.isDate(at: index, in: words)))
        }
        // The words as typed, for a name said back as the user wrote it (the same count: only
        // case, the apostrophe and the end's punctuation differ).
        let typed = text.trimmingCharacters(in: CharacterSet(charactersIn: ".!?").union(.whitespaces))
            .replacingOccurrences(of: "’", with: "'").split(whereSeparator: { $0 == " " }).map(String.init)
        func said(_ range: Range<Int>) -> String {
            (typed.count == words.count ? typed[range] : words[range]).joined(separator: " ")
        }
        // "what do I owe Ben?": between me and one person (found by review: my whole balance).
        if !hasAmount, let at = words.firstIndex(of: "owe"), at >= 1, words[at - 1] == "i" {
            // "what do I owe (to) Ben (now)?"; not "… for the hotel", "… the most", "… money to anyone".
            var start = at + 1
            if start < words.count, words[start] == "to" { start += 1 }
            let stops: Set = ["for", "from", "in", "on", "overall", "now", "still", "here", "right", "altogether"]
            var end = start
            while end < words.count, !stops.contains(words[end]) { end += 1 }
            let nobody: Set = [
                "anyone", "anybody", "everyone", "everybody", "people", "someone", "somebody", "anything", "the", "money",
                "all", "them", "total", "most",
            ]
            if end > start, end - start <= 3, !words[start..<end].contains(where: nobody.contains) {
                return .iOwe(said(start..<end))
            }
        }
        if !hasAmount, plain.contains("how much do i owe") || plain.contains("what do i owe") || plain.contains("am i owed")
            || plain.contains("my balance") || plain.contains("how much am i owed") || plain.contains("do i owe")
            || plain.contains("where do i stand")
        {
            return .myBalance
        }
        if !hasAmount, let range = Self.balanceOf(words) {
            // "Does anyone owe me?", "how much does each person owe": the group as a whole.
            let everyone: Set = [
                "everyone", "everybody", "we", "each", "people", "they", "anyone", "anybody", "someone", "somebody",
                "the", "all", "group", "group's",
            ]
            if everyone.contains(words[range.lowerBound]) { return .whoOwes }
            let name = said(range)
            return .balanceOf(name.lowercased().hasSuffix("'s") ? String(name.dropLast(2)) : name)
        }
        // "How much budget is left to spend?" is about the budget.
        if !hasAmount, words.contains("budget") { return .budget }
        // "who paid the most?", "who's spent the most this month", "who paid most".
        if !hasAmount, ["who", "who's", "whos"].contains(words.first ?? ""),
            let verb = words.firstIndex(where: { ["paid", "spent", "spend", "pays", "spends"].contains($0) }),
            words.dropFirst(verb + 1).prefix(2).contains(where: { ["most", "more"].contains($0.trimmingCharacters(in: .punctuationCharacters)) })
        {
            // Nothing more than when: "who spent the most on food?" asks what these figures do not
            // answer (found by review: it was answered for everything).
            let most = words.lastIndex { ["most", "more"].contains($0.trimmingCharacters(in: .punctuationCharacters)) }!
            let (month, after) = AskedMonth.find(in: Array(words[(most + 1)...]))
            let filler: Set = ["so", "far", "in", "total", "altogether", "overall", "now", "yet", "here", "money", "of", "us"]
            guard after.allSatisfy({ filler.contains($0) || $0.isEmpty }) else { return .unknownQuestion }
            return .most(byShare: words[verb].hasPrefix("spen"), month: month)
        }
        let spendVerbs: Set = ["spend", "spent", "pay", "paid"]
        if !hasAmount, ["how", "what", "total", "what's", "whats"].contains(words.first ?? ""),
            let verb = words.firstIndex(where: spendVerbs.contains),
            words[verb].hasPrefix("spen")
                || (words.starts(with: ["how", "much"]) || words.first == "what") && words[verb...].count <= 6
        {
            // "how much did we spend", not "how much did Ben spend" (found by review: the group's
            // figure answered a question about one person): that one is about Ben.
            if let did = words.firstIndex(where: { ["did", "have", "has", "do", "does"].contains($0) }), verb > did + 1 {
                let group: Set = [
                    "we", "us", "you", "everyone", "everybody", "the", "group", "all", "of", "together", "our", "been", "in",
                    "total", "so", "far",
                ]
                if !words[(did + 1)..<verb].allSatisfy(group.contains) {
                    let person = (did + 1)..<verb
                    // "how much has Ben paid", "how much did Chloé Martin spend"; "I", "me" and
                    // "my" are the caller.
                    // Nothing more than when: "… on food" or "… for the hotel" asks what no
                    // figure of a person answers.
                    let (month, after) = AskedMonth.find(in: Array(words[(verb + 1)...]))
                    let filler: Set = ["so", "far", "in", "total", "altogether", "overall", "now", "yet", "until", "here"]
                    guard person.count <= 3, after.allSatisfy(filler.contains) else { return .unknownQuestion }
                    let name = ["i", "me", "my", "myself"].contains(words[person.lowerBound]) ? "I" : said(person)
                    return .personSpent(name, month: month)
                }
            }
            // "how much did we pay for" is the group's spending; "what did we pay Ben" is no
            // spending question.
            if !words[verb].hasPrefix("spen"), words.dropFirst(verb + 1).first.map({ !["for", "on", "in", "this", "last", "so", "altogether", "overall"].contains($0) }) ?? false {
                return .unknownQuestion
            }
            // The month asked about, and the category without it ("on transport in November").
            let (month, rest) = AskedMonth.find(in: words)
            // A year alone ("in 2025") is no month these figures answer.
            guard !rest.contains(where: { $0.contains(where: \.isNumber) }) else { return .unknownQuestion }
            // "on food", or "for food" ("how much did we pay for food").
            let on = (rest.firstIndex(of: "on") ?? rest.firstIndex(of: "for")).map { rest[($0 + 1)...].joined(separator: " ") }
            return .spent(on: on.flatMap { $0.isEmpty ? nil : $0 }, month: month)
        }
        if !hasAmount, plain.contains("who owes") { return .whoOwes }
        if !hasAmount, plain.contains("settle") { return .settle }
        if !hasAmount, words.contains("budget") { return .budget }
        // "mark my ramen paid", "mark the ramen as paid", "mark ramen paid"
        if words.first == "mark", words.last == "paid", words.count >= 3 {
            var middle = Array(words.dropFirst().dropLast())
            if middle.last == "as" { middle.removeLast() }
            if let first = middle.first, ["my", "the"].contains(first) { middle.removeFirst() }
            if !middle.isEmpty { return .markPaid(middle.joined(separator: " ")) }
        }
        // "ask Bo for what he owes", "ask Bo for 30 EUR", "ask bo to pay"
        if words.first == "ask", words.count >= 2 {
            let original = text.split(whereSeparator: { $0 == " " }).map(String.init)
            let name = original.count > 1 ? original[1].trimmingCharacters(in: .punctuationCharacters) : words[1]
            let rest = words.dropFirst(2)
            if rest.first == "for", rest.count >= 2 {
                let asked = Array(rest.dropFirst())
                if asked.first == "what" || asked.first == "everything" || asked.first == "it" {
                    return .askPayment(name: name, amount: nil)
                }
                let amount = original.dropFirst(3).joined(separator: " ")
                return .askPayment(name: name, amount: amount.isEmpty ? nil : amount)
            }
            if rest.isEmpty || rest.first == "to" { return .askPayment(name: name, amount: nil) }
        }
        if let transfer = Self.transfer(text) { return transfer }
        if !hasAmount, questionLike { return .unknownQuestion }
        // "add dinner 30 EUR …", "add an expense: dinner 30": the asking is not the description
        // (found by a new user: "add dinner" was saved).
        for lead in ["add an expense:", "add an expense", "add expense:", "add expense", "add:", "add"] {
            let prefix = lead + " "
            if plain.hasPrefix(prefix), text.count > prefix.count {
                return .addExpense(String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces))
            }
        }
        return .addExpense(text)
    }

    /// Where the person a balance question is about is named (lower-case words): "how much
    /// does X owe", "what does X owe", "does X owe", "how much is X owed", "is X owed", "[what's]
    /// X's balance", "balance of X".
    static func balanceOf(_ words: [String]) -> Range<Int>? {
        func between(_ start: [String], _ ends: Set<String>) -> Range<Int>? {
            guard words.count > start.count, Array(words.prefix(start.count)) == start,
                let end = words.dropFirst(start.count).firstIndex(where: ends.contains), end > start.count
            else { return nil }
            return start.count..<end
        }
        let owe: Set = ["owe", "owes"]
        let owed: Set = ["owed"]
        if let range = between(["how", "much", "does"], owe) ?? between(["what", "does"], owe) ?? between(["does"], owe)
            ?? between(["how", "much", "is"], owed) ?? between(["is"], owed)
        {
            return range
        }
        // "Bo's balance", "what's Bo's balance", "show Chloé Martin's balance": the name before
        // the 's, back to a word that asks (at most three words).
        if words.count >= 2, words.last == "balance", words[words.count - 2].hasSuffix("'s"),
            words[words.count - 2] != "what's"
        {
            let asking: Set = ["show", "what's", "whats", "what", "is", "check", "tell", "me", "give", "the"]
            var start = words.count - 2
            while start > 0, words.count - 1 - start < 3, !asking.contains(words[start - 1]) { start -= 1 }
            return start..<(words.count - 1)
        }
        if words.count >= 3, words.starts(with: ["balance", "of"]) { return 2..<words.count }
        return nil
    }

    /// "<who> paid <whom> [back] <amount> [currency]", each name one to three words, nothing more.
    static func transfer(_ text: String) -> AssistantIntent? {
        let original = text.trimmingCharacters(in: CharacterSet(charactersIn: ".!?").union(.whitespaces))
            .split(whereSeparator: { $0 == " " }).map(String.init)
        let lower = original.map { $0.lowercased() }
        guard let paid = lower.firstIndex(where: { $0 == "paid" || $0 == "sent" || $0 == "gave" }), (1...3).contains(paid)
        else { return nil }
        var rest = Array(original[(paid + 1)...])
        var amountAt: Int?
        for (index, word) in rest.enumerated() where index >= 1 && index <= 4 && word.first.map({ $0.isNumber }) == true {
            amountAt = index
            break
        }
        guard let at = amountAt else { return nil }
        var to = Array(rest[..<at])
        if to.last?.lowercased() == "back" { to.removeLast() }
        guard (1...3).contains(to.count) else { return nil }
        let amount = rest[at]
        rest = Array(rest[(at + 1)...])
        guard rest.count <= 1 else { return nil }
        let currency = rest.first.map { $0.uppercased() }
        // A code or a currency's name ("yen", "ringgit"), which the assistant reads as a line
        // would; any other word ("yesterday", "cash") makes it no transfer of this form.
        if let currency,
            !((currency.count == 3 && currency.allSatisfy(\.isLetter)) || QuickEntry.currencyWords[currency.lowercased()] != nil)
        {
            return nil
        }
        return .transfer(
            from: original[..<paid].joined(separator: " "), to: to.joined(separator: " "), amount: amount,
            currency: currency, line: text)
    }
}

/// A month a question names, as said: this one, the last one, or one by its name (found by
/// review: "how much did we spend in November?" answered for December).
public enum AskedMonth: Equatable, Sendable {
    case this
    case last
    /// 1 to 12: the latest such month up to today.
    case named(Int)
    /// "November 2025": that month of that year.
    case dated(year: Int, month: Int)

    public static let names = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    static let short = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11,
        "dec": 12,
    ]

    /// The month in `words` (lower case) and the words without it: "last month", "this month",
    /// "in november", "november", "nov"; "may" only after "in" (it is a verb too).
    static func find(in words: [String]) -> (AskedMonth?, [String]) {
        // "in november," and "november?": the word without what follows it.
        let words = words.map { $0.trimmingCharacters(in: .punctuationCharacters) }
        for (index, word) in words.enumerated() {
            // "in 2026-11", as the answers write a month.
            if let (year, month) = dated(word) {
                let start = index > 0 && words[index - 1] == "in" ? index - 1 : index
                return (.dated(year: year, month: month), Array(words[..<start]) + words[(index + 1)...])
            }
            let next = index + 1 < words.count ? words[index + 1] : ""
            if ["last", "previous"].contains(word), next == "month" {
                return (.last, Array(words[..<index]) + words[(index + 2)...])
            }
            if word == "this", next == "month" { return (.this, Array(words[..<index]) + words[(index + 2)...]) }
            // A short form or "may" only after "in": "gifts for Jan" is a person.
            let afterIn = index > 0 && words[index - 1] == "in"
            guard let number = names.firstIndex(of: word).map({ $0 + 1 }) ?? (afterIn ? short[word] : nil),
                word != "may" || afterIn
            else { continue }
            // "in November": the "in" goes with it; "November 2025": the year too.
            let start = index > 0 && words[index - 1] == "in" ? index - 1 : index
            if let year = year(at: index + 1, in: words) {
                return (.dated(year: year, month: number), Array(words[..<start]) + words[(index + 2)...])
            }
            return (.named(number), Array(words[..<start]) + words[(index + 1)...])
        }
        return (nil, words)
    }

    /// The year `words[index]` says when it follows a month's name ("november 2025", "nov 2025,"),
    /// 1900 to 2199.
    static func year(at index: Int, in words: [String]) -> Int? {
        guard index > 0, index < words.count else { return nil }
        let previous = words[index - 1].trimmingCharacters(in: .punctuationCharacters)
        // A month as `find` reads one: a short form or "may" only after "in"; else a year after "in".
        let afterIn = index > 1 && words[index - 2] == "in"
        let isMonth = (names.contains(previous) && previous != "may") || (afterIn && (previous == "may" || short[previous] != nil))
        guard isMonth || previous == "in",
            let year = Int(words[index].trimmingCharacters(in: .punctuationCharacters)), (1900...2199).contains(year)
        else { return nil }
        return year
    }

    /// Whether `words[index]` is a month written 2026-11.
    static func isDate(at index: Int, in words: [String]) -> Bool { dated(words[index]) != nil }

    /// "2026-11" (with its punctuation around) as a year and a month.
    static func dated(_ word: String) -> (year: Int, month: Int)? {
        let parts = word.trimmingCharacters(in: .punctuationCharacters.subtracting(["-"])).split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
            (1900...2199).contains(year), (1...12).contains(month)
        else { return nil }
        return (year, month)
    }

    /// `YYYY-MM` of this month seen from `today`: a month by its name is the latest one not after
    /// today's month.
    public func month(from today: CivilDate) -> String {
        var (year, month) = (today.year, today.month)
        switch self {
        case .this: break
        case .last:
            month -= 1
            if month == 0 { (year, month) = (year - 1, 12) }
        case .named(let named):
            if named > month { year -= 1 }
            month = named
        case .dated(let asked, let named):
            (year, month) = (asked, named)
        }
        return String(format: "%04d-%02d", year, month)
    }
}
