import Foundation
import Hummingbird
import Logging
import SplitServer

LoggingSystem.bootstrap { label in ServerLogHandler(StreamLogHandler.standardError(label: label)) }

// Reads configuration and runs the server until SIGTERM or SIGINT (STYLE §2); or, as
// `splitter-server delete-account EMAIL`, deletes that account on the configured database.
do {
    let arguments = CommandLine.arguments
    // Found by a new user: `--help` started the server, on the working directory's database.
    if arguments.dropFirst().contains(where: { ["--help", "-h", "help"].contains($0) }) {
        print(ServerConfiguration.usage, terminator: "")
        exit(0)
    }
    let settings = arguments.count >= 2 && arguments[1] == "delete-account" ? arguments.dropFirst(3) : arguments.dropFirst()
    if let unknown = ServerConfiguration.unknownOption(in: Array(settings)) {
        FileHandle.standardError.write(
            Data("splitter-server: unknown argument \"\(unknown)\"; `splitter-server --help` lists the settings\n".utf8))
        exit(2)
    }
    if arguments.count >= 2, arguments[1] == "delete-account" {
        guard arguments.count >= 3 else {
            FileHandle.standardError.write(Data("usage: splitter-server delete-account EMAIL\n".utf8))
            exit(2)
        }
        let configuration = try await ServerConfiguration.read(arguments: [arguments[0]] + arguments.dropFirst(3))
        do {
            try await AdminCommands.deleteAccount(email: arguments[2], configuration: configuration)
        } catch {
            FileHandle.standardError.write(
                Data("splitter-server: cannot delete \(arguments[2]): \(AdminCommands.describe(error))\n".utf8))
            exit(1)
        }
        print("Deleted the account of \(arguments[2]); its groups keep its name and money history.")
        exit(0)
    }
    let configuration = try await ServerConfiguration.read()
    let app = try await buildApplication(configuration: configuration)
    try await app.runService()
} catch let error as ConfigurationError {
    FileHandle.standardError.write(Data("splitter-server: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("splitter-server: cannot start: \(error)\n".utf8))
    exit(1)
}
