import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SplitApp
import SplitServer
import SplitStore
import SplitTestSupport
import Testing

/// A reply, with the JSON body parsed for assertions.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    private func value(_ path: [String]) -> Any? {
        var value: Any? = try? JSONSerialization.jsonObject(with: body)
        for key in path { value = (value as? [String: Any])?[key] }
        return value
    }

    /// `json["group"]["id"]` as `string("group", "id")`.
    func string(_ path: String...) -> String? { value(path) as? String }
    func bool(_ path: String...) -> Bool? { value(path) as? Bool }
    func int(_ path: String...) -> Int? { value(path) as? Int }
    /// The objects of an array, each as its JSON text, so it can be compared and re-read.
    func list(_ path: String...) -> [Reply] {
        ((value(path) as? [Any]) ?? []).compactMap { item in
            guard JSONSerialization.isValidJSONObject(item) else { return nil }
            return (try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys])).map {
                Reply(status: status, headers: [:], body: $0)
            }
        }
    }

    /// An array of strings.
    func strings(_ path: String...) -> [String] { (value(path) as? [Any])?.compactMap { $0 as? String } ?? [] }

    var errorCode: String? { string("error", "code") }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Talks to the application under test the way a client would: method, path, token, JSON text.
struct API: Sendable {
    let client: any TestClient
    let databaseConfiguration: DatabaseConfiguration

    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil,
        headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> Reply {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        var payload = body
        if let json {
            payload = ByteBuffer(string: json)
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: payload)
        return Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
    }

    /// Registers an account; returns its token and user id.
    func register(_ name: String, email: String? = nil) async throws -> (token: String, userID: String) {
        let email = email ?? "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.com"
        let reply = try await call(
            .post, "/auth/register", json: #"{"email":"\#(email)","password":"correct horse","displayName":"\#(name)"}"#
        )
        try #require(reply.status == .created, "register \(name): \(reply.text)")
        return (try #require(reply.string("token")), try #require(reply.string("user", "id")))
    }
}

enum TestApp {
    /// The configuration tests run with: a cheap bcrypt cost (the default of 12 is checked by its
    /// own test) and registration limits high enough for suites that register many users.
    static func configuration(_ database: DatabaseConfiguration) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.database = database
        configuration.bcryptCost = 4
        // SPLITTER_TEST_LOG_LEVEL=error shows why a request failed.
        configuration.logLevel =
            ProcessInfo.processInfo.environment["SPLITTER_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? .critical
        configuration.limits.registrationsPerAddress = 10_000
        return configuration
    }

    /// Builds the real application on a fresh database of `backend` and drives it through
    /// `AppTester` (the router directly, or a live socket); the database is removed afterwards.
    static func with(
        _ backend: Database.Backend, live: Bool = false,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        sessionLookups: SessionLookupCounter? = nil,
        _ body: @escaping @Sendable (API) async throws -> Void
    ) async throws {
        try await TestDatabases.withConfiguration(backend) { database in
            var configuration = configuration(database)
            configure(&configuration)
            var logger = TestDatabases.logger
            logger.logLevel = configuration.logLevel
            let app = try await buildApplication(
                configuration: configuration, logger: logger, sessionLookups: sessionLookups)
            // `.live` runs a real server on a loopback socket, for what depends on the peer address.
            try await AppTester.run(app, live: live) { client in
                try await body(API(client: client, databaseConfiguration: database))
            }
        }
    }
}
