import ServiceLifecycle
import SplitStore

/// Closes the database after the HTTP server has drained, on SIGTERM or SIGINT: services shut
/// down in reverse order, and the server is started after this one.
struct DatabaseService: Service {
    let database: Database

    func run() async throws {
        try? await gracefulShutdown()
        try await database.close()
    }
}
