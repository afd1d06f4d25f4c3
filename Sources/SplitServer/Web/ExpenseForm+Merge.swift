import Foundation
import SplitApp
import SplitCore

/// Two people editing one expense at once: the second save is refused (its version is stale),
/// and the form comes back with the other person's changes merged in, part by part. A part this
/// user left as the page showed it takes what the expense says now; a part only this user
/// changed keeps their change; a part both changed keeps this user's and says so. Saving again
/// is then a decision made knowing both, and it no longer puts back what the other person
/// changed in parts this user never touched (found by a new user: a second save reverted the
/// other's new amount).
///
/// The page carries what each part said when it was shown (`base`, a hidden field); a form
/// without it (an old page, a script) keeps everything as typed, as before.
extension ExpenseForm {
    enum Part: String, CaseIterable, Sendable {
        case description, amount, currency, charged, refund, date, category, payers, split

        /// How the message names it.
        var label: String {
            switch self {
            case .description: "the description"
            case .amount: "the amount"
            case .currency: "the currency"
            case .charged: "the amount charged in the home currency"
            case .refund: "whether it is a refund"
            case .date: "the date"
            case .category: "the category"
            case .payers: "who paid"
            case .split: "the split"
            }
        }
    }

    /// What the form says in one part, written so that the same content typed alike or shown
    /// from the stored expense compares equal: amounts read as saving reads them ("12", "12.00",
    /// "1,200", "¥1200"; "12,50" is 12.50), members in any order.
    func said(_ part: Part, homeCurrency: String) -> String {
        let money = try? Currency(code: currency.uppercased())
        func minor(_ text: String, in currency: Currency?) -> String {
            let typed = text.trimmingCharacters(in: .whitespaces)
            guard let currency, !typed.isEmpty,
                let minor = try? MoneyInput.amount(
                    Self.typed(Self.withoutPlus(typed), currency), currency, field: "", allowNegative: true)
            else { return typed }
            return String(minor)
        }
        func number(_ text: String) -> String {
            let typed = text.trimmingCharacters(in: .whitespaces)
            return (try? DecimalValue(parsing: typed)).map { $0.normalized.description } ?? typed
        }
        func valued(_ values: [String: String], _ read: (String) -> String) -> String {
            values.filter { !$0.value.trimmingCharacters(in: .whitespaces).isEmpty }.map { "\($0.key)=\(read($0.value))" }
                .sorted().joined(separator: ",")
        }
        func inMoney(_ text: String) -> String { minor(text, in: money) }
        func members(_ ids: Set<String>) -> String { ids.sorted().joined(separator: ",") }
        switch part {
        case .description:
            return description.trimmingCharacters(in: .whitespacesAndNewlines)
        case .amount:
            // As a number, whatever the currency: "1200" left as it was stays untouched when the
            // currency changes beside it (found by review).
            guard let money, let units = Int64(inMoney(amount)) else { return inMoney(amount) }
            return DecimalValue(significand: units, scale: money.minorUnits).normalized.description
        case .currency:
            return currency.uppercased()
        case .charged:
            return minor(homeAmount, in: try? Currency(code: homeCurrency))
        case .refund:
            return refund ? "refund" : ""
        case .date:
            return expenseDate
        case .category:
            return category
        case .payers:
            return paid.isEmpty ? "one:\(payer ?? "")" : "several:\(valued(paid, inMoney))"
        case .split:
            switch mode {
            case .equal:
                return "equal:\(members(included))"
            case .exact:
                return "exact:\(valued(values, inMoney))"
            case .percent, .shares:
                return "\(mode.rawValue):\(valued(values, number))"
            case .adjustment:
                return "adjustment:\(members(included))|\(valued(values, inMoney))"
            case .itemized:
                let items = items.map { "\($0.description)/\(inMoney($0.amount))/\(members($0.members))" }
                let extras = extras.map { "\($0.description)/\(inMoney($0.amount))" }
                return "itemized:\(items.joined(separator: ";"))|\(extras.joined(separator: ";"))"
            }
        }
    }

    /// Takes one part as another form says it.
    mutating func take(_ part: Part, from other: ExpenseForm) {
        switch part {
        case .description:
            description = other.description
        case .amount:
            amount = other.amount
        case .currency:
            currency = other.currency
        case .charged:
            homeAmount = other.homeAmount
        case .refund:
            refund = other.refund
        case .date:
            expenseDate = other.expenseDate
        case .category:
            category = other.category
        case .payers:
            payer = other.payer
            paid = other.paid
        case .split:
            mode = other.mode
            included = other.included
            values = other.values
            items = other.items
            extras = other.extras
        }
    }

    /// The hidden `base` field: each part as this form says it, as base64url JSON (no
    /// characters a page or a form could mangle).
    func base(homeCurrency: String) -> String {
        let parts = Dictionary(uniqueKeysWithValues: Part.allCases.map { ($0.rawValue, said($0, homeCurrency: homeCurrency)) })
        let json = (try? JSONEncoder().encode(parts)) ?? Data()
        return json.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A `base` field read back; nil when absent or not one (then nothing is merged).
    static func parts(base: String?) -> [Part: String]? {
        guard var text = base, !text.isEmpty, text.count <= 64 * 1024 else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text),
            let parts = try? JSONDecoder().decode([String: String].self, from: data)
        else { return nil }
        var read: [Part: String] = [:]
        for part in Part.allCases {
            guard let said = parts[part.rawValue] else { return nil }
            read[part] = said
        }
        return read
    }

    struct Merge: Sendable {
        var form: ExpenseForm
        /// Parts the other person changed and this user did not: taken from the expense as it is now.
        var taken: [Part] = []
        /// Parts both changed, differently: this user's kept.
        var both: [Part] = []
        /// Parts only this user changed.
        var mine: [Part] = []
    }

    /// This user's form (`self`), started from `base`, merged with the expense as it is now.
    func merged(base: [Part: String], now: ExpenseForm, homeCurrency: String) -> Merge {
        var merge = Merge(form: self)
        for part in Part.allCases {
            let was = base[part]
            let mine = said(part, homeCurrency: homeCurrency), theirs = now.said(part, homeCurrency: homeCurrency)
            if mine == was {
                if theirs != was {
                    merge.form.take(part, from: now)
                    merge.taken.append(part)
                }
            } else if theirs != was && theirs != mine {
                merge.both.append(part)
            } else if theirs != mine {
                merge.mine.append(part)
            }
        }
        return merge
    }

    /// "the amount", "the amount and the date", "the amount, the date and who paid".
    static func listed(_ parts: [Part]) -> String {
        WebFormat.listed(parts.map(\.label))
    }
}
