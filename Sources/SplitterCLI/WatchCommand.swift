import ArgumentParser
import Foundation
import SplitClient

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print changes in your groups as they happen, keeping the offline copy current.",
        discussion: """
            Runs until Ctrl-C. One line per event, as it happens:

              12:04:05  Japan  expense changed (1): Dinner

            Each event also pulls that group's changes into the offline copy,
            as `splitter sync` does after sending, so `expense list`, `balances`
            and `plan` answer with what you saw even once the server is gone.
            Writes queued offline are not sent: run `splitter sync` for that.

            When the connection drops, it is made again (waiting longer after
            each failure, up to 30 s) and resumes where it stopped: nothing is
            missed. A note on standard error says so. A session that ends
            (logged out elsewhere) stops it with exit 3; a group you are no
            longer in, with exit 5.

            With --json, one JSON object per line: at, event (change, joined or
            resync), group, groupId, seq, id (the stream's position after it),
            pulled (changes written to the offline copy), and changes (entity,
            id, deleted, and description for an expense in the offline copy).
            """)
    @OptionGroup var options: GlobalOptions
    @Option(help: "Only this group (name or id); without it, every group you are in.") var group: String?
    @Option(help: "Stop after this many events (for scripts).") var count: Int?

    /// One event for `--json`, on one line.
    struct Line: Encodable {
        struct Change: Encodable {
            var entity: String
            var id: String
            var deleted: Bool
            var description: String?
        }

        var at: Date
        var event: String
        var group: String?
        var groupId: String?
        var seq: Int64?
        var id: String?
        var pulled: Int
        var changes: [Change]
    }

    func run() async throws {
        try await SplitterCLI.run {
            if let count, count < 1 { throw CLIError(message: "--count is at least 1.", code: 2) }
            let client = try options.client()
            let store = try options.store()
            var chosen: Group?
            if let group { chosen = try await resolveGroup(client, group, store: store) }
            var names: [String: String] = [:]
            var shown = 0
            var connections = 0
            for try await update in SyncEngine(client: client, store: store).syncLive(groupID: chosen?.id) {
                let event = update.event
                switch event.kind {
                case .connected:
                    connections += 1
                    warn(
                        connections == 1
                            ? "Watching \(chosen?.name ?? "your groups"); Ctrl-C to stop."
                            : "Connected again; nothing was missed.")
                    continue
                case .disconnected:
                    let seconds = String(format: "%.1f", event.retryIn ?? 0)
                    warn("\(event.reason ?? "The connection dropped.") Trying again in \(seconds) s.")
                    continue
                case .change, .joined, .resync:
                    break
                }
                if let id = event.groupId, names[id] == nil {
                    names = Dictionary(try store.cachedGroups().map { ($0.id, $0.name) }) { first, _ in first }
                }
                let line = try Self.line(update, group: event.groupId.flatMap { names[$0] }, store: store)
                let text = options.json ? try Self.json(line) : Self.human(line)
                // Written at once, not buffered: a pipe reader (`| jq`) gets each event as it happens.
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
                shown += 1
                if let count, shown >= count { return }
            }
        }
    }

    /// An update with what the offline copy knows of it (each expense's description).
    static func line(_ update: LiveSyncUpdate, group: String?, store: OfflineStore) throws -> Line {
        let event = update.event
        return Line(
            at: Date(), event: event.kind.rawValue, group: group, groupId: event.groupId, seq: event.seq,
            id: event.id, pulled: update.pulled,
            changes: try event.changes.map { change in
                let expense = change.entity == "expense" ? try store.cachedExpense(id: change.id) : nil
                return Line.Change(
                    entity: change.entity, id: change.id, deleted: change.isDeleted, description: expense?.description)
            })
    }

    static func json(_ line: Line) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }

    /// `12:04:05  Japan  expense changed (2): Dinner, Taxi; member changed (1)`.
    static func human(_ line: Line) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        let what: String
        switch line.event {
        case "joined": what = "you joined; synced from the start"
        case "resync": what = "many changes; synced"
        default:
            // One part per kind of object and what happened to it, in the order they came.
            var parts: [(key: String, descriptions: [String], count: Int)] = []
            for change in line.changes {
                let key = "\(change.entity) \(change.deleted ? "deleted" : "changed")"
                if let index = parts.firstIndex(where: { $0.key == key }) {
                    parts[index].count += 1
                    parts[index].descriptions += change.description.map { [$0] } ?? []
                } else {
                    parts.append((key, change.description.map { [$0] } ?? [], 1))
                }
            }
            what =
                parts.map { part in
                    "\(part.key) (\(part.count))"
                        + (part.descriptions.isEmpty ? "" : ": " + part.descriptions.joined(separator: ", "))
                }
                .joined(separator: "; ")
        }
        return "\(formatter.string(from: line.at))  \(line.group ?? line.groupId ?? "?")  \(what)"
    }
}
