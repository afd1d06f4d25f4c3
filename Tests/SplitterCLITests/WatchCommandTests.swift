import Foundation
import Testing

@testable import SplitterCLI

/// `splitter watch`: the real binary follows the real server's live stream and prints each
/// change as it happens.
@Suite("splitter watch")
struct WatchCommandTests {
    @Test("watch --json prints a change made by someone else as one JSON line, with the expense from the offline copy")
    func watchJSON() async throws {
        try await CLITrip.with { trip in
            // setup: Aki watches Japan, stopping after one event
            try await trip.setUpJapan()
            let watch = try BackgroundSplitter(
                ["watch", "--group", "japan", "--json", "--count", "1"], config: trip.config)
            defer { watch.terminate() }
            try await watch.waitForError(containing: "Watching Japan")

            // act: Ben adds an expense
            let added = try await trip.run(
                "expense", "add", "Japan", "Dinner", "9000", "--paid-by", "ben", "--profile", "ben")
            try #require(added.status == 0, "\(added.error)")

            // validate: one line, one JSON object; the offline copy has the expense
            let result = try await watch.waitForExit()
            #expect(result.status == 0, "\(result.error)")
            let lines = result.output.split(separator: "\n")
            #expect(lines.count == 1, "\(result.output)")
            let line = try #require(
                try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
            #expect(line["event"] as? String == "change" && line["group"] as? String == "Japan", "\(line)")
            #expect((line["id"] as? String)?.contains(".") == true && line["pulled"] as? Int == 1, "\(line)")
            let change = try #require((line["changes"] as? [[String: Any]])?.first)
            #expect(change["entity"] as? String == "expense" && change["deleted"] as? Bool == false, "\(change)")
            #expect(change["description"] as? String == "Dinner", "\(change)")
            #expect(change["id"] as? String == (try await trip.expenseID("Dinner")))
        }
    }

    @Test("watch prints a line for people: time, group, what changed with the expense's name")
    func watchHuman() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            let watch = try BackgroundSplitter(["watch", "--count", "1", "--profile", "ben"], config: trip.config)
            defer { watch.terminate() }
            try await watch.waitForError(containing: "Watching your groups")
            #expect(try await trip.run("expense", "add", "Japan", "Taxi", "3000").status == 0)
            let result = try await watch.waitForExit()
            #expect(result.status == 0, "\(result.error)")
            #expect(
                result.output.range(
                    of: #"^\d\d:\d\d:\d\d  Japan  expense changed \(1\): Taxi\n$"#, options: .regularExpression) != nil,
                "\(result.output)")
        }
    }

    @Test("the human line groups what changed by kind, and names joins and resyncs")
    func humanLines() {
        let at = Date(timeIntervalSince1970: 0)
        func change(_ entity: String, _ deleted: Bool, _ description: String? = nil) -> Watch.Line.Change {
            Watch.Line.Change(entity: entity, id: UUID().uuidString, deleted: deleted, description: description)
        }
        let line = Watch.Line(
            at: at, event: "change", group: "Japan", groupId: "g", seq: 3, id: "g.3", pulled: 4,
            changes: [change("expense", false, "Dinner"), change("member", false), change("expense", false, "Taxi")])
        #expect(Watch.human(line).hasSuffix("  Japan  expense changed (2): Dinner, Taxi; member changed (1)"))
        var deleted = line
        deleted.changes = [change("expense", true)]
        #expect(Watch.human(deleted).hasSuffix("  Japan  expense deleted (1)"))
        var joined = line
        joined.event = "joined"
        #expect(Watch.human(joined).hasSuffix("  Japan  you joined; synced from the start"))
    }
}

/// `splitter` running in the background: what it writes is collected as it comes, so a test can
/// wait for a line, act, then wait for the exit, each with a deadline.
final class BackgroundSplitter: @unchecked Sendable {
    // Guarded by `lock`; the pipes' handlers write from their own threads.
    private let lock = NSLock()
    private var output = Data()
    private var error = Data()
    /// Pipes read to their end.
    private var closed = 0
    private let process: Process

    init(_ arguments: [String], config: URL) throws {
        process = CLITests.splitterProcess(arguments, config: config)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [self] handle in collect(handle) { $0.output.append($1) } }
        err.fileHandleForReading.readabilityHandler = { [self] handle in collect(handle) { $0.error.append($1) } }
        try process.run()
    }

    /// Keeps what the pipe has now; at its end (empty data), stops reading it.
    private func collect(_ handle: FileHandle, into keep: (BackgroundSplitter, Data) -> Void) {
        let data = handle.availableData
        if data.isEmpty { handle.readabilityHandler = nil }
        lock.withLock {
            if data.isEmpty { closed += 1 } else { keep(self, data) }
        }
    }

    var standardError: String { lock.withLock { String(decoding: error, as: UTF8.self) } }

    func waitForError(containing text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !standardError.contains(text) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw BackgroundTimeout(message: "no \"\(text)\" on standard error; it says: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func waitForExit(timeout: Duration = .seconds(30)) async throws -> CLITests.Result {
        let deadline = ContinuousClock.now + timeout
        // Until it exits and both pipes are read to their end.
        while process.isRunning || lock.withLock({ closed }) < 2 {
            guard ContinuousClock.now < deadline else {
                throw BackgroundTimeout(message: "still running; standard error: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return lock.withLock {
            CLITests.Result(
                status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                error: String(decoding: error, as: UTF8.self))
        }
    }

    func terminate() {
        if process.isRunning { process.terminate() }
    }

    struct BackgroundTimeout: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
