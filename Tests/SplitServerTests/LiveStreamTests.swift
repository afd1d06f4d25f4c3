import Foundation
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// `GET /api/events` from the outside (issue 17): who may open it, and a write arriving on a
/// real socket. The stream's own rules are tested without HTTP in SplitAppTests.
@Suite("The live stream over HTTP")
struct LiveStreamTests {
    typealias RawConnection = ConnectionGuardTests.RawConnection

    /// The live server's port, Aki's account and her group Japan.
    static func akiInJapan(_ api: API) async throws -> (port: Int, aki: (token: String, userID: String), group: String) {
        let port = try #require(api.client.port)
        let aki = try await api.register("Aki")
        let group = try #require(
            try await api.call(.post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
                .string("group", "id"))
        return (port, aki, group)
    }

    static func open(_ port: Int, _ target: String, headers: String) throws -> RawConnection {
        let connection = try RawConnection(port: port)
        connection.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\(headers)\r\n")
        return connection
    }

    @Test("refusals: no login, a token in the query, another's group, a bad group id or Last-Event-ID")
    func refusals() async throws {
        try await TestApp.with(.sqlite) { api in
            let aki = try await api.register("Aki")
            let zed = try await api.register("Zed")
            let group = try #require(
                try await api.call(.post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
                    .string("group", "id"))
            #expect(try await api.call(.get, "/api/events").status == .unauthorized)
            #expect(try await api.call(.get, "/api/events?token=\(aki.token)").status == .unauthorized)
            #expect(try await api.call(.get, "/api/events?access_token=\(aki.token)").status == .unauthorized)
            let foreign = try await api.call(.get, "/api/events?groupId=\(group)", token: zed.token)
            #expect(foreign.status == .notFound && foreign.errorCode == "not_found")
            let unknown = try await api.call(.get, "/api/events?groupId=\(UUID())", token: aki.token)
            #expect(unknown.status == .notFound && unknown.text == foreign.text)
            #expect(try await api.call(.get, "/api/events?groupId=nope", token: aki.token).status.code / 100 == 4)
            let resumed = try await api.call(
                .get, "/api/events", token: aki.token, headers: [HTTPField.Name("Last-Event-ID")!: "\(group).x"])
            #expect(resumed.status == .unprocessableContent && resumed.string("error", "details", "field") == "Last-Event-ID")
        }
    }

    @Test("a write arrives on the stream as an event, uncompressed, uncached; the web cookie opens only this route")
    func writeArrives() async throws {
        try await TestApp.with(.sqlite, live: true) { api in
            let (port, aki, group) = try await Self.akiInJapan(api)
            let stream = try Self.open(port, "/api/events?groupId=\(group)", headers: "Authorization: Bearer \(aki.token)\r\n")
            let head = await stream.read(until: ": connected")
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.lowercased().contains("cache-control: no-store"))
            #expect(!head.lowercased().contains("content-encoding"))
            // act: a write through the API
            let expense = try #require(
                try await api.call(
                    .post, "/api/expenses", token: aki.token,
                    json: #"{"groupId":"\#(group)","description":"Ramen","amount":"1200","currency":"JPY","expenseDate":"2026-05-01"}"#
                ).string("expense", "id"))
            // validate: one change event naming it, with an id to resume from
            let event = await stream.read(until: expense)
            #expect(event.contains("event: change"))
            #expect(event.contains("id: \(group)."))
            // The web's session cookie (the same token) opens the stream, and no other API route.
            let web = try Self.open(port, "/api/events", headers: "Cookie: splitter_session=\(aki.token)\r\n")
            #expect(await web.read(until: ": connected").hasPrefix("HTTP/1.1 200"))
            let groups = try await api.call(
                .get, "/api/groups", headers: [.cookie: "splitter_session=\(aki.token)"])
            #expect(groups.status == .unauthorized)
        }
    }

    @Test("a Last-Event-ID for 500 groups (about 23 KB, an account's most) is taken and resumes")
    func longestLastEventID() async throws {
        try await TestApp.with(.sqlite, live: true) { api in
            let (port, aki, group) = try await Self.akiInJapan(api)
            let ramen = try #require(
                try await api.call(
                    .post, "/api/expenses", token: aki.token,
                    json: #"{"groupId":"\#(group)","description":"Ramen","amount":"1200","currency":"JPY","expenseDate":"2026-05-01"}"#
                ).string("expense", "id"))
            // setup: the id of a stream of 500 groups with change numbers in the billions, this
            // group's at 0 (before the ramen); the other 499 are groups Aki is not in (ignored)
            let others = (1..<500).map { _ in "\(UUID().uuidString.lowercased()).9999999999" }
            let id = ([group + ".0"] + others).joined(separator: ",")
            #expect(id.utf8.count > 23_000)
            // act
            let stream = try Self.open(port, "/api/events", headers: "Authorization: Bearer \(aki.token)\r\nLast-Event-ID: \(id)\r\n")
            // validate: the stream opens and first sends the ramen it missed
            let event = await stream.read(until: ramen)
            #expect(event.hasPrefix("HTTP/1.1 200"), "\(event.prefix(300))")
            #expect(event.contains("event: change"))
        }
    }
}
