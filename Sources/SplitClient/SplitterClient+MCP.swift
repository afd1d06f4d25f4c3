import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's Model Context Protocol endpoint (issue 21), for a bridge such as `splitter mcp`.
extension SplitterClient {
    /// Sends one JSON-RPC message to `POST /mcp` with this client's token; returns the answer's
    /// body (nil for a notification, which has none). A refusal of the token is a `SplitterError`.
    public func mcpExchange(_ message: Data) async throws -> Data? {
        var request = URLRequest(url: serverURL.appendingPathComponent("mcp"))
        request.httpMethod = "POST"
        request.httpBody = message
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json, text/event-stream", forHTTPHeaderField: "Accept")
        if let token = try tokens.load() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw SplitterError.offline("The server cannot be reached: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 202: return nil
        case 401: throw SplitterError.unauthorized("Not logged in, or the token no longer works.")
        case 200..<300 where data.first == UInt8(ascii: "{"), 400..<500 where data.first == UInt8(ascii: "{"):
            // JSON-RPC answers, errors included, go back to the client as they are.
            return data
        default:
            throw SplitterError.server("The server answered \(status).")
        }
    }
}
