import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// The media types each operation's success answers come in: the `content` of its 2xx responses
/// in openapi.yaml (a `$ref` to a shared response followed).
struct AcceptRequirement: Sendable {
    let types: [String: [String]]

    init(root: [AnyHashable: Any]) {
        let shared = (root["components"] as? [AnyHashable: Any])?["responses"] as? [AnyHashable: Any] ?? [:]
        func resolved(_ response: Any) -> [AnyHashable: Any]? {
            guard let response = response as? [AnyHashable: Any] else { return nil }
            guard let reference = response["$ref"] as? String else { return response }
            return shared[reference.split(separator: "/").last.map(String.init) ?? ""] as? [AnyHashable: Any]
        }
        var types: [String: [String]] = [:]
        for (id, operation) in LoginRequirement.operations(in: root) {
            let responses = operation["responses"] as? [AnyHashable: Any] ?? [:]
            types[id] = responses.compactMap { code, response -> [String]? in
                guard "\(code)".hasPrefix("2"), let content = resolved(response)?["content"] as? [AnyHashable: Any]
                else { return nil }
                return content.keys.map { "\($0)" }
            }.flatMap { $0 }.sorted()
        }
        self.types = types
    }
}

/// Refuses, before the operation runs, a request whose `Accept` header takes none of the types
/// the operation's success answers come in. The generated server checks `Accept` only as it
/// writes the answer, after the operation ran: a create asked for with `Accept: text/html` was
/// written, and then answered 400. The answer is the same 400 as before; now nothing is written.
/// The innermost of the middlewares, so a request without a login still gets its 401 first.
struct AcceptCheckMiddleware: ServerMiddleware {
    let requirement: AcceptRequirement

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if request.headerFields[.accept] != nil, let types = requirement.types[operationID], !types.isEmpty {
            try Self.check(request.headerFields, takesOneOf: types)
        }
        return try await next(request, body, metadata)
    }

    /// Throws the generated server's refusal unless `fields` accept one of `types`.
    static func check(_ fields: HTTPFields, takesOneOf types: [String]) throws {
        let converter = Converter(configuration: .init())
        var refusal: (any Error)?
        for type in types {
            do {
                try converter.validateAcceptIfPresent(type, in: fields)
                return
            } catch {
                refusal = error
            }
        }
        if let refusal {
            throw APIError.badRequest("The request does not match the API: \(refusal).")
        }
    }
}
