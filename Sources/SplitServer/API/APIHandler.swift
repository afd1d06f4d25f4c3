import Foundation
import HTTPTypes
import Logging
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Implements the generated `APIProtocol`, one file per feature: each operation decodes, calls
/// one SplitApp use case and maps the result to the wire type (STYLE §8). Domain errors become the error envelope in
/// `ErrorEnvelopeMiddleware`, through `APIError(_: AppError)`.
struct APIHandler: APIProtocol {
    let database: Database
    let accountUseCases: AccountUseCases
    let expenseUseCases: ExpenseUseCases
    let ledgerUseCases: LedgerUseCases
    let paymentRequestUseCases: PaymentRequestUseCases
    let summaryUseCases: SummaryUseCases
    let budgetUseCases: BudgetUseCases
    let recurringUseCases: RecurringUseCases
    let quickEntryUseCases: QuickEntryUseCases
    let accessTokenUseCases: AccessTokenUseCases
    let conversationUseCases: ConversationUseCases
    let payDetailsUseCases: PayDetailsUseCases
    let categoryUseCases: CategoryUseCases
    let groupUseCases: GroupUseCases
    let memberUseCases: MemberUseCases
    let feedUseCases: FeedUseCases
    let liveUseCases: LiveUseCases
    let notificationUseCases: NotificationUseCases
    let webhookUseCases: WebhookUseCases
    let mailUseCases: MailUseCases
    let importUseCases: ImportUseCases
    let exportUseCases: ExportUseCases
    let configuration: ServerConfiguration
    let now: @Sendable () -> Int64

    var request: RequestInfo {
        get throws {
            guard let info = RequestInfo.current else {
                throw APIError.internalError  // every route runs under RequestInfoMiddleware
            }
            return info
        }
    }

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        let health = Components.Schemas.Health(
            status: try await isHealthy() ? .ok : .unavailable, database: database.backend.rawValue)
        return health.status == .ok ? .ok(.init(body: .json(health))) : .serviceUnavailable(.init(body: .json(health)))
    }

    /// Whether the database answers (`Database.ping`); a failure is logged.
    func isHealthy() async throws -> Bool {
        do {
            try await database.ping()
            return true
        } catch {
            try request.logger.error("health check failed", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
    }
}

extension APIHandler {
    /// The caller the request's middleware resolved from its bearer token (or the web's session
    /// cookie), or a 401 with `WWW-Authenticate` (never a 403: an expired or revoked token means
    /// "log in again", DESIGN §5). Asked where the operation needs it, so errors come in the
    /// same order as before; the session is looked up once per request whatever asks.
    func authenticate() async throws -> Caller {
        switch try request.caller {
        case .anonymous: throw APIError.unauthenticated(invalidToken: false)
        case .invalid: throw APIError.unauthenticated(invalidToken: true)
        case .signedIn(let caller): return caller
        }
    }

    /// The wire value of a create's outcome: the stored response on a replay, a 422 when the key
    /// came with another body.
    static func response<T: Decodable>(_ outcome: IdempotencyOutcome<some Sendable>, as type: T.Type) throws -> T {
        switch outcome {
        case .created(_, let response), .replayed(let response):
            return try WireJSON.decode(T.self, from: response.body)
        case .keyReused:
            throw AppError.idempotencyKeyReused
        }
    }
}
