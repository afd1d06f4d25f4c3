import Foundation
import SplitCore
import SplitStore

/// Why a use case refused, in the domain's words (STYLE §15): what was wrong and with which
/// field, never an HTTP status. The server maps each case to the API's error envelope in one
/// place (`APIError(_: AppError)`); the web shows the same message next to the field.
public enum AppError: Error, Sendable, Equatable {
    /// Unknown, malformed, or not the caller's to see (DESIGN §4: another group's object is
    /// exactly as unknown as one that does not exist). `what` names it: "group", "expense", "share".
    case notFound(String)
    /// Not found, said more precisely than "No such …" (still exactly one answer for every
    /// unknown thing of its kind).
    case notFoundBecause(String)
    /// The caller's role or flags do not allow the action.
    case forbidden
    /// Not allowed, for a reason more particular than the role (said in `message`).
    case forbiddenBecause(String)
    /// The group is archived; its owner can bring it back.
    case archived
    /// An input was wrong; `field` is the request's name for it ("split.amounts[1].amount").
    case invalid(field: String, message: String)
    /// Several inputs were wrong, each said once, in the order the request lists them (issue 15:
    /// a form reports everything that is wrong in one pass). Never fewer than two.
    case invalidFields([FieldProblem])
    /// The write clashes with what is stored (an id in use, a deleted expense).
    case conflict(code: String, field: String?, message: String)
    /// An edit did not say which version it was based on (`message` says how to).
    case versionRequired(String)
    /// An edit or delete based on an older version of the expense; nothing was written.
    case staleExpense(ExpenseView)
    /// An edit of a category based on an older version; nothing was written.
    case staleCategory(CategoryRecord)
    /// An edit of a group based on an older version; nothing was written.
    case staleGroup(GroupView)
    /// An edit of a member based on an older version; nothing was written.
    case staleMember(MemberRecord)
    /// A recurring expense changed since the version the change was based on.
    case staleSeries(SeriesView)
    /// An Idempotency-Key sent again with another request.
    case idempotencyKeyReused
    /// The request itself is malformed (a header that cannot be read), not its content.
    case badRequest(String)
    /// Too many attempts inside a limit's window; try again after this many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// A login refused by any of its limits (failed attempts, or an account's successful logins
    /// within the hour): one answer for all, which neither says whether the account exists nor
    /// whether the password was right, with the way for scripts.
    case loginsLimited(retryAfterSeconds: Int)
    /// A login that did not match an active account: the same answer for an unknown account and
    /// a wrong password (DESIGN §4).
    case invalidCredentials
    /// The operator closed registration.
    case registrationClosed

    /// One wrong input: the request's name for it and what is wrong, in a plain sentence.
    public struct FieldProblem: Sendable, Equatable {
        public let field: String
        public let message: String

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// Every wrong input this refusal names (empty for refusals that are not about input).
    public var fieldProblems: [FieldProblem] {
        switch self {
        case .invalid(let field, let message): [FieldProblem(field: field, message: message)]
        case .invalidFields(let problems): problems
        default: []
        }
    }

    /// What `GroupLog.begin` found when it decided the write again inside its transaction: the
    /// same answers the early check gives.
    public init(_ refusal: WriteRefusal) {
        switch refusal {
        case .notFound: self = .notFound("group")
        case .forbidden: self = .forbidden
        case .archived: self = .archived
        case .inactiveMember(let id):
            // Removed while the write ran (the use case saw them active); no id in the message.
            _ = id
            self = .invalid(
                field: "memberId",
                message: "Someone in this expense was removed from the group meanwhile; reload and try again.")
        case .groupFull:
            self = .invalid(
                field: "group",
                message: "This group has \(GroupBounds.membersPerGroup) members, the most one group holds.")
        case .tooManyGroups:
            self = .invalid(
                field: "group",
                message: "You are in \(GroupBounds.groupsPerUser) groups, the most one account may be in.")
        case .ledgerBound(let code):
            let most = (try? Currency(code: code)).map {
                Money(minorUnits: GroupBounds.balance, currency: $0).decimalString + " " + code
            }
            self = .invalid(
                field: "amount",
                message: "This would take a balance in \(code) past the most one group holds"
                    + " (\(most ?? String(GroupBounds.balance)) per member). Record it in another group.")
        }
    }
}
