import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// A failure the client is told about, in the one envelope of DESIGN §5:
/// `{"error": {"code", "message", "details"}}`. Handlers throw these; `ErrorMiddleware` renders
/// them and maps every other error (STYLE §15).
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var details: [String: JSONValue]
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, code: String, message: String, details: [String: JSONValue] = [:],
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    public static func badRequest(_ message: String) -> APIError {
        APIError(.badRequest, code: "bad_request", message: message)
    }

    /// 401 with the challenge RFC 6750 asks for; `invalidToken` when a token was sent but is no good.
    public static func unauthenticated(invalidToken: Bool) -> APIError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] =
            invalidToken ? #"Bearer realm="splitter", error="invalid_token""# : #"Bearer realm="splitter""#
        return APIError(
            .unauthorized, code: "unauthenticated",
            message: invalidToken
                ? "The token is invalid, expired or revoked; log in again."
                : "Log in first: send Authorization: Bearer <token>.",
            headers: headers)
    }

    public static func forbidden(_ message: String = "Your role in this group does not allow that.") -> APIError {
        APIError(.forbidden, code: "forbidden", message: message)
    }

    public static func notFound(_ what: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "No such \(what).")
    }

    public static func conflict(field: String?, message: String, current: JSONValue? = nil) -> APIError {
        var details: [String: JSONValue] = [:]
        if let field { details["field"] = .string(field) }
        if let current { details["current"] = current }
        return APIError(.conflict, code: "conflict", message: message, details: details)
    }

    /// 422 naming the wire field (DESIGN §5: validation failures name the field).
    public static func invalid(field: String, _ message: String) -> APIError {
        APIError(.unprocessableContent, code: "validation_failed", message: message, details: ["field": .string(field)])
    }

    /// A group that is archived refuses changes until the owner brings it back.
    public static let archived = APIError(
        .conflict, code: "group_archived", message: "This group is archived; the owner can bring it back first.")

    /// The one place a domain error becomes HTTP (STYLE §15): the status, code and details of
    /// the envelope for each `AppError`.
    public init(_ error: AppError) {
        switch error {
        case .notFound(let what): self = .notFound(what)
        case .notFoundBecause(let message): self = APIError(.notFound, code: "not_found", message: message)
        case .forbidden: self = .forbidden()
        case .forbiddenBecause(let message): self = .forbidden(message)
        case .archived: self = .archived
        case .invalid(let field, let message): self = .invalid(field: field, message)
        case .invalidFields(let problems):
            // `field` and `message` are the first problem's, as for one; `fields` lists them all.
            var error = APIError.invalid(field: problems.first?.field ?? "", problems.first?.message ?? "")
            if problems.count > 1 {
                error.message += " (and \(problems.count - 1) more: see details.fields)"
            }
            error.details["fields"] = .array(
                problems.map { .object(["field": .string($0.field), "message": .string($0.message)]) })
            self = error
        case .conflict(let code, let field, let message):
            self = APIError(
                .conflict, code: code, message: message, details: field.map { ["field": .string($0)] } ?? [:])
        case .versionRequired(let message):
            self = APIError(.preconditionRequired, code: "precondition_required", message: message)
        case .staleExpense(let view):
            // 412 for an edit based on an old version, with the stored state (DESIGN §5).
            var details: [String: JSONValue] = ["field": .string("version")]
            if let current = try? JSONValue(encoding: Components.Schemas.Expense(view)) { details["current"] = current }
            self = APIError(
                .preconditionFailed, code: "stale_version",
                message: "Someone changed this since you loaded it; nothing was saved.", details: details)
        case .staleCategory(let current):
            self = .conflict(
                field: "version", message: "Someone changed this since you loaded it; nothing was saved.",
                current: try? JSONValue(encoding: Components.Schemas.Category(current)))
        case .staleGroup(let current):
            self = .conflict(
                field: "version", message: "Someone changed this since you loaded it; nothing was saved.",
                current: try? JSONValue(encoding: Components.Schemas.Group(current.group, me: current.me)))
        case .staleMember(let current):
            self = .conflict(
                field: "version", message: "Someone changed this since you loaded it; nothing was saved.",
                current: try? JSONValue(encoding: Components.Schemas.Member(current)))
        case .staleSeries(let current):
            self = .conflict(
                field: "version", message: "Someone changed this since you loaded it; nothing was saved.",
                current: try? JSONValue(encoding: Components.Schemas.RecurringExpense(current)))
        case .idempotencyKeyReused:
            self = APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                message: "This Idempotency-Key was used with another request.",
                details: ["field": .string("Idempotency-Key")])
        case .badRequest(let message): self = .badRequest(message)
        case .rateLimited(let seconds): self = .rateLimited(retryAfterSeconds: seconds)
        case .loginsLimited(let seconds):
            self = .rateLimited(
                retryAfterSeconds: seconds,
                message: "Too many logins for now; try again in \(WaitText.phrase(seconds: max(1, seconds))). A script "
                    + "that logs in each time it runs can use an access token instead (Account, Access tokens).")
        case .invalidCredentials: self = .invalidCredentials
        case .registrationClosed:
            self = APIError(.forbidden, code: "registration_closed", message: "This server does not take new accounts.")
        }
    }

    public static func rateLimited(retryAfterSeconds: Int, message: String? = nil) -> APIError {
        let seconds = max(1, retryAfterSeconds)
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return APIError(
            .tooManyRequests, code: "rate_limited",
            message: message ?? "Too many attempts; try again in \(WaitText.phrase(seconds: seconds)).",
            details: ["retryAfterSeconds": .int(Int64(seconds))], headers: headers)
    }

    /// The same bytes for an unknown account and a wrong password (DESIGN §4).
    public static let invalidCredentials = APIError(
        .unauthorized, code: "invalid_credentials", message: "Wrong email, phone or password.",
        headers: [.wwwAuthenticate: #"Bearer realm="splitter""#])

    /// The database had no connection free for the request in time (`Database.isBusy`).
    public static let busy = APIError(
        .serviceUnavailable, code: "busy", message: "The server is too busy to answer; try again in a moment.",
        details: ["retryAfterSeconds": .int(1)], headers: [.retryAfter: "1"])

    public static let internalError = APIError(
        .internalServerError, code: "internal", message: "Something went wrong on our side; it has been logged.")

    /// The envelope's bytes.
    public var body: Data {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if !details.isEmpty { error["details"] = .object(details) }
        return JSONValue.object(["error": .object(error)]).encoded()
    }
}

/// A JSON value for error details (`current` state of a conflict, field names, numbers).
public enum JSONValue: Sendable, Equatable, Codable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// Any wire value as JSON, encoded the way the API encodes it (ISO 8601 dates).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        self = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let values): try container.encode(values)
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every case is encodable by construction; a failure here would be a programming error.
        return (try? encoder.encode(self)) ?? Data(#"{"error":{"code":"internal","message":"error"}}"#.utf8)
    }
}
