import SplitCore

// The API's split object ⇄ SplitCore's entered split, written once for the server (reading a
// request) and the SDK (sending one, reading an answer). Modes are mapped case by case, so a mode
// added to the spec is a compile error here rather than a value silently read as another.

extension EnteredSplit.Mode {
    public init(wire: Components.Schemas.SplitInput.ModePayload) {
        switch wire {
        case .equal: self = .equal
        case .exact: self = .exact
        case .percent: self = .percent
        case .shares: self = .shares
        case .adjustment: self = .adjustment
        case .itemized: self = .itemized
        }
    }

    public var wire: Components.Schemas.SplitInput.ModePayload {
        switch self {
        case .equal: .equal
        case .exact: .exact
        case .percent: .percent
        case .shares: .shares
        case .adjustment: .adjustment
        case .itemized: .itemized
        }
    }
}

extension EnteredSplit {
    public init(wire: Components.Schemas.SplitInput) {
        self.init(
            mode: Mode(wire: wire.mode), memberIds: wire.memberIds, amounts: wire.amounts?.map(EnteredAmount.init),
            percents: wire.percents?.map { EnteredPercent(memberId: $0.memberId, value: $0.percent) },
            shares: wire.shares?.map { EnteredShares(memberId: $0.memberId, value: $0.shares) },
            adjustments: wire.adjustments?.map(EnteredAmount.init),
            items: wire.items?.map {
                Item(description: $0.description, amount: $0.amount, split: EnteredSplit(wire: $0.split))
            },
            extras: wire.extras?.map { Extra(description: $0.description, amount: $0.amount) })
    }

    public var wire: Components.Schemas.SplitInput {
        .init(
            mode: mode.wire, memberIds: memberIds, amounts: amounts?.map(\.wire),
            percents: percents?.map { .init(memberId: $0.memberId, percent: $0.value) },
            shares: shares?.map { .init(memberId: $0.memberId, shares: $0.value) },
            adjustments: adjustments?.map(\.wire),
            items: items?.map { .init(description: $0.description, amount: $0.amount, split: $0.split.wire) },
            extras: extras?.map { .init(description: $0.description, amount: $0.amount) })
    }
}

extension MemberEntry where Kind == AmountEntry {
    public init(_ wire: Components.Schemas.MemberAmount) {
        self.init(memberId: wire.memberId, value: wire.amount)
    }

    public var wire: Components.Schemas.MemberAmount { .init(memberId: memberId, amount: value) }
}
