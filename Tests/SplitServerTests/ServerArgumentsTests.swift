import Foundation
import SplitServer
import SplitTestSupport
import Testing

/// The binary's command line: `--help` says the settings and starts nothing; an argument that is
/// no setting stops it (found by a new user: `--help` started a server on the working
/// directory's database, and a mistyped option would start one on the defaults).
@Suite("splitter-server's arguments")
struct ServerArgumentsTests {
    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binaryPath())
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        process.environment = environment
        let (output, error) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, outText, errText)
    }

    @Test("--help lists every setting and starts nothing; an unknown option or a typo is refused before start")
    func helpAndUnknown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("splitter-args-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for flag in ["--help", "-h"] {
            let help = try Self.run([flag], in: folder)
            #expect(help.status == 0 && help.output.hasPrefix("usage: splitter-server"), "\(help.output)\(help.error)")
            for setting in ServerConfiguration.settings {
                #expect(help.output.contains(ServerConfiguration.option(setting.name)), "\(setting.name)")
            }
        }
        let typo = try Self.run(["--htp-port", "9000"], in: folder)
        #expect(typo.status == 2 && typo.error.contains("unknown argument \"--htp-port\""), "\(typo.error)")
        let stray = try Self.run(["--http-port", "0", "serve"], in: folder)
        #expect(stray.status == 2 && stray.error.contains("\"serve\""), "\(stray.error)")
        // Nothing was started: no database file in the working directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // Both forms of a setting are taken (checked without starting: a bad port is refused by name).
        let equals = try Self.run(["--http-port=99999"], in: folder)
        #expect(equals.status == 2 && equals.error.contains("HTTP_PORT"), "\(equals.error)")
    }
}
