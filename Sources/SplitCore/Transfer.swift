/// Money that moved from one member to another: a recorded settlement, or the transfer recorded
/// when a share is marked paid (DESIGN §3). First-class, never silently erased.
public struct Transfer: Hashable, Sendable {
    public let from: MemberID
    public let to: MemberID
    public let amount: Money

    /// - Throws: when the amount is not positive or both sides are the same member.
    public init(from: MemberID, to: MemberID, amount: Money) throws(TransferError) {
        guard from != to else { throw .sameMember(from) }
        guard amount.isPositive else { throw .amountNotPositive(amount) }
        self.from = from
        self.to = to
        self.amount = amount
    }
}

public enum TransferError: Error, Hashable, Sendable, CustomStringConvertible {
    case sameMember(MemberID)
    case amountNotPositive(Money)

    /// The request field at fault.
    public var field: String {
        switch self {
        case .sameMember: "toMemberId"
        case .amountNotPositive: "amount"
        }
    }

    public var description: String {
        switch self {
        case .sameMember(let member): "member \(member) cannot pay themselves"
        case .amountNotPositive(let amount): "a transfer must be more than zero, got \(amount)"
        }
    }
}
