import ArgumentParser
import Foundation
import SplitterCLI

/// `main` only (STYLE §2): the commands live in SplitterCLI.
@main
struct Splitter: AsyncParsableCommand {
    static let configuration = SplitterCommand.configuration

    /// ArgumentParser's `main`, except that a bad command line exits 2, as `splitter --help`
    /// says (ArgumentParser's own code for it is 64, EX_USAGE; found by review).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            var message = fullMessage(for: error)
            // "-10" is read as an option (found by review: "Missing expected argument '<amount>'"
            // said nothing of why).
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let negative = arguments.first(where: { $0.count > 1 && $0.hasPrefix("-") && $0.dropFirst().first?.isNumber == true }) {
                message += "\nHint: “\(negative)” is read as an option: amounts are written above zero."
                if arguments.starts(with: ["expense", "add"]) {
                    // The same command as a refund: the amount as said, with --refund.
                    let asRefund = arguments.map { $0 == negative ? String(negative.dropFirst()) : $0 } + ["--refund"]
                    message += " Money received is a refund: splitter " + asRefund.map(quotedArgument).joined(separator: " ")
                }
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }

}
