import CLibDeflate
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Compresses large answers for clients that accept gzip (issue 16: a first sync's change feed
/// is 1.5 KB per expense as JSON, mostly repeated keys and ids, which gzip takes to a fraction).
/// Small answers are sent as they are (the header costs more than it saves), and so is anything
/// already encoded or streamed as events.
struct ResponseCompressionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Bodies smaller than this go uncompressed.
    static let minimumBytes = 1_024

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard Self.acceptsGzip(request.headers[values: .acceptEncoding]), response.headers[.contentEncoding] == nil,
            response.headers[.contentType]?.hasPrefix("text/event-stream") != true,
            (response.body.contentLength ?? .max) >= Self.minimumBytes
        else { return response }
        let collector = Collector()
        try await response.body.write(CollectingWriter(collector: collector))
        let body = collector.buffer
        guard body.readableBytes >= Self.minimumBytes else {
            response.body = .init(byteBuffer: body)
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        response.headers[values: .vary] = (response.headers[values: .vary] + ["Accept-Encoding"])
        response.headers[.contentLength] = nil
        response.body = .init(byteBuffer: Gzip.compress(body))
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
            if collector.buffer.readableBytes == 0 {
                // Most answers are one buffer: keep it rather than copy it.
                collector.buffer = buffer
            } else {
                var buffer = buffer
                collector.buffer.writeBuffer(&buffer)
            }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// Whole-buffer gzip through libdeflate.
///
/// Level 1. A page of 1,000 expenses of the change feed (1.54 MB of JSON), one core, best of 15
/// (2026-11-28, a slow day):
/// | libdeflate level | bytes | time |
/// |---|---|---|
/// | **1** | **197 KB** | **5.6 ms** |
/// | 4 | 182 KB | 11.3 ms |
/// | 5 | 175 KB | 14.3 ms |
/// | 6 (what the server used before) | 164 KB | 18.7 ms |
/// Level 6 spent a fifth of a first sync's server CPU compressing (issue 16's profile); level 1
/// takes two thirds of that off for a fifth more bytes: a first sync of 10,000 expenses is about
/// 2 MB instead of 1.6 (the issue allows 2.5), and a group of a few hundred expenses differs by a
/// few kilobytes. A page made for many devices is compressed once (`FeedPageCache`).
enum Gzip {
    static let level: Int32 = 1
    /// A compressor holds about half a megabyte of tables; keep a few for reuse rather than
    /// allocate one per answer. libdeflate's compressors are not thread-safe: each is used by
    /// one answer at a time.
    private static let idle = Mutex<[Compressor]>([])
    private static let idleLimit = 4

    /// A compressor is only ever in `idle` or in the hands of one `compress`.
    private struct Compressor: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    static func compress(_ input: ByteBuffer) -> ByteBuffer {
        input.withUnsafeReadableBytes { source in
            withCompressor { compressor in
                let bound = libdeflate_gzip_compress_bound(compressor, source.count)
                var output = ByteBuffer()
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { target in
                    // Never 0: the bound is large enough for any input.
                    libdeflate_gzip_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
                }
                return output
            }
        }
    }

    /// The gzip of `input` in an array of its own size (a kept page holds no spare room).
    static func compress(_ input: [UInt8]) -> [UInt8] {
        let room = input.withUnsafeBytes { source in
            withCompressor { compressor in
                let bound = libdeflate_gzip_compress_bound(compressor, source.count)
                return [UInt8](unsafeUninitializedCapacity: bound) { target, count in
                    count = libdeflate_gzip_compress(compressor, source.baseAddress, source.count, target.baseAddress, bound)
                }
            }
        }
        var exact: [UInt8] = []
        exact.reserveCapacity(room.count)
        exact.append(contentsOf: room)
        return exact
    }

    private static func withCompressor<T>(_ body: (OpaquePointer) -> T) -> T {
        let taken = idle.withLock { $0.popLast() } ?? Compressor(pointer: libdeflate_alloc_compressor(level)!)
        defer {
            let kept = idle.withLock { idle in
                guard idle.count < idleLimit else { return false }
                idle.append(taken)
                return true
            }
            if !kept { libdeflate_free_compressor(taken.pointer) }
        }
        return body(taken.pointer)
    }
}
