import Foundation
internal import HTTPTypes
internal import OpenAPIRuntime
internal import OpenAPIURLSession

#if canImport(FoundationNetworking)
    internal import AsyncHTTPClient
    internal import NIOHTTPCompression
    internal import OpenAPIAsyncHTTPClient
#endif

/// The one transport every call of the SDK goes through (the generated client's and the change
/// feed's own request), except the live stream and MCP, which keep URLSession.
///
/// On Apple's systems it is URLSession. On Linux (the `splitter` CLI, the SDK's benchmarks and
/// tests) it is AsyncHTTPClient, unless the environment names a proxy: URLSession there runs on
/// libcurl driven by libdispatch's socket sources, and kept a core busy while it waited for each
/// answer. `perf` during `splitclient-bench replay` (issue 16, two cores shared with the server
/// and PostgreSQL): the client spent 0.9 s of CPU in a replay of about a second, four fifths of
/// it in libdispatch and `epoll`; with AsyncHTTPClient, about 0.1 s.
enum HTTPTransport {
    #if canImport(FoundationNetworking)
        /// One client for the process, never shut down (it lives as long as the process). With
        /// decompression on, it asks for gzip and inflates it, as URLSession does by itself: a
        /// page of the change feed is a tenth of the bytes. A server that cannot be reached is
        /// `.offline` at once, as with URLSession: by default AsyncHTTPClient tries to connect
        /// again until its connect timeout, and each offline command waited 10 s to queue.
        private static let client: HTTPClient = {
            var configuration = HTTPClient.Configuration(
                decompression: .enabled(limit: .size(SplitterClient.largestFeedPage)))
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(configuration: configuration)
        }()

        static let shared: any ClientTransport =
            usesProxy(ProcessInfo.processInfo.environment)
            ? URLSessionTransport() : AsyncHTTPClientTransport(configuration: .init(client: client))

        /// Whether the environment names a proxy (`http_proxy`, `https_proxy`, `all_proxy`, in
        /// either case): libcurl honours those and AsyncHTTPClient does not, so with one set the
        /// SDK keeps URLSession, whatever it costs.
        static func usesProxy(_ environment: [String: String]) -> Bool {
            ["http_proxy", "https_proxy", "all_proxy"].contains { name in
                [name, name.uppercased()].contains { !(environment[$0] ?? "").isEmpty }
            }
        }
    #else
        static let shared: any ClientTransport = URLSessionTransport()
    #endif
}
