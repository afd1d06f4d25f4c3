import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SplitApp
import SplitStore
import SplitTestSupport
import Synchronization
import Testing

@testable import SplitServer

/// The mail jobs on their own (issue 17): a digest, a relay that is down, a refused address,
/// settings that changed after the mail was queued. The application runs in-process; the jobs
/// run here, with the real SMTP client against a real SMTP server (scripts/smtp-sink.py).
@Suite("Mail jobs: digests, retries and refusals")
struct MailJobTests {
    static let publicURL = "http://splitter.test"

    static func mailConfiguration(port: Int) throws -> MailConfiguration {
        MailConfiguration(
            smtp: try SMTPSettings(url: "smtp://127.0.0.1:\(port)?tls=none"),
            from: try MailMessage.Address("splitter@splitter.test", displayName: "Splitter"), publicURL: publicURL)
    }

    /// The mail jobs with a real SMTP client for `port`.
    static func jobs(_ database: Database, port: Int) throws -> MailJobs {
        let configuration = try mailConfiguration(port: port)
        let client = SMTPClient(settings: configuration.smtp)
        return MailJobs(
            store: MailStore(database: database), configuration: configuration, send: { try await client.send($0) },
            now: { Clock.milliseconds() }, logger: TestDatabases.logger)
    }

    /// A port nothing listens on (bound, then released).
    static func deadPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 1
        try await channel.close().get()
        return port
    }

    /// Aki (who acts) and Bo (who is told), both verified, in one group; returns the API, Bo's
    /// token and user id, and a way to add an expense and a transfer as Aki.
    struct Trip {
        let api: API
        let database: Database
        let aki: String
        let bo: (token: String, userID: String)
        let groupID: String
        let akiMember: String
        let boMember: String

        func addExpense(_ description: String) async throws {
            let reply = try await api.call(
                .post, "/api/expenses", token: aki,
                json: #"""
                    {"groupId":"\#(groupID)","description":"\#(description)","amount":"3000","currency":"JPY",
                     "expenseDate":"2026-11-21","split":{"mode":"equal","memberIds":["\#(akiMember)","\#(boMember)"]}}
                    """#)
            try #require(reply.status == .created, "\(reply.text)")
        }

        func addTransfer() async throws {
            let reply = try await api.call(
                .post, "/api/groups/\(groupID)/settlements", token: aki,
                json: #"{"fromMemberId":"\#(boMember)","toMemberId":"\#(akiMember)","amount":"500","currency":"JPY"}"#)
            try #require(reply.status == .created, "\(reply.text)")
        }

        /// A queued job as the test reads it.
        struct QueuedJob {
            let payload: String
            let dueAt: Int64
            let lastError: String?
        }

        /// The jobs of one kind, oldest first.
        func jobs(_ kind: String) async throws -> [QueuedJob] {
            try await database.read { sql in
                try await sql.raw("SELECT * FROM jobs WHERE kind = \(bind: kind) ORDER BY created_at, id").all()
            }.map { row in
                QueuedJob(
                    payload: try row.decode(column: "payload", as: String.self),
                    dueAt: try row.decode(column: "due_at", as: Int64.self),
                    lastError: try row.decode(column: "last_error", as: String?.self))
            }
        }
    }

    static func withTrip(
        _ backend: Database.Backend, port: Int, _ body: @escaping @Sendable (Trip) async throws -> Void
    ) async throws {
        let mail = try mailConfiguration(port: port)
        // The application queues mail; the jobs run here, not in its own runner.
        try await TestApp.with(
            backend,
            configure: {
                $0.mail = mail; $0.runsJobs = false
            }
        ) { api in
            let database = try await Database.open(api.databaseConfiguration, logger: TestDatabases.logger)
            do {
                let aki = try await api.register("Aki", email: "aki@example.com")
                let bo = try await api.register("Bo", email: "bo@example.com")
                // Both addresses verified (the verification flow has its own test).
                try await database.transaction { sql in
                    try await sql.raw("UPDATE users SET email_verified_at = 1").run()
                }
                let created = try await api.call(
                    .post, "/api/groups", token: aki.token,
                    json: #"{"name":"Japan","homeCurrency":"JPY","timeZone":"Asia/Tokyo"}"#)
                let groupID = try #require(created.string("group", "id"))
                let code = try #require(created.string("group", "inviteCode"))
                try #require(
                    try await api.call(.post, "/api/groups/join", token: bo.token, json: #"{"inviteCode":"\#(code)"}"#)
                        .status == .ok)
                let members = try await api.call(.get, "/api/groups/\(groupID)/members", token: aki.token)
                    .list("members")
                let akiMember = try #require(members.first { $0.string("name") == "Aki" }?.string("id"))
                let boMember = try #require(members.first { $0.string("name") == "Bo" }?.string("id"))
                try await body(
                    Trip(
                        api: api, database: database, aki: aki.token, bo: bo, groupID: groupID, akiMember: akiMember,
                        boMember: boMember))
            } catch {
                try? await database.close()
                throw error
            }
            try await database.close()
        }
    }

    @Test(
        "a daily digest: one job per day, what is unread and unmailed, grouped, never twice",
        arguments: TestDatabases.all)
    func digest(backend: Database.Backend) async throws {
        try await SMTPSink.with { sink in
            try await Self.withTrip(backend, port: sink.port) { trip in
                // setup: Bo wants a digest at 06:00 UTC
                let put = try await trip.api.call(
                    .put, "/auth/email", token: trip.bo.token, json: #"{"mode":"daily","digestHour":6}"#)
                #expect(put.status == .ok && put.string("mode") == "daily" && put.int("digestHour") == 6, "\(put.text)")
                let before = Clock.milliseconds()

                // act 1: two expenses and a transfer; Bo reads the transfer's notification in the app
                try await trip.addExpense("Ramen")
                try await trip.addExpense("Sushi")
                try await trip.addTransfer()
                let inbox = try await trip.api.call(.get, "/api/notifications", token: trip.bo.token)
                let transfer = try #require(
                    inbox.list("notifications").first { $0.string("action") == "settlement.recorded" }?.string("id"))
                try await trip.api.call(
                    .post, "/api/notifications/read", token: trip.bo.token, json: #"{"ids":["\#(transfer)"]}"#)

                // validate 1: one digest job for Bo, due at the next 06:00 UTC; no mail per notification
                #expect(try await trip.jobs(MailStore.notificationJob).isEmpty)
                let digests = try await trip.jobs(MailStore.digestJob)
                try #require(digests.count == 1)
                let due = try #require(digests.first?.dueAt)
                #expect(
                    due == MailStore.nextDigest(after: before, hour: 6) && due > before && due - before <= 86_400_000)
                #expect(due % 86_400_000 == 6 * 3_600_000)

                // act 2: the digest runs (its due time reached), then runs again
                let mailJobs = try Self.jobs(trip.database, port: sink.port)
                let payload = try JSONDecoder().decode(
                    MailStore.DigestJob.self, from: Data(try #require(digests.first?.payload).utf8))
                try await mailJobs.digest(payload)
                try await mailJobs.digest(payload)

                // validate 2: one mail listing the two unread expenses, not the read transfer
                let received = try await sink.waitForMessages(count: 1)
                try await Task.sleep(for: .milliseconds(300))
                #expect(try sink.messages().count == 1, "the second run sends nothing")
                let mail = try #require(received.first)
                #expect(mail.rcptTos == ["bo@example.com"])
                #expect(mail.subject == "Budget Splitter: 2 updates in your groups", "\(mail.subject ?? "")")
                let text = mail.text ?? ""
                #expect(text.contains("Aki added Ramen") && text.contains("Aki added Sushi"))
                // Times where the group is (a group in Tokyo was told UTC).
                #expect(
                    text.range(of: #"\(\d{4}-\d\d-\d\d \d\d:\d\d (JST|GMT\+9)\)"#, options: .regularExpression) != nil
                        && !text.contains("UTC"), "\(text)")
                #expect(!text.contains("transfer"))
                #expect(text.contains("\(Self.publicURL)/groups/\(trip.groupID)"))
                #expect(text.contains("/unsubscribe/") && text.contains("/expenses") && text.contains("/all"))
                #expect(MailTests.header("List-Unsubscribe", in: mail.raw)?.hasSuffix("/all>") == true)
                #expect(mail.html?.contains("<li>Aki added Ramen") == true && mail.defects.isEmpty)

                // The "all" link turns every notification mail off.
                let link = try #require(MailTests.header("List-Unsubscribe", in: mail.raw))
                let key = try #require(link.split(separator: "/").dropLast().last.map(String.init))
                #expect(
                    try await MailUseCases(database: trip.database, now: { Clock.milliseconds() })
                        .unsubscribe(key: key, category: "all").category == nil)
                let after = try await trip.api.call(.get, "/auth/email", token: trip.bo.token)
                #expect(after.string("mode") == "off")
            }
        }
    }

    @Test(
        "a digest lists what is wanted behind many lines of a category turned off; a new hour gets what waits",
        arguments: TestDatabases.all)
    func digestFiltersAndNewHour(backend: Database.Backend) async throws {
        try await SMTPSink.with { sink in
            try await Self.withTrip(backend, port: sink.port) { trip in
                // setup: Bo wants a digest at 06:00 UTC, without mail about expenses
                let put = try await trip.api.call(
                    .put, "/auth/email", token: trip.bo.token,
                    json: #"{"mode":"daily","digestHour":6,"off":["expenses"]}"#)
                #expect(put.status == .ok, "\(put.text)")
                // act 1: more expenses than a digest lists, then a transfer
                for index in 0...MailJobs.digestLines { try await trip.addExpense("Snack \(index)") }
                try await trip.addTransfer()
                let mailJobs = try Self.jobs(trip.database, port: sink.port)
                let first = try #require(try await trip.jobs(MailStore.digestJob).first)
                try await mailJobs.digest(
                    try JSONDecoder().decode(MailStore.DigestJob.self, from: Data(first.payload.utf8)))
                // validate 1: found by review, the digest took the 50 oldest lines (expenses, all
                // turned off), sent nothing, and marked the transfer mailed with them
                let received = try await sink.waitForMessages(count: 1)
                #expect(
                    received.first?.subject == "Budget Splitter: one update in your groups",
                    "\(received.first?.subject ?? "")")
                #expect(received.first?.text?.contains("Snack") == false)

                // act 2: another transfer (its place is in the 06:00 digest already run), then Bo
                // moves the digest to 20:00
                try await trip.addTransfer()
                let before = Clock.milliseconds()
                #expect(
                    try await trip.api.call(
                        .put, "/auth/email", token: trip.bo.token,
                        json: #"{"mode":"daily","digestHour":20,"off":["expenses"]}"#
                    ).status == .ok)
                // validate 2: found by review, nothing queued the new hour's digest, and the
                // transfer waited for a next notification that might never come
                let evening = try #require(
                    try await trip.jobs(MailStore.digestJob).first { $0.dueAt % 86_400_000 == 20 * 3_600_000 })
                #expect(evening.dueAt == MailStore.nextDigest(after: before, hour: 20))
                try await mailJobs.digest(
                    try JSONDecoder().decode(MailStore.DigestJob.self, from: Data(evening.payload.utf8)))
                let both = try await sink.waitForMessages(count: 2)
                #expect(both.last?.subject == "Budget Splitter: one update in your groups")
            }
        }
    }

    @Test(
        "a relay that is down delays a mail and loses none; the runner delivers it once the relay is back",
        arguments: TestDatabases.all)
    func relayDown(backend: Database.Backend) async throws {
        try await SMTPSink.with { sink in
            try await Self.withTrip(backend, port: sink.port) { trip in
                // setup: a mail queued for Bo; the relay the runner uses is down at first
                try await trip.addExpense("Ramen")
                #expect(try await trip.jobs(MailStore.notificationJob).count == 1)
                let dead = try await Self.deadPort()
                let port = Atomic<Int>(dead)
                let downClient = SMTPClient(settings: try Self.mailConfiguration(port: dead).smtp)
                let upClient = SMTPClient(settings: try Self.mailConfiguration(port: sink.port).smtp)
                let attempts = Atomic<Int>(0)
                let configuration = try Self.mailConfiguration(port: sink.port)
                let mailJobs = MailJobs(
                    store: MailStore(database: trip.database), configuration: configuration,
                    send: { message in
                        attempts.add(1, ordering: .relaxed)
                        try await (port.load(ordering: .relaxed) == dead ? downClient : upClient).send(message)
                    }, now: { Clock.milliseconds() }, logger: TestDatabases.logger)
                var kinds = BackgroundJobs()
                mailJobs.add(to: &kinds, retryDelay: { _ in 100 })
                let runner = JobRunner(
                    database: trip.database, kinds: kinds.kinds, now: { Clock.milliseconds() }, poll: .milliseconds(50),
                    leaseMilliseconds: JobRunnerTests.lease, logger: JobRunnerTests.quiet)
                let running = Task { try await runner.run() }
                defer { running.cancel() }

                // act: a few failed attempts, then the relay comes back
                let deadline = ContinuousClock.now + .seconds(90)
                while attempts.load(ordering: .relaxed) < 3, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(attempts.load(ordering: .relaxed) >= 3)
                let waiting = try await trip.jobs(MailStore.notificationJob)
                #expect(waiting.first?.lastError?.isEmpty == false, "the failure is recorded")
                port.store(sink.port, ordering: .relaxed)

                // validate: exactly one mail, and the job is done
                let received = try await sink.waitForMessages(count: 1, timeout: .seconds(90))
                #expect(received.first?.subject == "Japan: Aki added Ramen (3,000 JPY)")
                // The runner records the job done after the relay's answer: under a loaded run that
                // came later than the 500 ms once waited here, so wait for the record itself.
                let recorded = ContinuousClock.now + .seconds(60)
                while try await JobStore(database: trip.database).counts().waiting != 0, ContinuousClock.now < recorded
                {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(try await JobStore(database: trip.database).counts().waiting == 0)
                #expect(try sink.messages().count == 1)
            }
        }
    }

    @Test(
        "a refused address fails the mail for good; a mail whose kind was turned off meanwhile is not sent",
        arguments: TestDatabases.all)
    func refusedAndChangedSettings(backend: Database.Backend) async throws {
        try await SMTPSink.with(.init(rejectedRecipients: ["bo@example.com"])) { sink in
            try await Self.withTrip(backend, port: sink.port) { trip in
                let mailJobs = try Self.jobs(trip.database, port: sink.port)
                try await trip.addExpense("Ramen")
                let queued = try await trip.jobs(MailStore.notificationJob)
                let job = try JSONDecoder().decode(
                    MailStore.NotificationJob.self, from: Data(try #require(queued.first?.payload).utf8))
                // act 1: the relay refuses Bo's address (550)
                await #expect(throws: JobRunner.PermanentFailure.self) { try await mailJobs.notification(job) }

                // act 2: Bo turns expense mail off; then a transfer (payments, still on) is queued
                try await trip.api.call(.put, "/auth/email", token: trip.bo.token, json: #"{"off":["expenses"]}"#)
                try await trip.addTransfer()
                let after = try await trip.jobs(MailStore.notificationJob)
                try #require(after.count == 2, "the transfer (payments) is still queued")
                let transfer = try JSONDecoder().decode(
                    MailStore.NotificationJob.self, from: Data(try #require(after.last?.payload).utf8))

                // validate: the expense's mail, queued before the change, is skipped without
                // reaching the relay (no refusal); the transfer's goes to the relay (and is refused)
                try await mailJobs.notification(job)
                await #expect(throws: JobRunner.PermanentFailure.self) { try await mailJobs.notification(transfer) }
                #expect(try sink.messages().isEmpty)
            }
        }
    }

    @Test("a link a minute, five a day: whoever registered an address cannot flood it", arguments: TestDatabases.all)
    func linksPerDay(backend: Database.Backend) async throws {
        try await SMTPSink.with { sink in
            try await Self.withTrip(backend, port: sink.port) { trip in
                // setup: Bo's address is unverified again (registration queued one link already)
                try await trip.database.transaction { sql in
                    try await sql.raw("UPDATE users SET email_verified_at = NULL").run()
                }
                let store = MailStore(database: trip.database)
                let bo = try #require(UUID(uuidString: trip.bo.userID))
                let start = Clock.milliseconds()
                // act: four more, a minute apart, then a sixth
                var answers: [MailStore.LinkRequest] = []
                for minute in 1...5 {
                    answers.append(try await store.requestVerification(userID: bo, now: start + Int64(minute) * 60_000))
                }
                // validate
                // The sixth waits until the first of the five (registration's) is a day old.
                let first = try #require(
                    try await trip.database.read { sql in
                        try await sql.raw(
                            """
                            SELECT MIN(created_at) AS t FROM jobs
                            WHERE kind = \(bind: MailStore.verificationJob) AND unique_key LIKE \(bind: "%:\(trip.bo.userID.lowercased()):%")
                            """
                        ).first()?.decode(column: "t", as: Int64.self)
                    })
                #expect(answers == [.queued, .queued, .queued, .queued, .tooMany(until: first + 86_400_000)], "\(answers)")
                let api = try await trip.api.call(.post, "/auth/email/verification", token: trip.bo.token)
                #expect(api.status == .tooManyRequests, "\(api.text)")
                // Said in hours, as its Retry-After in seconds: about a day from the registration's.
                let wait = try #require(api.headers[.retryAfter].flatMap { Int($0) })
                #expect((86_300...86_400).contains(wait), "\(wait)")
                #expect(api.text.contains("try again in 24 hours"), "\(api.text)")
                // The account page says it beside its button (it was an error page).
                var web = Browser(trip.api)
                web.cookies[WebRequest.sessionCookie] = trip.bo.token
                _ = try await web.get("/account")
                let page = try await web.post("/account/email/verification", [])
                #expect(page.status == .tooManyRequests, "\(page.text.prefix(500))")
                #expect(page.text.contains("5 links were sent in the last day; the next can be sent in 24 hours."), "\(page.text)")
                #expect(page.text.contains("Send a verification link"), "the account page itself")
                #expect(try await store.requestPasswordReset(email: "nobody@example.com", now: start) == .nothingToDo)
            }
        }
    }

    @Test("a subject is one line even when a share's reason has several")
    func subjectIsOneLine() {
        #expect(
            MailComposer.clip("Aki marked a share paid: “cash\nat the door”")
                == "Aki marked a share paid: “cash at the door”")
        #expect(MailComposer.clip(String(repeating: "x", count: 200)).count == 150)
    }
}
