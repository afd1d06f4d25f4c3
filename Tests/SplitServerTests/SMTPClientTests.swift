import Foundation
import NIOCore
import NIOPosix
import SplitTestSupport
import Testing

@testable import SplitServer

/// The SMTP client against a real SMTP server (scripts/smtp-sink.py, aiosmtpd) on loopback.
/// These tests fail, not skip, when python3 cannot import aiosmtpd: scripts/test installs it.
@Suite("SMTP client")
struct SMTPClientTests {
    /// The client's own event loop: the whole suite's servers and database clients share the
    /// default group, and under that load a 300 ms timer fired 70 s late (a full parallel run on
    /// 2 cores); what is tested here is the client, not that backlog.
    static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    static let from = try! MailMessage.Address("noreply@split.example", displayName: "Budget Splitter")
    static let to = try! MailMessage.Address("aki@example.com", displayName: "Aki")

    static func message(
        to: MailMessage.Address = to, subject: String = "Dinner was added", plainText: String = "Aki added Dinner.",
        html: String? = nil
    ) throws -> MailMessage {
        try MailMessage(from: from, to: to, subject: subject, plainText: plainText, html: html)
    }

    /// Sends and returns the SMTPError thrown; fails the test when nothing (or something else) is thrown.
    static func sendError(_ client: SMTPClient, _ message: MailMessage) async throws -> SMTPError {
        do {
            try await client.send(message)
        } catch let error as SMTPError {
            return error
        }
        Issue.record("the send succeeded")
        throw CancellationError()
    }

    /// Runs `body` with a fresh test CA and server certificate, removed afterwards.
    static func withCertificates<T>(_ body: (TestCertificates) async throws -> T) async throws -> T {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        return try await body(certificates)
    }

    @Test("plain SMTP to a loopback relay delivers text and HTML alternatives")
    func plainLoopback() async throws {
        try await SMTPSink.with { sink in
            // setup
            let settings = try SMTPSettings(url: "smtp://127.0.0.1:\(sink.port)?tls=none")
            let message = try Self.message(html: "<p>Aki added <b>Dinner</b>.</p>")

            // act
            try await SMTPClient(settings: settings, eventLoopGroup: Self.loop).send(message)

            // validate
            let received = try await sink.waitForMessages(count: 1)
            #expect(received.count == 1)
            let mail = try #require(received.first)
            #expect(mail.mailFrom == "noreply@split.example" && mail.rcptTos == ["aki@example.com"])
            #expect(!mail.tls && mail.authLogin == nil)
            #expect(mail.subject == "Dinner was added" && mail.fromDisplayName == "Budget Splitter")
            #expect(mail.text?.replacingOccurrences(of: "\r\n", with: "\n") == "Aki added Dinner.")
            #expect(mail.html?.replacingOccurrences(of: "\r\n", with: "\n") == "<p>Aki added <b>Dinner</b>.</p>")
            #expect(mail.defects.isEmpty, "\(mail.defects)")
            #expect(mail.raw.contains("MIME-Version: 1.0\r\n"))
            #expect(mail.raw.contains("Content-Type: multipart/alternative; boundary=\"=_split_"))
            #expect(mail.raw.contains("Message-ID: <\(message.messageID)>\r\n"))
        }
    }

    @Test(
        "STARTTLS with the test CA, then AUTH PLAIN with a percent-decoded password",
        arguments: ["127.0.0.1", "localhost"])
    func startTLSAndAuthPlain(host: String) async throws {
        try await Self.withCertificates { certificates in
            let options = SMTPSink.Options(
                certificates: certificates, requiresTLS: true, auth: (user: "aki", password: "p@ss word"))
            try await SMTPSink.with(options) { sink in
                // setup
                let settings = try SMTPSettings(
                    url: "smtp://aki:p%40ss%20word@\(host):\(sink.port)", caFile: certificates.caCertificatePath)
                #expect(settings.security == .starttls)

                // act
                try await SMTPClient(settings: settings, eventLoopGroup: Self.loop).send(try Self.message())

                // validate: over TLS, authenticated once with PLAIN
                let mail = try #require(try await sink.waitForMessages(count: 1).first)
                #expect(mail.tls && mail.authLogin == "aki")
                let attempts = try sink.authAttempts()
                #expect(attempts.map(\.mechanism) == ["PLAIN"] && attempts.allSatisfy { $0.succeeded && $0.tls })
            }
        }
    }

    @Test("smtps:// speaks TLS from the first byte, then AUTH PLAIN")
    func implicitTLS() async throws {
        try await Self.withCertificates { certificates in
            let options = SMTPSink.Options(
                certificates: certificates, implicitTLS: true, auth: (user: "aki", password: "secret"))
            try await SMTPSink.with(options) { sink in
                // setup
                let settings = try SMTPSettings(
                    url: "smtps://aki:secret@localhost:\(sink.port)", caFile: certificates.caCertificatePath)
                #expect(settings.security == .implicitTLS)

                // act
                try await SMTPClient(settings: settings, eventLoopGroup: Self.loop).send(try Self.message())

                // validate
                let mail = try #require(try await sink.waitForMessages(count: 1).first)
                #expect(mail.tls && mail.authLogin == "aki")
                #expect(try sink.authAttempts().map { $0.tls } == [true])
            }
        }
    }

    @Test("AUTH LOGIN when the server offers no PLAIN")
    func authLogin() async throws {
        try await Self.withCertificates { certificates in
            let options = SMTPSink.Options(
                certificates: certificates, requiresTLS: true, auth: (user: "aki", password: "secret"),
                excludedAuthMechanisms: ["PLAIN"])
            try await SMTPSink.with(options) { sink in
                let settings = try SMTPSettings(
                    url: "smtp://aki:secret@127.0.0.1:\(sink.port)", caFile: certificates.caCertificatePath)
                try await SMTPClient(settings: settings, eventLoopGroup: Self.loop).send(try Self.message())
                let mail = try #require(try await sink.waitForMessages(count: 1).first)
                #expect(mail.authLogin == "aki")
                #expect(try sink.authAttempts().map(\.mechanism) == ["LOGIN"])
            }
        }
    }

    @Test("smtp:// to a server without STARTTLS is refused: nothing delivered, no credentials sent")
    func missingStartTLS() async throws {
        // The sink offers AUTH in clear here, so only the client's own refusal keeps the password back.
        try await SMTPSink.with(.init(auth: (user: "aki", password: "secret"))) { sink in
            let settings = try SMTPSettings(url: "smtp://aki:secret@127.0.0.1:\(sink.port)")
            let error = try await Self.sendError(SMTPClient(settings: settings, eventLoopGroup: Self.loop), try Self.message())
            #expect(error.command == "STARTTLS" && error.isPermanent && error.code == nil)
            #expect(try sink.messages().isEmpty)
            #expect(try sink.authAttempts().isEmpty)
        }
    }

    @Test("a certificate from a CA we do not trust ends the send before AUTH")
    func untrustedCertificate() async throws {
        try await Self.withCertificates { certificates in
            try await Self.withCertificates { otherCA in
                let options = SMTPSink.Options(certificates: certificates, auth: (user: "aki", password: "secret"))
                try await SMTPSink.with(options) { sink in
                    let settings = try SMTPSettings(
                        url: "smtp://aki:secret@127.0.0.1:\(sink.port)", caFile: otherCA.caCertificatePath)
                    let error = try await Self.sendError(SMTPClient(settings: settings, eventLoopGroup: Self.loop), try Self.message())
                    #expect(error.code == nil && !error.isPermanent, "\(error)")
                    #expect(try sink.messages().isEmpty)
                    #expect(try sink.authAttempts().isEmpty)
                }
            }
        }
    }

    @Test("a wrong password is a permanent error")
    func wrongPassword() async throws {
        try await Self.withCertificates { certificates in
            let options = SMTPSink.Options(certificates: certificates, auth: (user: "aki", password: "secret"))
            try await SMTPSink.with(options) { sink in
                let settings = try SMTPSettings(
                    url: "smtp://aki:wrong@127.0.0.1:\(sink.port)", caFile: certificates.caCertificatePath)
                let error = try await Self.sendError(SMTPClient(settings: settings, eventLoopGroup: Self.loop), try Self.message())
                #expect(error.command == "AUTH PLAIN" && error.code == 535 && error.isPermanent, "\(error)")
                #expect(!error.description.contains("wrong"))
                #expect(try sink.messages().isEmpty)
            }
        }
    }

    @Test("a recipient answered 550 is permanent, one answered 451 is temporary")
    func recipientRefusals() async throws {
        let options = SMTPSink.Options(
            rejectedRecipients: ["gone@example.com"], tempfailedRecipients: ["busy@example.com"])
        try await SMTPSink.with(options) { sink in
            let client = SMTPClient(settings: try SMTPSettings(url: "smtp://127.0.0.1:\(sink.port)?tls=none"), eventLoopGroup: Self.loop)

            let gone = try await Self.sendError(client, try Self.message(to: try .init("gone@example.com")))
            #expect(gone.command == "RCPT TO" && gone.code == 550 && gone.isPermanent, "\(gone)")
            #expect(gone.text.contains("no such user"))

            let busy = try await Self.sendError(client, try Self.message(to: try .init("busy@example.com")))
            #expect(busy.command == "RCPT TO" && busy.code == 451 && !busy.isPermanent, "\(busy)")
            #expect(try sink.messages().isEmpty)
        }
    }

    @Test("a refused connection is temporary")
    func connectionRefused() async throws {
        // setup: a port that was just free: the sink's, after it stopped
        let sink = try await SMTPSink()
        let port = sink.port
        try await sink.stop()

        let client = SMTPClient(settings: try SMTPSettings(url: "smtp://127.0.0.1:\(port)?tls=none"), eventLoopGroup: Self.loop)
        let error = try await Self.sendError(client, try Self.message())
        #expect(error.command == "connect" && error.code == nil && !error.isPermanent, "\(error)")
    }

    @Test("a server that never greets times out, temporarily")
    func silentServer() async throws {
        // setup: accepts connections and never writes
        let server = try await ServerBootstrap(group: Self.loop)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        defer { server.close(promise: nil) }

        let settings = try SMTPSettings(url: "smtp://127.0.0.1:\(port)?tls=none")
        let error = try await Self.sendError(
            SMTPClient(settings: settings, timeout: .milliseconds(300), eventLoopGroup: Self.loop), try Self.message())
        // The failure names the timeout that ended it: the 300 ms asked for, not the 30 s
        // default. (Not a wall-clock bound: in a full parallel run on two cores this test's task
        // waited up to a minute for a thread after the timer had fired.)
        #expect(error.command == "greeting" && !error.isPermanent, "\(error)")
        #expect(error.text.contains("timeout (300 ms)"), "\(error)")
    }

    @Test("lines that start with a dot arrive intact (dot-stuffing)")
    func dotStuffing() async throws {
        try await SMTPSink.with { sink in
            let body = "Before\n.\n..x\n.hidden\nAfter"
            try await SMTPClient(settings: try SMTPSettings(url: "smtp://127.0.0.1:\(sink.port)?tls=none"), eventLoopGroup: Self.loop)
                .send(try Self.message(plainText: body))
            let mail = try #require(try await sink.waitForMessages(count: 1).first)
            #expect(mail.text?.replacingOccurrences(of: "\r\n", with: "\n") == body + "\n")
            #expect(mail.raw.contains("\r\n.\r\n..x\r\n.hidden\r\n"))
        }
    }

    @Test("a UTF-8 subject, display name and body arrive as they were written")
    func utf8() async throws {
        try await SMTPSink.with { sink in
            // setup: long enough for several encoded words, with characters of 1 to 4 bytes
            let subject = "Ōta paid ¥3 500 for 寿司 🍣 in 東京 — split between Aki, Bo and Cy, settle up before Friday 🇯🇵"
            let body =
                "Grüße aus Köln! 寿司 🍣 costs ¥3 500.\n"
                + String(repeating: "Ünïcödé and a long line that needs soft breaks in quoted-printable. ", count: 4)
                + "\nTrailing space here \nand a tab\t\n=equals= too"
            let message = try MailMessage(
                from: try .init("noreply@split.example", displayName: "Budget Splitter — 東京"), to: Self.to,
                subject: subject, plainText: body)

            // act
            try await SMTPClient(settings: try SMTPSettings(url: "smtp://127.0.0.1:\(sink.port)?tls=none"), eventLoopGroup: Self.loop)
                .send(message)

            // validate: decoded as written, and the raw text is 7-bit with short lines
            let mail = try #require(try await sink.waitForMessages(count: 1).first)
            #expect(mail.subject == subject)
            #expect(mail.fromDisplayName == "Budget Splitter — 東京")
            #expect(mail.text?.replacingOccurrences(of: "\r\n", with: "\n") == body + "\n")
            #expect(mail.defects.isEmpty, "\(mail.defects)")
            #expect(mail.raw.contains("Subject: =?UTF-8?B?"))
            #expect(mail.raw.unicodeScalars.allSatisfy { $0.isASCII })
            let lines = mail.raw.components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.utf8.count <= 998 })
            let bodyLines = lines.drop { !$0.isEmpty }
            #expect(bodyLines.allSatisfy { $0.utf8.count <= 76 }, "\(bodyLines.filter { $0.utf8.count > 76 })")
            let encodedWords = lines.flatMap { $0.split(separator: " ") }.filter { $0.hasPrefix("=?UTF-8?") }
            #expect(encodedWords.count > 2 && encodedWords.allSatisfy { $0.utf8.count <= 75 })
        }
    }

    @Test("CR or LF in a subject, name, address or header is refused when the message is made")
    func headerInjection() throws {
        let address = Self.to
        #expect(throws: MailMessageError.self) {
            try MailMessage(from: Self.from, to: address, subject: "Hi\r\nBcc: victim@example.com", plainText: "x")
        }
        #expect(throws: MailMessageError.self) {
            try MailMessage(from: Self.from, to: address, subject: "Hi\nthere", plainText: "x")
        }
        #expect(throws: MailMessageError.self) {
            try MailMessage.Address("a@example.com", displayName: "Aki\r\nBcc: x@y")
        }
        #expect(throws: MailMessageError.self) { try MailMessage.Address("a@example.com\r\nRCPT TO:<x@example.com>") }
        #expect(throws: MailMessageError.self) { try MailMessage.Address("a@example.com>") }
        #expect(throws: MailMessageError.self) { try MailMessage.Address("a b@example.com") }
        #expect(throws: MailMessageError.self) { try MailMessage.Address("a@b@example.com") }
        #expect(throws: MailMessageError.self) { try MailMessage.Address("@example.com") }
        #expect(throws: MailMessageError.self) {
            try MailMessage(
                from: Self.from, to: address, subject: "Hi", plainText: "x",
                headers: ["List-Unsubscribe": "<https://x.example/u>\r\nBcc: victim@example.com"])
        }
        #expect(throws: MailMessageError.self) {
            try MailMessage(
                from: Self.from, to: address, subject: "Hi", plainText: "x", headers: ["Bcc": "v@example.com"])
        }
        #expect(throws: MailMessageError.self) {
            try MailMessage(from: Self.from, to: address, subject: "Hi", plainText: "x", headers: ["Bad Name": "v"])
        }
        #expect(throws: MailMessageError.self) {
            try MailMessage(from: Self.from, to: address, subject: "Hi", plainText: "x", messageID: "a@b>\r\nBcc: v")
        }
        // Line breaks in bodies are text, not headers.
        _ = try MailMessage(from: Self.from, to: address, subject: "Hi", plainText: "line 1\r\nBcc: not a header")
    }

    @Test("the rendered message: date, headers, quoted-printable, list-unsubscribe")
    func rendering() throws {
        // 2026-05-05 14:03:09 UTC, a Tuesday
        let message = try MailMessage(
            from: Self.from, to: Self.to, subject: "Hi", plainText: "a=b \n" + String(repeating: "x", count: 100),
            headers: [
                "List-Unsubscribe": "<https://split.example/unsubscribe/abc>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            ],
            messageID: "m1@split.example", date: Date(timeIntervalSince1970: 1_777_989_789))
        let text = message.rendered()
        #expect(
            text.hasPrefix(
                "Date: Tue, 05 May 2026 14:03:09 +0000\r\nFrom: \"Budget Splitter\" <noreply@split.example>\r\n"
                    + "To: \"Aki\" <aki@example.com>\r\nSubject: Hi\r\nMessage-ID: <m1@split.example>\r\n"
                    + "List-Unsubscribe: <https://split.example/unsubscribe/abc>\r\n"
                    + "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nMIME-Version: 1.0\r\n"
                    + "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
                    + "a=3Db=20\r\n" + String(repeating: "x", count: 75) + "=\r\n" + String(repeating: "x", count: 25)
                    + "\r\n"),
            "\(text)")
        let withoutCRLF = text.replacingOccurrences(of: "\r\n", with: "")
        #expect(!withoutCRLF.contains("\r") && !withoutCRLF.contains("\n"))
        #expect(SMTPClient.dataPayload("a\r\n.\r\n..b\r\n") == "a\r\n..\r\n...b\r\n.\r\n")
        #expect(SMTPClient.dataPayload("a") == "a\r\n.\r\n")
    }

    @Test("SMTP URLs: defaults, decoding, loopback-only plain text, refusals that never print the password")
    func settings() throws {
        let starttls = try SMTPSettings(url: "smtp://mailer%40split:s3cr%2Ft%20pw@mail.example.com")
        #expect(starttls.host == "mail.example.com" && starttls.port == 587 && starttls.security == .starttls)
        #expect(starttls.username == "mailer@split" && starttls.password == "s3cr/t pw")
        #expect(starttls.description == "smtp://mailer%40split:***@mail.example.com:587")
        for shown in [
            starttls.description, String(reflecting: starttls), "\(starttls)",
            {
                var s = ""; dump(starttls, to: &s); return s
            }(),
        ] {
            #expect(!shown.contains("s3cr"), "\(shown)")
        }

        let implicit = try SMTPSettings(url: "smtps://mail.example.com")
        #expect(implicit.port == 465 && implicit.security == .implicitTLS && implicit.username == nil)
        #expect(try SMTPSettings(url: "smtps://mail.example.com:2465/").port == 2465)

        #expect(try SMTPSettings(url: "smtp://127.0.0.1?tls=none").port == 587)
        #expect(try SMTPSettings(url: "smtp://127.1.2.3:2525?tls=none").security == .none)
        #expect(try SMTPSettings(url: "smtp://[::1]:2525?tls=none").host == "::1")
        #expect(try SMTPSettings(url: "smtp://LOCALHOST?tls=none").isLoopback)
        #expect(try SMTPSettings(url: "smtp://u:pw@localhost:25?tls=none").password == "pw")

        let refusals: [(url: String, problem: String)] = [
            ("smtp://u:hunter2@mail.example.com?tls=none", "loopback"),
            ("smtp://u:hunter2@10.0.0.1?tls=none", "loopback"),
            ("smtp://u:hunter2@128.0.0.1?tls=none", "loopback"),
            ("http://u:hunter2@mail.example.com", "smtp://"),
            ("u:hunter2@mail.example.com", "smtp://"),
            ("smtp://u:hunter2@mail.example.com?auth=plain", "query"),
            ("smtps://u:hunter2@mail.example.com?tls=none", "tls=none"),
            ("smtp://u:hunter2@mail.example.com:99999", "port"),
            ("smtp://u:hunter2@mail.example.com:x", "port"),
            ("smtp://u:hunter2@/", "host"),
            ("smtp://u@mail.example.com", "password"),
            ("smtp://u:hunter2@mail.example.com/path", "path"),
            ("smtp://u:hunter%ZZ2@mail.example.com", "percent"),
        ]
        for refusal in refusals {
            do {
                _ = try SMTPSettings(url: refusal.url)
                Issue.record("accepted \(refusal.url)")
            } catch let error as SMTPSettingsError {
                #expect(error.description.contains(refusal.problem), "\(refusal.url): \(error)")
                #expect(!error.description.contains("hunter"), "\(error)")
            }
        }
        #expect(throws: SMTPSettingsError.self) {
            try SMTPSettings(url: "smtps://mail.example.com", caFile: "/nonexistent/ca.pem")
        }
    }
}
