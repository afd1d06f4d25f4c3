// swift-tools-version: 6.2
import PackageDescription

// Only for `scripts/generate-api`: the swift-openapi-generator command, at the one version whose
// output is committed in Sources/SplitAPI/Generated. The main package does not depend on it, so
// no build compiles the generator (OpenAPIKit and the rest: about a tenth of a clean build's CPU,
// twice in a debug build, where SwiftPM builds it as the plugin's tool and again as a product).
let package = Package(
    name: "openapi-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
    ]
)
