import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The generated server writes a string header as a URI component, so an export's
/// `Content-Disposition` went out as `attachment%3B%20filename%3D%22…` and clients saved the file
/// as "export" (found by a new user with `curl -OJ`). Sent as the handler wrote it instead.
struct DispositionHeaderMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var (response, body) = try await next(request, body, metadata)
        if let written = response.headerFields[.contentDisposition], written.contains("%"),
            let plain = written.removingPercentEncoding
        {
            response.headerFields[.contentDisposition] = plain
        }
        return (response, body)
    }
}
