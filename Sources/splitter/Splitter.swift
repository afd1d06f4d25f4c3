import ArgumentParser
import SplitterCLI

/// `main` only (STYLE §2): the commands live in SplitterCLI.
@main
struct Splitter: AsyncParsableCommand {
    static let configuration = SplitterCommand.configuration
}
