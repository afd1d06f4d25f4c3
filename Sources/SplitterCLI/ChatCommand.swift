import ArgumentParser
import Foundation
import SplitClient
import SplitCore

/// `splitter chat GROUP [MESSAGE]`: the assistant from the command line (issue 21). With a
/// message, one answer, and how to go on in its conversation (`--conversation`); without, a
/// conversation: each line typed is a message, an empty line or end of input ends it. Tools the
/// assistant runs are shown as they run.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Talk to the assistant: add expenses in words, ask who owes whom, settle, budgets.",
        discussion: """
            Examples: "Ramen ¥1200 paid by Aki, all", "how much do I owe?",
            "who owes whom?", "how do we settle?", "who paid the most?",
            "how much did I spend?", "how is our budget?", "mark my ramen paid", "ask Bo for what he owes", "undo that".
            When it assumed something (who paid, the currency, the date) it asks
            first: answer "yes" or "no".
            """)
    @OptionGroup var options: GroupOptions
    @Argument(parsing: .remaining, help: "A message (without one, each line you type is one).") var message: [String] = []
    @Option(help: "Go on with this conversation (its id).") var conversation: String?

    func run() async throws {
        try await SplitterCLI.run {
            let (client, found) = try await options.resolve()
            let groupID = found.id
            var conversationID = conversation
            func say(_ text: String) async throws {
                // What each tool did, said in words when it ends (AssistantToolWords), as the web does.
                var saving: [String: Bool] = [:]
                for try await event in client.chat(text, conversationID: conversationID, groupID: groupID) {
                    switch event {
                    case .conversationID(let id):
                        conversationID = id
                        if options.json { Self.printJSON(["conversationId": id]) }
                    case .toolStart(let id, _, let argsJSON):
                        let args = (try? JSONSerialization.jsonObject(with: Data(argsJSON.utf8))) as? [String: Any]
                        saving[id] = (args?["dryRun"] as? Bool) == false
                    case .toolEnd(let id, let name, let result, let isError):
                        if options.json {
                            Self.printJSON(["tool": name, "isError": isError, "result": result])
                        } else {
                            let words = AssistantToolWords.words(
                                AssistantToolWords.key(name, saving: saving[id] ?? false, refused: isError))
                            FileHandle.standardError.write(Data("  · \(words)\(isError ? ": \(result)" : "")\n".utf8))
                        }
                    case .text(let text):
                        if options.json { Self.printJSON(["text": text]) } else { print(text) }
                    }
                }
            }
            if !message.isEmpty {
                try await say(message.joined(separator: " "))
                // Each run is a new conversation unless told which: say how to answer in this one
                // (a "yes" run alone would find nothing waiting).
                if conversation == nil, let conversationID, !options.json {
                    let group = options.group.contains(" ") ? "\"\(options.group)\"" : options.group
                    let hint = "  · to answer in this conversation: splitter chat \(group) --conversation \(conversationID) …"
                    FileHandle.standardError.write(Data((hint + "\n").utf8))
                }
                return
            }
            while true {
                FileHandle.standardError.write(Data("> ".utf8))
                guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty
                else { break }
                try await say(line)
            }
        }
    }

    /// One JSON object a line (`--json`).
    static func printJSON(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        print(String(decoding: data, as: UTF8.self))
    }
}
