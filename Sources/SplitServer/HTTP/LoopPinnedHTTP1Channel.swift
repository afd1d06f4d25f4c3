import HummingbirdCore
import Logging
import NIOCore
import SplitStore

/// HTTP/1 connections whose requests are handled on the connection's own event loop.
///
/// Hummingbird reads a request on the channel's event loop and hands it to a task on Swift's
/// global pool; the answer goes back to the loop to be written. Each hand-over wakes another
/// thread: a fifth of the server's CPU on `GET /health` went to switching threads (issue 16).
/// With the connection's task preferring its channel's loop, the handler runs where the bytes
/// were read, and its answer is written without a hop. Connections are spread over the loops
/// as NIO accepts them, so every core still works.
///
/// What computes for long does not run here: pages of changes or expenses, batches, imports and
/// exports go to Swift's pool (`HeavyRequestMiddleware`), passwords hash on their own pool
/// (`PasswordHasher`), and recurring runs use `Database.longTransaction`.
struct LoopPinnedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// `.http1(configuration:)` with each connection handled on its own event loop.
    static func http1OnConnectionLoop(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        .init { responder in
            LoopPinnedHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}
