import Foundation
import SplitStore
import Synchronization

public enum ListeningError: Error {
    case didNotStart
}

/// Runs `body` with the database's listener feeding its event bus, once the listener is in
/// place (PostgreSQL; on SQLite transactions publish directly and there is nothing to start),
/// as a running server's `DatabaseService` does.
public func listening<T>(_ database: Database, _ body: () async throws -> T) async throws -> T {
    let ready = Atomic<Bool>(database.backend == .sqlite)
    let listener = Task { await database.listenForEvents { ready.store(true, ordering: .relaxed) } }
    defer { listener.cancel() }
    let deadline = Date().addingTimeInterval(10)
    while !ready.load(ordering: .relaxed), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    guard ready.load(ordering: .relaxed) else { throw ListeningError.didNotStart }
    return try await body()
}
