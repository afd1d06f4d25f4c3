import Foundation

/// The passwords everyone tries first (issue 14 item 13): the 10,000 most common of 8 to 128
/// characters, shipped as `Resources/common-passwords.txt`, refused at registration and at a
/// password change whatever their case.
enum CommonPasswords {
    static let all: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            // Shipped with the module: a build without it is broken, not a server to run quietly.
            fatalError("common-passwords.txt is missing from SplitApp's resources")
        }
        return Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
    }()

    static func contains(_ password: String) -> Bool { all.contains(password.lowercased()) }
}
