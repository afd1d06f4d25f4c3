import Foundation
import SQLKit
import SplitCore

/// The bounds that keep every sum of a group's money inside Int64 (issue 14): each amount is at
/// most 10^13 minor units (`MoneyInput`), each member's net and each pair's debt in a currency at
/// most `balance` (checked by `Ledger.apply` on every write), and a group holds at most
/// `membersPerGroup` members, so all of a group's nets or debts add up to at most 2 · 10^17.
public enum GroupBounds {
    /// 10^15 minor units either way: 10 trillion USD, 1 quadrillion JPY.
    public static let balance: Int64 = 1_000_000_000_000_000
    /// Members of one group, active or not.
    public static let membersPerGroup = 200
    /// Groups one account is an active member of (issue 14 item 10): creating or joining one more
    /// is refused. Not a money bound, but the same kind of ceiling on what one account can pile up.
    public static let groupsPerUser = 500
}

/// The running ledger, changed in the same transaction as the write that moves it, so a read
/// costs the same at any number of expenses: each member's net per currency (DESIGN §3: net =
/// paid − owed + sent − received), and who owes whom, pair by pair (the "don't simplify" view,
/// SplitCore's `PairwiseDebts`).
enum Ledger {
    /// What one write (or its undoing) moves, in one currency.
    struct Effect {
        var currency: String
        /// Minor units to add to each member's net.
        var nets: [UUID: Int64] = [:]
        /// Debts to add, pair by pair (a negative amount takes one back).
        var debts: [PlannedTransfer] = []
    }

    /// An expense's effect: +paid for payers, −owed for shares, and the debts of its shares to
    /// its payers; `sign` −1 takes it back.
    static func effect(of expense: ExpenseRecord, sign: Int64) -> Effect {
        var effect = Effect(currency: expense.currency)
        for payer in expense.payers { effect.nets[payer.memberID, default: 0] += sign * payer.amount }
        for share in expense.liveShares { effect.nets[share.memberID, default: 0] -= sign * share.amount }
        effect.debts = PairwiseDebts.debts(
            owed: expense.liveShares.map { MemberAmount(MemberID($0.memberID), $0.amount) },
            paid: expense.payers.map { MemberAmount(MemberID($0.memberID), $0.amount) }
        ).map { PlannedTransfer(from: $0.from, to: $0.to, amount: sign * $0.amount) }
        return effect
    }

    /// A transfer's effect: +amount for the sender, −amount for the receiver; it pays down what
    /// the sender owed the receiver.
    static func effect(of settlement: SettlementRecord, sign: Int64) -> Effect {
        Effect(
            currency: settlement.currency,
            nets: [
                settlement.fromMemberID: sign * settlement.amount, settlement.toMemberID: -sign * settlement.amount,
            ],
            debts: [
                PlannedTransfer(
                    from: MemberID(settlement.toMemberID), to: MemberID(settlement.fromMemberID),
                    amount: sign * settlement.amount)
            ])
    }

    /// The movement of many writes at once (an import, a batch of recurring expenses), one
    /// effect per currency.
    static func effects(expenses: [ExpenseRecord], settlements: [SettlementRecord] = []) -> [Effect] {
        merged(expenses.map { effect(of: $0, sign: 1) } + settlements.map { effect(of: $0, sign: 1) })
    }

    /// Effects added up, one per currency (so that each ledger row is written once).
    static func merged(_ effects: [Effect]) -> [Effect] {
        var byCurrency: [String: Effect] = [:]
        for effect in effects {
            var total = byCurrency[effect.currency] ?? Effect(currency: effect.currency)
            for (member, amount) in effect.nets { total.nets[member, default: 0] += amount }
            total.debts += effect.debts
            byCurrency[effect.currency] = total
        }
        return byCurrency.keys.sorted().map { byCurrency[$0]! }
    }

    /// Adds an effect to the ledger: one statement for the nets and one for the pairs, each row
    /// hit once, in key order.
    ///
    /// Refuses (`WriteRefusal.ledgerBound`, the transaction then rolls back) a write that would
    /// take a member's net or a pair's debt past `GroupBounds.balance`: every amount is at most
    /// 10^13 minor units, so the stored sum it lands on cannot overflow first.
    static func apply(_ effect: Effect, groupID: UUID, _ sql: any SQLDatabase) async throws {
        var batch = WriteBatch()
        let written = write(effect, groupID: groupID, into: &batch)
        try written.check(try await batch.run(on: sql))
    }

    /// `apply`'s statements, added to `batch`; what it returns checks the bounds on the batch's
    /// result. A batch holds one effect on a group's ledger at most: two could hit the same row.
    static func write(_ effect: Effect, groupID: UUID, into batch: inout WriteBatch) -> Written {
        let nets = effect.nets.filter { $0.value != 0 }.sorted { $0.key.sortsBefore($1.key) }
        var parts = MultiRowInsert.statements(
            "INSERT INTO balances (group_id, member_id, currency, net)",
            nets.map { [groupID.text, $0.key.text, effect.currency, $0.value] },
            then: "ON CONFLICT (group_id, member_id, currency) DO UPDATE SET net = balances.net + excluded.net"
                + " RETURNING CAST(net AS TEXT) AS value"
        ).map { batch.addReturning($0) }
        // Each pair once, lower id first, signed: what the lower owes the higher.
        var pairs: [Pair: Int64] = [:]
        for debt in effect.debts {
            let (from, to) = (debt.from.uuid.text, debt.to.uuid.text)
            if from < to {
                pairs[Pair(lower: from, higher: to), default: 0] += debt.amount
            } else {
                pairs[Pair(lower: to, higher: from), default: 0] -= debt.amount
            }
        }
        let rows = pairs.filter { $0.value != 0 }.sorted {
            ($0.key.lower, $0.key.higher) < ($1.key.lower, $1.key.higher)
        }
        parts += MultiRowInsert.statements(
            "INSERT INTO pair_debts (group_id, currency, lower_member_id, higher_member_id, owed)",
            rows.map { [groupID.text, effect.currency, $0.key.lower, $0.key.higher, $0.value] },
            then: "ON CONFLICT (group_id, currency, lower_member_id, higher_member_id)"
                + " DO UPDATE SET owed = pair_debts.owed + excluded.owed RETURNING CAST(owed AS TEXT) AS value"
        ).map { batch.addReturning($0) }
        return Written(currency: effect.currency, parts: parts)
    }

    /// The ledger's writes in a `WriteBatch`, to check what they returned.
    struct Written {
        let currency: String
        let parts: [Int]

        /// Each net and pair's debt as the writes left it, against `GroupBounds.balance`.
        func check(_ values: [[String]]) throws {
            for part in parts {
                for value in values[part] {
                    guard let total = Int64(value), (-GroupBounds.balance...GroupBounds.balance).contains(total) else {
                        throw WriteRefusal.ledgerBound(currency: currency)
                    }
                }
            }
        }
    }

    private struct Pair: Hashable {
        let lower: String
        let higher: String
    }

    /// Every group's pairwise ledger worked out from its expenses and transfers (migrations 0006
    /// and 0031; the table is empty before).
    @Sendable static func fillPairDebts(_ sql: any SQLDatabase) async throws {
        for row in try await sql.raw("SELECT id FROM groups").all() {
            let groupID = try row.decodeUUID("id")
            for effect in try await recomputedDebts(groupID: groupID, sql) {
                try await apply(effect, groupID: groupID, sql)
            }
        }
    }

    /// The pairwise debts computed from every live expense and settlement of a group: what the
    /// ledger must hold (tests prove it does), and how migrations 0006 and 0031 fill it in.
    static func recomputedDebts(groupID: UUID, _ sql: any SQLDatabase) async throws -> [Effect] {
        let group = groupID.text
        let expenses = try await sql.raw(
            "SELECT id, currency FROM expenses WHERE group_id = \(bind: group) AND is_deleted = \(bind: false)"
        ).all()
        let payers = try await sql.raw(
            """
            SELECT p.expense_id, p.member_id, p.amount FROM expense_payers p JOIN expenses e ON e.id = p.expense_id
            WHERE e.group_id = \(bind: group) AND e.is_deleted = \(bind: false)
            """
        ).all()
        let shares = try await sql.raw(
            """
            SELECT s.expense_id, s.member_id, s.amount FROM expense_splits s JOIN expenses e ON e.id = s.expense_id
            WHERE e.group_id = \(bind: group) AND e.is_deleted = \(bind: false) AND s.is_removed = \(bind: false)
            """
        ).all()
        let settlements = try await sql.raw(
            """
            SELECT from_member_id, to_member_id, amount, currency FROM settlements
            WHERE group_id = \(bind: group) AND is_deleted = \(bind: false)
            """
        ).all()
        func amounts(_ rows: [any SQLRow]) throws -> [UUID: [MemberAmount]] {
            var result: [UUID: [MemberAmount]] = [:]
            for row in rows {
                result[try row.decodeUUID("expense_id"), default: []].append(
                    MemberAmount(
                        MemberID(try row.decodeUUID("member_id")), try row.decode(column: "amount", as: Int64.self)))
            }
            return result
        }
        let paid = try amounts(payers)
        let owed = try amounts(shares)
        var effects: [String: Effect] = [:]
        for row in expenses {
            let id = try row.decodeUUID("id")
            let currency = try row.decode(column: "currency", as: String.self)
            effects[currency, default: Effect(currency: currency)].debts += PairwiseDebts.debts(
                owed: owed[id] ?? [], paid: paid[id] ?? [])
        }
        for row in settlements {
            let currency = try row.decode(column: "currency", as: String.self)
            effects[currency, default: Effect(currency: currency)].debts.append(
                PlannedTransfer(
                    from: MemberID(try row.decodeUUID("to_member_id")),
                    to: MemberID(try row.decodeUUID("from_member_id")),
                    amount: try row.decode(column: "amount", as: Int64.self)))
        }
        return effects.values.sorted { $0.currency < $1.currency }
    }
}

public struct BalanceRecord: Sendable, Equatable, Hashable {
    public var memberID: UUID
    public var currency: String
    public var net: Int64

    public init(memberID: UUID, currency: String, net: Int64) {
        self.memberID = memberID
        self.currency = currency
        self.net = net
    }
}

/// Balances and pairwise debts as the ledger keeps them, and recomputed from the rows (for the
/// property tests and migration 0006): plain functions over the database (STYLE §8).
public struct BalanceStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    /// Every currency the group's money has been in: its expenses' and transfers', deleted ones
    /// too (not the ledger's rows: an expense its one payer alone shares writes none).
    public func currencies(groupID: UUID) async throws -> Set<String> {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT DISTINCT currency FROM expenses WHERE group_id = \(bind: groupID.text)
                UNION SELECT DISTINCT currency FROM settlements WHERE group_id = \(bind: groupID.text)
                """
            ).all()
        }.reduce(into: []) { $0.insert(try $1.decode(column: "currency", as: String.self)) }
    }

    /// The ledger's non-zero nets, by currency then member.
    public func balances(groupID: UUID) async throws -> [BalanceRecord] {
        try await database.read { sql in
            try await sql.raw(
                """
                SELECT member_id, currency, net FROM balances
                WHERE group_id = \(bind: groupID.text) AND net <> 0
                """
            ).all()
        }.map {
            BalanceRecord(
                memberID: try $0.decodeUUID("member_id"), currency: try $0.decode(column: "currency", as: String.self),
                net: try $0.decode(column: "net", as: Int64.self))
        }.sorted { ($0.currency, $0.memberID.text) < ($1.currency, $1.memberID.text) }
    }

    /// Who owes whom, pair by pair, netted per pair and currency, from the ledger.
    public func pairwiseDebts(groupID: UUID) async throws -> PairwiseDebts {
        let rows = try await database.read { sql in
            try await sql.raw(
                """
                SELECT currency, lower_member_id, higher_member_id, owed FROM pair_debts
                WHERE group_id = \(bind: groupID.text) AND owed <> 0
                """
            ).all()
        }
        var debts = PairwiseDebts()
        for row in rows {
            try debts.add(
                [
                    PlannedTransfer(
                        from: MemberID(try row.decodeUUID("lower_member_id")),
                        to: MemberID(try row.decodeUUID("higher_member_id")),
                        amount: try row.decode(column: "owed", as: Int64.self))
                ], in: try Currency(code: try row.decode(column: "currency", as: String.self)))
        }
        return debts
    }

    /// The same debts computed from every live expense and settlement (tests prove the ledger
    /// right with it).
    public func recomputedPairwiseDebts(groupID: UUID) async throws -> PairwiseDebts {
        let effects = try await database.read { sql in try await Ledger.recomputedDebts(groupID: groupID, sql) }
        var debts = PairwiseDebts()
        for effect in effects { try debts.add(effect.debts, in: try Currency(code: effect.currency)) }
        return debts
    }

    /// The same nets computed from every live expense and settlement, for tests that prove the
    /// ledger right (and for repairing one, should that ever be needed).
    public func recomputedBalances(groupID: UUID) async throws -> [BalanceRecord] {
        let rows = try await database.read { sql in
            try await sql.raw(
                """
                SELECT p.member_id AS member_id, e.currency AS currency, CAST(SUM(p.amount) AS BIGINT) AS net
                FROM expense_payers p JOIN expenses e ON e.id = p.expense_id
                WHERE e.group_id = \(bind: groupID.text) AND e.is_deleted = \(bind: false)
                GROUP BY p.member_id, e.currency
                UNION ALL
                SELECT s.member_id, e.currency, CAST(-SUM(s.amount) AS BIGINT)
                FROM expense_splits s JOIN expenses e ON e.id = s.expense_id
                WHERE e.group_id = \(bind: groupID.text) AND e.is_deleted = \(bind: false) AND s.is_removed = \(bind: false)
                GROUP BY s.member_id, e.currency
                UNION ALL
                SELECT from_member_id, currency, CAST(SUM(amount) AS BIGINT) FROM settlements
                WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false) GROUP BY from_member_id, currency
                UNION ALL
                SELECT to_member_id, currency, CAST(-SUM(amount) AS BIGINT) FROM settlements
                WHERE group_id = \(bind: groupID.text) AND is_deleted = \(bind: false) GROUP BY to_member_id, currency
                """
            ).all()
        }
        var nets: [BalanceRecord: Int64] = [:]
        for row in rows {
            let key = BalanceRecord(
                memberID: try row.decodeUUID("member_id"),
                currency: try row.decode(column: "currency", as: String.self),
                net: 0)
            nets[key, default: 0] += try row.decode(column: "net", as: Int64.self)
        }
        return nets.filter { $0.value != 0 }.map {
            BalanceRecord(memberID: $0.key.memberID, currency: $0.key.currency, net: $0.value)
        }
        .sorted { ($0.currency, $0.memberID.text) < ($1.currency, $1.memberID.text) }
    }
}
