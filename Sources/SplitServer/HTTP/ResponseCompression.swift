import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Compresses large answers for clients that accept gzip (issue 16: a first sync's change feed
/// is 1.5 KB per expense as JSON, mostly repeated keys and ids, which gzip takes to a fraction).
/// Small answers are sent as they are (the header costs more than it saves), and so is anything
/// already encoded or streamed as events.
struct ResponseCompressionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Bodies smaller than this go uncompressed.
    var minimumBytes = 1_024

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard Self.acceptsGzip(request.headers[values: .acceptEncoding]), response.headers[.contentEncoding] == nil,
            response.headers[.contentType]?.hasPrefix("text/event-stream") != true,
            (response.body.contentLength ?? .max) >= minimumBytes
        else { return response }
        let collector = Collector()
        try await response.body.write(CollectingWriter(collector: collector))
        var body = collector.buffer
        guard body.readableBytes >= minimumBytes else {
            response.body = .init(byteBuffer: body)
            return response
        }
        // Level 5: a page of 1,000 expenses of the change feed is 13 % smaller than at level 1
        // (262 → 227 KB; a first sync of 10,000 about 2.3 MB against 2.7) for about 6 ms more
        // per page, a tenth more server time. Bytes are what a phone on a slow network waits
        // for. (Level 6: 217 KB for 9.5 ms more; level 9: 211 KB for 22 ms more.)
        let compressed = try body.compress(
            with: .gzip(configuration: .init(compressionLevel: .compressionLevel5)))
        response.headers[.contentEncoding] = "gzip"
        response.headers[values: .vary] = (response.headers[values: .vary] + ["Accept-Encoding"])
        response.headers[.contentLength] = nil
        response.body = .init(byteBuffer: compressed)
        return response
    }

    /// Whether `Accept-Encoding` lists gzip with a q-value above zero.
    static func acceptsGzip(_ values: [String]) -> Bool {
        for coding in values.flatMap({ $0.split(separator: ",") }) {
            let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "gzip" || parts.first == "*" else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { return true }
        }
        return false
    }

    private final class Collector: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let collector: Collector

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            collector.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
