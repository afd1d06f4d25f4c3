import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitCore
import SplitTestSupport
import Testing

@testable import SplitClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK reads change-feed pages by hand (`JSONReader`, FeedPageReader.swift) instead of through
/// the generated types: it must accept what they accept, read it to the same values, and refuse
/// what they refuse.
@Suite("The SDK's reader of change-feed pages")
struct FeedPageReaderTests {
    typealias Random = StoredExpenseJSONTests

    /// What the generated client makes of a page: `JSONDecoder` through the generated types (with
    /// the SDK's date transcoder), then WireMapping.swift.
    static func generated(_ bytes: [UInt8]) throws -> Changes {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try ServerDateTranscoder().decode(try decoder.singleValueContainer().decode(String.self))
        }
        return Changes(try decoder.decode(Components.Schemas.ChangesResponse.self, from: Data(bytes)))
    }

    /// A timestamp as the server writes them: whole seconds.
    static func date(_ random: inout SplitMix64) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &random)))
    }

    static func page(_ random: inout SplitMix64) -> Changes {
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
        var expenses = (0..<Int.random(in: 0...4, using: &random)).map { _ in Random.expense(&random) }
        for index in expenses.indices {
            // Whole seconds, as the server sends them (`.iso8601` would drop a fraction).
            expenses[index].createdAt = date(&random)
            expenses[index].updatedAt = date(&random)
            for share in expenses[index].splits.indices where expenses[index].splits[share].paidAt != nil {
                expenses[index].splits[share].paidAt = date(&random)
            }
        }
        let roles = SplitClient.Role.allCases
        return Changes(
            cursor: String(Int.random(in: 0...1_000_000, using: &random)), hasMore: Bool.random(using: &random),
            group: Bool.random(using: &random)
                ? Group(
                    id: Random.id(&random), name: Random.text(&random), description: Random.text(&random),
                    homeCurrency: "JPY", timeZone: "Asia/Tokyo", ownerId: Random.id(&random),
                    inviteCode: Bool.random(using: &random) ? "ABCD-1234" : nil,
                    isArchived: Bool.random(using: &random),
                    myMemberId: Random.id(&random), myRole: roles.randomElement(using: &random)!,
                    version: Int64.random(in: 1...Int64.max, using: &random), createdAt: date(&random),
                    updatedAt: date(&random)) : nil,
            expenses: expenses,
            settlements: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                Settlement(
                    id: Random.id(&random), groupId: Random.id(&random), fromMemberId: Random.id(&random),
                    toMemberId: Random.id(&random), amount: "12.50", currency: "USD", date: "2026-11-30",
                    note: Random.text(&random), expenseSplitId: Bool.random(using: &random) ? Random.id(&random) : nil,
                    createdByUserId: Random.id(&random), isDeleted: Bool.random(using: &random),
                    version: Int64.random(in: 1...1_000, using: &random), createdAt: date(&random))
            },
            members: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Member(
                    id: Random.id(&random), groupId: Random.id(&random),
                    userId: Bool.random(using: &random) ? Random.id(&random) : nil, name: Random.text(&random),
                    role: roles.randomElement(using: &random)!, canAddExpenses: Bool.random(using: &random),
                    canEditOwnExpenses: Bool.random(using: &random), canEditAllExpenses: Bool.random(using: &random),
                    canMarkPaid: Bool.random(using: &random), active: Bool.random(using: &random), leftThemselves: Bool.random(using: &random) ? nil : Bool.random(using: &random),
                    version: Int64.random(in: 1...1_000, using: &random), updatedAt: date(&random))
            },
            categories: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                Category(
                    id: Random.id(&random), name: Random.text(&random), icon: "🍜", color: "#AABBCC",
                    isDefault: Bool.random(using: &random), position: Int.random(in: 0...20, using: &random),
                    version: Int64.random(in: 1...1_000, using: &random))
            },
            deleted: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Tombstone(entity: Tombstone.Entity.allCases.randomElement(using: &random)!, id: Random.id(&random))
            })
    }

    /// The page as JSON, written differently each time: optional values absent or `null`, keys
    /// the SDK does not know (with nested values) here and there, `/` escaped or not.
    static func json(_ page: Changes, _ random: inout SplitMix64) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var object = try JSONSerialization.jsonObject(with: try encoder.encode(page))
        let optional: Set<String> = [
            "group", "homeAmount", "paidAt", "memberIds", "amounts", "percents", "shares", "adjustments", "items",
            "extras", "expenseSplitId", "inviteCode", "userId",
        ]
        func vary(_ value: Any, _ random: inout SplitMix64) -> Any {
            if var dictionary = value as? [String: Any] {
                for (key, inner) in dictionary { dictionary[key] = vary(inner, &random) }
                for key in optional where dictionary[key] == nil && Int.random(in: 0..<4, using: &random) == 0 {
                    dictionary[key] = NSNull()
                }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    dictionary["zzNewer"] =
                        [["a": [1, -2.5e3, "x\"y", NSNull(), true, false] as [Any]], [:], []] as [Any]
                }
                return dictionary
            }
            if let array = value as? [Any] { return array.map { vary($0, &random) } }
            return value
        }
        object = vary(object, &random)
        var options: JSONSerialization.WritingOptions = Bool.random(using: &random) ? [.sortedKeys] : []
        if Bool.random(using: &random) { options.insert(.withoutEscapingSlashes) }
        if Bool.random(using: &random) { options.insert(.prettyPrinted) }
        return Array(try JSONSerialization.data(withJSONObject: object, options: options))
    }

    @Test("reads 1,000 random pages of every shape as the generated client does")
    func sameAsGenerated() throws {
        var random = SplitMix64(seed: 20_261_205)
        var seen = (group: 0, null: 0, unknown: 0, items: 0)
        for _ in 0..<1_000 {
            let page = Self.page(&random)
            let bytes = try Self.json(page, &random)
            let text = String(decoding: bytes, as: UTF8.self)
            let read = try Changes(feedPage: bytes)
            #expect(read == (try Self.generated(bytes)), "\(text)")
            #expect(read == page, "\(text)")
            if read != page { break }
            seen.group += page.group == nil ? 0 : 1
            seen.null += text.contains("null") ? 1 : 0
            seen.unknown += text.contains("zzNewer") ? 1 : 0
            seen.items += page.expenses.contains { $0.split.items?.isEmpty == false } ? 1 : 0
        }
        // Each kind of case occurred often.
        #expect(seen.group > 250 && seen.null > 250 && seen.unknown > 250 && seen.items > 50, "\(seen)")
    }

    static let small = Array(
        #"""
        {"cursor":"42","hasMore":false,
        "expenses":[{"id":"e1","groupId":"g","description":"Ramen \u00e9\ud83c\udf5c\n\/\"",
        "amount":"1200","currency":"JPY","category":"c","categoryName":"Food","expenseDate":"2026-11-28",
        "createdByUserId":"u","payers":[{"memberId":"m1","amount":"1200"}],
        "splits":[{"id":"s1","memberId":"m1","amount":"600","isPaid":true,"paidAt":"2026-11-28T05:23:11Z"},
        {"id":"s2","memberId":"m2","amount":"600","isPaid":false,"paidAt":null}],
        "split":{"mode":"itemized",
        "items":[{"description":"Tea","amount":"1200",
        "split":{"mode":"shares","shares":[{"memberId":"m1","shares":"2"}]}}],
        "extras":[{"description":"Tip","amount":"-1"}],"percents":null},
        "homeAmount":null,"version":3,
        "createdAt":"2026-11-28T05:23:11Z","updatedAt":"2026-11-28T05:23:12Z","isDeleted":false}],
        "settlements":[],
        "members":[{"id":"m1","groupId":"g","userId":null,"name":"Aki","role":"owner","canAddExpenses":true,
        "canEditOwnExpenses":true,"canEditAllExpenses":true,"canMarkPaid":true,"active":true,
        "version":1,"updatedAt":"2026-11-28T05:23:11Z"}],
        "categories":[{"id":"c","name":"Food","icon":"🍜","color":"#AABBCC","isDefault":true,
        "position":0,"version":1}],
        "deleted":[{"entity":"settlement","id":"t1"}]}
        """#.utf8)

    @Test("a written-out page: escapes, surrogate pairs, nulls and nesting read as the generated client reads them")
    func writtenOut() throws {
        let read = try Changes(feedPage: Self.small)
        #expect(read == (try Self.generated(Self.small)))
        #expect(read.expenses.first?.description == "Ramen é🍜\n/\"")
        #expect(read.expenses.first?.split.items?.first?.split.shares == [MemberShares(memberId: "m1", shares: "2")])
        #expect(read.expenses.first?.splits.map(\.paidAt) == [Date(timeIntervalSince1970: 1_795_843_391), nil])
        #expect(read.deleted == [Tombstone(entity: .settlement, id: "t1")])
    }

    @Test("refuses what the generated client refuses: every cut of a page, and each wrong page")
    func refusals() throws {
        let text = String(decoding: Self.small, as: UTF8.self)
        var wrong: [String] = (0..<Self.small.count).map { String(decoding: Self.small.prefix($0), as: UTF8.self) }
        let replacements: [(String, String)] = [
            (#""cursor":"42","#, ""),  // a required key missing
            (#""isPaid":true,"#, ""),
            (#""version":3,"#, #""version":null,"#),  // null for a required value
            (#""isPaid":true"#, #""isPaid":"true""#),  // the wrong type
            (#""amount":"1200","currency""#, #""amount":1200,"currency""#),
            (#""version":3"#, #""version":3.5"#),
            (#""version":3"#, #""version":99999999999999999999"#),
            (#""mode":"itemized""#, #""mode":"fancy""#),  // an unknown value of an enumeration
            (#""role":"owner""#, #""role":"king""#),
            (#""entity":"settlement""#, #""entity":"budget""#),
            (#""paidAt":"2026-11-28T05:23:11Z""#, #""paidAt":"yesterday""#),
            (#"\ud83c\udf5c"#, #"\ud83c"#),  // a lone surrogate
            (#"\ud83c\udf5c"#, #"\udf5c"#),
            (#"\n"#, #"\q"#),  // an unknown escape
            (#"\u00e9"#, #"\u00g9"#),
            ("Ramen", "Ra\tmen"),  // a raw control character
            (#""hasMore":false"#, #""hasMore":fals"#),
            (#""splits":["#, #""splits":{"#),
            (#""deleted":[{"#, #""deleted":[,{"#),
            (#"{"id":"s1","#, #"{"id":"s1",,"#),
        ]
        for (from, to) in replacements {
            #expect(text.contains(from), "\(from)")
            wrong.append(text.replacingOccurrences(of: from, with: to))
        }
        wrong += [text + " x", text + "{}", "[" + text + "]", "null", ""]
        for page in wrong {
            let bytes = Array(page.utf8)
            #expect(throws: FeedPageError.self, "\(page)") { try Changes(feedPage: bytes) }
            #expect(throws: (any Error).self, "\(page)") { try Self.generated(bytes) }
        }
        // Bytes that are not UTF-8 in a string.
        var invalid = Self.small
        invalid[try #require(invalid.firstIndex(of: UInt8(ascii: "R")))] = 0xFF
        #expect(throws: FeedPageError.self) { try Changes(feedPage: invalid) }
        #expect(throws: (any Error).self) { try Self.generated(invalid) }
        // White space around the page is not an error.
        #expect(try Changes(feedPage: Array((" \n" + text + "\n").utf8)) == (try Changes(feedPage: Self.small)))
    }

    @Test("the server's own pages: read by hand, equal to the generated client's reading, and errors as before")
    func serverPages() async throws {
        try await CLITrip.with { trip in
            let (client, group, aki, _) = try await BatchReplayTests.akiOffline(trip)
            let ben = try #require(try await client.members(groupID: group.id).first { $0.name == "Ben" })
            for index in 1...12 {
                _ = try await client.addExpense(
                    NewExpense(
                        groupId: group.id, description: "Café \(index) 🍜 \"a/b\"", amount: "\(100 * index)",
                        currency: "JPY", expenseDate: "2026-11-21", paidByMemberId: index % 2 == 0 ? aki.id : ben.id))
            }
            _ = try await client.settle(groupID: group.id, from: ben.id, to: aki.id, amount: "700", currency: "JPY")

            // Every page, as the server sends it, both ways.
            let token = try #require(
                try FileTokenStore(path: trip.config.appendingPathComponent("profiles/default/token").path).load())
            var since: String?
            var pages = 0
            var expenses = 0
            repeat {
                let url = URL(
                    string: trip.url + "/api/groups/\(group.id)/changes?limit=5"
                        + (since.map { "&since=\($0)" } ?? ""))!
                var request = URLRequest(url: url)
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                let (data, _) = try await URLSession.shared.data(for: request)
                let bytes = Array(data)
                let read = try Changes(feedPage: bytes)
                #expect(read == (try Self.generated(bytes)))
                #expect(read == (try await client.changes(groupID: group.id, since: since, limit: 5)))
                expenses += read.expenses.count
                pages += 1
                since = read.hasMore ? read.cursor : nil
            } while since != nil
            #expect(pages >= 3 && expenses >= 12)

            // The SDK's transport asks for gzip and inflates it (on Linux AsyncHTTPClient, which
            // does neither by default; HTTPTransport.swift).
            var whole = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/api/groups/\(group.id)/changes")
            whole.headerFields[.authorization] = "Bearer \(token)"
            let (head, body) = try await HTTPTransport.shared.send(
                whole, body: nil, baseURL: try #require(URL(string: trip.url)), operationID: "listChanges")
            #expect(head.status == .ok && head.headerFields[.contentEncoding] == "gzip")
            let inflated = try await [UInt8](collecting: try #require(body), upTo: 1 << 24)
            #expect(try Changes(feedPage: inflated).expenses.count == expenses)

            // The answers that are not a page are the errors `call` gives.
            func refused(_ matches: @escaping (SplitterError) -> Bool, _ body: () async throws -> Changes) async {
                do {
                    _ = try await body()
                    Issue.record("answered a page")
                } catch let error as SplitterError {
                    #expect(matches(error), "\(error)")
                } catch {
                    Issue.record("not a SplitterError: \(error)")
                }
            }
            func notFound(_ error: SplitterError) -> Bool { if case .notFound = error { true } else { false } }
            await refused(notFound) { try await client.changes(groupID: UUID().uuidString.lowercased(), since: nil) }
            // A group id with a slash in it stays one path segment: an unknown group.
            await refused(notFound) { try await client.changes(groupID: group.id + "/../" + group.id, since: nil) }
            await refused({ if case .validation = $0 { true } else { false } }) {
                try await client.changes(groupID: group.id, since: "not a cursor")
            }
            let stranger = SplitterClient(serverURL: try #require(URL(string: trip.url)), tokens: InMemoryTokenStore())
            await refused({ if case .unauthorized = $0 { true } else { false } }) {
                try await stranger.changes(groupID: group.id, since: nil)
            }
            let gone = SplitterClient(
                serverURL: try #require(URL(string: "http://127.0.0.1:1")), tokens: InMemoryTokenStore())
            // At once, as URLSession answers: AsyncHTTPClient by default tries to connect again until
            // its connect timeout (this call took 10.0 s so; each offline command waited as long).
            let asked = ContinuousClock.now
            // and says why ("Connection refused", not "The operation could not be completed")
            // (and plainly: "connection refused", not NIO's nested "connection reset (error set): …")
            await refused({ if case .offline(let why) = $0 { why == "connection refused, at http://127.0.0.1:1" } else { false } })
            {
                try await gone.changes(groupID: group.id, since: nil)
            }
            #expect(ContinuousClock.now - asked < .seconds(5))
        }
    }
}

@Suite("The SDK's HTTP transport")
struct HTTPTransportTests {
    #if canImport(FoundationNetworking)
        @Test("on Linux a proxy named in the environment, in either case, keeps URLSession, which honours it")
        func proxyKeepsURLSession() {
            #expect(!HTTPTransport.usesProxy([:]))
            #expect(!HTTPTransport.usesProxy(["no_proxy": "localhost", "http_proxy": ""]))
            for name in ["http_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
                #expect(HTTPTransport.usesProxy([name: "http://proxy.example:3128"]), "\(name)")
            }
        }
    #endif
}
