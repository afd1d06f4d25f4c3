import Foundation
import SplitStore
import SplitTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real binary over real HTTP: start-up with migrations, the spec route, a short flow, and a
/// clean exit on SIGTERM.
@Suite("splitter-server end to end")
struct EndToEndTests {
    @Test("the binary serves the API and the spec, and exits cleanly on SIGTERM", arguments: TestDatabases.all)
    func binary(backend: Database.Backend) async throws {
        // An empty database: the binary's first start applies the migrations.
        try await TestDatabases.withConfiguration(backend, empty: true) { database in
            let url: String =
                switch database {
                case .sqlite(let path): "sqlite:\(path)"
                case .postgres(let url): url
                }
            let server = try await ServerProcess(environment: ["DATABASE_URL": url, "LOG_LEVEL": "info"])
            do {
                try await Self.drive(server.baseURL)
            } catch {
                _ = try? await server.stop()
                Issue.record("server log:\n\(server.log)")
                throw error
            }
            #expect(try await server.stop() == 0, "exit status; log:\n\(server.log)")
            #expect(server.log.contains("applied migration"))
        }
    }

    static func drive(_ base: URL) async throws {
        let health = try await request(base, "GET", "/health")
        #expect(health.status == 200 && health.json["status"] as? String == "ok")

        let spec = try await request(base, "GET", "/openapi.yaml")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SplitAPI/openapi.yaml")
        let expected = try Data(contentsOf: source)
        #expect(spec.status == 200 && spec.body == expected)

        let aki = try await request(
            base, "POST", "/auth/register",
            body: #"{"email":"aki@example.com","password":"correct horse","displayName":"Aki"}"#)
        #expect(aki.status == 201)
        let token = try #require(aki.json["token"] as? String)
        let group = try await request(
            base, "POST", "/api/groups", token: token, body: #"{"name":"Japan","homeCurrency":"JPY"}"#)
        #expect(group.status == 201)
        let code = try #require((group.json["group"] as? [String: Any])?["inviteCode"] as? String)

        let ben = try await request(
            base, "POST", "/auth/register",
            body: #"{"phone":"+65 9123 4567","password":"correct horse","displayName":"Ben"}"#)
        let benToken = try #require(ben.json["token"] as? String)
        let joined = try await request(
            base, "POST", "/api/groups/join", token: benToken, body: #"{"inviteCode":"\#(code)"}"#)
        #expect(joined.status == 200)
        let login = try await request(
            base, "POST", "/auth/login", body: #"{"emailOrPhone":"+6591234567","password":"correct horse"}"#)
        #expect(login.status == 200)
        let anonymous = try await request(base, "GET", "/api/groups")
        #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(anonymous.header("Content-Type")?.hasPrefix("application/json") == true)
    }

    struct HTTPReply {
        var status: Int
        var headers: [AnyHashable: Any]
        var body: Data
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        func header(_ name: String) -> String? {
            headers.first { ($0.key as? String)?.lowercased() == name.lowercased() }?.value as? String
        }
    }

    static func request(
        _ base: URL, _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> HTTPReply {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return HTTPReply(status: http.statusCode, headers: http.allHeaderFields, body: data)
    }
}
