import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import SplitApp
import SplitCore
import SplitStore

/// The outermost middleware: names every response with its request id, catches every error and
/// answers with the one envelope (DESIGN §5, STYLE §15–16). Unknown errors become a 500 whose
/// details go to the log only.
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The web app's "page not found", for a browser asking for a path that is no page and not
    /// part of the API.
    var browserNotFound: (@Sendable () -> Response)? = nil
    /// Decides whether a request came over HTTPS (for `Strict-Transport-Security`).
    var addresses = ClientAddressResolver(trustedProxies: [])

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let requestID = context.id
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error)
            if apiError.status.code >= 500 {
                // The generated server's wrapper describes the request; the cause is inside it.
                let cause = (error as? ServerError)?.underlyingError ?? error
                context.logger.error(
                    "request failed",
                    metadata: ["path": "\(WebRequest.loggable(request.uri.path))", "error": "\(String(reflecting: cause))"])
            } else {
                context.logger.info(
                    "request refused",
                    metadata: [
                        "path": "\(WebRequest.loggable(request.uri.path))", "status": "\(apiError.status.code)", "code": "\(apiError.code)",
                    ])
            }
            if apiError.status == .notFound, let browserNotFound, Self.isBrowserPage(request) {
                response = browserNotFound()
            } else {
                response = Self.response(for: apiError)
            }
        }
        response.headers[.init("X-Request-Id")!] = requestID
        // Answers of the API carry tokens, balances and names: no cache may keep them (pages set
        // their own headers in WebMiddleware).
        let path = request.uri.path
        if path.hasPrefix("/api/") || path.hasPrefix("/auth/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        if addresses.isSecure(request, peer: context.remoteAddress?.ipAddress) {
            response.headers[.init("Strict-Transport-Security")!] = "max-age=31536000"
        }
        return response
    }

    /// A browser navigating (it asks for HTML) to a path outside the API.
    static func isBrowserPage(_ request: Request) -> Bool {
        let path = request.uri.path
        guard !path.hasPrefix("/api/"), !path.hasPrefix("/auth/"), path != "/health" else { return false }
        return request.headers[.accept]?.contains("text/html") ?? false
    }

    static func response(for error: APIError) -> Response {
        var headers = error.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: error.body)))
    }

    /// Maps any error to what the client is told.
    static func apiError(for error: any Error) -> APIError {
        if Database.isBusy((error as? ServerError)?.underlyingError ?? error) {
            // An overload, not a fault: 503 with a Retry-After, which clients retry (the SDK
            // and the CLI queue a write with its Idempotency-Key); it was a 500.
            return .busy
        }
        switch error {
        case is NIOTooManyBytesError:
            // A chunked body that grew past the limit while it was read (issue 14: it was a 500).
            return apiError(for: HTTPError(.contentTooLarge))
        case let error as APIError:
            return error
        case let error as AppError:
            return APIError(error)
        case let refusal as WriteRefusal:
            return APIError(AppError(refusal))
        case let error as ServerError:
            // The generated server wraps everything thrown while decoding or handling.
            if error.underlyingError is APIError || error.underlyingError is HTTPError
                || error.underlyingError is WriteRefusal || error.underlyingError is AppError
                || error.underlyingError is NIOTooManyBytesError
            {
                return apiError(for: error.underlyingError)
            }
            if let decoding = error.underlyingError as? DecodingError {
                // A request without a body failed on its path or query (found by review: a GET's
                // "includeDeleted=maybe" was said to be about "the JSON body").
                let described = describe(decoding)
                guard [.get, .head, .delete].contains(error.request.method) else {
                    return .badRequest("The JSON body does not match the request: \(described).")
                }
                var what = described.hasPrefix("body ") ? "a parameter" + described.dropFirst(4) : described
                if case .dataCorrupted(let context) = decoding, context.codingPath.isEmpty {
                    // A value the parameter does not take ("in=foo"): no JSON was read (found by a
                    // new user: "not valid JSON"). The runtime does not say which; the query's names do.
                    let names = Self.queryNames(error.request.path ?? "")
                    what = "a parameter has a value it does not take"
                        + (names.isEmpty ? "" : " (check \(names.joined(separator: ", ")))")
                }
                return .badRequest("The request's parameters do not match the API: \(what).")
            }
            if (400..<500).contains(error.httpStatus.code) {
                return APIError(
                    error.httpStatus, code: "bad_request",
                    // The runtime's own text may end with a period already (found by review: "missing..").
                    message: "The request does not match the API: \(error.causeDescription.trimmingSuffix(".")).")
            }
            return .internalError
        case let error as HTTPError:
            switch error.status {
            case .notFound: return APIError(.notFound, code: "not_found", message: "No such route.")
            case .methodNotAllowed:
                return APIError(
                    .methodNotAllowed, code: "method_not_allowed", message: "That method is not allowed here.")
            case .contentTooLarge:
                return APIError(.contentTooLarge, code: "payload_too_large", message: "The request body is too large.")
            case let status where (400..<500).contains(status.code):
                return APIError(status, code: "bad_request", message: error.body ?? status.reasonPhrase)
            default:
                return .internalError
            }
        case let error as DecodingError:
            return .badRequest("The JSON body does not match the request: \(describe(error)).")
        default:
            return .internalError
        }
    }

    /// "`split.amounts[1].memberId`: expected a string" from a DecodingError, no type names.
    /// The names in a path's query ("/x?in=foo&b=1" → ["b", "in"]), each once, sorted.
    static func queryNames(_ path: String) -> [String] {
        guard let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        let names = query.split(separator: "&").compactMap { item -> String? in
            let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return name.removingPercentEncoding.map { String($0.prefix(40)) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return Set(names).sorted()
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return path.isEmpty ? "body" : String(path.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent == "body" ? "" : parent + ".")\(key.stringValue) is missing"
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context)) is null"
        case .dataCorrupted(let context):
            // A field the request does not have (found by a new user: "payers", the answer's name
            // for paidBy, was ignored and the expense saved as paid by the caller).
            if context.debugDescription.hasPrefix("Additional properties are disabled"), !context.codingPath.isEmpty {
                return "\(path(context).prefix(100)) is not a field of this request"
            }
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)) has an invalid value"
        @unknown default: return "invalid"
        }
    }
}

/// API requests are JSON and small (DESIGN §5): a body that is not `application/json` is a 415;
/// one larger than the limit is a 413 before it is read in full. The body is collected here,
/// once, so the limit holds whatever the handler does.
struct RequestBodyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let maxBodyBytes: Int
    /// Looks up the request's bearer token or session cookie before an import's larger body is
    /// read (that request's caller is then looked up once more where it is used).
    let callers: CallerResolver
    let addresses: ClientAddressResolver

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var request = request
        let path = request.uri.path
        // An import's body is a whole exported file (issue 18): larger, CSV or JSON.
        let isImport = Self.isImport(path)
        // The larger body only for a signed-in caller: a request without a working session or
        // token is refused before a file is buffered (a made-up cookie or bearer token buys
        // nothing), and is answered with its 401 (or the log-in page) once the usual limit is
        // checked. Only a body that may need more than the usual limit is looked up.
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        var limit = maxBodyBytes
        if let importLimit = Self.importLimit(path), declared.map({ $0 > maxBodyBytes }) ?? true,
            try await isSignedIn(request, context: context)
        {
            limit = max(limit, importLimit)
        }
        if let declared, declared > limit {
            throw HTTPError(.contentTooLarge)
        }
        let body = try await request.collectBody(upTo: limit)
        let isAPI = path.hasPrefix("/api/") || path.hasPrefix("/auth/")
        if isAPI, body.readableBytes > 0 {
            let contentType = request.headers[.contentType]?.lowercased() ?? ""
            let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? ""
            if isImport {
                guard ["text/csv", "application/json", "application/octet-stream"].contains(mediaType) else {
                    throw APIError(
                        .unsupportedMediaType, code: "unsupported_media_type",
                        message: "Send the file as it was exported, with Content-Type: text/csv or application/json.")
                }
                // The file's bytes go to its reader as they are (its hash, its numbers' digits),
                // never through the API's JSON decoding: a JSON file is handed on as bytes.
                if mediaType == "application/json" {
                    var head = request.head
                    head.headerFields[.contentType] = "application/octet-stream"
                    request = Request(head: head, body: request.body)
                }
                return try await next(request, context)
            }
            guard mediaType == "application/json" else {
                throw APIError(
                    .unsupportedMediaType, code: "unsupported_media_type",
                    message: "Send the body as JSON with Content-Type: application/json.")
            }
            try Self.refuseAmbiguous(body)
        } else if isAPI, request.method == .post {
            // A POST that sends nothing is read as the empty object: an operation whose body is
            // optional (confirming a pending expense as it is) then sees none, one that needs
            // fields says which are missing. (The generated code reads an empty body as bad JSON.)
            var head = request.head
            head.headerFields[.contentType] = "application/json"
            head.headerFields[.contentLength] = "2"
            request = Request(head: head, body: .init(buffer: ByteBuffer(string: "{}")))
        }
        return try await next(request, context)
    }
}

extension RequestBodyMiddleware {
    /// A JSON body that readers could read two ways is refused before anything reads it (400):
    /// a key twice in one object (readers differ on which counts), or text that is not UTF-8
    /// (RFC 8259), which Foundation's decoder converts from UTF-16 or UTF-32 unasked and no byte
    /// scan could check (found by review: a UTF-16 body hid its duplicate). For the API and MCP.
    static func refuseAmbiguous(_ body: ByteBuffer) throws {
        try body.withUnsafeReadableBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            // UTF-16 and UTF-32 JSON has a zero byte in every ASCII character; a byte-order mark
            // starts with 0xFE or 0xFF, never UTF-8's first byte. UTF-8 JSON has neither.
            if bytes.first == 0xFE || bytes.first == 0xFF || bytes.contains(0) {
                throw APIError.badRequest("Send the JSON body as UTF-8.")
            }
            if let key = JSONText.duplicateKey(in: bytes) {
                throw APIError.badRequest("The JSON body has “\(key.prefix(100))” twice in one object: send each key once.")
            }
        }
    }

    /// `/api/imports` and `/api/groups/{id}/imports`.
    /// Whether the request's bearer token (API) or session cookie (pages) is a working one: the
    /// credential the route itself will read, and no other.
    func isSignedIn(_ request: Request, context: AppRequestContext) async throws -> Bool {
        if request.uri.path.hasPrefix("/api/") {
            let state = try await CallerState.resolve(
                authorization: request.headers[.authorization], isWrite: false, with: callers)
            if case .signedIn = state { return true }
            return false
        }
        let secure = addresses.isSecure(request, peer: context.remoteAddress?.ipAddress)
        guard let cookie = request.cookies[WebRequest.sessionCookie(secure: secure)],
            let token = WebMiddleware.plausibleToken(cookie.value)
        else { return false }
        return try await callers.resolve(token: token) != nil
    }

    static func isImport(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return path == "/api/imports"
            || (parts.count == 5 && parts[1] == "api" && parts[2] == "groups" && parts[4] == "imports")
    }

    /// The body an import may send: the file itself on the API; on the web's import pages
    /// (`/import`, `/groups/{id}/import`) the file's text URL-encoded in a form, which can take
    /// up to three bytes for one. Nil for every other path.
    static func importLimit(_ path: String) -> Int? {
        if isImport(path) { return ImportUseCases.maximumBytes }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if path == "/import" || (parts.count == 4 && parts[1] == "groups" && parts[3] == "import") {
            return ImportUseCases.maximumBytes * 3
        }
        return nil
    }
}

/// Puts the request's id, client address and caller where the API handlers read them. An API
/// request's bearer token is looked up here, once; a page's session cookie is looked up by
/// `WebMiddleware` instead.
struct RequestInfoMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let addresses: ClientAddressResolver
    let callers: CallerResolver

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let forwarded = request.headers[values: .init("X-Forwarded-For")!]
        let path = request.uri.path
        let isAPI = path.hasPrefix("/api/") || path.hasPrefix("/auth/")
        var authorization = request.headers[.authorization]
        // The web's live pages follow the stream with their session cookie (EventSource cannot
        // send headers). Only there, and it only reads: no other API route takes the cookie, so
        // no page of another site can make the API write with it.
        if authorization == nil, path == "/api/events", request.method == .get,
            let cookie = request.cookies[
                WebRequest.sessionCookie(secure: addresses.isSecure(request, peer: context.remoteAddress?.ipAddress))],
            let token = WebMiddleware.plausibleToken(cookie.value)
        {
            authorization = "Bearer \(token)"
        }
        // A turn with the assistant: a read token may talk to it (the tools it runs refuse its
        // writes), and it counts as one write of whoever may write.
        let isAssistantTurn = path == "/api/chat/stream"
        let info = RequestInfo(
            requestID: context.id,
            clientAddress: addresses.resolve(peer: context.remoteAddress?.ipAddress, forwardedFor: forwarded),
            caller: isAPI
                ? try await CallerState.resolve(
                    authorization: authorization,
                    isWrite: path.hasPrefix("/api/") && !isAssistantTurn && ![.get, .head, .options].contains(request.method),
                    with: callers)
                : .anonymous,
            userAgent: request.headers[.userAgent],
            logger: context.logger)
        if isAssistantTurn, case .signedIn(let caller) = info.caller, caller.token?.canWrite != false {
            try callers.spendWrite(caller)
        }
        // An access token reads its account (GET /auth/me) and nothing else under /auth/: the
        // password, logins, tokens, mail and the account itself are a login's (issue 21).
        if case .signedIn(let caller) = info.caller, caller.token != nil, path.hasPrefix("/auth/"),
            !(path == "/auth/me" && request.method == .get)
        {
            try caller.requireLogin()
        }
        return try await RequestInfo.$current.withValue(info) { try await next(request, context) }
    }
}

extension String {
    /// The text without one trailing `suffix`, if it ends with it.
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
