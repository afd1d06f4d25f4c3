import Foundation
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Builds the whole server (STYLE §2): opens the database, runs migrations before taking
/// requests, and wires middleware, the API handlers and the spec route. Tests call this and
/// drive the result; `splitter-server` calls it and runs it.
///
/// - Parameter sessionLookups: counts the session look-ups requests make (tests show one per
///   request with it).
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger? = nil, sessionLookups: SessionLookupCounter? = nil
) async throws -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "splitter-server")
    logger.logLevel = configuration.logLevel
    let specification = try APISpecification.yaml()
    let database = try await Database.open(configuration.database, logger: logger)
    do {
        try await Migrations.run(on: database)
    } catch {
        try? await database.close()
        throw error
    }
    logger.info("database ready", metadata: ["database": "\(configuration.database)"])

    let now: @Sendable () -> Int64 = { Clock.milliseconds() }
    let attempts = AttemptStore(database: database)
    let callers = CallerResolver(
        accounts: AccountStore(database: database), now: now, counter: sessionLookups,
        writes: WriteThrottle(perMinute: configuration.limits.writesPerMinutePerUser, now: now))
    let accountUseCases = try await AccountUseCases(
        database: database, passwords: PasswordHasher(cost: configuration.bcryptCost),
        limits: configuration.limits.accounts, allowRegistration: configuration.allowRegistration, now: now)
    let handler = APIHandler(
        database: database, accountUseCases: accountUseCases,
        expenseUseCases: ExpenseUseCases(database: database, now: now),
        ledgerUseCases: LedgerUseCases(database: database, now: now),
        paymentRequestUseCases: PaymentRequestUseCases(
            database: database, now: now, guessLimit: configuration.limits.payCodeAddress),
        summaryUseCases: SummaryUseCases(database: database),
        budgetUseCases: BudgetUseCases(database: database, now: now),
        recurringUseCases: RecurringUseCases(database: database, now: now),
        quickEntryUseCases: QuickEntryUseCases(database: database, now: now),
        accessTokenUseCases: AccessTokenUseCases(database: database, now: now),
        conversationUseCases: ConversationUseCases(database: database, now: now),
        payDetailsUseCases: PayDetailsUseCases(database: database, now: now),
        categoryUseCases: CategoryUseCases(database: database, now: now),
        groupUseCases: GroupUseCases(
            database: database, now: now, makeInviteCode: InviteCode.generate,
            joinLimit: configuration.limits.joinAddress),
        memberUseCases: MemberUseCases(database: database, now: now), feedUseCases: FeedUseCases(database: database),
        liveUseCases: LiveUseCases(database: database, now: now),
        notificationUseCases: NotificationUseCases(database: database, now: now),
        webhookUseCases: WebhookUseCases(
            database: database, allowPrivate: configuration.webhookAllowPrivate, now: now),
        mailUseCases: MailUseCases(database: database, now: now),
        importUseCases: ImportUseCases(database: database, now: now, makeInviteCode: InviteCode.generate),
        exportUseCases: ExportUseCases(database: database, now: now),
        configuration: configuration, now: now)

    // Background work queued by writes (mail, webhook deliveries), run by the JobRunner below.
    var jobs = BackgroundJobs()
    if let mail = configuration.mail {
        database.startSendingMail()
        let smtp = SMTPClient(settings: mail.smtp, heloName: mail.from.address.split(separator: "@").last.map(String.init) ?? "localhost")
        MailJobs(
            store: MailStore(database: database), configuration: mail, send: { try await smtp.send($0) }, now: now,
            logger: logger
        ).add(to: &jobs)
    }
    try jobs.addWebhooks(database: database, allowPrivate: configuration.webhookAllowPrivate, now: now)

    let addresses = ClientAddressResolver(trustedProxies: configuration.trustedProxies)
    let web = try await WebApp.load(
        api: handler, callers: callers, addresses: addresses, maxBodyBytes: configuration.limits.maxBodyBytes)

    let router = Router(context: AppRequestContext.self)
    // Outermost: compresses what the rest answered, error envelopes and pages included.
    router.add(middleware: ResponseCompressionMiddleware())
    router.add(middleware: ErrorEnvelopeMiddleware(browserNotFound: { web.notFoundPage() }, addresses: addresses))
    router.add(
        middleware: RequestBodyMiddleware(
            maxBodyBytes: configuration.limits.maxBodyBytes, callers: callers, addresses: addresses))
    router.add(middleware: RequestInfoMiddleware(addresses: addresses, callers: callers))
    router.add(middleware: HeavyRequestMiddleware(concurrentReads: 4))
    router.get("/openapi.yaml") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: specification)))
    }
    let document = try RequestBodyLimits.bundledSpecification()
    let bodyLimits = RequestBodyLimitsMiddleware(
        limits: try RequestBodyLimits(root: document), maxBodyBytes: configuration.limits.maxBodyBytes)
    let loginRequired = LoginRequiredMiddleware(requirement: LoginRequirement(root: document))
    let middlewares: [any ServerMiddleware] = [
        loginRequired, QueryBoundsMiddleware(bounds: QueryBounds(root: document)), bodyLimits,
        AcceptCheckMiddleware(requirement: AcceptRequirement(root: document)), DispositionHeaderMiddleware(),
    ]
    let routes = PlainRoutes(
        base: RouterTransport(router: router), api: handler, middlewares: middlewares,
        feedPages: FeedPageCache(capacity: configuration.limits.feedCacheBytes))
    try handler.registerHandlers(
        on: routes, configuration: .init(dateTranscoder: APIDateTranscoder(), jsonEncodingOptions: [.sortedKeys]),
        middlewares: middlewares)
    try routes.checkRegistered()
    web.register(on: router)
    MCPEndpoint(api: handler, callers: callers, addresses: addresses).register(on: router)

    let serverLogger = logger
    let connectionCounts = ConnectionGuard.Counts()
    let limits = configuration.limits
    let connectionGuard = ConnectionGuard.Limits(
        headTimeout: .seconds(Int64(limits.idleTimeoutSeconds)),
        bodyTimeout: .seconds(Int64(limits.bodyTimeoutSeconds)), perAddress: limits.connectionsPerAddress)
    return Application(
        router: router,
        server: .http1OnConnectionLoop(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionGuard(
                        limits: connectionGuard, counts: connectionCounts,
                        isTrustedProxy: { addresses.isTrusted(peer: $0) })
                ],
                idleTimeout: .seconds(Int64(limits.idleTimeoutSeconds)))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        services: [
            DatabaseService(database: database),
            AttemptPruner(
                attempts: attempts, keepMilliseconds: Int64(configuration.limits.longestWindowSeconds) * 1_000,
                now: now,
                logger: logger),
        ]
            + (configuration.runsJobs
                ? jobs.runners(database: database, now: now, logger: logger) + [
                    RecurringRunner(
                        recurring: handler.recurringUseCases, interval: configuration.recurringIntervalSeconds,
                        logger: logger)
                ] : []),
        onServerRunning: { channel in
            serverLogger.info(
                "listening",
                metadata: [
                    "host": "\(channel.localAddress?.ipAddress ?? configuration.host)",
                    "port": "\(channel.localAddress?.port ?? configuration.port)",
                ])
        },
        logger: logger)
}

/// The API's timestamps written and read by `UTCTimestamp` (plain arithmetic) instead of the
/// runtime's `ISO8601DateFormatter`, which is ICU on Linux (issue 16); the same text either way.
struct APIDateTranscoder: DateTranscoder {
    let fallback = ISO8601DateTranscoder()

    func encode(_ date: Date) throws -> String { try UTCTimestamp.format(date) ?? fallback.encode(date) }

    func decode(_ text: String) throws -> Date { try UTCTimestamp.parse(text) ?? fallback.decode(text) }
}
