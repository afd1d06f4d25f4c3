import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The operations openapi.yaml says need a login: those under the document's `security` (a
/// bearer token) that do not override it with `security: []` (none) or with a list holding `{}`
/// (a login is optional, as for a payment code).
struct LoginRequirement: Sendable {
    let operations: Set<String>

    init(root: [AnyHashable: Any]) {
        func needsLogin(_ security: Any?) -> Bool {
            guard let requirements = security as? [Any], !requirements.isEmpty else { return false }
            return !requirements.contains { ($0 as? [AnyHashable: Any])?.isEmpty ?? false }
        }
        let global = root["security"]
        operations = Set(Self.operations(in: root).filter { needsLogin($0.spec["security"] ?? global) }.map(\.id))
    }

    /// Every operation of openapi.yaml (parsed as `RequestBodyLimits.bundledSpecification` reads
    /// it), by its `operationId`, with its object.
    static func operations(in root: [AnyHashable: Any]) -> [(id: String, spec: [AnyHashable: Any])] {
        var operations: [(id: String, spec: [AnyHashable: Any])] = []
        for case (_, let item as [AnyHashable: Any]) in root["paths"] as? [AnyHashable: Any] ?? [:] {
            for case (_, let operation as [AnyHashable: Any]) in item {
                guard let id = operation["operationId"] as? String else { continue }
                operations.append((id, operation))
            }
        }
        return operations
    }
}

/// Refuses a caller without a valid login (401, as `APIHandler.authenticate` would) before the
/// request's body is read, bounded or decoded, on the operations that need one. Otherwise an
/// anonymous request with a body too long or malformed got 422 or 400, which tells a stranger
/// about the operation's bounds before telling them to log in. Handlers still authenticate
/// themselves; the caller was already resolved, once, by `RequestInfoMiddleware`.
struct LoginRequiredMiddleware: ServerMiddleware {
    let requirement: LoginRequirement

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if requirement.operations.contains(operationID), let caller = RequestInfo.current?.caller {
            switch caller {
            case .anonymous: throw APIError.unauthenticated(invalidToken: false)
            case .invalid: throw APIError.unauthenticated(invalidToken: true)
            case .signedIn: break
            }
        }
        return try await next(request, body, metadata)
    }
}
