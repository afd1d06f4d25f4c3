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

let package = Package(
    name: "budget-splitter",
    // Int128 (exact intermediate products in apportionment and conversion) needs these minimums.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SplitCore", targets: ["SplitCore"]),
        .library(name: "SplitStore", targets: ["SplitStore"]),
        .library(name: "SplitTestSupport", targets: ["SplitTestSupport"]),
    ],
    dependencies: [
        // Property-based tests for every money rule (random inputs, shrinking, reproducible seeds).
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // One SQL code path (query builders, binds) over both databases (DESIGN §6).
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        // The zero-configuration backend: an SQLite file in the working directory.
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        // The production backend: PostgreSQL, pooled connections.
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
    ],
    targets: [
        // The pure money engine: currencies, amounts, split rules, balances, plans, permissions.
        .target(name: "SplitCore", swiftSettings: swiftSettings),
        // Persistence: migrations and queries over SQLKit, identical on SQLite and PostgreSQL.
        .target(
            name: "SplitStore",
            dependencies: [
                "SplitCore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // Fixtures shared by tests and benchmarks: seeded random expenses, member ids.
        .target(name: "SplitTestSupport", dependencies: ["SplitCore"], swiftSettings: swiftSettings),
        // Release-mode benchmarks of SplitCore (`swift run -c release splitcore-bench`).
        .executableTarget(
            name: "splitcore-bench",
            dependencies: ["SplitCore", "SplitTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SplitStoreTests",
            dependencies: ["SplitStore", "SplitTestSupport"],
            swiftSettings: swiftSettings
        ),
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
