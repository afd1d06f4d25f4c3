import Foundation
import Logging
import SplitApp
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Notification mail and email verification (issue 17, issue 14 item 18) against a real SMTP
/// server (scripts/smtp-sink.py, aiosmtpd) and, end to end, the real server binary.
@Suite("Notification mail through a real SMTP server")
struct MailTests {
    typealias Reply = EndToEndTests.HTTPReply

    static func call(_ base: URL, _ method: String, _ path: String, token: String? = nil, body: String? = nil)
        async throws -> Reply
    {
        try await EndToEndTests.request(base, method, path, token: token, body: body)
    }

    /// The first `/verify-email/<token>` link in a mail's text.
    static func verificationToken(_ mail: SMTPSink.Message) -> String? {
        guard let text = mail.text, let range = text.range(of: #"/verify-email/[0-9a-f]{64}"#, options: .regularExpression)
        else { return nil }
        return String(text[range].dropFirst("/verify-email/".count))
    }

    /// The value of a header in a raw message (unfolded).
    static func header(_ name: String, in raw: String) -> String? {
        let unfolded = raw.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        return unfolded.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test(
        "a verified address gets a mail per notification with a working one-click unsubscribe; unverified and the actor get none",
        arguments: TestDatabases.all)
    func endToEnd(backend: Database.Backend) async throws {
        try await TestDatabases.withConfiguration(backend) { configuration in
            try await SMTPSink.with { sink in
                let url =
                    switch configuration {
                    case .sqlite(let path): "sqlite:\(path)"
                    case .postgres(let url): url
                    }
                let server = try await ServerProcess(environment: [
                    "DATABASE_URL": url, "SMTP_URL": "smtp://127.0.0.1:\(sink.port)?tls=none",
                    "PUBLIC_URL": "http://splitter.test", "MAIL_FROM": "Splitter <splitter@splitter.test>",
                ])
                do {
                    try await Self.drive(server.baseURL, sink)
                } catch {
                    _ = try? await server.stop()
                    Issue.record("server log:\n\(server.log)\nsink log:\n\(sink.log)")
                    throw error
                }
                #expect(try await server.stop() == 0, "exit status; log:\n\(server.log)")
            }
        }
    }

    @Test(
        "the owner of an address takes back an account someone else registered with it: a reset link, once, signs the other out",
        arguments: TestDatabases.all)
    func passwordResetTakesBackAnAddress(backend: Database.Backend) async throws {
        try await TestDatabases.withConfiguration(backend) { configuration in
            try await SMTPSink.with { sink in
                let url =
                    switch configuration {
                    case .sqlite(let path): "sqlite:\(path)"
                    case .postgres(let url): url
                    }
                let server = try await ServerProcess(environment: [
                    "DATABASE_URL": url, "SMTP_URL": "smtp://127.0.0.1:\(sink.port)?tls=none",
                    "PUBLIC_URL": "http://splitter.test",
                ])
                do {
                    try await Self.takeBack(server.baseURL, sink)
                } catch {
                    _ = try? await server.stop()
                    Issue.record("server log:\n\(server.log)")
                    throw error
                }
                #expect(try await server.stop() == 0)
            }
        }
    }

    static func takeBack(_ base: URL, _ sink: SMTPSink) async throws {
        // setup: someone registers with an address that is not theirs (its link goes unanswered)
        let squatter = try await call(
            base, "POST", "/auth/register",
            body: #"{"email":"owner@example.com","password":"squatter pass","displayName":"Not the owner"}"#)
        try #require(squatter.status == 201)
        let squatterToken = try #require(squatter.json["token"] as? String)
        _ = try await sink.waitForMessages(count: 1)

        // act 1: the owner asks for a link; an unknown address gets the same answer and no mail
        let asked = try await call(base, "POST", "/auth/password/reset-request", body: #"{"email":"Owner@Example.com"}"#)
        #expect(asked.status == 202)
        let unknown = try await call(base, "POST", "/auth/password/reset-request", body: #"{"email":"nobody@example.com"}"#)
        #expect(unknown.status == 202 && unknown.body == asked.body)
        let malformed = try await call(base, "POST", "/auth/password/reset-request", body: #"{"email":"not an address"}"#)
        #expect(malformed.status == 422)
        let mails = try await sink.waitForMessages(count: 2)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try sink.messages().count == 2, "no mail for the unknown address")
        let reset = try #require(mails.last)
        #expect(reset.rcptTos == ["owner@example.com"] && reset.subject == "Set a new Budget Splitter password")
        let text = reset.text ?? ""
        let range = try #require(text.range(of: #"/reset-password/[0-9a-f]{64}"#, options: .regularExpression))
        let token = String(text[range].dropFirst("/reset-password/".count))

        let form = try await WebClient.page(base, "/reset-password/\(token)")
        #expect(form.status == 200 && form.html.contains(#"id="set-password""#), "\(form.html)")
        let madeUp = try await WebClient.page(base, "/reset-password/\(String(repeating: "0", count: 64))")
        #expect(madeUp.status == 404 && !madeUp.html.contains(#"id="set-password""#))

        // act 2: a password the rules refuse changes nothing; a good one takes the account back
        let weak = try await call(
            base, "POST", "/auth/password/reset", body: #"{"token":"\#(token)","newPassword":"password"}"#)
        #expect(weak.status == 422, "\(String(decoding: weak.body, as: UTF8.self))")
        let done = try await call(
            base, "POST", "/auth/password/reset", body: #"{"token":"\#(token)","newPassword":"the real owner"}"#)
        #expect(done.status == 204, "\(String(decoding: done.body, as: UTF8.self))")
        let again = try await call(
            base, "POST", "/auth/password/reset", body: #"{"token":"\#(token)","newPassword":"another one here"}"#)
        #expect(again.status == 404, "a link works once")
        // Its page no longer shows a form that cannot work: it says so and asks again.
        let used = try await WebClient.page(base, "/reset-password/\(token)")
        #expect(used.status == 404 && used.html.contains("This link no longer works"), "\(used.html)")
        #expect(!used.html.contains(#"id="set-password""#) && used.html.contains(#"href="/forgot-password""#))
        // A form left open in another tab says the same when pressed (found by review: it fell
        // through to the error page).
        let pressed = try await WebClient.post(
            base, "/reset-password/\(token)", fields: "newPassword=another+horse+here", formPage: "/forgot-password")
        #expect(pressed.status == 404 && pressed.html.contains("This link no longer works"), "\(pressed.html)")

        // validate: the squatter is signed out and their password no longer works; the owner is in, verified
        #expect(try await call(base, "GET", "/auth/me", token: squatterToken).status == 401)
        let old = try await call(
            base, "POST", "/auth/login", body: #"{"emailOrPhone":"owner@example.com","password":"squatter pass"}"#)
        #expect(old.status == 401)
        let owner = try await call(
            base, "POST", "/auth/login", body: #"{"emailOrPhone":"owner@example.com","password":"the real owner"}"#)
        #expect(owner.status == 200)
        let settings = try await call(base, "GET", "/auth/email", token: owner.json["token"] as? String)
        #expect(settings.json["verified"] as? Bool == true)
    }

    static func drive(_ base: URL, _ sink: SMTPSink) async throws {
        // setup: three accounts; each address gets a verification link
        var tokens: [String: String] = [:]
        for name in ["Aki", "Bo", "Chen"] {
            let reply = try await call(
                base, "POST", "/auth/register",
                body: #"{"email":"\#(name.lowercased())@example.com","password":"correct horse","displayName":"\#(name)"}"#)
            try #require(reply.status == 201)
            tokens[name] = try #require(reply.json["token"] as? String)
        }
        let links = try await sink.waitForMessages(count: 3)
        #expect(links.count == 3)
        var linkTokens: [String: String] = [:]
        for mail in links {
            #expect(mail.subject == "Confirm your email for Budget Splitter" && mail.mailFrom == "splitter@splitter.test")
            #expect(mail.html != nil && mail.defects.isEmpty)
            let token: String = try #require(Self.verificationToken(mail))
            linkTokens[try #require(mail.rcptTos.first)] = token
        }
        let before = try await call(base, "GET", "/auth/email", token: tokens["Bo"])
        #expect(before.json["verified"] as? Bool == false && before.json["sending"] as? Bool == true)

        // act 1: Aki verifies through the API, Bo through the web page's button; Chen never does
        let akiLink = try #require(linkTokens["aki@example.com"])
        #expect(try await call(base, "POST", "/auth/email/verify", body: #"{"token":"\#(akiLink)"}"#).status == 204)
        let again = try await call(base, "POST", "/auth/email/verify", body: #"{"token":"\#(akiLink)"}"#)
        #expect(again.status == 404, "a link works once")
        let boLink = try #require(linkTokens["bo@example.com"])
        #expect(try await WebClient.verify(base, token: boLink))
        // The link's page again: no button that cannot work, but what happened and where to ask
        // again (found by a new user: the button showed, and only pressing it failed).
        let used = try await WebClient.page(base, "/verify-email/\(boLink)")
        #expect(used.status == 404 && used.html.contains("This link no longer works"), "\(used.html)")
        #expect(!used.html.contains("Confirm my address") && used.html.contains("/account#email"))
        let pressed = try await WebClient.post(base, "/verify-email/\(boLink)", fields: "", formPage: "/forgot-password")
        #expect(pressed.status == 404 && pressed.html.contains("This link no longer works"), "\(pressed.html)")
        let after = try await call(base, "GET", "/auth/email", token: tokens["Bo"])
        #expect(after.json["verified"] as? Bool == true && after.json["mode"] as? String == "each")

        // A group of three; Aki adds an expense all three share.
        let group = try await call(
            base, "POST", "/api/groups", token: tokens["Aki"], body: #"{"name":"Japan","homeCurrency":"JPY"}"#)
        let groupJSON = try #require(group.json["group"] as? [String: Any])
        let groupID = try #require(groupJSON["id"] as? String)
        let code = try #require(groupJSON["inviteCode"] as? String)
        for name in ["Bo", "Chen"] {
            let joined = try await call(
                base, "POST", "/api/groups/join", token: tokens[name], body: #"{"inviteCode":"\#(code)"}"#)
            try #require(joined.status == 200)
        }
        let members = try await call(base, "GET", "/api/groups/\(groupID)/members", token: tokens["Aki"])
        let memberList = try #require(members.json["members"] as? [[String: Any]])
        var memberIDs: [String: String] = [:]
        for member in memberList {
            memberIDs[try #require(member["name"] as? String)] = try #require(member["id"] as? String)
        }
        let all = ["Aki", "Bo", "Chen"].compactMap { memberIDs[$0] }.map { "\"\($0)\"" }.joined(separator: ",")
        func addExpense(_ description: String) async throws {
            let reply = try await call(
                base, "POST", "/api/expenses", token: tokens["Aki"],
                body: #"""
                    {"groupId":"\#(groupID)","description":"\#(description)","amount":"3000","currency":"JPY",
                     "expenseDate":"2026-11-21","split":{"mode":"equal","memberIds":[\#(all)]}}
                    """#)
            try #require(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        }
        try await addExpense("Ramen")

        // validate 1: one mail, to Bo (Aki acted; Chen's address is unverified)
        let first = try await sink.waitForMessages(count: 4)
        let ramen = try #require(first.last)
        #expect(ramen.rcptTos == ["bo@example.com"])
        #expect(ramen.subject == "Japan: Aki added Ramen (3,000 JPY)", "\(ramen.subject ?? "")")
        // It leads where the inbox's line does: the expense (a payment request's, to the request).
        #expect(ramen.text?.contains("Open it: http://splitter.test/expenses/") == true, "\(ramen.text ?? "")")
        #expect(ramen.html?.contains("Aki added Ramen") == true && ramen.defects.isEmpty)
        let unsubscribe = try #require(Self.header("List-Unsubscribe", in: ramen.raw))
        #expect(Self.header("List-Unsubscribe-Post", in: ramen.raw) == "List-Unsubscribe=One-Click")
        #expect(unsubscribe.hasPrefix("<http://splitter.test/unsubscribe/") && unsubscribe.hasSuffix("/expenses>"))

        // act 2: Bo's mail program unsubscribes with RFC 8058's one-click POST (no cookie, no token)
        let path = String(unsubscribe.dropFirst("<http://splitter.test".count).dropLast())
        var oneClick = URLRequest(url: URL(string: base.absoluteString + path)!)
        oneClick.httpMethod = "POST"
        oneClick.httpBody = Data("List-Unsubscribe=One-Click".utf8)
        oneClick.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: oneClick)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let forged = try await call(base, "POST", path.replacingOccurrences(of: "/expenses", with: "/nonsense"))
        #expect(forged.status == 404)
        let settings = try await call(base, "GET", "/auth/email", token: tokens["Bo"])
        #expect(settings.json["off"] as? [String] == ["expenses"])

        // Another expense (no mail now), then a transfer Bo → Aki (payments: mailed to Aki? no —
        // Aki records it; Bo gets it).
        try await addExpense("Sushi")
        let transfer = try await call(
            base, "POST", "/api/groups/\(groupID)/settlements", token: tokens["Aki"],
            body: #"{"fromMemberId":"\#(memberIDs["Bo"]!)","toMemberId":"\#(memberIDs["Aki"]!)","amount":"1000","currency":"JPY"}"#)
        try #require(transfer.status == 201, "\(String(decoding: transfer.body, as: UTF8.self))")

        // validate 2: exactly one more mail, about the transfer
        let second = try await sink.waitForMessages(count: 5)
        try await Task.sleep(for: .seconds(1))
        let final = try sink.messages()
        #expect(final.count == 5, "\(final.map { $0.subject ?? "" })")
        #expect(second.last?.subject?.contains("recorded receiving 1,000 JPY from you") == true, "\(second.last?.subject ?? "")")
        #expect(second.last?.rcptTos == ["bo@example.com"])
    }
}

/// The verification page as a browser uses it: GET shows a button, its form POST verifies.
enum WebClient {
    /// A page as a browser without a session gets it: its status and HTML.
    static func page(_ base: URL, _ path: String) async throws -> (status: Int, html: String) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: base.appendingPathComponent(path))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// A form posted to `path` as from a page that was open before (its CSRF token taken from
    /// `formPage`): a second tab whose link was used meanwhile.
    static func post(_ base: URL, _ path: String, fields: String, formPage: String) async throws
        -> (status: Int, html: String)
    {
        let session = URLSession(configuration: .ephemeral)
        let (page, _) = try await session.data(from: base.appendingPathComponent(formPage))
        let html = String(decoding: page, as: UTF8.self)
        guard let range = html.range(of: #"name="_csrf" value="[^"]+""#, options: .regularExpression) else { return (0, html) }
        let csrf = html[range].split(separator: "\"")[3]
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = Data("_csrf=\(csrf)&\(fields)".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    static func verify(_ base: URL, token: String) async throws -> Bool {
        let session = URLSession(configuration: .ephemeral)
        let (page, _) = try await session.data(from: base.appendingPathComponent("/verify-email/\(token)"))
        let html = String(decoding: page, as: UTF8.self)
        guard html.contains("Confirm my address"),
            let range = html.range(of: #"name="_csrf" value="[^"]+""#, options: .regularExpression)
        else { return false }
        let csrf = html[range].split(separator: "\"")[3]
        var request = URLRequest(url: base.appendingPathComponent("/verify-email/\(token)"))
        request.httpMethod = "POST"
        request.httpBody = Data("_csrf=\(csrf)".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode == 200
            && String(decoding: data, as: UTF8.self).contains("Email confirmed")
    }
}
