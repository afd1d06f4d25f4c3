import Foundation
internal import OpenAPIRuntime
internal import SplitAPI
import SplitCore

/// What a call to the server can end in, decoded from the one error envelope (DESIGN §5), so
/// apps and the CLI can react to each kind without reading status codes.
public enum SplitterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No or a dead token: log in again.
    case unauthorized(String)
    /// A login's email, phone or password was wrong (401 `invalid_credentials`): the message is
    /// the server's, to show as it is; there is no session to renew.
    case wrongCredentials(String)
    case forbidden(String)
    case notFound(String)
    /// A conflict (409) or a stale version (412); `current` is the server's state as JSON, when sent.
    case conflict(message: String, field: String?, current: Data?)
    /// Invalid input (400, 413, 415, 422); `field` names the wire field when the server did.
    case validation(message: String, field: String?)
    case rateLimited(retryAfterSeconds: Int?)
    /// The server could not be reached, or a gateway in front of it answered 502, 503 or 504:
    /// either way what a write did is unknown, and it is safe to send again with its key.
    case offline(String)
    /// The server failed, or answered something this client does not understand.
    case server(String)

    public var description: String {
        switch self {
        case .unauthorized(let message): "Not logged in: \(message)"
        case .wrongCredentials(let message): message
        case .forbidden(let message): "Not allowed: \(message)"
        case .notFound(let message): message
        case .conflict(let message, _, _): message
        // A sentence, or one that names its field already, stands alone (found by a new user:
        // "rule.count: rule.count is less than 1.", "state: An ended series cannot start again").
        // An indexed field ("paidBy[1].amount") keeps its prefix: it says which one.
        case .validation(let message, let field):
            field.map { field in
                let words = message.split { !$0.isLetter && !$0.isNumber && !".[]".contains($0) }
                let standsAlone = message.first?.isUppercase == true || words.contains { $0 == field || $0 == field + "." }
                return !field.contains("[") && standsAlone ? message : "\(field): \(message)"
            } ?? message
        case .rateLimited(let seconds): "Too many attempts" + (seconds.map { "; try again in \(WaitText.phrase(seconds: $0))" } ?? "")
        case .offline(let message): "The server cannot be reached (\(message))."
        case .server(let message): "The server failed: \(message)"
        }
    }

    /// From a documented error answer.
    init(status: Int, envelope: Components.Schemas.ErrorEnvelope?, retryAfter: Int?) {
        var message = envelope?.error.message ?? "HTTP \(status)"
        let details = envelope?.error.details?.additionalProperties.value
        let field = (details?["field"] ?? nil) as? String
        // Several wrong fields in one answer: every one said, the first one's field named first.
        if let fields = (details?["fields"] ?? nil) as? [Any], fields.count > 1 {
            let lines = fields.compactMap { entry -> String? in
                guard let entry = entry as? [String: Any], let message = entry["message"] as? String else { return nil }
                return (entry["field"] as? String).map { "\($0): \(message)" } ?? message
            }
            if let first = lines.first, let firstField = field, first.hasPrefix(firstField + ": ") {
                message = ([String(first.dropFirst(firstField.count + 2))] + lines.dropFirst()).joined(separator: "; ")
            }
        }
        switch status {
        case 401 where envelope?.error.code == "invalid_credentials": self = .wrongCredentials(message)
        case 401: self = .unauthorized(message)
        case 403: self = .forbidden(message)
        case 404: self = .notFound(message)
        // A share with nothing to settle can never be marked paid, whatever version it is sent
        // on: a refusal to set aside, not a conflict to force (found by a new user: sync kept
        // advising --force).
        case 409 where envelope?.error.code == "nothing_to_pay": self = .validation(message: message, field: field)
        case 409, 412:
            self = .conflict(message: message, field: field, current: Self.current(in: envelope))
        case 429: self = .rateLimited(retryAfterSeconds: retryAfter ?? ((details?["retryAfterSeconds"] ?? nil) as? Int))
        case 400..<500: self = .validation(message: message, field: field)
        case Self.gatewayStatuses: self = .offline(Self.gatewayMessage(status))
        default: self = .server(message)
        }
    }

    /// What a proxy answers when the server behind it is down, restarting or slow (502, 503,
    /// 504): the server may not have seen the request, or may have done it and its answer been
    /// lost. Either way the outcome is unknown, as when it cannot be reached at all, so it is
    /// `offline`: a write is queued with its id and key, and the replay does it at most once.
    static let gatewayStatuses = 502...504

    static func gatewayMessage(_ status: Int) -> String {
        "a gateway answered HTTP \(status) for it; the outcome is unknown"
    }

    /// `details.current` as JSON bytes. Re-encoded through the details' own Codable form, so what
    /// comes out is exactly what the server sent (numbers, nested objects, nulls).
    private static func current(in envelope: Components.Schemas.ErrorEnvelope?) -> Data? {
        guard let details = envelope?.error.details,
            let data = try? JSONEncoder().encode(details),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let current = object["current"], !(current is NSNull)
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: current, options: [.sortedKeys])
    }
}
