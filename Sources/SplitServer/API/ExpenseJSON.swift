import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The change feed's answer and a page of expenses written by hand: the bytes `JSONEncoder` makes
/// of the generated `ChangesResponse` and `ExpenseList` (sorted keys, dates through
/// `APIDateTranscoder`, `/` escaped), without its generic machinery (`PlainRoutes` serves
/// them). Issue 16's profile of a feed page put 38 % of the server's time in
/// `JSONEncoder` walking the generated types; a first sync is mostly expenses, so they are
/// written here field by field and the few other objects of a page still go through a
/// `JSONEncoder` set up as the generated server's.
///
/// `ExpenseJSONTests` checks, on random values of every shape, that the bytes are the same as
/// the generated server's to the last one, so a field added to `Expense` in openapi.yaml fails
/// there until it is written here too.
struct ExpenseJSON {
    private(set) var bytes: [UInt8] = []
    private let dates = APIDateTranscoder()

    init(capacity: Int = 4_096) {
        bytes.reserveCapacity(capacity)
    }

    /// The whole answer of `GET /api/groups/{id}/changes`: the generated `ChangesResponse` of
    /// `page`, its expenses written from the records.
    static func encode(_ page: ChangePage) throws -> [UInt8] {
        var writer = ExpenseJSON(capacity: 600 * page.expenses.count + 4_096)
        let rest = Components.Schemas.ChangesResponse(page, expenses: [])
        let encoder = generatedEncoder()
        writer.raw("{\"categories\":")
        writer.encoded(try encoder.encode(rest.categories))
        writer.raw(",\"cursor\":")
        writer.string(rest.cursor)
        writer.raw(",\"deleted\":")
        writer.encoded(try encoder.encode(rest.deleted))
        writer.raw(",\"expenses\":")
        try writer.array(page.expenses) { try $0.expense($1) }
        if let group = rest.group {
            writer.raw(",\"group\":")
            writer.encoded(try encoder.encode(group))
        }
        writer.raw(",\"hasMore\":")
        writer.bool(rest.hasMore)
        writer.raw(",\"members\":")
        writer.encoded(try encoder.encode(rest.members))
        writer.raw(",\"settlements\":")
        writer.encoded(try encoder.encode(rest.settlements))
        writer.raw("}")
        return writer.bytes
    }

    /// The whole answer of `GET /api/groups/{id}/expenses`: the generated `ExpenseList` of a page.
    static func encode(_ page: [ExpenseView], hasMore: Bool) throws -> [UInt8] {
        var writer = ExpenseJSON(capacity: 600 * page.count + 256)
        writer.raw("{\"expenses\":")
        try writer.array(page) { try $0.expense($1) }
        if let next = Components.Schemas.ExpenseList.nextCursor(page, hasMore: hasMore) {
            writer.raw(",\"nextCursor\":")
            writer.string(next)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// The whole answer of `POST /api/expenses`: the generated `ExpenseResponse` of `view`.
    static func encode(created view: ExpenseView) throws -> [UInt8] {
        var writer = ExpenseJSON(capacity: 1_024)
        writer.raw("{\"expense\":")
        try writer.expense(view)
        writer.raw("}")
        return writer.bytes
    }

    /// A `JSONEncoder` as the generated server sets one up with our configuration
    /// (`Application+build.swift`): sorted keys, dates as `APIDateTranscoder` writes them.
    static func generatedEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let dates = APIDateTranscoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        return encoder
    }

    /// A `JSONDecoder` as the generated server sets one up with our configuration.
    static func generatedDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let dates = APIDateTranscoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try dates.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }

    // MARK: - Objects (keys in the order `.sortedKeys` gives)

    /// `Components.Schemas.Expense(view)` as `JSONEncoder` writes it, with ids, amounts and dates
    /// written straight from the record (no `String` made for them).
    mutating func expense(_ view: ExpenseView) throws {
        let expense = view.expense
        let currency = try? Currency(code: expense.currency)
        raw("{\"amount\":")
        money(expense.amount, currency)
        raw(",\"category\":")
        id(expense.categoryID)
        raw(",\"categoryName\":")
        string(view.categoryName)
        raw(",\"createdAt\":")
        try date(milliseconds: expense.createdAt)
        raw(",\"createdByUserId\":")
        id(expense.createdByUserID)
        raw(",\"currency\":")
        string(expense.currency)
        raw(",\"description\":")
        string(expense.description)
        raw(",\"expenseDate\":")
        string(expense.expenseDate)
        raw(",\"groupId\":")
        id(expense.groupID)
        if let homeAmount = view.shownHomeAmount {
            raw(",\"homeAmount\":")
            money(homeAmount, try? Currency(code: view.homeAmountCurrency))
        }
        raw(",\"id\":")
        id(expense.id)
        raw(",\"isDeleted\":")
        bool(expense.isDeleted)
        raw(",\"payers\":")
        array(expense.payers) { writer, payer in
            writer.raw("{\"amount\":")
            writer.money(payer.amount, currency)
            writer.raw(",\"memberId\":")
            writer.id(payer.memberID)
            writer.raw("}")
        }
        raw(",\"split\":")
        split(try .init(expense.rule, currency: expense.currency))
        raw(",\"splits\":[")
        var first = true
        for share in expense.shares where !share.isRemoved {
            if !first { raw(",") }
            first = false
            try self.share(share, currency, nothingToPay: expense.nothingToPay(share))
        }
        raw("],\"updatedAt\":")
        try date(milliseconds: expense.updatedAt)
        raw(",\"version\":")
        integer(expense.version)
        raw("}")
    }

    /// `Components.Schemas.ExpenseShare(share, currency:nothingToPay:)` as `JSONEncoder` writes it.
    mutating func share(_ share: ShareRecord, _ currency: Currency?, nothingToPay: Bool) throws {
        raw("{\"amount\":")
        money(share.amount, currency)
        raw(",\"id\":")
        id(share.id)
        raw(",\"isPaid\":")
        bool(share.isPaid)
        raw(",\"memberId\":")
        id(share.memberID)
        if nothingToPay { raw(",\"nothingToPay\":true") }
        if let paidAt = share.paidAt {
            raw(",\"paidAt\":")
            try date(milliseconds: paidAt)
        }
        raw("}")
    }

    mutating func memberAmount(_ value: Components.Schemas.MemberAmount) {
        pair("{\"amount\":", value.amount, ",\"memberId\":", value.memberId)
    }

    /// An object of two strings: `{"first":…,"second":…}`, keys given with their punctuation.
    mutating func pair(_ firstKey: StaticString, _ first: String, _ secondKey: StaticString, _ second: String) {
        raw(firstKey)
        string(first)
        raw(secondKey)
        string(second)
        raw("}")
    }

    mutating func split(_ split: Components.Schemas.SplitInput) {
        var first = true
        // Every key but `mode` is optional: a comma before all but the first one written.
        func key(_ writer: inout ExpenseJSON, _ name: StaticString) {
            writer.raw(first ? "{" : ",")
            first = false
            writer.raw(name)
        }
        if let adjustments = split.adjustments {
            key(&self, "\"adjustments\":")
            array(adjustments) { $0.memberAmount($1) }
        }
        if let amounts = split.amounts {
            key(&self, "\"amounts\":")
            array(amounts) { $0.memberAmount($1) }
        }
        if let extras = split.extras {
            key(&self, "\"extras\":")
            array(extras) { $0.pair("{\"amount\":", $1.amount, ",\"description\":", $1.description) }
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
            array(percents) { $0.pair("{\"memberId\":", $1.memberId, ",\"percent\":", $1.percent) }
        }
        if let shares = split.shares {
            key(&self, "\"shares\":")
            array(shares) { $0.pair("{\"memberId\":", $1.memberId, ",\"shares\":", $1.shares) }
        }
        raw("}")
    }

    // MARK: - Values

    mutating func array<Element>(_ elements: [Element], _ write: (inout ExpenseJSON, Element) throws -> Void) rethrows {
        raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { raw(",") }
            try write(&self, element)
        }
        raw("]")
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func encoded(_ data: Data) {
        bytes.append(contentsOf: data)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func integer(_ value: Int64) {
        JSONText.appendInteger(value, to: &bytes)
    }

    /// A stored moment as `APIDateTranscoder` writes it.
    mutating func date(milliseconds: Int64) throws {
        let date = Date(milliseconds: milliseconds)
        bytes.append(UInt8(ascii: "\""))
        if UTCTimestamp.append(date, to: &bytes) {
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.removeLast()
            string(try dates.encode(date))
        }
    }

    /// An id's lower-case text, which JSON needs no escape for.
    mutating func id(_ value: UUID) {
        bytes.append(UInt8(ascii: "\""))
        value.appendText(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An amount as `MoneyInput.text` writes it: in major units of `currency`, or the bare
    /// number when the code is not a currency's.
    mutating func money(_ minorUnits: Int64, _ currency: Currency?) {
        bytes.append(UInt8(ascii: "\""))
        if let currency {
            Money(minorUnits: minorUnits, currency: currency).appendDecimal(to: &bytes)
        } else {
            integer(minorUnits)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string as `JSONEncoder` escapes one (`/` too, as the generated server does).
    mutating func string(_ text: String) {
        JSONText.appendString(text, to: &bytes)
    }
}
