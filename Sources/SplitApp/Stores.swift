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
}
