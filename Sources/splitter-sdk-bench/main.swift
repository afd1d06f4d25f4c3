// The SDK's rows of `scripts/bench` (issue 16): what an app with `SplitClient` waits for against a
// server that is already running and seeded.
//
//     splitter-sdk-bench SERVER_URL TOKEN GROUP [REPLAY_GROUP] [--breakdown]
//
// (or SPLITTER_URL, SPLITTER_TOKEN, SPLITTER_GROUP, SPLITTER_REPLAY_GROUP). It times, in this
// process and by the wall clock, medians of 3 runs each:
//
//   * the first sync of GROUP (`BENCH_EXPENSES` expenses, 10,000 unless said) into a new, empty
//     offline store: `SyncEngine.pull`, every page of the change feed into GRDB; the store must
//     then hold exactly that many expenses;
//   * the replay of `BENCH_QUEUED` (1,000) expense creates queued offline into a new store, as
//     `splitter expense add` queues them when the server cannot be reached: `SyncEngine.push`
//     until the queue is empty; every create must be sent, none refused or in conflict, and the
//     group must then list each of them once. They go into REPLAY_GROUP (a new group of the
//     token's account when none is given), so GROUP keeps its count.
//
// `--breakdown` also times the first sync taken apart (the SDK fetching and decoding every page
// without a store; the store applying pages already decoded). Progress goes to standard error;
// standard output is one line of JSON for scripts/bench. Exits non-zero when a check fails.

import Foundation
import SplitClient
// The SDK's split types are SplitCore's (`SplitInput` is `EnteredSplit`): building one needs its module.
import SplitCore

/// Unbuffered progress on standard error; standard output is kept for the one line of results.
func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
}

/// Runs `prepare`, `body` (the only part timed) and `check` `runs` times; the timed runs in
/// milliseconds.
func measure<State>(
    _ name: String, runs: Int = 3, prepare: () async throws -> State, check: (State) async throws -> Void = { _ in },
    _ body: (State) async throws -> Void
) async throws -> [Double] {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<runs {
        let state = try await prepare()
        let start = clock.now
        try await body(state)
        times.append(milliseconds(clock.now - start))
        say(String(format: "%@: %.0f ms", name, times.last!))
        try await check(state)
    }
    return times
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let flags = CommandLine.arguments.dropFirst().filter { $0.hasPrefix("--") }
let arguments = Array(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") })
let environment = ProcessInfo.processInfo.environment
func setting(_ index: Int, _ name: String) -> String? {
    index < arguments.count ? arguments[index] : environment[name].flatMap { $0.isEmpty ? nil : $0 }
}
guard let urlText = setting(0, "SPLITTER_URL"), let serverURL = URL(string: urlText),
    let token = setting(1, "SPLITTER_TOKEN"), let groupID = setting(2, "SPLITTER_GROUP")
else {
    say("usage: splitter-sdk-bench SERVER_URL TOKEN GROUP [REPLAY_GROUP] [--breakdown]")
    exit(2)
}
let expenseCount = Int(environment["BENCH_EXPENSES"] ?? "") ?? 10_000
let queuedCount = Int(environment["BENCH_QUEUED"] ?? "") ?? 1_000

let workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-sdk-bench-\(UUID())")
try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: workDirectory) }
/// A new, empty offline store in its own file: what an app has on its first launch.
func emptyStore() throws -> OfflineStore {
    try OfflineStore(path: workDirectory.appendingPathComponent("store-\(UUID()).sqlite").path)
}

let client = SplitterClient(serverURL: serverURL, tokens: InMemoryTokenStore(token: token))
var results: [String: Any] = [:]
do {
    // The first sync, as an app makes it: every page of the change feed into an empty store.
    let syncRuns = try await measure(
        "first sync of \(expenseCount) expenses", prepare: { try emptyStore() },
        check: { store in
            let held = try store.cachedExpenses(groupID: groupID).count
            guard held == expenseCount else {
                throw BenchError(description: "the first sync left \(held) expenses in the store, not \(expenseCount)")
            }
        }
    ) { store in
        try await SyncEngine(client: client, store: store).pull(groupID: groupID)
    }
    results["firstSyncMs"] = median(syncRuns)
    results["firstSyncRunsMs"] = syncRuns
    results["expenses"] = expenseCount

    if flags.contains("--breakdown") {
        // The same taken apart: the SDK's requests and decoding alone, then GRDB alone.
        var pages: [Changes] = []
        let fetchRuns = try await measure("  fetch and decode every page", prepare: {}) { _ in
            pages = []
            var since: String?
            repeat {
                pages.append(try await client.changes(groupID: groupID, since: since))
                since = pages.last!.cursor
            } while pages.last!.hasMore
        }
        let applyRuns = try await measure("  apply \(pages.count) decoded pages", prepare: { try emptyStore() }) {
            store in
            for page in pages { try store.apply(page, groupID: groupID) }
        }
        results["fetchAndDecodeMs"] = median(fetchRuns)
        results["applyMs"] = median(applyRuns)
        results["pages"] = pages.count
    }

    // Where the replayed creates go: never GROUP, whose count the first sync checks.
    let replayGroup: Group
    if let id = setting(3, "SPLITTER_REPLAY_GROUP") {
        replayGroup = try await client.group(id: id)
    } else {
        replayGroup = try await client.createGroup(name: "SDK replay", homeCurrency: "JPY")
        for name in ["Ben", "Cho", "Dan"] { _ = try await client.addMember(groupID: replayGroup.id, name: name) }
    }
    let members = try await client.members(groupID: replayGroup.id).filter(\.active).map(\.id)
    guard members.count >= 2 else { throw BenchError(description: "the replay group has fewer than 2 members") }

    // Creates queued as `splitter expense add` queues one offline: a client id, a fresh
    // idempotency key, the request as JSON. One payer, an equal split over 2 or more members.
    var queuedIDs: [String] = []
    func queue(into store: OfflineStore) throws -> OfflineStore {
        queuedIDs = []
        let encoder = JSONEncoder()
        for index in 0..<queuedCount {
            let id = UUID().uuidString.lowercased()
            let sharers = Array(members.shuffled().prefix(2 + index % (members.count - 1)))
            let request = NewExpense(
                id: id, groupId: replayGroup.id, description: "Queued \(index)", amount: "\(100 + index % 9_000)",
                currency: replayGroup.homeCurrency, expenseDate: "2026-11-20",
                paidByMemberId: members[index % members.count], split: .init(mode: .equal, memberIds: sharers))
            try store.enqueue(
                PendingOperation(
                    id: id, groupID: replayGroup.id, kind: .createExpense, body: try encoder.encode(request),
                    idempotencyKey: UUID().uuidString, createdAt: Date(), summary: "expense Queued \(index)",
                    targetID: id))
            queuedIDs.append(id)
        }
        return store
    }
    var report: SyncEngine.Report?
    var inGroup = try await client.expenses(groupID: replayGroup.id).count
    let replayRuns = try await measure(
        "replay of \(queuedCount) queued creates", prepare: { try queue(into: try emptyStore()) },
        check: { store in
            guard let report, report.sent == queuedCount, report.parked == 0, report.conflicts == 0,
                report.held == 0, report.remaining == 0, report.stoppedBecause == nil, try store.pending().isEmpty
            else { throw BenchError(description: "the replay ended with \(String(describing: report))") }
            // The group lists every create of this run, and nothing more.
            inGroup += queuedCount
            let listed = try await client.expenses(groupID: replayGroup.id).map(\.id)
            let missing = Set(queuedIDs).subtracting(listed).count
            guard missing == 0, listed.count == inGroup else {
                throw BenchError(
                    description: "after the replay the group lists \(listed.count) expenses, not \(inGroup) "
                        + "(\(missing) of this run's creates missing)")
            }
        }
    ) { store in
        report = try await SyncEngine(client: client, store: store).push()
    }
    results["replayMs"] = median(replayRuns)
    results["replayRunsMs"] = replayRuns
    results["replayed"] = queuedCount
} catch {
    say("splitter-sdk-bench: \(error)")
    try? FileManager.default.removeItem(at: workDirectory)
    exit(1)
}

// Keys sorted: the line reads the same from run to run.
let line = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
FileHandle.standardOutput.write(line + Data("\n".utf8))
