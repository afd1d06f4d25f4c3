import ArgumentParser
import Foundation
import SplitClient

/// `splitter mcp`: the server's MCP tools for a desktop assistant that starts MCP servers as
/// programs (stdio). Each JSON-RPC line read from standard input goes to the server's `/mcp`
/// with this profile's token (a login's or, better, a scoped one from `splitter token create`),
/// and each answer is written back as one line. Diagnostics go to standard error only.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the server's MCP tools over stdio, for desktop AI assistants.",
        discussion: """
            Configure your assistant to run `splitter mcp` (with --profile for a
            profile that uses a token: `splitter login --profile bot --token-stdin`).
            The tools are the server's: list_groups, list_members, list_expenses,
            add_expense, quick_add, balances, settle_plan, record_settlement,
            mark_share_paid, budget_status, spending_by_person,
            create_payment_request.
            """)
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        // Not logged in: said as every command says it, with its exit code, before reading.
        var made: SplitterClient?
        try await SplitterCLI.run { made = try options.client() }
        guard let client = made else { return }
        while let line = readLine(strippingNewline: true) {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                if let answer = try await client.mcpExchange(Data(line.utf8)) {
                    // One message a line: the answer's own newlines, if any, are JSON whitespace.
                    let text = String(decoding: answer, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
                    FileHandle.standardOutput.write(Data((text + "\n").utf8))
                }
            } catch {
                FileHandle.standardError.write(Data("splitter mcp: \(error)\n".utf8))
                // A request still gets an answer, so the client is not left waiting.
                if let id = Self.requestID(line) {
                    let message = "\(error)".replacingOccurrences(of: "\"", with: "'")
                    let reply = #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32603,"message":"\#(message)"}}"#
                    FileHandle.standardOutput.write(Data((reply + "\n").utf8))
                }
            }
        }
    }

    /// The `id` of a JSON-RPC request, as JSON text (a number or a string); nil for a notification.
    static func requestID(_ line: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let id = object["id"], !(id is NSNull),
            let data = try? JSONSerialization.data(withJSONObject: ["id": id]),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return String(text.dropFirst("{\"id\":".count).dropLast())
    }
}
