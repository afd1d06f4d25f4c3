import CompressNIO
import Foundation
import HTTPTypes
import NIOCore
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

@Suite("The change feed")
struct ChangeFeedTests {
    @Test("a large answer goes gzipped to a client that accepts it, the same bytes once unpacked; small ones as they are")
    func gzip() async throws {
        try await TestApp.with(.sqlite) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let path = "/api/groups/\(trip.groupID)/changes"
            let plain = try await api.call(.get, path, token: aki)
            #expect(plain.headers[.contentEncoding] == nil && plain.body.count > 1_024)
            for accept in ["gzip", "br, gzip;q=0.5", "*"] {
                let packed = try await api.call(.get, path, token: aki, headers: [.acceptEncoding: accept])
                #expect(packed.headers[.contentEncoding] == "gzip", "\(accept)")
                #expect(packed.headers[.vary]?.contains("Accept-Encoding") == true)
                #expect(packed.body.count < plain.body.count / 2, "\(packed.body.count) of \(plain.body.count)")
                var buffer = ByteBuffer(bytes: packed.body)
                let unpacked = try buffer.decompress(with: .gzip())
                #expect(Data(unpacked.readableBytesView) == plain.body)
            }
            // Many at once, more than the compressors kept for reuse: each answer is whole.
            let unpackedAtOnce = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        let packed = try await api.call(.get, path, token: aki, headers: [.acceptEncoding: "gzip"])
                        var buffer = ByteBuffer(bytes: packed.body)
                        return Data(try buffer.decompress(with: .gzip()).readableBytesView)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(unpackedAtOnce.count == 12 && unpackedAtOnce.allSatisfy { $0 == plain.body })
            for refused in ["gzip;q=0", "br", "identity"] {
                let reply = try await api.call(.get, path, token: aki, headers: [.acceptEncoding: refused])
                #expect(reply.headers[.contentEncoding] == nil && reply.body == plain.body, "\(refused)")
            }
            let small = try await api.call(.get, "/health", headers: [.acceptEncoding: "gzip"])
            #expect(small.headers[.contentEncoding] == nil && small.status == .ok)
        }
    }

    @Test(
        "a reader polling during parallel writers sees every change exactly once it happens",
        arguments: TestDatabases.all)
    func noChangeSkipped(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let trip = try await Trip.make(api)
            let aki = trip.tokens["Aki"]!
            let first = try await api.call(.get, "/api/groups/\(trip.groupID)/changes", token: aki)
            #expect(first.list("members").count == 4 && first.list("categories").count == 6)
            #expect(first.string("group", "id") == trip.groupID)
            let start = try #require(first.string("cursor"))
            let done = Atomic<Bool>(false)
            let body = trip.expense(
                "E", "300", "JPY", paidBy: [("Aki", "300")],
                split: #"{"mode":"equal","memberIds":[\#(trip.ids(["Aki", "Ben"]))]}"#)
            async let reader: (Set<String>, Set<String>, String) = {
                var seen: Set<String> = []
                var deleted: Set<String> = []
                var cursor = start
                while true {
                    let finished = done.load(ordering: .acquiring)
                    let page = try await api.call(
                        .get, "/api/groups/\(trip.groupID)/changes?since=\(cursor)&limit=7", token: aki)
                    for expense in page.list("expenses") { seen.insert(expense.string("id")!) }
                    for tombstone in page.list("deleted") { deleted.insert(tombstone.string("id")!) }
                    cursor = page.string("cursor")!
                    if finished && page.bool("hasMore") == false { return (seen, deleted, cursor) }
                }
            }()
            let created = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var ids: [String] = []
                        for index in 0..<15 {
                            let reply = try await api.call(.post, "/api/expenses", token: aki, json: body)
                            let id = reply.string("expense", "id")!
                            ids.append(id)
                            if index % 5 == 0 { _ = try await api.call(.delete, "/api/expenses/\(id)", token: aki) }
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            done.store(true, ordering: .releasing)
            let (seen, deleted, cursor) = try await reader
            let deletedIDs = Set(created.enumerated().filter { $0.offset % 15 % 5 == 0 }.map(\.element))
            #expect(seen.union(deleted) == Set(created))
            #expect(deletedIDs.isSubset(of: deleted))
            // Nothing after the last cursor.
            let after = try await api.call(.get, "/api/groups/\(trip.groupID)/changes?since=\(cursor)", token: aki)
            #expect(after.list("expenses").isEmpty && after.list("deleted").isEmpty && after.bool("hasMore") == false)
        }
    }
}
