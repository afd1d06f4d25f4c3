import Foundation

/// Identifies a member of a group (a person with or without an account).
///
/// Ordered by the bytes of the UUID, which is the order of the lower-case UUID text: the order
/// the database sorts in, so plans and tie-breaks are the same in SQL and in Swift.
public struct MemberID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    public init?(uuidString: String) {
        guard let uuid = UUID(text: uuidString) else { return nil }
        self.uuid = uuid
    }

    public static func < (lhs: MemberID, rhs: MemberID) -> Bool {
        // Byte order is the numeric order of the two halves read big-endian.
        let (left, right) = (lhs.words, rhs.words)
        return (UInt64(bigEndian: left.0), UInt64(bigEndian: left.1)) < (
            UInt64(bigEndian: right.0), UInt64(bigEndian: right.1)
        )
    }

    // Hashing and equality on two 64-bit words: balances hash a member id per update, and this
    // is several times faster than hashing the UUID byte by byte.
    public static func == (lhs: MemberID, rhs: MemberID) -> Bool { lhs.words == rhs.words }

    public func hash(into hasher: inout Hasher) {
        let (high, low) = words
        hasher.combine(high)
        hasher.combine(low)
    }

    private var words: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid.uuid) {
            ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// Lower-case UUID text, the one encoding we store and send.
    public var description: String { uuid.text }
}

/// An amount in minor units attributed to one member: a payer's payment or an owed share.
public struct MemberAmount: Hashable, Sendable {
    public let memberID: MemberID
    public let amount: Int64

    public init(_ memberID: MemberID, _ amount: Int64) {
        self.memberID = memberID
        self.amount = amount
    }

    /// The opposite amount (wrapping at Int64.min, which no checked amount reaches).
    public var negated: MemberAmount { MemberAmount(memberID, 0 &- amount) }
}

/// A decimal attributed to one member: a percentage or a number of shares.
public struct MemberDecimal: Hashable, Sendable {
    public let memberID: MemberID
    public let value: DecimalValue

    public init(_ memberID: MemberID, _ value: DecimalValue) {
        self.memberID = memberID
        self.value = value
    }
}

/// A member's name where people are listed: marked once they are no longer in the group, by how
/// they went ("Ben (left)", "Cho (removed)"), so one gone is told from a new member of the same
/// name, and one who left is not said to have been removed (found by a new user).
public enum MemberLabel {
    public static func name(_ name: String, active: Bool, left: Bool) -> String {
        active ? name : "\(name) (\(left ? "left" : "removed"))"
    }
}
