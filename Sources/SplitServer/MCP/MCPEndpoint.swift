import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MCP
import NIOCore
import SplitAPI
import SplitApp

/// The Model Context Protocol at `POST /mcp` (issue 21): Streamable HTTP without sessions, on
/// the official Swift SDK. Each request carries a login's or an access token's bearer token;
/// each tool runs the API operation of the same name through `APIHandler`, so it has the same
/// permission checks, bounds, idempotency and answers as the HTTP API. Read-only tools are
/// annotated so; a write tool asked of a read token is refused in the tool's result.
/// `splitter mcp` bridges a desktop client's stdio to this endpoint.
struct MCPEndpoint: Sendable {
    let api: APIHandler
    let callers: CallerResolver
    let addresses: ClientAddressResolver

    /// Most of a request an MCP client sends is small; a quick-add line or an expense is well
    /// under this.
    static let maxBodyBytes = 256 * 1024

    func register(on router: Router<AppRequestContext>) {
        router.post("/mcp") { request, context in try await self.handle(request, context: context) }
        router.get("/mcp") { _, _ in
            Response(status: .methodNotAllowed, headers: [.allow: "POST"])
        }
    }

    func handle(_ request: Request, context: AppRequestContext) async throws -> Response {
        // Who asks: a bearer token, as on every API route (never a cookie, never the query).
        guard case .signedIn(let caller) = try await CallerState.resolve(
            authorization: request.headers[.authorization], isWrite: false, with: callers)
        else {
            throw APIError.unauthenticated(invalidToken: request.headers[.authorization] != nil)
        }
        let body = try await request.body.collect(upTo: Self.maxBodyBytes)
        try RequestBodyMiddleware.refuseAmbiguous(body)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let info = RequestInfo(
            requestID: context.id,
            clientAddress: addresses.resolve(
                peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .init("X-Forwarded-For")!]),
            caller: .signedIn(caller), userAgent: request.headers[.userAgent], logger: context.logger)
        // A server per request: nothing is kept between requests (no MCP session), so any
        // server behind a load balancer answers any request.
        let transport = StatelessHTTPServerTransport(
            validationPipeline: StandardValidationPipeline(validators: [
                AcceptHeaderValidator(mode: .jsonOnly), ContentTypeValidator(), ProtocolVersionValidator(),
            ]))
        let server = Server(
            name: "budget-splitter", version: "1.0",
            capabilities: .init(tools: .init(listChanged: false)))
        let callers = callers
        let tools = MCPTools(api: api, caller: caller, spendWrite: { try callers.spendWrite(caller) })
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: MCPTools.all) }
        await server.withMethodHandler(CallTool.self) { params in
            await RequestInfo.$current.withValue(info) { await tools.call(params.name, params.arguments ?? [:]) }
        }
        try await server.start(transport: transport)
        let answer = await transport.handleRequest(
            MCP.HTTPRequest(method: "POST", headers: headers, body: Data(body.readableBytesView), path: "/mcp"))
        await server.stop()
        // Answers carry balances and names: no cache may keep them.
        var fields: HTTPFields = [.cacheControl: "no-store"]
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        return Response(
            status: .init(code: answer.statusCode), headers: fields,
            body: answer.bodyData.map { .init(byteBuffer: ByteBuffer(bytes: $0)) } ?? .init())
    }
}
