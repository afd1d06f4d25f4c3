import Crypto
import Foundation
import SplitCore
import SplitStore

/// A line read against a group: the draft SplitCore's `QuickEntry` made, the expense it is as
/// entered, and that expense as it would be saved (its exact payers and shares).
public struct QuickEntryPreview: Sendable {
    public let draft: QuickDraft
    public let entered: EnteredExpense
    public let expense: ExpenseRecord
    public let categoryNames: [UUID: String]

    /// What this preview showed, in a few characters: saving with it stores exactly that or
    /// nothing (`QuickEntryUseCases.read`'s `previewed`).
    public var fingerprint: String { QuickEntryUseCases.fingerprint(expense) }
}

/// What a line came to.
public enum QuickEntryResult: Sendable {
    /// What keeps the line from being an expense, each said.
    case problems([QuickEntryProblem])
    /// A dry run: what saving would store.
    case preview(QuickEntryPreview)
    /// Saved (or answered again for a key used before).
    case created(ExpenseCreation)
}

/// Quick entry (issue 21): one line of text to an expense, through the same checks and the same
/// split as the form. The line is read against the group — its active members (and the names of
/// those gone, to say so), the caller as "me", its home currency, its categories, today where it is, and what its latest descriptions
/// were filed under — and never guessed into an amount, a currency or who shares.
public struct QuickEntryUseCases: Sendable, UsesStores {
    let database: Database
    let expenseUseCases: ExpenseUseCases
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) {
        self.database = database
        expenseUseCases = ExpenseUseCases(database: database, now: now)
        self.now = now
    }

    /// Reads `text`; with `dryRun` answers what saving would store, otherwise saves it (once per
    /// idempotency key). Members who may add expenses. `id` is the expense's: a preview made with
    /// it and a save with it split the same to the unit (the leftover unit of an uneven split
    /// goes by the id), so a client saving what it previewed sends the preview's id back.
    ///
    /// `previewed` is a preview's `fingerprint`: saving then stores what that preview showed or
    /// nothing (`previewChanged`, 409). "all" is read against the members of the moment, so a
    /// member who joined, left or became a viewer in between, the date passing midnight or a
    /// category learned meanwhile would otherwise save another split than the one confirmed
    /// (found by review: 5 shares of 200 shown, 6 of 166 saved).
    public func read(
        _ text: String, dryRun: Bool, id: UUID? = nil, previewed: String? = nil, groupID: UUID, caller: Caller,
        origin: RequestOrigin, idempotency: IdempotencyRequest?,
        render: @escaping @Sendable (ExpenseView) throws -> StoredResponse
    ) async throws -> QuickEntryResult {
        let (group, me) = try await access.check(groupID, caller, for: .addExpense)
        // A preview's fingerprint holds its shares, which depend on its id (who gets a leftover
        // unit): without the id, a save could never match it (found by review).
        if previewed != nil, id == nil, !dryRun {
            throw AppError.invalid(field: "id", message: "Send the preview's id with its fingerprint.")
        }
        let live = try await categories.categories(groupID: group.id, now: now())
        let names = Dictionary(live.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        // What the latest descriptions were filed under.
        let recent = try await expenseUseCases.list(
            groupID: group.id,
            filter: {
                var filter = ExpenseFilter()
                filter.limit = 200
                return filter
            }, caller: caller
        ).expenses
        var memory: [String: String] = [:]
        for view in recent.reversed() {
            if let name = names[view.expense.categoryID] { memory[view.expense.description.lowercased()] = name }
        }
        let members = try await groups.members(groupID: group.id)
        let context = QuickEntryContext(
            people: members.filter(\.isActive).map {
                .init(id: MemberID($0.id), name: $0.name, sharesByDefault: $0.role != .viewer)
            }, me: MemberID(me.id), homeCurrency: try MoneyInput.currency(group.homeCurrency, field: "homeCurrency"),
            categories: live.map(\.name), today: CivilDate(MoneyInput.today(now(), in: group.timeZone))!, memory: memory,
            // Named, someone who left or was removed is said to be gone, not "nobody in this group".
            former: members.filter { !$0.isActive }.map { .init(name: $0.name, left: $0.hasLeft) })
        let draft: QuickDraft
        switch QuickEntry.parse(text, context: context) {
        case .failure(let problems):
            if dryRun { return .problems(problems) }
            throw AppError.invalidFields(problems.map { .init(field: "text", message: $0.description) })
        case .success(let read):
            draft = read
        }
        let currency = draft.total.currency
        let entered = EnteredExpense(
            description: draft.description, amount: draft.total.decimalString, currency: currency.code,
            category: draft.category, expenseDate: draft.date.description, paidByMemberId: draft.payer.description,
            split: EnteredSplit(draft.rule, currency: currency))
        if dryRun {
            let expense = try await expenseUseCases.preview(
                entered, id: id ?? UUID.random(), groupID: group.id, caller: caller)
            return .preview(QuickEntryPreview(draft: draft, entered: entered, expense: expense, categoryNames: names))
        }
        switch try await expenseUseCases.prepare(
            entered, id: id?.text, groupID: group.id, caller: caller, origin: origin, idempotency: idempotency,
            render: render)
        {
        case .answered(let creation):
            return .created(creation)  // a retry of a save that went through
        case .write(let prepared):
            if let previewed, previewed != Self.fingerprint(prepared.new.expense) { throw Self.previewChanged }
            return .created(try await expenseUseCases.write(prepared))
        }
    }

    /// A save whose line no longer comes to the preview it was confirmed from.
    public static let previewChanged = AppError.conflict(
        code: "preview_changed", field: "text",
        message: "This line no longer comes to what was shown (the line was changed, or the group did: someone "
            + "joined or left, or its date or category moved): check it again before saving. Nothing was saved.")

    /// The money of an expense as a preview shows it: amount, currency, date, category, each
    /// payer's and each share's amount by member. 16 hex digits of its SHA-256.
    static func fingerprint(_ expense: ExpenseRecord) -> String {
        var text = "\(expense.amount) \(expense.currency) \(expense.expenseDate) \(expense.categoryID.text)"
        for payer in expense.payers.sorted(by: { $0.memberID.text < $1.memberID.text }) {
            text += " p\(payer.memberID.text)=\(payer.amount)"
        }
        for share in expense.liveShares.sorted(by: { $0.memberID.text < $1.memberID.text }) {
            text += " s\(share.memberID.text)=\(share.amount)"
        }
        return SHA256.hash(data: Data(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

extension QuickEntryProblem {
    /// A stable name for each kind of problem, for clients that act on it.
    public var code: String {
        switch self {
        case .empty: "empty"
        case .tooLong: "too_long"
        case .noDescription: "no_description"
        case .noAmount: "no_amount"
        case .notANumber: "not_a_number"
        case .divisionByZero: "division_by_zero"
        case .tooLarge: "too_large"
        case .zero: "zero"
        case .decimals: "decimals"
        case .whichCurrency: "which_currency"
        case .mixedCurrencies: "mixed_currencies"
        case .unknownWord: "unknown_word"
        case .ambiguousName: "ambiguous_name"
        // A word that names no member of the group (as openapi.yaml documents unknown_word).
        case .formerMember: "unknown_word"
        case .twoPayers: "two_payers"
        // "paid by Sam, Ben and Eli": whether they all paid (the code openapi.yaml documents).
        case .payerOrSharers: "two_payers"
        case .whoShares: "who_shares"
        case .ratioCount: "ratio_count"
        case .exactSum: "exact_sum"
        case .ratioNames: "ratio_names"
        case .ambiguousComma: "ambiguous_comma"
        case .dateYear: "date_year"
        // "3/12" asked about: the 3rd of December or March the 12th.
        case .ambiguousDate: "ambiguous_date"
        case .minus: "minus"
        case .percentSum: "percent_sum"
        // Codes the API documents (openapi.yaml): "split 3 ways" asks who shares.
        case .ways: "who_shares"
        // "1.200 CHF": the same question as "1,500 EUR" (a separator that could be either).
        case .ambiguousPoint: "ambiguous_comma"
        }
    }
}
