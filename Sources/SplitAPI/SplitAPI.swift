import Foundation

/// The contract itself, as shipped beside the code generated from it.
public enum APISpecification {
    /// The bytes of `openapi.yaml`, served at `/openapi.yaml`.
    public static func yaml() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
