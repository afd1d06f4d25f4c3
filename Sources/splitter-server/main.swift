import Foundation
import Hummingbird
import SplitServer

// Reads configuration and runs the server until SIGTERM or SIGINT (STYLE §2).
do {
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
