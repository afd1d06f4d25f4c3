import Foundation
import Logging
import SplitApp
import SplitCore
import SplitStore

/// The mail jobs (docs/architecture.md, "Mail"): a notification's mail, a daily digest, a
/// verification link. Each reads what it needs when it runs — settings may have changed since
/// the write queued it — sends one message through `send`, and records what went out. A
/// temporary SMTP failure throws, and the runner retries with backoff; a permanent one (the
/// relay refused the recipient) fails the job at once.
struct MailJobs: Sendable {
    let store: MailStore
    let configuration: MailConfiguration
    let send: @Sendable (MailMessage) async throws -> Void
    let now: @Sendable () -> Int64
    let logger: Logger

    /// How many lines a digest lists before "and N more".
    static let digestLines = 50

    /// Adds the mail kinds, retried with `retryDelay` (the runner's backoff: about a day).
    func add(
        to jobs: inout BackgroundJobs,
        retryDelay: @escaping @Sendable (JobRecord) -> Int64? = { JobRunner.backoff($0.attempts) }
    ) {
        jobs.add(MailStore.notificationJob, .init(retryDelay: retryDelay) { job in try await notification(try decode(job.payload)) }, lane: .mail)
        jobs.add(MailStore.digestJob, .init(retryDelay: retryDelay) { job in try await digest(try decode(job.payload)) }, lane: .mail)
        jobs.add(MailStore.verificationJob, .init(retryDelay: retryDelay) { job in try await verification(try decode(job.payload)) }, lane: .mail)
        jobs.add(MailStore.resetJob, .init(retryDelay: retryDelay) { job in try await passwordReset(try decode(job.payload)) }, lane: .mail)
    }

    func notification(_ job: MailStore.NotificationJob) async throws {
        guard let (line, mailedAt) = try await store.notification(userID: job.user, activityID: job.activity),
            mailedAt == nil, let settings = try await store.settings(userID: job.user),
            settings.wants(MailCategory.of(action: line.activity.action), in: .each), let email = settings.email
        else { return }
        let key = try await store.unsubscribeKey(userID: job.user, now: now())
        try await deliver(try composer.notification(line, to: email, unsubscribeKey: key, userID: job.user))
        try await store.markMailed(userID: job.user, activityIDs: [job.activity], now: now())
    }

    func digest(_ job: MailStore.DigestJob) async throws {
        // A digest queued for another hour (the account changed it since) leaves its lines to
        // the digest at the new hour (`MailStore.update` queues it).
        guard let settings = try await store.settings(userID: job.user), settings.isActive,
            settings.emailVerifiedAt != nil, settings.mode == .daily, let email = settings.email,
            job.upTo % 86_400_000 == Int64(settings.digestHour) * 3_600_000
        else { return }
        let (lines, total) = try await store.unmailed(
            userID: job.user, upTo: job.upTo, off: settings.off, limit: Self.digestLines)
        if !lines.isEmpty {
            let key = try await store.unsubscribeKey(userID: job.user, now: now())
            try await deliver(
                try composer.digest(
                    lines, more: total - lines.count, to: email, unsubscribeKey: key, userID: job.user, upTo: job.upTo))
        }
        try await store.markMailed(userID: job.user, upTo: job.upTo, now: now())
    }

    func verification(_ job: MailStore.VerificationJob) async throws {
        guard let settings = try await store.settings(userID: job.user), settings.isActive,
            settings.email == job.email, settings.emailVerifiedAt == nil
        else { return }
        // The token is made here, so none waits in the jobs table; a retry makes another.
        let (token, hash) = MailUseCases.newVerificationToken()
        try await store.addToken(
            hash: hash, purpose: .verify, userID: job.user, email: job.email,
            expiresAt: now() + MailUseCases.verificationLifetime, now: now())
        try await deliver(try composer.verification(to: job.email, token: token))
    }

    func passwordReset(_ job: MailStore.VerificationJob) async throws {
        guard let settings = try await store.settings(userID: job.user), settings.isActive, settings.email == job.email
        else { return }
        let (token, hash) = MailUseCases.newVerificationToken()
        try await store.addToken(
            hash: hash, purpose: .reset, userID: job.user, email: job.email,
            expiresAt: now() + MailUseCases.resetLifetime, now: now())
        try await deliver(try composer.passwordReset(to: job.email, token: token))
    }

    var composer: MailComposer { MailComposer(configuration: configuration, now: now) }

    /// Sends one message. Only what no retry can mend fails the job at once: a message we
    /// cannot write (an address the relay's syntax cannot carry), or the relay refusing this
    /// recipient or this message (a 5xx to RCPT TO or to the data). A 5xx anywhere else — a
    /// wrong relay password, STARTTLS missing, the sender refused — is the relay's
    /// configuration, which the operator can fix: the job is retried for about a day.
    private func deliver(_ make: @autoclosure () throws -> MailMessage) async throws {
        let message: MailMessage
        do {
            message = try make()
        } catch let error as MailMessageError {
            throw JobRunner.PermanentFailure("\(error)")
        }
        do {
            try await send(message)
        } catch let error as SMTPError
            where error.isPermanent && ["RCPT TO", "DATA", "end of DATA"].contains(error.command)
        {
            throw JobRunner.PermanentFailure("\(error)")
        }
    }

    private func decode<T: Decodable>(_ payload: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload.utf8))
        } catch {
            throw JobRunner.PermanentFailure("unreadable payload: \(error)")
        }
    }
}

/// Mail in words (English for now, like `ActivityText`): subjects, plain and HTML bodies, and
/// the links and headers every notification mail carries (RFC 8058 one-click unsubscribe).
struct MailComposer: Sendable {
    let configuration: MailConfiguration
    let now: @Sendable () -> Int64

    var host: String { configuration.from.address.split(separator: "@").last.map(String.init) ?? "localhost" }

    func notification(_ line: NotificationRecord, to email: String, unsubscribeKey: String, userID: UUID) throws
        -> MailMessage
    {
        let sentence = ActivityText.sentence(line)
        let category = MailCategory.of(action: line.activity.action)
        // Where the inbox's line leads: the expense, the payment request to pay… (found by a new
        // user: a request's mail led to the group only, without its code). A claimant turned down
        // is no member: the group is not theirs to open.
        let outside = !line.readerIsIn
        let groupLink = configuration.publicURL + WebApp.link(line)
        // "See it and pay" to whoever it asks (anyone, when it names nobody).
        let asked =
            line.activity.action == "payment_request.created"
            && (line.activity.event.toID == nil || line.activity.event.toID == line.readerMemberID)
        let open = outside ? "Your groups" : asked ? "See it and pay" : "Open it"
        let stop = unsubscribeLink(unsubscribeKey, category.rawValue)
        let when = Self.time(line.activity.at, in: line.groupTimeZone)
        let plain = """
            \(sentence)
            in \(line.groupName), \(when)

            \(open): \(groupLink)

            --
            You get a mail for each notification. Change that: \(configuration.publicURL)/account#email
            Stop mail about \(Self.label(category)): \(stop)
            """
        let html = Self.page(
            """
            <p style="font-size:16px">\(escape(sentence))</p>
            <p style="color:#555">in \(escape(line.groupName)), \(escape(when))</p>
            <p><a href="\(escape(groupLink))">\(open)</a></p>
            """,
            footer: """
                You get a mail for each notification. <a href="\(escape(configuration.publicURL))/account#email">Change that</a>
                · <a href="\(escape(stop))">Stop mail about \(escape(Self.label(category)))</a>
                """)
        return try MailMessage(
            from: configuration.from, to: MailMessage.Address(email),
            subject: Self.clip("\(line.groupName): \(sentence)"), plainText: plain, html: html,
            headers: unsubscribeHeaders(stop), messageID: "\(line.activity.id.text).\(userID.text)@\(host)",
            date: Date(timeIntervalSince1970: Double(now()) / 1_000))
    }

    func digest(
        _ lines: [NotificationRecord], more: Int, to email: String, unsubscribeKey: String, userID: UUID, upTo: Int64
    ) throws -> MailMessage {
        let count = lines.count + more
        var groups: [(name: String, id: UUID, lines: [NotificationRecord])] = []
        for line in lines {
            if let index = groups.firstIndex(where: { $0.id == line.groupID }) {
                groups[index].lines.append(line)
            } else {
                groups.append((line.groupName, line.groupID, [line]))
            }
        }
        let categories = MailCategory.allCases.filter { category in
            lines.contains { MailCategory.of(action: $0.activity.action) == category }
        }
        let stopAll = unsubscribeLink(unsubscribeKey, "all")
        var plain = "\(count == 1 ? "One update" : "\(count) updates") in your groups since the last digest.\n"
        var html = ""
        for group in groups {
            // A group the reader is no member of (a claim turned down) is not theirs to open.
            let outside = group.lines.allSatisfy { !$0.readerIsIn }
            let link = "\(configuration.publicURL)/groups" + (outside ? "" : "/\(group.id.text)")
            plain += "\n\(group.name) (\(link))\n"
            html += "<h2 style=\"font-size:17px\"><a href=\"\(escape(link))\">\(escape(group.name))</a></h2><ul>"
            for line in group.lines {
                let sentence = ActivityText.sentence(line)
                let when = Self.time(line.activity.at, in: line.groupTimeZone)
                plain += "- \(sentence) (\(when))\n"
                html += "<li>\(escape(sentence)) <span style=\"color:#555\">(\(escape(when)))</span></li>"
            }
            html += "</ul>"
        }
        if more > 0 {
            plain += "\n…and \(more) more: \(configuration.publicURL)/notifications\n"
            html += "<p><a href=\"\(escape(configuration.publicURL))/notifications\">…and \(more) more</a></p>"
        }
        plain += "\n--\nYou get a daily digest. Change that: \(configuration.publicURL)/account#email\n"
        var footer = "You get a daily digest. <a href=\"\(escape(configuration.publicURL))/account#email\">Change that</a>"
        for category in categories {
            let link = unsubscribeLink(unsubscribeKey, category.rawValue)
            plain += "Stop mail about \(Self.label(category)): \(link)\n"
            footer += " · <a href=\"\(escape(link))\">Stop mail about \(escape(Self.label(category)))</a>"
        }
        plain += "Stop all notification mail: \(stopAll)\n"
        footer += " · <a href=\"\(escape(stopAll))\">Stop all notification mail</a>"
        return try MailMessage(
            from: configuration.from, to: MailMessage.Address(email),
            subject: count == 1 ? "Budget Splitter: one update in your groups" : "Budget Splitter: \(count) updates in your groups",
            plainText: plain, html: Self.page(html, footer: footer), headers: unsubscribeHeaders(stopAll),
            messageID: "digest.\(upTo).\(userID.text)@\(host)", date: Date(timeIntervalSince1970: Double(now()) / 1_000))
    }

    func verification(to email: String, token: String) throws -> MailMessage {
        let link = "\(configuration.publicURL)/verify-email/\(token)"
        let hours = MailUseCases.verificationLifetime / 3_600_000
        return try MailMessage(
            from: configuration.from, to: MailMessage.Address(email), subject: "Confirm your email for Budget Splitter",
            plainText: """
                Someone (we hope you) made a Budget Splitter account with this address.
                Confirm it is yours, and get notification mail, by opening this link within \(hours) hours:

                \(link)

                If it was not you, ignore this mail: nothing will be sent to you.
                """,
            html: Self.page(
                """
                <p>Someone (we hope you) made a Budget Splitter account with this address.</p>
                <p><a href="\(escape(link))" style="font-size:17px">Confirm it is yours</a> within \(hours) hours to get notification mail.</p>
                """, footer: "If it was not you, ignore this mail: nothing will be sent to you."),
            headers: ["Auto-Submitted": "auto-generated"], date: Date(timeIntervalSince1970: Double(now()) / 1_000))
    }

    func passwordReset(to email: String, token: String) throws -> MailMessage {
        let link = "\(configuration.publicURL)/reset-password/\(token)"
        let minutes = MailUseCases.resetLifetime / 60_000
        return try MailMessage(
            from: configuration.from, to: MailMessage.Address(email), subject: "Set a new Budget Splitter password",
            plainText: """
                Someone (we hope you) asked to set a new password for the Budget Splitter account with this address.
                Choose it within \(minutes) minutes here:

                \(link)

                Every place the account is signed in will be signed out. If it was not you, ignore this mail:
                nothing changes.
                """,
            html: Self.page(
                """
                <p>Someone (we hope you) asked to set a new password for the Budget Splitter account with this address.</p>
                <p><a href="\(escape(link))" style="font-size:17px">Choose a new password</a> within \(minutes) minutes. Every place the account is signed in will be signed out.</p>
                """, footer: "If it was not you, ignore this mail: nothing changes."),
            headers: ["Auto-Submitted": "auto-generated"], date: Date(timeIntervalSince1970: Double(now()) / 1_000))
    }

    func unsubscribeLink(_ key: String, _ category: String) -> String {
        "\(configuration.publicURL)/unsubscribe/\(key)/\(category)"
    }

    func unsubscribeHeaders(_ link: String) -> KeyValuePairs<String, String> {
        [
            "List-Unsubscribe": "<\(link)>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        ]
    }

    /// What a category's mail is about; nil: all notification mail.
    static func label(_ category: MailCategory?) -> String {
        switch category {
        case nil: "anything (all notification mail)"
        case .expenses?: "expenses"
        case .payments?: "payments and transfers"
        case .members?: "members and roles"
        case .group?: "other group changes"
        }
    }

    /// "2026-11-25 23:03 JST": where the group is, as its pages say it (found by a new user: mail
    /// said UTC to a group in Tokyo).
    static func time(_ milliseconds: Int64, in timeZone: String) -> String {
        ZonedTime.dateTime(Date(timeIntervalSince1970: Double(milliseconds) / 1_000), in: timeZone)
    }

    /// One line (a share's reason may have several) of at most 150 characters.
    static func clip(_ subject: String) -> String {
        let line = subject.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 150 ? line : String(line.prefix(149)) + "…"
    }

    static func page(_ body: String, footer: String) -> String {
        """
        <!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:36em">
        \(body)
        <hr style="border:none;border-top:1px solid #ccc"><p style="font-size:13px;color:#555">\(footer)</p>
        </body></html>
        """
    }

    func escape(_ text: String) -> String { Markup.escape(text) }
}
