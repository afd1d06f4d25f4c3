import ServiceLifecycle
import SplitStore

/// Feeds the database's event bus from PostgreSQL's notifications while the server runs
/// (`Database.listenForEvents`; nothing to do on SQLite), and closes the database after the
/// HTTP server has drained, on SIGTERM or SIGINT: services shut down in reverse order, and the
/// server is started after this one.
struct DatabaseService: Service {
    let database: Database

    func run() async throws {
        await cancelWhenGracefulShutdown { await database.listenForEvents() }
        try? await gracefulShutdown()
        try await database.close()
    }
}
