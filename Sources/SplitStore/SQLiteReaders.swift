/// The connections SQLite reads run on, each under its own lock: a read takes a free one, or
/// waits for the one fewest others wait for. Two, so that two reads (two requests, or the two
/// halves of one large read, `ExpenseStore.expenses(ids:)`) use both of a small machine's cores
/// (issue 16). An in-memory database has its writer as its one reader, under the writer's lock.
final class SQLiteReaders: Sendable {
    /// Reader connections a database file gets.
    static let count = 2

    private let readers: [(connection: SQLiteHandle, lock: AsyncLock)]

    init(_ connections: [SQLiteHandle]) {
        precondition(!connections.isEmpty)
        readers = connections.map { ($0, AsyncLock()) }
    }

    init(writer: SQLiteHandle, lock: AsyncLock) {
        readers = [(writer, lock)]
    }

    var connections: [SQLiteHandle] { readers.map(\.connection) }

    func withReader<T: Sendable>(_ body: @Sendable (SQLiteHandle) async throws -> T) async throws -> T {
        let reader: (connection: SQLiteHandle, lock: AsyncLock)
        if let free = readers.first(where: { $0.lock.tryLock() }) {
            reader = free
        } else {
            reader = readers.min { $0.lock.waiting < $1.lock.waiting }!
            await reader.lock.lock()
        }
        do {
            let result = try await body(reader.connection)
            reader.lock.unlock()
            return result
        } catch {
            reader.lock.unlock()
            throw error
        }
    }

    /// Closes every reader once its read is done; `writer` is left to its owner.
    func close(except writer: SQLiteHandle) async {
        for reader in readers where reader.connection !== writer {
            await reader.lock.withLock { reader.connection.close() }
        }
    }
}
