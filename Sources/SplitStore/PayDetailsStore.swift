import Foundation
import SQLKit
import SplitCore

/// Each account's pay details (issue 19), as the application's own JSON (`PayDetails`).
public struct PayDetailsStore: Sendable {
    let database: Database

    public init(database: Database) { self.database = database }

    public func methods(userID: UUID) async throws -> String? {
        try await database.read { sql in
            try await sql.raw("SELECT methods FROM pay_details WHERE user_id = \(bind: userID.text)").first()?
                .decode(column: "methods", as: String.self)
        }
    }

    public func save(userID: UUID, methods: String, now: Int64) async throws {
        try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO pay_details (user_id, methods, updated_at) VALUES (\(bind: userID.text), \(bind: methods), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET methods = excluded.methods, updated_at = excluded.updated_at
                """
            ).run()
        }
    }
}
