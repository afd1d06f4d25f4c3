// Release-mode benchmarks of the SDK against the real server (issue 5, DESIGN §9):
//
//     swift build -c release --product splitter-server
//     swift build -c release --product splitclient-bench
//     .build/release/splitclient-bench            # or: … sync | replay
//
// It starts the release `splitter-server` beside it on a free port with an empty SQLite database
// (`BENCH_DATABASE_URL=postgres://…` for PostgreSQL), fills one group with 10,000 expenses over
// HTTP, then times, inside this process, what an app does: the first sync of the whole group into
// an empty offline store, a delta sync, and the replay of 1,000 operations queued offline. The
// first sync is also taken apart (server pages alone, the SDK's fetch and decode, the store's
// apply) so a slow figure says where the time goes. Results and targets: docs/benchmarks.md.

import SplitCore
import Foundation
import SplitClient
import SplitSpawn
import SplitTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `prepare` (untimed) then `body` (timed) `runs` times.
func measure<State>(
    _ name: String, runs: Int, target: Duration? = nil, prepare: () async throws -> State,
    _ body: (State) async throws -> Void
) async throws -> BenchMeasurement {
    let clock = ContinuousClock()
    var durations: [Duration] = []
    for _ in 0..<runs {
        let state = try await prepare()
        let start = clock.now
        try await body(state)
        durations.append(clock.now - start)
    }
    let result = BenchMeasurement(name: name, runs: durations, target: target)
    say(result.line())
    return result
}

/// Unbuffered, also into a file: progress shows while it runs.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ part: String) -> Bool { selected.isEmpty || selected.contains(part) }
let expenseCount = Int(ProcessInfo.processInfo.environment["BENCH_EXPENSES"] ?? "") ?? 10_000
let queuedCount = Int(ProcessInfo.processInfo.environment["BENCH_QUEUED"] ?? "") ?? 1_000

let workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("splitclient-bench-\(UUID())")
try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: workDirectory) }
/// A new, empty offline store: what an app has on its first launch.
func emptyStore() throws -> (OfflineStore, String) {
    let path = workDirectory.appendingPathComponent("store-\(UUID()).sqlite").path
    return (try OfflineStore(path: path), path)
}

// The line with the port is at info; one client writes thousands a second, past the per-account
// write limit meant for people. Every timed first sync reads the same group: the server keeps no
// feed pages, so each run has its pages made, as one device's first sync of its own group does.
var environment: [String: String] = ["LOG_LEVEL": "info", "WRITES_PER_MINUTE_PER_USER": "0", "FEED_CACHE_MB": "0"]
if let url = ProcessInfo.processInfo.environment["BENCH_DATABASE_URL"] { environment["DATABASE_URL"] = url }
let server = try await ServerProcess(environment: environment)
say(
    "SDK benchmarks against \(server.baseURL) (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
        + "\(environment["DATABASE_URL"] == nil ? "SQLite" : "PostgreSQL"))")
var results: [BenchMeasurement] = []
do {
    let tokens = InMemoryTokenStore()
    let client = SplitterClient(serverURL: server.baseURL, tokens: tokens)
    _ = try await client.register(
        email: "bench-\(UUID())@example.com", phone: nil, password: "bench bench bench", displayName: "Bench")
    let group = try await client.createGroup(name: "Bench", homeCurrency: "JPY")
    var members = [group.myMemberId]
    for name in ["Ben", "Cho", "Dan", "Eri", "Fay"] {
        members.append(try await client.addMember(groupID: group.id, name: name).id)
    }
    let memberIDs = members

    /// Expense n, as the API benchmark makes them: JPY and USD, one payer, equal over 2–6 members.
    func expense(_ index: Int, id: String? = nil) -> NewExpense {
        let isUSD = index % 5 == 0
        return .init(
            id: id, groupId: group.id, description: "Expense \(index)",
            amount: isUSD ? "\(index % 97 + 1).\(String(format: "%02d", index % 100))" : "\(100 + index % 9_000)",
            currency: isUSD ? "USD" : "JPY", expenseDate: String(format: "2026-11-%02d", index % 28 + 1),
            paidByMemberId: memberIDs[index % memberIDs.count],
            split: .init(mode: .equal, memberIds: Array(memberIDs.prefix(2 + index % (memberIDs.count - 1)))))
    }

    // Fill the group (four requests at a time: this is setup, not a figure).
    let seedStart = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        for lane in 0..<4 {
            tasks.addTask {
                for index in stride(from: lane, to: expenseCount, by: 4) {
                    _ = try await client.addExpense(expense(index))
                }
            }
        }
        try await tasks.waitForAll()
    }
    say("Seeded \(expenseCount) expenses in \(BenchMeasurement.milliseconds(ContinuousClock.now - seedStart))")
    if let url = environment["DATABASE_URL"] {
        // The planner's statistics as autovacuum leaves them within a minute of this many writes
        // (scripts/bench does the same): a group it has never seen is estimated at a few rows.
        let analyze = try ChildProgram.run("/usr/bin/env", ["psql", url, "-q", "-c", "ANALYZE"], errorToOutput: true)
        guard analyze.status == 0 else { throw BenchError(description: "ANALYZE failed: \(analyze.outputText)") }
    }

    if wanted("sync") {
        // The whole first sync, as an app runs it: every page of the change feed into an empty store.
        var lastStore = ""
        results.append(
            try await measure(
                "first sync of \(expenseCount) expenses (pull)", runs: 5, target: .seconds(2),
                prepare: { try emptyStore() }
            ) { store, path in
                let applied = try await SyncEngine(client: client, store: store).pull(groupID: group.id)
                guard applied >= expenseCount, try store.cachedExpenses(groupID: group.id).count == expenseCount else {
                    throw BenchError(description: "the first sync brought \(applied) changes")
                }
                lastStore = path
            })
        let size = (try FileManager.default.attributesOfItem(atPath: lastStore)[.size] as? Int) ?? 0
        say("  offline store after the first sync: \(size / 1_000_000) MB on disk (target < 50 MB)")

        // The same, taken apart: the server's pages alone (bytes only), the SDK's fetch and decode
        // without storing, and the store's apply of pages already in memory.
        let token = try tokens.load() ?? ""
        results.append(
            try await measure("  server: every page, bytes only", runs: 5, prepare: {}) { _ in
                var since = ""
                var more = true
                while more {
                    var request = URLRequest(
                        url: server.baseURL.appendingPathComponent("api/groups/\(group.id)/changes")
                            .appending(queryItems: since.isEmpty ? [] : [URLQueryItem(name: "since", value: since)]))
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    let (data, _) = try await URLSession.shared.data(for: request)
                    // Only the two small fields, found without decoding the page.
                    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    since = object?["cursor"] as? String ?? ""
                    more = object?["hasMore"] as? Bool ?? false
                }
            })
        var pages: [Changes] = []
        results.append(
            try await measure("  SDK: fetch and decode every page", runs: 5, prepare: {}) { _ in
                pages = []
                var since: String?
                repeat {
                    pages.append(try await client.changes(groupID: group.id, since: since))
                    since = pages.last!.cursor
                } while pages.last!.hasMore
            })
        results.append(
            try await measure(
                "  store: apply \(pages.count) decoded pages", runs: 5, prepare: { try emptyStore().0 }
            ) { store in
                for page in pages { try store.apply(page, groupID: group.id) }
            })

        // A delta sync: one expense added elsewhere since the last pull.
        let (deltaStore, _) = try emptyStore()
        let deltaEngine = SyncEngine(client: client, store: deltaStore)
        try await deltaEngine.pull(groupID: group.id)
        var added = expenseCount
        results.append(
            try await measure(
                "delta sync (one new expense)", runs: 11, target: .milliseconds(100),
                prepare: {
                    added += 1
                    _ = try await client.addExpense(expense(added))
                }
            ) { _ in
                guard try await deltaEngine.pull(groupID: group.id) == 1 else {
                    throw BenchError(description: "the delta sync did not bring exactly one change")
                }
            })
    }

    if wanted("replay") {
        // Operations queued offline (client ids, idempotency keys), sent in order by one push.
        var sent = 0
        results.append(
            try await measure(
                "replay of \(queuedCount) queued expense creates (push)", runs: 3, target: .seconds(2),
                prepare: {
                    let (store, _) = try emptyStore()
                    let encoder = JSONEncoder()
                    for index in 0..<queuedCount {
                        let id = UUID().uuidString.lowercased()
                        let request = expense(index, id: id)
                        try store.enqueue(
                            PendingOperation(
                                id: id, groupID: group.id, kind: .createExpense, body: try encoder.encode(request),
                                idempotencyKey: UUID().uuidString, createdAt: Date(), summary: request.description,
                                targetID: id))
                    }
                    return store
                }
            ) { store in
                let report = try await SyncEngine(client: client, store: store).push()
                guard report.sent == queuedCount, report.remaining == 0 else {
                    throw BenchError(description: "the replay ended with \(report)")
                }
                sent += report.sent
            })
        // The floor: the same creates sent straight by the SDK, one after another, with no queue.
        var next = 0
        results.append(
            try await measure("  the same creates sent directly, one at a time", runs: 3, prepare: {}) { _ in
                for _ in 0..<queuedCount {
                    next += 1
                    _ = try await client.addExpense(expense(next, id: UUID().uuidString.lowercased()))
                }
                sent += queuedCount
            })
        // Each run's creates are on the server once.
        let (check, _) = try emptyStore()
        try await SyncEngine(client: client, store: check).pull(groupID: group.id)
        let onServer = try check.cachedExpenses(groupID: group.id).count
        guard onServer >= expenseCount + sent else {
            throw BenchError(description: "the server has \(onServer) expenses after \(sent) replayed creates")
        }
    }
} catch {
    say("splitter-server log:\n\(server.log.suffix(2_000))")
    _ = try? await server.stop()
    throw error
}
_ = try await server.stop()

let missed = results.filter { !$0.isMet }
if !missed.isEmpty {
    say("Missed targets: \(missed.map(\.name).joined(separator: ", "))")
    exit(1)
}
