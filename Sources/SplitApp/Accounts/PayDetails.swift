import Foundation
import SplitCore
import SplitStore

/// How someone likes to be paid (issue 19): shown to the members of their groups on requests
/// and on the plan, with a link or a QR payload where the method has one. We hold no money: these
/// only tell a payer where to send it.
public enum PayMethod: Codable, Sendable, Equatable {
    /// A SEPA account: IBAN (checked with mod-97), optional BIC, the holder's name. With a euro
    /// amount it gives an EPC QR payload (the "Girocode" banking apps scan).
    case iban(iban: String, bic: String?, name: String)
    /// An Indian UPI id (`name@bank`): a `upi://pay` link with the amount.
    case upi(id: String, name: String?)
    /// A PayPal.me name: a link with the amount.
    case paypal(handle: String)
    /// A Revolut username: a revolut.me link.
    case revolut(handle: String)
    /// Malaysia's DuitNow or Singapore's PayNow: a phone number or id to type in.
    case duitnow(id: String)
    case paynow(id: String)
    /// Anything else, said in words.
    case text(String)

    public var kind: String {
        switch self {
        case .iban: "iban"
        case .upi: "upi"
        case .paypal: "paypal"
        case .revolut: "revolut"
        case .duitnow: "duitnow"
        case .paynow: "paynow"
        case .text: "text"
        }
    }
}

/// One way to pay someone an amount, ready to show.
public struct PayOption: Sendable, Equatable {
    public let kind: String
    /// "Bank transfer (SEPA)", "UPI", …
    public let label: String
    /// What to type or copy: the IBAN, the UPI id, the phone number, the words.
    public let detail: String
    /// A link that opens the payment with the amount, where the method has one.
    public let link: String?
    /// Text for a QR code a banking app scans (the EPC payload for a euro transfer; the UPI link).
    public let qrPayload: String?
}

/// A user's pay details as entered: each method's fields as text.
public struct EnteredPayMethod: Sendable, Equatable {
    public var kind: String
    public var value: String
    public var bic: String?
    public var name: String?

    public init(kind: String, value: String, bic: String? = nil, name: String? = nil) {
        self.kind = kind
        self.value = value
        self.bic = bic
        self.name = name
    }
}

public enum PayDetails {
    public static let maximumMethods = 10

    /// Checks what was entered; each refusal names the method's place and says what is wrong.
    public static func check(_ entered: [EnteredPayMethod], holder: String) throws -> [PayMethod] {
        guard entered.count <= maximumMethods else {
            throw AppError.invalid(field: "methods", message: "At most \(maximumMethods) ways to be paid.")
        }
        return try entered.enumerated().map { index, method in
            let field = "methods[\(index)]"
            let value = method.value.trimmingCharacters(in: .whitespacesAndNewlines)
            func invalid(_ message: String) -> AppError { .invalid(field: field, message: message) }
            switch method.kind {
            case "iban":
                guard let iban = IBAN.normalized(value) else {
                    throw invalid("\"\(value.prefix(40))\" is not an IBAN (its check digits do not match).")
                }
                let bic = method.bic?.replacingOccurrences(of: " ", with: "").uppercased()
                if let bic, !bic.isEmpty {
                    guard [8, 11].contains(bic.count), bic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                        throw invalid("A BIC has 8 or 11 letters and digits.")
                    }
                }
                // An empty holder is the account's own name.
                let given = method.name?.trimmingCharacters(in: .whitespaces) ?? ""
                let name = (given.isEmpty ? holder : given).trimmingCharacters(in: .whitespaces)
                guard (1...70).contains(name.count), !AccountInput.containsControlCharacters(name, allowingLineBreaks: false) else {
                    throw invalid("The account holder's name has 1 to 70 characters.")
                }
                return .iban(iban: iban, bic: bic?.isEmpty == false ? bic : nil, name: name)
            case "upi":
                let parts = value.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, (2...256).contains(parts[0].count), (2...64).contains(parts[1].count),
                    parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) }),
                    parts[1].allSatisfy({ $0.isASCII && $0.isLetter })
                else { throw invalid("A UPI id looks like name@bank.") }
                return .upi(id: value, name: method.name.flatMap { $0.isEmpty ? nil : String($0.prefix(70)) })
            case "paypal", "revolut":
                let handle = value.replacingOccurrences(of: "https://", with: "")
                    .replacingOccurrences(of: "paypal.me/", with: "").replacingOccurrences(of: "revolut.me/", with: "")
                    .trimmingCharacters(in: CharacterSet(charactersIn: "@/ "))
                guard (1...32).contains(handle.count), handle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
                else { throw invalid("A \(method.kind == "paypal" ? "PayPal.me" : "Revolut") name is letters, digits, dots and dashes.") }
                return method.kind == "paypal" ? .paypal(handle: handle) : .revolut(handle: handle)
            case "duitnow", "paynow":
                guard (3...40).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+ -".contains($0)) })
                else { throw invalid("A phone number or an id of 3 to 40 letters and digits.") }
                return method.kind == "duitnow" ? .duitnow(id: value) : .paynow(id: value)
            case "text":
                guard (1...200).contains(value.count), !AccountInput.containsControlCharacters(value, allowingLineBreaks: false) else {
                    throw invalid("Say it in 1 to 200 characters, on one line.")
                }
                return .text(value)
            default:
                throw invalid("\"\(method.kind.prefix(20))\" is not one of iban, upi, paypal, revolut, duitnow, paynow, text.")
            }
        }
    }

    /// How to pay `amount` (minor units of `currency`) with each method; `reference` goes with
    /// a bank transfer.
    public static func options(_ methods: [PayMethod], amount: Int64?, currency: Currency?, reference: String) -> [PayOption] {
        let decimal = amount.flatMap { minor in currency.map { Money(minorUnits: minor, currency: $0).decimalString } }
        return methods.map { method in
            switch method {
            case .iban(let iban, let bic, let name):
                var qr: String?
                // EPC069-12 version 002: BIC optional; amount in euros with 2 decimals, at most 999999999.99.
                if currency?.code == "EUR", let decimal, let amount, amount > 0, amount <= 99_999_999_999 {
                    qr = ["BCD", "002", "1", "SCT", bic ?? "", String(name.prefix(70)), iban, "EUR" + decimal, "", "",
                          String(reference.prefix(140))].joined(separator: "\n")
                }
                // SEPA moves euros only: another currency goes as an international transfer.
                let sepa = currency == nil || currency?.code == "EUR"
                return PayOption(
                    kind: "iban", label: sepa ? "Bank transfer (SEPA)" : "Bank transfer (international, to this IBAN)",
                    detail: IBAN.grouped(iban) + (bic.map { " · BIC \($0)" } ?? "") + " · \(name)", link: nil, qrPayload: qr)
            case .upi(let id, let name):
                var query = "pa=\(Self.escape(id))"
                if let name { query += "&pn=\(Self.escape(name))" }
                if currency?.code == "INR", let decimal { query += "&am=\(decimal)&cu=INR" }
                query += "&tn=\(Self.escape(String(reference.prefix(80))))"
                return PayOption(kind: "upi", label: "UPI", detail: id, link: "upi://pay?" + query, qrPayload: "upi://pay?" + query)
            case .paypal(let handle):
                let suffix = decimal.flatMap { amount in currency.map { "/\(amount)\($0.code)" } } ?? ""
                return PayOption(
                    kind: "paypal", label: "PayPal", detail: "paypal.me/\(handle)", link: "https://paypal.me/\(handle)\(suffix)",
                    qrPayload: nil)
            case .revolut(let handle):
                return PayOption(
                    kind: "revolut", label: "Revolut", detail: "@\(handle)", link: "https://revolut.me/\(handle)", qrPayload: nil)
            case .duitnow(let id):
                return PayOption(kind: "duitnow", label: "DuitNow", detail: id, link: nil, qrPayload: nil)
            case .paynow(let id):
                return PayOption(kind: "paynow", label: "PayNow", detail: id, link: nil, qrPayload: nil)
            case .text(let text):
                return PayOption(kind: "text", label: "Other", detail: text, link: nil, qrPayload: nil)
            }
        }
    }

    static func escape(_ text: String) -> String {
        // RFC 3986's unreserved characters (ASCII only) and "@" stay; everything else is escaped.
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")) ?? ""
    }

    /// The stored form: our own JSON, version 1.
    static func encode(_ methods: [PayMethod]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(Stored(v: 1, methods: methods))) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func decode(_ text: String) -> [PayMethod] {
        (try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)))?.methods ?? []
    }

    struct Stored: Codable {
        var v: Int
        var methods: [PayMethod]
    }
}

/// International bank account numbers (ISO 13616): the mod-97 check.
public enum IBAN {
    /// The IBAN without spaces, upper case, when its check digits hold; nil otherwise.
    public static func normalized(_ text: String) -> String? {
        let iban = text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: "").uppercased()
        guard (15...34).contains(iban.count), iban.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        let characters = Array(iban)
        guard characters[0].isLetter, characters[1].isLetter, characters[2].isNumber, characters[3].isNumber,
            !["00", "01", "99"].contains(String(characters[2...3]))  // ISO 13616: never valid check digits
        else {
            return nil
        }
        // Move the first four to the end, letters as 10…35, and take the remainder by 97 digit by digit.
        var remainder = 0
        for character in characters[4...] + characters[..<4] {
            let value = character.isNumber ? Int(String(character))! : Int(character.asciiValue! - 55)
            remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97
        }
        return remainder == 1 ? iban : nil
    }

    /// In groups of four, as printed on cards.
    public static func grouped(_ iban: String) -> String {
        stride(from: 0, to: iban.count, by: 4).map { start in
            let from = iban.index(iban.startIndex, offsetBy: start)
            return String(iban[from..<(iban.index(from, offsetBy: 4, limitedBy: iban.endIndex) ?? iban.endIndex)])
        }.joined(separator: " ")
    }
}

/// Reading and saving one's own pay details; reading another member's for a group both are in.
public struct PayDetailsUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    public func mine(caller: Caller) async throws -> [PayMethod] {
        PayDetails.decode(try await payDetails.methods(userID: caller.user.id) ?? "")
    }

    public func save(_ entered: [EnteredPayMethod], caller: Caller) async throws -> [PayMethod] {
        let methods = try PayDetails.check(entered, holder: caller.user.displayName)
        try await payDetails.save(userID: caller.user.id, methods: PayDetails.encode(methods), now: now())
        return methods
    }

    /// The methods of the account behind `memberID` (nil: a name-only member), for a member of
    /// its group to see.
    public func methods(ofMember memberID: UUID, in groupID: UUID) async throws -> [PayMethod] {
        // A member removed from the group shows nothing there any more.
        guard let member = try await groups.members(groupID: groupID).first(where: { $0.id == memberID && $0.isActive }),
            let user = member.userID
        else { return [] }
        return PayDetails.decode(try await payDetails.methods(userID: user) ?? "")
    }
}
