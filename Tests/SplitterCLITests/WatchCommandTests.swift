import Foundation
import SplitSpawn
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

/// `splitter` running in the background: what it writes goes to files read as it comes, so a test
/// can wait for a line, act, then wait for the exit, each with a deadline.
final class BackgroundSplitter: Sendable {
    private let program: ChildProgram
    private let folder: URL

    init(_ arguments: [String], config: URL) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-background-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        program = try ChildProgram.start(
            CLITests.splitterPath(), arguments, environment: CLITests.splitterEnvironment(config: config),
            output: .file(folder.appendingPathComponent("output").path),
            error: .file(folder.appendingPathComponent("error").path))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func written(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    var standardError: String { written("error") }

    func waitForError(containing text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !standardError.contains(text) {
            guard program.isRunning, ContinuousClock.now < deadline else {
                throw BackgroundTimeout(message: "no \"\(text)\" on standard error; it says: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func waitForExit(timeout: Duration = .seconds(30)) async throws -> CLITests.Result {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = program.exitStatus {
                return CLITests.Result(status: status, output: written("output"), error: standardError)
            }
            guard ContinuousClock.now < deadline else {
                throw BackgroundTimeout(message: "still running; standard error: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func terminate() { program.send(SIGTERM) }

    struct BackgroundTimeout: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
