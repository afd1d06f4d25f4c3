import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Serves the generated server's operations on Hummingbird's router.
///
/// What swift-openapi-hummingbird does, with one difference (issue 16): an answer whose length is
/// known, which is every JSON answer the generated code makes, is gathered into one buffer, so
/// Hummingbird sends its head and body in one `writev`. Handed over as a stream, the head and the
/// body were two writes, and each write on a socket costs a trip through the kernel's TCP stack
/// that was a third of `GET /health`'s CPU (docs/benchmarks.md). Answers of unknown length (live
/// streams) and very large ones are still streamed as they come.
struct RouterTransport<Context: RequestContext>: ServerTransport {
    /// Answers up to this size are gathered; a larger one is streamed.
    static var gatherLimit: Int64 { 16 << 20 }

    let router: Router<Context>

    func register(_ handler: @escaping OperationHandler, method: HTTPRequest.Method, path: String) throws {
        router.on(RouterPath(path), method: method) { request, context in
            let length: HTTPBody.Length =
                if let header = request.headers[.contentLength], let count = Int64(header) {
                    .known(count)
                } else {
                    .unknown
                }
            let body = HTTPBody(request.body.map { [UInt8](buffer: $0) }, length: length, iterationBehavior: .single)
            var parameters: [String: Substring] = [:]
            for (name, value) in context.parameters where parameters[String(name)] == nil {
                parameters[String(name)] = value
            }
            let (head, answer) = try await handler(request.head, body, .init(pathParameters: parameters))
            return Response(status: head.status, headers: head.headerFields, body: try await Self.body(answer))
        }
    }

    static func body(_ answer: HTTPBody?, gatherLimit: Int64 = gatherLimit) async throws -> ResponseBody {
        guard let answer else { return ResponseBody(byteBuffer: ByteBuffer()) }
        let buffers = answer.map { ByteBuffer(bytes: $0) }
        switch answer.length {
        case .known(let length) where length <= gatherLimit:
            var buffer = ByteBuffer()
            buffer.reserveCapacity(Int(length))
            for try await chunk in answer {
                buffer.writeBytes(chunk)
            }
            return ResponseBody(byteBuffer: buffer)
        case .known(let length):
            return ResponseBody(contentLength: Int(length)) { writer in
                for try await buffer in buffers { try await writer.write(buffer) }
                try await writer.finish(nil)
            }
        case .unknown:
            return ResponseBody(asyncSequence: buffers)
        }
    }
}

/// What the generated server registers for each operation (`ServerTransport.register`).
typealias OperationHandler = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
    HTTPResponse, HTTPBody?
)
