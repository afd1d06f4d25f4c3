// A transfer and a recurrence rule as a person enters them, before any checking: ids, amounts
// and dates as text. Like `EnteredSplit`, one definition serves the server's use cases (which
// check it, naming the request's field in every refusal) and the SDK (which sends it, and keeps
// a transfer in its offline queue); their JSON is the API's.

/// A transfer between two members as entered.
public struct EnteredSettlement: Codable, Hashable, Sendable {
    /// A client-generated id (a UUID, lower case): sending it twice records it once.
    public var id: String?
    public var fromMemberId: String
    public var toMemberId: String
    /// Decimal text in the currency's major unit.
    public var amount: String
    /// An ISO 4217 code, any case.
    public var currency: String
    /// `YYYY-MM-DD`; nil means today.
    public var date: String?
    public var note: String?

    public init(
        id: String? = nil, fromMemberId: String, toMemberId: String, amount: String, currency: String,
        date: String? = nil, note: String? = nil
    ) {
        self.id = id
        self.fromMemberId = fromMemberId
        self.toMemberId = toMemberId
        self.amount = amount
        self.currency = currency
        self.date = date
        self.note = note
    }
}

/// When a recurring expense falls due, as entered: every `interval` days, weeks, months or years
/// from `startDate`, until `endDate` or `count` times (SplitCore's `Recurrence` once checked).
public struct EnteredRecurrence: Codable, Hashable, Sendable {
    /// day, week, month or year.
    public var every: String
    public var interval: Int?
    /// For a weekly rule: 1 (Monday) … 7 (Sunday); the start's weekday when empty.
    public var weekdays: [Int]?
    /// clamp (the 31st falls on a shorter month's last day) or skip (not that month).
    public var monthEnd: String?
    public var startDate: String
    public var endDate: String?
    public var count: Int?

    public init(
        every: String, interval: Int? = nil, weekdays: [Int]? = nil, monthEnd: String? = nil, startDate: String,
        endDate: String? = nil, count: Int? = nil
    ) {
        self.every = every
        self.interval = interval
        self.weekdays = weekdays
        self.monthEnd = monthEnd
        self.startDate = startDate
        self.endDate = endDate
        self.count = count
    }
}
