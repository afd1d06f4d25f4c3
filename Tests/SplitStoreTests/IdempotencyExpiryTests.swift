import Foundation
import SQLKit
import SplitTestSupport
import Testing

@testable import SplitStore

/// Issue 14 item 10: idempotency keys are kept for their window, then removed.
@Suite("Idempotency keys expire")
struct IdempotencyExpiryTests {
    @Test(
        "a key answers as before within 30 days; after that it is gone and the row removed",
        arguments: TestDatabases.all)
    func expiry(backend: Database.Backend) async throws {
        try await TestDatabases.with(backend) { database in
            try await Migrations.run(on: database)
            let user = try await AccountStore(database: database).createUser(
                UserRecord(
                    id: UUID(), email: "aki@example.com", phone: nil, displayName: "Aki", passwordHash: "unused",
                    createdAt: 0, updatedAt: 0))
            let start: Int64 = 1_800_000_000_000
            func send(_ hash: String, at now: Int64) async throws -> String {
                let claim = IdempotencyClaim(userID: user.id, key: "k-1", requestHash: hash)
                let outcome = try await database.transaction { sql in
                    try await Idempotency.run(claim, now: now, sql) {
                        ((), StoredResponse(status: 201, body: Data(hash.utf8)))
                    }
                }
                switch outcome {
                case .created: return "created"
                case .replayed(let response): return "replayed " + String(decoding: response.body, as: UTF8.self)
                case .keyReused: return "reused"
                }
            }
            #expect(try await send("a", at: start) == "created")
            #expect(try await send("a", at: start + Idempotency.window - 1) == "replayed a")
            #expect(try await send("b", at: start + Idempotency.window - 1) == "reused")
            // Past the window the old row is removed by the next keyed create: the key is new again.
            #expect(try await send("b", at: start + Idempotency.window + 1) == "created")
            let rows = try await database.read { sql in
                try await sql.raw("SELECT request_hash FROM idempotency_keys").all().map {
                    try $0.decode(column: "request_hash", as: String.self)
                }
            }
            #expect(rows == ["b"])
        }
    }
}
