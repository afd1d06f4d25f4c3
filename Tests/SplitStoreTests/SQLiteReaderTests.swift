import Foundation
import SQLKit
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitStore

/// SQLite's reads run on connections of their own (issue 16): they neither wait for a
/// transaction nor hold one up, each sees one snapshot, and two run at once.
@Suite("SQLite reads beside the writer")
struct SQLiteReaderTests {
    static func count(_ sql: any SQLDatabase) async throws -> Int {
        try await sql.raw("SELECT count(*) AS n FROM numbers").first()!.decode(column: "n", as: Int.self)
    }

    /// A fresh SQLite database with an empty table `numbers`.
    static func withNumbers(_ body: (Database) async throws -> Void) async throws {
        try await TestDatabases.with(.sqlite) { database in
            try await database.transaction { try await $0.raw("CREATE TABLE numbers (n INTEGER)").run() }
            try await body(database)
        }
    }

    /// `body`'s answer, or a failure after `seconds` (so a read that waits for the writer fails
    /// the test instead of hanging it).
    static func within<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw Timeout() }
            return answer
        }
    }

    struct Timeout: Error {}

    @Test("a read is answered while a transaction is open, and sees only what had committed")
    func readBesideTransaction() async throws {
        try await Self.withNumbers { database in
            let (inside, insideSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await database.transaction { sql in
                    try await sql.raw("INSERT INTO numbers VALUES (1)").run()
                    insideSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in inside { break }
            let during: Result<Int, any Error>
            do {
                during = .success(try await Self.within(seconds: 10) { try await database.read(Self.count) })
            } catch {
                during = .failure(error)
            }
            releaseSignal.yield()
            try await writer.value
            #expect(try during.get() == 0)
            #expect(try await database.read(Self.count) == 1)
        }
    }

    @Test("two reads run at once, each on its own connection; a third waits for one of them")
    func twoReadsAtOnce() async throws {
        try await Self.withNumbers { database in
            #expect(database.readsInParallel)
            try await database.transaction { try await $0.raw("INSERT INTO numbers VALUES (1)").run() }
            /// A read that holds its connection until released (waited for until it has it, or
            /// for 10 s: a read that cannot start must fail the test, not hang it).
            func held() async -> (Task<Int, any Error>, release: AsyncStream<Void>.Continuation) {
                let inside = Flag()
                let (release, releaseSignal) = AsyncStream<Void>.makeStream()
                let task = Task {
                    try await database.read { sql in
                        let count = try await Self.count(sql)
                        inside.value.store(true, ordering: .relaxed)
                        for await _ in release { break }
                        return count
                    }
                }
                #expect(await inside.waited(seconds: 10), "a read holds a connection")
                return (task, releaseSignal)
            }
            let (first, releaseFirst) = await held()
            defer { releaseFirst.yield() }
            /// A read that tells when it is answered (not awaited: one that waits must not hang
            /// the test).
            func read() -> (Task<Int, any Error>, done: Flag) {
                let done = Flag()
                let task = Task {
                    let count = try await database.read(Self.count)
                    done.value.store(true, ordering: .relaxed)
                    return count
                }
                return (task, done)
            }
            // A second read is answered while the first holds its connection.
            let (answered, answeredDone) = read()
            #expect(await answeredDone.waited(seconds: 10))
            releaseFirst.yield()  // lets it go, should the assertion above have failed
            #expect(try await answered.value == 1)
            #expect(try await first.value == 1)
            // Two held at once: a third read waits until one lets go.
            let (one, releaseOne) = await held()
            defer { releaseOne.yield() }
            let (two, releaseTwo) = await held()
            defer { releaseTwo.yield() }
            let (third, thirdDone) = read()
            let answeredEarly = await thirdDone.waited(seconds: 0.2)
            #expect(!answeredEarly)
            releaseOne.yield()
            #expect(try await one.value == 1)
            #expect(await thirdDone.waited(seconds: 10))
            releaseTwo.yield()
            #expect(try await third.value == 1)
            #expect(try await two.value == 1)
        }
    }

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)

        /// Whether it was set within `seconds` (polled).
        func waited(seconds: Double) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !value.load(ordering: .relaxed), Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            return value.load(ordering: .relaxed)
        }
    }

    @Test("a read's statements see one snapshot: a write committed meanwhile shows in the next read")
    func snapshot() async throws {
        try await Self.withNumbers { database in
            let (first, second) = try await database.read { sql in
                let first = try await Self.count(sql)
                try await Self.within(seconds: 10) {
                    try await database.transaction { try await $0.raw("INSERT INTO numbers VALUES (1)").run() }
                }
                return (first, try await Self.count(sql))
            }
            #expect(first == 0)
            #expect(second == 0)
            #expect(try await database.read(Self.count) == 1)
        }
    }

    @Test("a write in a read's body fails and changes nothing")
    func noWritesInReads() async throws {
        try await Self.withNumbers { database in
            await #expect(throws: SQLiteFailure.self) {
                try await database.read { try await $0.raw("INSERT INTO numbers VALUES (1)").run() }
            }
            #expect(try await database.read(Self.count) == 0)
            try await database.transaction { try await $0.raw("INSERT INTO numbers VALUES (2)").run() }
            #expect(try await database.read(Self.count) == 1)
        }
    }

    @Test("after another process changes a table, a cached SELECT * reads the new columns by their names")
    func schemaChangedElsewhere() async throws {
        let (before, after) = try await TestDatabases.withTwo(.sqlite) { database, other in
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE wide (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)").run()
                try await sql.raw("INSERT INTO wide VALUES (1, 10, 20)").run()
            }
            // The statement is cached on both of this database's connections, with its columns.
            let row: @Sendable () async throws -> [String: Int?] = {
                let read = try await database.read { sql in
                    try await sql.raw("SELECT * FROM wide WHERE id = \(bind: Int64(1))").first()!
                }
                return Dictionary(
                    uniqueKeysWithValues: try read.allColumns.map { ($0, try read.decode(column: $0, as: Int?.self)) })
            }
            let before = try await row()
            _ = try await row()
            // Another process's migration: a column goes, so b moves to a's place.
            try await other.transaction { try await $0.raw("ALTER TABLE wide DROP COLUMN a").run() }
            return (before, try await row())
        }
        #expect(before == ["id": 1, "a": 10, "b": 20])
        #expect(after == ["id": 1, "b": 20])
    }

    @Test("file::memory: is one database in one connection, not a second empty one for reads")
    func uriMemory() async throws {
        #expect(DatabaseConfiguration.isInMemory("file::memory:"))
        let database = try await Database.open(.sqlite(path: "file::memory:"), logger: TestDatabases.logger)
        let outcome: Result<Int, any Error>
        do {
            try await database.transaction { sql in
                try await sql.raw("CREATE TABLE numbers (n INTEGER)").run()
                try await sql.raw("INSERT INTO numbers VALUES (1)").run()
            }
            outcome = .success(try await database.read(Self.count))
        } catch {
            outcome = .failure(error)
        }
        try? await database.close()
        #expect(try outcome.get() == 1)
    }
}

/// A SQLite file's log is copied into it in the background (`WALCheckpointer`), not by the
/// commit that takes it past 1,000 pages.
@Suite("SQLite's log copied in the background")
struct WALCheckpointerTests {
    @Test("2,000 commits of 4 KB: copies made by the task, the log started again and kept small, nothing lost")
    func copiesInBackground() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("wal.sqlite").path
        func size(_ file: String) -> Int {
            (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        }

        // act: 2,000 commits of a 4 KB row each, about 8 MB in all
        let database = try await Database.open(.sqlite(path: path), logger: TestDatabases.logger)
        try await database.transaction { try await $0.raw("CREATE TABLE blobs (n INTEGER, b TEXT)").run() }
        let blob = String(repeating: "x", count: 4_000)
        // The copies run beside the writes, on a task of low priority. On a loaded machine (CI
        // runs many suites at once) that task may not run until the writes are done, and then
        // nothing starts the log again: it held all 20 MB in one run. So the writes go in four
        // parts of 500 (each more than the 1,000 pages that ask for a copy), each part after a
        // copy finished since the last part began (a deadline each): what is tested is what the
        // copier does when it gets to run.
        let copies = { database.backgroundCheckpoints ?? 0 }
        func wait(_ done: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !done(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
        var copiesBefore = 0
        for part in 0..<4 {
            let before = copiesBefore
            try await wait { part == 0 || copies() > before }
            copiesBefore = copies()
            for n in part * 500..<(part + 1) * 500 {
                try await database.transaction { sql in
                    try await sql.raw("INSERT INTO blobs (n, b) VALUES (\(bind: n), \(bind: blob))").run()
                }
            }
        }
        try await wait { size(path) >= 6_000_000 }

        // validate: the task copied, the database file holds the rows, and the log was started
        // again after each part: its header counts the starts (bytes 12–15, SQLite's checkpoint
        // sequence number), and its file stays at the most it held between two starts (6.4 MB in
        // a quiet run), where a log never started again holds all that was written (25 MB with
        // its index pages)
        #expect(copies() >= 3, "\(copies()) copies")
        #expect(size(path) >= 6_000_000, "database file \(size(path)) bytes")
        let header = try #require(FileManager.default.contents(atPath: path + "-wal")).prefix(16)
        let starts = header.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(starts >= 3, "the log was started again \(starts) times")
        #expect(size(path + "-wal") < 16_000_000, "log \(size(path + "-wal")) bytes")
        try await database.close()

        // Everything is there when opened again.
        let again = try await Database.open(.sqlite(path: path), logger: TestDatabases.logger)
        let rows = try await again.read { sql in
            try await sql.raw("SELECT count(*) AS n, sum(length(b)) AS bytes FROM blobs").first()!
        }
        #expect(try rows.decode(column: "n", as: Int.self) == 2_000)
        #expect(try rows.decode(column: "bytes", as: Int.self) == 8_000_000)
        try await again.close()
    }
}
