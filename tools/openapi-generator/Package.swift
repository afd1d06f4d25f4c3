// swift-tools-version: 6.2
import PackageDescription

// Only for `scripts/generate-api`: the swift-openapi-generator command, at the one version whose
// output is committed in Sources/SplitAPI/Generated, and `spec-json`, which writes openapi.yaml
// again as JSON. The main package depends on neither, so no build compiles the generator
// (OpenAPIKit and the rest: about a tenth of a clean build's CPU, twice in a debug build, where
// SwiftPM builds it as the plugin's tool and again as a product) or a YAML reader.
let package = Package(
    name: "openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        // The generator's own YAML reader, at the version the generator resolves.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .executableTarget(name: "spec-json", dependencies: [.product(name: "Yams", package: "Yams")])
    ]
)
