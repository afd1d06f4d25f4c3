// Over 400 lines on purpose: every type a change-feed page holds, read in one pass by one reader
// (`JSONReader`), each type's keys beside the others'; split apart, the reader's few primitives
// would be spread over files for no reader's benefit.

import Foundation
import SplitCore

// A page of the change feed read from its bytes straight into the SDK's types (issue 16). A first
// sync of 10,000 expenses is 11 pages of about 1.5 MB, and `JSONDecoder` through the generated
// types, then the mapping to the SDK's, took about 25 ms of CPU a page: `perf` of the SDK's
// benchmark put a tenth of all its samples, seeding included, in that decoding. The reader below
// walks the bytes once with no `Decoder`, no boxes and no intermediate values.
//
// It reads exactly what the generated `Components.Schemas.ChangesResponse` and `Changes.init(_:)`
// (WireMapping.swift) accept: every required key, `null` or nothing for an optional one, unknown
// keys skipped, the server's timestamps through `ServerDateTranscoder`. `FeedPageReaderTests`
// hold the two to the same answer on random pages of every shape, and to the same refusals.

extension Changes {
    /// Reads one answer of `GET /api/groups/{groupId}/changes`.
    init(feedPage bytes: [UInt8]) throws(FeedPageError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(FeedPageError) in
            var reader = JSONReader(buffer)
            let page = try reader.changes()
            try reader.end()
            return page
        }
    }
}

/// A page of the change feed that is not what the API documents, with where it went wrong.
struct FeedPageError: Error, CustomStringConvertible, Equatable {
    let message: String
    let offset: Int

    var description: String { "the change feed page could not be read: \(message) (at byte \(offset))" }
}

/// A forward-only reader of JSON text (RFC 8259) over bytes, for the feed page's types.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: The page's types

    mutating func changes() throws(FeedPageError) -> Changes {
        var cursor: String?
        var hasMore: Bool?
        var group: Group?
        var expenses: [Expense]?
        var settlements: [Settlement]?
        var members: [Member]?
        var categories: [Category]?
        var deleted: [Tombstone]?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "cursor": cursor = try reader.string()
            case "hasMore": hasMore = try reader.bool()
            case "group": group = try reader.optional { reader throws(FeedPageError) in try reader.group() }
            case "expenses": expenses = try reader.array { reader throws(FeedPageError) in try reader.expense() }
            case "settlements":
                settlements = try reader.array { reader throws(FeedPageError) in try reader.settlement() }
            case "members": members = try reader.array { reader throws(FeedPageError) in try reader.member() }
            case "categories":
                categories = try reader.array { reader throws(FeedPageError) in try reader.category() }
            case "deleted": deleted = try reader.array { reader throws(FeedPageError) in try reader.tombstone() }
            default: try reader.skipValue()
            }
        }
        return Changes(
            cursor: try required(cursor, "cursor"), hasMore: try required(hasMore, "hasMore"), group: group,
            expenses: try required(expenses, "expenses"), settlements: try required(settlements, "settlements"),
            members: try required(members, "members"), categories: try required(categories, "categories"),
            deleted: try required(deleted, "deleted"))
    }

    mutating func expense() throws(FeedPageError) -> Expense {
        var id: String?
        var groupId: String?
        var description: String?
        var amount: String?
        var currency: String?
        var category: String?
        var categoryName: String?
        var expenseDate: String?
        var createdByUserId: String?
        var payers: [MemberAmount]?
        var splits: [ExpenseShare]?
        var split: SplitInput?
        var homeAmount: String?
        var version: Int64?
        var createdAt: Date?
        var updatedAt: Date?
        var isDeleted: Bool?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "groupId": groupId = try reader.string()
            case "description": description = try reader.string()
            case "amount": amount = try reader.string()
            case "currency": currency = try reader.string()
            case "category": category = try reader.string()
            case "categoryName": categoryName = try reader.string()
            case "expenseDate": expenseDate = try reader.string()
            case "createdByUserId": createdByUserId = try reader.string()
            case "payers":
                payers = try reader.array { reader throws(FeedPageError) in try reader.entry(AmountEntry.self) }
            case "splits": splits = try reader.array { reader throws(FeedPageError) in try reader.share() }
            case "split": split = try reader.split()
            case "homeAmount": homeAmount = try reader.optional { reader throws(FeedPageError) in try reader.string() }
            case "version": version = try reader.int64()
            case "createdAt": createdAt = try reader.date()
            case "updatedAt": updatedAt = try reader.date()
            case "isDeleted": isDeleted = try reader.bool()
            default: try reader.skipValue()
            }
        }
        return Expense(
            id: try required(id, "id"), groupId: try required(groupId, "groupId"),
            description: try required(description, "description"), amount: try required(amount, "amount"),
            currency: try required(currency, "currency"), category: try required(category, "category"),
            categoryName: try required(categoryName, "categoryName"),
            expenseDate: try required(expenseDate, "expenseDate"),
            createdByUserId: try required(createdByUserId, "createdByUserId"), payers: try required(payers, "payers"),
            splits: try required(splits, "splits"), split: try required(split, "split"), homeAmount: homeAmount,
            version: try required(version, "version"), createdAt: try required(createdAt, "createdAt"),
            updatedAt: try required(updatedAt, "updatedAt"), isDeleted: try required(isDeleted, "isDeleted"))
    }

    mutating func share() throws(FeedPageError) -> ExpenseShare {
        var id: String?
        var memberId: String?
        var amount: String?
        var isPaid: Bool?
        var paidAt: Date?
        var nothingToPay = false
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "memberId": memberId = try reader.string()
            case "amount": amount = try reader.string()
            case "isPaid": isPaid = try reader.bool()
            case "nothingToPay": nothingToPay = try reader.bool()
            case "paidAt": paidAt = try reader.optional { reader throws(FeedPageError) in try reader.date() }
            default: try reader.skipValue()
            }
        }
        return ExpenseShare(
            id: try required(id, "id"), memberId: try required(memberId, "memberId"),
            amount: try required(amount, "amount"), isPaid: try required(isPaid, "isPaid"), paidAt: paidAt,
            nothingToPay: nothingToPay)
    }

    /// `{"memberId", "amount" | "percent" | "shares"}`, as `Kind` names its number.
    mutating func entry<Kind: MemberEntryKind>(_ kind: Kind.Type) throws(FeedPageError) -> MemberEntry<Kind> {
        var memberId: String?
        var value: String?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "memberId": memberId = try reader.string()
            case Kind.key: value = try reader.string()
            default: try reader.skipValue()
            }
        }
        return MemberEntry(memberId: try required(memberId, "memberId"), value: try required(value, Kind.key))
    }

    mutating func split() throws(FeedPageError) -> SplitInput {
        var mode: SplitInput.Mode?
        var split = SplitInput(mode: .equal)
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "mode": mode = try reader.enumeration(SplitInput.Mode.self)
            case "memberIds":
                split.memberIds = try reader.optional { reader throws(FeedPageError) in
                    try reader.array { reader throws(FeedPageError) in try reader.string() }
                }
            case "amounts": split.amounts = try reader.optionalEntries(AmountEntry.self)
            case "percents": split.percents = try reader.optionalEntries(PercentEntry.self)
            case "shares": split.shares = try reader.optionalEntries(SharesEntry.self)
            case "adjustments": split.adjustments = try reader.optionalEntries(AmountEntry.self)
            case "items":
                split.items = try reader.optional { reader throws(FeedPageError) in
                    try reader.array { reader throws(FeedPageError) in try reader.item() }
                }
            case "extras":
                split.extras = try reader.optional { reader throws(FeedPageError) in
                    try reader.array { reader throws(FeedPageError) in try reader.extra() }
                }
            default: try reader.skipValue()
            }
        }
        split.mode = try required(mode, "mode")
        return split
    }

    private mutating func optionalEntries<Kind: MemberEntryKind>(_ kind: Kind.Type) throws(FeedPageError)
        -> [MemberEntry<Kind>]?
    {
        try optional { reader throws(FeedPageError) in
            try reader.array { reader throws(FeedPageError) in try reader.entry(Kind.self) }
        }
    }

    mutating func item() throws(FeedPageError) -> SplitItemInput {
        var description: String?
        var amount: String?
        var split: SplitInput?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "description": description = try reader.string()
            case "amount": amount = try reader.string()
            case "split": split = try reader.split()
            default: try reader.skipValue()
            }
        }
        return SplitItemInput(
            description: try required(description, "description"), amount: try required(amount, "amount"),
            split: try required(split, "split"))
    }

    mutating func extra() throws(FeedPageError) -> SplitExtraInput {
        var description: String?
        var amount: String?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "description": description = try reader.string()
            case "amount": amount = try reader.string()
            default: try reader.skipValue()
            }
        }
        return SplitExtraInput(
            description: try required(description, "description"), amount: try required(amount, "amount"))
    }

    mutating func settlement() throws(FeedPageError) -> Settlement {
        var id: String?
        var groupId: String?
        var fromMemberId: String?
        var toMemberId: String?
        var amount: String?
        var currency: String?
        var date: String?
        var note: String?
        var expenseSplitId: String?
        var createdByUserId: String?
        var isDeleted: Bool?
        var version: Int64?
        var createdAt: Date?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "groupId": groupId = try reader.string()
            case "fromMemberId": fromMemberId = try reader.string()
            case "toMemberId": toMemberId = try reader.string()
            case "amount": amount = try reader.string()
            case "currency": currency = try reader.string()
            case "date": date = try reader.string()
            case "note": note = try reader.string()
            case "expenseSplitId":
                expenseSplitId = try reader.optional { reader throws(FeedPageError) in try reader.string() }
            case "createdByUserId": createdByUserId = try reader.string()
            case "isDeleted": isDeleted = try reader.bool()
            case "version": version = try reader.int64()
            case "createdAt": createdAt = try reader.date()
            default: try reader.skipValue()
            }
        }
        return Settlement(
            id: try required(id, "id"), groupId: try required(groupId, "groupId"),
            fromMemberId: try required(fromMemberId, "fromMemberId"),
            toMemberId: try required(toMemberId, "toMemberId"),
            amount: try required(amount, "amount"), currency: try required(currency, "currency"),
            date: try required(date, "date"), note: try required(note, "note"), expenseSplitId: expenseSplitId,
            createdByUserId: try required(createdByUserId, "createdByUserId"),
            isDeleted: try required(isDeleted, "isDeleted"), version: try required(version, "version"),
            createdAt: try required(createdAt, "createdAt"))
    }

    mutating func group() throws(FeedPageError) -> Group {
        var id: String?
        var name: String?
        var description: String?
        var homeCurrency: String?
        var timeZone: String?
        var ownerId: String?
        var inviteCode: String?
        var isArchived: Bool?
        var myMemberId: String?
        var myRole: Role?
        var version: Int64?
        var createdAt: Date?
        var updatedAt: Date?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "name": name = try reader.string()
            case "description": description = try reader.string()
            case "homeCurrency": homeCurrency = try reader.string()
            case "timeZone": timeZone = try reader.string()
            case "ownerId": ownerId = try reader.string()
            case "inviteCode": inviteCode = try reader.optional { reader throws(FeedPageError) in try reader.string() }
            case "isArchived": isArchived = try reader.bool()
            case "myMemberId": myMemberId = try reader.string()
            case "myRole": myRole = try reader.enumeration(Role.self)
            case "version": version = try reader.int64()
            case "createdAt": createdAt = try reader.date()
            case "updatedAt": updatedAt = try reader.date()
            default: try reader.skipValue()
            }
        }
        return Group(
            id: try required(id, "id"), name: try required(name, "name"),
            description: try required(description, "description"),
            homeCurrency: try required(homeCurrency, "homeCurrency"), timeZone: try required(timeZone, "timeZone"),
            ownerId: try required(ownerId, "ownerId"), inviteCode: inviteCode,
            isArchived: try required(isArchived, "isArchived"), myMemberId: try required(myMemberId, "myMemberId"),
            myRole: try required(myRole, "myRole"), version: try required(version, "version"),
            createdAt: try required(createdAt, "createdAt"), updatedAt: try required(updatedAt, "updatedAt"))
    }

    mutating func member() throws(FeedPageError) -> Member {
        var id: String?
        var groupId: String?
        var userId: String?
        var name: String?
        var role: Role?
        var canAddExpenses: Bool?
        var canEditOwnExpenses: Bool?
        var canEditAllExpenses: Bool?
        var canMarkPaid: Bool?
        var active: Bool?
        var leftThemselves: Bool?
        var version: Int64?
        var updatedAt: Date?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "groupId": groupId = try reader.string()
            case "userId": userId = try reader.optional { reader throws(FeedPageError) in try reader.string() }
            case "name": name = try reader.string()
            case "role": role = try reader.enumeration(Role.self)
            case "canAddExpenses": canAddExpenses = try reader.bool()
            case "canEditOwnExpenses": canEditOwnExpenses = try reader.bool()
            case "canEditAllExpenses": canEditAllExpenses = try reader.bool()
            case "canMarkPaid": canMarkPaid = try reader.bool()
            case "active": active = try reader.bool()
            case "leftThemselves": leftThemselves = try reader.bool()
            case "version": version = try reader.int64()
            case "updatedAt": updatedAt = try reader.date()
            default: try reader.skipValue()
            }
        }
        return Member(
            id: try required(id, "id"), groupId: try required(groupId, "groupId"), userId: userId,
            name: try required(name, "name"), role: try required(role, "role"),
            canAddExpenses: try required(canAddExpenses, "canAddExpenses"),
            canEditOwnExpenses: try required(canEditOwnExpenses, "canEditOwnExpenses"),
            canEditAllExpenses: try required(canEditAllExpenses, "canEditAllExpenses"),
            canMarkPaid: try required(canMarkPaid, "canMarkPaid"), active: try required(active, "active"), leftThemselves: leftThemselves,
            version: try required(version, "version"), updatedAt: try required(updatedAt, "updatedAt"))
    }

    mutating func category() throws(FeedPageError) -> Category {
        var id: String?
        var name: String?
        var icon: String?
        var color: String?
        var isDefault: Bool?
        var position: Int64?
        var version: Int64?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "id": id = try reader.string()
            case "name": name = try reader.string()
            case "icon": icon = try reader.string()
            case "color": color = try reader.string()
            case "isDefault": isDefault = try reader.bool()
            case "position": position = try reader.int64()
            case "version": version = try reader.int64()
            default: try reader.skipValue()
            }
        }
        return Category(
            id: try required(id, "id"), name: try required(name, "name"), icon: try required(icon, "icon"),
            color: try required(color, "color"), isDefault: try required(isDefault, "isDefault"),
            position: Int(try required(position, "position")), version: try required(version, "version"))
    }

    mutating func tombstone() throws(FeedPageError) -> Tombstone {
        var entity: Tombstone.Entity?
        var id: String?
        try object { reader, key throws(FeedPageError) in
            switch key {
            case "entity": entity = try reader.enumeration(Tombstone.Entity.self)
            case "id": id = try reader.string()
            default: try reader.skipValue()
            }
        }
        return Tombstone(entity: try required(entity, "entity"), id: try required(id, "id"))
    }

    // MARK: JSON

    /// The value of a required key, or an error naming the key (checked where its object ends).
    private func required<T>(_ value: T?, _ key: String) throws(FeedPageError) -> T {
        guard let value else { throw failure("\"\(key)\" is missing") }
        return value
    }

    private func failure(_ message: String) -> FeedPageError {
        FeedPageError(message: message, offset: index)
    }

    /// The next byte that is not white space, not consumed.
    private mutating func peek() throws(FeedPageError) -> UInt8 {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return bytes[index]
            }
        }
        throw failure("the page ends early")
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(FeedPageError) {
        guard try peek() == byte else { throw failure("\(what) expected") }
        index += 1
    }

    /// Nothing but white space after the page.
    mutating func end() throws(FeedPageError) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: throw failure("more follows the page")
            }
        }
    }

    /// Reads an object, handing each key to `field`, which reads (or skips) its value.
    private mutating func object(
        _ field: (inout JSONReader, String) throws(FeedPageError) -> Void
    ) throws(FeedPageError) {
        try expect(UInt8(ascii: "{"), "an object")
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw failure("a key expected") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "':' after a key")
            try field(&self, key)
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw failure("',' or '}' expected in an object")
            }
        }
    }

    private mutating func array<Element>(
        _ element: (inout JSONReader) throws(FeedPageError) -> Element
    ) throws(FeedPageError) -> [Element] {
        try expect(UInt8(ascii: "["), "an array")
        var elements: [Element] = []
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try element(&self))
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return elements
            default: throw failure("',' or ']' expected in an array")
            }
        }
    }

    /// nil for `null`, else the value `read` reads.
    private mutating func optional<Value>(
        _ read: (inout JSONReader) throws(FeedPageError) -> Value
    ) throws(FeedPageError) -> Value? {
        if try peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try read(&self)
    }

    private mutating func literal(_ word: StaticString) throws(FeedPageError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
        else { throw failure("\(word) expected") }
        index += count
    }

    mutating func bool() throws(FeedPageError) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw failure("true or false expected")
        }
    }

    /// An integer (no fraction or exponent: the server writes versions and positions so).
    mutating func int64() throws(FeedPageError) -> Int64 {
        _ = try peek()
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > digits, index - digits == 1 || bytes[digits] != 0x30 else { throw failure("an integer expected") }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw failure("an integer expected")
        }
        guard let value = Int64(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        else { throw failure("an integer too large") }
        return value
    }

    mutating func date() throws(FeedPageError) -> Date {
        let text = try string()
        do {
            return try ServerDateTranscoder().decode(text)
        } catch {
            throw failure("\"\(text)\" is not a timestamp")
        }
    }

    mutating func enumeration<Value: RawRepresentable<String>>(_ type: Value.Type) throws(FeedPageError) -> Value {
        let text = try string()
        guard let value = Value(rawValue: text) else { throw failure("\"\(text)\" is not a known value") }
        return value
    }

    /// A string, its escapes read and its UTF-8 checked (`JSONText.readString`).
    mutating func string() throws(FeedPageError) -> String {
        _ = try peek()
        do {
            return try JSONText.readString(bytes, at: &index)
        } catch {
            throw failure(error.message)
        }
    }

    /// Passes over a value of a key the SDK does not know (a newer server's), checking its form.
    mutating func skipValue() throws(FeedPageError) {
        switch try peek() {
        case UInt8(ascii: "{"): try object { reader, _ throws(FeedPageError) in try reader.skipValue() }
        case UInt8(ascii: "["): _ = try array { reader throws(FeedPageError) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    /// Any JSON number, checked and passed over.
    private mutating func number() throws(FeedPageError) {
        func digits(_ reader: inout JSONReader) -> Int {
            let start = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] >= 0x30,
                reader.bytes[reader.index] <= 0x39
            {
                reader.index += 1
            }
            return reader.index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let start = index
        let whole = digits(&self)
        guard whole > 0, whole == 1 || bytes[start] != 0x30 else { throw failure("a value expected") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw failure("digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw failure("digits expected in an exponent") }
        }
    }
}
