import CompressNIO
import Foundation
import HTTPTypes
import NIOCore
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitServer

/// Issue 16: pages of the change feed are made once and sent again to the next device that asks
/// while the group is unchanged, and never once it has changed.
@Suite("Feed pages kept for the next device")
struct FeedPageCacheTests {
    typealias Key = FeedPageCache.Key
    typealias Page = FeedPageCache.Page

    static func key(_ group: UUID, seq: Int64 = 1, since: String? = nil) -> Key {
        Key(groupID: group, since: since, limit: nil, changeSeq: seq, gzip: true)
    }

    static func page(_ size: Int, _ byte: UInt8 = 1, viewer: UUID? = nil) -> Page {
        Page(bytes: [UInt8](repeating: byte, count: size), gzipped: true, viewer: viewer)
    }

    @Test("twenty devices asking at once for one page make it once, and the next ones find it kept")
    func madeOnce() async throws {
        let cache = FeedPageCache(smallest: 1)
        let made = Counter()
        let key = Self.key(UUID())
        let pages = try await withThrowingTaskGroup(of: [UInt8].self) { tasks in
            for _ in 0..<20 {
                tasks.addTask {
                    try await cache.page(key, viewer: UUID()) {
                        made.add()
                        try await Task.sleep(for: .milliseconds(50))
                        return Self.page(100, 7)
                    }.bytes
                }
            }
            return try await tasks.reduce(into: []) { $0.append($1) }
        }
        #expect(made.value == 1)
        #expect(pages.count == 20 && pages.allSatisfy { $0 == [UInt8](repeating: 7, count: 100) })
        let again = try await cache.page(key, viewer: UUID()) {
            made.add()
            return Self.page(100, 8)
        }
        #expect(again.bytes.first == 7 && made.value == 1)
        #expect(cache.storedBytes == 100)
    }

    @Test("a page that shows a member's membership is sent to that member only")
    func viewerPage() async throws {
        let cache = FeedPageCache(smallest: 1)
        let key = Self.key(UUID())
        let (aki, ben) = (UUID(), UUID())
        let akis = try await cache.page(key, viewer: aki) { Self.page(10, 1, viewer: aki) }
        let bens = try await cache.page(key, viewer: ben) { Self.page(10, 2, viewer: ben) }
        #expect(akis.bytes.first == 1 && bens.bytes.first == 2)
        // The last one made is kept: Ben finds his; Aki's is made again.
        #expect(try await cache.page(key, viewer: ben) { Self.page(10, 3, viewer: ben) }.bytes.first == 2)
        #expect(try await cache.page(key, viewer: aki) { Self.page(10, 4, viewer: aki) }.bytes.first == 4)

        // A member waiting for another member's page makes their own.
        let other = Self.key(UUID())
        let started = AsyncStream<Void>.makeStream()
        async let first = cache.page(other, viewer: aki) {
            started.continuation.yield()
            try await Task.sleep(for: .milliseconds(100))
            return Self.page(10, 5, viewer: aki)
        }
        for await _ in started.stream { break }
        let second = try await cache.page(other, viewer: ben) { Self.page(10, 6, viewer: ben) }
        #expect(try await first.bytes.first == 5 && second.bytes.first == 6)
    }

    @Test("when the request making a page fails, those that waited for it make their own")
    func failedLeader() async throws {
        struct Refused: Error {}
        let cache = FeedPageCache(smallest: 1)
        let key = Self.key(UUID())
        let started = AsyncStream<Void>.makeStream()
        async let failed: Page = cache.page(key, viewer: UUID()) {
            started.continuation.yield()
            try await Task.sleep(for: .milliseconds(100))
            throw Refused()
        }
        for await _ in started.stream { break }
        let waited = try await cache.page(key, viewer: UUID()) { Self.page(10, 9) }
        #expect(waited.bytes.first == 9)
        do {
            _ = try await failed
            Issue.record("the failed request answered")
        } catch is Refused {}
        #expect(cache.storedBytes == 10)
    }

    @Test("pages beyond the room go least recently used first; a group's older pages go at its change")
    func room() async throws {
        let cache = FeedPageCache(capacity: 1_000, smallest: 5)
        let groups = (0..<5).map { _ in UUID() }
        func keep(_ index: Int, _ size: Int, since: String? = nil, seq: Int64 = 1) async throws {
            _ = try await cache.page(Self.key(groups[index], seq: seq, since: since), viewer: UUID()) { Self.page(size) }
        }
        func isKept(_ index: Int) async throws -> Bool {
            var made = false
            _ = try await cache.page(Self.key(groups[index]), viewer: UUID()) {
                made = true
                return Self.page(5)
            }
            return !made
        }
        for index in 0..<4 { try await keep(index, 250) }
        #expect(cache.storedBytes == 1_000)
        #expect(try await isKept(0))  // used again: now the second is the least recently used
        try await keep(4, 250)
        #expect(cache.storedBytes == 1_000)
        #expect(try await !isKept(1))  // gone, made again (5 bytes), which pushes out the third
        #expect(cache.storedBytes == 755)
        for index in [0, 3, 4] { #expect(try await isKept(index)) }
        // A page of more than a quarter of the room, or smaller than the smallest kept, is sent
        // but not kept.
        let big = try await cache.page(Self.key(UUID()), viewer: UUID()) { Self.page(251) }
        let small = try await cache.page(Self.key(UUID()), viewer: UUID()) { Self.page(4) }
        #expect(big.bytes.count == 251 && small.bytes.count == 4 && cache.storedBytes == 755)
        // The group changed: its pages of the old number go as soon as one of the new is kept.
        try await keep(0, 10, since: "5")
        #expect(cache.storedBytes == 765)
        try await keep(0, 20, seq: 2)
        #expect(cache.storedBytes == 765 - 250 - 10 + 20)
    }

    @Test(
        "through the API, a kept page is never sent once the group has changed, nor to another member",
        arguments: TestDatabases.all)
    func throughTheAPI(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await GroupDocumentTests.richTrip(api)
            let group = trip.groupID
            let (aki, ben) = (trip.tokens["Aki"]!, trip.tokens["Ben"]!)
            // Enough expenses for gzipped pages of 40 larger than the smallest page kept.
            for index in 0..<60 {
                let body = trip.expense(
                    "Snack \(index)", "\(300 + index)", "JPY", paidBy: [("Cho", "\(300 + index)")],
                    split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben", "Cho", "Dan"]))]}"#)
                #expect(try await api.call(.post, "/api/expenses", token: aki, json: body).status == .created)
            }
            var largest = 0
            let path = "/api/groups/\(group)/changes"
            // The generated server answers an Accept of two types, and keeps nothing.
            let generated: HTTPFields = [.accept: "application/json, */*"]

            /// Every page, gzipped and not, twice (the second from what was kept), is the page
            /// the generated server makes now.
            func feedIsCurrent(_ token: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                var since = ""
                for _ in 0..<50 {
                    let query = since.isEmpty ? "?limit=40" : "?since=\(since)&limit=40"
                    let now = try await api.call(.get, path + query, token: token, headers: generated)
                    #expect(now.status == .ok, sourceLocation: sourceLocation)
                    for _ in 0..<2 {
                        let plain = try await api.call(.get, path + query, token: token)
                        #expect(plain.body == now.body, "\(name) \(query)", sourceLocation: sourceLocation)
                        let packed = try await api.call(
                            .get, path + query, token: token, headers: [.acceptEncoding: "gzip"])
                        largest = max(largest, packed.body.count)
                        var unpacked = Data(packed.body)
                        if packed.headers[.contentEncoding] == "gzip" {
                            var buffer = ByteBuffer(bytes: packed.body)
                            unpacked = Data(try buffer.decompress(with: .gzip()).readableBytesView)
                        }
                        #expect(unpacked == now.body, "\(name) \(query) gzip", sourceLocation: sourceLocation)
                    }
                    since = try #require(now.string("cursor"))
                    if now.bool("hasMore") != true { return }
                }
                Issue.record("more than 50 pages", sourceLocation: sourceLocation)
            }

            try await feedIsCurrent(aki, "Aki")
            #expect(largest >= FeedPageCache().smallest, "no gzipped page large enough to be kept")
            // The first page holds the group, with the caller's own membership.
            let akisFirst = try await api.call(.get, path + "?limit=40", token: aki)
            let bensFirst = try await api.call(.get, path + "?limit=40", token: ben)
            #expect(akisFirst.string("group", "myMemberId") == trip.members["Aki"])
            #expect(bensFirst.string("group", "myMemberId") == trip.members["Ben"])
            try await feedIsCurrent(ben, "Ben")

            let feed = try await api.call(.get, path, token: aki)
            let expense = try #require(feed.list("expenses").first { $0.string("description") == "Sushi" })
            let expenseID = try #require(expense.string("id"))
            // Not Ben's share: he paid the sushi, so his own share has nothing to pay (409). The
            // shares' order follows their ids, made in one millisecond, so `first` was Ben's now
            // and then (a flake of a loaded run).
            let share = try #require(
                expense.list("splits").first { $0.string("memberId") != trip.members["Ben"] }?.string("id"))
            let category = try #require(feed.list("categories").first { $0.string("name") == "Onsen" }?.string("id"))
            /// The version of the object with `id` among the feed's `list` now.
            func version(_ list: String, _ id: String) async throws -> Int {
                let now = try await api.call(.get, path, token: aki)
                return try #require(now.list(list).first { $0.string("id") == id }?.int("version"))
            }
            let writes: [(String, () async throws -> Reply)] = [
                ("a new expense", {
                    let body = trip.expense(
                        "Ramen", "1800", "JPY", paidBy: [("Cho", "1800")],
                        split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Cho"]))]}"#)
                    return try await api.call(.post, "/api/expenses", token: aki, json: body)
                }),
                ("a paid mark", {
                    try await api.call(.patch, "/api/expense-splits/\(share)/payment", token: aki, json: #"{"isPaid":true}"#)
                }),
                ("an edit", {
                    let body = #"{"description":"Sushi at the market","version":\#(try await version("expenses", expenseID))}"#
                    return try await api.call(.patch, "/api/expenses/\(expenseID)", token: aki, json: body)
                }),
                ("a category's new name", {
                    let body = #"{"name":"Hot spring","version":\#(try await version("categories", category))}"#
                    return try await api.call(.patch, "/api/groups/\(group)/categories/\(category)", token: aki, json: body)
                }),
                ("a member's new name", {
                    try await api.call(
                        .patch, "/api/groups/\(group)/members/\(trip.members["Dan"]!)", token: aki, json: #"{"name":"Daniel"}"#)
                }),
                ("the group's new name and currency", {
                    try await api.call(
                        .patch, "/api/groups/\(group)", token: aki, json: #"{"name":"Japan 2027","homeCurrency":"USD"}"#)
                }),
                ("Ben's new role", {
                    try await api.call(
                        .patch, "/api/groups/\(group)/members/\(trip.members["Ben"]!)", token: aki, json: #"{"role":"member"}"#)
                }),
                ("a deletion", { try await api.call(.delete, "/api/expenses/\(expenseID)", token: aki) }),
            ]
            for (name, write) in writes {
                let written = try await write()
                #expect((200..<300).contains(written.status.code), "\(name): \(written.text)")
                try await feedIsCurrent(aki, "Aki after \(name)")
                try await feedIsCurrent(ben, "Ben after \(name)")
            }
            let last = try await api.call(.get, path, token: ben)
            #expect(last.string("group", "name") == "Japan 2027" && last.string("group", "myRole") == "member")
            #expect(!last.list("expenses").contains { $0.string("id") == expenseID })
        }
    }

    @Test("two servers on one PostgreSQL: a page kept by one is not sent after a write through the other")
    func twoServers() async throws {
        guard TestDatabases.all.contains(.postgres) else { return }
        try await TestDatabases.withConfiguration(.postgres) { configuration in
            guard case .postgres(let url) = configuration else { return }
            async let first = ServerProcess(environment: ["DATABASE_URL": url])
            async let second = ServerProcess(environment: ["DATABASE_URL": url])
            let servers = try await [first, second]
            let (one, two) = (servers[0].baseURL, servers[1].baseURL)
            let registered = try await EndToEndTests.request(
                one, "POST", "/auth/register",
                body: #"{"email":"feed-\#(UUID())@example.com","password":"correct horse","displayName":"Aki"}"#)
            let token = try #require(registered.json["token"] as? String, "\(registered.status)")
            let created = try await EndToEndTests.request(
                one, "POST", "/api/groups", token: token, body: #"{"name":"Two servers","homeCurrency":"EUR"}"#)
            let group = try #require(
                created.json["group"].flatMap { $0 as? [String: Any] }?["id"] as? String, "\(created.status)")
            let me = try #require(created.json["group"].flatMap { $0 as? [String: Any] }?["myMemberId"] as? String)
            // Enough expenses for a feed page large enough to be kept, gzipped or not.
            for index in 0..<60 {
                let expense = #"""
                    {"groupId":"\#(group)","description":"Snack \#(index)","amount":"\#(100 + index)","currency":"EUR",
                     "expenseDate":"2026-11-20","paidBy":[{"memberId":"\#(me)","amount":"\#(100 + index)"}],
                     "split":{"mode":"equal","memberIds":["\#(me)"]}}
                    """#
                #expect(try await EndToEndTests.request(one, "POST", "/api/expenses", token: token, body: expense).status == 201)
            }
            let feed = "/api/groups/\(group)/changes"
            let before = try await EndToEndTests.request(one, "GET", feed, token: token)
            #expect(before.body.count >= FeedPageCache().smallest)
            #expect(before.json["group"].flatMap { $0 as? [String: Any] }?["name"] as? String == "Two servers")
            #expect(try await EndToEndTests.request(one, "GET", feed, token: token).body == before.body)
            let renamed = try await EndToEndTests.request(
                two, "PATCH", "/api/groups/\(group)", token: token, body: #"{"name":"Renamed on the other server"}"#)
            #expect(renamed.status == 200)
            let after = try await EndToEndTests.request(one, "GET", feed, token: token)
            #expect(after.json["group"].flatMap { $0 as? [String: Any] }?["name"] as? String == "Renamed on the other server")
            var statuses: [Int32] = []
            for server in servers { statuses.append(try await server.stop()) }
            #expect(statuses == [0, 0])
        }
    }
}

/// A count that concurrent tasks add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
