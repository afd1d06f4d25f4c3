import Foundation
import SplitTestSupport
import Testing

@Suite("splitter chat")
struct ChatCommandTests {
    @Test("one message adds an expense; a question is answered; a conversation goes on from standard input with yes")
    func chat() async throws {
        try await CLITrip.with { trip in
            try await trip.setUpJapan()
            // act: a line that says everything is saved at once
            let added = try await trip.run("chat", "Japan", "Gyoza 900 JPY paid by Aki, Aki Ben Cho")
            #expect(added.status == 0 && added.output.contains("Added Gyoza, 900 JPY, to Japan"), "\(added.output) \(added.error)")
            // What it did, in words, not the tools' names (found by review).
            #expect(added.error.contains("· saved an expense") && !added.error.contains("quick_add"), "\(added.error)")
            let owe = try await trip.run("chat", "--profile", "ben", "Japan", "how much do I owe?")
            #expect(owe.output.contains("In Japan you owe 300 JPY."), "\(owe.output) \(owe.error)")
            // a conversation: the line assumed who paid, so it asks; yes saves it
            let talk = try await trip.run("chat", "Japan", stdin: "Ramen 1200 JPY all\nyes")
            #expect(talk.output.contains("Say “yes”") && talk.output.contains("Added Ramen, 1,200 JPY"), "\(talk.output) \(talk.error)")
            // One message at a time: the answer says how to reply in its conversation, and a
            // "yes" there saves the line (found as a new user: a "yes" run alone found nothing).
            let asked = try await trip.run("chat", "Japan", "Tea 600 JPY all")
            #expect(asked.output.contains("Say “yes”"), "\(asked.output) \(asked.error)")
            let hint = try #require(
                asked.error.split(separator: "\n").first { $0.contains("splitter chat Japan --conversation ") },
                "\(asked.error)")
            let conversation = try #require(hint.split(separator: " ").drop { $0 != "--conversation" }.dropFirst().first)
            let alone = try await trip.run("chat", "Japan", "yes")
            #expect(alone.output.contains("nothing waiting"), "\(alone.output)")
            let yes = try await trip.run("chat", "Japan", "--conversation", String(conversation), "yes")
            #expect(yes.output.contains("Added Tea, 600 JPY"), "\(yes.output) \(yes.error)")
            let list = try await trip.json("expense", "list", "Japan") as? [[String: Any]]
            #expect(Set(list?.compactMap { $0["description"] as? String } ?? []) == ["Gyoza", "Ramen", "Tea"])
            // --json: one object a line
            let json = try await trip.run("chat", "--json", "Japan", "who owes whom")
            let lines = json.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(lines.contains { $0["tool"] as? String == "settle_plan" } && lines.contains { ($0["text"] as? String)?.contains("To settle Japan") == true }, "\(json.output)")
            #expect(lines.first?["conversationId"] is String, "\(json.output)")
        }
    }
}
