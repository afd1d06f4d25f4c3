import Hummingbird
import NIOCore
import OpenAPIRuntime
import Testing

@testable import SplitServer

/// How the generated server's answers reach Hummingbird (issue 16): one buffer when their length is
/// known, so the head and the body leave in one write; a stream otherwise.
@Suite("RouterTransport: answers of known length in one buffer")
struct RouterTransportTests {
    /// Three chunks of a body, as a stream that says its length or not.
    static func chunked(knownLength: Bool) -> (HTTPBody, [UInt8]) {
        let chunks: [[UInt8]] = [Array("{\"a\":".utf8), Array("\"bc\"".utf8), Array("}".utf8)]
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            for chunk in chunks { continuation.yield(chunk[...]) }
            continuation.finish()
        }
        let all = chunks.flatMap { $0 }
        let length: HTTPBody.Length = knownLength ? .known(Int64(all.count)) : .unknown
        return (HTTPBody(stream, length: length, iterationBehavior: .single), all)
    }

    @Test("a body of known length is one buffer, written once, with its length")
    func gathered() async throws {
        let (answer, bytes) = Self.chunked(knownLength: true)
        let body = try await RouterTransport<BasicRequestContext>.body(answer)
        #expect(body.contentLength == bytes.count)
        let written = try await Recorder.writes(of: body)
        #expect(written == [bytes])
    }

    @Test("a body of unknown length (a live stream) is streamed as it comes, chunk by chunk")
    func streamed() async throws {
        let (answer, bytes) = Self.chunked(knownLength: false)
        let body = try await RouterTransport<BasicRequestContext>.body(answer)
        #expect(body.contentLength == nil)
        let written = try await Recorder.writes(of: body)
        #expect(written.count == 3)
        #expect(written.flatMap { $0 } == bytes)
    }

    @Test("a body larger than the limit is streamed, with its length")
    func large() async throws {
        let (answer, bytes) = Self.chunked(knownLength: true)
        let body = try await RouterTransport<BasicRequestContext>.body(answer, gatherLimit: 4)
        #expect(body.contentLength == bytes.count)
        let written = try await Recorder.writes(of: body)
        #expect(written.count == 3)
        #expect(written.flatMap { $0 } == bytes)
    }

    @Test("no body is an empty answer of length 0")
    func none() async throws {
        let body = try await RouterTransport<BasicRequestContext>.body(nil)
        #expect(body.contentLength == 0)
        #expect(try await Recorder.writes(of: body).allSatisfy(\.isEmpty))
    }

    /// Writes a body into memory, each `write` call kept apart.
    final class Recorder: @unchecked Sendable {
        var writes: [[UInt8]] = []
        var finished = false

        static func writes(of body: ResponseBody) async throws -> [[UInt8]] {
            let recorder = Recorder()
            try await body.write(Writer(recorder: recorder))
            #expect(recorder.finished)
            return recorder.writes
        }

        struct Writer: ResponseBodyWriter {
            let recorder: Recorder

            mutating func write(_ buffer: ByteBuffer) async throws {
                recorder.writes.append(Array(buffer.readableBytesView))
            }

            consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
                recorder.finished = true
            }
        }
    }
}
