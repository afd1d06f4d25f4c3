import SplitCore
import SplitStore

/// The stores a use case works through. Every store is a struct that holds the database and
/// nothing else, so a use case keeps only its `database` and names the store where it uses it
/// (`expenses.create(…)`, `access.check(…)`): one list here, rather than the same declarations
/// and assignments at the top of every use case.
protocol UsesStores {
    var database: Database { get }
}

extension UsesStores {
    /// The permission check on a request to a group.
    var access: GroupAccess { GroupAccess(groups: groups) }
    var accounts: AccountStore { AccountStore(database: database) }
    var balances: BalanceStore { BalanceStore(database: database) }
    var budgets: BudgetStore { BudgetStore(database: database) }
    var categories: CategoryStore { CategoryStore(database: database) }
    var conversations: ConversationStore { ConversationStore(database: database) }
    var expenses: ExpenseStore { ExpenseStore(database: database) }
    var groups: GroupStore { GroupStore(database: database) }
    var idempotency: IdempotencyStore { IdempotencyStore(database: database) }
    var imports: ImportStore { ImportStore(database: database) }
    var log: GroupLogStore { GroupLogStore(database: database) }
    var mail: MailStore { MailStore(database: database) }
    var notifications: NotificationStore { NotificationStore(database: database) }
    var payDetails: PayDetailsStore { PayDetailsStore(database: database) }
    var recurring: RecurringStore { RecurringStore(database: database) }
    var requests: PaymentRequestStore { PaymentRequestStore(database: database) }
    var settlements: SettlementStore { SettlementStore(database: database) }
    var summaries: SummaryStore { SummaryStore(database: database) }
    var tokens: AccessTokenStore { AccessTokenStore(database: database) }
    var webhooks: WebhookStore { WebhookStore(database: database) }

    /// `currency` when it is one of `group`'s: its home currency, or one its ledger holds (an
    /// expense or a transfer was in it). Anything else is a 422 on `field` naming those there are:
    /// a transfer or a request in a currency nobody owes in only starts a debt the other way
    /// (found by a new user: `settle --currency EUR` for a yen debt recorded a euro one).
    func groupCurrency(_ currency: Currency, of group: GroupRecord, field: String) async throws -> Currency {
        guard currency.code != group.homeCurrency else { return currency }
        let used = try await balances.currencies(groupID: group.id).union([group.homeCurrency])
        guard !used.contains(currency.code) else { return currency }
        let listed = used.sorted()
        let those =
            listed.count == 1
            ? "its currency is \(listed[0])"
            : "its currencies are \(listed.dropLast().joined(separator: ", ")) and \(listed.last ?? "")"
        throw AppError.invalid(
            field: field,
            message: "Nothing in \(group.name) is in \(currency.code); \(those). Money paid in another currency is "
                + "recorded in the currency of the debt, converted.")
    }
}
