import Foundation
import HTTPTypes
import Testing

@testable import SplitServer

/// Which requests leave the event loop, and the gate that lets only a few large reads run at
/// once (memory, DESIGN §9).
@Suite("Heavy requests: off the event loop, large reads a few at a time")
struct HeavyRequestsTests {
    @Test("at most `limit` inside at once; everyone gets in and out")
    func limit() async throws {
        let gate = HeavyRequestMiddleware.Gate(limit: 3)
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    await gate.enter()
                    await counter.enter()
                    try? await Task.sleep(for: .milliseconds(Int.random(in: 1...5)))
                    await counter.leave()
                    await gate.leave()
                }
            }
        }
        #expect(await counter.most == 3)
        #expect(await counter.total == 40)
        #expect(await gate.inside == 0)
    }

    @Test("the change feed and expense lists are large reads; batches, imports and exports are long; the rest is light")
    func weights() {
        let id = UUID().uuidString.lowercased()
        let weight = HeavyRequestMiddleware.weight
        #expect(weight(.get, "/api/groups/\(id)/changes") == .largeRead)
        #expect(weight(.get, "/api/groups/\(id)/expenses") == .largeRead)
        for (method, path) in [
            (HTTPRequest.Method.post, "/api/expenses/batch"), (.post, "/api/imports"), (.post, "/api/groups/\(id)/imports"),
            (.get, "/api/groups/\(id)/export"), (.get, "/auth/export"), (.post, "/import"), (.post, "/groups/\(id)/import"),
            (.get, "/groups/\(id)/export"), (.get, "/account/export"),
        ] {
            #expect(weight(method, path) == .long, "\(method) \(path)")
        }
        for (method, path) in [
            (HTTPRequest.Method.get, "/api/groups/\(id)/balances"), (.get, "/api/groups/\(id)"), (.post, "/api/expenses"),
            (.get, "/api/groups/\(id)/changes/x"), (.get, "/groups/\(id)/expenses"), (.get, "/api/groups"),
            (.post, "/api/groups/\(id)/expenses"), (.get, "/health"), (.get, "/auth/me"), (.get, "/import"),
            (.get, "/api/groups/\(id)/imports"), (.post, "/api/groups/\(id)/changes"),
        ] {
            #expect(weight(method, path) == .light, "\(method) \(path)")
        }
    }

    actor Counter {
        var now = 0
        var most = 0
        var total = 0

        func enter() {
            now += 1
            total += 1
            most = max(most, now)
        }

        func leave() { now -= 1 }
    }
}
