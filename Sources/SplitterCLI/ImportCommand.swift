import ArgumentParser
import Foundation
import SplitClient
import Synchronization

extension ImportFormat: ExpressibleByArgument {}

/// `splitter import FORMAT FILE`: moving in from another app, or from our own export (issue 18).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring a group's history in from another app's export, or from a Budget Splitter export.",
        discussion: """
            FORMAT is where the file comes from:
              splitwise   Splitwise's "Export as spreadsheet" CSV
              ihatemoney  IHateMoney's bills.json
              spliit      Spliit's JSON export
              cospend     Cospend's CSV export
              json        a Budget Splitter group export (splitter export GROUP --format json),
                          which brings back everything: roles, categories, rates, rules,
                          paid marks with their history, the activity

            Into a new group (--new NAME: each name of the file becomes a member
            without an account, who can claim it on joining; a JSON file that names
            its group may leave --new out) or into a group you own or administer
            (--group: names go to the members of the same name). Amounts come in
            exact to the cent; a file's own totals (Splitwise's "Total balance"
            lines) are checked, and any difference or unreadable line refuses the
            whole file, naming it.

              splitter import splitwise trip.csv --new "Japan 2026" --map "Aki Tanaka=me"
              splitter import splitwise trip.csv --group Japan --dry-run
              splitter import json japan.json --map "Aki=me"

            --dry-run says what would be written and writes nothing. The same file
            into the same group twice is refused (exit 6) unless --force.
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "splitwise, ihatemoney, spliit, cospend or json.") var format: ImportFormat
    @Argument(help: "The exported file.") var file: String
    @Option(help: "Import into this group (name or id).") var group: String?
    @Option(name: .customLong("new"), help: "Make a new group of this name from the file.") var newGroup: String?
    @Option(
        name: .customLong("home-currency"),
        help: "With --new: the new group's home currency (default: the file's own, else the one most of it is in).")
    var homeCurrency: String?
    @Option(
        name: .customLong("time-zone"),
        help: "With --new: the new group's time zone (default: a JSON export's own, else this computer's).")
    var timeZone: String?
    @Option(help: "Who a name of the file is: \"Name=member name or id\", \"Name=me\" or \"Name=new\" (repeatable).")
    var map: [String] = []
    @Flag(help: "Check the file and say what would be written; write nothing.") var dryRun = false
    @Flag(help: "Import a file this group has imported before.") var force = false

    func validate() throws {
        if group != nil && newGroup != nil { throw ValidationError("Say where it goes: --group NAME or --new NAME, not both.") }
        // Only a JSON file names its group; a CSV needs to be told where it goes.
        if group == nil && newGroup == nil && (format == .splitwise || format == .cospend) {
            throw ValidationError("Say where it goes: --group NAME or --new NAME (one of them).")
        }
        if force && group == nil { throw ValidationError("--force is for --group: a new group has no imports yet.") }
        if homeCurrency != nil && group != nil {
            throw ValidationError("--home-currency is for --new: a group that exists keeps its own (change it in its settings).")
        }
        if timeZone != nil && group != nil {
            throw ValidationError("--time-zone is for --new: a group that exists keeps its own (change it in its settings).")
        }
    }

    func run() async throws {
        try await SplitterCLI.run {
            var mapping: [String: String] = [:]
            for pair in map {
                guard let split = pair.lastIndex(of: "="), split != pair.startIndex,
                    pair.index(after: split) != pair.endIndex
                else { throw CLIError(message: "--map takes Name=member, Name=me or Name=new.", code: 2) }
                mapping[String(pair[..<split])] = String(pair[pair.index(after: split)...])
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIError(message: "cannot read \(file): \(error.localizedDescription)", code: 2)
            }
            let client = try options.client()
            let destination: ImportDestination
            if let group {
                destination = .group(id: try await resolveGroup(client, group).id)
            } else {
                // A JSON export carries its group's zone, which the server keeps unless told
                // otherwise (found by review: this computer's replaced it).
                destination = .newGroup(
                    name: newGroup, timeZone: timeZone ?? (format == .json ? nil : TimeZone.current.identifier),
                    homeCurrency: homeCurrency)
            }
            let name = URL(fileURLWithPath: file).lastPathComponent
            let bar = Progress.Bar(label: "Sending \(name)", checking: dryRun)
            let summary: ImportSummary
            do {
                summary = try await client.importFile(
                    data, format: format, into: destination, dryRun: dryRun, map: mapping, force: force,
                    progress: bar.update)
            } catch SplitterError.validation(_, let field) where field == "timeZone" && timeZone == nil {
                // The server does not know this computer's zone name: the group keeps UTC (or the file's).
                summary = try await client.importFile(
                    data, format: format, into: .newGroup(name: newGroup, timeZone: nil, homeCurrency: homeCurrency),
                    dryRun: dryRun, map: mapping,
                    progress: bar.update)
            }
            bar.finish()
            if options.json { return try Output.json(summary) }
            Self.print(summary, newGroup: group == nil)
        }
    }

    static func print(_ summary: ImportSummary, newGroup: Bool) {
        let what =
            "\(summary.expenses) \(summary.expenses == 1 ? "expense" : "expenses") and "
            + "\(summary.settlements) \(summary.settlements == 1 ? "transfer" : "transfers")"
        if summary.dryRun {
            Swift.print("Dry run, nothing written: \(what) would go into \(newGroup ? "a new group " : "")\(summary.groupName).")
        } else {
            Swift.print("Imported \(what) into \(newGroup ? "the new group " : "")\(summary.groupName).")
        }
        if newGroup {
            Swift.print(
                "Home currency: \(summary.homeCurrency)"
                    + (summary.dryRun ? " (--home-currency CODE for another)." : "."))
        }
        Swift.print(
            "Members: "
                + summary.members.map { member in
                    switch member.kind {
                    case "me": "\(member.name) → you (\(member.memberName))"
                    case "new": "\(member.name) → new member"
                    default: "\(member.name) → \(member.memberName)"
                    }
                }.joined(separator: "; "))
        if !summary.newCategories.isEmpty {
            Swift.print("New categories: " + summary.newCategories.joined(separator: ", "))
        }
        Swift.print(
            summary.footersChecked.isEmpty
                ? "The file has no total-balance lines to check."
                : "Total-balance lines checked: " + summary.footersChecked.joined(separator: ", ") + " (all match).")
        let moving = summary.balances.filter { $0.net.trimmingCharacters(in: CharacterSet(charactersIn: "0.")) != "" }
        if !moving.isEmpty {
            Swift.print("Balances from the file:")
            Output.table(["Name", "Net", "Currency"], moving.map { [$0.name, $0.net, $0.currency] })
        }
        for skipped in summary.skipped { Swift.print("Skipped line \(skipped.line): \(skipped.reason)") }
        for note in summary.notes { Swift.print("Note: \(note)") }
    }
}

/// Stage lines on standard error while a long command works: on a terminal, one line rewritten
/// in place; otherwise plain lines (so logs and pipes get text, not control characters).
enum Progress {
    static let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    nonisolated(unsafe) static var started = false

    static func stage(_ text: String, last: Bool = false) {
        if isTerminal {
            FileHandle.standardError.write(Data(((started ? " " : "") + text + (last ? "\n" : "")).utf8))
            started = !last
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// A byte count drawn as a bar on a terminal (`Sending trip.csv [#####-----]  50% 1.2 MB of
    /// 2.4 MB`, rewritten in place), or a plain line at each quarter otherwise; then, while the
    /// server reads and writes the file, "importing…".
    final class Bar: Sendable {
        let label: String
        private let state = Mutex<(step: Int, waiting: Bool)>((-1, false))

        /// A dry run: the server reads the file and writes nothing ("Checking…", not "Importing…").
        let checking: Bool

        init(label: String, checking: Bool = false) {
            self.label = label
            self.checking = checking
        }

        func update(sent: Int, total: Int) {
            let percent = total == 0 ? 100 : sent * 100 / total
            let step = isTerminal ? percent / 2 : percent / 25
            let changed = state.withLock { current in
                guard step != current.step else { return false }
                current.step = step
                return true
            }
            guard changed else { return }
            let amount = "\(Progress.size(sent)) of \(Progress.size(total))"
            if isTerminal {
                let filled = String(repeating: "#", count: percent / 5) + String(repeating: "-", count: 20 - percent / 5)
                FileHandle.standardError.write(Data("\r\(label) [\(filled)] \(String(repeating: " ", count: 3 - String(percent).count))\(percent)% \(amount)".utf8))
            } else {
                FileHandle.standardError.write(Data("\(label): \(percent)% (\(amount))\n".utf8))
            }
            if sent >= total { waiting() }
        }

        private func waiting() {
            guard state.withLock({ current in defer { current.waiting = true }; return !current.waiting }) else { return }
            FileHandle.standardError.write(Data((isTerminal ? "\n" : "") .utf8))
            FileHandle.standardError.write(Data("\(checking ? "Checking" : "Importing")…\(isTerminal ? "" : "\n")".utf8))
        }

        func finish() {
            waiting()
            FileHandle.standardError.write(
                Data((isTerminal ? (checking ? " checked.\n" : " done.\n") : (checking ? "Checked.\n" : "Done.\n")).utf8))
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(max(1, bytes / 1024)) KB" : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}

/// `splitter export GROUP`: the group as a spreadsheet (issue 18).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a group out: Splitwise's layout (the default), one row per share, or the whole group as JSON.",
        discussion: """
            splitwise-csv is Splitwise's own layout, with a "Total balance" line per
            currency; `splitter import splitwise` (or Splitwise) reads it back to the
            same balances. csv has one row per member of each expense or transfer.
            json is the whole group, losing nothing; `splitter import json` brings it
            back as a new group.

              splitter export Japan > japan.csv
              splitter export Japan --format csv --output japan-shares.csv
              splitter export Japan --format json --output japan.json
              splitter export --all --output everything.zip   # every group and your profile
            """)
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Group name or id.") var group: String?
    @Flag(help: "Everything you can see, as one zip: each group's spreadsheets and your profile.") var all = false
    @Option(help: "splitwise-csv, csv or json.") var format: String = "splitwise-csv"
    @Option(help: "Write to this file instead of standard output.") var output: String?

    func validate() throws {
        guard (group == nil) == all else { throw ValidationError("Name a group, or give --all (not both).") }
        if all && output == nil { throw ValidationError("--all writes a zip: give --output FILE.zip.") }
    }

    func run() async throws {
        try await SplitterCLI.run {
            guard let layout = ExportLayout(rawValue: format) else {
                throw CLIError(message: "--format is splitwise-csv, csv or json.", code: 2)
            }
            let client = try options.client()
            let name: String
            let file: (filename: String?, data: Data)
            if let group {
                let found = try await resolveGroup(client, group)
                name = found.name
                file = try await client.exportGroup(groupID: found.id, layout: layout)
            } else {
                name = "Everything"
                file = try await client.exportAccount()
            }
            if let output {
                do {
                    try file.data.write(to: URL(fileURLWithPath: output))
                } catch {
                    throw CLIError(message: "cannot write \(output): \(error.localizedDescription)", code: 2)
                }
                FileHandle.standardError.write(Data("Wrote \(name) to \(output) (\(Progress.size(file.data.count))).\n".utf8))
            } else {
                FileHandle.standardOutput.write(file.data)
            }
        }
    }
}
