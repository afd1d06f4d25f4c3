import Foundation
import SplitCore

// The SDK's own types for balances, settle-up plans and settlements (money that moved between
// two members). Their JSON is the API's (the offline copy keeps settlements as this JSON; see
// GroupModels.swift).

/// One member's net in one currency: paid − owed + sent − received (positive: is owed money).
public struct Balance: Codable, Hashable, Sendable {
    public var memberId: String
    public var currency: String
    /// A decimal string, negative when the member owes.
    public var net: String

    public init(memberId: String, currency: String, net: String) {
        self.memberId = memberId
        self.currency = currency
        self.net = net
    }
}

/// A group's balances: per member and currency, and in the home currency when rates allow.
public struct GroupBalances: Codable, Hashable, Sendable {
    /// Non-zero nets, by currency then member.
    public var balances: [Balance]
    public var homeCurrency: String
    /// Every net converted to the home currency; nil while a rate is missing.
    public var home: [Balance]?
    /// The currencies without a rate to the home currency.
    public var missingRates: [String]
    /// How many expenses count in `home` at what was charged in the home currency rather than at
    /// a rate (nil from a server before this was said).
    public var homeChargedExpenses: Int?
    /// Whether Settle up leads with everything in the home currency, converted (nil from a server
    /// before this was said).
    public var settleInHome: Bool?

    public init(
        balances: [Balance], homeCurrency: String, home: [Balance]? = nil, missingRates: [String],
        homeChargedExpenses: Int? = nil, settleInHome: Bool? = nil
    ) {
        self.balances = balances
        self.homeCurrency = homeCurrency
        self.home = home
        self.missingRates = missingRates
        self.homeChargedExpenses = homeChargedExpenses
        self.settleInHome = settleInHome
    }
}

/// One transfer of a settle-up plan: who pays whom how much.
public struct PlannedTransfer: Codable, Hashable, Sendable {
    public var fromMemberId: String
    public var toMemberId: String
    public var amount: String
    public var currency: String

    public init(fromMemberId: String, toMemberId: String, amount: String, currency: String) {
        self.fromMemberId = fromMemberId
        self.toMemberId = toMemberId
        self.amount = amount
        self.currency = currency
    }
}

/// Money that moved from one member to another: recorded by hand, or by a share marked paid.
public struct Settlement: Codable, Hashable, Sendable {
    public var id: String
    public var groupId: String
    /// Who paid.
    public var fromMemberId: String
    /// Who received.
    public var toMemberId: String
    public var amount: String
    public var currency: String
    /// `YYYY-MM-DD`.
    public var date: String
    /// Free text; empty when none was given.
    public var note: String
    /// The share whose paid mark recorded it, if one did.
    public var expenseSplitId: String?
    public var createdByUserId: String
    public var isDeleted: Bool
    /// Grows by one with every change.
    public var version: Int64
    public var createdAt: Date

    public init(
        id: String, groupId: String, fromMemberId: String, toMemberId: String, amount: String, currency: String,
        date: String, note: String, expenseSplitId: String? = nil, createdByUserId: String, isDeleted: Bool,
        version: Int64, createdAt: Date
    ) {
        self.id = id
        self.groupId = groupId
        self.fromMemberId = fromMemberId
        self.toMemberId = toMemberId
        self.amount = amount
        self.currency = currency
        self.date = date
        self.note = note
        self.expenseSplitId = expenseSplitId
        self.createdByUserId = createdByUserId
        self.isDeleted = isDeleted
        self.version = version
        self.createdAt = createdAt
    }
}

/// A transfer to record, as the offline queue keeps it until `SyncEngine.push` sends it with
/// `SplitterClient.settle` (SplitCore's `EnteredSettlement`, the one definition the server checks).
public typealias NewSettlement = EnteredSettlement

/// A manual exchange rate of a group: 1 `fromCurrency` = `rate` `toCurrency` from `date` on
/// (the latest one of a pair counts).
public struct ExchangeRateEntry: Codable, Hashable, Sendable {
    public var fromCurrency: String
    public var toCurrency: String
    /// YYYY-MM-DD.
    public var date: String
    /// A positive decimal, as text.
    public var rate: String
    /// In the server's answers: whether it is the rate read for its pair now (the latest of the
    /// pair, toward the home currency). Nil in what is sent, and from a server before it said so.
    public var counts: Bool?

    public init(fromCurrency: String, toCurrency: String, date: String, rate: String, counts: Bool? = nil) {
        self.fromCurrency = fromCurrency
        self.toCurrency = toCurrency
        self.date = date
        self.rate = rate
        self.counts = counts
    }
}
