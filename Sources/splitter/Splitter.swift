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
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }
}
