import Foundation
import HTTPTypes
import NIOCore
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// A JSON body with a key twice in one object is refused (found by review: the first one won,
/// where another reader of the same bytes may take the last). The scanner's own tests are in
/// SplitCoreTests (JSONDuplicateKeyTests).
@Suite("Duplicate JSON keys over HTTP")
struct DuplicateKeyTests {
    @Test("over HTTP: a duplicate key is a 400 naming it, and nothing is written", arguments: TestDatabases.all)
    func refusedOverHTTP(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let created = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let twice = try await api.call(
                .post, "/api/expenses", token: aki,
                json: #"{"groupId":"\#(groupID)","description":"Tea","amount":"100","amount":"100000","currency":"JPY","expenseDate":"2026-05-01"}"#)
            #expect(twice.status == .badRequest, "\(twice.text)")
            #expect(twice.string("error", "message") == "The JSON body has “amount” twice in one object: send each key once.")
            let list = try await api.call(.get, "/api/groups/\(groupID)/expenses", token: aki)
            #expect(list.list("expenses").isEmpty)
            let rename = try await api.call(
                .patch, "/api/groups/\(groupID)", token: aki, json: #"{"name":"A","\u006eame":"B"}"#)
            #expect(rename.status == .badRequest && rename.text.contains("“name” twice"), "\(rename.text)")
            // The same duplicate in UTF-16, which the decoder would read and a byte scan could
            // not: refused as not UTF-8 (found by review), with or without a byte-order mark.
            let text = #"{"name":"C","\u006eame":"D"}"#
            var littleEndian: [UInt8] = []
            for unit in text.utf16 { littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            for bytes in [littleEndian, [0xFF, 0xFE] + littleEndian] {
                let utf16 = try await api.call(
                    .patch, "/api/groups/\(groupID)", token: aki, headers: [.contentType: "application/json"],
                    body: ByteBuffer(bytes: bytes))
                #expect(utf16.status == .badRequest && utf16.string("error", "message") == "Send the JSON body as UTF-8.", "\(utf16.text)")
            }
            let group = try await api.call(.get, "/api/groups/\(groupID)", token: aki)
            #expect(group.string("group", "name") == "Trip")
            // MCP's tools write money too: the same check (found by review: /mcp is not under /api).
            let mcp = try await api.call(
                .post, "/mcp", token: aki, headers: [.accept: "application/json, text/event-stream"],
                body: ByteBuffer(string: #"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#))
            #expect(mcp.status == .badRequest && mcp.text.contains("“id” twice"), "\(mcp.text)")
        }
    }
}
