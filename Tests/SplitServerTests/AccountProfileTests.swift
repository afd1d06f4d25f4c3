import Foundation
import HTTPTypes
import SQLKit
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// One's own account (found by a new user: an account made with a phone could never add an
/// email, and nobody could fix their name): PATCH /auth/me from the outside.
@Suite("Changing one's name, email or phone")
struct AccountProfileTests {
    @Test(
        "a phone-only account adds an email with its password; a new email is unverified and closes reset links; refusals change nothing",
        arguments: TestDatabases.all)
    func profile(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let registered = try await api.call(
                .post, "/auth/register",
                json: #"{"phone":"+60 12 345 6789","password":"correct horse","displayName":"Aki"}"#)
            let aki = try #require(registered.string("token"))
            let ben = try await api.register("Ben", email: "ben@example.com")

            // A name needs no password; the account's name changes, nothing else.
            let renamed = try await api.call(.patch, "/auth/me", token: aki, json: #"{"displayName":"  Aki T. "}"#)
            #expect(renamed.status == .ok && renamed.string("user", "displayName") == "Aki T.", "\(renamed.text)")
            #expect(renamed.string("user", "phone") == "+60123456789" && renamed.string("user", "email") == nil)

            // Refusals: no password, a wrong one, a taken address, a malformed one, removing it.
            func refused(_ body: String, _ status: HTTPResponse.Status, field: String) async throws {
                let reply = try await api.call(.patch, "/auth/me", token: aki, json: body)
                #expect(reply.status == status && reply.string("error", "details", "field") == field, "\(body): \(reply.text)")
            }
            try await refused(#"{"email":"aki@example.com"}"#, .unprocessableContent, field: "currentPassword")
            try await refused(
                #"{"email":"aki@example.com","currentPassword":"wrong horse"}"#, .unprocessableContent,
                field: "currentPassword")
            try await refused(
                #"{"email":"Ben@Example.com","currentPassword":"correct horse"}"#, .conflict, field: "email")
            try await refused(#"{"email":"not an address","currentPassword":"correct horse"}"#, .unprocessableContent, field: "email")
            try await refused(#"{"phone":"","currentPassword":"correct horse"}"#, .unprocessableContent, field: "phone")
            #expect(try await api.call(.get, "/auth/me", token: aki).string("user", "email") == nil)

            // With the password, the email is added, unverified; logging in by it works.
            let added = try await api.call(
                .patch, "/auth/me", token: aki, json: #"{"email":" Aki@Example.com ","currentPassword":"correct horse"}"#)
            #expect(added.status == .ok && added.string("user", "email") == "aki@example.com", "\(added.text)")
            let settings = try await api.call(.get, "/auth/email", token: aki)
            #expect(settings.string("email") == "aki@example.com" && settings.bool("verified") == false, "\(settings.text)")
            let byEmail = try await api.call(
                .post, "/auth/login", json: #"{"emailOrPhone":"aki@example.com","password":"correct horse"}"#)
            #expect(byEmail.status == .ok)

            // Ben's verified address changes: it is unverified again, and a reset link sent to the
            // old one no longer works.
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            try await database.transaction { sql in
                try await sql.raw("UPDATE users SET email_verified_at = 1 WHERE email = 'ben@example.com'").run()
                try await sql.raw(
                    """
                    INSERT INTO email_verifications (token_hash, user_id, email, purpose, created_at, expires_at)
                    VALUES ('old-link', \(bind: ben.userID), 'ben@example.com', 'reset', 0, 9999999999999)
                    """
                ).run()
            }
            let moved = try await api.call(
                .patch, "/auth/me", token: ben.token, json: #"{"email":"ben@example.org","currentPassword":"correct horse"}"#)
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try await api.call(.get, "/auth/email", token: ben.token).bool("verified") == false)
            let open = try await database.read { sql in
                try await sql.raw("SELECT 1 AS x FROM email_verifications WHERE token_hash = 'old-link' AND used_at IS NULL")
                    .first()
            }
            #expect(open == nil, "the old address's reset link is closed")
            // The same address again is no change: no password needed, still as it was.
            let same = try await api.call(.patch, "/auth/me", token: ben.token, json: #"{"email":"ben@example.org"}"#)
            #expect(same.status == .ok)
            try await database.close()
        }
    }

    @Test(
        "with mail on, an address changed within the minute of the registration's link gets a link of its own",
        arguments: TestDatabases.all)
    func newAddressGetsItsLink(backend: Database.Backend) async throws {
        let mail = try MailJobTests.mailConfiguration(port: 9)
        try await TestApp.with(backend, configure: { $0.mail = mail; $0.runsJobs = false }) { api in
            let aki = try await api.register("Aki", email: "aki@example.com")
            // Back to the first address within the same minute too: its link was closed by the
            // first change, so it needs a new one (found by a new user: the key took it for a repeat).
            for address in ["aki@example.org", "aki@example.net", "aki@example.com"] {
                let moved = try await api.call(
                    .patch, "/auth/me", token: aki.token,
                    json: #"{"email":"\#(address)","currentPassword":"correct horse"}"#)
                #expect(moved.status == .ok, "\(moved.text)")
            }
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            let payloads = try await database.read { sql in
                try await sql.raw("SELECT payload FROM jobs WHERE kind = 'mail.verify' ORDER BY created_at").all()
                    .map { try $0.decode(column: "payload", as: String.self) }
            }
            try await database.close()
            // Found by a new user: the changes' links were taken for repeats of the registration's.
            for (address, links) in [("aki@example.com", 2), ("aki@example.org", 1), ("aki@example.net", 1)] {
                #expect(payloads.filter { $0.contains(address) }.count == links, "links for \(address): \(payloads)")
            }
        }
    }
}
