internal import SplitAPI
import SplitCore

// The one place the SDK's own types meet the types generated from openapi.yaml: `init(_:)` reads
// an answer's generated value, `wire` makes a request's. Used where SplitterClient calls the
// generated client; nothing generated is public. Enums are mapped case by case, so a case added
// to the spec is a compile error here rather than a value the SDK silently misreads.

// MARK: Accounts, groups, members

extension User {
    init(_ wire: Components.Schemas.User) {
        self.init(id: wire.id, email: wire.email, phone: wire.phone, displayName: wire.displayName)
    }
}

extension Role {
    init(_ wire: Components.Schemas.Role) {
        switch wire {
        case .owner: self = .owner
        case .admin: self = .admin
        case .member: self = .member
        case .viewer: self = .viewer
        }
    }

    var wire: Components.Schemas.Role {
        switch self {
        case .owner: .owner
        case .admin: .admin
        case .member: .member
        case .viewer: .viewer
        }
    }
}

extension Group {
    init(_ wire: Components.Schemas.Group) {
        self.init(
            id: wire.id, name: wire.name, description: wire.description, homeCurrency: wire.homeCurrency,
            timeZone: wire.timeZone, ownerId: wire.ownerId, inviteCode: wire.inviteCode, isArchived: wire.isArchived,
            myMemberId: wire.myMemberId, myRole: Role(wire.myRole), version: wire.version, createdAt: wire.createdAt,
            updatedAt: wire.updatedAt)
    }
}

extension Member {
    init(_ wire: Components.Schemas.Member) {
        self.init(
            id: wire.id, groupId: wire.groupId, userId: wire.userId, name: wire.name, role: Role(wire.role),
            canAddExpenses: wire.canAddExpenses, canEditOwnExpenses: wire.canEditOwnExpenses,
            canEditAllExpenses: wire.canEditAllExpenses, canMarkPaid: wire.canMarkPaid, active: wire.active,
            leftThemselves: wire.leftThemselves, version: wire.version, updatedAt: wire.updatedAt)
    }
}

// MARK: Expenses

extension NewExpense {
    var wire: Components.Schemas.CreateExpenseRequest {
        .init(
            id: id, groupId: groupId, description: description, amount: amount, currency: currency,
            category: category, expenseDate: expenseDate, paidBy: paidBy?.map(\.wire), paidByMemberId: paidByMemberId,
            split: split?.wire, splits: splits?.map(\.wire), homeAmount: homeAmount)
    }
}

extension ExpenseChanges {
    var wire: Components.Schemas.UpdateExpenseRequest {
        .init(
            description: description, amount: amount, currency: currency, category: category,
            expenseDate: expenseDate, paidBy: paidBy?.map(\.wire), paidByMemberId: paidByMemberId, split: split?.wire,
            splits: splits?.map(\.wire), homeAmount: homeAmount, confirmRemovedShares: confirmRemovedShares,
            version: version)
    }
}

extension ExpenseShare {
    init(_ wire: Components.Schemas.ExpenseShare) {
        self.init(
            id: wire.id, memberId: wire.memberId, amount: wire.amount, isPaid: wire.isPaid, paidAt: wire.paidAt,
            nothingToPay: wire.nothingToPay ?? false)
    }
}

extension Expense {
    init(_ wire: Components.Schemas.Expense) {
        self.init(
            id: wire.id, groupId: wire.groupId, description: wire.description, amount: wire.amount,
            currency: wire.currency, category: wire.category, categoryName: wire.categoryName,
            expenseDate: wire.expenseDate, createdByUserId: wire.createdByUserId,
            payers: wire.payers.map(MemberAmount.init), splits: wire.splits.map(ExpenseShare.init),
            split: EnteredSplit(wire: wire.split), homeAmount: wire.homeAmount, version: wire.version,
            createdAt: wire.createdAt, updatedAt: wire.updatedAt, isDeleted: wire.isDeleted)
    }
}

extension HistoryEntry.Action {
    init(_ wire: Components.Schemas.HistoryEntry.ActionPayload) {
        switch wire {
        case .markedPaid: self = .markedPaid
        case .markedUnpaid: self = .markedUnpaid
        }
    }
}

extension HistoryEntry {
    init(_ wire: Components.Schemas.HistoryEntry) {
        self.init(
            id: wire.id, expenseSplitId: wire.expenseSplitId, action: Action(wire.action),
            performedByUserId: wire.performedByUserId, performedByName: wire.performedByName,
            performedAt: wire.performedAt, reason: wire.reason, ipAddress: wire.ipAddress,
            deviceInfo: wire.deviceInfo)
    }
}

// MARK: Money

extension Balance {
    init(_ wire: Components.Schemas.Balance) {
        self.init(memberId: wire.memberId, currency: wire.currency, net: wire.net)
    }
}

extension GroupBalances {
    init(_ wire: Components.Schemas.BalancesResponse) {
        self.init(
            balances: wire.balances.map(Balance.init), homeCurrency: wire.homeCurrency,
            home: wire.home?.map(Balance.init), missingRates: wire.missingRates,
            homeChargedExpenses: wire.homeChargedExpenses, settleInHome: wire.settleInHome)
    }
}

extension PlannedTransfer {
    init(_ wire: Components.Schemas.PlannedTransfer) {
        self.init(
            fromMemberId: wire.fromMemberId, toMemberId: wire.toMemberId, amount: wire.amount, currency: wire.currency)
    }
}

extension Settlement {
    init(_ wire: Components.Schemas.Settlement) {
        self.init(
            id: wire.id, groupId: wire.groupId, fromMemberId: wire.fromMemberId, toMemberId: wire.toMemberId,
            amount: wire.amount, currency: wire.currency, date: wire.date, note: wire.note,
            expenseSplitId: wire.expenseSplitId, createdByUserId: wire.createdByUserId, isDeleted: wire.isDeleted,
            version: wire.version, createdAt: wire.createdAt)
    }
}

extension NewSettlement {
    var wire: Components.Schemas.CreateSettlementRequest {
        .init(
            id: id, fromMemberId: fromMemberId, toMemberId: toMemberId, amount: amount, currency: currency, date: date,
            note: note)
    }
}

// MARK: Activity and the change feed

extension ActivityEntry {
    init(_ wire: Components.Schemas.ActivityEntry) {
        self.init(
            id: wire.id, action: wire.action, actorUserId: wire.actorUserId, actorName: wire.actorName,
            entity: wire.entity, entityId: wire.entityId, summary: wire.summary, at: wire.at)
    }
}

extension Category {
    init(_ wire: Components.Schemas.Category) {
        self.init(
            id: wire.id, name: wire.name, icon: wire.icon, color: wire.color, isDefault: wire.isDefault,
            position: wire.position, version: wire.version)
    }
}

extension Tombstone.Entity {
    init(_ wire: Components.Schemas.Tombstone.EntityPayload) {
        switch wire {
        case .expense: self = .expense
        case .settlement: self = .settlement
        case .member: self = .member
        case .category: self = .category
        }
    }
}

extension Tombstone {
    init(_ wire: Components.Schemas.Tombstone) {
        self.init(entity: Entity(wire.entity), id: wire.id)
    }
}

extension Changes {
    init(_ wire: Components.Schemas.ChangesResponse) {
        self.init(
            cursor: wire.cursor, hasMore: wire.hasMore, group: wire.group.map(Group.init),
            expenses: wire.expenses.map(Expense.init), settlements: wire.settlements.map(Settlement.init),
            members: wire.members.map(Member.init), categories: wire.categories.map(Category.init),
            deleted: wire.deleted.map(Tombstone.init))
    }
}

// MARK: The notification inbox

extension InboxItem {
    init(_ wire: Components.Schemas.Notification) {
        self.init(
            id: wire.id, groupId: wire.groupId, groupName: wire.groupName, action: wire.action,
            actorName: wire.actorName, entity: wire.entity, entityId: wire.entityId, summary: wire.summary, at: wire.at,
            isRead: wire.read)
    }
}

extension NotificationPage {
    init(_ wire: Components.Schemas.NotificationList) {
        self.init(items: wire.notifications.map(InboxItem.init), unread: wire.unread, nextCursor: wire.nextCursor)
    }
}

extension EmailSettings {
    init(_ wire: Components.Schemas.EmailSettings) {
        self.init(
            email: wire.email, verified: wire.verified, sending: wire.sending,
            mode: EmailMode(rawValue: wire.mode.rawValue) ?? .each,
            off: Set(wire.off.compactMap { MailKind(rawValue: $0.rawValue) }), digestHour: wire.digestHour)
    }
}

extension NotificationLevel {
    init(_ wire: Components.Schemas.NotificationSettings.LevelPayload) {
        switch wire {
        case .all: self = .all
        case .mine: self = .mine
        case .none: self = .none
        }
    }

    var wire: Components.Schemas.NotificationSettings.LevelPayload {
        switch self {
        case .all: .all
        case .mine: .mine
        case .none: .none
        }
    }
}

// MARK: Webhooks

extension Webhook {
    init(_ wire: Components.Schemas.Webhook) {
        self.init(
            id: wire.id, groupId: wire.groupId, url: wire.url, kinds: wire.kinds, enabled: wire.enabled,
            disabledReason: wire.disabledReason, failingSince: wire.failingSince, lastSuccessAt: wire.lastSuccessAt,
            createdAt: wire.createdAt)
    }
}

extension WebhookDelivery {
    init(_ wire: Components.Schemas.WebhookDelivery) {
        self.init(
            id: wire.id, webhookId: wire.webhookId, type: wire._type, state: State(rawValue: wire.state.rawValue) ?? .pending,
            attempts: wire.attempts, lastStatus: wire.lastStatus, lastError: wire.lastError, createdAt: wire.createdAt,
            lastAttemptAt: wire.lastAttemptAt, finishedAt: wire.finishedAt)
    }
}

extension ExchangeRateEntry {
    init(_ wire: Components.Schemas.Rate) {
        self.init(
            fromCurrency: wire.fromCurrency, toCurrency: wire.toCurrency, date: wire.date, rate: wire.rate,
            counts: wire.counts)
    }
}
