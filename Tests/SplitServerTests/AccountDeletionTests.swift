import Foundation
import HTTPTypes
import SplitApp
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// Issue 14 item 17: an account can be deleted; the groups keep the name and every amount.
@Suite("Deleting an account")
struct AccountDeletionTests {
    @Test(
        "needs the password; the member stays under its name with every amount, the account is erased",
        arguments: TestDatabases.all)
    func deleteAccount(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            // setup: Aki owns Japan, Bo and Cy joined it; Aki paid 3000 JPY for the three; Bo owns Solo alone
            let aki = try await api.register("Aki")
            let bo = try await api.register("Bo", email: "bo@example.com")
            let cy = try await api.register("Cy")
            let created = try await api.call(
                .post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            for token in [bo.token, cy.token] {
                let joined = try await api.call(
                    .post, "/api/groups/join", token: token, json: #"{"inviteCode":"\#(code)"}"#)
                try #require(joined.status == .ok, "\(joined.text)")
            }
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token)
            let everyone = members.list("members")
            let ids = everyone.compactMap { $0.string("id") }
            let expense = try await api.call(
                .post, "/api/expenses", token: aki.token,
                json: #"""
                    {"groupId":"\#(groupID)","description":"Dinner","amount":"3000","currency":"JPY","expenseDate":"2026-11-21",
                     "split":{"mode":"equal","memberIds":["\#(ids.joined(separator: #"",""#))"]}}
                    """#)
            try #require(expense.status == .created, "\(expense.text)")
            let solo = try await api.call(
                .post, "/api/groups", token: bo.token, json: #"{"name":"Solo","homeCurrency":"JPY"}"#)
            let soloID = try #require(solo.string("group", "id"))
            let balancesBefore = try await api.call(.get, "/api/groups/\(groupID)/balances", token: aki.token).text
            // Bo made a monthly series in Japan: it adds as Bo.
            let series = try await api.call(
                .post, "/api/groups/\(groupID)/recurring", token: bo.token,
                json: #"{"expense":{"description":"Wifi","amount":"3000","currency":"JPY"},"rule":{"every":"month","startDate":"2030-01-01"},"mode":"auto"}"#)
            let seriesID = try #require(series.string("recurring", "id"), "\(series.text)")

            // act 1: a wrong password changes nothing
            let wrong = try await api.call(
                .post, "/auth/account/delete", token: bo.token, json: #"{"password":"not my password"}"#)
            #expect(wrong.status == .unprocessableContent && wrong.string("error", "details", "field") == "password")
            #expect(try await api.call(.get, "/auth/me", token: bo.token).status == .ok)

            // act 2: Bo deletes the account
            let deleted = try await api.call(
                .post, "/auth/account/delete", token: bo.token, json: #"{"password":"correct horse"}"#)
            #expect(deleted.status == .noContent, "\(deleted.text)")

            // validate: the token and the login are gone; Bo is a name-only member; money is unchanged
            #expect(try await api.call(.get, "/auth/me", token: bo.token).status == .unauthorized)
            let login = try await api.call(
                .post, "/auth/login", json: #"{"emailOrPhone":"bo@example.com","password":"correct horse"}"#)
            #expect(login.status == .unauthorized)
            let after = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token)
            let boMember = try #require(after.list("members").first { $0.string("name") == "Bo" })
            #expect(boMember.string("userId") == nil && boMember.bool("active") == true)
            #expect(try await api.call(.get, "/api/groups/\(groupID)/balances", token: aki.token).text == balancesBefore)
            // Bo's series stops at once, saying why (it would have paused at its date).
            let stopped = try await api.call(.get, "/api/recurring/\(seriesID)", token: aki.token)
            #expect(stopped.string("recurring", "state") == "paused", "\(stopped.text)")
            #expect(stopped.string("recurring", "note")?.hasPrefix("Bo, who made it, deleted their account") == true, "\(stopped.text)")
            // The change reaches the others' devices through the change feed.
            let changes = try await api.call(.get, "/api/groups/\(groupID)/changes", token: aki.token).text
            #expect(changes.contains(try #require(boMember.string("id"))))
            // Nothing personal is left in the database, and the group Bo owned alone is archived.
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            let accounts = AccountStore(database: database)
            let boUserID = try #require(UUID(uuidString: bo.userID))
            let user = try #require(try await accounts.user(id: boUserID))
            #expect(user.email == "deleted-\(bo.userID)@invalid" && user.phone == nil)
            #expect(user.displayName == "Deleted account" && user.passwordHash.isEmpty && !user.isActive)
            #expect(try await accounts.activeSessions(userID: user.id, now: 0).isEmpty)
            let soloUUID = try #require(UUID(uuidString: soloID))
            let soloGroup = try await GroupStore(database: database).group(id: soloUUID)
            #expect(soloGroup?.isArchived == true)
            try await database.close()
            // The email is free for a new account.
            _ = try await api.register("Bo again", email: "bo@example.com")

            // act 3: Aki owns Japan with Cy in it: refused, naming the group, until Aki hands it over
            let owner = try await api.call(
                .post, "/auth/account/delete", token: aki.token, json: #"{"password":"correct horse"}"#)
            #expect(owner.status == .conflict && owner.string("error", "code") == "owns_groups")
            #expect(owner.string("error", "message")?.contains("\u{201C}Japan\u{201D}") == true)
            #expect(try await api.call(.get, "/auth/me", token: aki.token).status == .ok)
            let cyMember = try #require(everyone.first { $0.string("userId") == cy.userID }?.string("id"))
            let handed = try await api.call(
                .post, "/api/groups/\(groupID)/transfer-ownership", token: aki.token,
                json: #"{"memberId":"\#(cyMember)"}"#)
            #expect(handed.status == .ok, "\(handed.text)")
            let now = try await api.call(
                .post, "/auth/account/delete", token: aki.token, json: #"{"password":"correct horse"}"#)
            #expect(now.status == .noContent)
            let cyView = try await api.call(.get, "/api/groups/\(groupID)", token: cy.token)
            #expect(cyView.string("group", "myRole") == "owner")
        }
    }
}
