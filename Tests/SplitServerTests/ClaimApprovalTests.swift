import Foundation
import SQLKit
import HTTPTypes
import SplitStore
import SplitTestSupport
import Testing

@testable import SplitServer

/// Issue 14 item 5: whoever holds the invite code must not take over a name that has money
/// history; an owner or admin approves such a claim. Names without history stay instant.
@Suite("Claiming a name-only member")
struct ClaimApprovalTests {
    @Test(
        "a name with expenses waits for approval; nobody else can take it meanwhile; approval links it",
        arguments: TestDatabases.all)
    func claimWithHistory(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            // setup: Aki owns Japan with name-only Bo (who shares a dinner) and name-only Cy (nothing yet)
            let aki = try await api.register("Aki")
            let bo = try await api.register("Bo", email: "bo@example.com")
            let mallory = try await api.register("Mallory")
            let viewer = try await api.register("Vee")
            let created = try await api.call(
                .post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            let akiMember = try #require(created.string("group", "myMemberId"))
            var ids: [String: String] = [:]
            for name in ["Bo", "Cy"] {
                let added = try await api.call(
                    .post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"\#(name)"}"#)
                let id = try #require(added.string("member", "id"))
                ids[name] = id
            }
            let boID = try #require(ids["Bo"])
            let dinner = try await api.call(
                .post, "/api/expenses", token: aki.token,
                json: #"""
                    {"groupId":"\#(groupID)","description":"Dinner","amount":"3000","currency":"JPY","expenseDate":"2026-11-21",
                     "split":{"mode":"equal","memberIds":["\#(akiMember)","\#(boID)"]}}
                    """#)
            try #require(dinner.status == .created, "\(dinner.text)")
            let joinedViewer = try await api.call(
                .post, "/api/groups/join", token: viewer.token, json: #"{"inviteCode":"\#(code)"}"#)
            let viewerMember = try #require(joinedViewer.string("member", "id"))
            _ = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(viewerMember)", token: aki.token, json: #"{"role":"viewer"}"#)
            let balances = try await api.call(.get, "/api/groups/\(groupID)/balances", token: aki.token).text

            // act 1: Mallory claims Bo with the code
            let claim = #"{"inviteCode":"\#(code)","memberId":"\#(boID)"}"#
            let pending = try await api.call(.post, "/api/groups/join", token: mallory.token, json: claim)

            // validate: it waits; Mallory is not in the group; Bo is still name-only; money unchanged
            #expect(pending.status == .accepted, "\(pending.text)")
            #expect(pending.string("groupName") == "Japan" && pending.string("memberName") == "Bo")
            #expect(try await api.call(.get, "/api/groups/\(groupID)", token: mallory.token).status == .notFound)
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token)
            #expect(members.list("members").first { $0.string("id") == boID }?.string("userId") == nil)
            #expect(try await api.call(.get, "/api/groups/\(groupID)/balances", token: aki.token).text == balances)
            // Asking again answers the same; the real Bo asking meanwhile is told someone else asked.
            #expect(
                try await api.call(.post, "/api/groups/join", token: mallory.token, json: claim).status == .accepted)
            let second = try await api.call(.post, "/api/groups/join", token: bo.token, json: claim)
            #expect(second.status == .conflict && second.string("error", "details", "field") == "memberId")
            // Aki, who decides, is told once (asking again is no new line); the viewer is not.
            func inbox(_ token: String, _ action: String) async throws -> [String] {
                try await api.call(.get, "/api/notifications", token: token).list("notifications")
                    .filter { $0.string("action") == action }.compactMap { $0.string("summary") }
            }
            #expect(
                try await inbox(aki.token, "member.claim_requested")
                    == ["Mallory asked to join as Bo, who has money in the group"])
            #expect(try await inbox(viewer.token, "member.claim_requested").isEmpty)
            // A viewer may not see or decide claims.
            #expect(try await api.call(.get, "/api/groups/\(groupID)/claims", token: viewer.token).status == .forbidden)

            // act 2: Aki sees who asks and rejects Mallory; then the real Bo asks and Aki approves
            let listed = try await api.call(.get, "/api/groups/\(groupID)/claims", token: aki.token)
            let waiting = listed.list("claims")
            #expect(waiting.count == 1 && waiting.first?.string("memberId") == boID)
            #expect(waiting.first?.string("userName") == "Mallory" && waiting.first?.string("memberName") == "Bo")
            let rejected = try await api.call(.delete, "/api/groups/\(groupID)/claims/\(boID)", token: aki.token)
            #expect(rejected.status == .noContent, "\(rejected.text)")
            // Mallory, who is no member, is told (found by review: she waited on); the group's
            // activity keeps the line; turning down again finds nothing.
            #expect(try await inbox(mallory.token, "member.claim_rejected") == ["Aki turned down your request to join as Bo"])
            let activity = try await api.call(.get, "/api/groups/\(groupID)/activity", token: aki.token)
            #expect(
                activity.list("activity").first?.string("summary") == "Aki turned down Mallory's request to join as Bo",
                "\(activity.text.prefix(400))")
            #expect(try await inbox(viewer.token, "member.claim_rejected").isEmpty)
            #expect(
                try await api.call(.delete, "/api/groups/\(groupID)/claims/\(boID)", token: aki.token).status == .notFound)
            #expect(try await api.call(.post, "/api/groups/join", token: bo.token, json: claim).status == .accepted)
            let approved = try await api.call(.post, "/api/groups/\(groupID)/claims/\(boID)", token: aki.token)

            // validate: the real Bo is linked as a plain member with Bo's balance; nothing waits
            #expect(approved.status == .ok, "\(approved.text)")
            #expect(approved.string("member", "userId") == bo.userID && approved.string("member", "role") == "member")
            // Bo is told he is in.
            #expect(try await inbox(bo.token, "member.claim_approved") == ["Aki let you join as Bo"])
            #expect(try await inbox(aki.token, "member.claim_requested").count == 2)
            let boSees = try await api.call(.get, "/api/groups/\(groupID)", token: bo.token)
            #expect(boSees.status == .ok && boSees.string("group", "myMemberId") == boID)
            #expect(try await api.call(.get, "/api/groups/\(groupID)/balances", token: bo.token).text == balances)
            #expect(
                try await api.call(.get, "/api/groups/\(groupID)/claims", token: aki.token).list("claims").isEmpty)
            let again = try await api.call(.post, "/api/groups/\(groupID)/claims/\(boID)", token: aki.token)
            #expect(again.status == .notFound)
            // Mallory, refused, may still join as someone new.
            let fresh = try await api.call(
                .post, "/api/groups/join", token: mallory.token, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(fresh.status == .ok && fresh.string("member", "name") == "Mallory")
            // A claim left from a race by someone now in the group, turned down: told as a member.
            let zed = try #require(
                try await api.call(.post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"Zed"}"#)
                    .string("member", "id"))
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            try await database.transaction { sql in
                try await sql.raw(
                    """
                    INSERT INTO member_claims (member_id, group_id, user_id, requested_at)
                    VALUES (\(bind: zed), \(bind: groupID), \(bind: mallory.userID), \(bind: Int64(1)))
                    """
                ).run()
            }
            try await database.close()
            #expect(try await api.call(.delete, "/api/groups/\(groupID)/claims/\(zed)", token: aki.token).status == .noContent)
            #expect(
                try await inbox(mallory.token, "member.claim_rejected")
                    == ["Aki turned down your request to join as Zed", "Aki turned down your request to join as Bo"])

            // A name without money history is still claimed at once.
            let cy = try await api.register("Cy")
            let instant = try await api.call(
                .post, "/api/groups/join", token: cy.token,
                json: #"{"inviteCode":"\#(code)","memberId":"\#(ids["Cy"]!)"}"#)
            #expect(instant.status == .ok && instant.string("member", "id") == ids["Cy"])
        }
    }

    @Test(
        "paying only, owing only, or a share of an expense since deleted is money history; another group's is not",
        arguments: TestDatabases.all)
    func everyKindOfHistory(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            // setup: Aki's group with name-only Payer, Owes, Gone and None among 40 expenses of
            // Aki's own (payers and shares have no index by member: each expense is looked at)
            let aki = try await api.register("Aki")
            func group(_ name: String) async throws -> (id: String, code: String, aki: String) {
                let created = try await api.call(
                    .post, "/api/groups", token: aki.token, json: #"{"name":"\#(name)","homeCurrency":"JPY"}"#)
                return (
                    try #require(created.string("group", "id")), try #require(created.string("group", "inviteCode")),
                    try #require(created.string("group", "myMemberId"))
                )
            }
            func add(_ name: String, to groupID: String) async throws -> String {
                let added = try await api.call(
                    .post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"\#(name)"}"#)
                return try #require(added.string("member", "id"))
            }
            func expense(in groupID: String, paidBy payer: String, sharedBy sharers: [String]) async throws -> String {
                let list = sharers.map { #""\#($0)""# }.joined(separator: ",")
                let created = try await api.call(
                    .post, "/api/expenses", token: aki.token,
                    json: #"""
                        {"groupId":"\#(groupID)","description":"Lunch","amount":"1200","currency":"JPY",
                         "expenseDate":"2026-11-21","paidByMemberId":"\#(payer)","split":{"mode":"equal","memberIds":[\#(list)]}}
                        """#)
                try #require(created.status == .created, "\(created.text)")
                return try #require(created.string("expense", "id"))
            }
            let japan = try await group("Japan")
            var names: [String: String] = [:]
            for name in ["Payer", "Owes", "Gone", "None"] { names[name] = try await add(name, to: japan.id) }
            for index in 0..<40 {
                if index == 10 { _ = try await expense(in: japan.id, paidBy: names["Payer"]!, sharedBy: [japan.aki]) }
                if index == 20 { _ = try await expense(in: japan.id, paidBy: japan.aki, sharedBy: [names["Owes"]!]) }
                if index == 30 {
                    let gone = try await expense(
                        in: japan.id, paidBy: japan.aki, sharedBy: [japan.aki, names["Gone"]!])
                    let deleted = try await api.call(.delete, "/api/expenses/\(gone)", token: aki.token)
                    try #require(deleted.bool("expense", "isDeleted") == true)
                }
                _ = try await expense(in: japan.id, paidBy: japan.aki, sharedBy: [japan.aki])
            }
            // None has history in another group only (a member id is one group's: this is a
            // different member of the same name).
            let korea = try await group("Korea")
            let elsewhere = try await add("None", to: korea.id)
            _ = try await expense(in: korea.id, paidBy: elsewhere, sharedBy: [korea.aki, elsewhere])

            // act and validate: each claim of Japan's names
            for (name, waits) in [("Payer", true), ("Owes", true), ("Gone", true), ("None", false)] {
                let claimant = try await api.register("Claimant\(name)")
                let answer = try await api.call(
                    .post, "/api/groups/join", token: claimant.token,
                    json: #"{"inviteCode":"\#(japan.code)","memberId":"\#(names[name]!)"}"#)
                #expect(answer.status == (waits ? .accepted : .ok), "\(name): \(answer.text)")
            }
        }
    }

    @Test(
        "a claimant who joins as someone else meanwhile cannot be approved as the name too",
        arguments: TestDatabases.all)
    func claimantJoinedMeanwhile(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let aki = try await api.register("Aki")
            let bo = try await api.register("Bo")
            let created = try await api.call(
                .post, "/api/groups", token: aki.token, json: #"{"name":"Japan","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            let added = try await api.call(
                .post, "/api/groups/\(groupID)/members", token: aki.token, json: #"{"name":"Ghost"}"#)
            let ghost = try #require(added.string("member", "id"))
            let transfer = try await api.call(
                .post, "/api/groups/\(groupID)/settlements", token: aki.token,
                json:
                    #"{"fromMemberId":"\#(ghost)","toMemberId":"\#(created.string("group", "myMemberId")!)","amount":"500","currency":"JPY"}"#
            )
            try #require(transfer.status == .created, "\(transfer.text)")
            let claim = #"{"inviteCode":"\#(code)","memberId":"\#(ghost)"}"#
            #expect(try await api.call(.post, "/api/groups/join", token: bo.token, json: claim).status == .accepted)
            // Bo joins as a new member instead: the waiting claim goes away.
            let joined = try await api.call(
                .post, "/api/groups/join", token: bo.token, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(joined.status == .ok)
            #expect(
                try await api.call(.get, "/api/groups/\(groupID)/claims", token: aki.token).list("claims").isEmpty)
            let approve = try await api.call(.post, "/api/groups/\(groupID)/claims/\(ghost)", token: aki.token)
            #expect(approve.status == .notFound)
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token)
            #expect(members.list("members").first { $0.string("id") == ghost }?.string("userId") == nil)
        }
    }
}
