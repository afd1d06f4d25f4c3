import Foundation
import SplitCore

extension Expense {
    /// The JSON the offline store keeps of this expense: the bytes `JSONEncoder` makes of it with
    /// `.sortedKeys` and `.iso8601` dates (`/` escaped, nil left out), written by hand. A first
    /// sync stores every expense of the group, and `JSONEncoder` was about two thirds of applying
    /// a page of 1,000 to the store (issue 16). `StoredExpenseJSONTests` checks the two agree to
    /// the byte on random expenses of every shape.
    var storedJSON: Data {
        var writer = StoredJSONWriter()
        writer.expense(self)
        return Data(writer.bytes)
    }
}

/// Writes the SDK's models as `JSONEncoder` with `.sortedKeys` and `.iso8601` dates does.
struct StoredJSONWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(2_048)
    }

    // Keys in the order `.sortedKeys` gives them.

    mutating func expense(_ expense: Expense) {
        raw("{\"amount\":")
        string(expense.amount)
        raw(",\"category\":")
        string(expense.category)
        raw(",\"categoryName\":")
        string(expense.categoryName)
        raw(",\"createdAt\":")
        date(expense.createdAt)
        raw(",\"createdByUserId\":")
        string(expense.createdByUserId)
        raw(",\"currency\":")
        string(expense.currency)
        raw(",\"description\":")
        string(expense.description)
        raw(",\"expenseDate\":")
        string(expense.expenseDate)
        raw(",\"groupId\":")
        string(expense.groupId)
        if let homeAmount = expense.homeAmount {
            raw(",\"homeAmount\":")
            string(homeAmount)
        }
        raw(",\"id\":")
        string(expense.id)
        raw(",\"isDeleted\":")
        bool(expense.isDeleted)
        raw(",\"payers\":")
        array(expense.payers) { $0.entry($1) }
        raw(",\"split\":")
        split(expense.split)
        raw(",\"splits\":")
        array(expense.splits) { writer, share in
            writer.raw("{\"amount\":")
            writer.string(share.amount)
            writer.raw(",\"id\":")
            writer.string(share.id)
            writer.raw(",\"isPaid\":")
            writer.bool(share.isPaid)
            writer.raw(",\"memberId\":")
            writer.string(share.memberId)
            if share.nothingToPay { writer.raw(",\"nothingToPay\":true") }
            if let paidAt = share.paidAt {
                writer.raw(",\"paidAt\":")
                writer.date(paidAt)
            }
            writer.raw("}")
        }
        raw(",\"updatedAt\":")
        date(expense.updatedAt)
        raw(",\"version\":")
        JSONText.appendInteger(expense.version, to: &bytes)
        raw("}")
    }

    mutating func split(_ split: SplitInput) {
        var first = true
        // Every key but `mode` is optional: a comma before all but the first one written.
        func key(_ writer: inout StoredJSONWriter, _ name: StaticString) {
            writer.raw(first ? "{" : ",")
            first = false
            writer.raw(name)
        }
        if let adjustments = split.adjustments {
            key(&self, "\"adjustments\":")
            array(adjustments) { $0.entry($1) }
        }
        if let amounts = split.amounts {
            key(&self, "\"amounts\":")
            array(amounts) { $0.entry($1) }
        }
        if let extras = split.extras {
            key(&self, "\"extras\":")
            array(extras) { writer, extra in
                writer.raw("{\"amount\":")
                writer.string(extra.amount)
                writer.raw(",\"description\":")
                writer.string(extra.description)
                writer.raw("}")
            }
        }
        if let items = split.items {
            key(&self, "\"items\":")
            array(items) { writer, item in
                writer.raw("{\"amount\":")
                writer.string(item.amount)
                writer.raw(",\"description\":")
                writer.string(item.description)
                writer.raw(",\"split\":")
                writer.split(item.split)
                writer.raw("}")
            }
        }
        if let memberIds = split.memberIds {
            key(&self, "\"memberIds\":")
            array(memberIds) { $0.string($1) }
        }
        key(&self, "\"mode\":")
        string(split.mode.rawValue)
        if let percents = split.percents {
            key(&self, "\"percents\":")
            array(percents) { $0.entry($1) }
        }
        if let shares = split.shares {
            key(&self, "\"shares\":")
            array(shares) { $0.entry($1) }
        }
        raw("}")
    }

    /// `{"memberId":…}` with its number under `Kind.key` (`amount` sorts before `memberId`,
    /// `percent` and `shares` after).
    mutating func entry<Kind>(_ entry: MemberEntry<Kind>) {
        let numberFirst = Kind.key < "memberId"
        raw("{")
        if numberFirst {
            number(entry)
            raw(",")
        }
        raw("\"memberId\":")
        string(entry.memberId)
        if !numberFirst {
            raw(",")
            number(entry)
        }
        raw("}")
    }

    private mutating func number<Kind>(_ entry: MemberEntry<Kind>) {
        string(Kind.key)
        raw(":")
        string(entry.value)
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout StoredJSONWriter, Element) -> Void) {
        raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { raw(",") }
            write(&self, element)
        }
        raw("]")
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        JSONText.appendString(text, to: &bytes)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    /// As `.iso8601` writes a date: `YYYY-MM-DDTHH:MM:SSZ`, the second rounded down. Outside the
    /// years `UTCTimestamp` writes (never a date the server sends), Foundation's own formatter.
    mutating func date(_ date: Date) {
        string(UTCTimestamp.format(date) ?? date.formatted(.iso8601))
    }
}
