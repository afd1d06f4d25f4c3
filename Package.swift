// swift-tools-version: 6.2
import PackageDescription

// One set of compiler settings for every target (STYLE §3): Swift 6 language mode (the tools
// version's default), explicit `any`, imports that must be visible where they are used, and no
// warnings left standing in our own code.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

// Generated code (SplitAPI) declares `public import`s that some of its files do not use; those
// warnings are the generator's, so that one target keeps them as warnings.
let generatedCodeSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "budget-splitter",
    // Int128 (exact intermediate products in apportionment and conversion) needs these minimums.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SplitCore", targets: ["SplitCore"]),
        .library(name: "SplitStore", targets: ["SplitStore"]),
        .library(name: "SplitApp", targets: ["SplitApp"]),
        .library(name: "SplitAPI", targets: ["SplitAPI"]),
        .library(name: "SplitServer", targets: ["SplitServer"]),
        .library(name: "SplitTestSupport", targets: ["SplitTestSupport"]),
        .executable(name: "splitter-server", targets: ["splitter-server"]),
        .library(name: "SplitClient", targets: ["SplitClient"]),
        .executable(name: "splitter", targets: ["splitter"]),
    ],
    dependencies: [
        // Property-based tests for every money rule (random inputs, shrinking, reproducible seeds).
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // One SQL code path (query builders, binds) over both databases (DESIGN §6).
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        // The zero-configuration backend: SQLite built from source, nothing to install. We call
        // its C API (the VaporCSQLite module, symbols prefixed sqlite_nio_) directly, not its
        // connection type, so a statement runs on the caller's thread (SQLiteHandle says why).
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // The production backend: PostgreSQL, pooled connections.
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        // Its connection pool (brought by postgres-kit), named in the tests: a pool's timeout is
        // an overload the server answers 503.
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        // The runtime of the HTTP contract's code (types, client and server protocol), which
        // scripts/generate-api makes from openapi.yaml with swift-openapi-generator
        // (tools/openapi-generator) and which is committed, so no build compiles the generator.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        // The generated client's transport on URLSession: the SDK's on Apple's systems.
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        // The SDK's transport on Linux (the CLI, the SDK benchmarks): URLSession there runs on
        // libcurl and libdispatch, and kept a core busy while it waited for each answer (issue 16).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        // The SDK's offline store: the queue of writes made while the server is unreachable.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The `splitter` command line: subcommands, options, help.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The HTTP server (routing, middleware, testing against the real application).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Bcrypt for passwords, run off the event loop.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // gzip for large answers (the change feed of a first sync), on zlib (issue 16).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // An account's export (issue 18) is one zip of every group's files, built in memory.
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        // One configuration reader: command line > environment > .env > defaults (DESIGN §7).
        .package(
            url: "https://github.com/apple/swift-configuration.git",
            from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]
        ),
        // Graceful shutdown on SIGTERM: the server and the database pool run in one service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // SHA-256 of session tokens (already built for PostgreSQL's SCRAM authentication).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // NIO's thread pool, where bcrypt runs so it never blocks request handling.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // TLS for the SMTP client (STARTTLS, implicit TLS) and webhook deliveries; already in the
        // build for PostgreSQL's TLS connections.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The Model Context Protocol (issue 21): the server's /mcp endpoint speaks it with the
        // official SDK, so any MCP client (a desktop assistant, an agent) can use the tools.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", from: "0.12.1"),
        // HTTP parts as swift-http-types, for the connection guard that sits in Hummingbird's pipeline.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // HTTP status and header types shared by Hummingbird and the OpenAPI runtime.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // FilePath, for the optional `.env` file swift-configuration reads.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // Structured logs.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The web app's server-rendered pages: logic-less templates, HTML-escaped by default.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // The pure money engine: currencies, amounts, split rules, balances, plans, permissions.
        .target(name: "SplitCore", swiftSettings: swiftSettings),
        // One SQLite setting Swift cannot make (sqlite3_db_config is variadic), for SplitStore.
        .target(name: "CSQLiteSettings"),
        // Debian's libdeflate: the gzip of large answers (SplitServer's ResponseCompression).
        .target(name: "CLibDeflate", linkerSettings: [.linkedLibrary("deflate")]),
        // Programs run beside this one (qrencode, the server a test starts): posix_spawn with
        // glibc's file actions that Swift's Glibc module does not show, and its Swift face.
        .target(name: "CSpawn"),
        .target(name: "SplitSpawn", dependencies: ["CSpawn"], swiftSettings: swiftSettings),
        // Persistence: migrations and queries over SQLKit, identical on SQLite and PostgreSQL.
        .target(
            name: "SplitStore",
            dependencies: [
                "SplitCore", "CSQLiteSettings",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The use cases (docs/architecture.md): SplitCore values and a resolved caller in, one
        // store transaction, domain values or an `AppError` out. No HTTP.
        .target(
            name: "SplitApp",
            dependencies: [
                "SplitCore", "SplitStore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [.copy("Accounts/Resources/common-passwords.txt")],
            swiftSettings: swiftSettings
        ),
        // The HTTP contract: openapi.yaml and the code swift-openapi-generator makes from it
        // (Generated/, by scripts/generate-api).
        .target(
            name: "SplitAPI",
            dependencies: ["SplitCore", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            swiftSettings: generatedCodeSwiftSettings
        ),
        // The server as a library: handlers, auth, middleware; `buildApplication(configuration:)`.
        .target(
            name: "SplitServer",
            dependencies: [
                "SplitCore", "SplitAPI", "SplitStore", "SplitApp", "SplitSpawn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // HTTPParserError: the parser's refusals get the API's envelope (ConnectionGuard).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Mustache", package: "swift-mustache"),
                "CLibDeflate",
            ],
            // API/openapi.json: openapi.yaml as JSON, written by scripts/generate-api, so that the
            // server reads its request-body bounds at start-up without a YAML reader.
            resources: [.copy("Web/Templates"), .copy("Web/Static"), .copy("API/openapi.json")],
            swiftSettings: swiftSettings
        ),
        // `@main` only: reads configuration and runs the server (STYLE §2).
        .executableTarget(
            name: "splitter-server",
            dependencies: ["SplitServer", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),
        // The SDK: a typed client over the generated one, with token storage. Never imports
        // SplitStore, NIO or Hummingbird (DESIGN §2), so it builds for iOS and macOS too.
        .target(
            name: "SplitClient",
            dependencies: [
                "SplitCore", "SplitAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras", condition: .when(platforms: [.linux])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `splitter` commands as a library (STYLE §2), and the thin executable.
        .target(
            name: "SplitterCLI",
            dependencies: [
                "SplitClient", "SplitCore", "SplitSpawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "splitter",
            dependencies: ["SplitterCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // Fixtures shared by tests and benchmarks: seeded random expenses, member ids.
        .target(
            name: "SplitTestSupport",
            dependencies: [
                "SplitCore", "SplitStore", "SplitSpawn",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Release-mode benchmarks of SplitCore (`swift run -c release splitcore-bench`).
        .executableTarget(
            name: "splitcore-bench",
            dependencies: ["SplitCore", "SplitTestSupport"],
            swiftSettings: swiftSettings
        ),
        // Release-mode benchmarks of the SDK against the real server (`splitclient-bench`, docs/benchmarks.md).
        .executableTarget(
            name: "splitclient-bench",
            dependencies: ["SplitClient", "SplitAPI", "SplitTestSupport", "SplitSpawn"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SplitAppTests",
            dependencies: [
                "SplitApp", "SplitStore", "SplitCore", "SplitTestSupport", .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Real exports of other apps (Fixtures/splitwise/SOURCES.md says where each is from),
            // read by the import tests from the source tree.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SplitStoreTests",
            dependencies: [
                "SplitStore", "SplitTestSupport", "SplitCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SplitServerTests",
            dependencies: [
                "SplitServer", "SplitAPI", "SplitStore", "SplitApp", "SplitTestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
                // AppTester: the application run for a test, without HummingbirdTesting's HTTP
                // client library and HTTP/2.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
            ],
            // Databases written by an earlier release, read by UpgradeTests from the source tree.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SplitterCLITests",
            dependencies: [
                "SplitterCLI", "SplitClient", "SplitAPI", "SplitStore", "SplitTestSupport", "SplitSpawn",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SplitSpawnTests", dependencies: ["SplitSpawn"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SplitCoreTests",
            dependencies: [
                "SplitCore",
                "SplitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
