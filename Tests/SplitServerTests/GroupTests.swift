import Foundation
import HTTPTypes
import NIOCore
import SplitStore
import SplitTestSupport
import Testing

@Suite("Groups and members over HTTP")
struct GroupTests {
    /// Aki, Ben and Cho registered; Aki's MYR group "Trip" with its id and invite code.
    static func trip(_ api: API) async throws -> (
        aki: String, ben: String, cho: String, groupID: String, code: String
    ) {
        let (aki, _) = try await api.register("Aki")
        let (ben, _) = try await api.register("Ben")
        let (cho, _) = try await api.register("Cho")
        let created = try await api.call(
            .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"MYR"}"#)
        return (
            aki, ben, cho, try #require(created.string("group", "id")),
            try #require(created.string("group", "inviteCode"))
        )
    }

    @Test("a group has a time zone: UTC unless given, a name this server knows, changed like the rest", arguments: TestDatabases.all)
    func timeZone(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let plain = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Home","homeCurrency":"MYR"}"#)
            #expect(plain.string("group", "timeZone") == "UTC")
            // "UTC" and "GMT" as given are UTC, not Foundation's "GMT" (found by a new user: the
            // settings said "time zone GMT" where the pages said UTC).
            for given in ["UTC", "GMT"] {
                let utc = try await api.call(
                    .post, "/api/groups", token: aki, json: #"{"name":"Home","homeCurrency":"MYR","timeZone":"\#(given)"}"#)
                #expect(utc.string("group", "timeZone") == "UTC", "\(given): \(utc.text)")
            }
            let tokyo = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Japan","homeCurrency":"JPY","timeZone":"Asia/Tokyo"}"#)
            #expect(tokyo.status == .created && tokyo.string("group", "timeZone") == "Asia/Tokyo")
            let unknown = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Mars","homeCurrency":"USD","timeZone":"Mars/Base"}"#)
            #expect(unknown.status == .unprocessableContent && unknown.string("error", "details", "field") == "timeZone")
            let id = try #require(tokyo.string("group", "id"))
            let moved = try await api.call(
                .patch, "/api/groups/\(id)", token: aki, json: #"{"timeZone":"Europe/Paris"}"#)
            #expect(moved.status == .ok && moved.string("group", "timeZone") == "Europe/Paris")
            let refused = try await api.call(.patch, "/api/groups/\(id)", token: aki, json: #"{"timeZone":""}"#)
            #expect(refused.status == .unprocessableContent)
            let read = try await api.call(.get, "/api/groups/\(id)", token: aki)
            #expect(read.string("group", "timeZone") == "Europe/Paris" && read.int("group", "version") == 2)
            // A transfer without a date is dated today where the group is (UTC+14 here).
            let far = try await api.call(
                .post, "/api/groups", token: aki,
                json: #"{"name":"Line Islands","homeCurrency":"USD","timeZone":"Pacific/Kiritimati"}"#)
            let farID = try #require(far.string("group", "id"))
            let myID = try #require(far.string("group", "myMemberId"))
            let members = try await api.call(
                .post, "/api/groups/\(farID)/members", token: aki, json: #"{"name":"Cho"}"#)
            let cho = try #require(members.string("member", "id"))
            let paid = try await api.call(
                .post, "/api/groups/\(farID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(cho)","toMemberId":"\#(myID)","amount":"5.00","currency":"USD"}"#)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
            let parts = calendar.dateComponents([.year, .month, .day], from: Date())
            let today = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            #expect(paid.status == .created && paid.string("settlement", "date") == today, "\(paid.text.prefix(300))")
        }
    }

    @Test("joining as a name-only member by name, any case; a name that is not there is a 422 listing those that are", arguments: TestDatabases.all)
    func joinByName(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, ben, cho, groupID, code) = try await Self.trip(api)
            for name in ["Dee", "Eve"] {
                try #require(
                    try await api.call(
                        .post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"\#(name)"}"#
                    ).status == .created)
            }
            let missing = try await api.call(
                .post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)","memberName":"Bob"}"#)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.string("error", "details", "field") == "memberName")
            #expect(missing.string("error", "message")?.contains("the names are: Dee, Eve.") == true, "\(missing.text)")
            let joined = try await api.call(
                .post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)","memberName":" dee "}"#)
            #expect(joined.status == .ok && joined.string("member", "name") == "Dee", "\(joined.text)")
            let both = try await api.call(
                .post, "/api/groups/join", token: cho,
                json: #"{"inviteCode":"\#(code)","memberName":"Eve","memberId":"\#(UUID().uuidString)"}"#)
            #expect(both.status == .unprocessableContent && both.string("error", "details", "field") == "memberName")
            let unknownCode = try await api.call(
                .post, "/api/groups/join", token: cho, json: #"{"inviteCode":"nosuchcode1234","memberName":"Eve"}"#)
            #expect(unknownCode.status == .notFound)
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki)
            #expect(members.list("members").first { $0.string("name") == "Dee" }?.string("userId") != nil)
            #expect(members.list("members").first { $0.string("name") == "Eve" }?.string("userId") == nil)
        }
    }

    @Test(
        "joining as someone new under a name-only member's name (any case or accents) is a 409 on name that writes nothing; another name or the claim joins",
        arguments: TestDatabases.all)
    func joinUnderATakenName(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _, _, groupID, code) = try await Self.trip(api)
            try #require(
                try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"Chloé"}"#)
                    .status == .created)
            let (chloe, _) = try await api.register("chloe")
            let before = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki).list("members").count

            // act
            let plain = try await api.call(.post, "/api/groups/join", token: chloe, json: #"{"inviteCode":"\#(code)"}"#)
            let named = try await api.call(
                .post, "/api/groups/join", token: chloe, json: #"{"inviteCode":"\#(code)","name":"CHLOE "}"#)

            // validate: refused, naming the member, and nobody was added
            #expect(plain.status == .conflict && plain.string("error", "details", "field") == "name", "\(plain.text)")
            #expect(plain.string("error", "message")?.hasPrefix("“Chloé” is in this group already") == true, "\(plain.text)")
            #expect(named.status == .conflict, "\(named.text)")
            #expect(try await api.call(.get, "/api/groups/\(groupID)/members", token: aki).list("members").count == before)
            let other = try await api.call(
                .post, "/api/groups/join", token: chloe, json: #"{"inviteCode":"\#(code)","name":"Chloe M"}"#)
            #expect(other.status == .ok && other.string("member", "name") == "Chloe M", "\(other.text)")
            // Joining again is still the same membership, the name-only Chloé notwithstanding.
            let again = try await api.call(.post, "/api/groups/join", token: chloe, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(again.status == .ok && again.string("member", "name") == "Chloe M", "\(again.text)")
            let (dee, _) = try await api.register("Chloé")
            let claimed = try await api.call(
                .post, "/api/groups/join", token: dee, json: #"{"inviteCode":"\#(code)","memberName":"chloe"}"#)
            #expect(claimed.status == .ok && claimed.string("member", "name") == "Chloé", "\(claimed.text)")
            // Beside a member with an account the name is simply taken.
            let (namesake, _) = try await api.register("Chloe m", email: "chloe-m@example.com")
            let taken = try await api.call(.post, "/api/groups/join", token: namesake, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(taken.status == .conflict && taken.string("error", "message") == "There is already a member called Chloe M in this group: join under another name.", "\(taken.text)")
            // Adding a name-only "chloe" beside Chloé is refused too (accents do not tell people apart).
            let added = try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"CHLOE"}"#)
            #expect(added.status == .unprocessableContent && added.string("error", "details", "field") == "name", "\(added.text)")
            // Removed, Chloe M cannot come back by the code beside a new "Chloe M" (found by review).
            let chloeM = try #require(other.string("member", "id"))
            try #require(
                try await api.call(.delete, "/api/groups/\(groupID)/members/\(chloeM)", token: aki).status == .ok)
            try #require(
                try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"Chloe M"}"#)
                    .status == .created)
            let back = try await api.call(.post, "/api/groups/join", token: chloe, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(back.status == .conflict && back.string("error", "details", "field") == "name", "\(back.text)")
        }
    }

    @Test("create, join by code claiming a name-only member, rename, roles, remove", arguments: TestDatabases.all)
    func groupLifecycle(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            // setup
            let (aki, akiID) = try await api.register("Aki")
            let (ben, _) = try await api.register("Ben")
            let created = try await api.call(
                .post, "/api/groups", token: aki,
                json:
                    #"{"name":" Japan 2026 ","description":"Tokyo and Kyoto","homeCurrency":"jpy","memberName":"Aki-san"}"#
            )
            #expect(created.status == .created)
            #expect(created.string("group", "name") == "Japan 2026" && created.string("group", "homeCurrency") == "JPY")
            #expect(created.string("group", "ownerId") == akiID && created.string("group", "myRole") == "owner")
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            #expect(code.count == 20)
            let cho = try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"Cho"}"#)
            let choID = try #require(cho.string("member", "id"))
            #expect(cho.string("member", "userId") == nil)

            // act: Ben joins as Cho ("I am Cho"), twice
            let joined = try await api.call(
                .post, "/api/groups/join", token: ben, json: #"{"inviteCode":" \#(code) ","memberId":"\#(choID)"}"#)
            let again = try await api.call(.post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)"}"#)
            // validate
            #expect(joined.status == .ok && joined.string("member", "id") == choID)
            #expect(again.string("member", "id") == choID)
            #expect(joined.string("group", "inviteCode") == nil)  // members do not see the code
            #expect(joined.string("group", "myRole") == "member")
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: ben)
            #expect(members.list("members").map { $0.string("name") } == ["Aki-san", "Cho"])
            let benGroups = try await api.call(.get, "/api/groups", token: ben)
            #expect(benGroups.list("groups").map { $0.string("id") } == [groupID])

            // act: the owner removes Cho; Ben loses access at once; with the code he rejoins as Cho
            let removed = try await api.call(.delete, "/api/groups/\(groupID)/members/\(choID)", token: aki)
            #expect(removed.status == .ok && removed.bool("member", "active") == false)
            #expect(try await api.call(.get, "/api/groups/\(groupID)", token: ben).status == .notFound)
            let rejoined = try await api.call(
                .post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)"}"#)
            #expect(rejoined.status == .ok && rejoined.string("member", "id") == choID)
            _ = try await api.call(.delete, "/api/groups/\(groupID)/members/\(choID)", token: aki)
            let after = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki)
            #expect(after.list("members").map { $0.string("name") } == ["Aki-san", "Cho"])  // the name stays
            // The activity names who added Cho.
            let activity = try await api.call(.get, "/api/groups/\(groupID)/activity", token: aki)
            #expect(activity.list("activity").compactMap { $0.string("summary") }.contains("Aki-san added Cho"))
        }
    }

    @Test(
        "claiming a member someone else claimed is a 409; codes can be rotated and disabled",
        arguments: TestDatabases.all)
    func inviteCodes(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, ben, cho, groupID, oldCode) = try await Self.trip(api)
            let dan = try #require(
                try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"Dan"}"#)
                    .string("member", "id"))
            _ = try await api.call(
                .post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(oldCode)","memberId":"\#(dan)"}"#)
            let second = try await api.call(
                .post, "/api/groups/join", token: cho, json: #"{"inviteCode":"\#(oldCode)","memberId":"\#(dan)"}"#)
            #expect(second.status == .conflict && second.string("error", "details", "field") == "memberId")

            let rotated = try await api.call(.post, "/api/groups/\(groupID)/invite-code", token: aki)
            let newCode = try #require(rotated.string("group", "inviteCode"))
            #expect(newCode != oldCode)
            #expect(
                try await api.call(.post, "/api/groups/join", token: cho, json: #"{"inviteCode":"\#(oldCode)"}"#).status
                    == .notFound)
            let disabled = try await api.call(.delete, "/api/groups/\(groupID)/invite-code", token: aki)
            #expect(disabled.status == .ok && disabled.string("group", "inviteCode") == nil)
            #expect(
                try await api.call(.post, "/api/groups/join", token: cho, json: #"{"inviteCode":"\#(newCode)"}"#).status
                    == .notFound)
        }
    }

    @Test(
        "an admin cannot lift a restriction the owner set on it, nor act on another admin (issue 14)",
        arguments: TestDatabases.all)
    func noSelfEscalation(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            // setup: Aki owns the group; Ben and Cho join and are made admins; Ben may not mark paid
            let (aki, ben, cho, groupID, code) = try await Self.trip(api)
            var ids: [String] = []
            for token in [ben, cho] {
                let joined = try await api.call(
                    .post, "/api/groups/join", token: token, json: #"{"inviteCode":"\#(code)"}"#)
                let id = try #require(joined.string("member", "id"))
                ids.append(id)
                let promoted = try await api.call(
                    .patch, "/api/groups/\(groupID)/members/\(id)", token: aki, json: #"{"role":"admin"}"#)
                try #require(promoted.status == .ok)
            }
            let (benID, choID) = (ids[0], ids[1])
            let restricted = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(benID)", token: aki, json: #"{"canMarkPaid":false}"#)
            #expect(restricted.status == .ok && restricted.bool("member", "canMarkPaid") == false)

            // act: Ben lifts it on himself, then acts on Cho, the other admin
            let lifted = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(benID)", token: ben, json: #"{"canMarkPaid":true}"#)
            let demoted = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(choID)", token: ben, json: #"{"role":"viewer"}"#)
            let flagged = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(choID)", token: ben, json: #"{"canAddExpenses":false}"#)
            let ownRole = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(choID)", token: cho, json: #"{"role":"member"}"#)
            let renamed = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(benID)", token: ben, json: #"{"name":"Benji"}"#)

            // validate: every one refused and nothing changed, except renaming oneself
            for reply in [lifted, demoted, flagged, ownRole] {
                #expect(reply.status == .forbidden && reply.errorCode == "forbidden", "\(reply.text)")
            }
            #expect(renamed.status == .ok)
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki).list("members")
            let benNow = try #require(members.first { $0.string("id") == benID })
            let choNow = try #require(members.first { $0.string("id") == choID })
            #expect(benNow.bool("canMarkPaid") == false && benNow.string("role") == "admin")
            #expect(choNow.string("role") == "admin" && choNow.bool("canAddExpenses") == true)
            // The rename is in the activity, with both names; so is a group's.
            try #require(
                try await api.call(.patch, "/api/groups/\(groupID)", token: aki, json: #"{"name":"Trip 2026"}"#).status == .ok)
            let activity = try await api.call(.get, "/api/groups/\(groupID)/activity", token: aki).list("activity")
            let summaries = activity.compactMap { $0.string("summary") }
            #expect(summaries.contains("Ben changed their name to Benji"), "\(summaries)")
            #expect(summaries.contains { $0.hasPrefix("Aki renamed the group from ") && $0.hasSuffix(" to Trip 2026") }, "\(summaries)")
        }
    }

    @Test("concurrent joins with one code give each user exactly one member", arguments: TestDatabases.all)
    func concurrentJoins(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let created = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"SGD"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            var tokens: [String] = []
            for index in 0..<5 { tokens.append(try await api.register("User\(index)").token) }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for token in tokens {
                    for _ in 0..<4 {
                        group.addTask {
                            try await api.call(
                                .post, "/api/groups/join", token: token, json: #"{"inviteCode":"\#(code)"}"#
                            ).status
                        }
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki)
            #expect(members.list("members").count == 6)
        }
    }

    @Test(
        "an edit based on an old version is a 409 with the current state, and writes nothing",
        arguments: TestDatabases.all)
    func staleEdits(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let created = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"EUR"}"#)
            let groupID = try #require(created.string("group", "id"))
            let first = try await api.call(
                .patch, "/api/groups/\(groupID)", token: aki, json: #"{"name":"Paris","version":1}"#)
            #expect(first.status == .ok && first.int("group", "version") == 2)
            let stale = try await api.call(
                .patch, "/api/groups/\(groupID)", token: aki, json: #"{"name":"Rome","version":1}"#)
            #expect(stale.status == .conflict)
            #expect(stale.string("error", "details", "current", "name") == "Paris")
            #expect(try await api.call(.get, "/api/groups/\(groupID)", token: aki).string("group", "name") == "Paris")
            let memberID = try #require(created.string("group", "myMemberId"))
            let staleMember = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(memberID)", token: aki, json: #"{"name":"A","version":9}"#)
            #expect(staleMember.status == .conflict && staleMember.int("error", "details", "current", "version") == 1)
        }
    }

    @Test(
        "a create retried with its client id answers as the first time; another body is a 409",
        arguments: TestDatabases.all)
    func clientIDs(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let (ben, _) = try await api.register("Ben")
            let id = UUID().uuidString.lowercased()
            let body = #"{"id":"\#(id)","name":"Trip","homeCurrency":"JPY"}"#
            let first = try await api.call(.post, "/api/groups", token: aki, json: body)
            let retry = try await api.call(.post, "/api/groups", token: aki, json: body)
            #expect(first.status == .created && retry.status == .created && first.body == retry.body)
            #expect(first.string("group", "id") == id)
            let other = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"id":"\#(id)","name":"Another","homeCurrency":"JPY"}"#)
            #expect(other.status == .conflict && other.string("error", "details", "field") == "id")
            #expect(try await api.call(.post, "/api/groups", token: ben, json: body).status == .conflict)
            #expect(try await api.call(.get, "/api/groups", token: aki).list("groups").count == 1)

            let memberID = UUID().uuidString.lowercased()
            let add = #"{"id":"\#(memberID)","name":"Dan"}"#
            let added = try await api.call(.post, "/api/groups/\(id)/members", token: aki, json: add)
            let again = try await api.call(.post, "/api/groups/\(id)/members", token: aki, json: add)
            #expect(added.status == .created && again.status == .created && added.body == again.body)
            #expect(try await api.call(.get, "/api/groups/\(id)/members", token: aki).list("members").count == 2)
        }
    }

    @Test("ownership moves to a member with an account; archived groups cannot be joined", arguments: TestDatabases.all)
    func ownershipAndArchive(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let (ben, benID) = try await api.register("Ben")
            let (cho, _) = try await api.register("Cho")
            let created = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"USD"}"#)
            let groupID = try #require(created.string("group", "id"))
            let code = try #require(created.string("group", "inviteCode"))
            let benMember = try #require(
                try await api.call(.post, "/api/groups/join", token: ben, json: #"{"inviteCode":"\#(code)"}"#)
                    .string("member", "id"))
            let dan = try #require(
                try await api.call(.post, "/api/groups/\(groupID)/members", token: aki, json: #"{"name":"Dan"}"#)
                    .string("member", "id"))
            let toNameOnly = try await api.call(
                .post, "/api/groups/\(groupID)/transfer-ownership", token: aki, json: #"{"memberId":"\#(dan)"}"#)
            #expect(
                toNameOnly.status == .unprocessableContent
                    && toNameOnly.string("error", "details", "field") == "memberId")
            let moved = try await api.call(
                .post, "/api/groups/\(groupID)/transfer-ownership", token: aki, json: #"{"memberId":"\#(benMember)"}"#)
            #expect(moved.status == .ok && moved.string("group", "ownerId") == benID)
            #expect(moved.string("group", "myRole") == "admin")
            #expect(try await api.call(.post, "/api/groups/\(groupID)/archive", token: aki).status == .forbidden)
            let archived = try await api.call(.post, "/api/groups/\(groupID)/archive", token: ben)
            #expect(archived.status == .ok && archived.bool("group", "isArchived") == true)
            #expect(
                try await api.call(.post, "/api/groups/join", token: cho, json: #"{"inviteCode":"\#(code)"}"#).status
                    == .notFound)
            #expect(try await api.call(.get, "/api/groups/\(groupID)", token: aki).status == .ok)
            // Member changes are refused like every other change while archived, even by the owner.
            for (method, path, body) in [
                (HTTPRequest.Method.patch, "/api/groups/\(groupID)/members/\(dan)", #"{"name":"Daniel"}"#),
                (.delete, "/api/groups/\(groupID)/members/\(dan)", nil),
                (.post, "/api/groups/\(groupID)/members", #"{"name":"Eve"}"#),
                (.patch, "/api/groups/\(groupID)/members/\(benMember)", #"{"name":"Benjamin"}"#),
            ] {
                let refused = try await api.call(method, path, token: ben, json: body)
                #expect(
                    refused.status == .conflict && refused.string("error", "code") == "group_archived",
                    "\(method) \(path)")
            }
            #expect(try await api.call(.delete, "/api/groups/\(groupID)/archive", token: ben).status == .ok)
            let renamed = try await api.call(
                .patch, "/api/groups/\(groupID)/members/\(dan)", token: ben, json: #"{"name":"Daniel"}"#)
            #expect(renamed.status == .ok && renamed.string("member", "name") == "Daniel")
        }
    }
}

@Suite("Bad input never reaches a 5xx")
struct BadInputTests {
    @Test(
        "wrong types, missing fields, unknown enums, huge or invalid bodies → a 4xx envelope",
        arguments: TestDatabases.all)
    func badBodies(backend: Database.Backend) async throws {
        try await TestApp.with(backend) { api in
            let (aki, _) = try await api.register("Aki")
            let created = try await api.call(
                .post, "/api/groups", token: aki, json: #"{"name":"Trip","homeCurrency":"JPY"}"#)
            let groupID = try #require(created.string("group", "id"))
            let memberID = try #require(created.string("group", "myMemberId"))
            let longName = String(repeating: "名", count: 10_000)
            let cases: [(HTTPRequest.Method, String, String, HTTPResponse.Status)] = [
                (.post, "/api/groups", #"{"name":5,"homeCurrency":"JPY"}"#, .badRequest),
                (.post, "/api/groups", #"{"homeCurrency":"JPY"}"#, .badRequest),
                (.post, "/api/groups", #"{"name":"T","homeCurrency":"XYZ"}"#, .unprocessableContent),
                (.post, "/api/groups", #"{"name":"\#(longName)","homeCurrency":"JPY"}"#, .unprocessableContent),
                (.post, "/api/groups", #"{"id":"nope","name":"T","homeCurrency":"JPY"}"#, .unprocessableContent),
                (.post, "/api/groups", #"[1,2,3]"#, .badRequest),
                (.post, "/api/groups", #"{"name":"T","#, .badRequest),
                (.post, "/api/groups", "null", .badRequest),
                (.patch, "/api/groups/\(groupID)/members/\(memberID)", #"{"role":"emperor"}"#, .badRequest),
                (.patch, "/api/groups/\(groupID)/members/\(memberID)", #"{"canMarkPaid":"yes"}"#, .badRequest),
                (.patch, "/api/groups/\(groupID)/members/not-a-uuid", #"{"name":"A"}"#, .notFound),
                (.post, "/api/groups/\(groupID)/members", #"{"name":"\#(longName)"}"#, .unprocessableContent),
                // Past the spec's maxLength: refused before anything is looked up.
                (.post, "/api/groups/join", #"{"inviteCode":"\#(longName)"}"#, .unprocessableContent),
                (.post, "/api/groups/join", #"{"inviteCode":"x","memberId":"12"}"#, .unprocessableContent),
                (.post, "/auth/login", #"{"emailOrPhone":["a"],"password":"p"}"#, .badRequest),
                (.post, "/auth/login", #"{"emailOrPhone":"\#(longName)","password":"p"}"#, .unprocessableContent),
            ]
            for (method, path, body, expected) in cases {
                let reply = try await api.call(method, path, token: aki, json: body)
                #expect(reply.status == expected, "\(method) \(path) \(body.prefix(60)): \(reply.text.prefix(300))")
                #expect(reply.errorCode != nil, "no envelope: \(reply.text.prefix(200))")
            }

            // Invalid UTF-8 inside a JSON string.
            var invalid = ByteBuffer(string: #"{"name":""#)
            invalid.writeBytes([0xff, 0xfe, 0xfd])
            invalid.writeString(#"","homeCurrency":"JPY"}"#)
            let utf8 = try await api.call(
                .post, "/api/groups", token: aki, headers: [.contentType: "application/json"], body: invalid)
            #expect(utf8.status == .badRequest && utf8.errorCode == "bad_request", "\(utf8.text)")

            // 10 MB body.
            let huge = ByteBuffer(repeating: UInt8(ascii: "a"), count: 10 << 20)
            let tooLarge = try await api.call(
                .post, "/api/groups", token: aki, headers: [.contentType: "application/json"], body: huge)
            #expect(tooLarge.status == .contentTooLarge && tooLarge.errorCode == "payload_too_large")

            // Not JSON.
            let form = try await api.call(
                .post, "/api/groups", token: aki, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "name=T&homeCurrency=JPY"))
            #expect(form.status == .unsupportedMediaType && form.errorCode == "unsupported_media_type")

            // Nothing was created by any of it.
            #expect(try await api.call(.get, "/api/groups", token: aki).list("groups").count == 1)
        }
    }
}
