import Foundation
import SplitCore

/// Balances and settle-up plans computed on the device from the offline copy, with the same
/// SplitCore rules the server uses (DESIGN §3, §8), so they match what the server would say
/// for the same expenses and transfers.
public enum LocalLedger {
    /// Each member's non-zero net per currency (paid − owed + sent − received), by currency then
    /// member id, as the server lists them. Deleted expenses and settlements do not count.
    public static func balances(
        expenses: some Sequence<Expense>, settlements: some Sequence<Settlement>
    ) throws -> [Balance] {
        var balances = Balances()
        for expense in expenses where !expense.isDeleted {
            let currency = try Currency(code: expense.currency)
            // The shares are already computed by the server; as exact amounts they add as they are.
            // A refund's amounts are below zero, as the server keeps them.
            let split = try ExpenseSplit.compute(
                total: try Money(parsing: expense.amount, currency: currency, allowNegative: true),
                payers: try expense.payers.map { try amount($0.memberId, $0.amount, currency) },
                rule: .exact(try expense.splits.map { try amount($0.memberId, $0.amount, currency) }),
                tieBreak: TieBreak(seed: expense.id))
            try balances.add(split)
        }
        for settlement in settlements where !settlement.isDeleted {
            try balances.add(
                Transfer(
                    from: try member(settlement.fromMemberId), to: try member(settlement.toMemberId),
                    amount: try Money(parsing: settlement.amount, currency: try Currency(code: settlement.currency))))
        }
        return balances.entries.map {
            Balance(memberId: $0.memberID.description, currency: $0.net.currency.code, net: $0.net.decimalString)
        }.sorted { ($0.currency, $0.memberId) < ($1.currency, $1.memberId) }
    }

    /// The fewest transfers that bring one currency's nets to zero.
    public static func plan(_ balances: [Balance], currency code: String) throws -> [PlannedTransfer] {
        let currency = try Currency(code: code)
        var nets: [MemberID: Int64] = [:]
        for balance in balances where balance.currency == currency.code {
            nets[try member(balance.memberId)] =
                try Money(parsing: balance.net, currency: currency, allowNegative: true).minorUnits
        }
        return try SettlementPlan.plan(nets).map {
            PlannedTransfer(
                fromMemberId: $0.from.description, toMemberId: $0.to.description,
                amount: Money(minorUnits: $0.amount, currency: currency).decimalString, currency: currency.code)
        }
    }

    private static func member(_ id: String) throws -> MemberID {
        guard let member = MemberID(uuidString: id) else { throw LocalLedgerError.badMemberID(id) }
        return member
    }

    private static func amount(_ memberID: String, _ text: String, _ currency: Currency) throws
        -> SplitCore.MemberAmount
    {
        SplitCore.MemberAmount(
            try member(memberID), try Money(parsing: text, currency: currency, allowNegative: true).minorUnits)
    }
}

public enum LocalLedgerError: Error, Equatable, CustomStringConvertible {
    case badMemberID(String)

    public var description: String {
        switch self {
        case .badMemberID(let id): "The offline copy has a member id that is not a UUID: \(id)"
        }
    }
}
