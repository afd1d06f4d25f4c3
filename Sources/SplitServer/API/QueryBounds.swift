import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import SplitApp

/// The bounds of each operation's integer query parameters, as openapi.yaml gives them
/// (`limit: { type: integer, minimum: 1, maximum: 200 }`).
struct QueryBounds: Sendable {
    struct Bound: Sendable, Equatable {
        let minimum: Int?
        let maximum: Int?
    }

    /// Operation id → parameter name → its bound.
    let bounds: [String: [String: Bound]]

    init(root: [AnyHashable: Any]) {
        let shared = (root["components"] as? [AnyHashable: Any])?["parameters"] as? [AnyHashable: Any] ?? [:]
        func resolved(_ parameter: Any) -> [AnyHashable: Any]? {
            guard let parameter = parameter as? [AnyHashable: Any] else { return nil }
            guard let reference = parameter["$ref"] as? String else { return parameter }
            return shared[reference.split(separator: "/").last.map(String.init) ?? ""] as? [AnyHashable: Any]
        }
        var bounds: [String: [String: Bound]] = [:]
        for (id, operation) in LoginRequirement.operations(in: root) {
            for case let parameter? in (operation["parameters"] as? [Any] ?? []).map(resolved) {
                guard parameter["in"] as? String == "query", let name = parameter["name"] as? String,
                    let schema = parameter["schema"] as? [AnyHashable: Any], schema["type"] as? String == "integer"
                else { continue }
                bounds[id, default: [:]][name] = Bound(
                    minimum: (schema["minimum"] as? NSNumber)?.intValue, maximum: (schema["maximum"] as? NSNumber)?.intValue)
            }
        }
        self.bounds = bounds
    }

    /// The refusal of the first integer parameter of `query` that is not a whole number within
    /// its bounds, naming it and them; nil when all are.
    func problem(operationID: String, query: String) -> AppError? {
        guard let bounds = bounds[operationID], !bounds.isEmpty else { return nil }
        for item in URLComponents(string: "?" + query)?.queryItems ?? [] {
            guard let bound = bounds[item.name] else { continue }
            let text = item.value ?? ""
            let range =
                switch (bound.minimum, bound.maximum) {
                case let (low?, high?): " from \(low) to \(high)"
                case let (low?, nil): " of at least \(low)"
                case let (nil, high?): " of at most \(high)"
                case (nil, nil): ""
                }
            guard let value = Int(text), bound.minimum.map({ value >= $0 }) ?? true,
                bound.maximum.map({ value <= $0 }) ?? true
            else {
                return AppError.invalid(
                    field: item.name, message: "\(item.name) is a whole number\(range); “\(text.prefix(20))” is not.")
            }
        }
        return nil
    }
}

/// Refuses a query parameter out of the spec's bounds with a 422 naming it (found by review:
/// `limit=-1`, `0` and `500` were taken silently, and `limit=abc` was a 400 about "the JSON
/// body" of a GET).
struct QueryBoundsMiddleware: ServerMiddleware {
    let bounds: QueryBounds

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let path = request.path, let mark = path.firstIndex(of: "?"),
            let problem = bounds.problem(operationID: operationID, query: String(path[path.index(after: mark)...]))
        {
            throw problem
        }
        return try await next(request, body, metadata)
    }
}
