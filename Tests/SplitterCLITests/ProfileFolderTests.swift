import Foundation
import Testing

@testable import SplitterCLI

@Suite("where the command line keeps its settings")
struct ProfileFolderTests {
    @Test("$SPLITTER_CONFIG_DIR, else ~/.config/splitter with ~ the HOME the command runs under")
    func folder() {
        #expect(
            Profile(name: "ben", environment: ["SPLITTER_CONFIG_DIR": "/srv/cfg", "HOME": "/home/aki"]).folder.path
                == "/srv/cfg/profiles/ben")
        // HOME set to another folder than the account's own (a container, `sudo -H`, a test): it is used.
        #expect(
            Profile(name: "default", environment: ["HOME": "/tmp/elsewhere"]).folder.path
                == "/tmp/elsewhere/.config/splitter/profiles/default")
        #expect(
            Profile(name: "default", environment: ["SPLITTER_CONFIG_DIR": "", "HOME": "/tmp/elsewhere"]).folder.path
                == "/tmp/elsewhere/.config/splitter/profiles/default")
        // No HOME at all: the account's home directory.
        #expect(
            Profile(name: "default", environment: [:]).folder.path
                == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/splitter/profiles/default").path)
    }
}
