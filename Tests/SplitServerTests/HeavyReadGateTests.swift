import Foundation
import Testing

@testable import SplitServer

/// The gate that lets only a few large reads run at once (memory, DESIGN §9).
@Suite("Large reads, a few at a time")
struct HeavyReadGateTests {
    @Test("at most `limit` inside at once; everyone gets in and out")
    func limit() async throws {
        let gate = HeavyReadMiddleware.Gate(limit: 3)
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

    @Test("only the change feed and expense lists of a group are gated")
    func paths() {
        let id = UUID().uuidString.lowercased()
        #expect(HeavyReadMiddleware.isHeavy("/api/groups/\(id)/changes"))
        #expect(HeavyReadMiddleware.isHeavy("/api/groups/\(id)/expenses"))
        for path in [
            "/api/groups/\(id)/balances", "/api/groups/\(id)", "/api/expenses", "/api/groups/\(id)/changes/x",
            "/groups/\(id)/expenses", "/api/groups",
        ] {
            #expect(!HeavyReadMiddleware.isHeavy(path), "\(path)")
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
